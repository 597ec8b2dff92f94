"""Names written as the show writes them in what the engine heard: joined from separate words, said out, in the
show's case; plain words and other text left as they were."""

from __future__ import annotations

import pytest

from earmark.core.transcribe.respell import respell, spellings

NAMES = spellings(["TorchDynamo", "AOTAutograd", "OpenAI", "PyTorch", "C++", "torch.compile", "CUDA", "The", "Play",
                   "Hidet", "ATen", "Go"])


@pytest.mark.parametrize(("heard", "written"), [
    ("Gives a graph from torch Dynamo.", "Gives a graph from TorchDynamo."),
    ("It runs after AOT Autograd, then Inductor.", "It runs after AOTAutograd, then Inductor."),
    ("Written with open-AI Triton.", "Written with OpenAI Triton."),
    ("without having to write C plus plus.", "without having to write C++."),
    ("Call torch dot compile on the model.", "Call torch.compile on the model."),
    ("We love pytorch and Cuda graphs.", "We love PyTorch and CUDA graphs."),
    ("Torch, Dynamo, and friends.", "TorchDynamo, and friends."),
    ("The aten library.", "The ATen library."),
])
def test_a_name_heard_apart_said_out_or_in_another_case_is_written_as_the_show_writes_it(
        heard: str, written: str) -> None:
    assert respell(heard, NAMES) == written


@pytest.mark.parametrize("heard", [
    "The play is the thing.",  # plain words of the vocabulary keep the engine's case
    "Let's go to the torch. Dynamo was next.",  # never across a sentence's end
    "A ten minute break.",  # ATen has no parts: its letters heard as two words are two words
    "Py and torch are apart.",  # another word between the parts
    "torch.compile and PyTorch are already right.",
    "",
])
def test_other_text_is_left_as_it_was(heard: str) -> None:
    assert respell(heard, NAMES) == heard


def test_plain_words_and_short_names_give_no_spelling() -> None:
    assert set(NAMES.values()) == {"TorchDynamo", "AOTAutograd", "OpenAI", "PyTorch", "C++", "torch.compile", "CUDA",
                                   "ATen"}
    assert respell("Go and C are languages.", NAMES) == "Go and C are languages."
    assert respell("torch dynamo", {}) == "torch dynamo"
