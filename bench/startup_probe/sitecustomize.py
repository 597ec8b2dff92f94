"""The start-up probe: Python loads this module at start in every program bench/startup.py times (the bench puts
this folder first on PYTHONPATH). It reports the moment the program's window first shows what it is timed to
show, as one line on standard output (``STARTUP-PROBE {json}``), and changes nothing else in the program.

STARTUP_PROBE says what to wait for (anything else, or nothing: the probe does nothing):

- ``qt-window``: the end of the first paint of a QMainWindow (a bare window);
- ``qt-rows``: the end of the first paint of a visible QTableView's viewport in a QMainWindow while its model has
  rows (Earmark's list showing its first page);
- ``gtk-rows:NAME``: the end of the first draw of the Gtk.TreeView built as NAME while it has rows (gPodder's
  episode list is ``treeAvailable``).

With STARTUP_PROBE_MEMORY=1 (Qt), the probe then waits STARTUP_PROBE_SETTLE seconds (default 3: what a start
does after its first paint happens meanwhile) and reports again, then scrolls the list to its end a page at a time
(each page painted) and reports a third time, with the 95th percentile and the longest of those pages' frames
(the scroll, the paint and the events it brought), and the 95th percentile of the UI thread's own CPU time in them
(what a busy machine's waits leave out). Each report has the process's VmRSS and VmHWM in MiB. With
STARTUP_PROBE_PROFILE=FILE the scroll runs under cProfile, its statistics written to FILE (``pstats``).
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
import time

TYPE_CHECKING = False  # typing itself costs 2 ms: imported only by type checkers
if TYPE_CHECKING:
    from typing import Any

MODE = os.environ.get("STARTUP_PROBE", "")
MARKER = "STARTUP-PROBE "


def _memory() -> dict[str, float]:
    found = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0]) / 1024
    return found


def _report(stage: str, **extra: Any) -> None:
    clock = time.time()  # before the probe's own import below: a program that has not loaded json would pay it
    import json  # here, not at start: the probe's own imports would count in every figure

    record = {"stage": stage, "clock": clock, **_memory(), **extra}
    os.write(1, (MARKER + json.dumps(record) + "\n").encode())


# Qt ----------------------------------------------------------------------------------------------------------


def _watch_qt(widgets: Any) -> None:
    """Patch QWidget.show and QApplication.exec (called from Python by the program): exec, before the event loop
    paints anything, installs an event filter on what is timed: the first main window shown, or the viewports
    of its tables (or, when no main window was shown, on the whole application).

    Only what is timed is watched: a filter written in Python on the whole application is called for every event
    of every object, and PySide6 makes the Python type, with all its enums, of each kind of object it hands the
    filter (~25 ms of a window's first frame): work the program does not do when it is not watched. Installed
    last, the filter is called before the program's own filters on the same objects, so that its report comes
    before what the program does once its first frame is painted."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    state: dict[str, Any] = {"window": None, "done": False, "tables": []}

    class FirstPaint(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
            if state["done"] or event.type() != QEvent.Type.Paint:
                return False
            view = _painted_view(widgets, watched)
            if view is not None:
                state["done"] = True
                QTimer.singleShot(0, lambda: _after_paint(widgets, view))  # once this paint has finished
            return False

    def timed_parts(window: Any) -> list[Any]:
        if window is None:
            return [widgets.QApplication.instance()]
        if MODE == "qt-window":
            return [window]
        viewports = [table.viewport() for table in state["tables"] if table.window() is window]
        return viewports or [widgets.QApplication.instance()]  # no table yet: one may come later

    show, run, set_model = widgets.QWidget.show, widgets.QApplication.exec, widgets.QTableView.setModel

    def patched_set_model(self: Any, model: Any) -> None:
        # The tables are known as they are given their model: window.findChildren(QTableView) would make a Python
        # object, and the Python type of its class, for every QObject in the window (~7 ms of Earmark's first frame
        # for its actions, models and widgets), which the program itself never makes.
        state["tables"].append(self)
        set_model(self, model)

    def patched_show(self: Any) -> None:
        if state["window"] is None and isinstance(self, widgets.QMainWindow):
            state["window"] = self
        show(self)

    def patched_exec(*args: Any) -> int:
        if "filter" not in state:
            state["filter"] = FirstPaint()
            for part in timed_parts(state["window"]):
                part.installEventFilter(state["filter"])
        return int(run(*args))

    widgets.QWidget.show = patched_show
    widgets.QTableView.setModel = patched_set_model
    widgets.QApplication.exec = staticmethod(patched_exec)  # exec() is static in PySide6


def _painted_view(widgets: Any, watched: Any) -> Any:
    """The widget whose paint counts (or None): the main window itself, or a list viewport with rows."""
    if MODE == "qt-window":
        return watched if isinstance(watched, widgets.QMainWindow) else None
    view = watched.parent() if isinstance(watched, widgets.QWidget) else None
    if not isinstance(view, widgets.QTableView) or view.viewport() is not watched or not view.isVisible():
        return None
    model = view.model()
    if model is None or model.rowCount() == 0 or not isinstance(view.window(), widgets.QMainWindow):
        return None
    return view


def _after_paint(widgets: Any, view: Any) -> None:
    rows = view.model().rowCount() if isinstance(view, widgets.QAbstractItemView) else 0
    _report("painted", rows=rows)
    if os.environ.get("STARTUP_PROBE_MEMORY") == "1" and rows:
        from PySide6.QtCore import QTimer

        settle = float(os.environ.get("STARTUP_PROBE_SETTLE", "3"))
        QTimer.singleShot(int(settle * 1000), lambda: _settled_then_scroll(widgets, view))


def _settled_then_scroll(widgets: Any, view: Any) -> None:
    _report("settled")
    started, bar, pages, frames, cpu = time.time(), view.verticalScrollBar(), 0, [], []
    profiled = os.environ.get("STARTUP_PROBE_PROFILE")  # a file: the scroll's cProfile statistics go there
    if profiled:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    while bar.value() < bar.maximum():
        frame, frame_cpu = time.perf_counter(), time.thread_time()
        bar.setValue(bar.value() + max(bar.pageStep(), 1))
        view.viewport().repaint()  # paints now: every page's rows are read, as a person scrolling sees them
        widgets.QApplication.processEvents()
        frames.append(time.perf_counter() - frame)
        cpu.append(time.thread_time() - frame_cpu)  # the UI thread's own work, whatever else the machine runs
        pages += 1
    if profiled:
        profiler.disable()
        profiler.dump_stats(profiled)
    _report("scrolled", pages=pages, seconds=time.time() - started, rows=view.model().rowCount(),
            frame_p95_ms=_p95(frames) * 1000, frame_max_ms=max(frames, default=0.0) * 1000,
            frame_cpu_p95_ms=_p95(cpu) * 1000)


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] if ordered else 0.0


# GTK ---------------------------------------------------------------------------------------------------------


def _watch_gtk(name: str) -> None:
    import gi  # type: ignore[import-not-found]  # Debian's python3-gi, beside gPodder

    gi.require_version("Gtk", "3.0")  # what gPodder asks for, before it imports Gtk itself
    from gi.repository import GLib, GObject, Gtk  # type: ignore[import-not-found]

    state = {"done": False}

    def on_draw(widget: Any, *_args: Any) -> bool:
        model = widget.get_model()
        if not state["done"] and Gtk.Buildable.get_name(widget) == name and model is not None \
                and model.iter_n_children(None) > 0:
            state["done"] = True
            rows = model.iter_n_children(None)
            GLib.idle_add(_report_once, rows)  # once this draw has finished
        return True  # keep the hook

    GObject.add_emission_hook(Gtk.TreeView, "draw", on_draw)


def _report_once(rows: int) -> bool:
    _report("painted", rows=rows)
    return False  # an idle callback that is not called again


# Waiting for the program to import its toolkit ---------------------------------------------------------------


class _AfterImport:
    """A meta path finder and loader: lets the program import PySide6.QtWidgets itself, then patches it (the probe
    imports no Qt before, and nothing costly: importlib.machinery is loaded already at start)."""

    def __init__(self) -> None:
        self._loader: Any = None

    def find_spec(self, name: str, path: Any, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if name != "PySide6.QtWidgets":
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None:
            return None
        self._loader, spec.loader = spec.loader, self  # type: ignore[assignment]  # a loader without the ABC
        return spec

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self._loader.exec_module(module)
        _watch_qt(module)


if MODE.startswith("qt-"):
    sys.meta_path.insert(0, _AfterImport())
elif MODE.startswith("gtk-rows:"):
    _watch_gtk(MODE.partition(":")[2])
