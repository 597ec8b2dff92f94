"""Start-up benchmark: process start to Earmark's main window shown and populated, beside a bare Qt window."""

from __future__ import annotations

import argparse
import json
import os
import selectors
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from synthetic import cached_library

CHILD = Path(__file__).resolve().parent / "startup_child.py"
PYCACHE = Path(__file__).resolve().parent / ".cache" / "pycache"
MARKER = "EARMARK-BENCH "
TARGET_S = 0.5
TARGET_MB = 150
EARMARK_STAGES = ("python", "imports", "qapp", "build", "shown", "sidebar", "loaded", "painted")
FLOOR_STAGES = ("python", "imports", "qapp", "shown", "painted")


class BenchError(RuntimeError):
    """A child process did not report."""


@dataclass(slots=True)
class Run:
    """One child's figures: ``wall`` is the parent's clock from just before spawning to the child's report."""

    wall: float
    elapsed: float
    since_exec: float
    rss_mb: float
    marks: dict[str, float]
    spans: list[tuple[str, float, float]] = field(default_factory=list)


def run_child(args: list[str], timeout: float, profile: bool = False, python_flags: tuple[str, ...] = (),
              bytecode_cache: bool = True) -> Run:
    """Spawn ``startup_child.py ARGS`` in a fresh interpreter and wait for its report line.

    With ``bytecode_cache`` the child may write and use .pyc files (under bench/.cache/pycache, so nothing is
    written beside the sources), as an installed application does, even where PYTHONDONTWRITEBYTECODE is set.
    """
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    if bytecode_cache:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    env["EARMARK_BENCH_PROFILE"] = "1" if profile else "0"
    with tempfile.TemporaryFile() as errors:
        env["EARMARK_BENCH_T0"] = repr(time.time())
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, *python_flags, str(CHILD), *args], stdout=subprocess.PIPE,
                                stderr=errors, env=env)
        try:
            line = _read_report(proc, started + timeout)
            wall = time.perf_counter() - started
        finally:
            _finish(proc)
        if line is None:
            errors.seek(0)
            raise BenchError(f"child {' '.join(args)} did not report (exit code {proc.returncode}):\n"
                             + errors.read().decode(errors="replace")[-3000:])
        if python_flags:
            errors.seek(0)
            _print_importtime(errors.read().decode(errors="replace"))
    record = json.loads(line[len(MARKER):])
    if "error" in record:
        raise BenchError(f"child {' '.join(args)} failed: {record['error']}")
    return Run(wall=wall, elapsed=record["elapsed"], since_exec=record["since_exec"], rss_mb=record["rss_mb"],
               marks=record["marks"], spans=[tuple(span) for span in record["spans"]])


def _read_report(proc: subprocess.Popen[bytes], deadline: float) -> str | None:
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    buffer = b""
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while (remaining := deadline - time.perf_counter()) > 0:
            if not selector.select(remaining):
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            buffer += chunk
            for raw in buffer.split(b"\n")[:-1]:
                text = raw.decode(errors="replace")
                if text.startswith(MARKER):
                    return text
    return None


def _finish(proc: subprocess.Popen[bytes]) -> None:
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


def _print_importtime(log: str, min_ms: float = 5.0, max_depth: int = 3) -> None:
    """The import tree of one ``-X importtime`` run: modules taking at least ``min_ms`` (cumulative)."""
    print(f"\nimports of one earmark child taking >= {min_ms:g} ms (python -X importtime, cumulative; importtime "
          "itself slows imports a little; children are listed before their parent):")
    for line in log.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _self, cumulative, name = line[len("import time:"):].split("|")
        depth = (len(name) - len(name.lstrip()) - 1) // 2
        if depth <= max_depth and int(cumulative) >= min_ms * 1000:
            print(f"  {int(cumulative) / 1000:7.1f} ms  {'  ' * depth}{name.strip()}")


