"""Reading lists people already have: Pocket (HTML and CSV exports), Instapaper CSV, Wallabag JSON, Earmark's
own export, and a plain list of web addresses; read into entries, then stored as articles."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import field
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path

from earmark.core.articles.anchor import find_text, make_anchor
from earmark.core.articles.capture import site_of
from earmark.core.articles.entries import ListEntry, ReadingList
from earmark.core.articles.links import is_web
from earmark.core.articles.own_list import own_state, restore_own_state
from earmark.core.articles.page import decode
from earmark.core.articles.store import ArticleData, find_article, save_articles
from earmark.core.csvcells import plain_cell
from earmark.core.db.connection import write_transaction
from earmark.core.db.database import Database
from earmark.core.db.notes import add_note
from earmark.core.errors import EarmarkError
from earmark.core.files import read_file
from earmark.core.html import to_text
from earmark.core.models import Anchor
from earmark.core.plurals import counted, verb
from earmark.core.records import record

MAX_LIST_BYTES = 50 * 1024 * 1024
FORMATS = {
    "pocket-html": "Pocket export (HTML)",
    "pocket-csv": "Pocket export (CSV)",
    "instapaper": "Instapaper export (CSV)",
    "wallabag": "Wallabag export (JSON)",
    "earmark": "Earmark reading list (JSON or CSV)",
    "urls": "a list of web addresses, one a line",
}


@record
class ImportResult:
    """What an import stored: the new articles' ids (``unfetched``: those saved as links only) and how many
    were in the library already."""

    new: list[int] = field(default_factory=list)
    unfetched: list[int] = field(default_factory=list)
    existing: int = 0

    @property
    def message(self) -> str:
        """A sentence for the status bar and the command line."""
        return (f"Imported {counted(len(self.new), 'new article')}; {self.existing} "
                f"{verb(self.existing, 'was', 'were')} in the library already.")


def read_reading_list(path: Path, fmt: str | None = None) -> ReadingList:
    """Read a reading-list file in ``fmt`` (one of FORMATS; found from the content when None).
    EarmarkError with a sentence when it is not one."""
    text = decode(read_file(path, "a reading list", MAX_LIST_BYTES, "a reading list"))
    fmt = fmt or detect_format(text)
    if fmt not in FORMATS:
        raise EarmarkError(f"{fmt!r} is not a reading-list format; use one of {', '.join(FORMATS)}.")
    try:
        result = _READERS[fmt](text)
    except (ValueError, KeyError, TypeError, csv.Error) as exc:
        raise EarmarkError(f"{path} is not a readable {FORMATS[fmt]}: {exc}.") from exc
    if not result.entries and not result.skipped:
        raise EarmarkError(f"{path} holds no web addresses to import ({FORMATS[fmt]}).")
    return result


def detect_format(text: str) -> str:
    """The format of a reading-list file, from its content."""
    head = text.lstrip("\ufeff").lstrip()
    if head.startswith(("[", "{")):
        return "earmark" if '"earmark-reading-list"' in head[:200] else "wallabag"
    if head[:500].lower().startswith(("<!doctype", "<html")) or "<a " in head[:5000].lower():
        return "pocket-html"
    header = [name.strip().lower() for name in next(csv.reader([head.splitlines()[0] if head else ""]), [])]
    if {"url", "title", "selection", "folder"} <= set(header):
        return "instapaper"
    if {"url", "time_added"} <= set(header):
        return "pocket-csv"
    if "url" in header:
        return "earmark"
    return "urls"


class _PocketPage(HTMLParser):
    """Pocket's HTML export: ``<h1>Unread</h1>`` / ``<h1>Read Archive</h1>``, each a list of
    ``<a href time_added tags>title</a>``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.entries: list[ListEntry] = []
        self._archived = False
        self._heading: list[str] | None = None
        self._link: ListEntry | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "h1":
            self._heading = []
        elif tag == "a" and values.get("href"):
            self._link = ListEntry(url=(values["href"] or "").strip(), tags=_split_tags(values.get("tags"), ","),
                                   added=_from_unix(values.get("time_added")), archived=self._archived,
                                   read=self._archived)
            self._text = []

    def handle_data(self, data: str) -> None:
        if self._heading is not None:
            self._heading.append(data)
        if self._link is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "h1" and self._heading is not None:
            self._archived = "archive" in "".join(self._heading).lower()
            self._heading = None
        elif tag == "a" and self._link is not None:
            self._link.title = " ".join("".join(self._text).split()) or None
            self.entries.append(self._link)
            self._link = None


