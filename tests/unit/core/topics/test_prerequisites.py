"""Learning paths from what items say: the concepts their titles explain (teaching.py), which items use them
(prerequisites.py), a podcast's own order, and the path with each step's concept (path.py), on the real sample
library and on small feeds."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from earmark.core.chapters import store_chapters
from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.merge import store_feed
from earmark.core.models import Chapter, EntryData, FeedData
from earmark.core.topics.build import update_relations
from earmark.core.topics.path import learning_path
from earmark.core.topics.teaching import item_concepts, said_subjects, title_concepts

SEED_UNBACKED = ("This podcast goes over the basics of unbacked SymInts. You might want to listen to this one before "
                 "listening to https://pytorch-dev-podcast.simplecast.com/episodes/zero-one-specialization Some "
                 "questions we answer (h/t from Gregory Chanan): - Are unbacked symints only for export?")


@pytest.fixture
def sample(built: Path) -> Iterator[Database]:
    db = open_library(built)
    yield db
    db.close()


def item_id(db: Database, title: str) -> int:
    return int(db.execute("SELECT id FROM items WHERE title = ?", [title]).fetchone()[0])


def path_of(db: Database, title: str) -> dict[str, tuple[str, str | None, str]]:
    """An item's path as the Learning Path view lists it: step title → (reason, concept, why)."""
    return {step.title: (step.reason, step.concept, step.why) for step in learning_path(db, item_id(db, title))}


def store_monthly(db: Database, show: str, episodes: list[tuple[str, str, str]]) -> None:
    """A podcast called ``show`` of (slug, title, show notes) episodes, one a month from January 2024."""
    store_feed(db, f"https://example.invalid/{show.split()[0].lower()}.xml", FeedData(title=show, entries=[
        EntryData(identity=f"guid:{slug}", kind="episode", title=title, guid=slug, description=f"<p>{text}</p>",
                  enclosure_url=f"https://example.invalid/{slug}.mp3", published=f"2024-{month:02d}-01T12:00:00+00:00")
        for month, (slug, title, text) in enumerate(episodes, start=1)]))


def test_a_title_explains_what_it_is_about_not_its_series_nor_the_broader_concepts() -> None:
    assert dict(title_concepts("AOTAutograd")) == {"aotautograd": 1.0, "aot": 0.0, "autograd": 0.0}  # its own
    assert dict(title_concepts("Torch vs ATen APIs")) == {"aten apis": 1.0, "aten": 0.5, "apis": 0.5}
    assert dict(title_concepts("Inductor - IR")) == {"ir": 1.0}  # the series' name is used, not explained
    assert dict(title_concepts("History of functorch")) == {"functorch": 1.0}
    assert dict(title_concepts("PyTorch 2.0")) == {"pt2": 1.0}  # read through the analyser's aliases
    assert dict(title_concepts("Tensor subclasses and PT2"))["pt2"] == 0.5


def test_a_chapter_explains_its_concept_in_part(library: Database) -> None:
    assert dict(item_concepts("Episode 12", "Intro\nFlexAttention\nRecompiles"))["flexattention"] == 0.5
    store_monthly(library, "Compiler Notes", [
        ("ep12", "Episode 12", "A long talk about the compiler, its caches, FlexAttention and recompiling."),
        ("ep13", "Episode 13", "Masks in FlexAttention: why FlexAttention compiles each score function.")])
    twelve = item_id(library, "Episode 12")
    library.execute("UPDATE items SET chapters_url = 'https://example.invalid/12.json' WHERE id = ?", [twelve])
    store_chapters(library, twelve, "https://example.invalid/12.json",
                   [Chapter(0.0, "Intro"), Chapter(60.0, "FlexAttention"), Chapter(600.0, "Recompiles")])
    update_relations(library)
    assert path_of(library, "Episode 13") == {
        "Episode 12": ("concept", "FlexAttention", "explains FlexAttention, which “Episode 13” builds on")}


def test_the_items_the_issue_found_without_prerequisites_have_a_path_naming_its_concepts(sample: Database) -> None:
    post_grad = path_of(sample, "Inductor - Post-grad FX passes")
    assert post_grad["AOTAutograd"] == (
        "concept", "AOTAutograd", "explains AOTAutograd, which “Inductor - Post-grad FX passes” builds on")
    assert path_of(sample, "Compiler collectives")["Intro to distributed"][:2] == ("concept", "distributed")
    assert path_of(sample, "Compiled autograd")["PyTorch 2.0"][:2] == ("concept", "PT2")
    assert "PyTorch 2.0" in path_of(sample, "AOTInductor")


