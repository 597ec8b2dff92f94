"""The analyser's names: compound names split into their parts, names kept whole, odd and non-ASCII input."""

from __future__ import annotations

import pytest

from earmark.core.text import looks_technical, normal_form, split_identifier, tokens, word, words


@pytest.mark.parametrize(("name", "parts"), [
    # the examples
    ("AOTAutograd", ("aot", "autograd")),
    ("CUDAGraph", ("cuda", "graph")),
    ("FP8", ("fp", "8")),
    ("PT2", ("pt", "2")),
    ("torch.compile", ("torch", "compile")),
    ("__torch_function__", ("torch", "function")),
    ("torch_dispatch", ("torch", "dispatch")),
    ("TorchDynamo", ("torch", "dynamo")),
    ("TensorAccessor", ("tensor", "accessor")),
    # more CamelCase, acronyms inside names, digits
    ("PackedTensorAccessor", ("packed", "tensor", "accessor")),
    ("THCDeviceTensor", ("thc", "device", "tensor")),
    ("CUDAGeneratorImpl", ("cuda", "generator", "impl")),
    ("FXGraphExtractor", ("fx", "graph", "extractor")),
    ("SymInts", ("sym", "ints")),
    ("cuBLAS", ("cu", "blas")),
    ("nvFuser", ("nv", "fuser")),
    ("PyTorch", ("py", "torch")),
    ("float16", ("float", "16")),
    ("uint8", ("uint", "8")),
    ("PrivateUse1", ("private", "use", "1")),
    ("ResNet50", ("res", "net", "50")),
    ("CUDAGraphs", ("cuda", "graphs")),
    ("all-reduce", ("all", "reduce")),
    ("define-by-run", ("define", "by", "run")),
    ("torch.nn.functional", ("torch", "nn", "functional")),
    ("a+b", ("a", "b")),
    # non-ASCII letters
    ("ÜberGraph", ("über", "graph")),
    ("naïveBayes", ("naïve", "bayes")),
    ("日本Graph", ("日本", "graph")),
])
def test_compound_names_split_into_their_parts(name: str, parts: tuple[str, ...]) -> None:
    assert split_identifier(name) == parts


@pytest.mark.parametrize("name", [
    "ATen",  # a lone capital belongs to what follows it
    "iPhone", "iOS", "eBPF",
    "H100", "A100", "x86", "3D",  # a lone letter beside a number
    "CUDA", "NCCL", "GPUs", "APIs", "IDs", "URLs",  # acronyms, and their plurals
    "autograd", "Autograd", "tensor", "python",  # plain words
    "2023", "42",
    "", "_", "__", "...", "-", "c++",
])
def test_plain_words_acronyms_and_names_with_a_lone_letter_stay_whole(name: str) -> None:
    assert split_identifier(name) == ()


def test_tokens_keep_each_word_whole_before_its_parts() -> None:
    assert tokens("AOTAutograd and FP8 in __torch_function__, see torch.compile.") == [
        "aotautograd", "aot", "autograd", "and", "fp8", "fp", "8", "in", "torch_function", "torch", "function",
        "see", "torch.compile", "torch", "compile"]


def test_words_give_the_written_form_the_whole_and_the_parts() -> None:
    found = list(words("The CUDAGraph trees of ATen."))
    assert [w.surface for w in found] == ["The", "CUDAGraph", "trees", "of", "ATen"]
    assert found[1] == word("CUDAGraph")
    assert (found[1].whole, found[1].parts) == ("cudagraph", ("cuda", "graph"))
    assert (found[4].whole, found[4].parts) == ("aten", ())


def test_web_addresses_are_not_words() -> None:
    assert tokens("see https://github.com/pytorch/pytorch/pull/12345 and www.example.com/AbCd now") == [
        "see", "and", "now"]


def test_sentence_ends_and_brackets_are_not_part_of_a_name() -> None:
    assert [w.surface for w in words("(torch.compile). Then torch.compile, then c++!")] == [
        "torch.compile", "Then", "torch.compile", "then", "c++"]


@pytest.mark.parametrize("text", ["", "   \n\t ", "!!! ??? ...", "\x00\x01", "😀 🚀", "(((", "-_-"])
def test_odd_text_has_no_words_and_raises_nothing(text: str) -> None:
    assert [t for t in tokens(text) if t.strip("_")] == []


def test_odd_text_around_words_is_read_as_separators() -> None:
    assert tokens("\x00AOTAutograd\x00 😀TensorAccessor🚀") == [
        "aotautograd", "aot", "autograd", "tensoraccessor", "tensor", "accessor"]
    assert tokens("שלום TorchDynamo مرحبا") == ["שלום", "torchdynamo", "torch", "dynamo", "مرحبا"]


def test_a_long_text_is_read_in_linear_time() -> None:
    text = "AOTAutograd " * 50_000 + "x" * 100_000
    assert tokens(text)[:3] == ["aotautograd", "aot", "autograd"]
    assert len(split_identifier("Ab" * 5000)) == 5000


def test_what_looks_technical() -> None:
    assert all(map(looks_technical, ["AOTAutograd", "CUDA", "FP8", "torch.compile", "__torch_function__", "uint8"]))
    assert not any(map(looks_technical, ["autograd", "Tensor", "2023", "", "...", "café"]))


def test_normal_form_is_lower_case_without_outer_underscores() -> None:
    assert normal_form("__Torch_Function__") == "torch_function"
