"""A cover for a podcast or site without one: its initials on a colour of its own (the same name always gets
the same colour), darker in the dark theme, with white letters readable on each (4.5:1 at least)."""

from __future__ import annotations

import hashlib
from functools import lru_cache

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter

# Hues chosen for white text at 4.5:1 or more (light theme), and their deeper twins for the dark theme.
_LIGHT = ("#1f5f86", "#8a3b12", "#2e6b30", "#6a3d9a", "#9b2c4b", "#0b6e6e", "#5b5f14", "#37539b")
_DARK = ("#17465f", "#6b2e0e", "#224f24", "#4f2d73", "#742139", "#085252", "#43460f", "#293e74")
_SMALL_WORDS = frozenset(("the", "a", "an", "of", "and", "&", "le", "la", "der", "die", "das"))


def initials(title: str) -> str:
    """Up to two letters from the title's words ("The PyTorch Developer Podcast": "PD"), "?" for none."""
    words = [word for word in title.split() if word[:1].isalnum()]
    kept = [word for word in words if word.lower() not in _SMALL_WORDS] or words
    letters = "".join(word[0] for word in kept[:2]).upper()
    return letters or "?"


def colour_for(title: str, dark: bool) -> QColor:
    """The placeholder's colour of ``title``."""
    hues = _DARK if dark else _LIGHT
    return QColor(hues[hashlib.blake2b(title.encode(), digest_size=2).digest()[0] % len(hues)])


@lru_cache(maxsize=64)  # the cover cache keeps the pixmaps made of them
def placeholder(title: str, pixels: int, dark: bool) -> QImage:
    """A square placeholder ``pixels`` wide (a QImage: made in any thread)."""
    image = QImage(pixels, pixels, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(colour_for(title, dark))
    radius = max(2.0, pixels / 10)
    painter.drawRoundedRect(0, 0, pixels, pixels, radius, radius)
    font = QFont()
    font.setBold(True)
    font.setPixelSize(max(6, int(pixels * 0.4)))
    painter.setFont(font)
    painter.setPen(QColor("#ffffff"))
    painter.drawText(QRect(0, 0, pixels, pixels), Qt.AlignmentFlag.AlignCenter, initials(title))
    painter.end()
    return image
