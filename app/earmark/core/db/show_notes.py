"""Show notes kept once (schema 19): an item's markup (``description``, ``content``) is stored as a pattern over its
plain text (``items.text``, which the search index, its snippets and the topic graph read in SQL, and which stays as
it is). The pattern keeps the tags, attributes, character references and any text the plain text does not hold as
they are, and each run of text the plain text holds as a reference to it; it is compressed with zlib and a
dictionary of what show notes' markup is made of, and stored as a BLOB (~1,460 bytes of the bench's show notes
become ~125).

A stored markup is a str (a row whose pattern would not be smaller, one written before schema 19 or by hand) or
bytes (a pattern); ``markup`` gives the markup back. A pattern needs no function of Earmark's: the sqlite3 shell
reads, updates and vacuums the file as any other (after an UPDATE of ``text`` by hand, the pattern no longer matches
its digest and the item's show notes read as that plain text until the markup is written again)."""

from __future__ import annotations

import html
import re
import zlib

VERSION = b"\x01"  # the first byte of every pattern: the format and dictionary below, for ever
_DIGEST = 8  # then the markup's digest (8 bytes): a refresh tells an unchanged markup without unpacking it
# Strings show notes' and articles' markup is made of (common feeds' tags, attributes and link addresses; their text
# is referenced, not compressed): a dictionary makes zlib worth it on a few hundred bytes. Never change it: patterns
# stored with it need it to be read.
_DICTIONARY = (
    b'<br><br/><hr><img src="https://<strong></strong><em></em><b></b><i></i><code></code><pre></pre>'
    b'<blockquote></blockquote><h1></h1><h2></h2><h3></h3><h4></h4><ol></ol><li></li></ul><ul><li><p>'
    b' target="_blank" rel="noopener noreferrer nofollow"><span></span><div></div>'
    b'https://twitter.com/https://github.com/https://www.youtube.com/watch?v=https://pytorch.org/'
    b'.com/'
    b'</a></p><p></a></li><li><a href="https://www.'
)
_SEP = "\x00"  # between a pattern's parts: literal, (skip, take, literal)... Markup holding one is kept as it is.
# Runs of text between tags and character references (no "<>&;"), long enough to be worth a reference (which costs
# about as much as 8 characters); the rest of the markup is kept literally.
_RUNS = re.compile(r"[^<>&;]{8,}")


def pack(markup: str, text: str) -> str | bytes:
    """What to store for ``markup`` beside its plain ``text``: a pattern over the text where it is smaller, else the
    markup itself. The pattern gives the markup back exactly by construction: its literals are the markup's, and
    each reference is to characters of ``text`` found equal to the run of markup it stands for."""
    if len(markup) < 16 or not text or _SEP in markup:
        return markup
    parts: list[str] = []  # literal, then (skip, take, literal) for each reference
    at = cursor = 0
    for run in _RUNS.finditer(markup):
        found = text.find(run.group(), cursor)
        if found >= 0:
            parts += [markup[at:run.start()], str(found - cursor), str(run.end() - run.start())]
            at, cursor = run.end(), found + run.end() - run.start()
    if not parts:
        return markup
    parts.append(markup[at:])
    compressor = zlib.compressobj(9, zlib.DEFLATED, -12, 5, zlib.Z_DEFAULT_STRATEGY, _DICTIONARY)
    written = markup.encode()
    packed = VERSION + _digest(written) + compressor.compress(_SEP.join(parts).encode()) + compressor.flush()
    return packed if len(packed) < len(written) else markup


def _digest(written: bytes) -> bytes:
    """CRC-32 and Adler-32 of the markup: two checksums zlib computes at ~1 GB/s (a cryptographic digest costs 3 times
    as much, in every refresh of every unchanged item)."""
    return zlib.crc32(written).to_bytes(4, "big") + zlib.adler32(written).to_bytes(4, "big")


def same_markup(stored: str | bytes, markup: str) -> bool:
    """Whether a stored ``description`` or ``content`` stands for ``markup`` (a pattern by its digest: about a chance
    in 2**64 of taking a changed markup for the same)."""
    if isinstance(stored, bytes):
        return stored[1:1 + _DIGEST] == _digest(markup.encode())
    return stored == markup


def unpack(packed: bytes, text: str) -> str:
    """The markup a pattern stands for over ``text``. A pattern whose text was changed by hand (the markup it gives
    no longer matches its digest) or that is damaged gives the plain text, escaped: never a mix of old and new."""
    try:
        decompressor = zlib.decompressobj(-12, _DICTIONARY)
        parts = (decompressor.decompress(packed[1 + _DIGEST:]) + decompressor.flush()).decode().split(_SEP)
        out = [parts[0]]
        cursor = 0
        for at in range(1, len(parts), 3):
            start = cursor + int(parts[at])
            cursor = start + int(parts[at + 1])
            out += [text[start:cursor], parts[at + 2]]
    except (zlib.error, UnicodeDecodeError, ValueError, IndexError):
        return html.escape(text)
    markup = "".join(out)
    return markup if _digest(markup.encode()) == packed[1:1 + _DIGEST] else html.escape(text)


def markup(stored: str | bytes | None, text: str | None) -> str:
    """The markup a stored ``description`` or ``content`` stands for, given the row's ``text``."""
    if isinstance(stored, bytes):
        return unpack(stored, text or "")
    return stored or ""
