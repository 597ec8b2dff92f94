"""How well the learning paths agree with a person: the judged pairs of bench/judged_paths.json, checked on the
sample library (resources/sample, built from the seed documents) with its relations worked out in full.

Prints coverage (the sample's episodes whose path has at least one step), precision (of the judged pairs the
paths put in an order, those in the order the person gave) and recall (the "take A before B" pairs where A is a
step of B's path), each beside its target, with every miss named, and how many episodes the person gave a
prerequisite at all (the judged set's own coverage). ``--show TITLE`` prints an item's path as a
person sees it (each step with its reason and concept); ``--show-all`` prints every item's. The episodes left
without a path are listed last, each with its strongest terms: what it would need an item to explain.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from earmark.core.db.database import Database
from earmark.core.topics.path import Step, learning_path
from relations_quality import sample_library

JUDGED = Path(__file__).resolve().parent / "judged_paths.json"
TARGETS = {"coverage": 0.70, "precision": 0.85, "recall": 0.60}


@dataclass(slots=True)
class Figures:
    """Coverage, precision and recall, with what each is made of."""

    episodes: int = 0
    covered: int = 0
    claimed: int = 0  # judged pairs the paths put in an order (either way)
    right: int = 0  # of those, in the person's order
    wanted: int = 0  # "take A before B" pairs
    found: int = 0  # of those, A a step of B's path
    wrong: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)

    def share(self, name: str) -> float:
        part, whole = {"coverage": (self.covered, self.episodes), "precision": (self.right, self.claimed),
                       "recall": (self.found, self.wanted)}[name]
        return part / whole if whole else 0.0


def strongest_terms(db: Database, titles: list[str], count: int = 6) -> dict[str, list[str]]:
    """The ``count`` strongest terms of each titled item, as the relation pass stored them."""
    return {title: [term for (term,) in db.execute(
        "SELECT t.term FROM item_terms t JOIN items i ON i.id = t.item_id WHERE i.title = ? ORDER BY t.rank LIMIT ?",
        [title, count])] for title in titles}


def paths(db: Database) -> tuple[dict[str, list[Step]], set[str]]:
    """Every item's learning path keyed by its title, and the titles of the episodes."""
    rows = db.execute("SELECT id, title, kind FROM items ORDER BY id").fetchall()
    return ({title: learning_path(db, item_id) for item_id, title, _kind in rows},
            {title for _id, title, kind in rows if kind == "episode"})


def judge(found: dict[str, list[Step]], episodes: set[str], judged: dict[str, list[list[str]]]) -> Figures:
    """The figures of the paths ``found`` against the judged pairs."""
    for group in ("before", "neither"):
        for a, b, _why in judged[group]:
            for title in (a, b):
                if title not in found:
                    raise SystemExit(f"judged_paths.json names {title!r}, which the sample library lacks")
    steps = {title: {step.title for step in path} for title, path in found.items()}
    figures = Figures(episodes=len(episodes), covered=sum(1 for title in episodes if found[title]))
    for a, b, why in judged["before"]:
        forwards, backwards = a in steps[b], b in steps[a]
        figures.wanted += 1
        figures.found += forwards
        if forwards or backwards:
            figures.claimed += 1
            figures.right += forwards and not backwards
        if backwards:
            figures.wrong.append(f"{b} is a step of {a}'s path, the wrong way round   ({why})")
        if not forwards:
            figures.missed.append(f"{a} → {b}   ({why})")
    for a, b, why in judged["neither"]:
        for first, then in ((a, b), (b, a)):
            if first in steps[then]:
                figures.claimed += 1
                figures.wrong.append(f"{first} is a step of {then}'s path   (judged: {why})")
                break
    return figures


def show(found: dict[str, list[Step]], title: str) -> None:
    """Print an item's learning path as the Learning Path view lists it."""
    if title not in found:
        print(f"no item titled {title!r}")
        return
    print(title if found[title] else f"{title}: no prerequisites")
    for number, step in enumerate(found[title], start=1):
        print(f"  {number}. {step.title}  —  {step.why}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--show", action="append", default=[], metavar="TITLE", help="print this item's path")
    parser.add_argument("--show-all", action="store_true", help="print every item's path")
    args = parser.parse_args(argv)
    judged = json.loads(JUDGED.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="earmark-paths-") as folder:
        db = sample_library(Path(folder))
        found, episodes = paths(db)
        pathless = strongest_terms(db, sorted(title for title in episodes if not found[title]))
        db.close()
    for title in (list(found) if args.show_all else args.show):
        show(found, title)
    figures = judge(found, episodes, judged)
    print(f"judged set: {len(judged['before'])} pairs 'take A before B', {len(judged['neither'])} pairs neither way")
    named = {b for _a, b, _why in judged["before"]} & episodes  # the episodes a person gave a prerequisite
    print(f"the person named a prerequisite for {len(named)} of {len(episodes)} episodes "
          f"({len(named) / len(episodes):.1%}); their paths have a step for {sum(1 for t in named if found[t])}")
    print(f"{'coverage':<10} {figures.share('coverage'):6.1%}  ({figures.covered} of {figures.episodes} episodes "
          f"with a path of at least one step)   target >= {TARGETS['coverage']:.0%}")
    print(f"{'precision':<10} {figures.share('precision'):6.1%}  ({figures.right} of {figures.claimed} judged pairs "
          f"put in an order)   target >= {TARGETS['precision']:.0%}")
    print(f"{'recall':<10} {figures.share('recall'):6.1%}  ({figures.found} of {figures.wanted})   "
          f"target >= {TARGETS['recall']:.0%}")
    for name, lines in (("wrong", figures.wrong), ("missed", figures.missed)):
        if lines:
            print(f"\n{name}:")
            for line in lines:
                print(f"  {line}")
    if pathless:
        print("\nwithout a path (each with its strongest terms):")
        for title, terms in pathless.items():
            print(f"  {title}: {', '.join(terms)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
