"""OPML import/export: shared real-world fixtures, hostile XML, odd encodings, fuzzing and write/read round trips."""

from __future__ import annotations

import random
import re
import time
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from html import escape
from pathlib import Path

import defusedxml.ElementTree as DefusedET  # type: ignore[import-untyped]
import pytest

from earmark.core.errors import FeedError
from earmark.core.feeds.opml import (
    MAX_BYTES,
    MAX_DEPTH,
    MAX_PATH_CHARS,
    OpmlDocument,
    OpmlFeed,
    read_opml,
)
from earmark.core.feeds.opml_write import write_opml
from helpers.feed_server import fixture_files, fixtures_dir, fixtures_root

NO_FEED = "has no feed address (xmlUrl), so it was skipped."
BOMB_SECONDS = 1.0  # a refused entity bomb is rejected at its DOCTYPE, long before any expansion could start


def opml(body: str, head: str = "", declaration: str = '<?xml version="1.0" encoding="UTF-8"?>\n') -> bytes:
    """A small OPML 2.0 document around ``body`` (outline elements)."""
    return f'{declaration}<opml version="2.0"><head>{head}</head><body>{body}</body></opml>'.encode()


def read_fixture(name: str) -> OpmlDocument:
    return read_opml((fixtures_dir() / "opml" / name).read_bytes(), name)


def outcome(data: bytes, name: str = "list.opml") -> OpmlDocument | FeedError:
    """What read_opml gives: a document or a FeedError; any other exception fails the calling test."""
    try:
        return read_opml(data, name)
    except FeedError as err:
        return err


def assert_sane(result: OpmlDocument | FeedError, name: str) -> None:
    """A document whose feeds are usable, or a one-sentence error naming the file."""
    if isinstance(result, FeedError):
        message = str(result)
        assert name in message and message.endswith(".") and "\n" not in message, message
        return
    assert isinstance(result, OpmlDocument)
    urls = [feed.url for feed in result.feeds]
    assert len(urls) == len(set(urls)), "duplicate feeds were not merged"
    for feed in result.feeds:
        assert re.match(r"https?://[^/]|file:///", feed.url), feed.url
        assert feed.title.strip() == feed.title and feed.title
        assert len(feed.tags) == len(set(feed.tags)) and all(tag and tag == tag.lower() for tag in feed.tags)
    assert all(sentence.endswith(".") for sentence in result.skipped)


def readme_opml_facts() -> dict[str, tuple[str | None, int]]:
    """From the fixtures README: each opml/ file's head title and listparser's feed count."""
    readme = fixtures_root() / "README.md"
    if not readme.is_file():
        return {}
    section = readme.read_text(encoding="utf-8").split("## opml/", 1)[-1].split("\n## ", 1)[0]
    facts = {}
    row = re.compile(r"^\| `([^`]+)` \|.*\| title=(?:`([^`]*)`|\(none\)); feeds \(listparser\)=(\d+);", re.M)
    for match in row.finditer(section):
        facts[match.group(1)] = (match.group(2), int(match.group(3)))
    return facts


README_FACTS = readme_opml_facts()
# listparser reads these differently from Earmark: FOAF/RDF lists are not OPML, and listparser recovers from
# concatenated documents and stray end tags that make the XML ill-formed (Earmark reports those instead).
NOT_COMPARABLE = ("lp__rdf__", "lp__malformed__concatenated-documents", "lp__malformed__end-element-unexpected")


# --- the shared fixtures -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", fixture_files("opml"), ids=lambda path: path.name)
def test_every_opml_fixture_gives_a_document_or_a_feed_error(path: Path) -> None:
    assert_sane(outcome(path.read_bytes(), path.name), path.name)


@pytest.mark.parametrize("name", sorted(name for name in README_FACTS if not name.startswith(NOT_COMPARABLE)), ids=str)
def test_feed_count_and_title_agree_with_listparser(name: str) -> None:
    title, listparser_feeds = README_FACTS[name]
    doc = read_fixture(name)
    assert len(doc.feeds) == listparser_feeds
    assert doc.title == title


def test_readme_facts_cover_the_comparable_fixtures() -> None:
    fixtures_dir()
    names = [path.name for path in fixture_files("opml") if not path.name.startswith(NOT_COMPARABLE)]
    assert len(names) >= 40
    assert [name for name in names if name not in README_FACTS] == []


@pytest.mark.parametrize(
    "name", [path.name for path in fixture_files("opml") if path.name.startswith("lp__rdf__")], ids=str
)
def test_foaf_rdf_lists_are_not_opml(name: str) -> None:
    with pytest.raises(FeedError, match=rf"^{re.escape(name)} is not an OPML file"):
        read_fixture(name)


