"""gPodder, a real peer: the OPML file `gpo export` writes (gPodder 3.11, kept in tests/fixtures/opml) imports
into Earmark with its titles and addresses, and the OPML Earmark writes imports into gPodder's `gpo` (when
Debian's gpodder package is installed; the test says so and skips otherwise)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers.cli import Cli
from helpers.feed_server import FeedServer, rss

GPODDER_EXPORT = Path(__file__).parents[2] / "fixtures" / "opml" / "gpodder-3.11-export.opml"
GPODDER_FEEDS = {  # what gPodder had: its titles (one renamed by its user) and addresses
    "https://feeds.simplecast.com/OB5FkIl8": "PyTorch Developer Podcast",
    "https://feeds.example.com/qa?x=1&y=2": "Q&A <live> \"quoted\" 'single'",
    "https://jp.example/podcast.xml": "My Japanese show (renamed)",
    "file:///home/ana/podcasts/recordings.xml": "Home recordings",
}
ENTRIES = [{"title": "One", "guid": "1", "enclosure": "https://cdn.example.com/1.mp3"}]


def test_gpodders_export_imports_with_titles_and_addresses(cli: Cli) -> None:
    code, out, err = cli("import-opml", str(GPODDER_EXPORT), "--no-refresh")
    assert (code, out, err) == (0, "4 new subscriptions, 0 already subscribed.\n", "")
    assert {source["url"]: source["title"] for source in cli.json("sources")} == GPODDER_FEEDS


def gpo(home: Path, *args: str) -> str:
    """Run gPodder's command line on its own data folder; what it printed."""
    result = subprocess.run(["gpo", *args], env={**os.environ, "GPODDER_HOME": str(home)}, capture_output=True,
                            text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.mark.skipif(shutil.which("gpo") is None, reason="gPodder's gpo is not installed (Debian: apt install gpodder)")
def test_earmarks_opml_imports_into_gpodder(cli: Cli, feed_server: FeedServer, tmp_path: Path) -> None:
    shows = {"Alpha & Omega": "/alpha.xml", "日本のポッドキャスト 🎧": "/jp.xml", "Deep one": "/deep.xml"}
    urls = {title: feed_server.serve_body(path, rss(title, ENTRIES)) for title, path in shows.items()}
    local = tmp_path / "recordings.xml"
    local.write_bytes(rss("Home recordings", ENTRIES))
    for url in [*urls.values(), str(local)]:
        assert cli("subscribe", url)[0] == 0
    deep = next(s["id"] for s in cli.json("sources") if s["title"] == "Deep one")
    # in two folders, one nested: its outline is written twice, which gPodder takes as one subscription
    assert cli("tag-source", str(deep), "podcasts", "tech", "tech/deep & nested")[0] == 0
    exported = tmp_path / "earmark.opml"
    assert cli("export-opml", str(exported))[0] == 0

    home = tmp_path / "gpodder"
    gpo(home, "import", str(exported))
    listed = gpo(home, "list").splitlines()
    assert len(listed) == 2 * 4  # each feed once, the one written in two folders too
    titles = {url: title.removeprefix("# ") for title, url in zip(listed[::2], listed[1::2], strict=True)}
    assert titles == {**{url: title for title, url in urls.items()}, local.as_uri(): "Home recordings"}
