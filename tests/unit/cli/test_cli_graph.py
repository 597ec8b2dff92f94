"""The topic graph's commands on the sample library: related, topics, path and export-graph."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

import pytest

from earmark.core.db.connection import open_library
from earmark.core.sample import load_sample
from helpers.cli import Cli


@pytest.fixture
def sample_cli(cli: Cli) -> Cli:
    db = open_library(cli.library)
    load_sample(db)
    db.close()
    return cli


def ids(cli: Cli) -> dict[str, int]:
    return {str(item["title"]): int(item["id"]) for item in cli.json("list")}  # type: ignore[call-overload]


def test_related_works_the_relations_out_first_and_prints_the_contract(sample_cli: Cli) -> None:
    weak = ids(sample_cli)["Weak references"]
    found = sample_cli.json("related", str(weak), "--limit", "3")
    assert len(found) == 3
    assert set(found[0]) >= {"id", "title", "kind", "score", "reasons"}
    assert found[0]["title"] == "Reference counting" and found[0]["reasons"][0] == "prerequisite"  # type: ignore[index]
    assert isinstance(found[0]["score"], float)
    code, out, _err = sample_cli("related", str(weak), "--limit", "1")
    assert code == 0 and "Reference counting" in out and "prerequisite" in out


def test_related_refuses_unknown_items_and_bad_limits(sample_cli: Cli) -> None:
    code, _out, err = sample_cli("related", "9999")
    assert code == 1 and "no item with id 9999" in err
    with pytest.raises(SystemExit):
        sample_cli("related", "1", "--limit", "0")


def test_topics_lists_topic_and_count(sample_cli: Cli) -> None:
    topics = sample_cli.json("topics")
    assert all(set(entry) == {"topic", "count"} for entry in topics)
    counts = {entry["topic"]: entry["count"] for entry in topics}
    assert counts["CUDA graphs"] >= 2
    assert [entry["count"] for entry in topics] == sorted((entry["count"] for entry in topics), reverse=True)


NOTES = "PyTorch Conference 2022 notes: PyTorch 2.0, TorchDynamo and TorchInductor"


def test_path_lists_prerequisites_in_order(sample_cli: Cli) -> None:
    titles = ids(sample_cli)
    steps = sample_cli.json("path", str(titles["Zero-one specialization"]))
    assert [(s["step"], s["title"], s["reason"], s["concept"], s["needed_by"]) for s in steps] == [
        (1, NOTES, "concept", "PT2", titles["PyTorch 2.0"]),
        (2, "PyTorch 2.0", "concept", "PT2", titles["Zero-one specialization"]),
        (3, "Unbacked SymInts", "prerequisite", None, titles["Zero-one specialization"])]
    assert steps[0]["why"] == "an earlier article on PT2, which “PyTorch 2.0” builds on"
    assert steps[1]["why"] == "explains PT2, which “Zero-one specialization” builds on"
    code, out, _err = sample_cli("path", str(titles["Weak references"]))
    assert code == 0 and "1. Reference counting" in out and "then “Weak references”" in out
    code, out, _err = sample_cli("path", str(titles["CUDA graph trees"]))
    assert "1. CUDA graphs" in out and "concept]: an earlier episode on CUDA graphs" in out
    code, out, _err = sample_cli("path", str(titles["Expect tests"]))
    assert "no prerequisites" in out


def test_export_graph_writes_graphml(sample_cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "graph.graphml"
    code, printed, _err = sample_cli("export-graph", str(out), "--min-weight", "0.3", "--topics")
    assert code == 0 and "nodes" in printed
    root = ElementTree.parse(out).getroot()
    assert root.tag.endswith("graphml") and len(list(root.iter("{http://graphml.graphdrawing.org/xmlns}node"))) > 54
