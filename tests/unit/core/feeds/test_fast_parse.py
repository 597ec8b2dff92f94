"""The fast feed parser against the feedparser path: the same FeedData, or None (feedparser decides)."""

from __future__ import annotations

import copy
import random
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urljoin

import pytest
from feedparser.datetimes import _parse_date
from feedparser.urls import _urljoin

from earmark.core.errors import FeedError
from earmark.core.feeds.entries import urljoin_keeps
from earmark.core.feeds.fast_parse import _date, fast_parse
from earmark.core.feeds.parse import parse_feed
from earmark.core.models import FeedData
from earmark.core.timefmt import parse_duration
from helpers.feed_server import OWN_FIXTURES, fixture_files, fixtures_dir, own_fixture_files

URL = "https://feeds.example.org/show/feed.xml"
RSS_TYPE = "application/rss+xml"
ITUNES = "http://www.itunes.com/dtds/podcast-1.0.dtd"
CONTENT = "http://purl.org/rss/1.0/modules/content/"
ATOM = "http://www.w3.org/2005/Atom"
# What the test server (and most web servers) send for each fixture suffix.
SERVED_TYPES = {".rss": "application/x-rss+xml", ".xml": "application/xml", ".atom": "application/atom+xml",
                ".rdf": "application/rdf+xml"}
FEED_FILES = [path for path in fixture_files("feeds", "feeds-malformed", "hostile", "chapters", "transcripts")
              + own_fixture_files("feeds") if path.suffix in SERVED_TYPES]
# Real podcast and blog feeds that must take the fast path (the README's hand-verified ones among them).
FAST_FIXTURES = [
    "rsp__atp.rss",
    "rp__giantbomb-podcast.rss",
    "pt__pc20rss.xml",
    "pt__real-world__1865.xml",
    "pt__real-world__dk-podcast.xml",
    "pt__real-world__homegrown-hits.xml",
    "rsp__theomnishow.rss",
    "apod__parser__feed__src__test__resources__feed-rss-testRss2Basic.xml",
    "apod__parser__feed__src__test__resources__feed-atom-testAtomBasic.xml",
    "ns__example.xml",
    "pt__example.xml",
    "rp__heise.atom",
    "rsp__bio.rdf",
    "rsp__macworld.rss",
    "rsp__scriptingNews.rss",
    "em__podcast.rss",  # written for these tests (tests/fixtures/feeds): there in every clone
    "em__news.rdf",
]


def _feedparser_path(data: bytes, url: str, content_type: str | None) -> FeedData | Exception:
    try:
        return parse_feed(data, url, content_type, fast=False)
    except Exception as exc:  # compared, not hidden: a fast result where feedparser fails is a test failure
        return exc


def same(data: bytes, url: str = URL, content_type: str | None = RSS_TYPE) -> FeedData:
    """The fast result, which must exist and equal the feedparser path's."""
    fast = fast_parse(data, url, content_type)
    assert fast is not None, "the document should take the fast path"
    assert fast == _feedparser_path(data, url, content_type)
    return fast


def rss(items: str, channel: str = "", *, declaration: str = '<?xml version="1.0" encoding="UTF-8"?>',
        namespaces: str = f'xmlns:itunes="{ITUNES}" xmlns:content="{CONTENT}"') -> bytes:
    return (f'{declaration}\n<rss version="2.0" {namespaces}><channel><title>Show</title>'
            f"<link>https://example.org/</link><description>About the show</description>{channel}"
            f"{items}</channel></rss>\n").encode()


def atom(entries: str, head: str = "") -> bytes:
    return (f'<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="{ATOM}"><title>Blog</title>'
            f'<link rel="alternate" type="text/html" href="https://example.org/"/><id>urn:uuid:feed</id>'
            f"<updated>2025-01-02T03:04:05Z</updated>{head}{entries}</feed>").encode()


# (a) Every fixture: the fast path gives feedparser's FeedData or stands aside.

@pytest.mark.parametrize("path", FEED_FILES, ids=[f"{p.parent.name}/{p.name}" for p in FEED_FILES])
def test_fast_result_is_the_feedparser_result(path: Path) -> None:
    data = path.read_bytes()
    for url, content_type in ((URL, SERVED_TYPES[path.suffix]), (path.as_uri(), None), (URL, "text/xml")):
        fast = fast_parse(data, url, content_type)
        if fast is not None:
            assert fast == _feedparser_path(data, url, content_type), (url, content_type)


