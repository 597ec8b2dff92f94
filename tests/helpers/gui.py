"""Types shared by GUI tests."""

from collections.abc import Callable

from earmark.gui.application import Parts

Launch = Callable[[], Parts]
