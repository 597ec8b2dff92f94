"""Earmark: a desktop library for podcasts and articles."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("earmark")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+source"