@pytest.mark.parametrize("name", FAST_FIXTURES)
def test_real_feeds_take_the_fast_path(name: str) -> None:
    path = OWN_FIXTURES / "feeds" / name if name.startswith("em__") else fixtures_dir() / "feeds" / name
    data = path.read_bytes()
    assert same(data, URL, SERVED_TYPES[path.suffix]).warning is None
    # A local file comes without a content type: feedparser warns about that, and reads a document without an
    # encoding declaration as ISO-8859-1, which the fast path leaves to it unless the text is ASCII.
    local = fast_parse(data, path.as_uri(), None)
    if data.isascii() or data.startswith(b'<?xml version="1.0" encoding="UTF-8"?>'):
        assert local is not None
    if local is not None:
        assert local == _feedparser_path(data, path.as_uri(), None)
        assert local.warning == "The feed has errors (no Content-type specified)."


def test_the_sample_feed_takes_the_fast_path() -> None:
    path = Path(__file__).resolve().parents[4] / "resources" / "sample" / "pytorch-dev-podcast.xml"
    assert len(same(path.read_bytes(), path.as_uri(), None).entries) > 10


def test_most_real_podcast_fixtures_take_the_fast_path() -> None:
    real = [path for path in fixture_files("feeds") if path.suffix in SERVED_TYPES and not path.name.startswith("fp__")]
    if not real:
        fixtures_dir()  # skips when the fixtures are missing
    fast = [path for path in real if fast_parse(path.read_bytes(), URL, SERVED_TYPES[path.suffix]) is not None]
    # the others are not well-formed (undeclared prefixes) or use xml:base
    assert len(fast) >= 0.7 * len(real)


# (b) Synthetic feeds for the common constructs.

def test_cdata_show_notes() -> None:
    notes = '<p>Our guest: <a href="https://example.org/guest">Guest</a></p><ul><li>One &amp; two</li></ul>'
    feed = same(rss(f'<item><title>Ep 1</title><guid isPermaLink="false">ep-1</guid>'
                    f'<enclosure url="https://cdn.example.org/1.mp3" type="audio/mpeg" length="1"/>'
                    f"<itunes:duration>01:02:03</itunes:duration><description><![CDATA[{notes}]]></description>"
                    f"</item>"))
    entry = feed.entries[0]
    assert (entry.identity, entry.kind, entry.description, entry.duration) == ("guid:ep-1", "episode", notes, 3723)


def test_entity_escaped_html_description_and_title() -> None:
    feed = same(rss("<item><title>Tom &amp; Jerry&#8217;s &lt;b&gt;show&lt;/b&gt;</title>"
                    "<description>&lt;p&gt;Hi &amp;amp; bye&lt;/p&gt; caf&#233;</description></item>"))
    entry = feed.entries[0]
    assert entry.title == "Tom & Jerry\u2019s show"
    assert entry.description == "<p>Hi &amp; bye</p> caf\u00e9"


@pytest.mark.parametrize("base", [URL, "file:///srv/feeds/show/feed.xml", "http://example.com/a/./b/../feed.xml"])
def test_relative_urls_resolve_against_the_feed(base: str) -> None:
    feed = same(rss('<item><title>1</title><guid>episodes/1</guid><link>/notes/1?a=1&amp;b=2</link>'
                    '<enclosure url="media/1.mp3" type="audio/mpeg"/></item>'
                    '<item><title>2</title><enclosure url="//cdn.example.org/2.mp3" type="audio/mpeg"/></item>'
                    '<item><title>3</title><enclosure url="../3.m4a"/></item>', "<image><url>cover.jpg</url></image>"),
                base, None)
    if base == URL:
        assert feed.entries[0].enclosure_url == "https://feeds.example.org/show/media/1.mp3"
        assert feed.entries[0].url == "https://feeds.example.org/notes/1?a=1&b=2"
        assert feed.entries[1].enclosure_url == "https://cdn.example.org/2.mp3"
        assert feed.image_url == "https://feeds.example.org/show/cover.jpg"


def test_identity_without_guid_falls_back_to_the_enclosure_then_the_link() -> None:
    feed = same(rss('<item><title>Ep</title><enclosure url="https://cdn.example.org/e.mp3" type="audio/mpeg"/></item>'
                    "<item><title>Post</title><link>https://example.org/post</link></item>"
                    "<item><description>No title, no link</description></item>"))
    assert feed.entries[0].identity == "enclosure:https://cdn.example.org/e.mp3"
    assert feed.entries[1].identity.startswith("link:")
    assert feed.entries[2].title == "No title, no link"


