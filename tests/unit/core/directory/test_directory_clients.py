"""Each directory's client against a local server speaking its documented API; merging their answers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from earmark.core.db.database import Database
from earmark.core.directory.apple import AppleDirectory, apple_id
from earmark.core.directory.client import DirectoryError
from earmark.core.directory.configured import (
    DirectorySpec,
    directory_specs,
    open_directory,
    search_all,
    secret_key,
)
from earmark.core.directory.fyyd import FyydDirectory
from earmark.core.directory.gpodder import GpodderDirectory
from earmark.core.directory.podcastindex import PodcastIndexDirectory
from earmark.core.directory.results import DirectoryResult, merged
from earmark.core.secrets.store import Secrets
from earmark.core.settings import set_setting
from helpers.directory_server import KEY, SECRET, DirectoryServer, Listing
from helpers.feed_server import FeedServer

TORCH = Listing("PyTorch Developer Podcast", "https://feeds.example.com/pytorch.xml", author="Edward Yang",
                image="https://img.example.com/pytorch.jpg", episodes=83, description="Deep dives into PyTorch.",
                guid="b5a3f0c2-0000-4000-8000-000000000001", itunes_id=1566080008)
LEX = Listing("Lex Fridman Podcast", "https://lexfridman.com/feed/podcast/", author="Lex Fridman",
              itunes_id=1434243584, genre="1304", category="Education", episodes=400)


@pytest.fixture
def directories() -> Iterator[DirectoryServer]:
    with DirectoryServer([TORCH, LEX]) as server:
        yield server


def test_apple_search_reads_the_itunes_search_api(directories: DirectoryServer) -> None:
    [found] = AppleDirectory(directories.base_url("apple")).search("pytorch")
    assert (found.title, found.author, found.feed_url, found.image) == (TORCH.title, TORCH.author, TORCH.feed_url,
                                                                        TORCH.image)
    assert (found.episodes, found.latest, found.itunes_id, found.directory) == (83, "2024-05-13T10:00:00Z",
                                                                                 TORCH.itunes_id, "apple")
    [asked] = directories.asked
    assert asked.path == "/search" and asked.query["media"] == "podcast" and asked.query["term"] == "pytorch"


def test_apple_charts_and_pages_resolve_through_lookup(directories: DirectoryServer) -> None:
    apple = AppleDirectory(directories.base_url("apple"))
    assert [r.title for r in apple.popular()] == [TORCH.title, LEX.title]
    assert [r.feed_url for r in apple.popular("1304")] == [LEX.feed_url]  # Education
    page = f"https://podcasts.apple.com/gb/podcast/pytorch-developer-podcast/id{TORCH.itunes_id}?i=100"
    assert apple_id(page) == TORCH.itunes_id and apple_id("https://example.com/id12") is None
    assert apple.feed_of_page(page) == TORCH.feed_url
    with pytest.raises(DirectoryError, match="knows no feed"):
        apple.feed_of_page("https://podcasts.apple.com/us/podcast/gone/id999")


def test_podcast_index_signs_each_request_and_reads_its_answers(directories: DirectoryServer) -> None:
    index = PodcastIndexDirectory(KEY, SECRET, directories.base_url("podcastindex"))
    [found] = index.search("pytorch")
    assert (found.title, found.feed_url, found.guid, found.episodes, found.description) == (
        TORCH.title, TORCH.feed_url, TORCH.guid, 83, TORCH.description)
    assert [r.title for r in index.popular("Education")] == [LEX.title]
    headers = directories.asked[0].headers
    assert {"X-Auth-Key", "X-Auth-Date", "Authorization", "User-Agent"} <= set(headers)


def test_podcast_index_refuses_a_wrong_secret_and_says_to_check_it(directories: DirectoryServer) -> None:
    with pytest.raises(DirectoryError, match=r"Podcast Index refused the search \(HTTP 401\).*key and secret"):
        PodcastIndexDirectory(KEY, "not-the-secret", directories.base_url("podcastindex")).search("pytorch")
    with pytest.raises(DirectoryError, match="needs your own API key and secret"):
        PodcastIndexDirectory("", "", directories.base_url("podcastindex")).search("pytorch")
    assert len(directories.asked) == 1  # without a key nothing is sent


def test_fyyd_and_gpodder_search_and_the_toplist(directories: DirectoryServer) -> None:
    [found] = FyydDirectory(directories.base_url("fyyd")).search("lex")
    assert (found.title, found.feed_url, found.episodes, found.latest) == (LEX.title, LEX.feed_url, 400,
                                                                            "2024-05-13T10:00:00Z")
    [found] = GpodderDirectory(directories.base_url("gpodder")).search("pytorch developer")
    assert (found.title, found.feed_url, found.image, found.directory) == (TORCH.title, TORCH.feed_url,
                                                                           TORCH.image, "gpodder")
    assert [r.title for r in GpodderDirectory(directories.base_url("gpodder")).popular()] == [TORCH.title, LEX.title]
    assert FyydDirectory(directories.base_url("fyyd")).search("nothing like it") == []


def test_a_directory_that_is_down_or_slow_is_one_sentence(directories: DirectoryServer) -> None:
    directories.down("fyyd")
    with pytest.raises(DirectoryError, match=r"^fyyd answered with HTTP error 503"):
        FyydDirectory(directories.base_url("fyyd")).search("lex")
    directories.slow("gpodder", 2)
    specs = [DirectorySpec("gpodder", directories.base_url("gpodder")), DirectorySpec("apple",
                                                                                        directories.base_url("apple"))]
    answers = list(search_all(specs, "lex"))
    assert answers[0][0].name == "apple" and [r.title for r in answers[0][1]] == [LEX.title]  # the first to answer
    with pytest.raises(DirectoryError, match="gpodder.net could not be reached: the connection timed out"):
        open_directory(DirectorySpec("gpodder", directories.base_url("gpodder"), timeout=0.5)).search("lex")


def test_the_same_podcast_from_several_directories_is_listed_once() -> None:
    answers = [
        DirectoryResult("PyTorch", "https://feeds.example.com/pytorch.xml", "apple", itunes_id=1),
        DirectoryResult("Other", "https://other.example.com/feed", "apple"),
        DirectoryResult("PyTorch Dev", "http://www.feeds.example.com/pytorch.xml/", "fyyd", episodes=83),
        DirectoryResult("PyTorch (moved)", "https://new.example.com/pytorch", "podcastindex", guid="G-1",
                        itunes_id=1, description="About PyTorch"),
        DirectoryResult("PyTorch again", "https://third.example.com/p", "gpodder", guid="g-1"),
    ]
    first, other = merged(answers)
    assert (first.title, first.feed_url, first.episodes, first.description) == (
        "PyTorch", "https://feeds.example.com/pytorch.xml", 83, "About PyTorch")
    assert first.also_in == ("fyyd", "podcastindex", "gpodder") and other.title == "Other"


def test_the_settings_choose_the_directories_and_their_addresses(library: Database,
                                                                 directories: DirectoryServer) -> None:
    assert [s.name for s in directory_specs(library)] == ["apple"]  # the default: Apple alone
    for key, value in {**directories.settings(), "directory.podcastindex": True, "directory.gpodder": True,
                       "directory.podcastindex_key": KEY, "secrets.store_in_library": True}.items():
        set_setting(library, key, value)
    Secrets(library).set(secret_key(KEY), SECRET)
    specs = directory_specs(library)
    assert [s.name for s in specs] == ["apple", "podcastindex", "gpodder"]
    assert specs[1].key == KEY and specs[1].secret == SECRET
    assert all(s.base_url == directories.base_url(s.name) for s in specs)
    found = {spec.name: answer for spec, answer in search_all(specs, "pytorch")}
    assert {name: [r.title for r in answer] for name, answer in found.items()} == {  # type: ignore[union-attr]
        "apple": [TORCH.title], "podcastindex": [TORCH.title], "gpodder": [TORCH.title]}
    with pytest.raises(DirectoryError, match="no directory called 'itunes'"):
        directory_specs(library, ["itunes"])


@pytest.mark.parametrize(("body", "sentence"), [
    (b"<html>Service moved</html>", "Apple Podcasts did not answer in JSON as its API does"),
    (b'{"results": "none"}', "Apple Podcasts answered without a list of podcasts"),
    (b'[1, 2]', "Apple Podcasts answered without a list of podcasts"),
])
def test_an_answer_not_shaped_as_documented_is_a_sentence(tmp_path: Path, body: bytes, sentence: str) -> None:
    with FeedServer(tmp_path) as server:
        server.serve_body("/apple/search", body, "application/json")
        with pytest.raises(DirectoryError, match=sentence):
            AppleDirectory(server.url("/apple")).search("pytorch")


def test_odd_fields_in_an_answer_are_left_out_not_fatal(tmp_path: Path) -> None:
    rows = [{"collectionName": ["not", "text"], "feedUrl": "https://a.example/feed", "trackCount": "12",
             "releaseDate": "not a date", "collectionId": True},
            {"collectionName": "No feed"}, "not an object"]
    with FeedServer(tmp_path) as server:
        server.serve_body("/apple/search", json.dumps({"results": rows}).encode(), "application/json")
        [found] = AppleDirectory(server.url("/apple")).search("x")
    assert (found.title, found.feed_url, found.episodes, found.latest, found.itunes_id) == (
        "", "https://a.example/feed", 12, "", None)
