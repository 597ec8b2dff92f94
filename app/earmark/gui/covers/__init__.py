"""Covers in the window: one cache that loads them in workers, placeholders, and the Podcasts view."""
