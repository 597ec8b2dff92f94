"""Running the command line in-process for tests, with what it printed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from earmark.cli import main


class Cli:
    """Runs ``earmark --library <tmp file> ...`` in-process and captures what it printed."""

    def __init__(self, library: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.library = library
        self.capsys = capsys

    def __call__(self, *args: str) -> tuple[int, str, str]:
        self.capsys.readouterr()
        code = main(["--library", str(self.library), *args])
        out, err = self.capsys.readouterr()
        return code, out, err

    def json(self, *args: str) -> list[dict[str, object]]:
        code, out, err = self(*args, "--json")
        assert code == 0, err
        value = json.loads(out)
        assert isinstance(value, list)
        return value


def assert_failure(code: int, out: str, err: str) -> None:
    """A command that failed as it should: exit code 1, nothing on standard output, one sentence on stderr."""
    assert code == 1
    assert out == ""
    assert err.startswith("earmark: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    assert err.rstrip().endswith("."), err
