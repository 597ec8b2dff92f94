"""Earmark: a desktop library for podcasts and articles."""

from earmark.sqlite_utils_first import import_sqlite_utils

__version__ = "0.1.0"

import_sqlite_utils()  # before any module of ours imports it: see sqlite_utils_first.py
