"""How well the Related lists agree with a person: the judged pairs of bench/judged_relations.json, checked on
the sample library (resources/sample, built from the seed documents) with its relations worked out in full.

Prints strong recall@5 (each strong pair, seen from both of its items: the other among the item's 5 most
related), weaker recall@10 (the same among the 10 most related), and the unrelated pairs found in a top 5
(either way), with every miss named. Targets: >= 90 %, >= 70 %, 0. ``--show TITLE`` prints an item's Related
list as a person sees it (title and reasons); ``--show-all`` prints every item's.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.sample import load_sample
from earmark.core.topics.build import update_relations
from earmark.core.topics.reasons import related

JUDGED = Path(__file__).resolve().parent / "judged_relations.json"
TARGETS = {"strong": 0.90, "weaker": 0.70}
DEPTH = {"strong": 5, "weaker": 10}


@dataclass(slots=True)
class Outcome:
    """What one group of judged pairs came to: found and missed directions."""

    found: int = 0
    looked: int = 0
    misses: list[str] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.found / self.looked if self.looked else 0.0


def sample_library(folder: Path) -> Database:
    """The sample library with its relations worked out in full."""
    db = open_library(folder / "sample.db")
    load_sample(db)
    update_relations(db)
    return db


def ranked(db: Database) -> dict[str, list[str]]:
    """Each item's 10 most related items' titles, best first, keyed by title."""
    return {title: [r.title for r in related(db, item_id, 10)]
            for item_id, title in db.execute("SELECT id, title FROM items ORDER BY id")}


def judge(lists: dict[str, list[str]], judged: dict[str, list[list[str]]]) -> dict[str, Outcome]:
    """Recall of the strong and weaker pairs (both directions), and the unrelated pairs found in a top 5."""
    for group in ("strong", "weaker", "unrelated"):
        for a, b, _why in judged[group]:
            for title in (a, b):
                if title not in lists:
                    raise SystemExit(f"judged_relations.json names {title!r}, which the sample library lacks")
    outcomes = {}
    for group in ("strong", "weaker"):
        outcome = Outcome()
        for a, b, why in judged[group]:
            for mine, other in ((a, b), (b, a)):
                outcome.looked += 1
                place = lists[mine].index(other) + 1 if other in lists[mine] else None
                if place is not None and place <= DEPTH[group]:
                    outcome.found += 1
                else:
                    where = f"at {place}" if place else "not in its top 10"
                    outcome.misses.append(f"{mine} → {other}: {where}   ({why})")
        outcomes[group] = outcome
    unrelated = Outcome()
    for a, b, why in judged["unrelated"]:
        unrelated.looked += 1
        for mine, other in ((a, b), (b, a)):
            if other in lists[mine][:5]:
                unrelated.found += 1
                unrelated.misses.append(f"{mine} → {other}: at {lists[mine].index(other) + 1}   ({why})")
                break
    outcomes["unrelated"] = unrelated
    return outcomes


def show(db: Database, title: str, limit: int = 5) -> None:
    """Print an item's Related list as the pane shows it."""
    row = db.execute("SELECT id FROM items WHERE title = ?", [title]).fetchone()
    if row is None:
        print(f"no item titled {title!r}")
        return
    print(f"{title}")
    for number, other in enumerate(related(db, row[0], limit), start=1):
        print(f"  {number}. {other.title}  —  {', '.join(other.reasons)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--show", action="append", default=[], metavar="TITLE", help="print this item's Related list")
    parser.add_argument("--show-all", action="store_true", help="print every item's Related list")
    args = parser.parse_args(argv)
    judged = json.loads(JUDGED.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="earmark-quality-") as folder:
        db = sample_library(Path(folder))
        outcomes = judge(ranked(db), judged)
        titles = [t for (t,) in db.execute("SELECT title FROM items ORDER BY id")] if args.show_all else args.show
        for title in titles:
            show(db, title)
        db.close()
    strong, weaker, unrelated = outcomes["strong"], outcomes["weaker"], outcomes["unrelated"]
    print(f"judged set: {len(judged['strong'])} strong, {len(judged['weaker'])} weaker, "
          f"{len(judged['unrelated'])} unrelated pairs (each strong and weaker pair looked at from both items)")
    for name, outcome in (("strong recall@5", strong), ("weaker recall@10", weaker)):
        group = name.split()[0]
        print(f"{name:<18} {outcome.share:6.1%}  ({outcome.found} of {outcome.looked})   target >= "
              f"{TARGETS[group]:.0%}")
    print(f"{'unrelated in top 5':<18} {unrelated.found:6d}  (of {unrelated.looked} pairs)   target 0")
    for name, outcome in (("strong", strong), ("weaker", weaker), ("unrelated", unrelated)):
        if outcome.misses:
            print(f"\n{name} {'found' if name == 'unrelated' else 'missed'}:")
            for line in outcome.misses:
                print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
