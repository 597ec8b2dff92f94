"""Searching technical names through the real command line, on the sample library (the PyTorch Developer Podcast):
a word finds the compound names it is part of, exact names rank first, acronyms and their expansions find each
other, and what the user adds later (articles, notes, highlights) is learnt as it is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.cli import Cli


@pytest.fixture
def sample(cli: Cli) -> Cli:
    code, _out, err = cli("load-sample")
    assert (code, err) == (0, "")
    return cli


def titles(cli: Cli, *query: str) -> list[str]:
    return [str(row["title"]) for row in cli.json("search", *query)]


def test_a_word_finds_the_names_it_is_part_of(sample: Cli) -> None:
    found = sample.json("search", "autograd")
    by_title = {row["title"]: row for row in found}
    assert "AOTAutograd" in by_title  # the episode, and the others that say AOTAutograd
    assert by_title["AOTAutograd"]["snippet"] == "[AOTAutograd]" and by_title["AOTAutograd"]["matched"] == "title"
    assert len(found) == 8  # 3 say "autograd", 5 "AOTAutograd"
    assert {"torchdynamo", "PyTorch Conference 2022 notes: PyTorch 2.0, TorchDynamo and TorchInductor",
            "Dynamo - VariableTracker"} <= set(titles(sample, "dynamo"))
    assert titles(sample, "accessor") == ["TensorAccessor"]
    assert "TensorAccessor" in titles(sample, "accesso")  # the last word is a prefix, inside names too


def test_exact_names_rank_first(sample: Cli) -> None:
    assert titles(sample, "AOTAutograd")[0] == "AOTAutograd"
    assert titles(sample, "autograd")[0] == "Compiled autograd"  # the word itself in a title, then the name
    assert titles(sample, "autograd")[1] == "AOTAutograd"
    assert set(titles(sample, "torchdynamo")[:2]) == {
        "torchdynamo", "PyTorch Conference 2022 notes: PyTorch 2.0, TorchDynamo and TorchInductor"}


def test_an_acronym_and_its_expansion_find_each_other(sample: Cli) -> None:
    assert len(titles(sample, "fsdp")) == 3
    assert titles(sample, "fully sharded data parallel") == titles(sample, "FSDP")
    assert "PyTorch 2.0" in titles(sample, "PT2")  # PT2 ~ PyTorch 2, a phrase: not any "pytorch" beside a "2"
    assert "PT2 extension points" in titles(sample, "pytorch 2")
    inductor = {"Inductor - IR", "Inductor - Define-by-run IR", "Inductor - Post-grad FX passes"}
    assert inductor <= set(titles(sample, "TorchInductor"))  # none says TorchInductor: the maintained table


def test_names_typed_with_punctuation_are_looked_for_as_typed(sample: Cli) -> None:
    assert titles(sample, "__torch_function__")[0] == "Multiple dispatch in __torch_function__"
    assert titles(sample, "torch.use_deterministic_algorithms")[0] == "torch.use_deterministic_algorithms"


def test_what_the_user_adds_is_learnt_when_it_is_written(sample: Cli, tmp_path: Path) -> None:
    page = tmp_path / "gru.html"
    page.write_text("<html><head><title>Recurrent nets</title></head><body><article><p>The Gated Recurrent Unit "
                    "(GRU) keeps a hidden state. We compare it with the LongShortTermMemory cell of older papers "
                    "and with plain RNNs, step by step, on the same data.</p></article></body></html>",
                    encoding="utf-8")
    code, _out, err = sample("add-article", str(page))
    assert (code, err) == (0, "")
    assert titles(sample, "memory cell") == ["Recurrent nets"]  # inside LongShortTermMemory
    assert titles(sample, "gated recurrent unit") == titles(sample, "GRU") == ["Recurrent nets"]
    [vmap] = [row["id"] for row in sample.json("search", "vmap") if row["title"] == "vmap"]
    code, _out, err = sample("note", str(vmap), "Ask about the BatchedTensorImpl dispatch key")
    assert (code, err) == (0, "")
    assert "vmap" in titles(sample, "impl")
    [gru] = [row["id"] for row in sample.json("search", "GRU")]
    code, _out, err = sample("highlight", str(gru), "the LongShortTermMemory cell", "--note", "LSTM")
    assert (code, err) == (0, "")
    assert titles(sample, "short term") == ["Recurrent nets"]
