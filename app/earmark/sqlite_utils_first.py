"""sqlite-utils, imported before anything else imports it, at the cost of what Earmark uses of it.

sqlite-utils imports numpy whenever numpy is installed (the topic graph brings it), only to map numpy's number
types in its table API, which Earmark does not use: hidden while sqlite-utils loads, numpy stays importable for
the code that needs it, and loads only when that code runs. Its date recipes import dateutil's parser (~15 ms
of every start), which Earmark never calls: it loads on first use (importlib's LazyLoader; a library that needs it,
htmldate under trafilatura, imports it by name, which loads it at once). And it looks for plugins in every
installed package's entry points at the first connection (~15 ms): Earmark opens its library with no sqlite-utils
plugins, whatever is installed beside it (a plugin's ``prepare_connection`` would change every connection). Its own
regular expressions are compiled when first used: one of them (virtual tables' names, case-insensitive over most of
Unicode) took ~10 ms of every start to compile, and Earmark never uses it.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from typing import Any

ON_FIRST_USE = ("dateutil.parser",)


def import_sqlite_utils() -> None:
    """Import sqlite-utils without letting it import numpy (unless either is imported already)."""
    if "sqlite_utils" in sys.modules or "numpy" in sys.modules:
        return
    for name in ON_FIRST_USE:
        _load_on_first_use(name)
    sys.modules["numpy"] = None  # type: ignore[assignment]  # None in sys.modules: `import numpy` fails
    re.compile = _compile_on_first_use  # type: ignore[assignment]
    try:
        import sqlite_utils.plugins  # loaded here: every later import finds it in sys.modules

        sqlite_utils.plugins._plugins_loaded = True  # no plugins: see the module docstring
    finally:
        re.compile = _COMPILE
        if sys.modules.get("numpy", ...) is None:
            del sys.modules["numpy"]


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