def test_real_feed_reader_export_has_207_feeds_in_four_folders() -> None:
    data = (fixtures_dir() / "opml" / "rsp__Subs.opml").read_bytes()
    distinct_urls = {url.strip() for url in re.findall(rb'xmlUrl="([^"]*)"', data)}
    doc = read_opml(data, "Subs.opml")
    assert len(distinct_urls) == 207
    assert [feed.url.encode() for feed in doc.feeds] == [url.strip() for url in re.findall(rb'xmlUrl="([^"]*)"', data)]
    assert doc.title == "Subs" and doc.skipped == []
    assert doc.feeds[0] == OpmlFeed(
        "http://daringfireball.net/feeds/main", "Daring Fireball", [], "http://daringfireball.net/"
    )
    by_url = {feed.url: feed for feed in doc.feeds}
    assert by_url["http://corinnekrych.blogspot.com/feeds/posts/default"].title == "chat & code"
    assert by_url["http://jvns.ca/atom.xml"].html_url is None  # htmlUrl=""
    assert sum(feed.html_url is None for feed in doc.feeds) == data.count(b'htmlUrl=""') == 35
    assert by_url["http://debuggers.co/atom.xml"].tags == ["programming"]
    folders: dict[tuple[str, ...], int] = {}
    for feed in doc.feeds:
        folders[tuple(feed.tags)] = folders.get(tuple(feed.tags), 0) + 1
    assert folders == {(): 69, ("programming",): 33, ("macintosh",): 5, ("weblogs",): 97, ("writers",): 3}
    assert any(feed.title == "kt zine — Medium" for feed in doc.feeds)


@pytest.mark.parametrize(
    ("name", "tags"),
    [
        ("lp__opml__categories__hier-2-nested.xml", ["grouping1", "grouping1/grouping2"]),  # a folder in a folder
        ("lp__opml__categories__hier-4-mixed.xml", ["grouping", "tag", "parent/child"]),  # folder, then categories
        ("lp__opml__categories__cats-1-single_standalone.xml", ["root"]),  # "/root": category path slashes trimmed
        ("lp__opml__categories__cats-3-multiple.xml", ["root1/node1", "root2/node2"]),
        ("lp__opml__categories__duplication.xml", ["dupe"]),  # folder "dupe" + category "dupe,dupe,/dupe,/dupe"
        ("lp__opml__categories__tags-1-single.xml", ["tag1"]),
        ("lp__opml__categories__tags-3-cats_mixed.xml", ["news", "sports", "news/sports"]),
        ("lp__opml__outline-duplication-2.xml", ["hier1", "hier2"]),  # one feed in two folders: merged
    ],
)
def test_fixture_folders_and_categories_become_tags(name: str, tags: list[str]) -> None:
    doc = read_fixture(name)
    assert [feed.tags for feed in doc.feeds] == [tags]
    assert doc.feeds[0].url == "http://domain/feed"


@pytest.mark.parametrize(
    ("name", "feed"),
    [
        ("lp__opml__outline_text-whitespace.xml", OpmlFeed("http://domain.com/feed", "feedname")),
        ("lp__opml__outline_title-text_empty.xml", OpmlFeed("http://domain.com/feed", "feedname")),
        ("lp__opml__outline_title-text_missing.xml", OpmlFeed("http://domain.com/feed", "feedname")),
        ("lp__opml__outline_xmlUrl-whitespace.xml", OpmlFeed("http://domain/feed", "feedname")),
        ("lp__opml__outline_type-link.xml", OpmlFeed("http://domain.com/feed", "feedname")),  # xmlUrl wins
        ("lp__opml__outline_type-pie.xml", OpmlFeed("http://domain.com/feed", "feedname")),
        (
            "lp__opml__opportunities__opml-htmlUrl-valid_feed.xml",
            OpmlFeed("http://domain/feed", "feedname", [], "http://domain/"),
        ),
    ],
)
def test_fixture_single_feed_is_read_exactly(name: str, feed: OpmlFeed) -> None:
    doc = read_fixture(name)
    assert doc.feeds == [feed]
    assert doc.skipped == []


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        ("lp__opml__outline_xmlUrl-empty.xml", f"The outline “feedname” {NO_FEED}"),
        ("lp__opml__opportunities__opml-htmlUrl-empty.xml", f"The outline “feedname” {NO_FEED}"),
        ("lp__opml__opportunities__opml-htmlUrl_alone.xml", f"The outline “http://domain/” {NO_FEED}"),
        ("lp__opml__link__outline_url.xml", f"The outline “sublistName” {NO_FEED}"),
        ("lp__opml__link__outline_text-whitespace.xml", f"The outline “sublistName” {NO_FEED}"),
        ("lp__opml__link__outline_type-case_insensitive.xml", f"The outline “sublistName” {NO_FEED}"),
        ("lp__opml__link__outline_type-no_url.xml", f"An outline without a name {NO_FEED}"),
        (
            "lp__opml__include__outline_type-include.xml",
            "The outline “sublistName” includes another subscription list (http://domain.com/sublist/), "
            "which Earmark does not fetch, so it was skipped.",
        ),
        (
            "lp__opml__include__outline_url-whitespace.xml",
            "The outline “sublistName” includes another subscription list (http://domain.com/sublist/), "
            "which Earmark does not fetch, so it was skipped.",
        ),
        (
            "lp__opml__outline_type-source.xml",  # a Frontier "source" outline's xmlUrl is another OPML list
            "The outline “sublist” includes another subscription list (http://localhost/list), "
            "which Earmark does not fetch, so it was skipped.",
        ),
    ],
)
def test_fixture_outline_without_a_usable_feed_is_reported(name: str, sentence: str) -> None:
    doc = read_fixture(name)
    assert doc.feeds == []
    assert doc.skipped == [sentence]


