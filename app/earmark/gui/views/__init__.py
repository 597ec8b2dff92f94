"""Widgets that show library data."""
