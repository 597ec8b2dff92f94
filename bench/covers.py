"""Covers at scale: the 100,000-episode library of bench/synthetic.py with each of its 300 podcasts' covers
(1000×1000 JPEGs made here, served by a local HTTP server), in the real `earmark` window on Xvfb.

Printed beside its target, never asserted:

- start-up to the first painted list, covers cached, ÷ a bare Qt window (bench/bare_window.py), median of the
  rounds, beside the same library without covers started in the same rounds: target ≤ 2×;
- the window's memory with covers shown less the same library without covers, 3 s after the first paint and at
  its peak after scrolling the whole list: target ≤ 30 MB;
- the cover cache on disk once every podcast's cover is fetched: target ≤ 50 MB;
- each page's frame while scrolling the whole list a page at a time (covers beside the rows), 95th percentile:
  target ≤ 16 ms.

The first start fetches the 300 covers (their tiles, sidebar rows and list rows ask for them) and is not timed;
the starts timed find them in the cache, as every start after the first does. Reuses bench/startup.py's desktop
(Xvfb, a D-Bus bus), spawner and start-up probe (bench/startup_probe: first paint, memory and the scroll's frames).

    apt-get install xvfb dbus
    .venv/bin/python bench/covers.py [--runs 5]
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from startup import BARE, EARMARK, Desktop, Started, mark_relations_done, start, working_copy
from synthetic import cached_library

TARGET_RATIO, TARGET_GROWTH_MB, TARGET_CACHE_MB, TARGET_FRAME_MS = 2.0, 30.0, 50.0, 16.0
COVER_PIXELS = 1000
FETCH_TIMEOUT = 240.0


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass


def make_covers(folder: Path, count: int) -> None:
    """``count`` distinct JPEG covers, each a gradient with a disc (what a decoder meets in real covers)."""
    from PIL import Image, ImageDraw

    folder.mkdir(parents=True, exist_ok=True)
    for number in range(count):
        hue = number * 360 // count
        image = Image.new("HSV", (COVER_PIXELS, COVER_PIXELS), (hue * 255 // 360, 180, 200)).convert("RGB")
        draw = ImageDraw.Draw(image)
        draw.ellipse([200, 200, 800, 800], fill=((number * 37) % 256, (number * 91) % 256, (number * 53) % 256))
        image.save(folder / f"{number}.jpg", quality=85)


def with_covers(library: Path, base: str) -> int:
    """Name a cover for every podcast of ``library``; how many podcasts."""
    with sqlite3.connect(library) as db:
        ids = [row[0] for row in db.execute("SELECT id FROM sources ORDER BY id")]
        db.executemany("UPDATE sources SET image_url = ? WHERE id = ?",
                       [(f"{base}/{number}.jpg", source) for number, source in enumerate(ids)])
    return len(ids)


def fill_cache(library: Path, env: dict[str, str], covers: Path, expected: int) -> float:
    """Start the window once and wait until every cover is in the cache (each cached at three sizes)."""
    started = time.perf_counter()
    proc = subprocess.Popen([str(EARMARK), "--library", str(library)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        while time.perf_counter() - started < FETCH_TIMEOUT:
            if len(list(covers.glob("256/*"))) >= expected:
                break
            time.sleep(0.5)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    return time.perf_counter() - started


def cache_mb(folder: Path) -> float:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file()) / 2**20


def run(args: argparse.Namespace) -> int:
    work = Path(tempfile.mkdtemp(prefix="earmark-covers-bench-"))
    images, covers = work / "images", work / "cover-cache"
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(images)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        big = Path(cached_library(300, 100_000).path)
        plain = working_copy(big, work / "plain" / "library.db")
        covered = working_copy(big, work / "covered" / "library.db")
        count = with_covers(covered, f"http://127.0.0.1:{server.server_address[1]}")
        make_covers(images, count)
        for library in (plain, covered):
            mark_relations_done(library)  # the relation pass has nothing to do: the figures are the covers'
        screen = Desktop(work)
        try:
            fetched_in = fill_cache(covered, screen.env("fill", EARMARK_COVERS=str(covers)), covers, count)
            cached = len(list(covers.glob("256/*")))
            print(f"covers: {cached} of {count} fetched and cached in {fetched_in:.1f} s by the first start")
            ratios, plain_ratios = [], []
            for round_ in range(args.runs):
                bare = start([sys.executable, str(BARE)], screen.env(f"bare-{round_}", STARTUP_PROBE="qt-window"))
                ours = start([str(EARMARK), "--library", str(covered)],
                             screen.env(f"covers-{round_}", STARTUP_PROBE="qt-rows", EARMARK_COVERS=str(covers)))
                without = start([str(EARMARK), "--library", str(plain)], screen.env(
                    f"plain-{round_}", STARTUP_PROBE="qt-rows", EARMARK_COVERS=str(work / "none")))
                ratios.append(ours.seconds / bare.seconds)
                plain_ratios.append(without.seconds / bare.seconds)
                print(f"  round {round_ + 1}: bare Qt {bare.seconds:.3f} s, Earmark 100k with covers "
                      f"{ours.seconds:.3f} s ({ours.rows:,} rows): {ratios[-1]:.2f}×; without covers "
                      f"{without.seconds:.3f} s: {plain_ratios[-1]:.2f}×")
            memory = {name: start([str(EARMARK), "--library", str(library)],
                                  screen.env(f"memory-{name}", STARTUP_PROBE="qt-rows", STARTUP_PROBE_MEMORY="1",
                                             EARMARK_COVERS=str(covers if name == "covers" else work / "none")),
                                  stages=3)
                      for name, library in (("plain", plain), ("covers", covered))}
        finally:
            screen.close()
        report(ratios, plain_ratios, memory, cache_mb(covers))
    finally:
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    return 0


def _verdict(value: float, target: float) -> str:
    return "met" if value <= target else "NOT met"


def report(ratios: list[float], plain_ratios: list[float], memory: dict[str, Started], cache: float) -> None:
    ratio = statistics.median(ratios) if ratios else float("nan")
    plain_ratio = statistics.median(plain_ratios) if plain_ratios else float("nan")
    plain, covered = memory["plain"].reports, memory["covers"].reports
    settled = float(covered[1]["VmRSS"]) - float(plain[1]["VmRSS"])
    peak = float(covered[2]["VmHWM"]) - float(plain[2]["VmHWM"])
    frame, frame_cpu = float(covered[2]["frame_p95_ms"]), float(covered[2]["frame_cpu_p95_ms"])
    print("\nsummary (100,000 episodes, 300 podcasts with covers)")
    print(f"  start-up ÷ bare Qt: {ratio:.2f}× (median of {len(ratios)}; the same library without covers "
          f"{plain_ratio:.2f}× in the same rounds)   target ≤ {TARGET_RATIO:g}×: {_verdict(ratio, TARGET_RATIO)}")
    print(f"  memory with covers − without: {settled:+.1f} MB 3 s after the first paint "
          f"({plain[1]['VmRSS']:.0f} → {covered[1]['VmRSS']:.0f} MB), {peak:+.1f} MB at the peak after scrolling "
          f"({plain[2]['VmHWM']:.0f} → {covered[2]['VmHWM']:.0f} MB)   target ≤ {TARGET_GROWTH_MB:g} MB: "
          f"{_verdict(max(settled, peak), TARGET_GROWTH_MB)}")
    print(f"  cover cache on disk: {cache:.1f} MB   target ≤ {TARGET_CACHE_MB:g} MB: "
          f"{_verdict(cache, TARGET_CACHE_MB)}")
    print(f"  scrolling {covered[2]['rows']:,} rows in {covered[2]['pages']:,} pages: frames p95 {frame:.1f} ms "
          f"(longest {float(covered[2]['frame_max_ms']):.1f} ms; without covers p95 "
          f"{float(plain[2]['frame_p95_ms']):.1f} ms)   target ≤ {TARGET_FRAME_MS:g} ms: "
          f"{_verdict(frame, TARGET_FRAME_MS)}")
    print(f"  the UI thread's CPU time in those frames, p95: {frame_cpu:.1f} ms with covers, "
          f"{float(plain[2]['frame_cpu_p95_ms']):.1f} ms without (the load average is {os.getloadavg()[0]:.1f}: "
          f"on a busy machine the frames wait for a CPU)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="timed start-up rounds (median; 0: none)")
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
