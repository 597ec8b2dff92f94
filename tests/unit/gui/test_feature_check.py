"""PySide6's look at each imported module (does its source name PySide6?), made cheap: the same answers."""

from __future__ import annotations

import sys
from pathlib import Path

import PySide6.QtCore  # noqa: F401  # loads PySide6's feature module

import earmark.gui  # noqa: F401  # installs the cheap check
from earmark.gui.feature_check import source_names_pyside


def test_the_cheap_check_answers_as_pyside6_does() -> None:
    feature = sys.modules["shibokensupport.feature"]
    assert getattr(feature._mod_uses_pyside, "reads_file", False)  # installed
    asked: list[str] = []

    def pyside6_check(module: object) -> bool:
        asked.append(getattr(module, "__name__", "?"))
        return False

    cheap = source_names_pyside(pyside6_check)
    modules = [m for m in list(sys.modules.values()) if m is not None]
    plain = [m for m in modules if str(getattr(m, "__file__", "")).endswith(".py")]
    answers = {m.__name__: cheap(m) for m in plain}
    assert (answers["earmark.gui"], answers["json"]) == (True, False)
    # A .py file on disk is answered from its bytes; PySide6's own modules (in an archive) by PySide6's check.
    elsewhere = {m.__name__ for m in plain if not Path(m.__file__).is_file()}
    assert set(asked) == elsewhere and len(elsewhere) < len(plain) / 4
    inspect_based = sys.modules["inspect"]
    for module in plain[:400]:
        try:
            expected = "PySide6" in inspect_based.getsource(module)
        except (OSError, TypeError, SyntaxError):
            continue
        assert answers[module.__name__] is expected, module.__name__
    asked.clear()
    assert cheap(sys.modules["sys"]) is False and asked == ["sys"]  # no file: PySide6's own check
