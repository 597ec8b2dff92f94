"""Prerequisites from what items say, not only what they cite: an item that explains a concept (its title names
it: teaching.py) comes before the items that use the concept (among their strongest terms, worked out by the
relation pass over show notes, articles and transcripts) without explaining it; and in a series ("Inductor - IR",
"Inductor - Define-by-run IR") the episode before comes first. Read from what the relation pass stored, for the few
items of one learning path."""

from __future__ import annotations

import re
from itertools import chain

from earmark.core.db.database import Database
from earmark.core.records import record
from earmark.core.topics import concepts
from earmark.core.topics.library_ties import like_prefix
from earmark.core.topics.scoring import series_name
from earmark.core.topics.teaching import inside
from earmark.core.topics.vocabulary import broader

USE_TERMS = 32  # an item uses the concepts among its strongest terms
MIN_USE = 0.03  # weighing at least this much in its vector
MENTION = MIN_USE  # the weight of a name its show notes write that its strongest terms leave out
MIN_SHARE = 0.5  # an item explains a concept when its title is about it, or about it and one other
SERIES_SCORE = 0.5  # the episode before in a series or on one subject, beside a concept (use × explained share)
SUBJECT_SHARE = 0.3  # two titles of one podcast about the same concept (a third of each, at least)
CONCEPT, SERIES, EARLIER = "concept", "series", "earlier"
_WORD = re.compile(r"[\w.+#-]+")
_NAMEISH = re.compile(r".[A-Z]|\d|_|\+|^[A-Z]{2}")  # PT2, AOTAutograd, CUDA, torch_function, C++: read as names


@record(frozen=True)
class Taught:
    """``other`` explains ``concept`` (as written), which the item uses: ``how`` is CONCEPT, SERIES for the
    episode before in the series named ``concept``, or EARLIER for the podcast's episode before on that concept;
    ``score`` says how strongly; ``term`` is the concept as the analyser reads it."""

    other: int
    concept: str
    how: str
    score: float
    term: str = ""


def concept_prerequisites(db: Database, item_id: int) -> list[Taught]:
    """The items that explain what ``item_id`` uses without explaining it, strongest first (one concept each)."""
    terms = db.execute("SELECT term, weight FROM item_terms WHERE item_id = ? AND weight >= ? ORDER BY rank LIMIT ?",
                       [item_id, MIN_USE, USE_TERMS]).fetchall()
    mine = dict(db.execute("SELECT term, strength FROM item_concepts WHERE item_id = ?", [item_id]).fetchall())
    own = list(mine)
    wider = broader()
    families = set(chain.from_iterable(wider.get(term, ()) for term in own))
    terms = terms + _named(db, item_id, {term for term, _weight in terms})
    used = {term: weight for term, weight in terms
            if not any(term == mine or inside(term, mine) for mine in own)
            and not any(inside(term, other) and theirs >= weight for other, theirs in terms)}
    found: dict[int, Taught] = {}
    for term, (other, strength) in _teachers(db, list(used), item_id).items():
        whole = strength >= 1.0
        if term in families and not whole:  # AOTAutograd is PT2: only an item about PT2 itself explains it
            continue
        if not whole and not _specific(db, term):
            continue
        taught = Taught(other, _label(db, term), CONCEPT, used[term] * strength, term)
        if other not in found or found[other].score < taught.score:
            found[other] = taught
    pieces = {term: weight for term, weight in terms if mine.get(term) == 0.0}  # "inductor" of AOTInductor
    openers = _series_openers(db, item_id, used | pieces)
    for before in (_series_before(db, item_id), _subject_before(db, item_id, mine), *openers):
        if before is not None and before.other not in found:
            found[before.other] = before
    return sorted(found.values(), key=lambda t: (-t.score, t.other))


def _teachers(db: Database, terms: list[str], item_id: int) -> dict[str, tuple[int, float]]:
    """The item that explains each term best (the largest share; then the earliest published), and that share.
    A podcast's order is its own teaching order: a later episode of the same podcast explains a word of its
    title's name ("autograd" of Compiled autograd, "APIs" of ATen APIs) to none of the podcast's earlier ones."""
    if not terms:
        return {}
    rows = db.execute(
        f"""SELECT c.term, c.item_id, c.strength, i.source_id IS me.source_id AND i.published > me.published
            FROM item_concepts c JOIN items i ON i.id = c.item_id JOIN items me ON me.id = ?
            WHERE c.term IN ({','.join('?' * len(terms))}) AND c.item_id != me.id AND c.strength >= ?
            ORDER BY c.term, c.strength DESC, i.published IS NULL, i.published, i.id""", [item_id, *terms, MIN_SHARE])
    best: dict[str, tuple[int, float]] = {}
    for term, other, strength, later in rows:
        if term not in best and not (later and _piece(db, other, term)):
            best[term] = (other, strength)
    return best


def _piece(db: Database, item_id: int, term: str) -> bool:
    """Whether ``term`` is only a word of a longer concept the item's title names, or one of the overlapping pairs
    the analyser reads a longer name as ("higher order" and "order operators" of "Higher order operators")."""
    words = set(term.split())
    return any(inside(term, other) if strength >= 1.0 else len(words) > 1 and len(words & set(other.split())) == 1
               for other, strength in db.execute(
                   "SELECT term, strength FROM item_concepts WHERE item_id = ? AND term != ? AND strength >= ?",
                   [item_id, term, MIN_SHARE]))