def test_duplicate_guids() -> None:
    item = ('<item><title>{0}</title><guid isPermaLink="false">same</guid><itunes:episode>{0}</itunes:episode>'
            '<enclosure url="https://cdn.example.org/{0}.mp3" type="audio/mpeg"/></item>')
    feed = same(rss(item.format(1) + item.format(2)))
    assert [entry.identity for entry in feed.entries] == ["guid:same", "guid:same"]


def test_items_without_enclosures_are_articles() -> None:
    feed = same(rss("<item><title>Post</title><link>https://example.org/p</link><description>Short</description>"
                    "<content:encoded><![CDATA[<p>The whole post</p>]]></content:encoded>"
                    "<category>News</category><category domain='x'>Tech</category><dc:creator>Ann</dc:creator>"
                    "</item>", namespaces=f'xmlns:content="{CONTENT}" xmlns:dc="http://purl.org/dc/elements/1.1/"'))
    entry = feed.entries[0]
    assert (entry.kind, entry.description, entry.content) == ("article", "Short", "<p>The whole post</p>")
    assert (entry.categories, entry.author, feed.kind) == (["news", "tech"], "Ann", "site")


def test_atom_with_enclosure_links() -> None:
    feed = same(atom('<entry><title type="html">A &lt;i&gt;title&lt;/i&gt;</title><id>tag:example.org,2025:1</id>'
                     '<link rel="alternate" href="/posts/1"/><link rel="enclosure" type="audio/mpeg" href="ep1.mp3"/>'
                     "<author><name>Ann</name><email>ann@example.org</email></author>"
                     "<published>2025-01-01T10:00:00+01:00</published><updated>2025-01-03T00:00:00Z</updated>"
                     '<summary>Short</summary><content type="html">&lt;p&gt;Long notes&lt;/p&gt;</content>'
                     '<category term="Tech"/></entry>'
                     "<entry><title>Text only</title><id>urn:2</id><content>Just text</content></entry>"),
                URL, "application/atom+xml")
    first, second = feed.entries
    assert first.enclosure_url == "https://feeds.example.org/show/ep1.mp3"
    assert (first.url, first.author, first.published) == ("https://feeds.example.org/posts/1", "Ann (ann@example.org)",
                                                          "2025-01-01T09:00:00+00:00")
    assert first.description == "<p>Long notes</p>"
    assert (second.kind, second.content) == ("article", "Just text")


@pytest.mark.parametrize("order", [
    ("<description>Desc</description>", "<content:encoded>Full notes</content:encoded>"),
    ("<content:encoded>Full notes</content:encoded>", "<description>Desc</description>"),
    ("<itunes:summary>Summary</itunes:summary>", "<description>Desc</description>"),
    ("<description>Desc</description>", "<itunes:summary>Summary text</itunes:summary>"),
    ("<itunes:summary>Summary</itunes:summary>", "<content:encoded>Full</content:encoded>",
     "<description>Desc</description>"),
])
@pytest.mark.parametrize("enclosure", ["", '<enclosure url="https://cdn.example.org/e.mp3" type="audio/mpeg"/>'])
def test_content_encoded_description_and_summary_in_any_order(order: tuple[str, ...], enclosure: str) -> None:
    # the channel's own itunes:summary before its description changes how feedparser reads the items too
    for channel in ("", "<itunes:summary>Channel summary</itunes:summary><description>Channel</description>"):
        same(rss(f"<item><title>T</title>{''.join(order)}{enclosure}</item>", channel))


@pytest.mark.parametrize("duration", ["1500", "12:30", "1:02:03", "01:54:09", "07:00", "", "junk", "3600.5", " 90 "])
def test_itunes_duration_forms(duration: str) -> None:
    feed = same(rss(f"<item><title>T</title><itunes:duration>{duration}</itunes:duration></item>"))
    assert feed.entries[0].duration == parse_duration(duration.strip() or None)


