"""Learning paths: an item's prerequisites (what it says to take first, what it cites, what says to be taken before
it, and what explains the concepts it uses: prerequisites.py), followed back and put in the order to take them.
Citations are the strongest: a concept never puts two items in the order a citation reverses."""

from __future__ import annotations

from earmark.core.db.database import Database
from earmark.core.db.items import items_by_ids
from earmark.core.errors import NotFoundError
from earmark.core.models import ItemKind
from earmark.core.records import record
from earmark.core.topics.citations import BEFORE, FIRST, LINK, REMOTE
from earmark.core.topics.prerequisites import CONCEPT, EARLIER, SERIES, concept_prerequisites
from earmark.core.topics.vocabulary import broader

MAX_STEPS = 50
# Said first, cited, a series' order, then explained: a tie of a lower number wins over a reversed one of a higher.
_STRENGTH = {FIRST: 0, BEFORE: 0, LINK: 1, REMOTE: 1, SERIES: 2, EARLIER: 2, CONCEPT: 3}
_REASONS = {FIRST: "prerequisite", BEFORE: "prerequisite", LINK: "cites", REMOTE: "cites", SERIES: "concept",
            EARLIER: "concept", CONCEPT: "concept"}
Edge = tuple[int, str, str | None, float, str]  # prerequisite, how, concept, score, the concept's term


@record
class Step:
    """One item of a learning path: take it before ``needed_by``, because of ``reason`` ("prerequisite": it says
    so; "cites"; "concept": it explains ``concept``, which ``needed_by`` builds on), told in ``why``."""

    id: int
    title: str
    kind: ItemKind
    needed_by: int
    reason: str
    concept: str | None = None
    why: str = ""
    how: str = FIRST  # how it was found (citations.py, prerequisites.py)

    def brief(self) -> str:
        """The reason in a few words, as the Learning Path view shows it beside the step."""
        briefs = {CONCEPT: f"explains {self.concept}", SERIES: f"{self.concept} series",
                  EARLIER: f"earlier on {self.concept}", LINK: "cited", REMOTE: "cited"}
        return briefs.get(self.how, "said to take first")

    def as_json(self, number: int) -> dict[str, object]:
        """The object printed by ``path --json`` (a contract: add, never rename)."""
        return {"step": number, "id": self.id, "title": self.title, "kind": self.kind,
                "needed_by": self.needed_by, "reason": self.reason, "concept": self.concept, "why": self.why}


def _why(how: str, concept: str | None, needed_by: str, kind: str = "episode") -> str:
    if how == CONCEPT:
        return f"explains {concept}, which “{needed_by}” builds on"
    if how == EARLIER:
        return f"an earlier {kind} on {concept}, which “{needed_by}” builds on"
    if how == SERIES:
        return f"comes before “{needed_by}” in the {concept} series"
    if how == BEFORE:
        return f"says to take it before “{needed_by}”"
    if how == FIRST:
        return f"“{needed_by}” says to take it first"
    return f"“{needed_by}” cites it"


def _cited(db: Database, item_id: int) -> list[Edge]:
    """What ``item_id`` cites and what says to be taken before it. A link matched only by its address's last
    segment (another site's ``…/pytorch-2.0`` and an episode's slug) to an item published after the linking one
    is no citation: nothing links to what did not exist yet."""
    rows = db.execute(
        """SELECT k.item_id, l.how FROM item_links l JOIN item_keys k ON k.key = l.target
                  JOIN items me ON me.id = l.item_id JOIN items it ON it.id = k.item_id
           WHERE l.item_id = ? AND k.item_id != l.item_id AND l.how != ?
                 AND NOT (l.target LIKE 'slug:%' AND me.published < it.published
                          AND NOT EXISTS (SELECT 1 FROM item_links o JOIN item_keys ok ON ok.key = o.target
                                          WHERE o.item_id = l.item_id AND ok.item_id = k.item_id
                                                AND o.target NOT LIKE 'slug:%'))
           UNION SELECT item_id, how FROM citations WHERE cited_id = ? AND how = ?""",
        [item_id, BEFORE, item_id, BEFORE]).fetchall()
    return [(other, how, None, 1.0, "") for other, how in rows]


def _concerns(db: Database, item_id: int) -> set[str]:
    """The concepts an item is about or uses: its stored terms, what its title names, and the broader concepts
    of those (Min-cut partitioner uses AOTAutograd, which is PT2)."""
    terms = {term for (term,) in db.execute("""SELECT term FROM item_terms WHERE item_id = ?
                                               UNION SELECT term FROM item_concepts WHERE item_id = ?""",
                                            [item_id, item_id])}
    wider = broader()
    return terms | {family for term in terms for family in wider.get(term, ())}


