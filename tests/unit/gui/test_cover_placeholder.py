"""A podcast without a cover: its initials on a colour of its own, the same every time, deeper in the dark theme,
with white letters readable on every colour of both themes."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor

from earmark.gui.covers.placeholder import _DARK, _LIGHT, colour_for, initials
from earmark.gui.theme import contrast


@pytest.mark.parametrize(("title", "letters"), [
    ("PyTorch Developer Podcast", "PD"), ("The Daily", "D"), ("Le Journal", "J"), ("99% Invisible", "9I"),
    ("  ", "?"), ("— ✦ —", "?"), ("science friday", "SF"),
])
def test_initials(title: str, letters: str) -> None:
    assert initials(title) == letters


def test_a_title_keeps_its_colour_and_the_themes_differ() -> None:
    assert colour_for("Graph Cast", False) == colour_for("Graph Cast", False)
    assert colour_for("Graph Cast", True) != colour_for("Graph Cast", False)
    assert len({colour_for(f"Show {n}", False).name() for n in range(40)}) > 4  # spread over the hues


@pytest.mark.parametrize("hue", _LIGHT + _DARK)
def test_white_letters_are_readable_on_every_colour(hue: str) -> None:
    assert contrast(QColor("#ffffff"), QColor(hue)) >= 4.5
