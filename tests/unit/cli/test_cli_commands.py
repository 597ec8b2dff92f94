"""A command builds the parser of its own group alone: the table of groups and commands, and what is parsed."""

from __future__ import annotations

import argparse
import importlib

import pytest

from earmark.cli import _parse, build_parser, main
from earmark.cli.commands import GROUPS, group_of


@pytest.mark.parametrize("group", list(GROUPS))
def test_a_group_declares_no_command_the_table_does_not_name(group: str) -> None:
    """The table names each command once; a group's NAME_command function it does not name would be dead code."""
    module = importlib.import_module(f"earmark.cli.{group}")
    declared = {name.removesuffix("_command").replace("_", "-") for name in vars(module)
                if name.endswith("_command") and callable(getattr(module, name))}
    assert declared == set(GROUPS[group])


@pytest.mark.parametrize("argv, group", [
    (["update-relations"], "relations"),
    (["--library", "x.db", "related", "3"], "graph"),
    (["--library=list", "tags"], "tags"),
    (["--library", "list", "--minimised", "search", "x"], "library"),
    (["--help", "list"], None),  # the whole help
    (["--lib", "x.db", "list"], None),  # an abbreviation: the whole parser reads it
    (["lst"], None),
    (["--version"], None),
    ([], None),
])
def test_the_group_of_the_command(argv: list[str], group: str | None) -> None:
    assert group_of(argv) == group


@pytest.mark.parametrize("argv", [
    ["--library", "x.db", "update-relations", "--full", "--jsonl"],
    ["related", "12", "--json", "--limit", "3"],
    ["--smoke-test", "note", "5", "---"],
    ["--library", "list", "list", "--json"],
])
def test_a_command_is_parsed_as_the_whole_parser_parses_it(argv: list[str]) -> None:
    parser, args = _parse(argv)
    declared = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert set(declared) == set(GROUPS[group_of(argv) or ""])  # its group's commands alone
    assert vars(args) == vars(build_parser().parse_args(argv))


@pytest.mark.parametrize("argv, says", [
    (["lst"], "invalid choice: 'lst' (choose from 'load-sample', 'list'"),
    (["--library"], "argument --library: expected one argument"),
    (["update-relations", "--bogus"], "unrecognized arguments: --bogus"),
    (["related"], "the following arguments are required: ITEM_ID"),
])
def test_mistakes_are_said_as_before(argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        main(argv)
    assert exit.value.code == 2
    assert says in capsys.readouterr().err


def test_a_command_the_group_does_not_declare_is_parsed_by_the_whole_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("earmark.cli.group_of", lambda _argv: "graph")
    _parser, args = _parse(["list", "--json"])
    assert (args.command, args.json) == ("list", True)
