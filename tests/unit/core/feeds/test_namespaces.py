"""The second, defused pass over feed bytes for Podcasting 2.0 / iTunes extras, against real fixture files."""

from __future__ import annotations

import json
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

from earmark.core.feeds.namespaces import ChannelExtras, ItemExtras, NamespaceData, read_extras
from helpers.feed_server import fixture_files, fixtures_dir

BASE = "https://feeds.example.org/show/feed.xml"
ITUNES_NS = "http://www.itunes.com/dtds/podcast-1.0.dtd"
PODCAST_NS = "https://podcastindex.org/namespace/1.0"
EMPTY = NamespaceData(ChannelExtras(), [])

ALL_FILES = fixture_files("feeds", "feeds-malformed", "hostile", "chapters", "transcripts", "opml")
PP_ORACLES = [
    path
    for path in fixture_files("feeds", "chapters", "transcripts")
    if path.name.startswith("pp__") and path.suffix == ".rss" and path.with_suffix(".json").is_file()
]


def _read(relative: str, base: str = BASE) -> NamespaceData:
    return read_extras((fixtures_dir() / relative).read_bytes(), base)


def _feed(channel: str = "", items: str = "") -> bytes:
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:itunes="{ITUNES_NS}" '
        f'xmlns:podcast="{PODCAST_NS}"><channel><title>T</title>{channel}{items}</channel></rss>'
    ).encode()


def _urls(result: NamespaceData) -> list[str]:
    urls = [entry["url"] for entry in result.channel.funding]
    people = list(result.channel.persons)
    for item in result.items:
        urls += [url for url in (item.chapters_url, item.image_url) if url is not None]
        urls += [transcript["url"] for transcript in item.transcripts]
        people += item.persons
    urls += [person[key] for person in people for key in ("href", "img") if key in person]
    return urls


def _feedparser_count(data: bytes) -> int:
    import feedparser

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return len(feedparser.parse(data).entries)


# --- Podcasting 2.0 reference examples -------------------------------------------------------------------------


def test_namespace_example_channel() -> None:
    channel = _read("feeds/ns__example.xml").channel
    assert channel == ChannelExtras(
        podcast_guid="y0ur-gu1d-g035-h3r3",
        funding=[{"url": "https://example.com/donate", "text": "Support the show!"}],
        persons=[],
        itunes_type="episodic",
        explicit=False,
        locked=True,
        podroll=[{"feedGuid": "917393e3-1b1e-5cef-ace4-edaa54e1f810", "feedUrl": "https://feeds.podcastindex.org/pc20.xml"},
                 {"feedGuid": "396d9ae0-da7e-5557-b894-b606231fa3ea", "feedUrl": "https://feedurl.example.rss"}],
        image_url="https://example.com/images/pci_avatar-massive.jpg",  # the widest of podcast:images
    )


def test_namespace_example_first_item_has_everything() -> None:
    result = _read("feeds/ns__example.xml")
    assert [item.guid for item in result.items] == [
        "https://example.com/ep0003",
        "https://example.com/ep0002",
        "https://example.com/ep0001",
    ]
    assert result.items[0] == ItemExtras(
        guid="https://example.com/ep0003",
        chapters_url="https://example.com/ep3_chapters.json",
        chapters_type="application/json",
        transcripts=[
            {"url": "https://example.com/ep3/transcript.txt", "type": "text/plain"},
            {
                "url": "https://example.com/episode1/transcript.vtt",
                "type": "text/vtt",
                "language": "es",
                "rel": "captions",
            },
        ],
        persons=[
            {
                "name": "Adam Curry",
                "href": "https://www.podchaser.com/creators/adam-curry-107ZzmWE5f",
                "img": "https://example.com/images/adamcurry.jpg",
            },
            {
                "name": "Dave Jones",
                "role": "guest",
                "href": "https://github.com/daveajones/",
                "img": "https://example.com/images/davejones.jpg",
            },
            {
                "name": "Becky Smith",
                "role": "cover art designer",
                "group": "visuals",
                "href": "https://example.com/artist/beckysmith",
            },
        ],
        season=1,
        episode=3,
        episode_type=None,
        explicit=False,
        image_url="https://example.com/ep0003/artMd.jpg",
    )