@pytest.mark.parametrize(
    "name",
    [
        "lp__opml__opml_version-11.xml",
        "lp__opml__opml_version-missing.xml",
        "lp__opml__head_dateCreated.xml",
        "lp__opml__head-empty_tags.xml",
    ],
)
def test_fixture_plain_note_outline_is_neither_a_feed_nor_skipped(name: str) -> None:
    doc = read_fixture(name)
    assert (doc.feeds, doc.skipped) == ([], [])


def test_fixture_html_entities_in_attributes_are_read_as_characters() -> None:
    doc = read_fixture("lp__malformed__html-entity-attribute.xml")
    assert [feed.title for feed in doc.feeds] == ["archæology", "archæology"]  # &aelig; and &#230;
    assert [feed.url for feed in doc.feeds] == ["http://domain1/feed", "http://domain2/feed"]


def test_fixture_html_entity_in_head_title_is_read_and_unknown_entity_kept_literally() -> None:
    assert read_fixture("lp__malformed__html-entity-text-2.xml").title == "1 μs is brief"
    assert read_fixture("lp__malformed__undefined-entity-text.xml").title == "arch&egregiouslyundefined;ology"


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("lp__malformed__concatenated-documents.xml", "junk after document element: line 19"),
        ("lp__malformed__end-element-unexpected-with-prefix.xml", "mismatched tag: line 14"),
    ],
)
def test_fixture_ill_formed_xml_is_a_feed_error_with_the_parser_reason(name: str, reason: str) -> None:
    with pytest.raises(FeedError, match=rf"^{re.escape(name)} is not a valid OPML file \({reason}, column \d+\)\.$"):
        read_fixture(name)


# --- hostile XML ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", fixture_files("hostile"), ids=lambda path: path.name)
def test_hostile_fixture_is_refused_quickly(path: Path) -> None:
    start = time.perf_counter()
    result = outcome(path.read_bytes(), path.name)
    elapsed = time.perf_counter() - start
    assert isinstance(result, FeedError) or result.feeds == [], "a non-OPML hostile file produced feeds"
    assert elapsed < BOMB_SECONDS, f"{path.name} took {elapsed:.2f} s"


@pytest.mark.parametrize("name", ["dx__xmlbomb.xml", "dx__xmlbomb2.xml", "dx__external.xml", "dx__dtd.xml"])
def test_entity_bombs_external_entities_and_dtds_are_refused_for_safety(name: str) -> None:
    data = (fixtures_dir() / "hostile" / name).read_bytes()
    with pytest.raises(FeedError, match=r"declares XML entities or a DTD, which Earmark refuses for safety\.$"):
        read_opml(data, name)


def test_billion_laughs_inside_an_opml_document_is_refused_before_expanding() -> None:
    levels = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    data = (
        f'<?xml version="1.0"?><!DOCTYPE opml [<!ENTITY l0 "lol">{levels}]>'
        '<opml version="2.0"><head><title>&l9;</title></head><body>'
        '<outline text="&l9;" xmlUrl="https://example.com/feed"/></body></opml>'
    ).encode()
    start = time.perf_counter()
    with pytest.raises(FeedError, match=r"^bomb\.opml declares XML entities or a DTD"):
        read_opml(data, "bomb.opml")
    assert time.perf_counter() - start < BOMB_SECONDS