def test_a_podcasts_own_order_and_a_series(sample: Database) -> None:
    trees = path_of(sample, "CUDA graph trees")
    assert trees["CUDA graphs"] == ("concept", "CUDA graphs",
                                    "an earlier episode on CUDA graphs, which “CUDA graph trees” builds on")
    assert "AOTAutograd" not in path_of(sample, "AOTInductor")  # "AOT" is a piece of both names, not a subject
    define = path_of(sample, "Inductor - Define-by-run IR")
    assert define["Inductor - IR"][2] == "comes before “Inductor - Define-by-run IR” in the Inductor series"
    assert "Inductor - Define-by-run IR" not in path_of(sample, "Inductor - IR")


def test_a_citation_outweighs_a_concept(sample: Database) -> None:
    """Unbacked SymInts uses zero-one specialization, which the next episode explains; but it says to hear it
    first, so the order stays the one it gives."""
    assert path_of(sample, "Zero-one specialization")["Unbacked SymInts"][0] == "prerequisite"
    assert "Zero-one specialization" not in path_of(sample, "Unbacked SymInts")


def test_listen_to_this_one_before_a_bare_address_is_read_the_right_way(library: Database) -> None:
    """The seed's own wording: no period after the address, and no link around it."""
    def entry(slug: str, title: str, text: str, day: int) -> EntryData:
        return EntryData(identity=f"guid:{slug}", kind="episode", title=title, guid=slug, description=f"<p>{text}</p>",
                         url=f"https://pytorch-dev-podcast.simplecast.com/episodes/{slug}",
                         enclosure_url=f"https://example.invalid/{slug}.mp3", published=f"2023-02-{day}T12:00:00+00:00")

    store_feed(library, "https://example.invalid/feed.xml", FeedData(title="PyTorch Developer Podcast", entries=[
        entry("unbacked-symints", "Unbacked SymInts", SEED_UNBACKED, 21),
        entry("zero-one-specialization", "Zero-one specialization",
              "Mikey Dagistes joins me to ask about 0/1 specialization and its implications on export in PT2.", 20)]))
    update_relations(library)
    assert list(path_of(library, "Zero-one specialization")) == ["Unbacked SymInts"]
    assert path_of(library, "Unbacked SymInts") == {}


def test_a_new_item_worked_out_alone_learns_from_what_explains_its_concepts(copy: Database) -> None:
    feed = FeedData(title="Compiler Notes", entries=[EntryData(
        identity="guid:joint", kind="episode", title="Saving activations", guid="joint",
        enclosure_url="https://example.invalid/joint.mp3",
        description="<p>Which activations AOTAutograd keeps for the backward graph, and how the min-cut "
                    "partitioner decides; AOTAutograd traces the joint graph first.</p>")])
    store_feed(copy, "https://example.invalid/notes.xml", feed)
    assert not update_relations(copy).full  # worked out against the stored index
    assert path_of(copy, "Saving activations")["AOTAutograd"][:2] == ("concept", "AOTAutograd")


def test_the_judged_paths_meet_their_precision_and_recall(sample: Database) -> None:
    """bench/judged_paths.json, written from the seeds before the method: precision >= 85 %, recall >= 60 %."""
    path = Path(__file__).resolve().parents[4] / "bench" / "learning_paths.py"
    sys.path.insert(0, str(path.parent))  # it imports its neighbour relations_quality
    try:
        spec = importlib.util.spec_from_file_location("learning_paths", path)
        assert spec is not None and spec.loader is not None
        bench = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = bench  # its dataclasses look their module up
        spec.loader.exec_module(bench)
    finally:
        sys.path.remove(str(path.parent))
    found, episodes = bench.paths(sample)
    figures = bench.judge(found, episodes, json.loads(bench.JUDGED.read_text(encoding="utf-8")))
    assert figures.share("precision") >= 0.85, figures.wrong
    assert figures.share("recall") >= 0.60, figures.missed


def test_a_link_guessed_from_an_address_never_cites_a_later_item(sample: Database) -> None:
    """The conference notes link pytorch.org's …/pytorch-2.0 page, whose last segment is the PyTorch 2.0
    episode's slug; the episode came out two days after the notes, so the notes do not cite it."""
    notes = "PyTorch Conference 2022 notes: PyTorch 2.0, TorchDynamo and TorchInductor"
    assert path_of(sample, notes).get("PyTorch 2.0", ("",))[0] != "cites"
    assert path_of(sample, "Weak references")["Reference counting"][0] == "prerequisite"  # a real citation stays


def test_an_item_explains_in_part_what_its_words_say_it_explains() -> None:
    assert said_subjects("It also introduces PrimTorch, a new operator set that sits lower than ATen.") == ["PrimTorch"]
    assert said_subjects("It explains what strides are, how they implement views and memory formats.") == ["strides"]
    assert said_subjects("What a learning rate is, and why you would schedule it.") == ["learning rate"]
    assert said_subjects("Eli explains how to tell them apart.") == []  # no subject named
    assert dict(item_concepts("Torch vs ATen APIs", "", "The episode introduces PrimTorch."))["primtorch"] == 0.5


