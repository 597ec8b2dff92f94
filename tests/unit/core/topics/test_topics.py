"""The topic graph on the real sample library: citations, related items and their reasons, learning paths,
topics, incremental updates, graph data, layout and GraphML; and the pieces on small texts."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree

import pytest

from earmark.core.db import relations as store
from earmark.core.db.connection import open_library
from earmark.core.db.database import Database
from earmark.core.db.merge import store_feed
from earmark.core.db.tags import tag_item
from earmark.core.feeds.parse import parse_feed
from earmark.core.models import EntryData, FeedData
from earmark.core.topics import citations, cleaning
from earmark.core.topics.build import index_items, update_relations
from earmark.core.topics.graph import GraphFilter, read_graph
from earmark.core.topics.graphml import render_graphml
from earmark.core.topics.layout import compute_layout, needs_layout, store_layout, stored_positions
from earmark.core.topics.path import learning_path
from earmark.core.topics.reasons import related
from earmark.core.topics.vectors import TOPICS_PER_ITEM

INDUCTOR_EPISODES = ("Inductor - IR", "Inductor - Define-by-run IR", "Inductor - Post-grad FX passes")
CONFERENCE = "PyTorch Conference 2022 notes: PyTorch 2.0, TorchDynamo and TorchInductor"
MEETUP = "PyTorch Shanghai Meetup Notes"


@pytest.fixture
def sample(built: Path) -> Iterator[Database]:
    db = open_library(built)
    yield db
    db.close()


def item_id(db: Database, title: str) -> int:
    return int(db.execute("SELECT id FROM items WHERE title = ?", [title]).fetchone()[0])


def related_titles(db: Database, title: str, limit: int) -> list[str]:
    return [related.title for related in store.related_items(db, item_id(db, title), limit)]


def reasons_of(db: Database, title: str, limit: int = 20) -> dict[str, list[str]]:
    """An item's related items (title → reasons) as the Related pane and ``related`` show them."""
    return {r.title: r.reasons for r in related(db, item_id(db, title), limit)}


def test_weak_references_says_to_hear_reference_counting_first(sample: Database) -> None:
    weak = item_id(sample, "Weak references")
    first = store.related_items(sample, weak, 1)[0]
    assert first.title == "Reference counting"
    assert first.reasons[0] == "prerequisite"
    assert [step.title for step in learning_path(sample, weak)][0] == "Reference counting"
    back = {r.title: r.reasons for r in store.related_items(sample, item_id(sample, "Reference counting"), 20)}
    assert "follow-up" in back["Weak references"]


def test_listen_to_this_before_points_the_other_way(sample: Database) -> None:
    """Unbacked SymInts says to hear it before Zero-one specialization: it is the prerequisite."""
    zero_one = item_id(sample, "Zero-one specialization")
    steps = learning_path(sample, zero_one)
    assert (steps[-1].title, steps[-1].reason, steps[-1].needed_by) == ("Unbacked SymInts", "prerequisite", zero_one)
    unbacked = learning_path(sample, item_id(sample, "Unbacked SymInts"))
    assert "Zero-one specialization" not in {step.title for step in unbacked}


def test_plain_links_between_episodes_are_citations(sample: Database) -> None:
    liskov = item_id(sample, "Tensor subclasses and Liskov substitution principle")
    cited = {r.title: r.reasons for r in store.related_items(sample, liskov, 20)}
    assert "cites" in cited["Multiple dispatch in __torch_function__"]
    steps = learning_path(sample, liskov)  # the cited episode last, after what it builds on itself
    assert (steps[-1].title, steps[-1].reason, steps[-1].needed_by) == ("Multiple dispatch in __torch_function__",
                                                                         "cites", liskov)


def test_the_earlier_episodes_a_text_points_back_to_come_first(sample: Database) -> None:
    """Batching "overlaps with the earlier episodes on TensorIterator and vmap"."""
    batching = {r.title: r.reasons for r in store.related_items(sample, item_id(sample, "Batching"), 20)}
    assert batching["vmap"][0] == "prerequisite"
    steps = {step.title: step.reason for step in learning_path(sample, item_id(sample, "Batching"))}
    assert steps["vmap"] == "prerequisite"


