"""What feedparser is given: a feed whose DOCTYPE declares no entity but simple characters, and whose character
references all name characters (both found by the robustness suite)."""

from __future__ import annotations

import re

from earmark.core.errors import FeedError

# One numeric character reference, or two in a row (an emoji written as its UTF-16 surrogate pair: &#55357;&#56832;).
_CHAR_REFS = re.compile(rb"&#([xX][0-9A-Fa-f]+|[0-9]+);(?:&#([xX][0-9A-Fa-f]+|[0-9]+);)?")
_REPLACEMENT_REF = b"&#65533;"  # U+FFFD

# The DOCTYPE by XML's own grammar (quoted strings hold no quote of their kind, comments end at the first "-->",
# processing instructions at the first "?>"), so that it ends where expat says it does.
_QUOTED = rb'"[^"]*"|\'[^\']*\''
_DOCTYPE_START = re.compile(rb"<!DOCTYPE\s++(?P<name>[^\s\[>]++)(?P<external>(?:\s++(?:SYSTEM|PUBLIC)"
                            rb"(?:\s++(?:" + _QUOTED + rb"))++)?)\s*+(?P<subset>\[)?")
_SUBSET_TOKEN = re.compile(  # possessive quantifiers: no backtracking, linear on any input
    rb"\s++|<!--(?:[^-]|-(?!-))*+-->|<\?(?:[^?]|\?(?!>))*+\?>|%[\w.:-]++;"
    rb"|<!(?:ENTITY|ELEMENT|ATTLIST|NOTATION)(?:\s++|" + _QUOTED + rb"|[^\s\"'>]++)*+>"
)
_SUBSET_END = re.compile(rb"\]\s*>")
_DOCTYPE_END = re.compile(rb"\s*>")
# An entity that stands for one character by its reference (&nbsp; as &#160;): the only kind kept. Text entities,
# even short ones, multiply: "&a;" a million times is a billion laughs at one level.
_SAFE_ENTITY = re.compile(rb'<!ENTITY\s+[\w.:-]+\s+(?:"&#[0-9]{1,7};"|"&#x[0-9A-Fa-f]{1,6};")\s*>')
_MAX_SUBSET_TOKENS = 10_000
_UTF16_ENTITY = ("<!ENTITY".encode("utf-16-le"), "<!ENTITY".encode("utf-16-be"))


def defuse_doctype(data: bytes, name: str) -> bytes:
    """``data`` with its DOCTYPE's internal subset reduced to the entities that stand for one character.

    feedparser means to do this (sanitizer.replace_doctype), but its patterns are anchored at the start of the
    document and miss any DOCTYPE after an XML declaration, so expat expanded a billion laughs up to its own
    amplification limit: 65 MB and 3 s per feed, and 300 KB of "lol" stored from 300 bytes. FeedError when the
    DOCTYPE declares entities and cannot be read (malformed, huge, or in UTF-16).
    """
    start = data.find(b"<!DOCTYPE")
    if start < 0:
        if any(marker in data for marker in _UTF16_ENTITY):
            raise FeedError(f"{name} declares XML entities, which Earmark refuses for safety.")
        return data
    head = _DOCTYPE_START.match(data, start)
    if head is None:
        return _refuse_if_entities(data, name)
    if head.group("subset") is None:
        end = _DOCTYPE_END.match(data, head.end())
        return data if end is not None else _refuse_if_entities(data, name)
    kept: list[bytes] = []
    position = head.end()
    for _ in range(_MAX_SUBSET_TOKENS):
        end = _SUBSET_END.match(data, position)
        if end is not None:
            subset = b"[" + b"".join(kept) + b"]" if kept else b""
            doctype = b"<!DOCTYPE " + head.group("name") + head.group("external") + b" " + subset + b">"
            return data[:start] + doctype + data[end.end() :]
        token = _SUBSET_TOKEN.match(data, position)
        if token is None:
            break
        if _SAFE_ENTITY.fullmatch(token.group(0)):
            kept.append(token.group(0))
        position = token.end()
    return _refuse_if_entities(data, name)


def _refuse_if_entities(data: bytes, name: str) -> bytes:
    """A DOCTYPE that could not be read: harmless without entity declarations, refused with them."""
    if b"<!ENTITY" in data:
        raise FeedError(f"{name} declares XML entities in a way Earmark cannot check, so it refuses the feed for "
                        "safety.")
    return data


def repair_character_references(data: bytes) -> bytes:
    """``data`` with numeric character references that name no character made readable: a surrogate pair becomes
    the character it encodes, any other surrogate or number beyond Unicode becomes U+FFFD.

    Found by fuzzing: expat refuses such a document, and feedparser's loose parser then raises on the reference
    (UnicodeEncodeError, ValueError, OverflowError), so one emoji written as &#55357;&#56832; lost the whole feed.
    Only ASCII-compatible encodings are repaired (in UTF-16 the bytes do not match; such a feed stays unreadable).
    """
    if b"&#" not in data:
        return data

    def repaired(match: re.Match[bytes]) -> bytes:
        first, second = _code_point(match.group(1)), _code_point(match.group(2))
        if 0xD800 <= first < 0xDC00 and 0xDC00 <= second < 0xE000:
            return b"&#%d;" % (0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        if _names_a_character(first) and (match.group(2) is None or _names_a_character(second)):
            return match.group(0)
        return _reference(first) + (_reference(second) if match.group(2) else b"")

    return _CHAR_REFS.sub(repaired, data)


def _code_point(digits: bytes | None) -> int:
    """The number a reference names; -1 for none, or one so long that it cannot name a character."""
    if not digits or len(digits) > 10:
        return -1
    return int(digits[1:], 16) if digits[:1] in (b"x", b"X") else int(digits)


def _names_a_character(code_point: int) -> bool:
    return 0 <= code_point <= 0x10FFFF and not 0xD800 <= code_point < 0xE000


def _reference(code_point: int) -> bytes:
    return b"&#%d;" % code_point if _names_a_character(code_point) else _REPLACEMENT_REF
