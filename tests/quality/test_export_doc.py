"""docs/export.md shows what Earmark writes: each sample is a run of lines of its golden file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "unit" / "core" / "notes" / "golden" / "notes"
SAMPLE = re.compile(r"<!-- sample: (.+?) -->\n```\w*\n(.*?)```", re.DOTALL)
SAMPLES = SAMPLE.findall((ROOT / "docs" / "export.md").read_text(encoding="utf-8"))


def test_every_format_has_a_sample() -> None:
    names = {name for name, _ in SAMPLES}
    assert {"readwise.csv", "notes.json", "history.csv", "history.json", "subscriptions.opml", "reading-list.json",
            "reading-list.csv"} <= names
    assert any(name.startswith("markdown/") for name in names)


@pytest.mark.parametrize("name, sample", SAMPLES, ids=[name for name, _ in SAMPLES])
def test_sample_is_what_earmark_writes(name: str, sample: str) -> None:
    lines = sample.splitlines()
    golden = (GOLDEN / name).read_text(encoding="utf-8").splitlines()
    starts = [i for i, line in enumerate(golden) if line == lines[0]]
    assert any(golden[i:i + len(lines)] == lines for i in starts), f"the sample of {name} is not in its golden file"
