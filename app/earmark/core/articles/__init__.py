"""Articles: saving readable documents next to the episodes."""