def library_rows(path: Path) -> tuple[int, int, int]:
    """(items, podcasts, episodes) in an existing library."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        items = conn.execute("SELECT count(*) FROM items").fetchone()[0]
        podcasts = conn.execute("SELECT count(*) FROM sources WHERE kind = 'podcast'").fetchone()[0]
        episodes = conn.execute("SELECT count(*) FROM items WHERE kind = 'episode'").fetchone()[0]
    finally:
        conn.close()
    return items, podcasts, episodes


def _median(values: list[float]) -> float:
    return statistics.median(values)


def _row(label: str, runs: list[Run]) -> str:
    walls = [run.wall for run in runs]
    rss = [run.rss_mb for run in runs]
    return (f"{label:<44} median {_median(walls):6.3f} s   min {min(walls):6.3f} s   "
            f"peak RSS {_median(rss):4.0f} MB (max {max(rss):.0f})")


def _stages(label: str, runs: list[Run], names: tuple[str, ...]) -> str:
    cells = []
    for name in names:
        values = [run.marks[name] for run in runs if name in run.marks]
        if values:
            cells.append(f"{name} {_median(values):.3f}")
    return f"  {label:<9} " + "  ".join(cells)


def _print_spans(runs: list[Run]) -> None:
    """Median start and duration of each instrumented step (repeated names numbered in order)."""
    table: dict[str, list[tuple[float, float]]] = {}
    for run in runs:
        seen: dict[str, int] = {}
        for name, start, end in sorted(run.spans, key=lambda span: span[1]):
            seen[name] = seen.get(name, 0) + 1
            key = name if seen[name] == 1 else f"{name} #{seen[name]}"
            table.setdefault(key, []).append((start, end - start))
    print("\nearmark steps (median over runs; s since spawn; workers run in threads, so steps overlap):")
    ordered = sorted(table.items(), key=lambda item: _median([start for start, _ in item[1]]))
    for name, values in ordered:
        start = _median([s for s, _ in values])
        took = _median([d for _, d in values])
        print(f"  {name:<28} starts {start:6.3f}  takes {took * 1000:6.1f} ms")


def main(argv: list[str] | None = None) -> int:
    """Build (or reuse) the library, time the floor and Earmark in fresh processes, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--podcasts", type=int, default=300)
    parser.add_argument("--episodes", type=int, default=100_000)
    parser.add_argument("--articles", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--library", type=Path, help="time this existing library instead of a synthetic one")
    parser.add_argument("--runs", type=int, default=5, help="measured runs of each (default 5)")
    parser.add_argument("--warmup", type=int, default=1, help="unmeasured runs of each first (default 1)")
    parser.add_argument("--vlc-arg", action="append", default=[], metavar="ARG",
                        help="extra libVLC argument for the player (repeatable), e.g. --vlc-arg=--aout=dummy")
    parser.add_argument("--profile", action="store_true",
                        help="also time build()'s steps and the workers' queries, and one -X importtime run")
    parser.add_argument("--no-bytecode-cache", dest="bytecode_cache", action="store_false",
                        help="run the children with the environment's bytecode settings as they are (by default "
                             "they keep .pyc files under bench/.cache/pycache, like an installed app)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for each child")
    args = parser.parse_args(argv)

    if args.library:
        path = args.library.expanduser().resolve()
        rows, podcasts, episodes = library_rows(path)
        print(f"library   {path}")
        print(f"          {rows:,} items, {path.stat().st_size / 2**20:,.0f} MiB (given with --library)")
    else:
        started = time.perf_counter()
        info = cached_library(args.podcasts, args.episodes, args.articles, args.seed)
        path, rows = Path(info.path), info.episodes + info.articles
        podcasts, episodes = info.podcasts, info.episodes
        reuse = time.perf_counter() - started
        how = (f"reused from cache in {reuse:.2f} s; building it took {info.build_seconds:.1f} s"
               if info.cached else f"built in {info.build_seconds:.1f} s")
        print(f"library   {path}")
        extra = f" + {info.articles:,} articles / {info.sites} sites" if info.articles else ""
        print(f"          {episodes:,} episodes / {podcasts} podcasts{extra}, "
              f"{info.size_bytes / 2**20:,.0f} MiB, {how}")
    load = os.getloadavg()[0]
    print(f"runs      {args.runs} of each, in fresh processes, after {args.warmup} warm-up run(s) of each; "
          f"{os.cpu_count()} CPUs, load average {load:.2f}")
    bytecode = (f"bytecode cache {PYCACHE}" if args.bytecode_cache
                else f"PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')}")
    print(f"python    {sys.executable} ({sys.version.split()[0]}), QT_QPA_PLATFORM="
          f"{os.environ.get('QT_QPA_PLATFORM', 'offscreen')}, {bytecode}\n")

    earmark_args = ["earmark", str(path), str(rows), *args.vlc_arg]
    floor_runs: list[Run] = []
    earmark_runs: list[Run] = []
    try:
        for number in range(args.warmup + args.runs):
            floor = run_child(["floor"], args.timeout, bytecode_cache=args.bytecode_cache)
            earmark = run_child(earmark_args, args.timeout, profile=args.profile, bytecode_cache=args.bytecode_cache)
            if number >= args.warmup:
                floor_runs.append(floor)
                earmark_runs.append(earmark)
    except BenchError as exc:
        print(f"benchmark could not run: {exc}", file=sys.stderr)
        return 2

    label = f"earmark, {episodes:,} episodes / {podcasts} podcasts"
    if rows != episodes:
        label = f"earmark, {rows:,} items / {podcasts} podcasts"
    print(_row("floor (QApplication + QMainWindow)", floor_runs))
    print(_row(label, earmark_runs))
    print(f"target: < {TARGET_S} s, < {TARGET_MB} MB")
    print("\n(times: the parent's clock from just before spawning the child to the child's report, so they include "
          "interpreter start-up and imports;\n peak RSS: the child's VmHWM in MiB, as getrusage's ru_maxrss would also "
          "count the parent's peak, which Linux carries across fork and exec)")
    spawn = [_median([r.elapsed for r in runs]) for runs in (floor_runs, earmark_runs)]
    exec_ = [_median([r.since_exec for r in runs]) for runs in (floor_runs, earmark_runs)]
    print(f"child's own clock, median: floor {spawn[0]:.3f} s, earmark {spawn[1]:.3f} s since the spawn; "
          f"{exec_[0]:.3f} s and {exec_[1]:.3f} s since exec (/proc/self/stat, 10 ms resolution)")
    print("\nstages (median s since spawn; each mark is when that stage was done):")
    print(_stages("floor", floor_runs, FLOOR_STAGES))
    print(_stages("earmark", earmark_runs, EARMARK_STAGES))
    if args.profile:
        _print_spans(earmark_runs)
        run_child(earmark_args, args.timeout, python_flags=("-X", "importtime"), bytecode_cache=args.bytecode_cache)
    return 0


if __name__ == "__main__":
    sys.exit(main())
