"""Which nodes' titles the graph shows at a zoom, and where: most important first (the hovered and selected
nodes and their neighbours, a learning path, then the best connected), each beside its node where it overlaps
no label placed before it, so labels never overlap and more appear as you zoom in."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF

LABEL_CHARS = 34
GAP = 4.0  # pixels between a node's disc and its label, and around labels
CELL = 96.0  # pixels: the grid that finds labels near a place
MAX_TRIES = 400  # the most important candidates tried: past these, hardly any label would find room anyway


@dataclass(slots=True)
class Candidate:
    """A node that would like its title shown: where its disc is (scene), how big, and how much it matters."""

    node_id: int
    position: QPointF
    radius: float
    text: str
    priority: float  # higher first


@dataclass(slots=True)
class Placed:
    """A label placed: its node, its text and its rectangle in scene units."""

    node_id: int
    text: str
    rect: QRectF
    bold: bool = False


def shorten(title: str) -> str:
    """A title cut to LABEL_CHARS characters."""
    return title if len(title) <= LABEL_CHARS else title[:LABEL_CHARS - 1] + "…"


def place(candidates: Iterable[Candidate], scale: float, width: Callable[[str, bool], float], height: float,
          bold: set[int], shown: QRectF | None = None) -> list[Placed]:
    """Labels for ``candidates`` at ``scale`` (pixels per scene unit; ``width`` of a text and ``height`` of a line in
    pixels, bold or not), none overlapping another: the most important first, each to the right of its node, else
    to its left, else left out; the nodes of ``bold`` get theirs in bold. A node inside ``shown`` (the area in view)
    gets its label only where the whole label is in view too: never a title cut at the edge."""
    placed: list[Placed] = []
    grid: dict[tuple[int, int], list[QRectF]] = {}
    cell = CELL / scale
    gap = GAP / scale
    for candidate in sorted(candidates, key=lambda c: -c.priority)[:MAX_TRIES]:
        strong = candidate.node_id in bold
        box_width = (width(candidate.text, strong) + 2 * GAP) / scale
        box_height = (height + GAP) / scale
        x, y, r = candidate.position.x(), candidate.position.y(), candidate.radius
        sides = [QRectF(x + r + gap, y - box_height / 2, box_width, box_height),
                 QRectF(x - r - gap - box_width, y - box_height / 2, box_width, box_height)]
        if shown is not None and shown.contains(candidate.position):
            sides = [rect for rect in sides if shown.contains(rect)]
        for rect in sides:
            if not _overlaps(rect, grid, cell):
                _remember(rect, grid, cell)
                placed.append(Placed(candidate.node_id, candidate.text, rect, strong))
                break
    return placed


def _cells(rect: QRectF, cell: float) -> list[tuple[int, int]]:
    return [(cx, cy) for cx in range(int(rect.left() // cell), int(rect.right() // cell) + 1)
            for cy in range(int(rect.top() // cell), int(rect.bottom() // cell) + 1)]


def _overlaps(rect: QRectF, grid: dict[tuple[int, int], list[QRectF]], cell: float) -> bool:
    return any(rect.intersects(other) for key in _cells(rect, cell) for other in grid.get(key, ()))


def _remember(rect: QRectF, grid: dict[tuple[int, int], list[QRectF]], cell: float) -> None:
    for key in _cells(rect, cell):
        grid.setdefault(key, []).append(rect)