def _pocket_html(text: str) -> ReadingList:
    parser = _PocketPage()
    parser.feed(text)
    parser.close()
    return _checked("pocket-html", parser.entries)


def _rows(text: str) -> list[dict[str, str]]:
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    return [{(key or "").strip().lower(): (value or "").strip() for key, value in row.items()} for row in reader]


def _pocket_csv(text: str) -> ReadingList:
    entries = [ListEntry(url=row.get("url", ""), title=row.get("title") or None, tags=_split_tags(row.get("tags"), "|"),
                         added=_from_unix(row.get("time_added")), archived=row.get("status") == "archive",
                         read=row.get("status") == "archive")
               for row in _rows(text)]
    return _checked("pocket-csv", entries)


def _instapaper(text: str) -> ReadingList:
    entries = []
    for row in _rows(text):
        folder = row.get("folder", "")
        tags = _json_tags(row.get("tags", ""))
        if folder and folder.lower() not in ("unread", "archive", "starred"):
            tags.append(folder)
        entries.append(ListEntry(url=row.get("url", ""), title=row.get("title") or None, tags=tags,
                                 added=_from_unix(row.get("timestamp")), archived=folder.lower() == "archive",
                                 read=folder.lower() == "archive", favourite=folder.lower() == "starred",
                                 highlights=[(row["selection"], "")] if row.get("selection") else []))
    return _checked("instapaper", entries)


def _wallabag(text: str) -> ReadingList:
    data = json.loads(text)
    if not isinstance(data, list):
        raise ValueError("it is not a list of entries")
    entries = []
    for raw in data:
        if not isinstance(raw, dict):
            continue
        authors = raw.get("published_by") or []
        entries.append(ListEntry(
            url=str(raw.get("url") or ""), title=raw.get("title") or None, tags=[str(t) for t in raw.get("tags") or []],
            added=_iso(raw.get("created_at")), read=bool(raw.get("is_archived")), archived=bool(raw.get("is_archived")),
            favourite=bool(raw.get("is_starred")), html=str(raw.get("content") or ""),
            author=", ".join(map(str, authors)) if isinstance(authors, list) and authors else None,
            published=_iso(raw.get("published_at")),
            highlights=[(str(a.get("quote") or ""), str(a.get("text") or ""))
                        for a in raw.get("annotations") or [] if isinstance(a, dict) and a.get("quote")],
        ))
    return _checked("wallabag", entries)


def _earmark(text: str) -> ReadingList:
    stripped = text.lstrip("\ufeff").lstrip()
    rows: list[tuple[Mapping[str, object], list[str]]]
    if stripped.startswith("{"):
        rows = [(row, [str(tag) for tag in row.get("tags") or []]) for row in json.loads(stripped)["items"]]
    else:
        plain = [{key: plain_cell(value) for key, value in row.items()} for row in _rows(stripped)]  # as exported
        rows = [(row, _split_tags(row.get("tags"), "|")) for row in plain]
    whole = stripped.startswith("{")  # the JSON export carries the text, the notes and all the state
    entries = [ListEntry(url=str(row.get("url") or ""), title=str(row.get("title") or "") or None, tags=tags,
                         added=_iso(row.get("added")), read=_true(row.get("read")), archived=_true(row.get("archived")),
                         favourite=_true(row.get("favourite")), author=str(row.get("author") or "") or None,
                         published=_iso(row.get("published")), html=str(row.get("content") or "") if whole else "",
                         own=own_state(row) if whole else None)
               for row, tags in rows]
    return _checked("earmark", entries[::-1])  # the export lists the newest first: saved again oldest first


