"""Feed refresh benchmark: 300 realistic podcast feeds on a local server, refreshed into a fresh library.

The feeds are RSS 2.0 with the iTunes namespace, each item with a title, guid, link, pubDate, enclosure,
itunes:duration and a few hundred bytes of HTML show notes: 10 feeds of 1,000 items, 50 of 200 and 240 of 50.
Five of them answer only after 1.5 s and three are broken (HTTP 500, HTTP 404, malformed XML). Every feed has
an ETag and answers a matching If-None-Match with 304; bodies are gzipped when the client asks, as real hosts do.
The server (bench/feed_server.py) runs in a child process, so it does not compete for the bench's GIL.

Printed, never asserted:

1. the first full refresh of the 300 feeds (``Refresher().refresh`` in this process): seconds, items stored,
   items/s and the outcomes;
2. a steady-state refresh where 290 feeds answer 304 and 10 have one new item, plus references: the same
   through ``python -m earmark refresh --jsonl`` (what the window runs), all 300 answering 304, and all 300
   answering 304 with the 5 slow feeds slow again;
3. the time ``store_feed`` takes to write an unchanged 1,000-item feed, and the same feed with 10 changed items;
4. the longest UI-thread stall while the real main window refreshes every feed of a library that has the
   subscriptions but no items yet (a child process: this script with ``--gui-child``).

    .venv/bin/python bench/refresh.py              # the issue's figures, 3 runs (about 3 minutes on 2 cores)
    .venv/bin/python bench/refresh.py --quick      # 30 feeds, a smoke run
    .venv/bin/python bench/refresh.py --runs 3 --skip-gui
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from feed_server import PLANS, SLOW_DELAY, FeedSpec, ServerProcess, feed_body, feed_specs, write_opml

if TYPE_CHECKING:
    from earmark.core.db.database import Database
    from earmark.core.models import FeedData

SCRIPT = Path(__file__).resolve()
MARKER = "EARMARK-BENCH "
STALL_TICK_MS = 5  # the UI probe's timer interval
GUI_SETTLE_MS = 1500  # after show(), before the refresh starts: the window's own start-up is not measured
GUI_TAIL_MS = 1500  # after the refresh finished: the final reload of the lists counts too
WRITE_REPEATS = 20
TARGETS = {"first": 15.0, "mostly_304": 1.0, "write_ms": 15.0, "stall_ms": 50.0}


# The library -------------------------------------------------------------------------------------------------


def make_template(folder: Path, server: ServerProcess, specs: list[FeedSpec]) -> Path:
    """A library with every feed subscribed (through OPML import) and nothing fetched yet; no refresh on start."""
    from earmark.core.db.connection import open_library
    from earmark.core.feeds.subscriptions import import_opml, read_opml_file
    from earmark.core.settings import set_setting

    opml, path = folder / "subscriptions.opml", folder / "template.db"
    write_opml(opml, server, specs)
    db = open_library(path)
    try:
        result = import_opml(db, read_opml_file(opml))
        set_setting(db, "feeds.refresh_on_start", False)
        set_setting(db, "feeds.refresh_interval", 0)
    finally:
        db.close()  # the last connection: SQLite checkpoints and removes the WAL, so a file copy is whole
    if len(result.added) != len(specs):
        raise RuntimeError(f"the OPML import subscribed {len(result.added)} of {len(specs)} feeds")
    return path


def fresh_copy(template: Path, path: Path) -> Path:
    """``template`` copied to ``path`` (replacing it and its WAL files)."""
    for leftover in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        leftover.unlink(missing_ok=True)
    shutil.copyfile(template, path)
    return path


@contextmanager
def library(path: Path) -> Iterator[Database]:
    from earmark.core.db.connection import open_library

    db = open_library(path)
    try:
        yield db
    finally:
        db.close()


def count_items(db: Database) -> int:
    return int(db.execute("SELECT count(*) FROM items").fetchone()[0])


# Phases 1 and 2: refreshes -------------------------------------------------------------------------------------


@dataclass(slots=True)
class Refreshed:
    """One timed refresh: wall seconds (targets query, fetches, parses, writes, pool shutdown) and outcomes."""

    seconds: float
    statuses: Counter[str]
    new: int
    warnings: int = 0
    cpu: float = 0.0  # this process's CPU seconds (all its threads; the parsing processes are not counted)

    def outcome_text(self) -> str:
        parts = [f"{count} {status}" for status, count in sorted(self.statuses.items())]
        return ", ".join(parts) + (f" ({self.warnings} ok with a warning)" if self.warnings else "")


def timed_refresh(db: Database) -> Refreshed:
    """``Refresher().refresh(db, feed_targets(db))`` as the CLI runs it, timed from the targets query to the
    parsing processes' shutdown."""
    from earmark.core.db.sources import feed_targets
    from earmark.core.feeds.refresh import Refresher

    cpu, started = time.process_time(), time.perf_counter()
    with Refresher() as refresher:
        outcomes = refresher.refresh(db, feed_targets(db))
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    return Refreshed(seconds, Counter(outcome.status for outcome in outcomes),
                     sum(len(outcome.new) for outcome in outcomes),
                     sum(outcome.warning is not None for outcome in outcomes), cpu)


