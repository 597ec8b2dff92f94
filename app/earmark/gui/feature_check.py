"""PySide6's look at every module imported after it, made cheap.

Once PySide6 is loaded, each module imported in the process is read through ``inspect.getsource`` (which finds
the module's file among all loaded modules each time) to learn whether its source names "PySide6": such modules
may switch on PySide's ``__feature__`` options. About 130 modules are imported before Earmark's first frame, and
that look cost ~10 ms of it. The same answer comes from the file's bytes; anything that is not a plain ``.py``
file (built-in, compiled, zipped) still goes through PySide6's own check.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType


def make_feature_check_cheap() -> None:
    """Replace PySide6's check with one reading the module's file (nothing happens if PySide6 changed it)."""
    feature = sys.modules.get("shibokensupport.feature")
    original = getattr(feature, "_mod_uses_pyside", None)
    if feature is None or not callable(original) or getattr(original, "reads_file", False):
        return
    feature._mod_uses_pyside = source_names_pyside(original)  # type: ignore[attr-defined]


def source_names_pyside(fallback: Callable[[ModuleType], bool]) -> Callable[[ModuleType], bool]:
    """Whether a module's source file holds "PySide6" (``fallback`` for a module without a .py file)."""
    def uses_pyside(module: ModuleType) -> bool:
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and path.endswith(".py"):
            try:
                with open(path, "rb") as source:
                    return b"PySide6" in source.read()
            except OSError:
                pass
        return fallback(module)

    uses_pyside.reads_file = True  # type: ignore[attr-defined]
    return uses_pyside