def _urls(text: str) -> ReadingList:
    entries = []
    skipped = []
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        url, _, title = line.partition(" ")
        if is_web(url):
            entries.append(ListEntry(url=url, title=title.strip() or None))
        else:
            skipped.append(f"Line {number} is not a web address: {line[:80]}")
    return ReadingList("urls", entries, skipped)


_READERS: dict[str, Callable[[str], ReadingList]] = {
    "pocket-html": _pocket_html, "pocket-csv": _pocket_csv, "instapaper": _instapaper, "wallabag": _wallabag,
    "earmark": _earmark, "urls": _urls,
}


def _checked(fmt: str, entries: list[ListEntry]) -> ReadingList:
    kept, skipped = [], []
    for entry in entries:
        if is_web(entry.url):
            kept.append(entry)
        else:
            skipped.append(f"“{entry.title or entry.url}” has no web address ({entry.url or 'none'}); left out.")
    return ReadingList(fmt, kept, skipped)


def _split_tags(value: str | None, separator: str) -> list[str]:
    return [tag.strip() for tag in (value or "").split(separator) if tag.strip()]


def _json_tags(value: str) -> list[str]:
    if value.startswith("["):
        try:
            return [str(tag) for tag in json.loads(value)]
        except ValueError:
            pass
    return _split_tags(value, ",")


def _from_unix(value: str | None) -> str | None:
    try:
        return datetime.fromtimestamp(int(value or ""), UTC).isoformat()
    except (ValueError, OverflowError, OSError):
        return None


def _iso(value: object) -> str | None:
    if not value:
        return None
    text = re.sub(r"([+-]\d{2})(\d{2})$", r"\1:\2", str(value).strip())  # +0100 → +01:00
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).astimezone(UTC).isoformat()


def _true(value: object) -> bool:
    return str(value).strip().lower() in ("1", "true", "yes")


def import_entries(db: Database, reading_list: ReadingList) -> ImportResult:
    """Store the entries as articles in one transaction: new addresses only (what is saved already is left as
    it is), with their tags, read/archived/favourite state, when they were saved, and highlights. Entries
    without the article's text are saved as links, to be fetched."""
    result = ImportResult()
    origin = FORMATS[reading_list.format]
    with write_transaction(db):
        for entry in reading_list.entries:
            if find_article(db, entry.url) is not None:
                result.existing += 1
                continue
            problem = None if entry.html else f"Imported from {origin}; Earmark has not fetched the page yet."
            if entry.own is not None:
                problem = entry.own.fetch_problem
            [item_id] = save_articles(db, [ArticleData(
                title=entry.title or entry.url, url=entry.url, site=entry.own and entry.own.site or site_of(entry.url),
                html=entry.html, author=entry.author, published=entry.published, tags=entry.tags, problem=problem)])
            db.execute("UPDATE items SET played = ?, archived = ?, favourite = ?, added = coalesce(?, added) "
                       "WHERE id = ?", [entry.read, entry.archived, entry.favourite, entry.added, item_id])
            _add_highlights(db, item_id, entry)
            if entry.own is not None:
                restore_own_state(db, item_id, entry.own)
            result.new.append(item_id)
            if problem:
                result.unfetched.append(item_id)
    return result


def _add_highlights(db: Database, item_id: int, entry: ListEntry) -> None:
    text = to_text(entry.html)
    for quote, note in entry.highlights:
        span = find_text(text, quote) if text else None
        if span is None:  # the text is not here yet: the quote alone finds it once the page is fetched
            add_note(db, item_id, note, quote=" ".join(quote.split()), anchor=Anchor("", "", 0))
        else:
            found, anchor = make_anchor(text, *span)
            add_note(db, item_id, note, quote=found, anchor=anchor)
