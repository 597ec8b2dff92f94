"""Names written as the show writes them in what the engine heard: joined from separate words, said out, in the
show's case; plain words and other text left as they were. And an engine that hears nothing when primed listens
again unprimed."""

from __future__ import annotations

from pathlib import Path

import pytest

from earmark.core.errors import NoSpeechError
from earmark.core.transcribe.engine import Segment, Transcription
from earmark.core.transcribe.episode import hear
from earmark.core.transcribe.respell import respell, spellings
from earmark.core.transcribe.vocabulary import Vocabulary

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


class _Engine:
    """Hears nothing when primed (as the tiny model did with show notes that stop mid-sentence), or ever."""

    def __init__(self, deaf: bool = False) -> None:
        self.prompts: list[str] = []
        self._deaf = deaf

    def transcribe(self, path: Path, prompt: str = "", progress: object = None) -> Transcription:
        self.prompts.append(prompt)
        if prompt or self._deaf:
            raise NoSpeechError(f"No speech was heard in {path.name}.")
        return Transcription("test", "en", 2.0, [Segment(0.0, 2.0, "Compiled with torch dynamo.")])


def test_an_engine_that_hears_nothing_when_primed_listens_again_unprimed(tmp_path: Path) -> None:
    engine = _Engine()
    heard = hear(engine, tmp_path / "a.wav", Vocabulary("Notes that stop", NAMES))  # type: ignore[arg-type]
    assert engine.prompts == ["Notes that stop", ""]
    assert [segment.text for segment in heard.segments] == ["Compiled with TorchDynamo."]  # still spelled


def test_nothing_heard_unprimed_is_said() -> None:
    engine = _Engine(deaf=True)
    with pytest.raises(NoSpeechError, match="No speech was heard in a.wav"):
        hear(engine, Path("a.wav"), Vocabulary("Notes", NAMES))  # type: ignore[arg-type]
    assert engine.prompts == ["Notes", ""]
