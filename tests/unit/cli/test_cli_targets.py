"""``earmark URL`` and ``earmark FILE.opml``: feed links and files given in place of a command go to the window."""

from __future__ import annotations

from pathlib import Path

import pytest

from earmark.cli.commands import command_names
from earmark.cli.targets import split_targets

COMMANDS = command_names()


@pytest.mark.parametrize("argv, rest, targets", [
    (["https://example.com/feed.xml"], [], ["https://example.com/feed.xml"]),
    (["--library", "x.db", "podcast://example.com/f"], ["--library", "x.db"], ["podcast://example.com/f"]),
    (["feed:https://a/f", "itpc://b/f"], [], ["feed:https://a/f", "itpc://b/f"]),
    (["earmark:item/0123456789abcdef?t=65"], [], ["earmark:item/0123456789abcdef?t=65"]),  # a note's timestamp
    (["list", "--json"], ["list", "--json"], []),
    (["subscribe", "https://example.com/feed.xml"], ["subscribe", "https://example.com/feed.xml"], []),
    (["lst"], ["lst"], []),  # a typo stays a (wrong) command
    (["--smoke-test"], ["--smoke-test"], []),
    ([], [], []),
])
def test_targets_are_taken_out_of_the_arguments(argv: list[str], rest: list[str], targets: list[str]) -> None:
    assert split_targets(argv, COMMANDS) == (rest, targets)


def test_files_become_absolute_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "subs.opml").write_text("<opml/>")
    monkeypatch.chdir(tmp_path)
    assert split_targets(["subs.opml"], COMMANDS) == ([], [str(tmp_path / "subs.opml")])
    assert split_targets(["missing.opml"], COMMANDS) == (["missing.opml"], [])
    assert split_targets(["--", "subs.opml"], COMMANDS) == ([], [str(tmp_path / "subs.opml")])
    uri = (tmp_path / "subs.opml").as_uri()
    assert split_targets([uri], COMMANDS) == ([], [uri])
