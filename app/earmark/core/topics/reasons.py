"""Why two items are related, in words a person would use: the stored ties (citations, a series, a podroll), one
explaining a concept the other builds on ("explains AOTAutograd", "builds on AOTAutograd"), shared tags, and the
specific concepts both are about ("AOTAutograd", "CUDA graphs"), at most three, the most specific first. Worked
out when a list is read, from the stored terms of the few items shown."""

from __future__ import annotations

from collections.abc import Iterable

from earmark.core.db.database import Database
from earmark.core.db.relations import related_items
from earmark.core.models import Related
from earmark.core.topics.corpus import item_tags_of
from earmark.core.topics.library_ties import like_prefix
from earmark.core.topics.prerequisites import CONCEPT, concept_prerequisites
from earmark.core.topics.scoring import CITATION_ORDER, PODROLL, SERIES, SERIES_MAX, SIMILAR, rarity, series_name
from earmark.core.topics.vocabulary import broader

MAX_REASONS = 3
PLAIN_REASON = 0.05  # a plain word names a relation when it weighs this much in both items (product of weights)
Pair = tuple[int, int]


def _terms(db: Database, item_ids: list[int]) -> tuple[dict[int, dict[str, float]], set[str]]:
    """Each item's stored terms with their weights, and which of those terms are specific."""
    found: dict[int, dict[str, float]] = {}
    specific: set[str] = set()
    for start in range(0, len(item_ids), 500):
        chunk = item_ids[start:start + 500]
        marks = ",".join("?" * len(chunk))
        rows = db.execute(f"""SELECT t.item_id, t.term, t.weight, c.topic FROM item_terms t
                              JOIN term_counts c ON c.term = t.term WHERE t.item_id IN ({marks})""", chunk)
        for item_id, term, weight, topic in rows:
            found.setdefault(item_id, {})[term] = weight
            if topic:
                specific.add(term)
    return found, specific


def _labels(db: Database, terms: Iterable[str]) -> dict[str, str]:
    wanted = list(dict.fromkeys(terms))
    found: dict[str, str] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start:start + 500]
        found.update(db.execute(f"SELECT term, label FROM term_counts WHERE label IS NOT NULL AND term IN "
                                f"({','.join('?' * len(chunk))})", chunk).fetchall())
    return found


def shared_concepts(mine: dict[str, float], theirs: dict[str, float], specific: set[str], labels: dict[str, str],
                    limit: int = MAX_REASONS) -> list[str]:
    """The concepts two items share, strongest for both first, as they are written: specific ones, or, when they
    share none, plain words that weigh much in both ("tests"); a concept inside another chosen one ("CUDA" in
    "CUDA graphs", "autograd" in "AOTAutograd") or broader than one ("functorch" beside "AOTAutograd") is left
    out."""
    wider = broader()
    chosen: list[str] = []
    shared = mine.keys() & theirs.keys()
    common = [t for t in shared if t in specific] or [t for t in shared if mine[t] * theirs[t] >= PLAIN_REASON]
    for term in sorted(common, key=lambda t: (-mine[t] * theirs[t], t)):
        flat = term.replace(" ", "")
        if any(flat in other.replace(" ", "") or term in wider.get(other, ()) for other in chosen):
            continue  # inside a chosen concept, or the broader concept of one ("functorch" after "AOTAutograd")
        chosen = [other for other in chosen if other.replace(" ", "") not in flat and other not in wider.get(term, ())]
        chosen.append(term)
        if len(chosen) == limit:
            break
    if not chosen and mine.keys() & theirs.keys():  # close through many plain words: the one weighing most
        chosen = [max(mine.keys() & theirs.keys(), key=lambda t: (mine[t] * theirs[t], t))]
    return [labels.get(term, term) for term in chosen]


