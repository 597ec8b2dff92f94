"""The feed commands of the command line: refresh, import-opml, export-opml, set-credentials and sources.

In-process through ``earmark.cli.main`` (output captured), and through a real ``python -m earmark`` process
where stdin, stdout bytes and exit codes matter. Feeds come from a real HTTP server on 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime
from html import escape
from pathlib import Path

import pytest

from earmark.core.db.connection import open_library
from earmark.core.db.tags import tags_for_sources
from earmark.core.feeds.opml import read_opml
from helpers.cli import Cli, assert_failure
from helpers.feed_server import FeedServer, basic_auth, closed_port, fixtures_dir, rss

OUTCOME_KEYS = {"source_id", "url", "title", "status", "new", "updated", "error", "warning"}
STATUSES = {"ok", "not_modified", "error", "gone"}
SOURCE_FIELDS = {"id", "title", "url", "status", "last_error", "item_count", "last_checked"}
ENTRIES = [
    {"title": "First", "guid": "e1", "pubDate": "Mon, 01 Jan 2024 10:00:00 +0000",
     "enclosure": "https://example.com/e1.mp3", "description": "One."},
    {"title": "Second", "guid": "e2", "pubDate": "Tue, 02 Jan 2024 10:00:00 +0000",
     "enclosure": "https://example.com/e2.mp3", "description": "Two."},
    {"title": "Third", "guid": "e3", "pubDate": "Wed, 03 Jan 2024 10:00:00 +0000",
     "enclosure": "https://example.com/e3.mp3", "description": "Three."},
]
SUBPROCESS_TIMEOUT = 60


def _earmark(library: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m earmark --library LIBRARY ...`` in a real process."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).parents[3] / "app"),
                                                                      os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "earmark", "--library", str(library), *args], input=stdin,
                          capture_output=True, text=True, timeout=SUBPROCESS_TIMEOUT, env=env, check=False)


def _opml(outlines: str, title: str = "My subscriptions") -> str:
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0"><head><title>{escape(title)}</title>'
            f"</head><body>\n{outlines}\n</body></opml>\n")


def _outline(text: str, url: str) -> str:
    return f'<outline type="rss" text="{escape(text)}" xmlUrl="{escape(url)}"/>'


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _assert_outcomes(outcomes: list[dict[str, object]]) -> None:
    for outcome in outcomes:
        assert set(outcome) == OUTCOME_KEYS, set(outcome) ^ OUTCOME_KEYS
        assert outcome["status"] in STATUSES
        assert isinstance(outcome["source_id"], int) and isinstance(outcome["url"], str)
        assert isinstance(outcome["new"], int) and isinstance(outcome["updated"], int)
        assert (outcome["error"] is None) == (outcome["status"] in ("ok", "not_modified"))


@pytest.fixture
def feeds(feed_server: FeedServer, cli: Cli, tmp_path: Path) -> dict[str, str]:
    """Three subscriptions recorded by ``import-opml --no-refresh``: two good feeds and one answering 500."""
    urls = {
        "alpha": feed_server.serve_feed("/alpha.xml", rss("Alpha show", ENTRIES), etag='"a1"'),
        "beta": feed_server.serve_body("/beta.xml", rss("Beta show", ENTRIES[:2])),
        "broken": feed_server.serve_status("/broken.xml", 500),
    }
    titles = {"alpha": "Alpha show", "beta": "Beta show", "broken": "Broken show"}  # as the feeds call themselves
    opml = _write(tmp_path / "subs.opml", _opml("\n".join(_outline(titles[name], url) for name, url in urls.items())))
    code, out, err = cli("import-opml", str(opml), "--no-refresh")
    assert (code, out, err) == (0, "3 new subscriptions, 0 already subscribed.\n", "")
    assert feed_server.requests == []  # --no-refresh only records
    return urls


# refresh


def test_refresh_json_contract(cli: Cli, feeds: dict[str, str]) -> None:
    outcomes = cli.json("refresh")

    _assert_outcomes(outcomes)
    assert [o["source_id"] for o in outcomes] == sorted(o["source_id"] for o in outcomes)  # type: ignore[type-var]
    by_url = {o["url"]: o for o in outcomes}
    assert set(by_url) == set(feeds.values())
    assert {key: by_url[feeds["alpha"]][key] for key in ("title", "status", "new", "updated", "error")} == {
        "title": "Alpha show", "status": "ok", "new": 3, "updated": 0, "error": None}
    assert (by_url[feeds["beta"]]["status"], by_url[feeds["beta"]]["new"]) == ("ok", 2)
    broken = by_url[feeds["broken"]]
    assert broken["status"] == "error" and broken["new"] == 0
    assert broken["error"] == f"{feeds['broken']} answered with HTTP error 500 (Internal Server Error)."

    again = {o["url"]: o["status"] for o in cli.json("refresh", "--source", str(by_url[feeds["alpha"]]["source_id"]),
                                                     "--source", str(by_url[feeds["beta"]]["source_id"]))}
    assert again == {feeds["alpha"]: "not_modified", feeds["beta"]: "not_modified"}


def test_refresh_jsonl_streams_a_total_then_one_object_per_feed(cli: Cli, feeds: dict[str, str]) -> None:
    code, out, err = cli("refresh", "--jsonl")

    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert json.loads(lines[0]) == {"total": 3}
    outcomes = [json.loads(line) for line in lines[1:]]
    assert len(outcomes) == 3
    _assert_outcomes(outcomes)
    assert {o["url"]: o["status"] for o in outcomes} == {feeds["alpha"]: "ok", feeds["beta"]: "ok",
                                                          feeds["broken"]: "error"}


def test_refresh_text_output_and_exit_0_when_a_feed_fails(cli: Cli, feeds: dict[str, str]) -> None:
    code, out, err = cli("refresh")

    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[-1] == "Checked 3 feeds: 5 new items, 1 failed."
    assert sorted(line.split()[0] for line in lines[:-1]) == ["error", "ok", "ok"]
    assert any("Alpha show: 3 new, 0 updated" in line for line in lines)
    assert any("HTTP error 500" in line for line in lines)


@pytest.mark.parametrize("output", [[], ["--json"], ["--jsonl"]])
def test_refresh_of_an_unknown_source_exits_1(cli: Cli, feeds: dict[str, str], feed_server: FeedServer,
                                              output: list[str]) -> None:
    code, out, err = cli("refresh", "--source", "424242", *output)
    assert_failure(code, out, err)
    assert "424242" in err
    assert feed_server.requests == []  # nothing was fetched


def test_refresh_leaves_out_gone_feeds_and_says_so(cli: Cli, feeds: dict[str, str],
                                                   feed_server: FeedServer) -> None:
    feed_server.serve_status("/broken.xml", 410)
    [gone] = [o for o in cli.json("refresh") if o["status"] == "gone"]
    assert gone["url"] == feeds["broken"] and "410" in str(gone["error"])

    code, out, err = cli("refresh", "--json")
    assert code == 0
    assert err == ("earmark: 1 feed left out: gone, or waiting after repeated failures "
                   "(refresh them with --source ID).\n")
    assert feeds["broken"] not in {o["url"] for o in json.loads(out)}

    named = cli.json("refresh", "--source", str(gone["source_id"]))
    assert [(o["url"], o["status"]) for o in named] == [(feeds["broken"], "gone")]

    code, out, err = cli("refresh", "--all", "--json")  # every feed now, as the window's F5
    assert (code, err) == (0, "")
    assert {o["url"] for o in json.loads(out)} == set(feeds.values())


# import-opml


def test_import_opml_with_a_folder_a_duplicate_a_bad_outline_and_a_dead_feed(
    cli: Cli, feed_server: FeedServer, tmp_path: Path,
) -> None:
    news = feed_server.serve_body("/news.xml", rss("Daily news", ENTRIES))
    tech = feed_server.serve_body("/tech.xml", rss("Tech talk", ENTRIES[:2]))
    loose = feed_server.serve_body("/loose.xml", rss("Loose feed", ENTRIES[:1]))
    dead = f"http://127.0.0.1:{closed_port()}/dead.xml"
    opml = _write(tmp_path / "subs.opml", _opml(f"""
        <outline text="Morning Listening">
          {_outline("News", news)}
          {_outline("Tech", tech)}
        </outline>
        {_outline("News again", news)}
        {_outline("Loose", loose)}
        <outline type="rss" text="Homepage only" htmlUrl="https://example.com/"/>
        {_outline("Dead", dead)}"""))

    code, out, err = cli("import-opml", str(opml), "--json")

    assert code == 0
    err_lines = err.splitlines()
    assert err_lines[-1] == "4 new subscriptions, 0 already subscribed."
    assert any("Homepage only" in line and "no feed address" in line for line in err_lines), err
    assert all(line.startswith("earmark: ") for line in err_lines[:-1])
    outcomes = json.loads(out)
    _assert_outcomes(outcomes)
    assert {o["url"]: (o["status"], o["new"]) for o in outcomes} == {
        news: ("ok", 3), tech: ("ok", 2), loose: ("ok", 1), dead: ("error", 0)}
    assert "could not be reached" in next(str(o["error"]) for o in outcomes if o["url"] == dead)

    sources = {s["url"]: s for s in cli.json("sources")}
    assert set(sources) == {news, tech, loose, dead}  # the duplicate is one subscription
    assert (sources[dead]["status"], sources[dead]["item_count"]) == ("error", 0)
    assert ("morning listening", 5) in [(tag["name"], tag["count"]) for tag in cli.json("tags")]
    listed = cli.json("list", "--tag", "Morning Listening")
    # the titles the list gave (the user's) stay: "Daily news" and "Tech talk" are the feeds' own
    assert sorted(item["source"] for item in listed) == ["News"] * 3 + ["Tech"] * 2  # type: ignore[type-var]
    assert all(item["tags"] == [] for item in listed)  # the folder tags the feeds, not each item

    code, out, err = cli("import-opml", str(opml), "--no-refresh")  # again: nothing new
    assert (code, out) == (0, "0 new subscriptions, 4 already subscribed.\n")
    assert len(cli.json("sources")) == 4


def test_import_opml_jsonl_gives_the_counts_in_its_first_line(cli: Cli, feed_server: FeedServer,
                                                              tmp_path: Path) -> None:
    """The window reads the counts from the first line; stderr keeps only what was left out."""
    one = feed_server.serve_body("/one.xml", rss("One", ENTRIES[:1]))
    two = feed_server.serve_body("/two.xml", rss("Two", ENTRIES[:2]))
    assert cli("import-opml", str(_write(tmp_path / "first.opml", _opml(_outline("One", one)))), "--no-refresh")[0] == 0
    opml = _write(tmp_path / "subs.opml", _opml(f"""{_outline("One", one)}{_outline("Two", two)}
        <outline type="rss" text="Homepage only" htmlUrl="https://example.com/"/>"""))

    code, out, err = cli("import-opml", str(opml), "--jsonl")

    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[0] == {"total": 2, "new_subscriptions": 1, "already_subscribed": 1}
    assert sorted(line["url"] for line in lines[1:]) == sorted([one, two])
    assert [line for line in err.splitlines() if "already subscribed" in line] == []
    assert all(line.startswith("earmark: ") for line in err.splitlines()) and "Homepage only" in err


def test_import_opml_no_refresh_only_records(cli: Cli, feed_server: FeedServer, tmp_path: Path) -> None:
    url = feed_server.serve_body("/show.xml", rss("Show", ENTRIES))
    opml = _write(tmp_path / "one.opml", _opml(_outline("Show in the list", url)))

    assert cli.json("import-opml", str(opml), "--no-refresh") == []

    [source] = cli.json("sources")
    assert (source["url"], source["title"], source["item_count"], source["last_checked"]) == (
        url, "Show in the list", 0, None)
    assert feed_server.requests == []
    [outcome] = cli.json("refresh")
    assert (outcome["status"], outcome["new"], outcome["title"]) == ("ok", 3, "Show in the list")  # the user's


@pytest.mark.parametrize("case", ["xml bomb", "missing", "folder", "not opml"])
def test_import_opml_of_a_bad_file_exits_1(cli: Cli, tmp_path: Path, case: str) -> None:
    path = {
        "xml bomb": lambda: fixtures_dir() / "hostile" / "dx__xmlbomb.xml",
        "missing": lambda: tmp_path / "nowhere.opml",
        "folder": lambda: tmp_path,
        "not opml": lambda: _write(tmp_path / "feed.xml", rss("A feed, not a list", ENTRIES).decode()),
    }[case]()
    code, out, err = cli("import-opml", str(path))
    assert_failure(code, out, err)
    assert path.name in err
    assert cli.json("sources") == []


# export-opml


def test_export_then_import_round_trips_feeds_and_tags(cli: Cli, feed_server: FeedServer, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    urls = [feed_server.serve_body(f"/f{n}.xml", rss(f"Feed {n}", ENTRIES)) for n in range(4)]
    opml = _write(tmp_path / "in.opml", _opml(f"""
        <outline text="Work">{_outline("F0", urls[0])}{_outline("F1", urls[1])}</outline>
        <outline text="Fun"><outline text="Games">{_outline("F2", urls[2])}</outline></outline>
        {_outline("F3", urls[3])}"""))
    assert cli("import-opml", str(opml))[0] == 0
    exported = tmp_path / "out.opml"

    code, out, err = cli("export-opml", str(exported))

    assert (code, err) == (0, "")
    assert out == f"Wrote 4 subscriptions to {exported}.\n"
    fresh = Cli(tmp_path / "fresh.db", capsys)
    assert fresh("import-opml", str(exported), "--no-refresh")[0] == 0

    def feeds_and_tags(library: Path) -> set[tuple[str, tuple[str, ...]]]:
        db = open_library(library)
        try:
            tags = tags_for_sources(db)
            return {(url, tuple(tags.get(source_id, []))) for source_id, url in
                    db.execute("SELECT id, url FROM sources")}
        finally:
            db.close()

    original = feeds_and_tags(cli.library)
    assert original == {(urls[0], ("work",)), (urls[1], ("work",)), (urls[2], ("fun", "fun/games")), (urls[3], ())}
    assert feeds_and_tags(fresh.library) == original
    assert not list(tmp_path.glob(".*.partial"))  # written through a temporary file, which is gone


def test_export_opml_to_stdout(cli: Cli, feeds: dict[str, str], tmp_path: Path) -> None:
    result = _earmark(cli.library, "export-opml", "-")

    assert (result.returncode, result.stderr) == (0, "")
    document = read_opml(result.stdout.encode(), "stdout")
    assert {feed.url for feed in document.feeds} == set(feeds.values())
    assert result.stdout.startswith("<?xml")


def test_export_opml_to_an_unwritable_place_exits_1(cli: Cli, feeds: dict[str, str], tmp_path: Path) -> None:
    code, out, err = cli("export-opml", str(tmp_path / "no-such-folder" / "subs.opml"))
    assert_failure(code, out, err)
    assert "subs.opml" in err


# set-credentials and sources, in a real process


def test_set_credentials_from_stdin_then_refresh(tmp_path: Path, feed_server: FeedServer, keyring_bus: str) -> None:
    library = tmp_path / "library.db"
    url = feed_server.serve_feed("/private.xml", rss("Members only", ENTRIES), auth=("member", "pa ss:word"))
    opml = _write(tmp_path / "private.opml", _opml(_outline("Members", url)))

    first = _earmark(library, "import-opml", str(opml), "--json")
    assert first.returncode == 0, first.stderr
    [outcome] = json.loads(first.stdout)
    assert outcome["status"] == "error" and "user name and password" in outcome["error"]
    [source] = json.loads(_earmark(library, "sources", "--json").stdout)
    assert (source["status"], source["item_count"]) == ("auth", 0)

    stored = _earmark(library, "set-credentials", str(source["id"]), "member", stdin="pa ss:word\n")
    assert (stored.returncode, stored.stderr) == (0, "")
    assert stored.stdout == (f"Stored credentials for Members; refresh it with: earmark refresh --source "
                             f"{source['id']}\n")
    assert feed_server.requests == ["/private.xml"]  # storing them fetched nothing

    refreshed = _earmark(library, "refresh", "--jsonl")
    assert (refreshed.returncode, refreshed.stderr) == (0, "")
    total, outcome = map(json.loads, refreshed.stdout.splitlines())
    assert total == {"total": 1}
    assert (outcome["status"], outcome["new"], outcome["title"]) == ("ok", 3, "Members")  # the list's title stays
    assert feed_server.received_for("/private.xml")[-1].header("Authorization") == basic_auth("member", "pa ss:word")

    forgot = _earmark(library, "set-credentials", str(source["id"]))
    assert (forgot.returncode, forgot.stdout) == (0, "Forgot the credentials of Members.\n")
    feed_server.serve_feed("/private.xml", rss("Members only", ENTRIES[:2]), auth=("member", "pa ss:word"))
    [outcome] = json.loads(_earmark(library, "refresh", "--json").stdout)
    assert outcome["status"] == "error"
    assert feed_server.received_for("/private.xml")[-1].header("Authorization") is None


def test_set_credentials_of_an_unknown_source_exits_1(tmp_path: Path) -> None:
    result = _earmark(tmp_path / "library.db", "set-credentials", "99", "someone", stdin="secret\n")
    assert_failure(result.returncode, result.stdout, result.stderr)
    assert "99" in result.stderr


def test_sources_json_after_a_refresh(cli: Cli, feeds: dict[str, str]) -> None:
    cli("refresh")

    sources = {s["url"]: s for s in cli.json("sources")}

    assert set(sources) == set(feeds.values())
    for source in sources.values():
        assert SOURCE_FIELDS <= set(source), SOURCE_FIELDS - set(source)
        assert isinstance(source["id"], int)
        datetime.fromisoformat(str(source["last_checked"]))
    alpha, broken = sources[feeds["alpha"]], sources[feeds["broken"]]
    assert (alpha["title"], alpha["status"], alpha["last_error"], alpha["item_count"]) == ("Alpha show", "ok", None, 3)
    assert (broken["status"], broken["item_count"]) == ("error", 0)
    assert broken["last_error"] == f"{feeds['broken']} answered with HTTP error 500 (Internal Server Error)."


@pytest.mark.parametrize("typed", ["ftp://ann:cli-secret@feeds.example.com/show.xml",
                                   "http://ann:cli-secret@[::1/show.xml"])
def test_a_refused_address_is_told_without_the_password_typed_in_it(cli: Cli, typed: str) -> None:
    code, out, err = cli("subscribe", typed)
    assert code == 1 and "show.xml" in err and "cli-secret" not in out + err, err


def test_subscribe_a_fixture_file(cli: Cli) -> None:
    code, out, err = cli("subscribe", str(fixtures_dir() / "feeds" / "rsp__theomnishow.rss"))
    assert (code, err) == (0, "")
    assert "The Omni Show" in out and "4 new" in out
    code, out, _ = cli("subscribe", str(fixtures_dir() / "feeds" / "rsp__theomnishow.rss"))
    assert code == 0 and "0 new" in out
    assert len(cli.json("list")) == 4


def test_sources_json(cli: Cli, podcast: Path) -> None:
    [source] = cli.json("sources")
    assert SOURCE_FIELDS <= set(source), SOURCE_FIELDS - set(source)
    assert (source["title"], source["url"], source["status"]) == ("CLI podcast", podcast.resolve().as_uri(), "ok")
    assert (source["last_error"], source["item_count"]) == (None, 2)
    assert isinstance(source["id"], int)
    assert isinstance(source["last_checked"], str)
    datetime.fromisoformat(source["last_checked"])


def test_sources_json_reports_a_failing_feed(cli: Cli, podcast: Path) -> None:
    podcast.write_text("<html><body>gone</body></html>")
    code, out, err = cli("subscribe", str(podcast))
    assert_failure(code, out, err)
    [source] = cli.json("sources")
    assert source["status"] == "error"
    assert source["last_error"] == err.removeprefix("earmark: ").strip()
    assert source["item_count"] == 2
    code, out, _ = cli("sources")
    assert code == 0 and "error:" in out


@pytest.mark.parametrize(
    ("name", "content"),
    [("page.html", b"<!DOCTYPE html><html><body><p>Hello</p></body></html>"), ("empty.xml", b""),
     ("data.json", b'{"items": []}')],
)
def test_subscribe_a_non_feed_exits_1_with_a_sentence(cli: Cli, tmp_path: Path, name: str, content: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    code, out, err = cli("subscribe", str(path))
    assert_failure(code, out, err)
    assert name in err
    assert cli.json("sources") == []


def test_subscribe_a_missing_file_exits_1(cli: Cli, tmp_path: Path) -> None:
    code, out, err = cli("subscribe", str(tmp_path / "nope.xml"))
    assert_failure(code, out, err)
    assert "nope.xml" in err


def test_subscribe_a_malformed_url_exits_1(cli: Cli) -> None:
    code, out, err = cli("subscribe", "http://127.0.0.1:80a/feed.xml")
    assert_failure(code, out, err)
