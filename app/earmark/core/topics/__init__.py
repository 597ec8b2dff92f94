"""The topic graph: key phrases, citations, related items, learning paths, graph data and layout."""
