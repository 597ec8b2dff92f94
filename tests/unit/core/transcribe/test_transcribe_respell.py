"""Names written as the show writes them in what the engine heard: joined from separate words, said out, in the
show's case; plain words and other text left as they were. And an engine that hears nothing when primed listens
again unprimed."""

from __future__ import annotations

from pathlib import Path

import pytest

from earmark.core.errors import NoSpeechError
from earmark.core.transcribe.engine import Segment, Transcription, sentences
from earmark.core.transcribe.episode import hear
from earmark.core.transcribe.respell import respell, sounds, spellings
from earmark.core.transcribe.sounds import sound_key
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


TERMS = ["TorchDynamo", "AOTAutograd", "PyTorch", "ATen", "CUDA", "Hidet", "NCCL", "The", "Triton"]
SOUNDS = sounds(TERMS)


def _doubting(text: str, *doubted: str) -> tuple[tuple[int, int], ...]:
    return tuple((text.index(word), text.index(word) + len(word)) for word in doubted)


@pytest.mark.parametrize(("heard", "doubted", "written"), [
    ("Give them a 10 slash Prim IR.", ["10"], "Give them ATen slash Prim IR."),
    ("It gives an a ten graph.", ["ten"], "It gives an ATen graph."),
    ("Compiled by torch die nam oh.", ["die"], "Compiled by TorchDynamo."),
    ("Written with OpenAI Tryton.", ["Tryton"], "Written with OpenAI Triton."),  # one word of a long sound
])
def test_words_heard_doubtfully_that_sound_as_a_name_of_the_episode_are_written_as_the_name(
        heard: str, doubted: list[str], written: str) -> None:
    assert respell(heard, spellings(TERMS), SOUNDS, _doubting(heard, *doubted)) == written


@pytest.mark.parametrize(("heard", "doubted"), [
    ("A ten minute break.", []),  # heard with confidence: plain words stay
    ("I hid it in the end.", ["it", "in"]),  # "it in" has the consonants of ATen, not its vowels
    ("We sat at an old desk.", ["at"]),
    ("It was eaten by then.", ["eaten"]),  # one word is never taken for a name by its sound
    ("We met at 10 today.", ["10"]),  # a letter said twice across two words is no name's
    ("It ends with a. Ten more came.", ["Ten"]),  # never across a sentence's end
    ("Then a ten, and more.", ["more"]),  # the doubtful word is not among those that sound as the name
    ("Written with Tryton.", []),  # heard with confidence
    ("A triton swam by.", ["triton"]),  # the capitalised name heard as a plain word keeps the engine's case
    ("We try ton after ton.", ["try"]),  # a capitalised name (Triton) is never made of two heard words
])
def test_ordinary_words_are_left_alone(heard: str, doubted: list[str]) -> None:
    assert respell(heard, spellings(TERMS), SOUNDS, _doubting(heard, *doubted)) == heard


def test_a_sound_is_a_rough_key_of_how_words_are_said() -> None:
    assert sound_key(["a", "10"]) == sound_key(["aten"]) == sound_key(["a", "ten"])
    assert sound_key(["try", "ton"]) == sound_key(["triton"])
    assert sound_key(["at", "ten"]) != sound_key(["aten"])
    assert sound_key(["a", "100"]) == "" and sound_key(["naïve"]) == ""  # what it cannot say has no key


def test_only_names_of_the_vocabulary_sound_and_never_a_sound_two_names_share() -> None:
    assert set(SOUNDS.values()) == {"TorchDynamo", "AOTAutograd", "PyTorch", "ATen", "CUDA", "Triton"}  # NCCL: too
    # short; Hidet and The: capitalised words of a short sound
    assert sounds(["ATen", "ATenn"]) == {}  # both sound "aten": neither is chosen
    assert sounds([]) == {}


def test_a_sentence_keeps_where_its_doubtful_words_stand() -> None:
    class Word:
        def __init__(self, word: str, start: float, probability: float) -> None:
            self.word, self.start, self.end, self.probability = word, start, start + 0.5, probability

    heard = [Word(" Give", 0, 0.9), Word(" them", 0.5, 0.3), Word(" a", 1, 0.8), Word(" 10.", 1.5, 0.4),
             Word(" Then", 2, 0.95), Word(" stop.", 2.5, 0.99)]
    first, second = sentences(heard, 3.0)
    assert (first.text, second.text) == ("Give them a 10.", "Then stop.")
    assert [first.text[a:b].strip() for a, b in first.doubtful] == ["them", "10."]
    assert second.doubtful == ()


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
