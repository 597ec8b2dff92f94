"""First import in the window, beside the same import on the command line: 300 feeds / 30,000 episodes.

The feeds of bench/first_import.py (plan "import", served on 127.0.0.1 by a child process). Each round, on a new
library each time:

1. the window: the real ``earmark --library NEW subs.opml`` (a person opening the file with Earmark) under Xvfb.
   The window asks "Subscribe to the 300 feeds of subs.opml?" as it opens; the probe (bench/window_import_probe,
   first on the PYTHONPATH) waits 1 s as a person reads it (``--settle``), then presses Subscribe. The figure:
   from the press to the end of the import, when the status bar says "Imported: 300 of 300 feeds checked, 30,000
   new items." (the window runs ``earmark import-opml --jsonl --background`` in a child process and shows its
   progress per feed);
2. the command line: ``earmark --library NEW import-opml subs.opml --jsonl``, spawn to exit.

Printed, never asserted. Issue 20 times the import on the command line (bench/first_import.py, against gpo); this
says what a person waits in the window, where the import shares the machine with the window's own work.

    .venv/bin/python bench/window_import.py            # 3 rounds, about a minute on 2 cores
    .venv/bin/python bench/window_import.py --quick --runs 1
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from feed_server import ServerProcess, write_opml
from first_import import EARMARK, TIMEOUT, child_env, count_rows, run

PROBE = Path(__file__).resolve().parent / "window_import_probe"
MARKER = "WINDOW-IMPORT "


def window_import(folder: Path, opml: Path, display: str, settle: float) -> tuple[float, str, int]:
    """(seconds from the press of Subscribe to the end of the import, the status bar's sentence then, items)."""
    library = _new_library(folder)
    env = child_env(DISPLAY=display, QT_QPA_PLATFORM="xcb", WINDOW_IMPORT_PROBE="1", WINDOW_IMPORT_SETTLE=str(settle),
                    PYTHONPATH=os.pathsep.join(filter(None, [str(PROBE), os.environ.get("PYTHONPATH")])),
                    XDG_CONFIG_HOME=str(folder / "config"), XDG_DATA_HOME=str(folder / "data"))
    done = subprocess.run([str(EARMARK), "--library", str(library), str(opml)], capture_output=True, text=True,
                          env=env, timeout=TIMEOUT, check=False)
    records = [json.loads(line.removeprefix(MARKER)) for line in done.stdout.splitlines() if line.startswith(MARKER)]
    if not records or "error" in records[0]:
        raise RuntimeError(f"the window's import was not timed: {records or done.stderr[-3000:]}")
    record = records[0]
    return record["ended"] - record["pressed"], record["status"], count_rows(library, "items")


def command_import(folder: Path, opml: Path) -> tuple[float, int]:
    """(seconds from spawn to exit of ``earmark import-opml``, items)."""
    library = _new_library(folder)
    seconds, _out, _cpu, _deeper = run([str(EARMARK), "--library", str(library), "import-opml", str(opml),
                                        "--jsonl"], child_env())
    return seconds, count_rows(library, "items")


def _new_library(folder: Path) -> Path:
    for name in ("library.db", "library.db-wal", "library.db-shm"):
        (folder / name).unlink(missing_ok=True)
    for name in ("backups", "config", "data"):
        shutil.rmtree(folder / name, ignore_errors=True)
    return folder / "library.db"


def start_display() -> tuple[subprocess.Popen[bytes], str]:
    """An Xvfb of its own (the window needs a screen; the bench's machine may have none)."""
    display = f":{90 + os.getpid() % 100}"
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    return xvfb, display


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="30 feeds / 3,000 items instead of 300 / 30,000")
    parser.add_argument("--settle", type=float, default=1.0,
                        help="seconds between the question and the press of Subscribe (default 1)")
    args = parser.parse_args()
    xvfb, display = start_display()
    server = ServerProcess("import-quick" if args.quick else "import")
    folder = Path(tempfile.mkdtemp(prefix="earmark-window-import-"))
    try:
        opml = folder / "subs.opml"
        write_opml(opml, server, server.specs)
        print(f"feeds     {len(server.specs)}, Subscribe pressed {args.settle:g} s after the question; machine "
              f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
        window_times, command_times = [], []
        for number in range(args.runs):
            seconds, status, items = window_import(folder, opml, display, args.settle)
            window_times.append(seconds)
            print(f"  round {number + 1}  window {seconds:.2f} s ({items:,} items; “{status}”)", flush=True)
            seconds, items = command_import(folder, opml)
            command_times.append(seconds)
            print(f"           command line {seconds:.2f} s ({items:,} items)", flush=True)
        window, command = statistics.median(window_times), statistics.median(command_times)
        print(f"\nsummary (medians of {args.runs}; load average now {os.getloadavg()[0]:.2f})")
        print(f"  first import in the window  {window:.2f} s (from the press of Subscribe to “Imported: …”)")
        print(f"  the same on the command line {command:.2f} s (spawn to exit): the window's import takes "
              f"{window / command:.2f} × as long")
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
        xvfb.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