def test_namespace_example_later_items() -> None:
    items = _read("feeds/ns__example.xml").items
    assert [(item.season, item.episode) for item in items] == [(1, 3), (1, 2), (1, 1)]
    assert [item.chapters_url for item in items[1:]] == [
        "https://example.com/ep2_chapters.json",
        "https://example.com/ep1_chapters.json",
    ]
    assert items[2].transcripts == [{"url": "https://example.com/ep1/transcript.txt", "type": "text/plain"}]
    assert [person["name"] for person in items[2].persons] == ["Adam Curry", "Dave Jones", "Jebick Morton"]
    assert items[2].persons[0]["href"] == "http://blog.curry.com/"


def test_partytime_example_uses_the_old_github_namespace_uri() -> None:
    result = _read("feeds/pt__example.xml")
    assert result.channel == ChannelExtras(
        podcast_guid=None,
        funding=[{"url": "https://example.com/donate", "text": "Support the show!"}],
        itunes_type="episodic",
        explicit=False,
        locked=True,
        image_url="https://example.com/images/pci_avatar-massive.jpg",  # its itunes:image
    )
    assert [(item.guid, item.episode, item.season) for item in result.items] == [
        ("https://example.com/ep0003", 3, 1),
        ("https://example.com/ep0002", 2, 1),
        ("https://example.com/ep0001", 1, 1),
    ]
    first = result.items[0]
    assert first.chapters_url == "https://example.com/ep3_chapters.json"
    assert first.transcripts == [{"url": "https://example.com/ep3/transcript.txt", "type": "text/plain"}]
    assert [person["name"] for person in first.persons] == ["Adam Curry", "Dave Jones", "Becky Smith"]
    # This copy writes <itunes:image>URL</itunes:image> (text, no href): still picked up.
    assert first.image_url == "https://example.com/ep0003/artMd.jpg"


def test_schema_example_is_not_a_feed() -> None:
    # podcast: elements under a <test-wrapper> root: no channel, no items, nothing to merge.
    assert _read("feeds/ns__docs__schema__podcast-example.xml") == EMPTY


# --- Real Podcasting 2.0 feeds ----------------------------------------------------------------------------------


def test_podcasting20_show_feed() -> None:
    result = _read("feeds/pt__pc20rss.xml")
    assert result.channel == ChannelExtras(
        podcast_guid="917393e3-1b1e-5cef-ace4-edaa54e1f810",
        funding=[{"url": "https://paypal.me/podcastindex", "text": "Value 4 Value"}],
        itunes_type=None,
        explicit=False,
        locked=True,
        image_url="https://noagendaassets.com/enc/1601061118.678_pciavatar.jpg",
    )
    assert len(result.items) == 56
    first = result.items[0]
    assert first.guid == "PC2057"
    assert first.chapters_url == "http://34.117.70.159/http%3Amp3s.nashownotes.compc20rss.xml/PC2057"
    assert first.chapters_type == "application/json"
    assert first.transcripts == [
        {"url": "https://mp3s.nashownotes.com/PC20-57-Captions.srt", "type": "application/srt"}
    ]
    assert first.persons == [
        {
            "name": "Adam Curry",
            "role": "host",
            "group": "cast",
            "href": "http://curry.com",
            "img": "https://feeds.podcastindex.org/adam_avatar.jpg",
        },
        {
            "name": "Dave Jones",
            "role": "host",
            "group": "cast",
            "href": "http://dave.sobr.org",
            "img": "https://feeds.podcastindex.org/dave_avatar.jpg",
        },
        {
            "name": "Brian of London",
            "role": "guest",
            "group": "cast",
            "href": "https://gist.github.com/brianoflondon/",
            "img": "https://noagendaassets.com/enc/1633719509.451_sirbrianoflondon.png",
        },
    ]
    assert first.explicit is False
    assert first.image_url == "https://noagendaassets.com/enc/1601061118.678_pciavatar.jpg"
    # Tag counts in the raw file: 48 podcast:chapters, 47 podcast:transcript, 18 podcast:person (all in items);
    # two of the persons are empty (<podcast:person href="" img="" .../> and <podcast:person/>) and are dropped.
    assert sum(item.chapters_url is not None for item in result.items) == 48
    assert sum(len(item.transcripts) for item in result.items) == 47
    assert sum(len(item.persons) for item in result.items) == 16
    assert result.items[-1].guid == "Fri, 11 Sep 2020 18:51:09 GMT"
    assert result.items[-1].chapters_url is None
    assert result.items[-1].image_url == "http://adam.curry.com/enc/1599850236.814_pciavatar-feed.jpg"


