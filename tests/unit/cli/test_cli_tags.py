"""The tag commands on the command line: tag, untag and tags, and an unknown item said in a sentence."""

from __future__ import annotations

from pathlib import Path

from helpers.cli import Cli, assert_failure


def test_tag_untag_and_tags(cli: Cli, podcast: Path) -> None:
    first, second = (item["id"] for item in cli.json("list"))
    code, out, err = cli("tag", str(first), "ML", "compilers")
    assert (code, err) == (0, "")
    assert "Compiler deep dive" in out and "compilers, ml" in out
    assert cli("tag", str(second), "ml")[0] == 0

    assert cli.json("tags") == [{"name": "compilers", "count": 1, "colour": None},
                                {"name": "ml", "count": 2, "colour": None}]
    assert {item["title"]: item["tags"] for item in cli.json("list")} == {
        "Compiler deep dive": ["compilers", "ml"], "Listener mail": ["ml"]}

    code, out, err = cli("untag", str(first), "ML")
    assert (code, err) == (0, "")
    assert "compilers" in out and "ml" not in out.split(":", 1)[1]
    assert [(t["name"], t["count"]) for t in cli.json("tags")] == [("compilers", 1), ("ml", 1)]
    code, out, _ = cli("tags")
    assert code == 0 and "compilers" in out and "ml" in out


def test_tag_of_an_unknown_item_is_a_sentence(cli: Cli, podcast: Path) -> None:
    code, out, err = cli("tag", "424242", "x")
    assert_failure(code, out, err)
    assert "424242" in err
