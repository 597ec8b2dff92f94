"""The documents agree with the code: every command, action shortcut and setting is documented."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from earmark.cli import build_parser
from earmark.core.settings import SETTINGS
from earmark.gui.mainwindow.frame.actions import SPECS, ActionSpec, conflicts, effective_shortcuts, normalized

DOCS = Path(__file__).resolve().parents[2] / "docs"


def commands() -> list[str]:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(sub.choices)


def subcommands() -> list[str]:
    """Commands of command groups (``sync login``…)."""
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(f"{name} {child}" for name, parser in sub.choices.items() for action in parser._actions
                  if isinstance(action, argparse._SubParsersAction) for child in action.choices)


@pytest.mark.parametrize("command", commands() + subcommands())
def test_every_command_has_a_section_in_the_cli_doc(command: str) -> None:
    assert f"## earmark {command}\n" in (DOCS / "cli.md").read_text(encoding="utf-8")


def keyboard_rows() -> dict[str, list[str]]:
    """The keyboard map's table rows by their first cell (the action's text), header rows left out."""
    text = (DOCS / "keyboard.md").read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.split("|")[1:-1]]
        if len(cells) >= 2 and cells[0] not in ("Action", "---"):
            rows[cells[0]] = cells
    return rows


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_every_shortcut_is_in_the_keyboard_map(spec: ActionSpec) -> None:
    name = spec.text.replace("&", "")
    row = keyboard_rows().get(name)
    assert row, f"no row for {name!r} in docs/keyboard.md"
    documented = {s.strip() for s in row[1].split(", ")} - {"(none)"}  # ", " apart: "Ctrl+," has a comma
    assert documented == set(spec.shortcuts)


def test_keyboard_map_lists_no_action_that_does_not_exist() -> None:
    names = {s.text.replace("&", "") for s in SPECS}
    assert set(keyboard_rows()) - names == set()


def test_default_shortcuts_are_portable_and_free_of_conflicts() -> None:
    for spec in SPECS:
        assert normalized(spec.shortcuts) == spec.shortcuts, f"{spec.name}: write shortcuts as Qt spells them"
    assert conflicts(effective_shortcuts({})) == {}


def test_the_keyboard_map_explains_how_to_change_shortcuts() -> None:
    text = (DOCS / "keyboard.md").read_text(encoding="utf-8")
    assert "`keyboard.shortcuts`" in text and "Customize Shortcuts" in text
    assert "keyboard.shortcuts" in SETTINGS


@pytest.mark.parametrize("key", sorted(SETTINGS))
def test_every_setting_is_documented(key: str) -> None:
    assert f"`{key}`" in (DOCS / "settings.md").read_text(encoding="utf-8")


def test_every_action_spec_is_a_declared_attribute() -> None:
    """Every action the window's parts connect by name is typed; the Go entries are wired from their declarations."""
    from earmark.gui.mainwindow.frame.actions import GO_TO, Actions

    assert set(Actions.__annotations__) == {spec.name for spec in SPECS} - {go.name for go in GO_TO}