def test_podverse_live_items_are_not_items() -> None:
    result = _read("feeds/pt__podverse-test-feed.xml")
    assert len(result.items) == 5  # the four podcast:liveItem blocks are not counted, as in feedparser
    first = result.items[0]
    assert first.guid == "https://noagendatube.com/videos/watch/0f6507ea-8d5f-4264-b2ac-9b839f720d9b"
    assert first.persons == [
        {
            "name": "Brian of London",
            "href": "https://noagendatube.com/accounts/brianoflondon",
            "img": "https://noagendatube.com/lazy-static/avatars/fc392650-1817-4a10-8968-4c8cdd476dc2.png",
        }
    ]
    assert first.image_url == "https://noagendatube.com/static/thumbnails/7cf31c37-e739-4e71-bcdd-48d24b8784bc.jpg"
    assert first.explicit is False
    assert [item.guid for item in result.items[1:3]] == [
        "be3007a0-3433-497d-b3b0-a7814a5b7ee6",
        "824c4d8d-e309-44a6-aaf1-d4fcbf33421b",
    ]


def test_antennapod_two_transcripts() -> None:
    result = _read("feeds/apod__parser__feed__src__test__resources__feed-rss-testPodcastIndexTranscript.xml")
    assert len(result.items) == 1
    assert result.items[0].guid is None
    assert result.items[0].transcripts == [
        {"url": "https://podnews.net/audio/podnews231011.mp3.json", "type": "application/json"},
        {"url": "https://podnews.net/audio/podnews231011.mp3.srt", "type": "application/srt"},
    ]


def test_antennapod_funding_outside_channel() -> None:
    result = _read("feeds/apod__parser__feed__src__test__resources__feed-rss-testMultipleFundingTags.xml")
    assert result.items == []
    assert result.channel.funding == [
        {"url": "https://example.com/funding1", "text": "Text 1"},
        {"url": "https://example.com/funding2", "text": "Text 2"},
        {"url": "https://example.com/funding3", "text": ""},
    ]


# --- podcastparser's test feeds, with its expected output as the oracle ------------------------------------------


def _person_key(person: dict[str, Any]) -> tuple[Any, ...]:
    # podcastparser fills in the spec defaults (role "host", group "cast"); read_extras reports only what is there.
    return (
        person["name"],
        person.get("role") or "host",
        person.get("group") or "cast",
        person.get("href"),
        person.get("img"),
    )


def _item_key(item: ItemExtras) -> tuple[Any, ...]:
    transcript = item.transcripts[0]["url"] if item.transcripts else None
    persons = tuple(map(_person_key, item.persons))
    return (item.episode_type, item.season, item.episode, item.chapters_url, transcript, persons)


def _episode_key(episode: dict[str, Any]) -> tuple[Any, ...]:
    persons = tuple(map(_person_key, episode.get("persons", [])))
    return (
        episode.get("type"),
        episode.get("season"),
        episode.get("number"),
        episode.get("chapters_json_url"),
        episode.get("transcript_url"),
        persons,
    )