def test_external_entity_cannot_read_a_local_file(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-VALUE")
    data = (
        f'<?xml version="1.0"?><!DOCTYPE opml [<!ENTITY x SYSTEM "{secret.as_uri()}">]>'
        '<opml version="2.0"><head><title>&x;</title></head><body>'
        '<outline text="&x;" xmlUrl="https://example.com/feed"/></body></opml>'
    ).encode()
    with pytest.raises(FeedError) as caught:
        read_opml(data, "xxe.opml")
    assert "TOP-SECRET-VALUE" not in str(caught.value)


def test_even_a_plain_doctype_is_refused() -> None:
    data = b'<?xml version="1.0"?><!DOCTYPE opml><opml version="2.0"><body/></opml>'
    with pytest.raises(FeedError, match="refuses for safety"):
        read_opml(data, "doctype.opml")


def test_input_over_the_size_cap_is_refused_without_parsing() -> None:
    data = opml('<outline text="a" xmlUrl="https://example.com/a"/>')
    padded = data.replace(b"<body>", b"<body>" + b" " * (MAX_BYTES - len(data)))
    assert len(padded) == MAX_BYTES
    assert len(read_opml(padded, "big.opml").feeds) == 1
    with pytest.raises(FeedError, match=r"^big\.opml is larger than 10 MB"):
        read_opml(padded + b" ", "big.opml")


def test_outlines_nested_beyond_the_depth_limit_are_refused() -> None:
    def nested(levels: int) -> bytes:
        folders = "".join(f'<outline text="level {i}">' for i in range(levels))
        return opml(folders + '<outline text="deep" xmlUrl="https://example.com/deep"/>' + "</outline>" * levels)

    doc = read_opml(nested(MAX_DEPTH - 1), "deep.opml")
    assert doc.feeds[0].tags == ["/".join(f"level {i}" for i in range(depth)) for depth in range(1, MAX_DEPTH)]
    with pytest.raises(FeedError, match=rf"nests outlines more than {MAX_DEPTH} levels deep"):
        read_opml(nested(MAX_DEPTH), "deep.opml")


def test_very_deep_nesting_is_refused_quickly() -> None:
    levels = 200_000
    data = opml('<outline text="f">' * levels + "</outline>" * levels)
    start = time.perf_counter()
    with pytest.raises(FeedError, match="levels deep"):
        read_opml(data, "deep.opml")
    assert time.perf_counter() - start < 10


# --- folders, tags, duplicates and skipped outlines -----------------------------------------------------------------


def test_nested_folders_become_tags_outer_to_inner() -> None:
    doc = read_opml(
        opml(
            '<outline text="Tech"><outline title="Audio  Shows" text="ignored">'
            '<outline text="A" xmlUrl="https://a.example/feed"/></outline>'
            '<outline text="B" xmlUrl="https://b.example/feed" category="Rust, tech ,,/Lang/Go/"/></outline>'
            '<outline text="C" xmlUrl="https://c.example/feed"/>'
        ),
        "list.opml",
    )
    assert [(feed.title, feed.tags) for feed in doc.feeds] == [
        ("A", ["tech", "tech/audio shows"]),  # a folder's title wins over its text, like a feed's
        ("B", ["tech", "rust", "lang/go"]),
        ("C", []),
    ]
    assert doc.skipped == []


def test_feed_outline_with_children_is_a_feed_and_its_children_are_read() -> None:
    doc = read_opml(
        opml(
            '<outline text="Folder"><outline text="Parent" xmlUrl="https://parent.example/feed">'
            '<outline text="Child" xmlUrl="https://child.example/feed"/></outline></outline>'
        ),
        "list.opml",
    )
    assert doc.feeds == [
        OpmlFeed("https://parent.example/feed", "Parent", ["folder"]),
        OpmlFeed("https://child.example/feed", "Child", ["folder"]),  # the parent feed is not a folder
    ]


def test_title_falls_back_to_text_then_to_the_url() -> None:
    doc = read_opml(
        opml(
            '<outline title=" Title " text="Text" xmlUrl="https://a.example/"/>'
            '<outline title="" text="  Only\n   text " xmlUrl="https://b.example/"/>'
            '<outline xmlUrl=" https://c.example/feed "/>'
        ),
        "list.opml",
    )
    assert [feed.title for feed in doc.feeds] == ["Title", "Only text", "https://c.example/feed"]


def test_duplicate_feeds_are_merged_into_the_first_with_tags_united() -> None:
    doc = read_opml(
        opml(
            '<outline text="News"><outline text="First" xmlUrl="https://dup.example/feed" category="daily"/></outline>'
            '<outline text="Other" xmlUrl="https://other.example/feed"/>'
            '<outline text="Tech"><outline text="Second" xmlUrl=" https://dup.example/feed " '
            'htmlUrl="https://dup.example/" category="Daily,weekly"/></outline>'
            '<outline text="Third" xmlUrl="feed:https://dup.example/feed" category="news"/>'
        ),
        "list.opml",
    )
    assert doc.feeds == [
        OpmlFeed("https://dup.example/feed", "First", ["news", "daily", "tech", "weekly"], "https://dup.example/"),
        OpmlFeed("https://other.example/feed", "Other"),
    ]


def test_outlines_that_look_like_subscriptions_without_a_feed_address_are_reported() -> None:
    doc = read_opml(
        opml(
            '<outline text="Foo" type="rss"/>'
            '<outline text="Bar" type="RSS" xmlUrl="   "/>'
            '<outline text="Baz" xmlUrl=""/>'
            '<outline text="Site only" htmlUrl="https://site.example/"/>'
            '<outline type="link" url="https://example.com/page"/>'
            '<outline text="Just a note"/>'
            '<outline text="Empty folder"></outline>'
        ),
        "list.opml",
    )
    assert doc.feeds == []
    assert doc.skipped == [
        "The outline “Foo” has no feed address (xmlUrl), so it was skipped.",  # the brief's own example
        f"The outline “Bar” {NO_FEED}",
        f"The outline “Baz” {NO_FEED}",
        f"The outline “Site only” {NO_FEED}",
        f"The outline “https://example.com/page” {NO_FEED}",
    ]


def test_include_outlines_are_reported_not_fetched_nor_descended() -> None:
    doc = read_opml(
        opml(
            '<outline text="More lists" type="Include" url="https://lists.example/more.opml">'
            '<outline text="Inside" xmlUrl="https://inside.example/feed"/></outline>'
            '<outline type="include"/>'
            '<outline text="Kept" xmlUrl="https://kept.example/feed"/>'
        ),
        "list.opml",
    )
    assert [feed.url for feed in doc.feeds] == ["https://kept.example/feed"]
    assert doc.skipped == [
        "The outline “More lists” includes another subscription list (https://lists.example/more.opml), "
        "which Earmark does not fetch, so it was skipped.",
        "An outline without a name includes another subscription list, which Earmark does not fetch, "
        "so it was skipped.",
    ]


def test_attribute_names_and_types_are_case_insensitive() -> None:
    doc = read_opml(
        opml(
            '<outline TEXT="Lower" type="RSS" xmlurl="https://lower.example/feed" HTMLURL="https://lower.example/"/>'
            '<outline text="Upper" XMLURL="https://upper.example/feed" CATEGORY="Loud"/>'
        ),
        "list.opml",
    )
    assert doc.feeds == [
        OpmlFeed("https://lower.example/feed", "Lower", [], "https://lower.example/"),
        OpmlFeed("https://upper.example/feed", "Upper", ["loud"]),
    ]


def test_opml_in_a_default_namespace_is_read() -> None:
    data = (
        b'<opml version="2.0" xmlns="http://opml.org/spec2"><head><title>Spaced</title></head><body>'
        b'<outline text="F"><outline text="A" xmlUrl="https://a.example/feed"/></outline></body></opml>'
    )
    doc = read_opml(data, "ns.opml")
    assert doc.title == "Spaced"
    assert doc.feeds == [OpmlFeed("https://a.example/feed", "A", ["f"])]


# --- feed addresses --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("xml_url", "url"),
    [
        ("feed://example.com/rss", "https://example.com/rss"),
        ("feed:https://example.com/rss", "https://example.com/rss"),
        ("feed:http://example.com/rss", "http://example.com/rss"),
        ("FEED://example.com/rss", "https://example.com/rss"),
        ("itpc://example.com/podcast.xml", "https://example.com/podcast.xml"),
        ("podcast://example.com/podcast.xml", "https://example.com/podcast.xml"),
        ("HTTPS://Example.com/Feed?a=1&b=2", "https://Example.com/Feed?a=1&b=2"),
        ("  http://example.com/rss\n", "http://example.com/rss"),
    ],
)
def test_feed_schemes_are_converted_to_web_addresses(xml_url: str, url: str) -> None:
    doc = read_opml(opml(f'<outline text="Show" xmlUrl="{escape(xml_url)}"/>'), "list.opml")
    assert [feed.url for feed in doc.feeds] == [url]
    assert doc.skipped == []


