"""What a library file costs, table by table and index by index (SQLite's dbstat), and what the search index and
its vocabulary of compound names take. Used by bench/search.py; ``python bench/library_size.py LIBRARY`` prints
the breakdown of any library."""

from __future__ import annotations

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


def main(argv: list[str]) -> int:
    for name in argv:
        found = breakdown(Path(name))
        print(f"{name}: {found.size / MB:.1f} MB ({found.size / MIB:.1f} MiB), pages of {found.page_size} bytes")
        print_breakdown(found, rows=40)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
