"""`earmark download` and `earmark downloads` against podcast hosting as it really fails: an error page is not
stored as the episode, the bytes a cut connection left in a .part file are reported (``received``, the disk
total), and a feed cannot choose the file's extension."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.settings import set_setting
from helpers.audio import write_tone
from helpers.cli import Cli
from helpers.fault_server import Enclosure, PodcastHost

MIB = 2**20


@pytest.fixture
def host(tmp_path: Path) -> Iterator[PodcastHost]:
    with PodcastHost(tmp_path / "host") as running:
        yield running


@pytest.fixture
def episodes(cli: Cli, host: PodcastHost, tmp_path: Path) -> dict[str, int]:
    """A podcast whose episodes fail as hosting does; item ids by title."""
    audio = write_tone(tmp_path / "ep.wav", 2.0).read_bytes()
    big = write_tone(tmp_path / "big.wav", 200.0).read_bytes()  # 3.2 MB
    feed = host.feed("/feed.xml", [
        Enclosure("Good", host.episode("/good.wav", audio), "audio/wav", len(audio)),
        Enclosure("Ep html", host.error_page("/ep.mp3"), "audio/mpeg", 240_222),
        Enclosure("Cut", host.episode("/cut.wav", big, cut_at=2 * MIB, ranges=False), "audio/wav", len(big)),
        Enclosure("Script", host.episode("/x.sh", audio, content_type="audio/mpeg"), "audio/mpeg", len(audio)),
    ])
    db = open_library(cli.library)
    set_setting(db, "downloads.folder", str(tmp_path / "downloads"))
    set_setting(db, "downloads.retries", 0)
    assert cli("subscribe", feed)[0] == 0
    return {item["title"]: item["id"] for item in cli.json("list")}


def test_hosting_failures_from_the_command_line(cli: Cli, episodes: dict[str, int], tmp_path: Path) -> None:
    code, _out, err = cli("download", *map(str, episodes.values()))
    assert code == 1
    records = {record["item_id"]: record for record in cli.json("downloads")}
    good, page, cut, script = (records[episodes[title]] for title in ("Good", "Ep html", "Cut", "Script"))
    assert good["status"] == "done"

    # A CDN's error page (200 text/html) is not the episode.
    assert page["status"] == "failed"
    assert page["error"] == "“Ep html” could not be downloaded: the server sent a web page instead of the audio."
    assert not Path(str(page["path"])).exists() and str(page["error"]) in err

    # What a cut connection left is kept, and reported.
    held = Path(f"{cut['path']}.part").stat().st_size
    assert cut["status"] == "failed" and held == 2 * MIB and cut["received"] == held
    on_disk = Path(str(good["path"])).stat().st_size + Path(str(script["path"])).stat().st_size + held
    assert cli("downloads")[1].splitlines()[-1].startswith(f"{on_disk / MIB:.1f} MiB on disk")

    # The feed says x.sh: the file is named for its type, audio/mpeg.
    assert Path(str(script["path"])).suffix == ".mp3" and script["status"] == "done"


def test_a_stub_far_smaller_than_the_feed_announces_is_refused(cli: Cli, host: PodcastHost, tmp_path: Path) -> None:
    stub = write_tone(tmp_path / "stub.wav", 1.0).read_bytes()  # 16 KB: "this episode is not available"
    feed = host.feed("/feed.xml", [Enclosure("Stubbed", host.episode("/stub.wav", stub), "audio/wav", 48_000_000),
                                   Enclosure("Re-encoded", host.episode("/half.wav", stub), "audio/wav",
                                             2 * len(stub))])  # a length that is only approximate
    set_setting(open_library(cli.library), "downloads.folder", str(tmp_path / "downloads"))
    assert cli("subscribe", feed)[0] == 0
    ids = {item["title"]: item["id"] for item in cli.json("list")}
    code, _out, err = cli("download", str(ids["Stubbed"]), str(ids["Re-encoded"]))
    records = {record["item_id"]: record for record in cli.json("downloads")}
    stubbed, half = records[ids["Stubbed"]], records[ids["Re-encoded"]]
    sentence = ("“Stubbed” could not be downloaded: the server sent 16 KB, far less than the 48.0 MB the feed "
                "announces (a cut-off file or a stand-in, not the episode).")
    assert code == 1 and sentence in err and (stubbed["status"], stubbed["error"]) == ("failed", sentence)
    assert not Path(str(stubbed["path"])).exists() and not Path(f"{stubbed['path']}.part").exists()
    assert half["status"] == "done" and Path(str(half["path"])).read_bytes() == stub