@pytest.mark.parametrize("path", PP_ORACLES, ids=lambda path: path.name)
def test_matches_podcastparser_expectations(path: Path) -> None:
    expected = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    # podcastparser resolved against file://tests/data/; only http(s) URLs matter here, so any base will do.
    result = read_extras(path.read_bytes(), "https://example.org/tests/data/" + path.name)
    channel = result.channel
    assert channel.itunes_type == expected.get("type")
    assert channel.explicit == expected.get("explicit")
    assert bool(channel.locked) == expected.get("import_prohibited", False)
    blank = (None, None, None, None, None, ())
    ours = sorted((key for key in map(_item_key, result.items) if key != blank), key=repr)
    theirs = sorted((key for key in map(_episode_key, expected["episodes"]) if key != blank), key=repr)
    assert ours == theirs


def test_podcastparser_chapters_transcript_person_with_undeclared_prefixes() -> None:
    # These files use itunes: and podcast: without declaring them (expat says "unbound prefix"); they are repaired.
    chapters = _read("chapters/pp__episode_podcast_chapters.rss").items
    assert chapters == [
        ItemExtras(
            chapters_url="https://example.com/1/chapters.json", chapters_type="application/json", episode_type="trailer"
        )
    ]
    transcripts = _read("transcripts/pp__episode_podcast_transcript.rss").items
    assert transcripts == [
        ItemExtras(
            transcripts=[{"url": "https://example.com/1/transcript.txt", "type": "text/plain"}], episode_type="trailer"
        )
    ]
    persons = _read("feeds/pp__episode_podcast_person.rss").items[0].persons
    assert persons == [
        {
            "name": "John Doe",
            "role": "host",
            "group": "cast",
            "href": "http://www.example.com",
            "img": "http://www.example.com/avatar.jpg",
        },
        {"name": "Stephanie Smith", "role": "guest", "href": "http://amazingsite.com"},
    ]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("pp__episode_season.rss", ItemExtras(season=1)),
        ("pp__episode_number_invalid.rss", ItemExtras(episode=None)),  # itunes:episode -1
        ("pp__episode_type_invalid.rss", ItemExtras(episode_type=None)),  # russkie_vpered
    ],
)
def test_podcastparser_item_numbers_and_types(name: str, expected: ItemExtras) -> None:
    assert _read("feeds/" + name).items == [expected]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("pp__itunes_type_serial.rss", ChannelExtras(itunes_type="serial")),
        ("pp__itunes_type_garbage.rss", ChannelExtras(itunes_type=None)),
        ("pp__explicit_feed.rss", ChannelExtras(explicit=False)),  # "No"
        ("pp__podcast_locked_feed.rss", ChannelExtras(locked=True)),
    ],
)
def test_podcastparser_channel_values(name: str, expected: ChannelExtras) -> None:
    assert _read("feeds/" + name).channel == expected


# --- feedparser's iTunes cases -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("itunes_channel_explicit_clean.xml", False),
        ("itunes_channel_explicit_no.xml", False),
        # feedparser's own assertion is None for "YES" (it copies iTunes' exact match); case is ignored here.
        ("itunes_channel_explicit_uppercase.xml", True),
    ],
)
def test_feedparser_channel_explicit(name: str, expected: bool) -> None:
    result = _read("feeds/fp__wellformed__itunes__" + name)
    assert result.channel.explicit is expected
    assert result.items == []


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("itunes_item_explicit.xml", True),
        ("itunes_item_explicit_true.xml", True),
        ("itunes_item_explicit_false.xml", False),
        # " yes ": feedparser says None (iTunes did not trim); surrounding whitespace is ignored here.
        ("itunes_item_explicit_whitespace.xml", True),
    ],
)
def test_feedparser_item_explicit(name: str, expected: bool) -> None:
    result = _read("feeds/fp__wellformed__itunes__" + name)
    assert [item.explicit for item in result.items] == [expected]
    assert result.channel.explicit is None


