"""Earmark: a desktop library for podcasts and articles."""

__version__ = "0.1.0"
