"""What an item explains on the way (teaching.py): the subject of a sentence that says what it is ("A guard is a
check …"), in its show notes and in its transcript, comes before the items that use it; the item's own subject
read again from its words ("Inductor IR is …" of "Inductor - IR") adds nothing."""

from __future__ import annotations

from earmark.core.db.database import Database
from earmark.core.db.merge import store_feed
from earmark.core.db.transcripts import store_transcript
from earmark.core.models import Cue, EntryData, FeedData, Transcript
from earmark.core.topics.build import update_relations
from earmark.core.topics.path import learning_path
from earmark.core.topics.teaching import defined_subjects, item_concepts


def test_a_sentence_saying_what_something_is_defines_it() -> None:
    assert defined_subjects("So a guard is a check that Dynamo installs. This is a test.") == ["guard"]
    assert defined_subjects("Guards are how Dynamo knows a graph is still good.") == ["Guards"]
    assert defined_subjects("The problem is the cache. It is a new suite. Memory layout describes it.") == []
    assert dict(item_concepts("Compiler tour", "", "A guard is a check on the inputs."))["guard"] == 0.5


def test_an_items_own_subject_read_again_from_its_words_adds_nothing() -> None:
    """"Inductor IR is the intermediate representation …" in "Inductor - IR": the episode uses Inductor (its
    series' name), it does not explain it; nor does it explain "Inductor IR" twice."""
    assert item_concepts("Inductor - IR", "", "Inductor IR is the intermediate representation of Inductor.") == \
        item_concepts("Inductor - IR")


def _episode(slug: str, title: str, notes: str, month: int) -> EntryData:
    return EntryData(identity=f"guid:{slug}", kind="episode", title=title, guid=slug, description=f"<p>{notes}</p>",
                     enclosure_url=f"https://example.invalid/{slug}.mp3", published=f"2024-0{month}-01T12:00:00+00:00")


def test_what_a_transcript_defines_on_the_way_comes_before_what_uses_it(library: Database) -> None:
    """A tour of tracing whose transcript stops to say what a FakeTensor is comes before an episode that uses
    FakeTensors, though neither its title nor its show notes name them; not before one that does not."""
    feed = FeedData(title="Compiler Chats", entries=[
        _episode("tour", "Tracing tour", "A walk through the stages of tracing, from capture to graph.", 1),
        _episode("meta", "Meta kernels", "Why every operator needs a meta kernel for FakeTensor propagation, and "
                 "what FakeTensor checks about sizes and strides.", 2),
        _episode("kernels", "Kernel fusion", "How pointwise kernels are fused, and what fusion saves.", 3)])
    store_feed(library, "https://example.invalid/chats.xml", feed)
    ids = dict(library.execute("SELECT title, id FROM items").fetchall())
    store_transcript(library, ids["Tracing tour"], "generated:tiny.en", Transcript([
        Cue(0, 4, "Welcome back to the show."),
        Cue(4, 12, "First, capture. A FakeTensor is a tensor with no data that only carries its sizes."),
        Cue(12, 20, "Then the graph is lowered and turned into kernels.")], "generated"))
    update_relations(library)
    steps = {step.title: step for step in learning_path(library, ids["Meta kernels"])}
    assert (steps["Tracing tour"].reason, steps["Tracing tour"].concept, steps["Tracing tour"].why) == (
        "concept", "FakeTensor", "explains FakeTensor, which “Meta kernels” builds on")
    assert "Tracing tour" not in {step.title for step in learning_path(library, ids["Kernel fusion"])}
