"""GraphML export of the topic graph (Gephi, yEd, Cytoscape, networkx read it)."""

from __future__ import annotations

from pathlib import Path
from xml.etree.ElementTree import Element, SubElement, indent, tostring

from earmark.core.files import write_file
from earmark.core.topics.graph import GraphData

_NS = "http://graphml.graphdrawing.org/xmlns"
_NODE_KEYS = (("title", "string"), ("kind", "string"), ("source", "string"), ("x", "double"), ("y", "double"))
_EDGE_KEYS = (("weight", "double"), ("reasons", "string"))


def render_graphml(data: GraphData) -> str:
    """The graph as a GraphML document: node data title, kind, source, x, y; edge data weight and reasons
    (joined by "; "); an edge with an order points from the item to take first."""
    root = Element("graphml", xmlns=_NS)
    for name, kind in _NODE_KEYS:
        SubElement(root, "key", {"id": name, "for": "node", "attr.name": name, "attr.type": kind})
    for name, kind in _EDGE_KEYS:
        SubElement(root, "key", {"id": name, "for": "edge", "attr.name": name, "attr.type": kind})
    graph = SubElement(root, "graph", id="earmark", edgedefault="undirected")
    for node in data.nodes:
        element = SubElement(graph, "node", id=f"n{node.id}")
        for name, value in (("title", node.title), ("kind", node.kind), ("source", node.source),
                            ("x", node.x), ("y", node.y)):
            if value is not None:
                SubElement(element, "data", key=name).text = f"{value:.2f}" if isinstance(value, float) else str(value)
    for number, edge in enumerate(data.edges):
        source, target = (edge.a, edge.b) if edge.first != edge.b else (edge.b, edge.a)
        attributes = {"id": f"e{number}", "source": f"n{source}", "target": f"n{target}"}
        if edge.first is not None:
            attributes["directed"] = "true"
        element = SubElement(graph, "edge", attributes)
        SubElement(element, "data", key="weight").text = f"{edge.weight:.4f}"
        SubElement(element, "data", key="reasons").text = "; ".join(edge.reasons)
    indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + tostring(root, encoding="unicode") + "\n"


def write_graphml(data: GraphData, path: Path) -> None:
    """Write the graph to ``path`` (atomically)."""
    write_file(path, render_graphml(data))