@pytest.mark.parametrize("date", [
    "Wed, 01 Jan 2025 12:39:00 +0530", "Wed, 01 Jan 2025 12:39:00 -0800", "Wed, 01 Jan 2025 12:39:00 EST",
    "Sun, 06 Nov 1994 08:49:37 PDT", "Wed, 01 Jan 2025 12:39:00 GMT", "Wed, 01 Jan 2025 12:39:00 Z",
    "1 Jan 25 12:00 +0000", "Wed, 01 Jan 2025 12:39 +0000", "Wed, 1 Jan 99 23:59:59 -1200",
    "2025-01-01T12:00:00+02:00", "2025-01-01", "Tue, 31 Feb 2025 00:00:00 GMT", "garbage", "",
])
def test_dates_in_many_forms_and_time_zones(date: str) -> None:
    same(rss(f"<item><title>T</title><pubDate>{date}</pubDate></item>", f"<lastBuildDate>{date}</lastBuildDate>"))
    same(rss(f"<item><title>T</title><dc:date>{date}</dc:date></item>",
             namespaces='xmlns:dc="http://purl.org/dc/elements/1.1/"'))


def test_common_dates_read_as_feedparser_reads_them() -> None:
    rng = random.Random(3)
    days, months = "Mon Tue Wed Thu Fri Sat Sun".split(), "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
    zones = ["+0000", "-0000", "GMT", "UT", "UTC", "Z", "+0530", "-0800", "+1400", "-9959", "EST", "+00:00", "+0059",
             "-0100", "-0001"]
    for _ in range(3000):
        date = (f"{rng.choice(days)}, {rng.randint(0, 32):02d} {rng.choice(months)} "
                f"{rng.choice([1, 99, 1970, 2025, 9999, rng.randint(1, 9999)]):04d} {rng.randint(0, 24):02d}:"
                f"{rng.randint(0, 60):02d}:{rng.randint(0, 60):02d} {rng.choice(zones)}")
        assert _date(date) == _parse_date(date), date


@pytest.mark.parametrize("href", [
    "https://cdn.example.org/a/b.mp3?x=1&y=2#t", "http://example.org", "http://example.org?q", "HTTP://example.org/x",
    "http://example.org/x?", "http://example.org/x#", "http://example.org/x;p", "https://example.org/a/../b",
    "http://[::1/x", "relative/x.mp3", "//cdn.example.org/x", "http:///x", " http://example.org/x", "mailto:a@b",
])
@pytest.mark.parametrize("base", [URL, "http://example.org/", "file:///tmp/feed.xml", "", "http://[::1/feed"])
def test_links_skip_urljoin_only_when_it_would_change_nothing(base: str, href: str) -> None:
    if urljoin_keeps(base, href):
        assert urljoin(base, href) == href
        assert _urljoin(base, href) == href  # feedparser's own resolving
    if base == URL and href in ("https://cdn.example.org/a/b.mp3?x=1&y=2#t", "https://example.org/a/../b"):
        assert urljoin_keeps(base, href)  # the usual absolute links take the cheap way


@pytest.mark.parametrize("namespaces", [
    f'xmlns:it="{ITUNES}"',  # another prefix for the iTunes namespace
    'xmlns:itunes="https://www.itunes.com/dtds/podcast-1.0.dtd"',  # a variant feedparser does not know
    'xmlns:itunes="http://www.itunes.com/DTDs/PodCast-1.0.dtd"',
])
def test_namespace_prefix_variants(namespaces: str) -> None:
    prefix = namespaces.split("=")[0].removeprefix("xmlns:")
    same(rss(f"<item><title>T</title><{prefix}:duration>12:00</{prefix}:duration><{prefix}:author>A</{prefix}:author>"
             f'<{prefix}:image href="https://example.org/i.jpg"/><{prefix}:keywords>a, b</{prefix}:keywords></item>',
             f"<{prefix}:author>Host</{prefix}:author><{prefix}:owner><{prefix}:name>Owner</{prefix}:name>"
             f"</{prefix}:owner>", namespaces=namespaces))


def test_namespace_declared_on_each_element() -> None:
    same(rss(f'<item><title>T</title><itunes:duration xmlns:itunes="{ITUNES}">10475</itunes:duration></item>',
             namespaces=""))


# (c) What the fast path leaves to feedparser.

def test_xml_base_falls_back() -> None:
    data = atom('<entry xml:base="https://other.example.org/dir/"><title>T</title><id>1</id>'
                '<link rel="enclosure" href="ep.mp3" type="audio/mpeg"/></entry>')
    assert fast_parse(data, URL, "application/atom+xml") is None
    feed = parse_feed(data, URL, "application/atom+xml")
    assert feed.entries[0].enclosure_url == "https://other.example.org/dir/ep.mp3"


