"""What the topic graph takes a text to be about: names split and kept whole, aliases, broader concepts, generic
words and link footers left out."""

from __future__ import annotations

from earmark.core.topics import cleaning
from earmark.core.topics.concepts import concepts


def test_compound_names_count_whole_and_by_their_parts() -> None:
    found = set(concepts("AOTAutograd traces CUDAGraph, TensorAccessor and __torch_function__."))
    assert {"aotautograd", "aot", "autograd", "tensoraccessor", "accessor", "torch_function"} <= found
    assert "cuda graph" in found  # CUDAGraph is read as its alias


def test_short_pieces_keep_a_name_whole() -> None:
    """ATen is not "ten", NumPy not "num", FP8 and PT2 stay as they are."""
    found = set(concepts("ATen, NumPy, FP8 and PT2"))
    assert {"aten", "numpy", "fp8", "pt2"} <= found
    assert not {"ten", "num", "py"} & found


def test_aliases_are_one_concept() -> None:
    for text in ("TorchDynamo", "torchdynamo", "Dynamo"):
        assert "dynamo" in concepts(text), text
    assert "pt2" in concepts("PyTorch 2.0 ships a compiler")
    assert "fsdp" in concepts("Fully Sharded Data Parallel")


def test_broader_concepts_count_once() -> None:
    found = concepts("uint8, uint16, uint32 and uint64 arrived")
    assert found.count("dtype") == 1 and {"uint16", "uint64"} <= set(found)
    assert "distribut" in concepts("NCCL collectives across ranks")


def test_generic_words_and_phrases_are_no_concepts() -> None:
    found = set(concepts("A pull request for PyTorch in Python: this episode talks about performance."))
    assert not {"pull", "request", "pull request", "pytorch", "python", "episod", "talk", "perform"} & found


def test_phrases_stay_inside_a_sentence() -> None:
    found = concepts("Reference counting matters. Weak references help, too.")
    assert "refer count" in found and "weak refer" in found
    assert "count weak" not in found


def test_a_links_footer_is_left_out() -> None:
    text = "CUDA graphs capture kernels.\nLinks:\nImplementation PR 51436\nNVIDIA's introduction to CUDA graphs"
    assert "Implementation" not in cleaning.clean(text)
    assert "capture kernels" in cleaning.clean(text)
    text = "Prose.\nFurther reading\nPull request introducing compiler collectives\n\nMore prose after a blank line."
    assert cleaning.clean(text).splitlines() == ["Prose.", "", "More prose after a blank line."]