def test_feedparser_item_image_with_url_attribute() -> None:
    items = _read("feeds/fp__wellformed__itunes__itunes_item_image_url.xml").items
    assert [item.image_url for item in items] == ["http://a.b/i.png"]


def test_itunes_namespace_uri_in_any_letter_case() -> None:
    # The fp explicit fixtures declare "http://www.itunes.com/DTDs/Podcast-1.0.dtd"; the lowercase one differs.
    upper = (fixtures_dir() / "feeds/fp__wellformed__itunes__itunes_channel_explicit_no.xml").read_bytes()
    lower = (fixtures_dir() / "feeds/fp__wellformed__itunes__itunes_namespace_lowercase.xml").read_bytes()
    assert b"DTDs/Podcast-1.0.dtd" in upper and ITUNES_NS.encode() in lower
    shouting = upper.replace(
        b"http://www.itunes.com/DTDs/Podcast-1.0.dtd", b"HTTP://WWW.ITUNES.COM/DTDS/PODCAST-1.0.DTD"
    )
    assert read_extras(shouting, BASE).channel.explicit is False
    lowered = lower.replace(b"<itunes:block>yes</itunes:block>", b"<itunes:type> Serial </itunes:type>")
    assert read_extras(lowered, BASE).channel.itunes_type == "serial"


def test_core_elements_in_odd_case_are_not_items() -> None:
    # <TiTlE> under the uppercase iTunes namespace: nothing for this pass, and no exception.
    assert _read("feeds/fp__wellformed__itunes__itunes_core_element_uppercase.xml") == EMPTY


def test_prefix_is_irrelevant_only_the_uri_counts() -> None:
    feed = (
        b'<rss xmlns:i="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:itunes="urn:not-itunes"><channel>'
        b"<i:type>serial</i:type><itunes:explicit>yes</itunes:explicit>"
        b"<item><i:episode>4</i:episode><itunes:season>9</itunes:season></item></channel></rss>"
    )
    result = read_extras(feed, BASE)
    assert result.channel == ChannelExtras(itunes_type="serial")
    assert result.items == [ItemExtras(episode=4)]


# --- Position matching with feedparser ---------------------------------------------------------------------------

SAME_COUNT = [
    "feeds/ns__example.xml",
    "feeds/pt__example.xml",
    "feeds/pt__pc20rss.xml",
    "feeds/pt__podverse-test-feed.xml",
    "feeds/pt__real-world__1865.xml",
    "feeds/pt__real-world__homegrown-hits.xml",
    "feeds/rsp__atp.rss",
    "feeds/rp__item-itunes-episodeType.rss",
    "feeds/apod__parser__feed__src__test__resources__feed-rss-testPodcastIndexTranscript.xml",
    "feeds/pp__episode_season.rss",
    "feeds/pp__itunes_type_serial.rss",
    "feeds/pp__itunes_duration.rss",
    "feeds/fp__wellformed__itunes__itunes_item_image_url.xml",
    "chapters/pp__episode_podcast_chapters.rss",
    "transcripts/pp__episode_podcast_transcript.rss",
]


@pytest.mark.parametrize("relative", SAME_COUNT)
def test_item_count_matches_feedparser(relative: str) -> None:
    data = (fixtures_dir() / relative).read_bytes()
    count = len(read_extras(data, BASE).items)
    assert count > 0
    assert count == _feedparser_count(data)


def test_guids_match_feedparser_ids() -> None:
    import feedparser

    data = (fixtures_dir() / "feeds/pt__pc20rss.xml").read_bytes()
    assert [item.guid for item in read_extras(data, BASE).items] == [
        e.get("id") for e in feedparser.parse(data).entries
    ]


