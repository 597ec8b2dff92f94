"""Markdown notes for Obsidian and Logseq: one file per item, YAML front matter, timestamps linked to that moment
in Earmark (and in the audio on the web)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from earmark.core.files import write_file
from earmark.core.models import Note
from earmark.core.notes.collect import ExportItem, RelatedItem
from earmark.core.notes.files import prepare_folder, safe_name
from earmark.core.notes.front_matter import ID_KEY, front_matter, stamp
from earmark.core.notes.highlight_context import quote_in_sentence
from earmark.core.notes.mdtext import escape, link, one_line, target
from earmark.core.notes.moment_links import moment_url
from earmark.core.notes.show_notes import summary_markdown

_ID_LINE = re.compile(rf"^{ID_KEY}: (\d+)$", re.MULTILINE)
_YOUTUBE_HOSTS = {"youtube.com", "www.youtube.com", "m.youtube.com", "music.youtube.com", "youtu.be"}
_HEAD_BYTES = 4096  # the front matter is at the top: no need to read whole files to find the id


def timestamp_url(item: ExportItem, seconds: float) -> str | None:
    """A link that plays the episode from ``seconds``: a YouTube page with ``t=``; else the http(s) audio file
    with a ``#t=`` media fragment (browsers start playing there); else None (the page cannot seek)."""
    if item.url:
        page = urlsplit(item.url)
        if page.hostname in _YOUTUBE_HOSTS:
            query = [(k, v) for k, v in parse_qsl(page.query, keep_blank_values=True) if k != "t"]
            return urlunsplit(page._replace(query=urlencode([*query, ("t", f"{int(seconds)}s")])))
    if item.enclosure_url and urlsplit(item.enclosure_url).scheme in ("http", "https"):
        return urlunsplit(urlsplit(item.enclosure_url)._replace(fragment=f"t={int(seconds)}"))
    return None


def render_markdown(item: ExportItem, exported_at: str, names: Mapping[int, str] | None = None) -> str:
    """The item's Markdown file: front matter, title, the start of its show notes (links kept), highlights as
    block quotes (each with its note), each other note as a bullet, then its related items (when the topic graph
    has worked them out): a wikilink to each that this export writes (``names``: their files' names, by id), the
    others as text with their address. Text from feeds and notes is escaped (core/notes/mdtext.py): the only
    structure is Earmark's own."""
    parts = [front_matter(item, exported_at), f"\n# {one_line(item.title)}\n"]
    summary = summary_markdown(item.description, item.url)
    if summary:
        parts.append(f"\n{summary}\n")
    highlights = [note for note in item.notes if note.is_highlight]
    notes = [note for note in item.notes if not note.is_highlight]
    if highlights:
        parts.append("\n## Highlights\n")
        parts.extend(_highlight(item, note) for note in highlights)
    if notes or not highlights:
        parts.append("\n## Notes\n\n")
        parts.extend(_bullet(item, note) for note in notes)
    if item.related:
        parts.append("\n## Related\n\n")
        parts.extend(f"- {_related(other, names or {})}\n" for other in item.related)
    return "".join(parts)


def _highlight(item: ExportItem, note: Note) -> str:
    """The sentence the highlight is in, its words in bold (the quote alone when it is no longer in the text)."""
    context = item.contexts.get(note.id)
    if context is not None:
        quote = f"> {quote_in_sentence(note.quote, context)}"
    else:
        quote = "\n".join(f"> {escape(line)}" if line.strip() else ">" for line in note.quote.strip().splitlines())
    remark = f"\n**Note:** {escape(note.text)}\n" if note.text else ""
    return f"\n{quote}\n{remark}"


def _related(other: RelatedItem, names: Mapping[int, str]) -> str:
    """A wikilink to the related item's file when this export writes it; else its title and address (a link to a
    note that is not in the vault is a ghost in Obsidian's graph)."""
    if other.id in names:
        return wikilink(other.title, names[other.id])
    return f"{one_line(other.title)} — {link(other.address, other.address)}" if other.address else one_line(other.title)


def wikilink(title: str, name: str | None = None) -> str:
    """``[[Name]]`` for the file ``name`` (by default the one an export names after ``title``), ``[[Name|Title]]``
    when they differ."""
    name = name or safe_name(title)
    shown = " ".join(title.replace("[", "(").replace("]", ")").replace("|", "/").split())
    return f"[[{name}]]" if shown == name else f"[[{name}|{shown}]]"


def _bullet(item: ExportItem, note: Note) -> str:
    text = escape(note.text).replace("\n", "\n  ")
    if note.at is None:
        line = f"- {text}\n"
    else:
        here = moment_url(item.source_url, item.identity, note.at)
        web = timestamp_url(item, note.at)
        also = f" ([web]({target(web)}))" if web else ""
        chapter = item.chapter_at(note.at)
        named = f" *{one_line(chapter.title)}:*" if chapter else ""
        line = f"- [\\[{stamp(note.at)}\\]]({here}){also}{named} {text}\n"
    if note.quote:
        line += f"  > {one_line(note.quote)}\n"
    return line


def write_markdown(items: list[ExportItem], folder: Path, exported_at: str) -> list[Path]:
    """Write one file per item into ``folder``. A re-export rewrites the item's file (found by the id in its
    front matter); a new file is named after the title, with the id added when another file has that name. Related
    items link to the files as named here."""
    prepare_folder(folder)
    ours = _files_by_id(folder)
    claimed = {path.name for path in ours.values()}
    paths = {}
    for item in items:
        path = ours.get(item.id)
        if path is None:
            base = safe_name(item.title)
            name = f"{base}.md"
            if name in claimed or (folder / name).exists():
                name = f"{base} ({item.id}).md"
            path = folder / name
            claimed.add(name)
        paths[item.id] = path
    names = {item_id: path.stem for item_id, path in paths.items()}
    for item in items:
        write_file(paths[item.id], render_markdown(item, exported_at, names))
    return list(paths.values())


def _files_by_id(folder: Path) -> dict[int, Path]:
    found: dict[int, Path] = {}
    for path in sorted(folder.glob("*.md")):
        try:
            with path.open("rb") as file:
                head = file.read(_HEAD_BYTES).decode("utf-8", errors="replace")
        except OSError:
            continue
        match = _ID_LINE.search(head.split("\n---", 1)[0]) if head.startswith("---\n") else None
        if match:
            found.setdefault(int(match.group(1)), path)
    return found