@pytest.mark.parametrize(
    ("xml_url", "url"),
    [
        ("file:///home/ana/feeds/show.xml", "file:///home/ana/feeds/show.xml"),  # what `earmark subscribe` stores
        ("file:///tmp/with%20space.xml", "file:///tmp/with%20space.xml"),
        ("file://localhost/tmp/show.xml", "file:///tmp/show.xml"),
        ("FILE:/tmp/show.xml", "file:///tmp/show.xml"),
        ("file:///tmp/caf%C3%A9 show.xml", "file:///tmp/caf%C3%A9%20show.xml"),
    ],
)
def test_local_feed_files_are_subscriptions_too(xml_url: str, url: str) -> None:
    doc = read_opml(opml(f'<outline text="Mine" xmlUrl="{escape(xml_url)}"/>'), "list.opml")
    assert (doc.feeds, doc.skipped) == ([OpmlFeed(url, "Mine")], [])


def test_a_folder_path_past_the_length_limit_gives_its_feeds_the_outer_tags_only() -> None:
    long_name = "x" * (MAX_PATH_CHARS // 3)  # two levels fit, three do not
    doc = read_opml(opml(f'<outline text="{long_name}"><outline text="{long_name}"><outline text="{long_name}">'
                         '<outline text="A" xmlUrl="https://a.example/feed"/></outline></outline></outline>'),
                    "long.opml")
    assert doc.feeds[0].tags == [long_name, f"{long_name}/{long_name}"]
    assert doc.skipped == [f"Folders nested under “{long_name[:79]}…” make a tag longer than {MAX_PATH_CHARS} "
                           "characters, so their feeds only have the outer folders' tags."]
    feeds = [OpmlFeed("https://a.example/feed", "A", [long_name, f"{long_name}/{long_name}/{long_name}"])]
    again = read_opml(write_opml(feeds, "t"), "t.opml")  # such a tag is written as one folder, so it comes back
    assert (again.feeds, again.skipped) == (feeds, [])


@pytest.mark.parametrize(
    ("xml_url", "reason"),
    [
        ("javascript:alert(1)", "has a “javascript:” feed address, which Earmark cannot subscribe to"),
        ("file://server/share/feed.xml", "has a “file:” feed address that is not a file on this computer"),
        ("file:feed.xml", "has a “file:” feed address that is not a file on this computer"),
        ("ftp://example.com/feed.xml", "has a “ftp:” feed address, which Earmark cannot subscribe to"),
        ("data:text/xml,<rss/>", "has a “data:” feed address, which Earmark cannot subscribe to"),
        ("example.com/feed.xml", "has a feed address that is not a full web address"),
        ("/feed.xml", "has a feed address that is not a full web address"),
        ("http://", "has a feed address that is not a full web address"),
        ("https://[::1/feed", "has a feed address that is not a full web address"),
    ],
)
def test_other_schemes_are_skipped_with_a_sentence(xml_url: str, reason: str) -> None:
    doc = read_opml(opml(f'<outline text="Bad" xmlUrl="{escape(xml_url)}"/>'), "list.opml")
    assert doc.feeds == []
    assert doc.skipped == [f"The outline “Bad” {reason}, so it was skipped."]


# --- documents that are not OPML, and odd encodings ------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        b'<?xml version="1.0"?><rss version="2.0"><channel><title>x</title></channel></rss>',
        b"<html><body/></html>",
        b"<opmlx/>",
    ],
)
def test_well_formed_xml_that_is_not_opml_is_a_feed_error(data: bytes) -> None:
    with pytest.raises(FeedError, match=r"^feed\.xml is not an OPML file"):
        read_opml(data, "feed.xml")


