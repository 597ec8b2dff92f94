"""What a library file costs, table by table and index by index (SQLite's dbstat), and what the search index and
its vocabulary of compound names take. Used by bench/search.py; ``python bench/library_size.py LIBRARY`` prints
the breakdown of any library.

``python bench/library_size.py --items N`` builds (or reuses) issue 40's library of N items imported with
``earmark import-opml`` (bench/size_library.py) and prints its size, scaled to 100,000 items, beside the target:
at most 300 MB (goal 250 MB); then the same compacted once more (an import run in a terminal compacts what it grew
before it ends; the window's imports leave it to the window, which compacts next, in the background)."""

from __future__ import annotations

import argparse
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path

MB = 1_000_000
MIB = 2**20
# What the analyser adds to the search index: the vocabulary of compound names and acronyms, and its queue.
VOCABULARY = ("search_words", "search_aliases", "search_aliases_by_alias", "search_pending")


@dataclass(slots=True)
class Breakdown:
    """A library's size and the bytes of each of its tables and indexes, largest first."""

    size: int
    parts: list[tuple[str, int]]
    page_size: int

    def of(self, prefix: str) -> int:
        return sum(size for name, size in self.parts if name.startswith(prefix))

    @property
    def search_index(self) -> int:
        """The FTS5 index's own tables (search_index_data, _idx, _docsize, _config; _content when it has one)."""
        return self.of("search_index")

    @property
    def vocabulary(self) -> int:
        return sum(size for name, size in self.parts if name in VOCABULARY)


def breakdown(path: Path) -> Breakdown:
    """The size of every table and index of the library at ``path`` (read-only)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        parts = conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC").fetchall()
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    finally:
        conn.close()
    return Breakdown(path.stat().st_size, [(name, int(size)) for name, size in parts], page_size)


def print_breakdown(found: Breakdown, rows: int = 14, indent: str = "    ") -> None:
    shown = found.parts[:rows]
    for name, size in shown:
        print(f"{indent}{name:<28} {size / MIB:8.1f} MiB  {100 * size / found.size:5.1f} %")
    rest = sum(size for _name, size in found.parts[rows:])
    print(f"{indent}{'(the other ' + str(len(found.parts) - len(shown)) + ')':<28} {rest / MIB:8.1f} MiB")


def print_growth(label: str, found: Breakdown) -> None:
    """The vocabulary as a share of the search index it serves (target: at most 15 %)."""
    share = 100 * found.vocabulary / found.search_index if found.search_index else 0.0
    print(f"  {label}: search index {found.search_index / MIB:.2f} MiB, vocabulary of compound names "
          f"{found.vocabulary / MIB:.3f} MiB = {share:.1f} % more   [target ≤ 15 %]")


TARGET_ITEMS, TARGET_MB, GOAL_MB = 100_000, 300, 250


def show_notes_bytes(path: Path) -> tuple[int, float, float]:
    """Items, and the average bytes of the show notes' markup and of the plain text stored beside it."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(items)")}
        stored = "own_text" if "own_text" in columns else "text"  # schema 19 keeps only the text that differs
        count, markup, text = conn.execute(f"SELECT count(*), avg(length(CAST(description AS BLOB))), "
                                           f"avg(coalesce(length(CAST({stored} AS BLOB)), 0)) FROM items").fetchone()
    finally:
        conn.close()
    return int(count), float(markup or 0), float(text or 0)


def print_library(path: Path) -> None:
    found = breakdown(path)
    items, markup, text = show_notes_bytes(path)
    print(f"{path}: {found.size / MB:.1f} MB ({found.size / MIB:.1f} MiB), pages of {found.page_size} bytes, "
          f"{items:,} items (show notes {markup:,.0f} bytes of markup and {text:,.0f} of stored text on average)")
    print_breakdown(found, rows=40)
    if items:
        # What grows with the items (their table, indexes and search index) is scaled; the rest is the same for any
        # library (about 2.5 MB: a page or two for each of 80 tables and indexes).
        growing = sum(size for name, size in found.parts
                      if name.startswith(("items", "search_", "sqlite_autoindex_items")))
        scaled = (found.size + growing * (TARGET_ITEMS / items - 1)) / MB
        verdict = "met" if scaled <= TARGET_MB else "NOT met"
        print(f"  scaled to {TARGET_ITEMS:,} items: {scaled:.0f} MB   [target ≤ {TARGET_MB} MB, goal {GOAL_MB} MB: "
              f"{verdict}]")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("libraries", nargs="*", type=Path, help="libraries to measure (else the built one)")
    parser.add_argument("--items", type=int, default=TARGET_ITEMS, help="items of the library to build")
    parser.add_argument("--rebuild", action="store_true", help="import again even when the library is cached")
    args = parser.parse_args(argv)
    if not args.libraries:
        from size_library import build

        args.libraries = [build(args.items, args.rebuild)]
        args.libraries.append(compacted(args.libraries[0]))
    for path in args.libraries:
        print_library(path)
    return 0


def compacted(library: Path) -> Path:
    """A copy of the imported library compacted (what the window's own import leaves due, and runs in the
    background next), as a person then keeps it."""
    import shutil

    from earmark.core.db.compaction import compact

    target = library.with_name("compacted.db")
    if not target.exists():
        partial = library.with_name("compacted.db.partial")
        shutil.copyfile(library, partial)
        compact(partial)
        partial.replace(target)
    return target


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
