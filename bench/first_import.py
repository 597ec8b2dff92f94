"""First import of an OPML subscription list and the unchanged refresh after it, Earmark beside gPodder's `gpo`.

The feeds: 300 podcasts with 30,000 episodes in all (10 × 1,000, 40 × 200, 250 × 48 items; bench/feed_server.py,
plan "import"), served on 127.0.0.1 by a child process, every feed answering at once with an ETag (304 on a
matching If-None-Match) and gzip. Both programs are timed as a person runs them, from spawn to exit, in turns
within one run (Earmark, then gpo, per round), each on a new library:

1. first import: ``earmark --library NEW import-opml subs.opml --jsonl`` (the command the window runs for
   File → Import Subscriptions, one progress line per feed) beside ``gpo import subs.opml`` (gpo's
   ``limit.episodes`` raised first, untimed, so that it stores every episode as Earmark does: its default keeps
   200 per feed);
2. unchanged refresh of the imported library: ``earmark refresh --jsonl`` beside ``gpo update``, the second one
   after the import (Earmark's first refresh of a day also makes the library's daily backup: printed, not the
   figure); the server counts its answers, so the figure says that every feed answered 304;
3. writes into the library: the 300 feeds parsed once in this process, then stored into a new library by the
   import's write path; items/s of the store alone (no network, no parsing).

Beside each wall time: the CPU seconds of all the program's processes (its parsing processes included, and given
apart for Earmark's import), which tell the work done when other programs share the machine. Printed, never
asserted, each figure beside its target (issue 20): import ≤ 0.25 × gpo and ≤ 5 s; ≥ 20,000 items/s into the
library; refresh ≤ 0.2 × gpo and ≤ 0.45 s. Bytecode is cached as an installed program has it
(PYTHONDONTWRITEBYTECODE is unset for the children), and one unmeasured round warms the caches.

    apt-get install gpodder                       # gPodder 3.11 (Debian 12), which has `gpo`
    .venv/bin/python bench/first_import.py        # 3 rounds, about a minute on 2 cores
    .venv/bin/python bench/first_import.py --quick --runs 1 --skip-gpo
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from feed_server import ServerProcess, feed_body, write_opml

EARMARK = Path(sys.executable).with_name("earmark")  # the venv's entry point, as installed
TARGETS = {"import_s": 5.0, "import_ratio": 0.25, "write_rate": 20_000, "refresh_s": 0.45, "refresh_ratio": 0.2}
TIMEOUT = 600


@dataclass(slots=True)
class Timed:
    """One timed command: wall seconds from spawn to exit, what it stored, the server's answers during it."""

    seconds: float
    items: int
    answers: dict[str, int]
    cpu: float  # CPU seconds of all its processes: the work done, whatever else the machine was doing
    progress: int = 0  # per-feed progress lines (Earmark's --jsonl)
    cpu_deeper: float = 0.0  # of those, its grandchildren's and deeper (Earmark's parsing processes)


def child_env(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra)
    return env


