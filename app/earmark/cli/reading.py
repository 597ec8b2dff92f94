"""The reading-list commands: saving articles (pages, files, the links of an item), importing and exporting
reading lists, the archive and highlights."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from earmark.cli.common import add_item_ids, print_json, record_id
from earmark.core.articles.readtime import reading_minutes
from earmark.core.db.database import Database
from earmark.core.db.items import get_item, items_by_ids
from earmark.core.db.reading import set_archived
from earmark.core.db.tags import tag_item
from earmark.core.errors import EarmarkError
from earmark.core.plurals import counted

if TYPE_CHECKING:
    from earmark.core.articles.store import ArticleData, StoredArticle

# Fetching, extraction and the importers load when a command needs them: the window's start-up parses argv too.
FETCHERS = 4  # pages fetched at once


def add_article_command(add: argparse.ArgumentParser) -> None:
    """save web pages or local files (HTML, Markdown, text) as articles"""
    add.add_argument("sources", nargs="+", metavar="URL|FILE")
    add.add_argument("--title", help="the title to give it (default: the page's own)")
    add.add_argument("--tag", action="append", default=[], metavar="TAG", help="tag new articles (repeatable)")
    add.add_argument("--json", action="store_true", help="print a JSON array of the saved articles")
    add.set_defaults(run=_add_article)


def add_links_command(links: argparse.ArgumentParser) -> None:
    """list the links of an item, or save chosen ones as articles"""
    links.add_argument("item_id", type=record_id, metavar="ITEM_ID")
    links.add_argument("--all", action="store_true", help="save every link not saved yet")
    links.add_argument("--index", type=int, action="append", default=[], metavar="N",
                       help="save link number N of the listing (repeatable)")
    links.add_argument("--match", action="append", default=[], metavar="TEXT",
                       help="save the links whose text or address contains TEXT, case ignored (repeatable)")
    links.add_argument("--no-fetch", action="store_true", help="save the links only; fetch the pages later")
    links.add_argument("--tag", action="append", default=[], metavar="TAG", help="tag the new articles (repeatable)")
    links.add_argument("--json", action="store_true", help="print JSON (the listing, or the saved articles)")
    links.set_defaults(run=_add_links)


def import_reading_list_command(importing: argparse.ArgumentParser) -> None:
    """import Pocket, Instapaper, Wallabag or Earmark exports, or a list of URLs"""
    importing.add_argument("file", type=Path)
    importing.add_argument("--format", help="pocket-html, pocket-csv, instapaper, wallabag, earmark or urls "
                                            "(default: found from the file's content)")
    importing.add_argument("--fetch", action="store_true", help="also fetch the pages of the new articles now")
    importing.add_argument("--json", action="store_true", help="print what was imported as JSON")
    importing.set_defaults(run=_import_reading_list)


def export_reading_list_command(export: argparse.ArgumentParser) -> None:
    """write every article and its state as CSV or JSON"""
    export.add_argument("--format", choices=("csv", "json"), required=True)
    export.add_argument("--tag", help="only articles with this tag")
    export.add_argument("--out", required=True, metavar="PATH", help="the file to write, or - for standard output")
    export.set_defaults(run=_export_reading_list)


def archive_command(marking: argparse.ArgumentParser) -> None:
    """move articles to the archive"""
    add_item_ids(marking).set_defaults(run=_archive, value=True, done="archived")


def unarchive_command(marking: argparse.ArgumentParser) -> None:
    """bring articles back from the archive"""
    add_item_ids(marking).set_defaults(run=_archive, value=False, done="back in the reading list")


def highlight_command(highlight: argparse.ArgumentParser) -> None:
    """highlight words of an article (with an optional note)"""
    highlight.add_argument("item_id", type=record_id, metavar="ITEM_ID")
    highlight.add_argument("text", metavar="TEXT", help="the words to highlight, as the article has them")
    highlight.add_argument("--note", default="", help="a note on the highlight")
    highlight.set_defaults(run=_highlight)


def captured(jobs: list[tuple[str, str | None]]) -> Iterator[ArticleData]:
    """Each (address, title) fetched and read, FETCHERS at a time, in the order given."""
    from earmark.core.articles.capture import capture
    from earmark.core.articles.store import ArticleData

    def one(job: tuple[str, str | None]) -> ArticleData:
        article = capture(*job)
        assert isinstance(article, ArticleData)  # feeds=False: a feed raises instead
        return article

    if len(jobs) == 1:
        yield one(jobs[0])
        return
    with ThreadPoolExecutor(max_workers=FETCHERS, thread_name_prefix="earmark-fetch") as pool:
        yield from pool.map(one, jobs)


def _report(db: Database, article: ArticleData, stored: StoredArticle) -> None:
    item = get_item(db, stored.item_id)
    if stored.in_feed:
        print(f"“{item.title}” is already in your library (item {item.id}, from its feed).")
    elif article.problem:
        print(f"Saved {article.url} as a link (article {item.id}): {article.problem}")
    else:
        verb = "Saved" if stored.new else "Updated"
        length = reading_minutes(item.duration)
        print(f"{verb} “{item.title}” (article {item.id}{', ' + length if length else ''}) from {item.source}.")


def _store_all(db: Database, jobs: list[tuple[str, str | None]], tags: list[str],
               as_json: bool) -> list[int]:
    """Fetch and store each job, tag the new articles, and say what happened (unless printing JSON)."""
    from earmark.core.articles.store import store_article

    ids = []
    for article in captured(jobs):
        stored = store_article(db, article)
        ids.append(stored.item_id)
        if stored.new and tags:
            tag_item(db, stored.item_id, tags)
        if not as_json:
            _report(db, article, stored)
    return ids


def _print_articles(db: Database, ids: list[int]) -> None:
    from earmark.core.articles.export import reading_list

    entries = {entry.item.id: entry for entry in reading_list(db)}
    print_json([entries[item_id].as_json() for item_id in ids if item_id in entries])


def _add_article(db: Database, args: argparse.Namespace) -> int:
    ids = _store_all(db, [(source, args.title) for source in args.sources], args.tag, args.json)
    if args.json:
        _print_articles(db, ids)
    return 0


def _add_links(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.articles.links import choose_links, item_links

    links = item_links(db, args.item_id)
    if not (args.all or args.index or args.match):
        if args.json:
            print_json([{"number": n, "text": link.text, "url": link.url, "saved": link.saved}
                        for n, link in enumerate(links, start=1)])
            return 0
        for number, link in enumerate(links, start=1):
            print(f"{number:>4}  {link.text}  <{link.url}>{'  (saved)' if link.saved else ''}")
        print(f"{counted(len(links), 'link')}. Save them with --all, --index N or --match TEXT." if links
              else "This item has no links.", file=sys.stderr)
        return 0
    chosen = choose_links(links, args.index, args.match, args.all)
    if not chosen:
        raise EarmarkError("No link to save: none matched, or they are all saved already.")
    if args.no_fetch:
        return _save_links(db, [(link.url, link.text) for link in chosen], args)
    ids = _store_all(db, [(link.url, link.text) for link in chosen], args.tag, args.json)
    if args.json:
        _print_articles(db, ids)
    return 0


def _save_links(db: Database, links: list[tuple[str, str]], args: argparse.Namespace) -> int:
    from earmark.core.articles.capture import link_only
    from earmark.core.articles.store import store_article

    source = get_item(db, args.item_id)
    ids = []
    for url, text in links:
        problem = f"Saved as a link from “{source.title}”; Earmark has not fetched the page yet."
        stored = store_article(db, link_only(url, text, problem))
        if stored.new and args.tag:
            tag_item(db, stored.item_id, args.tag)
        ids.append(stored.item_id)
    if args.json:
        _print_articles(db, ids)
    else:
        print(f"Saved {counted(len(ids), 'link')} from “{source.title}”; fetch their pages with "
              "`earmark add-article URL` or in the window.")
    return 0


def _import_reading_list(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.articles.imports import import_entries, read_reading_list

    found = read_reading_list(args.file.expanduser(), args.format)
    for sentence in found.skipped:
        print(f"earmark: {sentence}", file=sys.stderr)
    result = import_entries(db, found)
    out = sys.stderr if args.json else sys.stdout
    print(result.message, file=out)
    if args.fetch and result.unfetched:
        items = items_by_ids(db, result.unfetched, full=False)
        _store_all(db, [(items[i].url or "", None) for i in result.unfetched if i in items], [], args.json)
    if args.json:
        print_json({"format": found.format, "new": result.new, "existing": result.existing,
                    "skipped": found.skipped})
    return 0


def _export_reading_list(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.articles.export import export_reading_list, reading_list, render_reading_list

    if args.out == "-":
        sys.stdout.write(render_reading_list(reading_list(db, args.tag, full=args.format == "json"), args.format))
        return 0
    print(export_reading_list(db, args.format, Path(args.out).expanduser(), args.tag))
    return 0


def _archive(db: Database, args: argparse.Namespace) -> int:
    count = set_archived(db, args.item_ids, args.value)
    print(f"{counted(count, 'article')} {args.done}.")
    return 0


def _highlight(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.articles.highlights import highlight_text

    note = highlight_text(db, args.item_id, args.text, args.note)
    print(f"Highlighted in “{note.item_title}”: “{note.quote}” (note {note.id}).")
    return 0