@pytest.mark.parametrize("data", [b"", b"   \n", b"\xef\xbb\xbf", b"\x00" * 64, b"not xml at all", b"<opml>"])
def test_empty_and_non_xml_bytes_are_a_feed_error(data: bytes) -> None:
    with pytest.raises(FeedError, match=r"^x\.opml is not a valid OPML file \(.+\)\.$"):
        read_opml(data, "x.opml")


def test_random_garbage_bytes_give_only_feed_errors() -> None:
    rng = random.Random(20240611)
    for _ in range(500):
        data = rng.randbytes(rng.randrange(1, 400))
        assert isinstance(outcome(data), FeedError)


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-16-le"])
def test_utf16_document_with_bom_is_read(codec: str) -> None:
    text = (
        '<?xml version="1.0" encoding="UTF-16"?><opml version="2.0"><head><title>Écoute 🎧</title></head>'
        '<body><outline text="Ça &amp; là" xmlUrl="https://example.com/é"/></body></opml>'
    )
    data = ("\ufeff" + text).encode(codec) if codec != "utf-16" else text.encode(codec)
    assert data[:2] in (b"\xff\xfe", b"\xfe\xff")
    doc = read_opml(data, "utf16.opml")
    assert doc.title == "Écoute 🎧"
    assert doc.feeds == [OpmlFeed("https://example.com/é", "Ça & là")]


@pytest.mark.parametrize(
    ("encoding", "title"),
    [
        ("windows-1252", "“Smart” quotes"),
        ("ISO-8859-1", "Café"),
        ("Big5", "中文播客"),
        ("Shift_JIS", "日本語"),
        ("GB2312", "中文"),
    ],
)
def test_declared_legacy_encodings_are_decoded(encoding: str, title: str) -> None:
    data = (
        f'<?xml version="1.0" encoding="{encoding}"?>\n<opml version="2.0"><head><title>{title}</title></head>'
        f'<body><outline text="{title}" xmlUrl="https://example.com/feed"/></body></opml>'
    ).encode(encoding)
    doc = read_opml(data, "legacy.opml")
    assert doc.title == title
    assert doc.feeds[0].title == title


def test_gb2312_label_is_read_as_gb18030_like_browsers_do() -> None:
    title = "朱镕基"  # 镕 is not in GB2312, yet real "GB2312" documents contain it
    data = (
        f'<?xml version="1.0" encoding="gb2312"?><opml version="2.0"><head><title>{title}</title></head><body/></opml>'
    ).encode("gb18030")
    assert read_opml(data, "gb.opml").title == title


def test_unknown_declared_encoding_is_a_feed_error() -> None:
    with pytest.raises(FeedError, match=r"^x\.opml is written in a text encoding Earmark does not know \(klingon\)\.$"):
        read_opml(b'<?xml version="1.0" encoding="klingon"?><opml version="2.0"><body/></opml>', "x.opml")


def test_html_entities_are_recovered_but_xml_escapes_still_work() -> None:
    doc = read_opml(
        opml(
            '<outline text="Caf&eacute; &amp; Cr&egrave;me &lt;3 &nbsp;&bogus;" xmlUrl="https://example.com/?a=1&amp;b=2"/>'
        ),
        "list.opml",
    )
    assert doc.feeds == [OpmlFeed("https://example.com/?a=1&b=2", "Café & Crème <3 &bogus;")]


# --- fuzzing ---------------------------------------------------------------------------------------------------------