def run(command: list[str], env: dict[str, str]) -> tuple[float, str, float, float]:
    """Run ``command``: (wall seconds from spawn to exit, its standard output, CPU seconds of all its processes, of
    which its grandchildren's and deeper)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    others = CpuWatch(proc.pid)
    out, err = proc.communicate(timeout=TIMEOUT)
    seconds = time.perf_counter() - started
    others.stop()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({proc.returncode}):\n{err[-3000:]}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime  # the process and what it waited for
    return seconds, out, cpu + others.seconds, others.seconds


class CpuWatch:
    """The CPU time of a process's grandchildren and deeper descendants, read from /proc every 20 ms while it runs:
    the process does not wait for them (Earmark's parsing processes belong to multiprocessing's fork server),
    so the bench's own rusage of its children misses them. (The fork server's own small share is not counted.)"""

    def __init__(self, pid: int) -> None:
        self._root = pid
        self._seen: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    @property
    def seconds(self) -> float:
        return sum(self._seen.values())

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _watch(self) -> None:
        tick = os.sysconf("SC_CLK_TCK")
        while not self._stop.wait(0.02):
            parents: dict[int, int] = {}
            cpu: dict[int, float] = {}
            for entry in filter(str.isdigit, os.listdir("/proc")):
                try:
                    fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                parents[int(entry)] = int(fields[1])
                cpu[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
            for pid, seconds in cpu.items():
                if parents[pid] != self._root and self._root in self._ancestors(pid, parents):
                    self._seen[pid] = max(self._seen.get(pid, 0.0), seconds)

    @staticmethod
    def _ancestors(pid: int, parents: dict[int, int]) -> set[int]:
        found: set[int] = set()
        while pid in parents and parents[pid] not in found:
            pid = parents[pid]
            found.add(pid)
        return found


def count_rows(path: Path, table: str) -> int:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


class Earmark:
    """The real ``earmark`` command on a library file."""

    def __init__(self, folder: Path) -> None:
        self.library = folder / "library.db"

    def new(self) -> None:
        for name in ("library.db", "library.db-wal", "library.db-shm"):
            (self.library.parent / name).unlink(missing_ok=True)
        shutil.rmtree(self.library.parent / "backups", ignore_errors=True)

    def first_import(self, opml: Path, server: ServerProcess) -> Timed:
        self.new()
        server.take_counts()
        seconds, out, cpu, deeper = run([str(EARMARK), "--library", str(self.library), "import-opml", str(opml),
                                         "--jsonl"], child_env())
        lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
        progress = sum("status" in line for line in lines)
        return Timed(seconds, count_rows(self.library, "items"), server.take_counts(), cpu, progress, deeper)

    def refresh(self, server: ServerProcess) -> Timed:
        server.take_counts()
        seconds, out, cpu, _ = run([str(EARMARK), "--library", str(self.library), "refresh", "--jsonl"], child_env())
        progress = sum('"status"' in line for line in out.splitlines())
        return Timed(seconds, count_rows(self.library, "items"), server.take_counts(), cpu, progress)


class Gpo:
    """gPodder's command line (`gpo`, Debian package gpodder) with its data in a folder of its own."""

    def __init__(self, folder: Path) -> None:
        self.home = folder / "gpodder"

    @staticmethod
    def version() -> str | None:
        if shutil.which("gpo") is None:
            return None
        done = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "gpodder"], capture_output=True, text=True,
                              check=False)
        return done.stdout.strip() or "unknown version"

    def _env(self) -> dict[str, str]:
        return child_env(GPODDER_HOME=str(self.home), HOME=str(self.home))

    def first_import(self, opml: Path, server: ServerProcess) -> Timed:
        shutil.rmtree(self.home, ignore_errors=True)
        self.home.mkdir(parents=True)
        run(["gpo", "set", "limit.episodes", "1000000"], self._env())  # keep every episode, as Earmark does
        server.take_counts()
        seconds, _out, cpu, _ = run(["gpo", "import", str(opml)], self._env())
        return Timed(seconds, count_rows(self.home / "Database", "episode"), server.take_counts(), cpu)

    def refresh(self, server: ServerProcess) -> Timed:
        server.take_counts()
        seconds, _out, cpu, _ = run(["gpo", "update"], self._env())
        return Timed(seconds, count_rows(self.home / "Database", "episode"), server.take_counts(), cpu)


def time_writes(folder: Path, server: ServerProcess) -> tuple[float, int]:
    """Phase 3: every feed parsed here first as the import's parsing processes do (search text included), then
    stored into a new library by the import's writer (``store_batch`` of each of its ``batches``, with its
    ``write_cache``);
    (seconds of the store, items stored)."""
    from earmark.core.db.connection import open_library
    from earmark.core.db.sources import feed_targets
    from earmark.core.feeds.fetch import Fetched
    from earmark.core.feeds.parse import parse_with_text
    from earmark.core.feeds.refresh import CheckedFeed, batches, store_batch, write_cache
    from earmark.core.feeds.subscriptions import import_opml, read_opml_file

    path = folder / "writes.db"
    for name in (path.name, path.name + "-wal", path.name + "-shm"):
        (folder / name).unlink(missing_ok=True)
    db = open_library(path)
    try:
        import_opml(db, read_opml_file(folder / "subscriptions.opml"))
        specs = {server.url(spec): spec for spec in server.specs}
        checked = []
        for target in feed_targets(db):
            body = feed_body(specs[target.url])
            checked.append(CheckedFeed(target, Fetched(body, target.url), parse_with_text(body, target.url)))
        started = time.perf_counter()
        with write_cache(db):
            for batch in batches(checked):
                store_batch(db, batch)
        seconds = time.perf_counter() - started
        items = int(db.execute("SELECT count(*) FROM items").fetchone()[0])
    finally:
        db.close()
    return seconds, items


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _answers(timed: list[Timed]) -> str:
    return ", ".join(f"{count} × {status}" for status, count in timed[-1].answers.items()) if timed else "-"


def _verdict(met: bool) -> str:
    return "met" if met else "NOT met"