def test_cuda_graph_trees_has_cuda_graphs_in_its_top_three(sample: Database) -> None:
    assert "CUDA graphs" in related_titles(sample, "CUDA graph trees", 3)
    assert "CUDA graphs" in reasons_of(sample, "CUDA graph trees")["CUDA graphs"]  # beside the tags they share


def test_min_cut_partitioner_has_aotautograd_in_its_top_five(sample: Database) -> None:
    assert "AOTAutograd" in related_titles(sample, "Min-cut partitioner", 5)


def test_unrelated_episodes_are_not_in_each_others_top_ten(sample: Database) -> None:
    assert "CUDA graph trees" not in related_titles(sample, "Learning rate schedulers", 10)
    assert "Learning rate schedulers" not in related_titles(sample, "CUDA graph trees", 10)


def test_inductor_episodes_relate_to_the_conference_and_meetup_notes(sample: Database) -> None:
    for title in INDUCTOR_EPISODES:
        assert CONFERENCE in related_titles(sample, title, 10), title
    for title in INDUCTOR_EPISODES[1:]:
        assert MEETUP in related_titles(sample, title, 10), title
    meetup = reasons_of(sample, MEETUP, 10)
    assert meetup["Inductor - Define-by-run IR"] == ["tag: inductor", "Inductor"]
    # The three Inductor episodes and the two notes are one cluster: each reaches the others in two steps.
    data = read_graph(sample, GraphFilter(center=item_id(sample, "Inductor - IR"), depth=2))
    assert {CONFERENCE, MEETUP, *INDUCTOR_EPISODES} <= {node.title for node in data.nodes}


def test_every_related_item_says_why_in_at_most_three_specific_reasons(sample: Database) -> None:
    generic = {"pull request", "pull requests", "python", "pytorch", "episode", "talk", "performance", "similar text"}
    for (other,) in sample.execute("SELECT id FROM items"):
        for row in related(sample, other, 20):
            assert 1 <= len(row.reasons) <= 3 and row.score > 0
            assert not generic & {reason.lower() for reason in row.reasons}, (other, row.title, row.reasons)


def test_reasons_name_the_shared_concept_as_written(sample: Database) -> None:
    assert reasons_of(sample, "Min-cut partitioner")["AOTAutograd"][0] == "explains AOTAutograd"  # its path's step
    assert reasons_of(sample, "AOTAutograd")["Min-cut partitioner"][0] == "builds on AOTAutograd"
    weak = reasons_of(sample, "Weak references")["Reference counting"]
    assert weak[0] == "prerequisite" and "Reference counting" in weak
    assert reasons_of(sample, "Inductor - IR")["Inductor - Define-by-run IR"][0] == "same series: Inductor"
    assert reasons_of(sample, "torchdynamo")["Dynamo - VariableTracker"][0] == "builds on TorchDynamo"
    assert "dtypes" in reasons_of(sample, "Half precision")["Unsigned integers"]  # tagged so as well


def test_links_footers_and_pull_requests_never_relate_items(sample: Database) -> None:
    """CUDA graphs, Unsigned integers and Compiler collectives only share links to pull requests in their footers
    ("Implementation PR 51436", "Pull request introducing compiler collectives")."""
    for title, other in (("CUDA graphs", "Unsigned integers"), ("CUDA graphs", "Compiler collectives"),
                         ("Unsigned integers", "Compiler collectives")):
        assert other not in related_titles(sample, title, 10) and title not in related_titles(sample, other, 10)
    assert "floating point" not in " ".join(reasons_of(sample, "Half precision").get("PT2 extension points", []))


def test_topics_count_items_and_name_real_topics(sample: Database) -> None:
    topics = dict(store.topic_counts(sample, TOPICS_PER_ITEM))
    assert topics["CUDA graphs"] >= 2 and topics["Inductor"] >= 3 and topics["AOTAutograd"] >= 3
    assert not {"practical", "turns", "topics include", "python", "pytorch", "pull requests"} & set(topics)
    assert all(count >= 2 for count in topics.values())


