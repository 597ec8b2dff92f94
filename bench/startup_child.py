"""One start-up measured in a fresh process for bench/startup.py: prints one JSON line, then exits at once."""

# Kept to the cheapest standard modules before the measured imports: everything here counts in the figures.
from __future__ import annotations

import os
import resource
import sys
import time
from collections.abc import Callable
from typing import Any

T0 = float(os.environ.get("EARMARK_BENCH_T0", "0") or time.time())  # the parent's clock just before spawning
MARKER = "EARMARK-BENCH "
TIMEOUT_S = 120.0
marks: dict[str, float] = {"python": time.time() - T0}
spans: list[tuple[str, float, float]] = []


def since_exec() -> float:
    """Seconds since the kernel started this process (10 ms resolution: /proc/self/stat field 22)."""
    with open("/proc/self/stat", encoding="ascii") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    start_ticks = int(fields[19])  # field 22; the fields after the command name start at field 3
    return time.clock_gettime(time.CLOCK_BOOTTIME) - start_ticks / os.sysconf("SC_CLK_TCK")


def peak_rss_mb() -> float:
    """This process's peak resident set size in MiB (VmHWM, in KiB in /proc/self/status)."""
    with open("/proc/self/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def report(**extra: Any) -> None:
    """Print the figures and leave without tearing anything down (teardown is not start-up)."""
    import json

    elapsed, own = time.time() - T0, since_exec()
    # Linux carries the parent's peak across fork and execve into ru_maxrss (signal->maxrss), so a parent that
    # built a big library would inflate it; VmHWM is the peak of this process's own address space.
    maxrss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    record = {"elapsed": elapsed, "since_exec": own, "rss_mb": peak_rss_mb(), "ru_maxrss_mb": maxrss_mb,
              "marks": marks, "spans": spans, **extra}
    sys.stdout.write(MARKER + json.dumps(record) + "\n")
    sys.stdout.flush()
    os._exit(0)


def fail(message: str) -> None:
    """Report a run that did not reach the populated window."""
    report(error=message)


def timed(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` recording its (start, end) since spawn in ``spans`` (for ``--profile``; works in any thread)."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.time() - T0
        try:
            return fn(*args, **kwargs)
        finally:
            spans.append((name, start, time.time() - T0))

    return wrapper


def run_floor() -> None:
    """A bare QApplication and an empty QMainWindow, until its first paint is done."""
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication, QMainWindow

    marks["imports"] = time.time() - T0
    app = QApplication([sys.argv[0]])
    marks["qapp"] = time.time() - T0
    window = QMainWindow()
    window.resize(1280, 800)

    class PaintWatch(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
            if event.type() == QEvent.Type.Paint and "painted" not in marks:
                marks["painted"] = time.time() - T0
                QTimer.singleShot(0, lambda: report(rows=0))  # once the paint itself has finished
            return False

    watch = PaintWatch()
    window.installEventFilter(watch)
    window.show()
    marks["shown"] = time.time() - T0
    QTimer.singleShot(int(TIMEOUT_S * 1000), lambda: fail("the window was never painted"))
    app.exec()


def run_earmark(library: str, expected_rows: int, vlc_args: tuple[str, ...], profile: bool) -> None:
    """The real main window as ``earmark`` builds it, until the list is loaded, the sidebar filled and the
    list's first rows painted."""
    import logging
    from pathlib import Path

    import earmark.__main__  # noqa: F401 - what the ``earmark`` entry point imports first (earmark.cli and its command groups)

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    from PySide6.QtCore import QEvent, QObject, QTimer

    import earmark.gui.application as appmod

    marks["imports"] = time.time() - T0
    if profile:
        _instrument(appmod)
    app = appmod.application()
    marks["qapp"] = time.time() - T0
    parts = appmod.build(Path(library), vlc_args=vlc_args)
    marks["build"] = time.time() - T0
    window = parts.window
    model, sidebar = window.items_model, window.sidebar_model
    state = {"loaded": False, "painted_since_loaded": False, "done": False}

    def check() -> None:
        if state["done"] or not state["loaded"] or sidebar.rowCount() == 0:
            return
        if model.rowCount() != expected_rows:
            fail(f"the list shows {model.rowCount()} rows, expected {expected_rows}")
        if "populated" not in marks:
            marks["populated"] = time.time() - T0
        if state["painted_since_loaded"]:
            state["done"] = True
            first = model.data(model.index(0, 0))  # cached by the paint; read to be sure the rows are there
            if not first:
                fail("the first row has no title")
            report(rows=model.rowCount(), sidebar_rows=sidebar.rowCount(), first_title=first)

    def on_loaded() -> None:
        marks.setdefault("loaded", time.time() - T0)
        state["loaded"] = True
        QTimer.singleShot(0, check)

    def on_sidebar(*_args: object) -> None:
        if sidebar.rowCount() and "sidebar" not in marks:
            marks["sidebar"] = time.time() - T0
            QTimer.singleShot(0, check)

    class PaintWatch(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
            if event.type() == QEvent.Type.Paint and state["loaded"] and not state["painted_since_loaded"]:
                state["painted_since_loaded"] = True
                marks["painted"] = time.time() - T0
                QTimer.singleShot(0, check)  # once the paint (and its data() calls) has finished
            return False

    model.loaded.connect(on_loaded)
    sidebar.rowsInserted.connect(on_sidebar)
    watch = PaintWatch()
    window.item_list.viewport().installEventFilter(watch)
    window.show()
    marks["shown"] = time.time() - T0
    QTimer.singleShot(int(TIMEOUT_S * 1000), lambda: fail(f"not populated after {TIMEOUT_S:g} s: {marks}"))
    app.exec()


def _instrument(appmod: Any) -> None:
    """Time build()'s steps and the workers' queries, by wrapping the names the app looks up."""
    import earmark.gui.mainwindow.window as windowmod
    import earmark.gui.models.items as itemsmod
    import earmark.gui.tasks as tasksmod

    for name in ("open_library", "create_player", "TaskRunner", "MainWindow"):
        setattr(appmod, name, timed(name, getattr(appmod, name)))
    for module, name, label in ((tasksmod, "open_library", "worker open_library"),
                                (itemsmod, "item_ids", "worker item_ids"),
                                (itemsmod, "items_by_ids", "items_by_ids (page)"),
                                (windowmod, "read_sidebar", "worker read_sidebar"),
                                (windowmod, "get_item", "get_item (detail)"),
                                (windowmod.MainWindow, "_on_sidebar", "_on_sidebar"),
                                (windowmod.MainWindow, "_on_items_loaded", "_on_items_loaded"),
                                (itemsmod.ItemListModel, "_apply", "ItemListModel._apply")):
        setattr(module, name, timed(label, getattr(module, name)))

def main() -> None:
    """``startup_child.py floor`` or ``startup_child.py earmark LIBRARY ROWS [VLC_ARG...]``; the environment
    variable EARMARK_BENCH_PROFILE=1 times build()'s steps and the workers' queries too."""
    if sys.argv[1] == "floor":
        run_floor()
    else:
        profile = os.environ.get("EARMARK_BENCH_PROFILE") == "1"
        run_earmark(sys.argv[2], int(sys.argv[3]), tuple(sys.argv[4:]), profile)


if __name__ == "__main__":
    main()
