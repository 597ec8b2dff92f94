"""Regression guard: PySide6 6.12.0 on Python < 3.12 leaks a reference to None on every call of a C++ method
that returns nothing, and the process aborts ("none_dealloc") after a few million calls."""

from __future__ import annotations

import sys
from importlib.metadata import version

import pytest
from PySide6.QtCore import QObject

CALLS = 200_000


def test_installed_pyside6_is_not_the_broken_release() -> None:
    if sys.version_info < (3, 12):
        major, minor = (int(part) for part in version("PySide6-Essentials").split(".")[:2])
        assert (major, minor) < (6, 12), "PySide6 >= 6.12 corrupts None's refcount on Python < 3.12"


@pytest.mark.slow
def test_void_calls_do_not_drift_the_refcount_of_none() -> None:
    target = QObject()
    before = sys.getrefcount(None)
    for _ in range(CALLS):
        target.setObjectName("x")  # a C++ method returning void
    drift = abs(sys.getrefcount(None) - before)
    assert drift < CALLS // 100, f"None's refcount moved by {drift} over {CALLS} void calls"