def test_a_new_item_gets_edges_without_recomputing_everything(copy: Database) -> None:
    built_at = store.state(copy, "built")
    untouched = item_id(copy, "Learning rate schedulers")
    before = copy.execute("SELECT * FROM relations WHERE item_id = ?", [untouched]).fetchall()
    terms_before = copy.execute("SELECT count(*) FROM item_terms").fetchone()[0]
    feed = FeedData(title="Compiler Notes", entries=[EntryData(
        identity="guid:cgt-2", kind="episode", title="CUDA graph trees, part two", guid="cgt-2",
        enclosure_url="https://example.invalid/cgt2.mp3",
        description="<p>More on CUDA graph trees and reduce-overhead mode: how CUDA graphs share memory "
                    "pools. Listen to CUDA graphs first.</p>")])
    new = store_feed(copy, "https://example.invalid/compiler.xml", feed).new[0]
    assert store.pending_item_ids(copy) == [new]
    result = update_relations(copy)
    assert result == type(result)(1, full=False)
    assert store.state(copy, "built") == built_at  # no full build
    found = related(copy, new, 5)
    assert [r.title for r in found[:2]] == ["CUDA graphs", "CUDA graph trees"]
    assert found[0].reasons[0] == "prerequisite"
    assert found[1].reasons[0] == "CUDA graphs"
    back = {r.title for r in store.related_items(copy, item_id(copy, "CUDA graphs"), 20)}
    assert "CUDA graph trees, part two" in back  # the new item joined the others' lists too
    assert copy.execute("SELECT * FROM relations WHERE item_id = ?", [untouched]).fetchall() == before
    assert copy.execute("SELECT count(*) FROM item_terms").fetchone()[0] > terms_before
    assert store.pending_item_ids(copy) == []


class _Stop(BaseException):
    """What stops a pass in these tests (SIGTERM's Stopped in the command)."""


def test_a_pass_stopped_midway_leaves_its_indexes_to_the_next_update(copy: Database) -> None:
    def indexes() -> set[str]:
        return {row[0] for row in copy.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}

    def stop_after_storing(_share: float, what: str) -> None:
        if what.startswith("Relating"):
            raise _Stop

    with pytest.raises(_Stop):
        update_relations(copy, stop_after_storing, full=True)
    assert not {"item_terms_by_term", "relations_by_other"} & indexes()  # the pass writes without them
    feed = FeedData(title="Compiler Notes", entries=[EntryData(
        identity="guid:cgt-3", kind="episode", title="CUDA graph trees, again", guid="cgt-3",
        enclosure_url="https://example.invalid/cgt3.mp3",
        description="<p>CUDA graph trees and how CUDA graphs share memory pools.</p>")])
    new = store_feed(copy, "https://example.invalid/compiler.xml", feed).new[0]
    assert not update_relations(copy).full
    assert {"item_terms_by_term", "relations_by_other"} <= indexes()
    assert "CUDA graphs" in {r.title for r in related(copy, new, 5)}


def test_changed_tags_and_text_are_worked_out_again(copy: Database) -> None:
    lr = item_id(copy, "Learning rate schedulers")
    schedulers = item_id(copy, "CUDA graph trees")
    tag_item(copy, lr, ["scheduling"])
    tag_item(copy, schedulers, ["scheduling"])
    assert set(store.pending_item_ids(copy)) == {lr, schedulers}
    index_items(copy, store.pending_item_ids(copy))
    assert "tag: scheduling" in reasons_of(copy, "Learning rate schedulers")["CUDA graph trees"]
    copy.execute("UPDATE items SET text = text || ' Reference counting.' WHERE id = ?", [lr])
    assert store.pending_item_ids(copy) == [lr]


def test_a_deleted_item_leaves_no_relations(copy: Database) -> None:
    gone = item_id(copy, "Reference counting")
    copy.execute("DELETE FROM items WHERE id = ?", [gone])
    assert copy.execute("SELECT count(*) FROM relations WHERE other_id = ? OR item_id = ?",
                        [gone, gone]).fetchone()[0] == 0
    assert learning_path(copy, item_id(copy, "Weak references")) == []


