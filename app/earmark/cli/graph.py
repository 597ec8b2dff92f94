"""The topic graph commands: related items, topics, learning paths and the graph as GraphML. Each brings the
relations up to date first; the topic modules load only when one runs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from earmark.cli.common import count, print_json, record_id
from earmark.core.db.database import Database
from earmark.core.db.items import get_item


def related_command(related: argparse.ArgumentParser) -> None:
    """the items most related to an item, with the reasons"""
    related.add_argument("item_id", type=record_id, metavar="ITEM_ID")
    related.add_argument("--limit", type=count, default=10, metavar="N", help="how many (default 10)")
    related.add_argument("--json", action="store_true", help="print a JSON array of {id, title, kind, score, reasons}")
    related.set_defaults(run=_related)


def topics_command(topics: argparse.ArgumentParser) -> None:
    """the topics items share, with how many items each"""
    topics.add_argument("--json", action="store_true", help="print a JSON array of {topic, count}")
    topics.set_defaults(run=_topics)


def path_command(path: argparse.ArgumentParser) -> None:
    """an item's prerequisites, in the order to take them"""
    path.add_argument("item_id", type=record_id, metavar="ITEM_ID")
    path.add_argument("--json", action="store_true", help="print a JSON array, one object per step: {step, id, title, "
                      "kind, needed_by, reason, concept, why}")
    path.set_defaults(run=_path)


def export_graph_command(graph: argparse.ArgumentParser) -> None:
    """write the topic graph as GraphML"""
    graph.add_argument("file", help="the file to write, or - for standard output")
    graph.add_argument("--min-weight", type=float, default=0.0, metavar="W", help="leave out weaker edges")
    graph.add_argument("--topics", action="store_true", help="add topic nodes")
    graph.set_defaults(run=_export_graph)


def _up_to_date(db: Database) -> None:
    """Work out the relations of new and changed items first (in full the first time: a few seconds for
    10,000 items)."""
    from earmark.core.topics.build import update_relations

    update_relations(db)


def _related(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.topics.reasons import related as related_items

    get_item(db, args.item_id)  # an unknown id fails before any work
    _up_to_date(db)
    found = related_items(db, args.item_id, args.limit)
    if args.json:
        print_json([related.as_json() for related in found])
        return 0
    for related in found:
        print(f"{related.id:>6}  {related.score:5.2f}  {related.title}  ({', '.join(related.reasons)})")
    return 0


def _topics(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.db.relations import topic_counts
    from earmark.core.topics.vectors import TOPICS_PER_ITEM

    _up_to_date(db)
    counts = topic_counts(db, TOPICS_PER_ITEM)
    if args.json:
        print_json([{"topic": topic, "count": number} for topic, number in counts])
        return 0
    for topic, number in counts:
        print(f"{number:>6}  {topic}")
    return 0


def _path(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.topics.path import learning_path

    item = get_item(db, args.item_id)
    _up_to_date(db)
    steps = learning_path(db, item.id)
    if args.json:
        print_json([step.as_json(number) for number, step in enumerate(steps, start=1)])
        return 0
    if not steps:
        print(f"“{item.title}” has no prerequisites in the library.")
        return 0
    for number, step in enumerate(steps, start=1):
        print(f"{number:>3}. {step.title}  [{step.id}, {step.reason}]: {step.why}")
    print(f"  then “{item.title}”")
    return 0


def _export_graph(db: Database, args: argparse.Namespace) -> int:
    from earmark.core.topics.graph import GraphFilter, read_graph
    from earmark.core.topics.graphml import render_graphml, write_graphml

    _up_to_date(db)
    data = read_graph(db, GraphFilter(min_weight=args.min_weight, topics=args.topics))
    if args.file == "-":
        sys.stdout.write(render_graphml(data))
        return 0
    path = Path(args.file).expanduser()
    write_graphml(data, path)
    print(f"Wrote {len(data.nodes)} nodes and {len(data.edges)} edges to {path}.")
    return 0
