"""What relates items besides their texts, read from the library: resolved citations, series in titles, tags
(as a sparse matrix of rarities) and podrolls."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from earmark.core.db import relations as store
from earmark.core.db.database import Database
from earmark.core.topics import citations
from earmark.core.topics.corpus import item_tags
from earmark.core.topics.scoring import Ties, citation_reasons, keep_series, rarity, series_name

if TYPE_CHECKING:
    import numpy as np
    from scipy.sparse import csr_matrix


def podroll_pairs(db: Database) -> set[tuple[int, int]]:
    """Pairs of sources (both ways) where one recommends the other in its podcast:podroll."""
    sources = db.execute("SELECT id, podcast_guid, url, podroll FROM sources").fetchall()
    by_key = {}
    for source_id, guid, url, _podroll in sources:
        for key in (f"guid:{guid}" if guid else None, citations.url_key(url)):
            if key:
                by_key[key] = source_id
    pairs = set()
    for source_id, _guid, _url, podroll in sources:
        for key in citations.podroll_targets(podroll):
            other = by_key.get(key)
            if other is not None and other != source_id:
                pairs |= {(source_id, other), (other, source_id)}
    return pairs


def read_ties(db: Database, series: dict[int, str], sources: dict[int, int | None]) -> Ties:
    """Every resolved citation, the series shared by enough items of one source (``series``: each titled item's
    series name), the podroll; ``sources`` maps the items concerned to their source."""
    return Ties(citations=citation_reasons(store.all_citations(db)), series=keep_series(series, sources),
                sources=sources, podroll=podroll_pairs(db))


def ties_of(db: Database, item_id: int, others: list[int], podroll: set[tuple[int, int]]) -> Ties:
    """The ties between one item and ``others`` (for working out a new or changed item; ``podroll``: the library's
    podroll pairs)."""
    wanted = [item_id, *others]
    marks = ",".join("?" * len(wanted))
    rows = db.execute(f"SELECT id, source_id, title FROM items WHERE id IN ({marks})", wanted).fetchall()
    sources = {row[0]: row[1] for row in rows}
    names = {row[0]: name for row in rows if (name := series_name(row[2]))}
    mine = names.get(item_id)
    if mine is not None:  # a series counts when enough items of the source share it
        members = db.execute("SELECT id, title FROM items WHERE source_id IS ? AND title LIKE ? ESCAPE '\\'",
                             [sources.get(item_id), like_prefix(mine)]).fetchall()
        names.update((other, name) for other, title in members if (name := series_name(title)) == mine)
        sources.update((other, sources.get(item_id)) for other, _title in members)
    return Ties(citations=citation_reasons(store.citations_of(db, item_id)), series=keep_series(names, sources),
                sources=sources, podroll=podroll)


def like_prefix(text: str) -> str:
    """A LIKE pattern for the texts that start with ``text`` (with ESCAPE '\\')."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def tag_matrix(db: Database, ids: np.ndarray) -> csr_matrix:
    """Items (rows in the order of ``ids``) × tags, each entry the tag's rarity in the library."""
    import numpy as np
    from scipy.sparse import csr_matrix

    tags = item_tags(db)
    counts = Counter(name for names in tags.values() for name in names)
    columns = {name: number for number, name in enumerate(counts)}
    position = {int(item_id): row for row, item_id in enumerate(ids.tolist())}
    rows, cols, data = [], [], []
    for item_id, names in tags.items():
        row = position.get(item_id)
        if row is None:
            continue
        for name in names:
            rows.append(row)
            cols.append(columns[name])
            data.append(rarity(counts[name], len(ids)))
    return csr_matrix((np.asarray(data, np.float32), (rows, cols)), shape=(len(ids), len(columns)))


def rare_tag_partners(db: Database, small: int) -> dict[int, set[int]]:
    """Items sharing a tag that at most ``small`` items carry: scored together whatever their texts say."""
    by_tag: dict[str, set[int]] = {}
    for item_id, names in item_tags(db).items():
        for name in names:
            by_tag.setdefault(name, set()).add(item_id)
    partners: dict[int, set[int]] = {}
    for members in by_tag.values():
        if len(members) <= small:
            for item_id in members:
                partners.setdefault(item_id, set()).update(members - {item_id})
    return partners
