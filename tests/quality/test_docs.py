"""The documents agree with the code: every command, action shortcut and setting is documented."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from earmark.cli import _parser
from earmark.core.settings import SETTINGS
from earmark.gui.mainwindow.actions import SPECS

DOCS = Path(__file__).resolve().parents[2] / "docs"


def commands() -> list[str]:
    sub = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(sub.choices)


@pytest.mark.parametrize("command", commands())
def test_every_command_has_a_section_in_the_cli_doc(command: str) -> None:
    assert f"## earmark {command}\n" in (DOCS / "cli.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_every_shortcut_is_in_the_keyboard_map(spec: object) -> None:
    text = (DOCS / "keyboard.md").read_text(encoding="utf-8")
    name = spec.text.replace("&", "")  # type: ignore[attr-defined]
    rows = [line for line in text.splitlines() if line.startswith(f"| {name}")]
    assert rows, f"no row for {name!r} in docs/keyboard.md"
    documented = {s.strip() for s in rows[0].split("|")[2].strip().split(", ")} - {"(none)"}  # "Ctrl+," has a comma
    assert documented == set(spec.shortcuts)  # type: ignore[attr-defined]


def test_keyboard_map_lists_no_action_that_does_not_exist() -> None:
    text = (DOCS / "keyboard.md").read_text(encoding="utf-8")
    names = {s.text.replace("&", "") for s in SPECS}
    rows = re.findall(r"^\| ([^|]+?) \|", text, re.MULTILINE)
    unknown = [r for r in rows[1:] if not any(r.startswith(n) for n in names)]
    assert not unknown


@pytest.mark.parametrize("key", sorted(SETTINGS))
def test_every_setting_is_documented(key: str) -> None:
    assert f"`{key}`" in (DOCS / "settings.md").read_text(encoding="utf-8")


def test_every_action_spec_is_a_declared_attribute() -> None:
    from earmark.gui.mainwindow.actions import Actions

    assert set(Actions.__annotations__) == {spec.name for spec in SPECS}