def _series(db: Database, item_ids: list[int]) -> dict[int, tuple[int | None, str]]:
    """The series (source, name) each item's title names."""
    found: dict[int, tuple[int | None, str]] = {}
    for start in range(0, len(item_ids), 500):
        chunk = item_ids[start:start + 500]
        rows = db.execute(f"SELECT id, source_id, title FROM items WHERE id IN ({','.join('?' * len(chunk))})", chunk)
        found.update((item_id, (source, name)) for item_id, source, title in rows if (name := series_name(title)))
    sizes = {key: int(db.execute("SELECT count(*) FROM items WHERE source_id IS ? AND title LIKE ? ESCAPE '\\'",
                                 [key[0], like_prefix(key[1])]).fetchone()[0]) for key in set(found.values())}
    return {item_id: key for item_id, key in found.items() if sizes[key] <= SERIES_MAX}  # else: a show's naming


def explain(db: Database, pairs: dict[Pair, list[str]]) -> dict[Pair, list[str]]:
    """The reasons of each (item, other) pair, from its stored reasons (citations, series, podroll) on."""
    item_ids = sorted({i for pair in pairs for i in pair})
    terms, specific = _terms(db, item_ids)
    labels = _labels(db, {t for mine in terms.values() for t in mine})
    tags, tag_counts = item_tags_of(db, item_ids)
    series = _series(db, item_ids)
    total = int(db.execute("SELECT count(*) FROM items").fetchone()[0])
    result = {}
    for (a, b), stored in pairs.items():
        reasons = [r for r in stored if r != PODROLL and r != SIMILAR]
        in_series = (name := series.get(a)) is not None and series.get(b) == name
        if name is not None and in_series:
            reasons.append(f"{SERIES}: {name[1]}")
        shared = sorted(tags.get(a, frozenset()) & tags.get(b, frozenset()), key=lambda t: (tag_counts[t], t))
        reasons += [f"tag: {tag}" for tag in shared if rarity(tag_counts[tag], total) > 0][:1]  # the rarest: one
        # subject is enough beside the concepts, which say what the two share in their own words
        if len(reasons) < MAX_REASONS:
            told = {name[1].lower()} if name is not None and in_series else set()  # the series said it already
            reasons += [concept for concept in shared_concepts(terms.get(a, {}), terms.get(b, {}), specific, labels,
                                                               MAX_REASONS - len(reasons) + len(told))
                        if concept.lower() not in told][:MAX_REASONS - len(reasons)]
        if PODROLL in stored:
            reasons.append(PODROLL)
        result[(a, b)] = reasons[:MAX_REASONS] or [SIMILAR]
    return result


def related(db: Database, item_id: int, limit: int = 10) -> list[Related]:
    """The items most related to ``item_id``, best first, each with its reasons."""
    rows = related_items(db, item_id, limit)
    reasons = explain(db, {(item_id, row.id): row.reasons for row in rows})
    taught = _taught(db, item_id, [row.id for row in rows if not set(row.reasons) & set(CITATION_ORDER)])
    for row in rows:
        found = reasons[(item_id, row.id)]
        if row.id in taught:  # after the citations, in place of the bare concept
            told = taught[row.id]
            cited = [r for r in found if r in CITATION_ORDER]
            rest = [r for r in found if r not in CITATION_ORDER and r.lower() != told[1].lower() and r != SIMILAR]
            found = [*cited, f"{told[0]} {told[1]}", *rest][:MAX_REASONS]
        row.reasons = found
    return rows


def _taught(db: Database, item_id: int, others: list[int]) -> dict[int, tuple[str, str]]:
    """Which of ``others`` explain a concept ``item_id`` builds on ("explains", concept), or build on one it
    explains ("builds on", concept): the learning path's concept ties, for the Related pane (none where each
    explains something to the other: the path settles those by the podcast's order, a pane needs no doubt)."""
    mine = {t.other: t for t in concept_prerequisites(db, item_id)}
    found: dict[int, tuple[str, str]] = {}
    for other in others:
        back = next((t for t in concept_prerequisites(db, other) if t.other == item_id), None)
        if (other in mine) == (back is not None):
            continue
        told = ("explains", mine[other]) if other in mine else ("builds on", back)
        if told[1] is not None and told[1].how == CONCEPT:
            found[other] = (told[0], told[1].concept)
    return found
