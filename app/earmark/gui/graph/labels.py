"""Which nodes' titles the graph shows at a zoom, and where: most important first (the hovered and selected
nodes and their neighbours, a learning path, then the best connected), each beside its node where it overlaps
no label placed before it, so labels never overlap and more appear as you zoom in."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QRectF

from earmark.core.records import record

LABEL_CHARS = 34
GAP = 4.0  # pixels between a node's disc and its label, and around labels
CELL = 96.0  # pixels: the grid that finds labels near a place
MAX_TRIES = 400  # the most important candidates tried: past these, hardly any label would find room anyway


@record
class Candidate:
    """A node that would like its title shown: where its disc's centre is (scene), how big, and how much it
    matters."""

    node_id: int
    x: float
    y: float
    radius: float
    text: str
    priority: float  # higher first


@record
class Placed:
    """A label placed: its node, its text and its rectangle in scene units."""

    node_id: int
    text: str
    rect: QRectF
    bold: bool = False


def shorten(title: str) -> str:
    """A title cut to LABEL_CHARS characters."""
    return title if len(title) <= LABEL_CHARS else title[:LABEL_CHARS - 1] + "…"


Box = tuple[float, float, float, float]  # left, top, right, bottom (scene units): cheaper than a QRectF per try


def place(candidates: Iterable[Candidate], scale: float, width: Callable[[str, bool], float], height: float,
          bold: set[int], shown: QRectF | None = None) -> list[Placed]:
    """Labels for ``candidates`` at ``scale`` (pixels per scene unit; ``width`` of a text and ``height`` of a line in
    pixels, bold or not), none overlapping another: the most important first, each to the right of its node, else
    to its left, else left out; the nodes of ``bold`` get theirs in bold. A node inside ``shown`` (the area in view)
    gets its label only where the whole label is in view too: never a title cut at the edge."""
    placed: list[Placed] = []
    grid: dict[tuple[int, int], list[Box]] = {}
    cell = CELL / scale
    gap = GAP / scale
    view = (shown.left(), shown.top(), shown.right(), shown.bottom()) if shown is not None else None
    for candidate in sorted(candidates, key=lambda c: -c.priority)[:MAX_TRIES]:
        strong = candidate.node_id in bold
        box_width = (width(candidate.text, strong) + 2 * GAP) / scale
        box_height = (height + GAP) / scale
        x, y, r = candidate.x, candidate.y, candidate.radius
        top, bottom = y - box_height / 2, y + box_height / 2
        right, left = x + r + gap, x - r - gap
        sides = [(right, top, right + box_width, bottom), (left - box_width, top, left, bottom)]
        if view is not None and _inside((x, y, x, y), view):
            sides = [box for box in sides if _inside(box, view)]
        for box in sides:
            keys = _cells(box, cell)
            if _free(box, keys, grid):
                for key in keys:
                    grid.setdefault(key, []).append(box)
                placed.append(Placed(candidate.node_id, candidate.text,
                                     QRectF(box[0], box[1], box[2] - box[0], box[3] - box[1]), strong))
                break
    return placed


def _cells(box: Box, cell: float) -> list[tuple[int, int]]:
    return [(cx, cy) for cx in range(int(box[0] // cell), int(box[2] // cell) + 1)
            for cy in range(int(box[1] // cell), int(box[3] // cell) + 1)]


def _free(box: Box, keys: list[tuple[int, int]], grid: dict[tuple[int, int], list[Box]]) -> bool:
    """Whether ``box`` overlaps none of the boxes in the cells ``keys`` of ``grid`` (as QRectF.intersects: touching
    edges do not overlap)."""
    left, top, right, bottom = box
    for key in keys:
        for other in grid.get(key, ()):
            if left < other[2] and other[0] < right and top < other[3] and other[1] < bottom:
                return False
    return True


def _inside(box: Box, area: Box) -> bool:
    """Whether ``box`` lies within ``area`` (edges included, as QRectF.contains)."""
    return area[0] <= box[0] and box[2] <= area[2] and area[1] <= box[1] and box[3] <= area[3]