SAMPLE = opml(
    '<outline text="News &amp; Politics" title="News &amp; Politics">'
    '<outline type="rss" text="Le Monde — À la une" xmlUrl="https://www.lemonde.fr/rss/une.xml" '
    'htmlUrl="https://www.lemonde.fr/" category="french,daily"/>'
    '<outline type="rss" text="Podcast &lt;3" xmlUrl="itpc://pod.example/feed"/></outline>'
    '<outline type="include" text="More" url="https://example.com/more.opml"/>'
    '<outline type="rss" text="日本のポッドキャスト" xmlUrl="https://jp.example/feed" category="日本"/>'
    '<outline type="rss" text="Broken" xmlUrl="javascript:void(0)"/>',
    head="<title>Sample &amp; test</title><dateCreated>Mon, 01 Jan 2024 10:00:00 GMT</dateCreated>",
)


def test_sample_used_for_fuzzing_is_read_completely() -> None:
    doc = read_opml(SAMPLE, "sample.opml")
    assert doc.title == "Sample & test"
    assert [feed.url for feed in doc.feeds] == [
        "https://www.lemonde.fr/rss/une.xml",
        "https://pod.example/feed",
        "https://jp.example/feed",
    ]
    assert doc.feeds[0].tags == ["news & politics", "french", "daily"]
    assert len(doc.skipped) == 2


def test_every_truncation_of_a_valid_document_gives_a_document_or_a_feed_error() -> None:
    results = [outcome(SAMPLE[:end], "cut.opml") for end in range(0, len(SAMPLE), 7)]
    for result in results:
        assert_sane(result, "cut.opml")
    assert all(isinstance(result, FeedError) for result in results)  # the closing </opml> is the last thing


def test_random_byte_mutations_of_a_valid_document_give_a_document_or_a_feed_error() -> None:
    rng = random.Random(7)
    specials = [b"<", b">", b"&", b'"', b"'", b"\x00", b"\xff", b"&amp;", b"<!DOCTYPE x>", b"]]>", b"<outline "]
    documents = 0
    for _ in range(600):
        data = bytearray(SAMPLE)
        for _ in range(rng.randrange(1, 4)):
            at = rng.randrange(len(data))
            if rng.random() < 0.5:
                data[at : at + rng.randrange(0, 4)] = rng.choice(specials)
            else:
                data[at] = rng.randrange(256)
        result = outcome(bytes(data), "mutant.opml")
        assert_sane(result, "mutant.opml")
        documents += isinstance(result, OpmlDocument)
    assert 0 < documents < 600


# --- writing and round trips -----------------------------------------------------------------------------------------

REALISTIC = [
    OpmlFeed("https://atp.fm/episodes?format=rss", "Accidental Tech Podcast", ["tech", "apple"], "https://atp.fm/"),
    OpmlFeed("https://daringfireball.net/feeds/main", "Daring Fireball", ["tech"], "https://daringfireball.net/"),
    OpmlFeed("https://feeds.example.com/a?x=1&y=2", "Q&A <live> \"quoted\" 'single'", ["tech", "q&a <raw>"]),
    OpmlFeed("https://www.lemonde.fr/rss/une.xml", "Le Monde — À la une", ["news", "français"], "https://lemonde.fr/"),
    OpmlFeed("https://jp.example/podcast.xml", "日本のポッドキャスト 🎧", ["news", "日本"]),
    OpmlFeed("https://solo.example/feed", "No tags at all"),
    OpmlFeed("http://plain.example/rss", "Plain http, website only", [], "http://plain.example/"),
]


def unordered(feeds: list[OpmlFeed]) -> list[tuple[str, str, str | None, list[str]]]:
    """Feeds as the library keeps them: tags are a set, and feeds are found by address."""
    return sorted((feed.url, feed.title, feed.html_url, sorted(feed.tags)) for feed in feeds)


def test_round_trip_gives_the_same_feeds_back() -> None:
    written = write_opml(REALISTIC, "My subscriptions")
    doc = read_opml(written, "export.opml")
    assert unordered(doc.feeds) == unordered(REALISTIC)
    assert doc.title == "My subscriptions"
    assert doc.skipped == []


def test_round_trip_of_the_real_export_is_exact() -> None:
    original = read_fixture("rsp__Subs.opml")
    doc = read_opml(write_opml(original.feeds, "Subs"), "again.opml")
    assert doc.feeds == original.feeds  # one folder a feed: the order and the tags' order come back too
    assert doc.title == "Subs"


def test_round_trip_of_every_opml_fixture_is_exact() -> None:
    checked = 0
    for path in fixture_files("opml"):
        original = outcome(path.read_bytes(), path.name)
        if isinstance(original, OpmlDocument) and original.feeds:
            again = read_opml(write_opml(original.feeds, path.name), "again.opml").feeds
            assert unordered(again) == unordered(original.feeds), path.name
            checked += 1
    if not checked:
        pytest.skip("the shared OPML fixtures are missing")
    assert checked >= 15