def test_graph_filters_and_neighbourhoods(sample: Database) -> None:
    everything = read_graph(sample, GraphFilter())
    assert len(everything.nodes) == 54 and everything.edges
    articles = read_graph(sample, GraphFilter(kind="article"))
    assert {node.kind for node in articles.nodes} == {"article"}
    tagged = read_graph(sample, GraphFilter(tag="inductor"))
    assert {node.title for node in tagged.nodes} == {CONFERENCE, MEETUP, "AOTInductor", *INDUCTOR_EPISODES}
    strong = read_graph(sample, GraphFilter(min_weight=0.4))
    assert all(edge.weight >= 0.4 for edge in strong.edges) and len(strong.edges) < len(everything.edges)
    weak = item_id(sample, "Weak references")
    near = read_graph(sample, GraphFilter(center=weak, depth=1))
    far = read_graph(sample, GraphFilter(center=weak, depth=2))
    assert weak in {node.id for node in near.nodes} and len(near.nodes) < len(far.nodes)
    arrow = next(e for e in near.edges if {e.a, e.b} == {weak, item_id(sample, "Reference counting")})
    assert arrow.first == item_id(sample, "Reference counting")
    with_topics = read_graph(sample, GraphFilter(topics=True))
    topic_nodes = [node for node in with_topics.nodes if node.kind == "topic"]
    assert topic_nodes and all(node.id < 0 for node in topic_nodes)


def test_layout_is_stored_and_stays_put(copy: Database) -> None:
    assert needs_layout(copy)
    first = compute_layout(copy)
    assert len(first) == 54
    store_layout(copy, first)
    stored = stored_positions(copy)
    assert not needs_layout(copy) and stored.keys() == first.keys()
    assert all(stored[i] == pytest.approx(first[i]) for i in first)
    again = compute_layout(copy)  # refined from the stored positions: nothing jumps
    moved = [abs(again[i][0] - first[i][0]) + abs(again[i][1] - first[i][1]) for i in first]
    spread = max(x for x, _y in first.values()) - min(x for x, _y in first.values())
    assert max(moved) < spread / 4
    nodes = read_graph(copy, GraphFilter()).nodes
    assert all(node.x is not None for node in nodes)


def test_graphml_export_reads_back(sample: Database) -> None:
    data = read_graph(sample, GraphFilter(min_weight=0.3))
    root = ElementTree.fromstring(render_graphml(data))
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    assert len(root.findall(".//g:node", ns)) == len(data.nodes)
    edges = root.findall(".//g:edge", ns)
    assert len(edges) == len(data.edges)
    weak, counting = item_id(sample, "Weak references"), item_id(sample, "Reference counting")
    directed = [e for e in edges if e.get("directed") == "true"]
    assert any(e.get("source") == f"n{counting}" and e.get("target") == f"n{weak}" for e in directed)


# --- The pieces -------------------------------------------------------------------------------------------------

def test_boilerplate_of_a_source_is_left_out() -> None:
    sponsor = "This episode is sponsored by Acme, the cloud for everyone who builds things."
    texts = [f"Episode {n} is about topic {n}.\n{sponsor}" for n in range(6)]
    shared = cleaning.boilerplate(texts)
    assert "acme" not in cleaning.clean(texts[0], shared).lower()
    assert cleaning.line_key("Links: a, b") == "links a b"


@pytest.mark.parametrize("text, how, names", [
    ("Listen to Reference counting and PyObject preservation first.", citations.FIRST,
     {"title:reference counting", "title:pyobject preservation"}),
    ("Hear “Strides” before this one.", citations.FIRST, {"title:strides"}),
    ("Prerequisites: Memory layout, Strides", citations.FIRST, {"title:memory layout", "title:strides"}),
    ("Listen to this episode before Zero-one specialization.", citations.BEFORE,
     {"title:zero one specialization"}),
    ("You might want to listen to this one before listening to https://example.com/episodes/zero-one-specialization "
     "Some questions we answer", citations.BEFORE, {"slug:zero-one-specialization"}),
    ("Other episodes to listen to first: https://example.com/episodes/reference-counting", citations.FIRST,
     {"slug:reference-counting", "url:example.com/episodes/reference-counting"}),
    ("As we discussed in Reference counting, a bump is not free.", citations.FIRST, {"title:reference counting"}),
    ("It overlaps with previous podcasts about TensorIterator and vmap; see those too.", citations.FIRST,
     {"title:tensoriterator", "title:vmap"}),
])
def test_sentences_that_say_what_to_take_first(text: str, how: str, names: set[str]) -> None:
    found = citations.item_links("", text)
    assert names <= {target for target, found_how in found if found_how == how}


