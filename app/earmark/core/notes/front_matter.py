"""The YAML front matter of a Markdown note: values Obsidian and Logseq read as one type each, text that makes
no link."""

from __future__ import annotations

import json
import re
import unicodedata
from datetime import UTC, date, datetime

from earmark.core.articles.readtime import reading_minutes
from earmark.core.notes.collect import ExportItem
from earmark.core.notes.note_tags import note_tags

ID_KEY = "earmark-id"  # how a re-export finds the item's file, even after a rename
_UNSAFE_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Co", "Cn", "Cs"}
_BRACKETS = re.compile(r"\[{2,}|\]{2,}")  # Obsidian makes "[[…]]" in a text property a link


def stamp(seconds: float) -> str:
    """``hh:mm:ss``."""
    total = int(seconds)
    return f"{total // 3600:02d}:{total % 3600 // 60:02d}:{total % 60:02d}"


def front_matter(item: ExportItem, exported_at: str) -> str:
    """YAML front matter. Every value is written as JSON (strings double-quoted and escaped, lists in brackets),
    which YAML reads as the same value: no title can break it."""
    fields: list[tuple[str, object]] = [
        ("title", property_text(item.title)),
        ("source", property_text(item.source)),
        ("author", property_text(item.author or item.source_author)),
        ("url", item.web_url),
        ("published", published_date(item.published)),
        ("duration", stamp(item.duration) if item.duration and item.kind == "episode" else None),
        ("tags", note_tags([*item.tags, *item.source_tags])),
        ("exported-at", exported_at),
        (ID_KEY, item.id),
    ]
    if item.kind == "article":  # an article's duration is its estimated reading time
        fields.insert(6, ("reading-time", reading_minutes(item.duration) or None))
    lines = [f"{key}: {yaml_value(value)}" for key, value in fields]
    return "---\n" + "\n".join(lines) + "\n---\n"


def property_text(text: str | None) -> str | None:
    """A text property as Obsidian shows it: ``[[`` and ``]]`` backslash-escaped as in the body, so that no
    title makes a link (or a ghost note in the graph)."""
    if text is None:
        return None
    return _BRACKETS.sub(lambda match: "".join("\\" + char for char in match.group(0)), text)


def published_date(published: str | None) -> str | None:
    """``YYYY-MM-DD``, always a date (Obsidian's Date type): feeds give date-times, article pages often only a
    day, and a property with both is of two types. A date-time's day is taken in UTC; what is neither is left
    out."""
    if not published:
        return None
    try:
        moment = datetime.fromisoformat(published.strip().replace("Z", "+00:00"))
    except ValueError:
        try:
            return date.fromisoformat(published.strip()[:10]).isoformat()
        except ValueError:
            return None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.date().isoformat()


def yaml_value(value: object) -> str:
    """``value`` as JSON, with the characters YAML would not take as they are (C1 controls, line and paragraph
    separators, invisible format characters) escaped too: JSON leaves them raw, YAML folds or refuses them.
    Beyond the BMP, YAML and JSON escape differently, and YAML takes every such character raw: left as is."""
    return "".join(f"\\u{ord(char):04x}" if 0x7F <= ord(char) <= 0xFFFF
                   and unicodedata.category(char) in _UNSAFE_CATEGORIES else char
                   for char in json.dumps(value, ensure_ascii=False))
