"""The analyser's aliases: acronyms beside their expansion, the maintained table, names that occur together, and the
fast scan the search index uses."""

from __future__ import annotations

from earmark.core.text import Aliases, acronym_definitions, case_compounds, cooccurring_aliases, maintained, words


def test_an_acronym_after_its_expansion() -> None:
    assert acronym_definitions("We shard with Fully Sharded Data Parallel (FSDP) these days.") == [
        ("fsdp", "fully sharded data parallel")]


def test_an_expansion_after_its_acronym() -> None:
    assert acronym_definitions("Compare it with DDP (Distributed Data Parallel).") == [
        ("ddp", "distributed data parallel")]


def test_camel_case_words_and_numbers_give_their_parts_initials() -> None:
    assert acronym_definitions("Everything in PyTorch 2 (PT2) goes through dynamo.") == [("pt2", "pytorch 2")]
    assert acronym_definitions("a just-in-time (JIT) compiler") == [("jit", "just-in-time")]


def test_small_words_may_be_skipped_or_spelled() -> None:
    assert acronym_definitions("Bidirectional Encoder Representations from Transformers (BERT) came out.") == [
        ("bert", "bidirectional encoder representations from transformers")]
    assert acronym_definitions("the Department of Energy (DOE) funds it") == [("doe", "department of energy")]


def test_brackets_that_define_nothing() -> None:
    text = ("Not this (see above), nor (ABC) alone, nor Apple Banana Cherry (XYZ), nor the sentence before. (AB) "
            "nor CUDA (the one from NVIDIA), nor ( ) nor (unclosed FSDP")
    assert acronym_definitions(text) == []


def test_the_expansion_stays_in_its_sentence() -> None:
    assert acronym_definitions("It was fun. Data Parallel (FSDP) is different.") == []


def test_the_maintained_table() -> None:
    table = maintained()
    assert table.names("Inductor") == ("inductor", "torchinductor", "torch inductor")
    assert table.canonical("TorchInductor") == "inductor"
    assert table.canonical("PyTorch  2") == "pt2"
    assert table.canonical("Fully Sharded Data Parallel") == "fsdp"
    assert "dynamo" in table and "zebra" not in table
    assert table.names("Zebra crossing") == ("zebra crossing",)


def test_a_library_teaches_acronyms() -> None:
    table = maintained()
    assert table.learn("We use Low-Rank Adaptation (LoRA) on the Gated Recurrent Unit (GRU).") == [
        ("lora", "low-rank adaptation"), ("gru", "gated recurrent unit")]
    assert table.canonical("gated recurrent unit") == "gru"
    assert maintained().canonical("gated recurrent unit") == "gated recurrent unit"  # the table itself is unchanged


def test_groups_join_when_a_name_links_them() -> None:
    table = Aliases([("a1", "alpha one"), ("b1", "beta one")])
    table.add("alpha one", "beta one")
    assert table.names("b1") == ("a1", "alpha one", "b1", "beta one")
    assert len(table.groups()) == 1


def test_a_compound_name_and_its_last_part_that_occur_together() -> None:
    documents = [
        "TorchInductor generates Triton; Inductor lowers the FX graph.",
        "Inductor and TorchInductor are one compiler.",
        "The inductor uses TorchInductor kernels.",
        "TensorAccessor here, and an accessor elsewhere.",
        "Our accessor pattern.",
        "An accessor again.",
    ]
    assert cooccurring_aliases(list(words(text)) for text in documents) == [("inductor", "torchinductor")]


def test_the_fast_scan_finds_the_names_capitals_and_digits_cut() -> None:
    text = ("The PyTorch team on AOTAutograd, CUDAGraphs and TensorAccessor in 2023; FP8 and uint8; not torch.compile, "
            "GPUs, iPhone or ATen. 1dee99c973fda55e1e9cac3d50b4d4982b6c6c26.")
    assert case_compounds(text) == {"pytorch": ("py", "torch"), "aotautograd": ("aot", "autograd"),
                                    "cudagraphs": ("cuda", "graphs"), "tensoraccessor": ("tensor", "accessor"),
                                    "fp8": ("fp", "8"), "uint8": ("uint", "8")}
    assert case_compounds("") == {} and case_compounds("plain prose. Nothing Here.") == {}
