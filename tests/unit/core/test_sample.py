"""The shipped sample library: 51 offline episodes and 3 articles, loadable twice without change."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import get_item, list_items
from earmark.core.db.sources import list_sources
from earmark.core.db.tags import tag_counts, untag_item
from earmark.core.models import Item
from earmark.core.sample import ARTICLES_FILE, load_sample, sample_folder

REFERENCE_COUNTING_URL = "https://pytorch-dev-podcast.simplecast.com/episodes/reference-counting"


def _episodes(db: Database) -> list[Item]:
    return list_items(db, ItemFilter(kind="episode"))


def _one(db: Database, title: str) -> Item:
    matches = [item for item in list_items(db, ItemFilter()) if item.title == title]
    assert len(matches) == 1, f"{len(matches)} items titled {title!r}"
    return get_item(db, matches[0].id)


def _articles_json() -> list[dict[str, object]]:
    return json.loads((sample_folder() / ARTICLES_FILE).read_text(encoding="utf-8"))


def test_sample_has_51_episodes_and_3_articles(library: Database) -> None:
    result = load_sample(library)
    assert (result.episodes, result.articles) == (51, 3)
    assert len(_episodes(library)) == 51
    assert len(list_items(library, ItemFilter(kind="article"))) == 3


def test_every_episode_plays_offline(library: Database) -> None:
    load_sample(library)
    for episode in _episodes(library):
        assert episode.enclosure_url, episode.title
        parsed = urlparse(episode.enclosure_url)
        assert parsed.scheme == "file", episode.enclosure_url
        assert Path(url2pathname(parsed.path)).is_file(), episode.enclosure_url
        assert episode.title.strip()
        assert episode.duration is not None and episode.duration > 0, episode.title
        assert episode.published is not None
        datetime.fromisoformat(episode.published)
        assert episode.source == "PyTorch Developer Podcast"
        assert (episode.position, episode.played) == (0.0, False)


def test_episode_files_are_distinct(library: Database) -> None:
    load_sample(library)
    assert len({episode.enclosure_url for episode in _episodes(library)}) == 51


def test_weak_references_links_to_the_reference_counting_episode(library: Database) -> None:
    load_sample(library)
    weak = _one(library, "Weak references")
    assert f'href="{REFERENCE_COUNTING_URL}"' in weak.description
    assert _one(library, "Reference counting").url == REFERENCE_COUNTING_URL


def test_inductor_episode_has_its_tag(library: Database) -> None:
    load_sample(library)
    assert "inductor" in _one(library, "Inductor - Post-grad FX passes").tags
    tagged = [item.title for item in list_items(library, ItemFilter(tag="inductor", kind="episode"))]
    assert "Inductor - Post-grad FX passes" in tagged


def test_articles_are_filed_under_their_sites(library: Database) -> None:
    load_sample(library)
    expected = {str(a["title"]): (str(a["site"]), str(a["url"]), sorted(a.get("tags", []))) for a in _articles_json()}
    articles = {item.title: item for item in list_items(library, ItemFilter(kind="article"))}
    assert set(articles) == set(expected)
    for title, (site, url, tags) in expected.items():
        article = get_item(library, articles[title].id)
        assert (article.source, article.url, article.tags) == (site, url, tags)
        assert article.content.strip()
    sites = {s.title: s for s in list_sources(library) if s.kind == "site"}
    assert set(sites) == {site for site, _, _ in expected.values()}
    assert all(s.url is None for s in sites.values())


def test_loading_twice_changes_nothing(library: Database) -> None:
    load_sample(library)
    items = [(item.id, item.title, item.tags) for item in list_items(library, ItemFilter())]
    sources = list_sources(library)
    tags = tag_counts(library)

    again = load_sample(library)

    assert (again.episodes, again.articles) == (51, 3)
    assert [(item.id, item.title, item.tags) for item in list_items(library, ItemFilter())] == items
    assert [(s.id, s.title, s.item_count) for s in list_sources(library)] == [
        (s.id, s.title, s.item_count) for s in sources]
    assert tag_counts(library) == tags
    assert len(items) == 54


def test_loading_again_keeps_the_users_tag_edits(library: Database) -> None:
    load_sample(library)
    by_title = {item.title: item for item in list_items(library, ItemFilter())}
    episode = by_title["Inductor - Post-grad FX passes"]
    article = by_title["PyTorch Shanghai Meetup Notes"]
    untag_item(library, episode.id, ["fx"])
    untag_item(library, article.id, ["meetup"])
    load_sample(library)
    assert "fx" not in get_item(library, episode.id).tags
    assert "meetup" not in get_item(library, article.id).tags
    assert "inductor" in get_item(library, episode.id).tags
