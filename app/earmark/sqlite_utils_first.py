"""sqlite-utils, imported before anything else imports it, at the cost of what Earmark uses of it.

sqlite-utils imports numpy whenever numpy is installed (the topic graph brings it), only to map numpy's number
types in its table API, which Earmark does not use: hidden while sqlite-utils loads, numpy stays importable for
the code that needs it, and loads only when that code runs. Its date recipes import dateutil's parser (~15 ms
of every start), which Earmark never calls: it loads on first use (importlib's LazyLoader; a library that needs it,
htmldate under trafilatura, imports it by name, which loads it at once). And it looks for plugins in every
installed package's entry points at the first connection (~15 ms): Earmark opens its library with no sqlite-utils
plugins, whatever is installed beside it (a plugin's ``prepare_connection`` would change every connection), so its
plugin machinery is inert here, and neither pluggy nor click (for the hooks' declarations, and its progress bars,
which load it when they are used) is imported at start (~10 ms). Its own regular expressions are compiled when
first used: one of them (virtual tables' names, case-insensitive over most of Unicode) took ~10 ms of every start
to compile, and Earmark never uses it.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from types import ModuleType, SimpleNamespace
from typing import Any

ON_FIRST_USE = ("dateutil.parser",)


def import_sqlite_utils() -> None:
    """Import sqlite-utils without letting it import numpy (unless either is imported already)."""
    if "sqlite_utils" in sys.modules or "numpy" in sys.modules:
        return
    for name in ON_FIRST_USE:
        _load_on_first_use(name)
    sys.modules["numpy"] = None  # type: ignore[assignment]  # None in sys.modules: `import numpy` fails
    _inert_plugins()
    click = _on_first_use("click")
    sys.modules.setdefault("click", click)
    re.compile = _compile_on_first_use  # type: ignore[assignment]
    try:
        import sqlite_utils  # noqa: F401  # loaded here: every later import finds it in sys.modules
    finally:
        re.compile = _COMPILE
        if sys.modules.get("click") is click:
            del sys.modules["click"]  # a later import of click loads the real one
        if sys.modules.get("numpy", ...) is None:
            del sys.modules["numpy"]


def _on_first_use(name: str) -> ModuleType:
    """A stand-in for module ``name`` that imports it when one of its names is first used (its dunder names are
    not the module's to give: ``hasattr(stand_in, "__wrapped__")``, as PySide6's look at imports asks, is False)."""
    stand_in = ModuleType(name)

    def real_name(attribute: str) -> object:
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        if sys.modules.get(name) is stand_in:
            del sys.modules[name]
        return getattr(importlib.import_module(name), attribute)

    stand_in.__getattr__ = real_name  # type: ignore[method-assign]
    return stand_in


def _inert_plugins() -> None:
    """sqlite-utils's plugin machinery, inert: no plugin is looked for or called (see the module docstring)."""
    hookspecs = ModuleType("sqlite_utils.hookspecs")
    hookspecs.hookspec = hookspecs.hookimpl = lambda function=None, **_options: function  # type: ignore[attr-defined]
    plugins = ModuleType("sqlite_utils.plugins")
    plugins.pm = SimpleNamespace(hook=SimpleNamespace(prepare_connection=lambda conn: None))  # type: ignore[attr-defined]
    plugins.ensure_plugins_loaded = lambda: None  # type: ignore[attr-defined]
    plugins.get_plugins = lambda: []  # type: ignore[attr-defined]
    sys.modules.setdefault(hookspecs.__name__, hookspecs)
    sys.modules.setdefault(plugins.__name__, plugins)


class _OnFirstUse:
    """A regular expression compiled the first time one of its methods or attributes is used."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._pattern, self._flags = pattern, flags
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        if self._compiled is None:
            self._compiled = _COMPILE(self._pattern, self._flags)
        return getattr(self._compiled, name)


_COMPILE = re.compile


def _compile_on_first_use(pattern: str, flags: int = 0) -> Any:
    """re.compile while sqlite-utils loads: its own patterns on first use, those of what it imports at once."""
    caller = sys._getframe(1).f_globals.get("__name__", "")
    return _OnFirstUse(pattern, flags) if caller.startswith("sqlite_utils") else _COMPILE(pattern, flags)


def _load_on_first_use(name: str) -> None:
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        return
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)
