"""Data classes under app/ are records (earmark.core.records), so that each start pays once, not per class, for
their equality, text form and hash (docs/layout.md)."""

from __future__ import annotations

import re
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app" / "earmark"
DATACLASS_DECORATOR = re.compile(r"^\s*@(?:dataclasses\.)?dataclass\b", re.MULTILINE)


def test_no_data_class_under_app_is_a_plain_dataclass() -> None:
    plain = sorted(str(path.relative_to(APP)) for path in APP.rglob("*.py")
                   if DATACLASS_DECORATOR.search(path.read_text(encoding="utf-8")))
    assert plain == [], f"write these with @record: {plain}"