def print_summary(plan_items: int, imports: dict[str, list[Timed]], refreshes: dict[str, list[Timed]],
                  writes: list[tuple[float, int]]) -> None:
    ours, theirs = imports["earmark"], imports["gpo"]
    ours_s, theirs_s = _median([t.seconds for t in ours]), _median([t.seconds for t in theirs])
    refresh_s, gpo_refresh_s = (_median([t.seconds for t in refreshes["earmark"]]),
                                _median([t.seconds for t in refreshes["gpo"]]))
    write_rate = _median([items / seconds for seconds, items in writes])
    print(f"\nsummary (median of {len(ours)} round(s); load average now {os.getloadavg()[0]:.2f})")
    print(f"  {'figure':<46} {'Earmark':>10} {'gpo':>10} {'ratio':>7}   target")
    ratio = ours_s / theirs_s if theirs else float("nan")
    print(f"  {f'first import, {plan_items:,} items (spawn to exit)':<46} {ours_s:>8.2f} s {theirs_s:>8.2f} s "
          f"{ratio:>6.2f}×   ≤ {TARGETS['import_ratio']}× gpo: {_verdict(ratio <= TARGETS['import_ratio'])}; "
          f"≤ {TARGETS['import_s']:g} s: {_verdict(ours_s <= TARGETS['import_s'])}")
    ours_cpu, theirs_cpu = _median([t.cpu for t in ours]), _median([t.cpu for t in theirs])
    print(f"  {'  CPU seconds, all processes':<46} {ours_cpu:>8.2f} s {theirs_cpu:>8.2f} s "
          f"{ours_cpu / theirs_cpu if theirs else float('nan'):>6.2f}×")
    print(f"  {'  end to end, items/s':<46} {ours[-1].items / ours_s:>10,.0f} "
          f"{(theirs[-1].items / theirs_s if theirs else float('nan')):>10,.0f}")
    print(f"  {'writes into the library, items/s (store only)':<46} {write_rate:>10,.0f} {'':>10} {'':>7}   "
          f"≥ {TARGETS['write_rate']:,}: {_verdict(write_rate >= TARGETS['write_rate'])}")
    ratio = refresh_s / gpo_refresh_s if theirs else float("nan")
    print(f"  {'unchanged refresh, 300 × 304 (spawn to exit)':<46} {refresh_s:>8.3f} s {gpo_refresh_s:>8.3f} s "
          f"{ratio:>6.2f}×   ≤ {TARGETS['refresh_ratio']}× gpo: {_verdict(ratio <= TARGETS['refresh_ratio'])}; "
          f"≤ {TARGETS['refresh_s']:g} s: {_verdict(refresh_s <= TARGETS['refresh_s'])}")
    ours_cpu = _median([t.cpu for t in refreshes["earmark"]])
    theirs_cpu = _median([t.cpu for t in refreshes["gpo"]])
    print(f"  {'  CPU seconds, all processes':<46} {ours_cpu:>8.3f} s {theirs_cpu:>8.3f} s "
          f"{ours_cpu / theirs_cpu if theirs else float('nan'):>6.2f}×")
    print(f"  server's answers in the last refresh: Earmark {_answers(refreshes['earmark'])}; "
          f"gpo {_answers(refreshes['gpo'])}")


def run_bench(args: argparse.Namespace) -> int:
    gpo_version = None if args.skip_gpo else Gpo.version()
    if not args.skip_gpo and gpo_version is None:
        sys.exit("gpo is not installed: `apt-get install gpodder` (or pass --skip-gpo)")
    folder = Path(tempfile.mkdtemp(prefix="earmark-import-bench-"))
    server = ServerProcess("import-quick" if args.quick else "import")
    try:
        plan_items = sum(spec.items for spec in server.specs)
        stats = server.stats()
        print(f"feeds     {len(server.specs)} on http://127.0.0.1:{server.port}/ (bench/feed_server.py), "
              f"{plan_items:,} items, {stats['plain'] / 1e6:.1f} MB of RSS ({stats['gzip'] / 1e6:.1f} MB gzipped)")
        print(f"peer      {'gpo ' + gpo_version if gpo_version else 'gpo left out (--skip-gpo)'}")
        print(f"machine   {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; python "
              f"{sys.version.split()[0]}; {args.runs} round(s) after one unmeasured one\n")
        opml = folder / "subscriptions.opml"
        write_opml(opml, server, server.specs)
        programs: dict[str, Earmark | Gpo] = {"earmark": Earmark(folder)}
        if gpo_version:
            programs["gpo"] = Gpo(folder)
        imports: dict[str, list[Timed]] = {"earmark": [], "gpo": []}
        refreshes: dict[str, list[Timed]] = {"earmark": [], "gpo": []}
        for round_ in range(args.runs + 1):
            label = f"round {round_}" if round_ else "warm-up"
            for name, program in programs.items():
                imported = program.first_import(opml, server)
                first = program.refresh(server)  # Earmark's first refresh of the day also makes the daily backup
                refreshed = program.refresh(server)
                extra = (f", {imported.progress} progress lines; parsing processes' CPU {imported.cpu_deeper:.2f} s"
                         if name == "earmark" else "")
                print(f"  {label:<8} {name:<8} import {imported.seconds:6.2f} s, CPU {imported.cpu:5.2f} s "
                      f"({imported.items:,} items{extra}); refresh {refreshed.seconds:6.3f} s, "
                      f"CPU {refreshed.cpu:.3f} s (answers: "
                      f"{', '.join(f'{n} × {s}' for s, n in refreshed.answers.items())}; the first one "
                      f"{first.seconds:.3f} s)")
                if round_:
                    imports[name].append(imported)
                    refreshes[name].append(refreshed)
        writes = []
        for _ in range(args.runs):
            writes.append(time_writes(folder, server))
            print(f"  writes   {writes[-1][1]:,} parsed items stored in {writes[-1][0]:.2f} s")
        print_summary(plan_items, imports, refreshes, writes)
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="measured rounds (median)")
    parser.add_argument("--quick", action="store_true", help="30 feeds, 3,000 items (a smoke run)")
    parser.add_argument("--skip-gpo", action="store_true", help="time Earmark alone")
    return run_bench(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
