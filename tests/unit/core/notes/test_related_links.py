"""Related items link only to notes the same export writes, by the names it gives their files: no unresolved link
and no ghost node in Obsidian's graph; the others are text with their address."""

from __future__ import annotations

from pathlib import Path

import pytest

from earmark.core.db.database import Database
from earmark.core.db.notes import NoteFilter
from earmark.core.notes.export import export_notes
from earmark.core.topics.build import update_relations
from helpers.markdown_structure import structure
from helpers.notes_library import EXPORTED_AT, FixedLibrary, build


@pytest.fixture
def related(library: Database) -> FixedLibrary:
    fixed = build(library)
    update_relations(library)  # basics: the video (0.90) and the article (0.51)
    return fixed


def export(library: Database, vault: Path, scope: NoteFilter) -> dict[str, list[str]]:
    """Each written file's Related lines, by file name; every wikilink in the vault names a file written."""
    paths = export_notes(library, "markdown", scope, vault, now=EXPORTED_AT).paths
    written = {path.stem for path in paths}
    sections = {}
    for path in paths:
        text = path.read_text(encoding="utf-8")
        targets = {link.strip("![]").split("|")[0] for link in structure(text).wiki_links}
        assert targets <= written, (path.name, targets - written)
        sections[path.name] = text.split("\n## Related\n\n", 1)[1].splitlines() if "## Related" in text else []
    return sections


def test_an_item_exported_alone_names_its_related_items_with_their_addresses(library: Database,
                                                                             related: FixedLibrary,
                                                                             tmp_path: Path) -> None:
    sections = export(library, tmp_path / "vault", NoteFilter(item_ids=(related.basics,)))
    assert sections["Graph capture the basics.md"] == [
        '- Lowering "in depth" \\#2 — [https://www.youtube.com/watch?v=abc123&t=10]'
        "(https://www.youtube.com/watch?v=abc123&t=10)",
        "- Ünïcode / slashes: a “quoted” title? — [https://weekly.example.org/issue-1]"
        "(https://weekly.example.org/issue-1)"]


def test_items_exported_together_link_to_each_others_files_as_named(library: Database, related: FixedLibrary,
                                                                    tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Lowering in depth 2.md").write_text("my own note of that name\n", encoding="utf-8")
    sections = export(library, vault, NoteFilter(tag="podcasts"))  # the podcast's three, not the article
    assert sections["Graph capture the basics.md"] == [
        f'- [[Lowering in depth 2 ({related.video})|Lowering "in depth" #2]]',  # not the user's own file
        "- Ünïcode / slashes: a “quoted” title? — [https://weekly.example.org/issue-1]"
        "(https://weekly.example.org/issue-1)"]
    assert sections[f"Lowering in depth 2 ({related.video}).md"] == ["- [[Graph capture the basics|Graph capture: "
                                                                     "the basics]]"]
    (vault / "Graph capture the basics.md").rename(vault / "Renamed in Obsidian.md")
    sections = export(library, vault, NoteFilter())
    assert sections[f"Lowering in depth 2 ({related.video}).md"] == [
        "- [[Renamed in Obsidian|Graph capture: the basics]]"]