def _specific(db: Database, term: str) -> bool:
    row = db.execute("SELECT topic FROM term_counts WHERE term = ?", [term]).fetchone()
    return bool(row and row[0])


def _label(db: Database, term: str) -> str:
    row = db.execute("SELECT label FROM term_counts WHERE term = ?", [term]).fetchone()
    return row[0] if row and row[0] else term


def _series_before(db: Database, item_id: int) -> Taught | None:
    """The episode before ``item_id`` in the series its title names, in its podcast's order."""
    row = db.execute("SELECT source_id, title, published FROM items WHERE id = ?", [item_id]).fetchone()
    if row is None or row[2] is None or (name := series_name(row[1])) is None:
        return None
    for other, title in db.execute(
            """SELECT id, title FROM items WHERE source_id IS ? AND title LIKE ? ESCAPE '\\' AND published < ?
               ORDER BY published DESC, id DESC LIMIT 5""", [row[0], like_prefix(name), row[2]]):
        if series_name(title) == name:
            return Taught(other, name, SERIES, SERIES_SCORE, name)
    return None


def _subject_before(db: Database, item_id: int, mine: dict[str, float]) -> Taught | None:
    """The podcast's episode before ``item_id`` whose title is about a concept this one's title is about too
    ("CUDA graphs", then "CUDA graph trees"): a whole concept of both titles, not a piece ("AOT" of AOTAutograd and
    AOTInductor) nor a plain word ("compiler" of Compiled autograd and Compiler collectives). For an item wholly
    about one concept ("PyTorch 2.0"), the latest item before it from anywhere that explains it (the conference
    notes that "introduced PyTorch 2.0")."""
    subjects = [term for term, strength in mine.items()
                if strength >= SUBJECT_SHARE and not any(inside(term, other) for other in mine)
                and (strength >= 1.0 or _specific(db, term))]
    if not subjects:
        return None
    whole = [term for term in subjects if mine[term] >= 1.0] or [""]
    row = db.execute(
        f"""SELECT c.item_id, c.term FROM items i JOIN items o ON o.published < i.published
            JOIN item_concepts c ON c.item_id = o.id AND c.strength >= ?
                 AND (o.source_id IS i.source_id OR c.term IN ({','.join('?' * len(whole))}))
            WHERE i.id = ? AND c.term IN ({','.join('?' * len(subjects))})
                  AND NOT EXISTS (SELECT 1 FROM item_concepts w WHERE w.item_id = o.id AND w.term != c.term
                                  AND instr(replace(w.term, ' ', ''), replace(c.term, ' ', '')) > 0)
            ORDER BY o.published DESC, o.id DESC LIMIT 1""", [SUBJECT_SHARE, *whole, item_id, *subjects]).fetchone()
    return Taught(row[0], _label(db, row[1]), EARLIER, SERIES_SCORE, row[1]) if row else None


def _series_openers(db: Database, item_id: int, used: dict[str, float]) -> list[Taught]:
    """A podcast's series on a concept ("Inductor - IR", "Inductor - Define-by-run IR") is where the podcast
    explains it: the series' first episode comes before the podcast's later episodes outside the series that use
    the concept, even as a piece of its own name (AOTInductor). A series is two episodes or more before the item."""
    row = db.execute("SELECT source_id, published, title FROM items WHERE id = ?", [item_id]).fetchone()
    if row is None or row[0] is None or row[1] is None:
        return []
    names: dict[str, list[int]] = {}
    for other, title in db.execute(
            """SELECT id, title FROM items WHERE source_id = ? AND published < ?
                      AND (title LIKE '% - %' OR title LIKE '%: %' OR title LIKE '% – %' OR title LIKE '% — %'
                           OR title LIKE '% | %')
               ORDER BY published, id LIMIT 2000""", [row[0], row[1]]):
        name = series_name(title)
        if name is not None:
            names.setdefault(name, []).append(other)
    found = []
    for name, ids in names.items():
        named = concepts.concepts(name) if len(ids) >= 2 and name != series_name(row[2]) else []
        if named and named[0] in used:
            found.append(Taught(ids[0], _label(db, named[0]), EARLIER, SERIES_SCORE * used[named[0]], named[0]))
    return found


def _named(db: Database, item_id: int, known: set[str]) -> list[tuple[str, float]]:
    """The names (not plain words: "distributions" is no mention of distributed) the item's own words write (not
    its transcript) that some other item's title is wholly about: "the CUDA graphs implementation that PT2 uses"
    uses PT2 though PT2 is not among its strongest terms."""
    row = db.execute("SELECT title, text FROM items WHERE id = ?", [item_id]).fetchone()
    if row is None or not row[1]:
        return []
    written = ", ".join(word for word in _WORD.findall(row[1]) if _NAMEISH.search(word))
    named = {name for run in concepts.tokens(written) for tok in run for name in tok.names} - known
    if not named:
        return []
    whole = {term for (term,) in db.execute(
        f"""SELECT DISTINCT term FROM item_concepts WHERE term IN ({','.join('?' * len(named))})
            AND strength >= 1.0 AND item_id != ?""", [*named, item_id])}
    return [(term, MENTION) for term in sorted(whole)]
