"""The sentence models Ask knows by name: what the settings offer, and where each is fetched from. Kept apart from
model.py, which the settings would otherwise import at every start (with ``platform`` and the hub's check)."""

from __future__ import annotations

from earmark.core.records import record

DEFAULT = "word-llama-l2-supercat"
MINILM = "all-MiniLM-L6-v2"
OFF = "off"


@record(frozen=True)
class Fetchable:
    """A model Earmark fetches by name: its repository on the Hugging Face hub, its size, what it runs on, and
    its files (their paths in the repository, ``{export}`` for the ONNX export this CPU runs fastest, and their
    names in the model's folder)."""

    repository: str
    size_mb: int
    engine: tuple[str, ...]
    files: tuple[tuple[str, str], ...]


KNOWN = {DEFAULT: Fetchable("dleemiller/word-llama-l2-supercat", 18, ("tokenizers", "numpy"),
                            (("l2_supercat_256.safetensors", "model.safetensors"),
                             ("l2_supercat_tokenizer_config.json", "tokenizer.json"))),
         MINILM: Fetchable(f"sentence-transformers/{MINILM}", 23, ("onnxruntime", "tokenizers", "numpy"),
                           (("{export}", "model.onnx"), ("tokenizer.json", "tokenizer.json")))}
