"""``earmark find`` against the local directory server, and ``earmark setting`` reading and setting settings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.cli import Cli
from helpers.directory_server import KEY, SECRET, DirectoryServer, Listing
from helpers.feed_server import FeedServer, rss

TORCH = Listing("PyTorch Developer Podcast", "https://feeds.example.com/pytorch.xml", author="Edward Yang",
                image="https://img.example.com/pytorch.jpg", episodes=83, itunes_id=1566080008,
                guid="b5a3f0c2-0000-4000-8000-000000000001")
TORCH_ELSEWHERE = Listing("PyTorch Dev Podcast", "http://www.feeds.example.com/pytorch.xml", only_in=("fyyd",),
                          episodes=80)
FIELDS = {"title", "author", "feed_url", "image", "episodes", "directory", "subscribed"}


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "library.db", capsys)


@pytest.fixture
def directories(cli: Cli) -> Iterator[DirectoryServer]:
    with DirectoryServer([TORCH, TORCH_ELSEWHERE]) as server:
        for key, value in server.settings().items():
            assert cli("setting", key, value) == (0, value + "\n", "")
        yield server


def test_find_asks_apple_by_default_and_prints_the_contract_fields(cli: Cli, directories: DirectoryServer) -> None:
    [found] = cli.json("find", "pytorch")
    assert FIELDS <= set(found)
    assert (found["title"], found["author"], found["feed_url"], found["image"], found["episodes"],
            found["directory"], found["subscribed"]) == (TORCH.title, TORCH.author, TORCH.feed_url, TORCH.image, 83,
                                                         "apple", False)
    assert {a.directory for a in directories.asked} == {"apple"}


def test_several_directories_list_one_podcast_once(cli: Cli, directories: DirectoryServer) -> None:
    found = cli.json("find", "pytorch", "--directory", "apple", "--directory", "fyyd", "--directory", "gpodder")
    assert [(f["title"], f["directory"], f["also_in"]) for f in found] == [(TORCH.title, "apple", ["fyyd", "gpodder"])]


def test_a_directory_that_is_down_is_one_sentence_while_the_others_answer(cli: Cli,
                                                                          directories: DirectoryServer) -> None:
    directories.down("apple")
    code, out, err = cli("find", "pytorch", "--directory", "apple", "--directory", "gpodder", "--json")
    assert code == 0
    assert err == "earmark: Apple Podcasts answered with HTTP error 503 (Service Unavailable).\n"
    assert [f["directory"] for f in json.loads(out)] == ["gpodder"]
    code, out, err = cli("find", "pytorch")  # Apple alone: nothing answered
    assert code == 1 and out == "" and "Apple Podcasts answered with HTTP error 503" in err


def test_podcast_index_is_asked_with_the_key_and_secret_kept(cli: Cli, directories: DirectoryServer,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    code, _out, err = cli("find", "pytorch", "--directory", "podcastindex")
    assert code == 1 and "Podcast Index needs your own API key and secret" in err
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO("wrong-secret\n"))
    assert cli("directory-secret", KEY, "--store-in-library")[0] == 0
    code, _out, err = cli("find", "pytorch", "--directory", "podcastindex")
    assert code == 1 and "Podcast Index refused the search (HTTP 401)" in err
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO(SECRET + "\n"))
    assert cli("directory-secret", KEY)[0] == 0
    [found] = cli.json("find", "pytorch", "--directory", "podcastindex")
    assert found["directory"] == "podcastindex" and found["feed_url"] == TORCH.feed_url


def test_find_says_which_podcasts_are_subscribed_already(cli: Cli, directories: DirectoryServer,
                                                         tmp_path: Path) -> None:
    with FeedServer(tmp_path) as feeds:
        url = feeds.serve_body("/torch.xml", rss("PyTorch", [{"title": "E", "guid": "e"}]))
        directories.catalogue[0].feed_url = url
        assert cli("subscribe", url.replace("http://", "HTTP://"))[0] == 0
    [found] = cli.json("find", "pytorch")
    assert found["subscribed"] is True
    code, out, _err = cli("find", "pytorch")
    assert code == 0 and out.splitlines() == [f"{TORCH.title} — Edward Yang (83 episodes, latest 2024-05-13, "
                                              "subscribed)", f"    {url}"]


GUID = "917393e3-1b1e-5cef-ace4-edaa54e1f810"


def _subscribed_otherwise(feeds: FeedServer, how: str) -> tuple[str, str]:
    """A podcast served to be subscribed by one address and listed in the directories by another, joined as
    ``how`` says: the addresses (subscribed, listed)."""
    listed, home = feeds.url("listed.xml"), feeds.url("home.xml")
    declared = b'<rss xmlns:atom="http://www.w3.org/2005/Atom" xmlns:podcast="https://podcastindex.org/namespace/1.0" '
    tags = {"a redirect": "", "a redirect when subscribing": "",
            "its self link": f'<atom:link rel="self" href="{listed}"/>',
            "its new-feed-url": f"<itunes:new-feed-url>{home}</itunes:new-feed-url>",
            "its podcast:guid": f"<podcast:guid>{GUID}</podcast:guid>"}[how]
    body = rss("PyTorch", [{"title": "E", "guid": "e"}]).replace(b"<rss ", declared)
    feeds.serve_body("home.xml", body.replace(b"<channel>", b"<channel>" + tags.encode()))
    if how == "a redirect":  # subscribed at listed.xml, which then moved for good (refreshed below)
        return feeds.serve_body("listed.xml", body), listed
    if how == "a redirect when subscribing":  # listed.xml had moved for good before it was subscribed to
        return feeds.serve_redirect("listed.xml", "home.xml", 301), listed
    if how == "its new-feed-url":
        return feeds.serve_body("listed.xml", body.replace(b"<channel>", b"<channel>" + tags.encode())), listed
    return home, listed if how == "its self link" else feeds.url("elsewhere.xml")


@pytest.mark.parametrize("how", ["a redirect", "a redirect when subscribing", "its self link", "its new-feed-url",
                                 "its podcast:guid"])
def test_a_podcast_subscribed_by_another_of_its_addresses_is_subscribed(cli: Cli, directories: DirectoryServer,
                                                                        tmp_path: Path, how: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The directories name the podcast by an address the library knows it by (a redirect's old one, the one typed
    that redirected, its feed's self link or new-feed-url) or by its podcast:guid (Podcast Index), not the one it
    is stored at."""
    with FeedServer(tmp_path) as feeds:
        subscribed, listed = _subscribed_otherwise(feeds, how)
        assert cli("subscribe", subscribed)[0] == 0
        if how == "a redirect":
            feeds.serve_redirect("listed.xml", "home.xml", 301)
            assert cli("refresh")[0] == 0
    [stored] = cli.json("sources")
    assert stored["url"] != listed  # known by the listed address, not stored at it
    directories.catalogue[0].feed_url, directories.catalogue[0].guid = listed, GUID
    directories.catalogue[1].feed_url = "https://other.example.com/another.xml"
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO(SECRET + "\n"))
    assert cli("directory-secret", KEY, "--store-in-library")[0] == 0
    found = cli.json("find", "pytorch", "--directory", "podcastindex", "--directory", "fyyd")
    assert [(f["feed_url"], f["subscribed"]) for f in found] == [(listed, True),
                                                                  ("https://other.example.com/another.xml", False)]


