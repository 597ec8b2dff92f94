"""Covers: images that feeds and pages name, fetched once, checked before decoding, cached at the sizes shown."""