def test_real_world_itunes_tags() -> None:
    result = _read("feeds/rp__item-itunes-episodeType.rss")
    assert result.channel == ChannelExtras(itunes_type="episodic", explicit=False, image_url=(
        "https://images.podigee-cdn.net/0x,sKl1jBkJzQhalasSZk-t081rvkZ1jaMq35213ibRTr2U=/"
        "https://cdn.podigee.com/uploads/u10314/70a0b394-56a9-47ad-883e-38493268d6bb.jpg"))
    assert result.items == [
        ItemExtras(
            guid="cc973b648d6fb41e4e5ef7e4b4ee7604",
            episode=1,
            episode_type="trailer",
            explicit=False,
            image_url="https://images.podigee-cdn.net/0x,sIupQrkLl-L2GPJE7IKzGC90ZhL3wmVuFpBuBNTf2TdQ="
            "/https://cdn.podigee.com/uploads/u10314/6fd157b2-442d-4685-b78b-3bac68f0517f.jpg",
        )
    ]


# --- Every fixture: no exception, only web URLs -------------------------------------------------------------------


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_every_fixture_is_safe(path: Path) -> None:
    result = read_extras(path.read_bytes(), BASE)
    assert isinstance(result, NamespaceData)
    assert all(isinstance(item, ItemExtras) for item in result.items)
    for url in _urls(result):
        assert url.startswith(("http://", "https://")), url


def test_every_fixture_also_with_a_local_base() -> None:
    fixtures_dir()
    for path in ALL_FILES:
        for url in _urls(read_extras(path.read_bytes(), path.as_uri())):
            assert url.startswith(("http://", "https://")), (path.name, url)


@pytest.mark.parametrize("name", ["dx__xmlbomb.xml", "dx__xmlbomb2.xml", "dx__external.xml", "dx__dtd.xml"])
def test_hostile_documents_are_refused_quickly(name: str) -> None:
    data = (fixtures_dir() / "hostile" / name).read_bytes()
    # A trailing comment with a marker makes sure the defused parser itself sees the document.
    for variant in (data, data + b"<!-- itunes podcast: -->\n"):
        started = time.perf_counter()
        assert read_extras(variant, BASE) == EMPTY
        assert time.perf_counter() - started < 1.0


def test_billion_laughs_inside_a_podcast_feed_is_refused() -> None:
    entities = '<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">' + "".join(
        f'<!ENTITY {chr(99 + i)} "{("&" + chr(98 + i) + ";") * 10}">' for i in range(8)
    )
    feed = _feed(channel="<itunes:explicit>yes</itunes:explicit><description>&j;</description>")
    feed = feed.replace(b"<rss", f"<!DOCTYPE rss [{entities}]>\n<rss".encode(), 1)
    started = time.perf_counter()
    assert read_extras(feed, BASE) == EMPTY
    assert time.perf_counter() - started < 1.0


def test_external_entity_is_refused() -> None:
    feed = _feed(items="<item><guid>&x;</guid><itunes:episode>1</itunes:episode></item>")
    feed = feed.replace(b"<rss", b'<!DOCTYPE rss [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<rss', 1)
    assert read_extras(feed, BASE) == EMPTY


