"""Learning paths: an item's prerequisites (what it says to take first, what it cites, and what says to be
taken before it), followed back and put in the order to take them."""

from __future__ import annotations

from earmark.core.db.database import Database
from earmark.core.db.items import items_by_ids
from earmark.core.errors import NotFoundError
from earmark.core.models import ItemKind
from earmark.core.records import record
from earmark.core.topics.citations import BEFORE, FIRST, LINK, REMOTE

MAX_STEPS = 50
_STRENGTH = {FIRST: 0, BEFORE: 0, LINK: 1, REMOTE: 1}  # explicit prerequisites are taken before mere citations


@record
class Step:
    """One item of a learning path: take it before ``needed_by``, because of ``reason``."""

    id: int
    title: str
    kind: ItemKind
    needed_by: int
    reason: str  # "prerequisite" (it says so) or "cites"

    def as_json(self, number: int) -> dict[str, object]:
        """The object printed by ``path --json`` (a contract: add, never rename)."""
        return {"step": number, "id": self.id, "title": self.title, "kind": self.kind,
                "needed_by": self.needed_by, "reason": self.reason}


def prerequisites(db: Database, item_id: int) -> dict[int, list[tuple[int, str]]]:
    """Every item's direct prerequisites reachable from ``item_id``: (prerequisite, how), strongest first."""
    found: dict[int, list[tuple[int, str]]] = {}
    pending = [item_id]
    while pending and len(found) < MAX_STEPS * 4:
        current = pending.pop()
        if current in found:
            continue
        rows = db.execute(
            """SELECT cited_id, how FROM citations WHERE item_id = ? AND how != ?
               UNION SELECT item_id, how FROM citations WHERE cited_id = ? AND how = ?""",
            [current, BEFORE, current, BEFORE]).fetchall()
        strongest: dict[int, str] = {}
        for other, how in sorted(rows, key=lambda row: (_STRENGTH[row[1]], row[0])):
            strongest.setdefault(other, how)
        found[current] = list(strongest.items())
        pending += list(strongest)
    return found


def learning_path(db: Database, item_id: int) -> list[Step]:
    """The prerequisites of ``item_id`` in the order to take them (each after its own prerequisites; a cycle
    is cut where it closes), without the item itself."""
    graph = prerequisites(db, item_id)
    items = items_by_ids(db, {other for edges in graph.values() for other, _how in edges} | {item_id}, full=False)
    if item_id not in items:
        raise NotFoundError(f"There is no item with id {item_id}.")
    order: list[tuple[int, int, str]] = []
    placed: set[int] = set()
    visiting: set[int] = set()

    def visit(node: int, needed_by: int, how: str) -> None:
        if node in placed or node in visiting or len(order) >= MAX_STEPS:
            return
        visiting.add(node)
        for other, other_how in graph.get(node, []):
            visit(other, node, other_how)
        visiting.discard(node)
        placed.add(node)
        if node != item_id:
            order.append((node, needed_by, how))

    visit(item_id, item_id, FIRST)
    return [Step(node, items[node].title, items[node].kind, needed_by,
                 "prerequisite" if how in (FIRST, BEFORE) else "cites")
            for node, needed_by, how in order if node in items]