def timed_cli_refresh(path: Path) -> Refreshed:
    """The refresh the window starts: ``python -m earmark --library PATH refresh --jsonl``, from spawn to exit."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "earmark", "--library", str(path), "refresh", "--jsonl"],
                          capture_output=True, text=True, timeout=300, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"earmark refresh failed ({done.returncode}): {done.stderr[-2000:]}")
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    outcomes = [line for line in lines if "status" in line]
    return Refreshed(seconds, Counter(str(line["status"]) for line in outcomes),
                     sum(int(line["new"]) for line in outcomes))


def first_refreshes(runs: int, template: Path, work: Path, server: ServerProcess) -> list[tuple[Refreshed, int]]:
    """Phase 1, ``runs`` times on a fresh copy of the template: (refresh, items stored). ``work`` keeps the
    last run's library."""
    results = []
    for run in range(runs):
        server.stage(0, slow=True, broken=True)
        with library(fresh_copy(template, work)) as db:
            refreshed = timed_refresh(db)
            results.append((refreshed, count_items(db)))
        print(f"  run {run + 1}: {refreshed.seconds:6.2f} s, {results[-1][1]:,} items, {refreshed.outcome_text()}; "
              f"CPU of this process {refreshed.cpu:.1f} s")
    return results


@dataclass(slots=True)
class Steady:
    """Phase 2's refreshes of one run."""

    changed: Refreshed
    cli: Refreshed
    all_304: Refreshed
    slow_304: Refreshed


class Versions:
    """The changed feeds' version on the server: each bump gives each of them one new item."""

    def __init__(self, server: ServerProcess) -> None:
        self._server = server
        self.current = 0

    def bump(self) -> None:
        self.current += 1
        self._server.stage(self.current, slow=False, broken=False)

    def hold(self, slow: bool = False) -> None:
        self._server.stage(self.current, slow=slow, broken=False)


def steady_refreshes(runs: int, work: Path, server: ServerProcess) -> list[Steady]:
    """Phase 2: after one unmeasured refresh with the broken feeds mended (so every feed has an ETag), refreshes
    where the changed feeds have one new item each, or nothing changed."""
    versions = Versions(server)
    results = []
    with library(work) as db:
        versions.hold()
        settle = timed_refresh(db)
        print(f"  settling refresh (broken feeds mended, not slow; not counted): {settle.seconds:.2f} s, "
              f"{settle.outcome_text()}")
        for run in range(runs):
            versions.bump()
            changed = timed_refresh(db)
            versions.bump()
            cli = timed_cli_refresh(work)
            versions.hold()
            all_304 = timed_refresh(db)
            versions.hold(slow=True)
            slow_304 = timed_refresh(db)
            results.append(Steady(changed, cli, all_304, slow_304))
            print(f"  run {run + 1}: changed {changed.seconds:.3f} s ({changed.outcome_text()}; {changed.new} new), "
                  f"via CLI {cli.seconds:.3f} s ({cli.new} new), all 304 {all_304.seconds:.3f} s, "
                  f"all 304 + slow {slow_304.seconds:.3f} s")
    return results


# Phase 3: writes -------------------------------------------------------------------------------------------------


def with_changes(feed: FeedData, count: int, mark: str) -> FeedData:
    """``feed`` with the first ``count`` entries' title and show notes edited."""
    entries = [dataclasses.replace(entry, title=f"{entry.title} ({mark})",
                                   description=f"{entry.description}<p>{mark}</p>")
               if number < count else entry for number, entry in enumerate(feed.entries)]
    return dataclasses.replace(feed, entries=entries)