def test_non_utf8_declared_encoding_falls_back() -> None:
    data = rss("<item><title>Caf\u00e9</title></item>",
               declaration='<?xml version="1.0" encoding="ISO-8859-1"?>').decode().encode("iso-8859-1")
    for content_type in (RSS_TYPE, None, "text/xml; charset=iso-8859-1"):
        assert fast_parse(data, URL, content_type) is None
        assert parse_feed(data, URL, content_type).entries[0].title == "Caf\u00e9"


def test_charset_that_contradicts_the_document_falls_back() -> None:
    data = rss("<item><title>Caf\u00e9</title></item>")
    assert fast_parse(data, URL, "application/rss+xml; charset=iso-8859-1") is None
    assert same(data, URL, "application/rss+xml; charset=utf-8").entries[0].title == "Caf\u00e9"


def test_entity_declaration_is_refused_like_before() -> None:
    data = (b'<?xml version="1.0"?>\n<!DOCTYPE rss [<!ENTITY who "World">]>\n<rss version="2.0"><channel>'
            b"<title>Hello &who;</title><item><title>&who;</title></item></channel></rss>")
    assert fast_parse(data, URL, RSS_TYPE) is None
    assert parse_feed(data, URL, RSS_TYPE) == parse_feed(data, URL, RSS_TYPE, fast=False)


@pytest.mark.parametrize("data", [
    rss('<item><title>T</title><description><p>naked <b>markup</b></p></description></item>'),
    atom('<entry><title>T</title><id>1</id><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">'
         "<p>x</p></div></content></entry>"),
    atom('<entry><title>T</title><id>1</id><content type="application/octet-stream">SGVsbG8=</content></entry>'),
    b"<rss version='2.0'><channel><title>Bad &nbsp; entity</title></channel></rss>",
    b'<?xml version="1.0" encoding="utf-16"?>',
])
def test_markup_base64_and_malformed_documents_fall_back(data: bytes) -> None:
    assert fast_parse(data, URL, RSS_TYPE) is None


def test_a_document_that_is_not_a_feed_is_left_to_feedparser() -> None:
    data = b'<?xml version="1.0"?><html><body><p>Hello</p></body></html>'
    assert fast_parse(data, URL, "application/xml") is None
    with pytest.raises(FeedError, match="is not a podcast or news feed"):
        parse_feed(data, URL, "application/xml")


# (d) Odd arrangements of ordinary elements, generated: the fast path must still agree or stand aside.

SEED_FEED = rss(
    '<item><title>One</title><guid isPermaLink="false">g1</guid><link>https://example.org/1</link>'
    "<pubDate>Wed, 01 Jan 2025 12:39:00 +0000</pubDate><author>a@example.org (Ann)</author>"
    '<enclosure url="https://cdn.example.org/1.mp3" type="audio/mpeg" length="9"/>'
    "<itunes:duration>01:02:03</itunes:duration><itunes:summary>Sum</itunes:summary>"
    "<description><![CDATA[<p>Notes</p>]]></description><content:encoded>Full</content:encoded>"
    '<category>News</category><itunes:keywords>a, b</itunes:keywords><media:content url="v.mp4" type="video/mp4"/>'
    "</item><item><title>Two</title><guid>two</guid><dc:creator>Bo</dc:creator><media:group>"
    '<media:content url="https://cdn.example.org/2.m4a"/><media:title>Media title</media:title></media:group>'
    '<itunes:image href="https://example.org/2.jpg"/></item>',
    "<image><url>https://example.org/c.jpg</url><title>Img</title><link>https://example.org/</link></image>"
    "<itunes:owner><itunes:name>Owner</itunes:name><itunes:email>o@example.org</itunes:email></itunes:owner>"
    "<managingEditor>ed@example.org (Ed)</managingEditor><itunes:author>Host</itunes:author>",
    namespaces=f'xmlns:itunes="{ITUNES}" xmlns:content="{CONTENT}" xmlns:media="http://search.yahoo.com/mrss/" '
               'xmlns:dc="http://purl.org/dc/elements/1.1/"')
NAMES = ["title", "description", "link", "guid", "author", "pubDate", "category", "enclosure", "image", "url",
         f"{{{ITUNES}}}summary", f"{{{ITUNES}}}author", f"{{{ITUNES}}}owner", f"{{{CONTENT}}}encoded", "item",
         "{http://purl.org/dc/elements/1.1/}date", "{http://search.yahoo.com/mrss/}description", "unknown"]