def test_setting_reads_sets_and_refuses_with_a_sentence(cli: Cli) -> None:
    assert cli("setting", "directory.apple") == (0, "yes\n", "")
    assert cli("setting", "directory.fyyd", "on") == (0, "yes\n", "")
    assert cli("setting", "playback.speed", "1.5") == (0, "1.5\n", "")
    assert cli("setting", "playback.speed") == (0, "1.5\n", "")
    code, _out, err = cli("setting", "playback.speed", "fast")
    assert code == 1 and "'fast' is not a value playback.speed can take (a number from 0.5 to 4)" in err
    code, _out, err = cli("setting", "directory.apple_ur")
    assert code == 1 and "no setting called 'directory.apple_ur'. Did you mean directory.apple_url" in err
    assert cli("setting", "appearance.theme", "dark") == (0, "dark\n", "")  # this desktop's, not the library's
    code, _out, err = cli("setting", "appearance.theme", "purple")
    assert code == 1 and "one of system, light, dark" in err


def test_the_installed_command_finds_against_the_local_server(tmp_path: Path) -> None:
    """The real process, as a person runs it."""
    earmark = Path(sys.executable).with_name("earmark")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    library = ["--library", str(tmp_path / "library.db")]
    with DirectoryServer([TORCH]) as server:
        subprocess.run([earmark, *library, "setting", "directory.apple_url", server.base_url("apple")], check=True,
                       env=env, capture_output=True)
        done = subprocess.run([earmark, *library, "find", "pytorch", "developer", "--json"], env=env,
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert [f["title"] for f in json.loads(done.stdout)] == [TORCH.title]
