"""Item filters shared by listings, search and the GUI's lazy models: built into parameterised SQL."""

from __future__ import annotations

import re
from dataclasses import dataclass

from earmark.core.db.tags import normalize_tag
from earmark.core.models import ItemKind

_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True, slots=True)
class ItemFilter:
    """What a list of items shows. Empty fields do not filter."""

    kind: ItemKind | None = None
    source_id: int | None = None
    tag: str | None = None
    unplayed: bool = False
    text: str = ""
    in_progress: bool = False  # started and not finished ("Continue listening"), most recently played first
    downloaded: bool = False  # with a download (complete or not)


def fts_query(text: str) -> str:
    """An FTS5 MATCH expression for whatever the user typed: every word must occur, the last as a prefix.

    Quotes, operators and parentheses in the input are treated as separators, so no input can raise.
    """
    words = _WORD.findall(text)
    if not words:
        return ""
    terms = [f'"{word}"' for word in words]
    terms[-1] += "*"
    return " ".join(terms)


def where_clause(flt: ItemFilter) -> tuple[str, list[object]]:
    """SQL conditions on ``items`` (aliased ``i``) and their parameters; ``1`` when nothing filters."""
    conditions: list[str] = []
    params: list[object] = []
    if flt.kind:
        conditions.append("i.kind = ?")
        params.append(flt.kind)
    if flt.source_id is not None:
        conditions.append("i.source_id = ?")
        params.append(flt.source_id)
    if flt.tag:
        conditions.append(
            """(i.id IN (SELECT it.item_id FROM item_tags it JOIN tags t ON t.id = it.tag_id WHERE t.name = ?)
               OR i.source_id IN (SELECT st.source_id FROM source_tags st JOIN tags t ON t.id = st.tag_id
                                  WHERE t.name = ?))"""
        )
        tag = normalize_tag(flt.tag)
        params += [tag, tag]
    if flt.unplayed:
        conditions.append("i.played = 0")
    if flt.in_progress:
        conditions.append("i.position > 0 AND i.played = 0")
    if flt.downloaded:
        conditions.append("i.id IN (SELECT item_id FROM downloads)")
    return (" AND ".join(conditions) or "1"), params