def _mutate(root: ET.Element, rng: random.Random) -> None:
    elements = list(root.iter())
    parents = {child: parent for parent in root.iter() for child in parent}
    element = rng.choice(elements)
    choice = rng.randrange(5)
    if choice == 0 and element in parents:
        parents[element].remove(element)
    elif choice == 1 and element in parents:
        parent = parents[element]
        parent.insert(rng.randrange(len(parent) + 1), copy.deepcopy(element))
    elif choice == 2 and element is not root:
        element.tag = rng.choice(NAMES)
    elif choice == 3 and len(element) == 0:
        element.text = rng.choice(["", "rel/x.mp3", "https://example.org/x?a=1&b=2", "<b>html</b>", "Ã©", "yes"])
    elif choice == 4 and len(element) > 1:
        children = list(element)
        rng.shuffle(children)
        element[:] = children


def test_shuffled_renamed_and_duplicated_elements() -> None:
    rng = random.Random(11)
    for namespace, prefix in ((ITUNES, "itunes"), (CONTENT, "content")):
        ET.register_namespace(prefix, namespace)
    original = ET.fromstring(SEED_FEED)
    taken = 0
    for _ in range(300):
        root = copy.deepcopy(original)
        for _ in range(rng.randint(1, 4)):
            _mutate(root, rng)
        data = ET.tostring(root, encoding="utf-8", xml_declaration=True)
        fast = fast_parse(data, URL, RSS_TYPE)
        if fast is not None:
            taken += 1
            assert fast == _feedparser_path(data, URL, RSS_TYPE), data.decode()
    assert taken > 200


PLAIN_AND_HTML_TITLES = {
    "rss": b"""<?xml version="1.0"?><rss version="2.0"><channel><title>Show &lt;ML&gt;</title>
        <item><title>Notes on &lt;Tensors&gt;</title><guid>a</guid></item>
        <item><title>&lt;b&gt;Bold&lt;/b&gt; one &amp;amp; two</title><guid>b</guid></item></channel></rss>""",
    "atom": b"""<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Show &lt;ML&gt;</title>
        <entry><title type="text">Notes on &lt;Tensors&gt;</title><id>a</id></entry>
        <entry><title type="html">&lt;b&gt;Bold&lt;/b&gt; one &amp;amp; two</title><id>b</id></entry></feed>""",
}


@pytest.mark.parametrize("kind", sorted(PLAIN_AND_HTML_TITLES))
@pytest.mark.parametrize("fast", [True, False])
def test_a_plain_text_title_keeps_its_angle_brackets(kind: str, fast: bool) -> None:
    feed = parse_feed(PLAIN_AND_HTML_TITLES[kind], "https://example.com/feed", fast=fast)
    assert feed.title == "Show <ML>"
    assert [entry.title for entry in feed.entries] == ["Notes on <Tensors>", "Bold one & two"]


@pytest.mark.parametrize(("length", "read"), [("48123904", 48_123_904), (" 1024 ", 1024), ("0", None), ("1", None),
                                              ("", None), ("-5", None), ("12.5", None), ("4.8 MB", None),
                                              ("९९", None), ("1" * 16, None)])
def test_the_enclosure_length_is_read_the_same_both_ways(length: str, read: int | None) -> None:
    item = f'<item><title>T</title><guid>g</guid><enclosure url="https://cdn.example.org/e.mp3" type="audio/mpeg" ' \
           f'length="{length}"/></item>'
    [entry] = same(rss(item)).entries
    assert entry.enclosure_length == read


def test_an_atom_enclosure_link_and_a_media_content_give_their_length_too() -> None:
    [atom_entry] = same(atom('<entry><title>A</title><id>urn:1</id><link rel="enclosure" type="audio/mpeg" '
                             'href="a.mp3" length="2048"/></entry>'), URL, "application/atom+xml").entries
    media = rss('<item><title>M</title><guid>m</guid><media:content url="https://cdn.example.org/m.mp3" '
                'type="audio/mpeg" fileSize="4096"/></item>',
                namespaces='xmlns:media="http://search.yahoo.com/mrss/"')
    [media_entry] = parse_feed(media, URL, RSS_TYPE).entries
    assert [atom_entry.enclosure_length, media_entry.enclosure_length] == [2048, 4096]
    assert parse_feed(media, URL, RSS_TYPE, fast=False) == parse_feed(media, URL, RSS_TYPE)
