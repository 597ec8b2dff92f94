"""Passages of the library (transcript windows, paragraphs, notes) in an index of their own, to ask it questions."""