def test_non_web_urls_are_dropped() -> None:
    items = (
        "<item><guid>bad</guid>"
        '<podcast:chapters url="file:///etc/passwd" type="application/json"/>'
        '<podcast:transcript url="file:///etc/passwd" type="text/plain"/>'
        '<podcast:transcript url="javascript:alert(1)" type="text/html"/>'
        '<podcast:transcript url=" java&#9;script:alert(1)" type="text/html"/>'
        '<podcast:transcript url="data:text/plain,hi" type="text/plain"/>'
        '<podcast:person href="javascript:alert(1)" img="file:///etc/passwd">Mallory</podcast:person>'
        '<itunes:image href="ftp://example.com/a.jpg"/>'
        "</item>"
        "<item><guid>good</guid>"
        '<podcast:chapters url="file:///etc/passwd"/>'
        '<podcast:chapters url="chapters/2.json" type="application/json+chapters"/>'
        '<podcast:transcript url="  HTTPS://Example.com/t.vtt " type="TEXT/VTT"/>'
        "</item>"
    )
    channel = (
        '<podcast:funding url="javascript:alert(1)">Give</podcast:funding>'
        '<podcast:funding url="/give">Ok</podcast:funding>'
    )
    result = read_extras(_feed(channel, items), BASE)
    bad, good = result.items
    assert bad == ItemExtras(guid="bad", persons=[{"name": "Mallory"}])
    # The first chapters element is unusable, so a later one is taken.
    assert good.chapters_url == "https://feeds.example.org/show/chapters/2.json"
    assert good.chapters_type == "application/json+chapters"
    assert good.transcripts == [{"url": "https://Example.com/t.vtt", "type": "text/vtt"}]
    assert result.channel.funding == [{"url": "https://feeds.example.org/give", "text": "Ok"}]


def test_relative_urls_against_a_local_feed_are_dropped() -> None:
    feed = _feed(items='<item><podcast:chapters url="ch.json"/><itunes:image href="/etc/passwd"/></item>')
    assert read_extras(feed, "file:///home/user/feed.xml").items == [ItemExtras()]


def test_xml_base_is_honoured_unless_unsafe() -> None:
    items = (
        '<item xml:base="https://cdn.example.net/ep1/"><podcast:chapters url="chapters.json"/></item>'
        '<item xml:base="javascript:alert(1)//"><podcast:chapters url="chapters.json"/></item>'
    )
    first, second = read_extras(_feed(items=items), BASE).items
    assert first.chapters_url == "https://cdn.example.net/ep1/chapters.json"
    assert second.chapters_url == "https://feeds.example.org/show/chapters.json"


# --- Other shapes and defects -------------------------------------------------------------------------------------


def test_atom_feed() -> None:
    feed = (
        f'<feed xmlns="http://www.w3.org/2005/Atom" xmlns:podcast="{PODCAST_NS}" xmlns:itunes="{ITUNES_NS}" '
        'xml:base="https://cdn.example.net/show/"><title>A</title><id>urn:feed</id>'
        "<podcast:guid> 5c4a4d5e-0000 </podcast:guid><itunes:type>Serial</itunes:type>"
        '<podcast:person role="Host" img="me.png">Ann</podcast:person>'
        '<entry><id> urn:e1 </id><title>E1</title><podcast:chapters url="ch/1.json" type="application/json"/>'
        "<itunes:episode>12</itunes:episode><podcast:episode>99</podcast:episode></entry>"
        "<entry><title>E2</title><podcast:episode>3.5</podcast:episode><itunes:episodeType>Bonus</itunes:episodeType>"
        "</entry></feed>"
    ).encode()
    result = read_extras(feed, BASE)
    assert result.channel == ChannelExtras(
        podcast_guid="5c4a4d5e-0000",
        itunes_type="serial",
        persons=[{"name": "Ann", "role": "host", "img": "https://cdn.example.net/show/me.png"}],
    )
    assert result.items == [
        ItemExtras(
            guid="urn:e1",
            chapters_url="https://cdn.example.net/show/ch/1.json",
            chapters_type="application/json",
            episode=12,
        ),
        ItemExtras(episode=3, episode_type="bonus"),
    ]
    assert len(result.items) == _feedparser_count(feed)


