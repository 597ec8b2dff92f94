"""Feeds: fetching, parsing, subscribing."""
