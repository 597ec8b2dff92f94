"""sqlite-utils, imported before anything else imports it, with numpy hidden from it.

sqlite-utils imports numpy whenever numpy is installed (scikit-learn, for the topic graph, brings it), only to
map numpy's number types in its table API, which Earmark does not use. That made every start of the window and
of every command import numpy (~40 ms). Hidden while sqlite-utils loads, numpy stays importable for the code
that needs it, and loads only when that code runs.
"""

from __future__ import annotations

import sys


def import_sqlite_utils() -> None:
    """Import sqlite-utils without letting it import numpy (unless either is imported already)."""
    if "sqlite_utils" in sys.modules or "numpy" in sys.modules:
        return
    sys.modules["numpy"] = None  # type: ignore[assignment]  # None in sys.modules: `import numpy` fails
    try:
        import sqlite_utils  # noqa: F401  # loaded here: every later import finds it in sys.modules
    finally:
        if sys.modules.get("numpy", ...) is None:
            del sys.modules["numpy"]
