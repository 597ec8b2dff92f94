"""Counts read as people say them ("1 new subscription", "2 notes"), never "subscription(s)": every string
of the app is checked, and the counts it builds in f-strings go through core.plurals.counted."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from earmark.core.plurals import counted, verb

APP = Path(__file__).resolve().parents[2] / "app"
HEDGED = re.compile(r"[a-z]\((s|es)\)")  # "item(s)", "match(es)"; "http(s)" is a scheme, not a plural
NOUNS = ("item", "note", "episode", "article", "feed", "subscription", "link", "highlight", "source", "relation",
         "password", "podcast", "file", "change", "session")
# A number placed before a plural noun in an f-string: "{count} items" reads "1 items" when count is 1.
BARE_COUNT = re.compile(r"^ (new )?(" + "|".join(NOUNS) + r")s\b")


def strings(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module, with their lines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def bare_counts(path: Path) -> list[int]:
    """Lines of f-strings where a value is followed by a plural noun ("{n} items"), unguarded."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            for before, after in zip(node.values, node.values[1:], strict=False):
                if (isinstance(before, ast.FormattedValue) and isinstance(after, ast.Constant)
                        and BARE_COUNT.match(str(after.value))):
                    found.append(node.lineno)
    return found


def modules() -> list[Path]:
    return sorted(APP.rglob("*.py"))


def test_no_sentence_hedges_its_plural() -> None:
    hedged = [f"{path.relative_to(APP)}:{line}: {text!r}" for path in modules() for line, text in strings(path)
              if HEDGED.search(text.replace("http(s)", ""))]
    assert not hedged, "say counts with earmark.core.plurals.counted:\n" + "\n".join(hedged)


def test_no_count_is_put_before_a_plural_noun_unguarded() -> None:
    bare = [f"{path.relative_to(APP)}:{line}" for path in modules() for line in bare_counts(path)]
    assert not bare, "a count of one would read '1 items'; use earmark.core.plurals.counted:\n" + "\n".join(bare)


def test_counts_read_as_people_say_them() -> None:
    assert [counted(n, "new subscription") for n in (0, 1, 2)] == [
        "0 new subscriptions", "1 new subscription", "2 new subscriptions"]
    assert counted(1, "entry", "entries") == "1 entry" and counted(3, "entry", "entries") == "3 entries"
    assert counted(12_000, "item") == "12,000 items"
    assert (verb(1, "is", "are"), verb(2, "is", "are")) == ("is", "are")
