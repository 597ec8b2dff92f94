"""``earmark ask QUESTION [--limit N] [--json]`` and ``earmark index-passages``, run as a person runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.settings import set_setting
from helpers.cli import Cli
from helpers.sentence_model import sentence_test_model

FIELDS = {"item_id", "title", "kind", "at", "end", "text", "score", "source"}


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    library = tmp_path / "library.db"
    command = Cli(library, capsys)
    assert command("load-sample")[0] == 0
    return command


def test_ask_answers_with_the_contract_fields_on_words_alone_and_says_so(cli: Cli) -> None:
    db = open_library(cli.library)
    set_setting(db, "ask.model", "off")
    db.close()
    code, out, err = cli("ask", "why", "guards", "are", "needed", "--limit", "3", "--json")
    assert code == 0 and "words alone" in err
    answers = json.loads(out)
    assert 1 <= len(answers) <= 3 and FIELDS <= set(answers[0])
    assert all(a["source"] in ("transcript", "show_notes", "article", "note") for a in answers)
    assert any("guard" in a["text"].lower() for a in answers)
    assert all((a["at"] is None) == (a["source"] in ("show_notes", "article")) for a in answers)
    code, out, _err = cli("ask", "guards")
    assert code == 0 and "guard" in out.lower()


def test_index_passages_with_the_model_then_ask_by_meaning(cli: Cli, tmp_path: Path) -> None:
    db = open_library(cli.library)
    set_setting(db, "ask.model", str(sentence_test_model(tmp_path / "model")))
    db.close()
    code, out, _err = cli("index-passages", "--jsonl")
    last = json.loads(out.strip().splitlines()[-1])
    assert code == 0 and last["passages"] > 50 and last["model"] == "model" and not last["words_alone"]
    question = "how python errors propagate"  # the episode says "exceptions" (how they work, are translated)
    assert cli.json("ask", question, "--limit", "5")[0]["title"] == "Python exceptions"
    assert cli("index-passages")[1].startswith("Passages indexed: 0 passages of 0 items")
    db = open_library(cli.library)
    set_setting(db, "ask.model", "off")
    db.close()
    assert "Python exceptions" not in {a["title"] for a in cli.json("ask", question, "--limit", "5")}  # words alone


def test_a_limit_that_is_not_a_number_is_a_clear_sentence(cli: Cli) -> None:
    with pytest.raises(SystemExit):
        cli("ask", "guards", "--limit", "many")


def test_index_passages_without_fetching_indexes_the_words_and_says_the_model_is_not_here(cli: Cli) -> None:
    code, out, _err = cli("index-passages", "--jsonl", "--no-fetch")  # the default model, never fetched here
    last = json.loads(out.strip().splitlines()[-1])
    assert code == 0 and last["passages"] > 50 and last["model"] == ""
    assert last["words_alone"] == "Answers come from words alone: the sentence model is not fetched yet."
    assert not any("Fetching" in json.loads(line).get("what", "") for line in out.strip().splitlines())
