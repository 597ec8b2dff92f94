"""Start-up of the real `earmark` command to its first painted window, beside a bare PySide6 window and gPodder.

Every figure is a real program started as a person starts it, timed from just before the spawn until the
probe (bench/startup_probe/sitecustomize.py, loaded by Python at start) sees the frame it waits for:

- bare Qt: ``python bench/bare_window.py``, a QApplication and an empty 1280×800 QMainWindow, at its first paint;
- Earmark: ``earmark --library LIB`` (the venv's entry point), at the first paint of its list with rows in it,
  on the 100,000-episode library of bench/synthetic.py and on a 30,000-episode library;
- gPodder: ``gpodder`` (Debian package gpodder) on a 30,000-episode library, at the first draw of its episode
  list with rows in it. The two 30k libraries hold the same episodes: the 300 feeds of bench/feed_server.py's
  "import" plan, imported into each by ``earmark import-opml`` and ``gpo import``.

They run in turns, one round after another (bare, Earmark 100k, Earmark 30k, gPodder), on an X server of their
own (Xvfb -displayfd) with a D-Bus session bus of their own (gPodder needs one), a fresh config folder each run,
and their bytecode cached (PYTHONDONTWRITEBYTECODE unset), after one unmeasured round. The figure is the median
over the rounds of Earmark 100k ÷ bare Qt (target ≤ 2×, goal 1.6×). Then one memory run: Earmark on the 100k
library, its resident memory at the first paint, after 3 s more (what it starts after the first paint runs
meanwhile) and after scrolling its list to the end a page at a time (targets ≤ 150 MB and ≤ 250 MB). In that run
every item's relations are marked as worked out, so the topic-relation pass has nothing to do (it runs inside
the window today; the technical-words issue moves it to a process of its own).

Printed, never asserted; the load average is printed first and last: other work on the machine slows every figure.

    apt-get install xvfb dbus gpodder             # Debian packages: the X server, the bus, the peer
    .venv/bin/python bench/startup.py             # 5 rounds, about a minute after the libraries are built
    .venv/bin/python bench/startup.py --runs 3 --skip-gpodder --importtime
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from feed_server import ServerProcess, write_opml
from synthetic import CACHE_DIR, cache_name, cached_library

HERE = Path(__file__).resolve().parent
PROBE = HERE / "startup_probe"
BARE = HERE / "bare_window.py"
EARMARK = Path(sys.executable).with_name("earmark")  # the venv's entry point, as installed
MARKER = "STARTUP-PROBE "
TARGET_RATIO, GOAL_RATIO = 2.0, 1.6
TARGET_START_MB, TARGET_SCROLLED_MB = 150, 250
TIMEOUT = 120.0


@dataclass(slots=True)
class Started:
    """One start: seconds from spawn to the frame, the rows the list showed, resident memory (MiB)."""

    seconds: float
    rows: int
    rss_mb: float
    reports: list[dict[str, Any]]


class Desktop:
    """An X server (Xvfb -displayfd: a free display number) and a D-Bus session bus, for the programs timed."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        read, write = os.pipe()
        self._xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1600x1000x24",
                                       "-nolisten", "tcp"], pass_fds=[write], stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as numbers:
            self.display = ":" + numbers.readline().strip()
        bus = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"],
                             capture_output=True, text=True, check=True, timeout=30)
        address, pid = bus.stdout.split()
        self.bus, self._bus_pid = address, int(pid)

    def env(self, run: str, **extra: str) -> dict[str, str]:
        """The environment of one start: this desktop, a new config folder, bytecode kept."""
        home = self._folder / "runs" / run
        for name in ("config", "data", "cache", "runtime"):
            (home / name).mkdir(parents=True, exist_ok=True)
        (home / "runtime").chmod(0o700)
        env = {key: value for key, value in os.environ.items()
               if key not in ("PYTHONDONTWRITEBYTECODE", "QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
        # The probe first, then the caller's path: a checkout run with PYTHONPATH=its app/ is the code timed.
        path = os.pathsep.join(filter(None, [str(PROBE), os.environ.get("PYTHONPATH", "")]))
        env.update(DISPLAY=self.display, DBUS_SESSION_BUS_ADDRESS=self.bus, PYTHONPATH=path,
                   XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"),
                   XDG_CACHE_HOME=str(home / "cache"), XDG_RUNTIME_DIR=str(home / "runtime"), **extra)
        return env

    def close(self) -> None:
        os.kill(self._bus_pid, signal.SIGTERM)
        self._xvfb.terminate()
        self._xvfb.wait(timeout=10)


def start(command: list[str], env: dict[str, str], stages: int = 1) -> Started:
    """Spawn ``command`` and wait for ``stages`` probe reports; then end it (its teardown is not start-up)."""
    started = time.perf_counter()
    spawned = time.time()  # the probe's reports carry the wall clock of the frame (read before it writes them)
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            start_new_session=True)
    reports: list[dict[str, Any]] = []
    seconds = 0.0
    try:
        assert proc.stdout is not None
        deadline = started + TIMEOUT
        for line in proc.stdout:
            if line.startswith(MARKER):
                reports.append(json.loads(line[len(MARKER):]))
                if len(reports) == 1:
                    seconds = float(reports[0]["clock"]) - spawned
                if len(reports) == stages:
                    break
            if time.perf_counter() > deadline:
                break
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    if len(reports) < stages:
        raise RuntimeError(f"{' '.join(command)}: the probe saw {len(reports)} of {stages} frames "
                           f"(exit code {proc.returncode})")
    first = reports[0]
    return Started(seconds, int(first.get("rows", 0)), float(first["VmRSS"]), reports)


# The libraries -------------------------------------------------------------------------------------------------


def working_copy(source: Path, target: Path) -> Path:
    """A copy to start on (a start keeps a daily backup and may refresh: the cached library stays as built)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(source) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copyfile(source, target)
    return target


def libraries_30k(folder: Path, with_gpodder: bool) -> tuple[Path, Path | None]:
    """Earmark's and gPodder's libraries of the same 30,000 episodes, built once (cached by schema)."""
    cache = CACHE_DIR / f"startup-30k-{cache_name(300, 30_000, 0, 0).removesuffix('.sqlite')}"
    earmark, gpodder = cache / "earmark.db", cache / "gpodder"
    if earmark.exists() and (not with_gpodder or (gpodder / "Database").exists()):
        return earmark, gpodder if with_gpodder else None
    shutil.rmtree(cache, ignore_errors=True)
    cache.mkdir(parents=True)
    server = ServerProcess("import")
    try:
        opml = folder / "subscriptions.opml"
        write_opml(opml, server, server.specs)
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        subprocess.run([str(EARMARK), "--library", str(earmark), "import-opml", str(opml)], env=env, check=True,
                       capture_output=True, timeout=600)
        if with_gpodder:
            gpo_env = {**env, "GPODDER_HOME": str(gpodder), "HOME": str(gpodder)}
            subprocess.run(["gpo", "set", "limit.episodes", "1000000"], env=gpo_env, check=True, capture_output=True)
            subprocess.run(["gpo", "import", str(opml)], env=gpo_env, check=True, capture_output=True, timeout=600)
    finally:
        server.stop()
    return earmark, gpodder if with_gpodder else None


def mark_relations_done(path: Path) -> None:
    """Every item's relations marked as worked out: the relation pass finds nothing to do."""
    with sqlite3.connect(path) as db:
        db.execute("INSERT OR IGNORE INTO graph_index (item_id, indexed) SELECT id, '2025-01-01' FROM items")
        db.execute("DELETE FROM graph_dirty")
        # and built once: without it, every start ran a full pass of the whole library beside the figures (two
        # worker processes on two cores), as only the first start after the library's import does
        db.execute("INSERT OR REPLACE INTO graph_state VALUES ('built', '2025-01-01'), "
                   "('total', (SELECT count(*) FROM items))")


# The report ---------------------------------------------------------------------------------------------------


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _verdict(value: float, target: float) -> str:
    return "met" if value <= target else "NOT met"


def importtime(library: Path, env: dict[str, str]) -> None:
    """One start under ``python -X importtime``: the biggest imports before the first paint."""
    command = [sys.executable, "-X", "importtime", str(EARMARK), "--library", str(library)]
    started = time.perf_counter()
    proc = subprocess.Popen(command, env={**env, "STARTUP_PROBE": "qt-rows"}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert proc.stdout is not None and proc.stderr is not None
    for line in proc.stdout:
        if line.startswith(MARKER):
            break
    os.killpg(proc.pid, signal.SIGKILL)
    log = proc.stderr.read()
    proc.wait()
    rows = []
    for line in log.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            name = parts[2].rstrip()
            depth = (len(name) - len(name.lstrip())) // 2
            if depth <= 2 and int(parts[1]) >= 8000:
                rows.append(f"  {int(parts[1]) / 1000:7.1f} ms  {name}")
    print(f"\nimports of one start (python -X importtime, {time.perf_counter() - started:.2f} s with it; "
          "cumulative, ≥ 8 ms, 3 levels):")
    print("\n".join(rows))


@contextmanager
def desktop(folder: Path) -> Iterator[Desktop]:
    made = Desktop(folder)
    try:
        yield made
    finally:
        made.close()


def run_bench(args: argparse.Namespace) -> int:
    with_gpodder = not args.skip_gpodder and shutil.which("gpodder") is not None
    if not args.skip_gpodder and not with_gpodder:
        sys.exit("gPodder is not installed: `apt-get install gpodder` (or pass --skip-gpodder)")
    folder = Path(tempfile.mkdtemp(prefix="earmark-startup-bench-"))
    try:
        big = Path(args.library) if args.library else Path(cached_library(300, 100_000).path)
        earmark_30k, gpodder_30k = libraries_30k(folder, with_gpodder)
        big_copy = working_copy(big, folder / "100k" / "library.db")
        copy_30k = working_copy(earmark_30k, folder / "30k" / "library.db")
        with desktop(folder) as screen:
            print(f"display   {screen.display} (Xvfb), its own D-Bus session bus; bytecode cached")
            print(f"libraries {big} ({big.stat().st_size / 1e6:.0f} MB); 30k: {earmark_30k.parent}")
            print(f"machine   {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; python "
                  f"{sys.version.split()[0]}; {args.runs} round(s) after one unmeasured one\n")
            programs: dict[str, tuple[list[str], str, dict[str, str]]] = {
                "bare Qt": ([sys.executable, str(BARE)], "qt-window", {}),
                "Earmark 100k": ([str(EARMARK), "--library", str(big_copy)], "qt-rows", {}),
                "Earmark 30k": ([str(EARMARK), "--library", str(copy_30k)], "qt-rows", {}),
            }
            if gpodder_30k is not None:
                gpodder_home = folder / "gpodder"
                shutil.copytree(gpodder_30k, gpodder_home)
                programs["gPodder 30k"] = (["gpodder"], "gtk-rows:treeAvailable",
                                           {"GPODDER_HOME": str(gpodder_home), "HOME": str(gpodder_home)})
            times: dict[str, list[Started]] = {name: [] for name in programs}
            for round_ in range(args.runs + 1):
                line = []
                for name, (command, probe, extra) in programs.items():
                    run = start(command, screen.env(f"{round_}-{name}", STARTUP_PROBE=probe, **extra))
                    line.append(f"{name} {run.seconds:.3f} s ({run.rows:,} rows, {run.rss_mb:.0f} MB)")
                    if round_:
                        times[name].append(run)
                print(f"  {'round ' + str(round_) if round_ else 'warm-up':<8} " + "; ".join(line))
            mark_relations_done(big_copy)
            memory = start([str(EARMARK), "--library", str(big_copy)],
                           screen.env("memory", STARTUP_PROBE="qt-rows", STARTUP_PROBE_MEMORY="1"), stages=3)
            if args.importtime:
                importtime(big_copy, screen.env("importtime"))
        print_summary(times, memory)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


def print_summary(times: dict[str, list[Started]], memory: Started) -> None:
    medians = {name: _median([run.seconds for run in runs]) for name, runs in times.items()}
    ratios = [ours.seconds / bare.seconds for ours, bare in zip(times["Earmark 100k"], times["bare Qt"], strict=True)]
    ratio = _median(ratios)
    print(f"\nsummary (medians of {len(ratios)} round(s); load average now {os.getloadavg()[0]:.2f})")
    for name, seconds in medians.items():
        fastest = min(run.seconds for run in times[name])
        print(f"  {name:<14} {seconds:6.3f} s to the first painted frame (min {fastest:.3f})")
    print(f"  Earmark 100k ÷ bare Qt: {ratio:.2f}× (per round: {', '.join(f'{r:.2f}' for r in ratios)})   "
          f"target ≤ {TARGET_RATIO:g}×: {_verdict(ratio, TARGET_RATIO)}; goal ≤ {GOAL_RATIO:g}×: "
          f"{_verdict(ratio, GOAL_RATIO)}")
    if "gPodder 30k" in medians:
        print(f"  Earmark 30k ÷ gPodder 30k: {medians['Earmark 30k'] / medians['gPodder 30k']:.2f}×")
    painted, settled, scrolled = memory.reports
    print(f"  memory, Earmark 100k (relations marked worked out): {painted['VmRSS']:.0f} MB at the first paint, "
          f"{settled['VmRSS']:.0f} MB 3 s later (≤ {TARGET_START_MB}: "
          f"{_verdict(float(settled['VmRSS']), TARGET_START_MB)}), "
          f"{scrolled['VmRSS']:.0f} MB after scrolling {scrolled['rows']:,} rows in {scrolled['pages']} pages "
          f"(peak {scrolled['VmHWM']:.0f} MB; ≤ {TARGET_SCROLLED_MB}: "
          f"{_verdict(float(scrolled['VmHWM']), TARGET_SCROLLED_MB)})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="measured rounds (median)")
    parser.add_argument("--library", help="time Earmark on this library instead of the synthetic 100k one")
    parser.add_argument("--skip-gpodder", action="store_true", help="leave gPodder out")
    parser.add_argument("--importtime", action="store_true", help="also print the biggest imports of one start")
    return run_bench(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