def test_rss_1_0_rdf_feed() -> None:
    feed = (
        '<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
        f'xmlns="http://purl.org/rss/1.0/" xmlns:itunes="{ITUNES_NS}">'
        '<channel rdf:about="https://example.com/"><title>R</title><link>https://example.com/</link>'
        "<itunes:explicit>yes</itunes:explicit></channel>"
        '<item rdf:about="https://example.com/1"><title>One</title><link>https://example.com/1</link>'
        "<itunes:season>2</itunes:season></item>"
        '<item rdf:about="https://example.com/2"><title>Two</title><link>https://example.com/2</link></item>'
        "</rdf:RDF>"
    ).encode()
    import feedparser

    result = read_extras(feed, BASE)
    assert result.channel.explicit is True
    assert result.items == [
        ItemExtras(guid="https://example.com/1", season=2),
        ItemExtras(guid="https://example.com/2"),
    ]
    assert [item.guid for item in result.items] == [entry.get("id") for entry in feedparser.parse(feed).entries]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("7", 7),
        (" 12 ", 12),
        ("+3", 3),
        ("4.0", 4),
        ("0", 0),
        ("-1", None),
        ("two", None),
        ("", None),
        ("1e3", None),
        ("9" * 40, None),
    ],
)
def test_episode_and_season_numbers(raw: str, expected: int | None) -> None:
    items = f"<item><itunes:episode>{raw}</itunes:episode><itunes:season>{raw}</itunes:season></item>"
    item = read_extras(_feed(items=items), BASE).items[0]
    assert (item.episode, item.season) == (expected, expected)


def test_itunes_number_wins_but_podcast_fills_in() -> None:
    items = (
        "<item><podcast:season>5</podcast:season><itunes:season>junk</itunes:season>"
        "<podcast:episode>8</podcast:episode><itunes:episode>9</itunes:episode></item>"
    )
    item = read_extras(_feed(items=items), BASE).items[0]
    assert (item.season, item.episode) == (5, 9)


def test_html_entities_are_repaired_not_fatal() -> None:
    items = "<item><title>Rock&nbsp;&amp;&nbsp;Roll&hellip;&bogus;</title><itunes:episode>2</itunes:episode></item>"
    assert read_extras(_feed(items=items), BASE).items == [ItemExtras(episode=2)]


def test_unknown_undeclared_prefixes_are_tolerated() -> None:
    feed = (
        b"<!-- a <fake:tag> in a comment --><rss><channel><googleplay:author>x</googleplay:author>"
        b'<podcast:locked>no</podcast:locked><item><media:content url="u"/><itunes:explicit>clean</itunes:explicit>'
        b"</item></channel></rss>"
    )
    result = read_extras(feed, BASE)
    assert result.channel.locked is False
    assert result.items == [ItemExtras(explicit=False)]


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"itunes",
        b"<rss><channel><itunes:explicit>yes</channel></rss>",  # mismatched tag
        _feed(channel="<itunes:explicit>yes</itunes:explicit>")[:-20],  # truncated
        _feed(channel="<itunes:explicit>yes</itunes:explicit>").decode().encode("utf-16-le"),  # no BOM, no marker
        b'<?xml version="1.0" encoding="x-no-such-codec"?><rss xmlns:itunes="' + ITUNES_NS.encode() + b'"/>',
        b'<?xml version="1.0" encoding="big5"?><rss xmlns:itunes="' + ITUNES_NS.encode() + b'"/>',
        b"\xff\xfe\x00\x00garbage itunes podcast:",
    ],
)
def test_unreadable_input_gives_empty_data(data: bytes) -> None:
    assert read_extras(data, BASE) == EMPTY


def test_utf16_feeds_take_the_fast_path() -> None:
    data = (
        _feed(channel="<itunes:explicit>yes</itunes:explicit>")
        .decode()
        .replace('encoding="UTF-8"', 'encoding="UTF-16"')
    )
    # The marker check runs on raw bytes, so UTF-16 feeds take the empty fast path: documented, cheap behaviour.
    assert read_extras(data.encode("utf-16"), BASE) == EMPTY


def test_feed_without_markers_is_not_parsed() -> None:
    plain = b"<rss><channel><title>Blog</title><item><guid>1</guid></item></channel></rss>"
    assert read_extras(plain, BASE) == EMPTY
