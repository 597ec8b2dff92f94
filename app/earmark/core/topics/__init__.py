"""The topic graph: concepts, citations, related items and why, learning paths, graph data and layout."""
