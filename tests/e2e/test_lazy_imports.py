"""What the real entry point imports, checked in a fresh interpreter: heavy parts load only when used.

Every start pays for every module it imports; these load only on first use: numpy, scikit-learn and igraph (the
topic graph), trafilatura (saving articles), Qt (the window), feedparser (a feed that changed), Pillow (a cover
fetched); click and pluggy (command-line and plugin libraries some dependencies bring) never; nor Ask's model
module with the settings that name its models.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from helpers.feed_server import FeedServer, rss

HEAVY = ("numpy", "sklearn", "scipy", "igraph", "trafilatura", "markdown_it", "PySide6", "feedparser", "click",
         "pluggy", "PIL")

RUN_ENTRY_POINT = """
import io, json, sys
from contextlib import redirect_stdout
from earmark.__main__ import main
heavy = json.loads(sys.argv[2])
sys.argv = ["earmark", *json.loads(sys.argv[1])]
with redirect_stdout(io.StringIO()) as out:
    try:
        code = main()
    except SystemExit as exit:  # argparse's --version
        code = exit.code
print(json.dumps({"code": code, "out": out.getvalue(), "loaded": sorted(m for m in heavy if m in sys.modules)}))
"""


def imported_by(*args: str, watched: tuple[str, ...] = HEAVY) -> dict[str, object]:
    """Run ``earmark ARGS`` through its entry point in a new interpreter; its exit code, output and which of the
    ``watched`` modules it imported."""
    env = {**os.environ, "PYTHONSAFEPATH": "1"}
    done = subprocess.run([sys.executable, "-c", RUN_ENTRY_POINT, json.dumps(args), json.dumps(watched)],
                          capture_output=True, text=True, timeout=120, check=False, env=env)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_version_imports_nothing_heavy() -> None:
    result = imported_by("--version")
    assert (result["code"], result["loaded"]) == (0, [])
    assert str(result["out"]).startswith("earmark ")


def test_an_unchanged_refresh_imports_nothing_heavy(tmp_path: Path) -> None:
    with FeedServer(tmp_path) as server:
        url = server.serve_feed("/show.xml", rss("Show", [{"title": "One", "guid": "1"}]), etag='"v1"')
        library = str(tmp_path / "library.db")
        assert imported_by("--library", library, "subscribe", url)["code"] == 0
        # Nor the parsers and the merge: a feed that answers 304 is only recorded as checked.
        result = imported_by("--library", library, "refresh", "--json",
                             watched=(*HEAVY, "earmark.core.feeds.parse", "earmark.core.db.merge", "nh3",
                                      "earmark.core.passages.model", "platform"))
    assert result["code"] == 0
    assert [outcome["status"] for outcome in json.loads(str(result["out"]))] == ["not_modified"]
    assert result["loaded"] == []