def test_what_an_item_says_it_introduces_comes_before_what_uses_it(sample: Database) -> None:
    """Torch vs ATen APIs "introduces PrimTorch", which Strides argues about; the conference notes "introduced
    PyTorch 2.0" two days before the PyTorch 2.0 episode."""
    assert path_of(sample, "Strides")["Torch vs ATen APIs"] == (
        "concept", "PrimTorch", "explains PrimTorch, which “Strides” builds on")
    notes = "PyTorch Conference 2022 notes: PyTorch 2.0, TorchDynamo and TorchInductor"
    assert path_of(sample, "PyTorch 2.0")[notes] == (
        "concept", "PT2", "an earlier article on PT2, which “PyTorch 2.0” builds on")


def test_a_steps_own_concepts_are_followed_only_where_the_item_uses_them(sample: Database) -> None:
    """The conference notes also cover distributed training and GPUs; Dynamo's VariableTracker uses neither."""
    variable_tracker = path_of(sample, "Dynamo - VariableTracker")
    assert variable_tracker["torchdynamo"][:2] == ("concept", "TorchDynamo")
    assert not {"Intro to distributed", "All about NVIDIA GPUs"} & set(variable_tracker)
    assert "PyTorch 2.0" in path_of(sample, "Min-cut partitioner")  # it uses AOTAutograd, which is PT2
    assert path_of(sample, "Compiled autograd")["Intro to distributed"] == (  # it uses distributed itself
        "concept", "distributed", "explains distributed, which “Compiled autograd” builds on")


def test_a_later_episode_teaches_no_earlier_one_a_word_of_its_titles_name(sample: Database) -> None:
    """Compiled autograd (2024) names autograd only as a word of its subject: Anatomy of a domain library (2021),
    which mentions autograd support, does not build on it. A later episode about a concept in its own right still
    explains it to an earlier one: Multiple dispatch in __torch_function__ before API design via scoping."""
    assert "Compiled autograd" not in path_of(sample, "Anatomy of a domain library")
    assert "Torch vs ATen APIs" not in path_of(sample, "Functional modules")
    scoping = path_of(sample, "API design via lexical and dynamic scoping")
    assert scoping["Multiple dispatch in __torch_function__"][:2] == ("concept", "torch_function")


def test_a_later_episode_teaches_no_earlier_one_a_pair_of_words_of_its_longer_name(sample: Database) -> None:
    """The analyser reads "Higher order operators" as "higher order" and "order operators": the 2024 episode on
    torch.ops operators does not explain the higher order derivatives of Double backwards (2021)."""
    assert "Higher order operators" not in path_of(sample, "Double backwards")
    operators = path_of(sample, "Higher order operators")
    assert operators["Dispatcher questions with Sherlock"][:2] == ("concept", "dispatch")


def test_a_podcasts_series_on_a_concept_comes_before_its_later_episodes_that_use_it(sample: Database) -> None:
    """The Inductor series (IR, then Define-by-run IR) is where the podcast explains Inductor: AOTInductor and PT2
    extension points come after its first episode. One episode is no series: "Dynamo - VariableTracker" is not
    where Dynamo is explained."""
    assert path_of(sample, "AOTInductor")["Inductor - IR"] == (
        "concept", "Inductor", "an earlier episode on Inductor, which “AOTInductor” builds on")
    extension = path_of(sample, "PT2 extension points")
    assert extension["Inductor - IR"][:2] == ("concept", "Inductor")
    assert "Dynamo - VariableTracker" not in extension


def test_a_name_the_show_notes_write_is_used_even_when_it_is_not_among_the_strongest_terms(sample: Database) -> None:
    """CUDA graph trees are "the CUDA graphs implementation that PT2 uses": PT2 is written once, too little to be
    one of its strongest terms. "Transforming uniform random numbers into other distributions" is no mention of
    distributed computing: a plain word is not a name."""
    assert path_of(sample, "CUDA graph trees")["PyTorch 2.0"] == (
        "concept", "PT2", "explains PT2, which “CUDA graph trees” builds on")
    assert "Intro to distributed" not in path_of(sample, "Random number generators")


def test_what_a_show_says_it_introduces_comes_before_what_uses_it(library: Database) -> None:
    store_monthly(library, "Attention Notes", [
        ("news", "News of the month", "This month introduces FlexAttention, and a look at caches."),
        ("masks", "Score masks", "Masks in FlexAttention: why FlexAttention compiles each score function.")])
    update_relations(library)
    assert path_of(library, "Score masks")["News of the month"] == (
        "concept", "FlexAttention", "explains FlexAttention, which “Score masks” builds on")