def prerequisites(db: Database, item_id: int) -> dict[int, list[Edge]]:
    """Every item's direct prerequisites reachable from ``item_id``, strongest first; a concept's order that the
    other item's own prerequisites reverse is left out (see _settle). A step's own concept steps are followed only
    for concepts ``item_id`` is about or uses too: the PT2 episode's step, conference notes that also cover
    distributed training, does not bring the distributed intro into Dynamo's path; citations and series are
    followed all the way."""
    found: dict[int, list[Edge]] = {}
    pending = [item_id]
    concerns = _concerns(db, item_id)
    while pending and len(found) < MAX_STEPS * 4:
        current = pending.pop()
        if current in found:
            continue
        taught = [t for t in concept_prerequisites(db, current)
                  if current == item_id or t.how == SERIES or t.term in concerns]
        edges = _cited(db, current) + [(t.other, t.how, t.concept, t.score, t.term) for t in taught]
        strongest: dict[int, Edge] = {}
        for edge in sorted(edges, key=lambda e: (_STRENGTH[e[1]], -e[3], e[0])):
            strongest.setdefault(edge[0], edge)
        found[current] = list(strongest.values())
        pending += list(strongest)
    return _settle(db, found)


def _settle(db: Database, graph: dict[int, list[Edge]]) -> dict[int, list[Edge]]:
    """Two items each a prerequisite of the other: a citation wins over a series' order, which wins over a
    concept; between two of a kind, the podcast's own order (the earlier episode of one source first), else the
    stronger."""
    edges = {(node, edge[0]): edge for node, listed in graph.items() for edge in listed}
    both = {pair for pair in edges if (pair[1], pair[0]) in edges}
    if not both:
        return graph
    items = items_by_ids(db, {i for pair in both for i in pair}, full=False)
    dropped = set()
    for user, first in both:
        mine, theirs = edges[(user, first)], edges[(first, user)]
        if _STRENGTH[mine[1]] != _STRENGTH[theirs[1]]:
            if _STRENGTH[mine[1]] > _STRENGTH[theirs[1]]:
                dropped.add((user, first))
            continue
        a, b = items.get(first), items.get(user)
        dates = (a.published, b.published) if a and b and a.source_id == b.source_id else (None, None)
        if dates[0] and dates[1]:
            keep = dates[0] < dates[1]
        else:
            keep = (mine[3], -first) > (theirs[3], -user)
        if not keep:
            dropped.add((user, first))
    return {node: [e for e in listed if (node, e[0]) not in dropped] for node, listed in graph.items()}


def learning_path(db: Database, item_id: int) -> list[Step]:
    """The prerequisites of ``item_id`` in the order to take them (each after its own prerequisites; a cycle
    is cut where it closes), without the item itself. A step the item needs itself is said to be for it ("explains
    distributed, which “Compiled autograd” builds on"), unless another step needs it more strongly (cites it)."""
    graph = prerequisites(db, item_id)
    items = items_by_ids(db, {edge[0] for edges in graph.values() for edge in edges} | {item_id}, full=False)
    if item_id not in items:
        raise NotFoundError(f"There is no item with id {item_id}.")
    order: list[tuple[int, int, Edge]] = []
    placed: set[int] = set()
    visiting: set[int] = set()
    own = {edge[0]: edge for edge in graph.get(item_id, [])}  # a step the item needs itself says so, said as strongly

    def visit(node: int, needed_by: int, edge: Edge) -> None:
        if node in placed or node in visiting or len(order) >= MAX_STEPS:
            return
        visiting.add(node)
        for other in graph.get(node, []):
            visit(other[0], node, other)
        visiting.discard(node)
        placed.add(node)
        if node in own and _STRENGTH[own[node][1]] <= _STRENGTH[edge[1]]:
            needed_by, edge = item_id, own[node]
        if node != item_id:
            order.append((node, needed_by, edge))

    visit(item_id, item_id, (item_id, FIRST, None, 1.0, ""))
    return [Step(node, items[node].title, items[node].kind, needed_by, _REASONS[edge[1]], edge[2],
                 _why(edge[1], edge[2], items[needed_by].title, items[node].kind), edge[1])
            for node, needed_by, edge in order if node in items and needed_by in items]
