"""Hypothesis profiles for the robustness suite: "ci" (the default) is deterministic and bounded; "deep" explores.

HYPOTHESIS_PROFILE=deep EARMARK_FUZZ_SCALE=20 pytest tests/robustness   # a long random run, by hand
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from helpers.feed_server import FeedServer
from helpers.fuzz import FAILED_CLEANLY, TRIED

# Deterministic (derandomize: the same examples on every run and machine, no example database), without
# hypothesis' per-example deadline (wall-clock, flaky on a loaded machine: helpers.fuzz has its own limit).
settings.register_profile(
    "ci", derandomize=True, database=None, deadline=None, print_blob=True, max_examples=100,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
settings.register_profile(
    "deep", derandomize=False, deadline=None, print_blob=True, max_examples=2000,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def feed_server(tmp_path: Path) -> Iterator[FeedServer]:
    """A server for one test, with scripted routes (as in tests/unit)."""
    with FeedServer(tmp_path) as server:
        yield server


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """How many inputs each parser was given (and how many it refused with its own error): for
    docs/reliability.md, and to see at a glance that no fuzz test silently ran nothing."""
    if TRIED:
        counts = ", ".join(f"{name} {tried} ({FAILED_CLEANLY[name]} refused)" for name, tried in sorted(TRIED.items()))
        terminalreporter.write_line(f"robustness: inputs per parser: {counts}; {sum(TRIED.values())} in all")