def test_tags_with_commas_or_slashes_survive_the_round_trip_as_folders_of_their_name() -> None:
    feeds = [
        OpmlFeed("https://a.example/feed", "A", ["news", "left, right", "daily"]),
        OpmlFeed("https://b.example/feed", "B", ["one, two"]),
        OpmlFeed("https://c.example/feed", "C", ["x", "y", "z,"]),
        OpmlFeed("https://d.example/feed", "D", ["ac/dc", "a / b", "a//b", "x, y", "x, y/z"]),  # no "ac", "a"
    ]
    assert unordered(read_opml(write_opml(feeds, "Commas"), "commas.opml").feeds) == unordered(feeds)


def test_a_feed_sits_in_each_of_its_folders_and_nested_tags_are_nested_folders() -> None:
    feeds = [OpmlFeed("https://a.example/feed", "A", ["podcasts", "tech", "tech/deep & nested"]),
             OpmlFeed("https://b.example/feed", "B", ["tech"])]
    body = DefusedET.fromstring(write_opml(feeds, "t"), forbid_dtd=True).find("body")

    def where(url: str, element: object = body, path: tuple[str, ...] = ()) -> list[list[str]]:
        """The folder paths of every outline of ``url`` under ``element``."""
        found = []
        for child in element:  # type: ignore[attr-defined]
            if child.get("xmlUrl") == url:
                found.append(list(path))
            found += where(url, child, (*path, child.get("text")) if child.get("xmlUrl") is None else path)
        return found

    assert [o.get("text") for o in body] == ["podcasts", "tech"]
    assert sorted(where("https://a.example/feed")) == [["podcasts"], ["tech", "deep & nested"]]
    assert where("https://b.example/feed") == [["tech"]]
    again = read_opml(write_opml(feeds, "t"), "t.opml")
    assert unordered(again.feeds) == unordered(feeds) and again.skipped == []


def test_interleaved_tags_come_back_grouped_by_folder() -> None:
    feeds = [
        OpmlFeed("https://1.example/", "One", ["news"]),
        OpmlFeed("https://2.example/", "Two"),
        OpmlFeed("https://3.example/", "Three", ["tech"]),
        OpmlFeed("https://4.example/", "Four", ["news", "tech"]),
    ]
    once = read_opml(write_opml(feeds, "t"), "once.opml").feeds
    assert [feed.title for feed in once] == ["One", "Four", "Two", "Three"]  # a folder sits where its first feed was
    assert unordered(once) == unordered(feeds)
    assert unordered(read_opml(write_opml(once, "t"), "twice.opml").feeds) == unordered(once)


def test_written_document_is_opml_2_with_a_folder_per_tag_and_all_tags_in_category() -> None:
    written = write_opml(REALISTIC, "Mine & yours")
    assert written.startswith(b"<?xml version='1.0' encoding='UTF-8'?>\n<opml version=\"2.0\">")
    assert b"\n    <outline " in written  # pretty-printed
    root = DefusedET.fromstring(written, forbid_dtd=True)
    assert root.findtext("head/title") == "Mine & yours"
    created = parsedate_to_datetime(root.findtext("head/dateCreated"))
    assert created.tzinfo is not None and abs(datetime.now(UTC) - created) < timedelta(minutes=5)
    body = root.find("body")
    folders = [(o.get("text"), o.get("title"), len(o)) for o in body if o.get("xmlUrl") is None]
    assert folders == [("tech", "tech", 3), ("apple", "apple", 1), ("q&a <raw>", "q&a <raw>", 1),
                       ("news", "news", 2), ("français", "français", 1), ("日本", "日本", 1)]
    atp = body.find("outline/outline[@xmlUrl='https://atp.fm/episodes?format=rss']")
    assert atp is not None
    assert atp.attrib == {
        "type": "rss",
        "text": "Accidental Tech Podcast",
        "title": "Accidental Tech Podcast",
        "xmlUrl": "https://atp.fm/episodes?format=rss",
        "htmlUrl": "https://atp.fm/",
        "category": "tech,apple",
    }
    assert len(body.findall("outline/outline[@xmlUrl='https://atp.fm/episodes?format=rss']")) == 2  # tech, apple
    solo = body.find("outline[@xmlUrl='https://solo.example/feed']")
    assert solo is not None and "category" not in solo.attrib and "htmlUrl" not in solo.attrib


def test_characters_xml_cannot_hold_are_dropped_when_writing() -> None:
    feeds = [OpmlFeed("https://a.example/feed", "Bell\x07 and\x00 null\ud800", ["ta\x1bg"])]
    doc = read_opml(write_opml(feeds, "Control\x0c chars"), "ctl.opml")
    assert doc.title == "Control chars"
    assert doc.feeds == [OpmlFeed("https://a.example/feed", "Bell and null", ["tag"])]


def test_writing_no_feeds_gives_an_empty_list() -> None:
    doc = read_opml(write_opml([], "Empty"), "empty.opml")
    assert (doc.title, doc.feeds, doc.skipped) == ("Empty", [], [])