def test_links_and_names_meet_in_one_form() -> None:
    markup = ('<p>See <a href="https://www.Example.com/episodes/weak-references/">this</a> and '
              '<a href="https://other.org/p/weak-references.html">that</a>.</p>')
    found = citations.item_links(markup, "See this and that.", json.dumps([{"itemGuid": "ep-7", "feedGuid": "f"}]))
    keys = citations.item_keys("Weak references", "https://example.com/episodes/weak-references", None, "ep-7")
    assert {"url:example.com/episodes/weak-references", "slug:weak-references"} <= {t for t, _h in found} & keys
    assert ("guid:ep-7", citations.REMOTE) in found
    assert citations.url_slug_key("https://github.com/pytorch/pytorch/pull/130935") is None
    assert citations.url_key("file:///music/a.mp3") is None


def test_feeds_declare_remote_items_and_podrolls(copy: Database) -> None:
    feed = b"""<?xml version="1.0"?><rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0">
    <channel><title>Friends</title><podcast:guid>friends-guid</podcast:guid>
    <podcast:podroll><podcast:remoteItem feedGuid="other-guid" feedUrl="https://other.example/feed.xml"/>
    </podcast:podroll>
    <item><title>Our take on weak references</title><guid>f-1</guid>
      <enclosure url="https://friends.example/1.mp3" type="audio/mpeg"/>
      <podcast:remoteItem feedGuid="pytorch" itemGuid="pytorch-dev-podcast-weak-references"/>
      <description>A short reply episode.</description></item></channel></rss>"""
    parsed = parse_feed(feed, "https://friends.example/feed.xml")
    assert json.loads(parsed.podroll) == [{"feedGuid": "other-guid", "feedUrl": "https://other.example/feed.xml"}]
    assert json.loads(parsed.entries[0].remote_items)[0]["itemGuid"] == "pytorch-dev-podcast-weak-references"
    new = store_feed(copy, "https://friends.example/feed.xml", parsed).new[0]
    update_relations(copy)
    assert related(copy, new, 5)[0].reasons[0] == "feed: remote item"


def test_the_judged_relations_meet_their_targets(sample: Database) -> None:
    """bench/judged_relations.json: pairs judged by a person who read both items (strong, weaker, unrelated)."""
    import importlib.util

    path = Path(__file__).resolve().parents[4] / "bench" / "relations_quality.py"
    spec = importlib.util.spec_from_file_location("relations_quality", path)
    assert spec is not None and spec.loader is not None
    quality = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = quality  # its dataclasses look their module up
    spec.loader.exec_module(quality)
    judged = json.loads(quality.JUDGED.read_text(encoding="utf-8"))
    outcomes = quality.judge(quality.ranked(sample), judged)
    assert outcomes["strong"].share >= 0.9, outcomes["strong"].misses
    assert outcomes["weaker"].share >= 0.7, outcomes["weaker"].misses
    assert outcomes["unrelated"].found == 0, outcomes["unrelated"].misses


def test_an_acronym_the_library_defines_links_items_using_either_form(copy: Database) -> None:
    # "SAR" is in no maintained table: one item defines it, one says only the acronym, one only the long form.
    def entry(number: int, title: str, text: str) -> EntryData:
        return EntryData(identity=f"guid:sar-{number}", kind="episode", title=title, guid=f"sar-{number}",
                         enclosure_url=f"https://example.invalid/sar{number}.mp3", description=f"<p>{text}</p>")

    feed = FeedData(title="Memory Notes", entries=[
        entry(1, "Activation memory", "Selective Activation Recomputation (SAR) keeps the activations that are "
                                      "expensive to compute and recomputes the cheap ones in the backward pass."),
        entry(2, "Tuning SAR", "When does SAR pay off? Long sequences and big batches make SAR worth it."),
        entry(3, "Redo, not keep", "Selective activation recomputation, explained with a transformer block: "
                                   "selective activation recomputation drops what is cheap to redo."),
    ])
    store_feed(copy, "https://example.invalid/memory.xml", feed)
    update_relations(copy, full=True)  # concepts new to the library join at a full pass
    assert "Redo, not keep" in reasons_of(copy, "Tuning SAR")
    assert "Tuning SAR" in reasons_of(copy, "Redo, not keep")
    reason = reasons_of(copy, "Tuning SAR")["Redo, not keep"]
    concept = reason[0].casefold().removeprefix("builds on ").removeprefix("explains ")
    assert concept in ("sar", "selective activation recomputation"), reason
