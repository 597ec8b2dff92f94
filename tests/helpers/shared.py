"""Where ``../shared`` is: the developers' fixtures, seeds and tools beside the repository. A user's clone has
none, and the suite passes or skips with a reason without it: ``EARMARK_SHARED=none`` runs it as it runs there
(``EARMARK_SHARED=PATH`` names another folder)."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
SHARED_ENV = "EARMARK_SHARED"


def shared_dir() -> Path:
    """The shared folder; it may not exist."""
    given = os.environ.get(SHARED_ENV, "")
    if given.lower() == "none":
        return REPO_ROOT / "no-shared-folder"  # never there: as in a user's clone
    return Path(given).resolve() if given else (REPO_ROOT / ".." / "shared").resolve()
