"""Counts said as people say them: "1 item", "2 items", "0 items"."""

from __future__ import annotations


def counted(count: int, noun: str, nouns: str | None = None) -> str:
    """``count`` and ``noun`` (the singular, e.g. "new subscription"), in the plural unless the count is one;
    ``nouns`` is the plural when adding "s" does not make it ("entry", "entries")."""
    return f"{count:,} {noun if count == 1 else (nouns or noun + 's')}"


def verb(count: int, one: str, many: str) -> str:
    """The verb agreeing with ``count`` things: ``verb(1, "is", "are")`` is "is"."""
    return one if count == 1 else many