def _ms(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


@dataclass(slots=True)
class Writes:
    parse_ms: float
    unchanged_ms: float
    changed_ms: float
    items: int


def time_writes(work: Path, server: ServerProcess, spec: FeedSpec) -> Writes:
    """Phase 3 on the refreshed library: ``store_feed`` of a parsed 1,000-item feed that is already stored
    (median of 20), then of the same feed with 10 items edited (alternately edited and restored: each write
    changes 10 items; median of 20)."""
    from earmark.core.db.merge import CacheState, store_feed
    from earmark.core.feeds.fetch import body_hash
    from earmark.core.feeds.parse import parse_feed

    body, url = feed_body(spec), server.url(spec)
    parsed: list[FeedData] = []
    parse_ms = _ms(lambda: parsed.append(parse_feed(body, url, "application/rss+xml; charset=utf-8")))
    feed, cache = parsed[0], CacheState(f'"{spec.index}.0"', None, body_hash(body))
    edited = with_changes(feed, 10, "edited")
    with library(work) as db:
        store_feed(db, url, feed, cache)
        unchanged = [_ms(partial(store_feed, db, url, feed, cache)) for _ in range(WRITE_REPEATS)]
        changed = [_ms(partial(store_feed, db, url, version, cache))
                   for _ in range(WRITE_REPEATS // 2) for version in (edited, feed)]
        result = store_feed(db, url, feed, cache)
    if result.new or result.updated:
        raise RuntimeError(f"the unchanged feed changed: {len(result.new)} new, {len(result.updated)} updated")
    return Writes(parse_ms, statistics.median(unchanged), statistics.median(changed), len(feed.entries))


# Phase 4: the window's UI thread during a refresh (a child process) ---------------------------------------------


class StallProbe:
    """A precise 5 ms Qt timer on the UI thread; a tick that comes late shows how long the thread was held up.

    Each tick also notes the UI thread's and the whole process's CPU time, to tell a stall the app caused (the
    UI thread working, or waiting for the GIL while another thread of the process works) from one the machine
    caused (the process not scheduled because other processes had the cores)."""

    def __init__(self) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.ticks: list[tuple[float, float, float]] = []
        self._timer = QTimer()
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(STALL_TICK_MS)
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        self.ticks.append((time.perf_counter(), time.thread_time(), time.process_time()))

    def start(self) -> None:
        self.ticks = []
        self._tick()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def report(self, started: float) -> dict[str, object]:
        """Lateness of each tick (the gap since the previous tick minus the interval) in ms, with the CPU time
        the UI thread and the process used during the worst gap."""
        gaps = [((end[0] - begin[0]) * 1000 - STALL_TICK_MS, end[0], (end[1] - begin[1]) * 1000,
                 (end[2] - begin[2]) * 1000) for begin, end in zip(self.ticks, self.ticks[1:], strict=False)]
        if not gaps:
            return {"ticks": 0}
        late = [gap[0] for gap in gaps]
        worst = max(gaps)
        return {"ticks": len(late), "max_ms": worst[0], "p99_ms": statistics.quantiles(late, n=100)[98],
                "worst_at_s": worst[1] - started,
                "worst_ui_cpu_ms": worst[2], "worst_process_cpu_ms": worst[3],
                "max_ui_cpu_ms": max(gap[2] for gap in gaps)}


def gui_child(path: Path, timeout: float) -> None:
    """``--gui-child LIBRARY``: the real main window refreshes every feed while a StallProbe watches its UI
    thread; prints one JSON line with the figures, then closes the window."""
    from PySide6.QtCore import QTimer

    from earmark.gui.application import application, build

    app = application()
    window = build(path, vlc_args=("--aout=dummy",)).window
    probe = StallProbe()
    state: dict[str, Any] = {"started": 0.0, "finished": None}

    def start() -> None:
        probe.start()
        state["started"] = time.perf_counter()
        window.feeds.refresh_all()

    def finished(summary: Any) -> None:
        state["finished"] = time.perf_counter()
        state["summary"] = {"total": summary.total, "checked": summary.checked, "new": summary.new,
                            "failed": summary.failed, "error": summary.error}
        QTimer.singleShot(GUI_TAIL_MS, stop)

    def stop() -> None:
        probe.stop()
        if state["finished"] is None:
            state["error"] = f"the refresh did not finish within {timeout:g} s"
        state["report"] = probe.report(state["started"])
        window.close()
        app.quit()

    window.feeds.refresher.finished.connect(finished)
    window.show()
    QTimer.singleShot(GUI_SETTLE_MS, start)
    QTimer.singleShot(int(timeout * 1000), stop)
    app.exec()
    seconds = state["finished"] - state["started"] if state["finished"] is not None else None
    record = {**state.get("report", {}), "seconds": seconds, "summary": state.get("summary"),
              "error": state.get("error")}
    print(MARKER + json.dumps(record), flush=True)


def gui_refresh(template: Path, work: Path, server: ServerProcess, timeout: float) -> dict[str, Any]:
    """Phase 4, once: a fresh copy of the template (subscriptions, no items), refreshed by the window."""
    server.stage(0, slow=True, broken=True)
    fresh_copy(template, work)
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    done = subprocess.run([sys.executable, str(SCRIPT), "--gui-child", str(work), "--timeout", str(timeout)],
                          capture_output=True, text=True, env=env, timeout=timeout + 60, check=False)
    for line in done.stdout.splitlines():
        if line.startswith(MARKER):
            record: dict[str, Any] = json.loads(line[len(MARKER):])
            if record.get("error"):
                raise RuntimeError(f"GUI refresh: {record['error']}")
            return record
    raise RuntimeError(f"the GUI child did not report (exit code {done.returncode}):\n{done.stderr[-3000:]}")


def gui_refreshes(runs: int, template: Path, work: Path, server: ServerProcess, timeout: float) -> list[dict[str, Any]]:
    results = []
    for run in range(runs):
        record = gui_refresh(template, work, server, timeout)
        summary = record["summary"]
        print(f"  run {run + 1}: refresh {record['seconds']:.2f} s ({summary['checked']} of {summary['total']} "
              f"checked, {summary['new']:,} new, {summary['failed']} failed); longest stall "
              f"{record['max_ms']:.1f} ms at {record['worst_at_s']:.2f} s (UI thread CPU in it "
              f"{record['worst_ui_cpu_ms']:.0f} ms, process CPU {record['worst_process_cpu_ms']:.0f} ms), p99 "
              f"{record['p99_ms']:.1f} ms, {record['ticks']:,} ticks; longest UI-thread CPU between two ticks "
              f"{record['max_ui_cpu_ms']:.0f} ms")
        results.append(record)
    return results


# The report ------------------------------------------------------------------------------------------------------


def _groups(specs: list[FeedSpec], which: Callable[[FeedSpec], bool]) -> str:
    counts = Counter(spec.items for spec in specs if which(spec))
    return ", ".join(f"{count} × {items:,}" for items, count in sorted(counts.items(), reverse=True))


def print_header(specs: list[FeedSpec], server: ServerProcess, runs: int) -> None:
    stats = server.stats()
    total = sum(spec.items for spec in specs)
    broken = ", ".join(f"HTTP {spec.broken}" if spec.broken != "malformed" else "malformed XML"
                       for spec in specs if spec.broken)
    print(f"feeds     {len(specs)} on http://127.0.0.1:{server.port}/ (a server in a child process): "
          f"{_groups(specs, lambda _spec: True)} items = {total:,} items")
    print(f"          {stats['plain'] / 1e6:.1f} MB of RSS ({stats['gzip'] / 1e6:.1f} MB gzipped, as sent); "
          f"ETag on every feed, 304 on If-None-Match")
    print(f"          slow ({SLOW_DELAY:g} s): {_groups(specs, lambda spec: spec.slow)} items; "
          f"broken: {broken}")
    print(f"          changed in phase 2 (one new item each): {_groups(specs, lambda spec: spec.changed)} items")
    print(f"machine   {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; python {sys.version.split()[0]}; "
          f"{runs} run(s) of each phase\n")


def _spread(values: list[float], unit: str, digits: int) -> str:
    text = f"{statistics.median(values):.{digits}f} {unit}"
    return text if len(values) == 1 else f"{text} (min {min(values):.{digits}f})"


def _line(label: str, values: list[float], unit: str, digits: int, extra: str, target: float) -> str:
    verdict = "met" if statistics.median(values) < target else "NOT met"
    goal = f"< {target:g} {unit}"
    return f"  {label:<34} {_spread(values, unit, digits):<24} {extra:<26} {goal:<9} {verdict}"


def print_summary(specs: list[FeedSpec], firsts: list[tuple[Refreshed, int]], steadies: list[Steady],
                  writes: list[Writes], guis: list[dict[str, Any]]) -> None:
    changed = sum(spec.changed for spec in specs)
    seconds = [refreshed.seconds for refreshed, _items in firsts]
    rates = [items / refreshed.seconds for refreshed, items in firsts]
    print(f"\nsummary ({len(firsts)} run(s): the median, and the minimum when more than one)")
    print(f"  {'':<34} {'figure':<24} {'':<26} target")
    print(_line(f"first full refresh, {len(specs)} feeds", seconds, "s", 2,
                f"{statistics.median(rates):,.0f} items/s", TARGETS["first"]))
    print(_line(f"{len(specs) - changed} × 304 + {changed} × one new item", [s.changed.seconds for s in steadies],
                "s", 3, f"all 304: {statistics.median([s.all_304.seconds for s in steadies]):.3f} s",
                TARGETS["mostly_304"]))
    print(_line(f"unchanged {writes[0].items:,}-item feed write", [w.unchanged_ms for w in writes], "ms", 1,
                f"10 changed: {statistics.median([w.changed_ms for w in writes]):.1f} ms", TARGETS["write_ms"]))
    if guis:
        print(_line("longest UI-thread stall", [g["max_ms"] for g in guis], "ms", 1,
                    f"p99 {statistics.median([g['p99_ms'] for g in guis]):.1f}, UI CPU "
                    f"{statistics.median([g['max_ui_cpu_ms'] for g in guis]):.0f} ms", TARGETS["stall_ms"]))
        print(f"  {'':<34} (UI CPU: the longest UI-thread CPU time between two ticks, the app's own share of a stall)")
    else:
        print(f"  {'longest UI-thread stall':<34} (skipped: --skip-gui)")


def run_bench(args: argparse.Namespace) -> int:
    plan = "refresh-quick" if args.quick else "refresh"
    specs = feed_specs(PLANS[plan])
    folder = Path(tempfile.mkdtemp(prefix="earmark-refresh-bench-"))
    server: ServerProcess | None = None
    try:
        server = ServerProcess(plan)
        print_header(specs, server, args.runs)
        template, work = make_template(folder, server, specs), folder / "library.db"
        print("1. first full refresh of every feed (Refresher().refresh in this process, a fresh library each run)")
        firsts = first_refreshes(args.runs, template, work, server)
        print("\n2. steady state: changed feeds have one new item, the others answer 304 (same library)")
        steadies = steady_refreshes(args.runs, work, server)
        print("   (via CLI: `python -m earmark refresh --jsonl` as the window runs it, interpreter start-up included; "
              "slow: the slow feeds wait again)")
        big = max((spec for spec in specs if not (spec.slow or spec.broken)),
                  key=lambda spec: (spec.items, not spec.changed))
        print(f"\n3. store_feed of the {big.items:,}-item feed {big.index} into the refreshed library")
        writes = [time_writes(work, server, big) for _ in range(args.runs)]
        for run, measured in enumerate(writes, 1):
            print(f"  run {run}: parse (once) {measured.parse_ms:.0f} ms; write unchanged {measured.unchanged_ms:.1f} "
                  f"ms, with 10 items changed {measured.changed_ms:.1f} ms (medians of {WRITE_REPEATS})")
        guis: list[dict[str, Any]] = []
        if not args.skip_gui:
            print("\n4. the main window refreshes every feed of a library with the subscriptions and no items "
                  f"(first-refresh conditions), {STALL_TICK_MS} ms probe timer on the UI thread")
            guis = gui_refreshes(args.runs, template, work, server, args.timeout)
        print_summary(specs, firsts, steadies, writes, guis)
        print(f"\nload average at the end {os.getloadavg()[0]:.2f} (other work on the machine slows every figure)")
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="repeat each timed phase N times (median and min)")
    parser.add_argument("--quick", action="store_true", help="30 feeds instead of 300 (a smoke run)")
    parser.add_argument("--skip-gui", action="store_true", help="leave out phase 4 (the window's UI stall)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds the window's refresh may take")
    parser.add_argument("--gui-child", type=Path, metavar="LIBRARY", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.gui_child is not None:
        gui_child(args.gui_child, args.timeout)
        return 0
    return run_bench(args)


if __name__ == "__main__":
    sys.exit(main())
