"""Synthetic Earmark libraries for benchmarks: many podcasts, episodes and articles, built fast and cached."""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from earmark.core.db.connection import open_library
from earmark.core.db.migrations import MIGRATIONS
from earmark.core.db.search_words import learn_pending
from earmark.core.db.show_notes import pack

CACHE_DIR = Path(__file__).resolve().parent / ".cache"
# Bump when the generated content changes, so cached libraries are rebuilt.
GENERATOR_VERSION = 1
# Dates are spread over the ten years before this fixed moment (not "now", so a build is reproducible).
NEWEST = datetime(2025, 1, 1, tzinfo=UTC)
SPAN_SECONDS = 10 * 365 * 24 * 3600
ADDED = "2025-01-02T00:00:00+00:00"
CHECKED = "2025-01-02T00:00:00+00:00"
SENTENCE_POOL = 4000
BATCH = 2000
Row = tuple[object, ...]

WORDS = """
able about above across action actually advice after again against agent algorithm almost already also always
among analysis answer anyone approach around article audio author average baby back balance bank base battle
beautiful because become before begin behind believe benefit best better between beyond big bird black blood
board body book border brain break bring brother budget build business call camera campaign cancer capital car
card care career carry case catch cause center central century certain chair challenge chance change chapter
character charge check child choice church citizen city civil claim class clear climate close coach code coffee
cold collection college color common community company compare computer concern condition conference control
cost country course court cover create crime culture cup current customer dark data daughter day dead deal
death debate decade decide deep defense degree design detail develop device difference difficult dinner
direction discover discuss disease doctor dog door dream drive drop early earth east economy edge education
effect effort election energy engine enjoy enough entire environment episode evening event evidence exactly
example experience expert explain eye face fact factor family far fast father fear feature feel field fight
figure film final finance find fire first fish floor focus food force foreign forest forget form forward free
friend front future game garden general generation girl glass global goal good government great green ground
group grow growth guest gun hair half hand happen hard head health hear heart heat heavy history hold home hope
hospital hotel hour house human idea image impact important improve include income industry information inside
instead interest interview island issue job join journey judge just keep key kid kind kitchen know knowledge
land language large late later law lawyer lead learn least leave left legal less letter level library life
light line list listen little live local long look lose loss love machine magazine main major make manage
market marriage material matter maybe measure media medical meet member memory method middle might military
million mind minute mission model modern moment money month morning mother mountain move movie music nation
natural nature near need network never news night north note nothing notice number ocean offer office often
open operation option order organization other outside owner page pain painting paper parent part party pass
past patient pattern pay peace people perform period person phone physical picture piece place plan plant play
player point police policy political popular population position power practice prepare present president
pressure pretty price private problem process produce product program project property protect prove public
pull purpose push quality question quickly quite radio range rate rather reach read ready real reality reason
receive recent record red reduce reflect region relate remain remember report research resource response rest
result return reveal rich right river road rock role room rule run safe save scene school science score sea
season second secret security seek sense series serious serve service seven several shake share short show side
sign signal simple simply single sister site situation size skill skin small social society soldier solution
someone something song sound source south space speak special speech sport spring staff stage stand standard
star start state station stay step stock stone stop store story strategy street strong student study style
subject success suddenly summer support surface system table talk task teach team technology television tell
test theory thing think third thought thousand threat through time today together tonight total tough toward
town trade traditional training travel treatment tree trial trip trouble true truth try turn type under
understand unit until upon usually value various victim view violence visit voice vote wait walk wall want war
watch water wave way weapon wear week weight west western white whole wide wife window wind winter wish woman
wonder word work worker world write writer wrong yard year young
""".split()

SHOW_NOUNS = ("Hour", "Show", "Podcast", "Hour", "Radio", "Review", "Weekly", "Daily", "Talk", "Notes", "Desk",
              "Report", "Conversations", "Lab", "Briefing", "Journal")


@dataclass(slots=True)
class LibraryInfo:
    """What a built library holds and how long building it took."""

    path: str
    podcasts: int
    episodes: int
    sites: int
    articles: int
    seed: int
    build_seconds: float
    size_bytes: int
    cached: bool = False


def _schema_digest() -> str:
    """The number of migrations and a digest of the schema code: every module of the migrations package (the
    steps and the helpers they use, such as the search index's triggers)."""
    folder = Path(inspect.getfile(MIGRATIONS[0])).parent
    source = "".join(path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.py")))
    return f"{len(MIGRATIONS)}.{hashlib.sha1(source.encode()).hexdigest()[:8]}"


def cache_name(podcasts: int, episodes: int, articles: int, seed: int, sites: int | None = None) -> str:
    """The cache file name for these parameters (generator version and a digest of the schema included, so a
    changed migration builds a new library)."""
    site_count = _site_count(articles, sites)
    return (f"library-g{GENERATOR_VERSION}-s{_schema_digest()}-p{podcasts}-e{episodes}-w{site_count}-a{articles}"
            f"-r{seed}.sqlite")


def cached_library(podcasts: int = 300, episodes: int = 100_000, articles: int = 0, seed: int = 1,
                   sites: int | None = None, cache_dir: Path = CACHE_DIR) -> LibraryInfo:
    """The cached library for these parameters under ``cache_dir``, built first when it is not there yet."""
    path = cache_dir / cache_name(podcasts, episodes, articles, seed, sites)
    meta = path.with_suffix(".json")
    if path.exists() and meta.exists():
        info = LibraryInfo(**json.loads(meta.read_text(encoding="utf-8")))
        info.path, info.cached, info.size_bytes = str(path), True, path.stat().st_size
        return info
    cache_dir.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    for leftover in (partial, *_sidecars(partial)):
        leftover.unlink(missing_ok=True)
    info = _build(partial, podcasts, episodes, articles, seed, sites)
    os.replace(partial, path)
    info.path, info.size_bytes = str(path), path.stat().st_size
    meta.write_text(json.dumps(asdict(info), indent=2) + "\n", encoding="utf-8")
    return info


def build_library(path: str | Path, podcasts: int = 300, episodes: int = 100_000, articles: int = 0, seed: int = 1,
                  sites: int | None = None) -> Path:
    """Create a new library at ``path`` (which must not exist) through Earmark's own ``open_library``, so the
    schema, triggers and pragmas are the real ones, and fill it with synthetic sources and items.

    ``podcasts`` podcasts share ``episodes`` episodes (unevenly, like real feeds); ``articles`` articles are
    spread over ``sites`` sites (default: one per 200 articles, at least one). Dates cover ten years.
    The same parameters and ``seed`` always give the same library.
    """
    path = Path(path)
    if path.exists():
        raise FileExistsError(f"{path} exists; build_library only creates new libraries")
    _build(path, podcasts, episodes, articles, seed, sites)
    return path


def _site_count(articles: int, sites: int | None) -> int:
    if articles <= 0:
        return 0
    return max(1, sites if sites is not None else math.ceil(articles / 200))


def _sidecars(path: Path) -> tuple[Path, Path]:
    return path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")


def _build(path: Path, podcasts: int, episodes: int, articles: int, seed: int, sites: int | None) -> LibraryInfo:
    if podcasts < 1 and episodes > 0:
        raise ValueError("episodes need at least one podcast")
    site_count = _site_count(articles, sites)
    started = time.perf_counter()
    rng = random.Random(seed)
    sentences = _sentence_pool(rng)
    db = open_library(path)
    conn = db.conn
    conn.execute("PRAGMA cache_size = -262144")  # 256 MiB for this connection: faster index and FTS building
    conn.execute("BEGIN IMMEDIATE")
    try:
        podcast_titles = _unique_titles(rng, podcasts, _podcast_title)
        conn.executemany(
            """INSERT INTO sources (id, kind, title, url, link, description, author, image_url, status,
                   last_checked, added) VALUES (?, 'podcast', ?, ?, ?, ?, ?, ?, 'ok', ?, ?)""",
            (
                (number, title, f"https://example.invalid/feeds/{number}.xml", f"https://example.invalid/shows/{number}",
                 _text(rng, sentences, 200, 600), _person(rng), f"https://example.invalid/art/{number}.jpg",
                 CHECKED, ADDED)
                for number, title in enumerate(podcast_titles, start=1)
            ),
        )
        site_titles = _unique_titles(rng, site_count, _site_title)
        conn.executemany(
            "INSERT INTO sources (id, kind, title, link, added) VALUES (?, 'site', ?, ?, ?)",
            (
                (podcasts + number, title, f"https://site{number}.example.invalid/", ADDED)
                for number, title in enumerate(site_titles, start=1)
            ),
        )
        columns = ("source_id, kind, identity, guid, title, url, enclosure_url, enclosure_type, published, duration, "
                   "author, description, content, text, added")
        insert = f"INSERT INTO items ({columns}) VALUES ({', '.join('?' * 15)})"
        for batch in _batches(_episodes(rng, sentences, podcasts, episodes)):
            conn.executemany(insert, batch)
        first_site = podcasts + 1
        for batch in _batches(_articles(rng, sentences, first_site, site_count, articles)):
            conn.executemany(insert, batch)
        learn_pending(conn)  # what write_transaction does before its commit: the search vocabulary learns the words
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        conn.close()
        raise
    conn.execute("PRAGMA optimize")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return LibraryInfo(path=str(path), podcasts=podcasts, episodes=episodes, sites=site_count, articles=articles,
                       seed=seed, build_seconds=round(time.perf_counter() - started, 2),
                       size_bytes=path.stat().st_size)


def _sentence_pool(rng: random.Random) -> list[str]:
    pool = []
    for _ in range(SENTENCE_POOL):
        words = rng.choices(WORDS, k=rng.randint(5, 18))
        pool.append(" ".join(words).capitalize() + rng.choice("....?!"))
    return pool


def _text(rng: random.Random, sentences: list[str], low: int, high: int) -> str:
    """Plain text of ``low``..``high`` characters (whole sentences, so a little over ``low`` at least)."""
    target = rng.randint(low, high)
    parts: list[str] = []
    length = 0
    while length < target:
        sentence = rng.choice(sentences)
        parts.append(sentence)
        length += len(sentence) + 1
    return " ".join(parts)


def _title(rng: random.Random) -> str:
    words = rng.choices(WORDS, k=max(1, min(14, int(rng.lognormvariate(1.5, 0.5)))))
    return " ".join(words).title()


def _podcast_title(rng: random.Random) -> str:
    return f"The {' '.join(rng.choices(WORDS, k=rng.randint(1, 3))).title()} {rng.choice(SHOW_NOUNS)}"


def _site_title(rng: random.Random) -> str:
    return f"{' '.join(rng.choices(WORDS, k=rng.randint(1, 2))).title()} {rng.choice(('Blog', 'Journal', 'Notes'))}"


def _unique_titles(rng: random.Random, count: int, make: Callable[[random.Random], str]) -> list[str]:
    seen: set[str] = set()
    titles: list[str] = []
    while len(titles) < count:
        title = make(rng)
        if title not in seen:
            seen.add(title)
            titles.append(title)
    return titles


def _person(rng: random.Random) -> str:
    return f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()}"


def _split(rng: random.Random, total: int, parts: int) -> list[int]:
    """``total`` split into ``parts`` uneven shares (log-normal weights), each at least 1 when possible."""
    if parts <= 0:
        return []
    weights = [rng.lognormvariate(0.0, 1.0) for _ in range(parts)]
    floor = 1 if total >= parts else 0
    spare = total - floor * parts
    scale = spare / sum(weights)
    shares = [floor + int(w * scale) for w in weights]
    for index in rng.sample(range(parts), total - sum(shares)):
        shares[index] += 1
    return shares


def _iso(seconds_before_newest: float) -> str:
    return (NEWEST - timedelta(seconds=int(seconds_before_newest))).isoformat()


def _episodes(rng: random.Random, sentences: list[str], podcasts: int, episodes: int) -> Iterator[Row]:
    for source_id, count in enumerate(_split(rng, episodes, podcasts), start=1):
        # Each podcast runs for part of the ten years, publishing roughly evenly within its run.
        run = rng.uniform(0.1, 1.0) * SPAN_SECONDS
        end = rng.uniform(0.0, SPAN_SECONDS - run)
        step = run / max(1, count)
        numbered = rng.random() < 0.5
        for number in range(1, count + 1):
            guid = f"urn:earmark-bench:{source_id}:{number}"
            title = _title(rng)
            if numbered:
                title = f"#{number}: {title}" if rng.random() < 0.7 else f"Episode {number} — {title}"
            text = _text(rng, sentences, 300, 1500)
            published = _iso(end + (count - number) * step + rng.uniform(0, step / 2))
            duration = float(rng.randint(5 * 60, 3 * 3600))
            yield (source_id, "episode", f"guid:{guid}", guid, title, f"https://example.invalid/e/{source_id}/{number}",
                   f"https://example.invalid/audio/{source_id}/{number}.mp3", "audio/mpeg", published, duration,
                   None, pack(f"<p>{text}</p>", text), "", text, ADDED)  # stored as the import stores it


def _articles(rng: random.Random, sentences: list[str], first_site: int, sites: int,
              articles: int) -> Iterator[Row]:
    for offset, count in enumerate(_split(rng, articles, sites)):
        source_id = first_site + offset
        for number in range(1, count + 1):
            url = f"https://site{offset + 1}.example.invalid/{number}"
            paragraphs = [_text(rng, sentences, 300, 900) for _ in range(rng.randint(3, 10))]
            html, text = "".join(f"<p>{p}</p>" for p in paragraphs), "\n\n".join(paragraphs)
            yield (source_id, "article", f"url:{url}", None, _title(rng), url, None, None,
                   _iso(rng.uniform(0, SPAN_SECONDS)), None, _person(rng), "", pack(html, text), text, ADDED)


def _batches(rows: Iterator[Row]) -> Iterator[list[Row]]:
    batch: list[Row] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def main(argv: list[str] | None = None) -> int:
    """``python bench/synthetic.py``: build (or reuse) a cached library, or build one at ``--out``."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--podcasts", type=int, default=300)
    parser.add_argument("--episodes", type=int, default=100_000)
    parser.add_argument("--articles", type=int, default=0)
    parser.add_argument("--sites", type=int, default=None, help="sites holding the articles (default: 1 per 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="build a new library here instead of in the cache")
    args = parser.parse_args(argv)
    if args.out:
        started = time.perf_counter()
        path = build_library(args.out, args.podcasts, args.episodes, args.articles, args.seed, args.sites)
        print(f"{path}: {path.stat().st_size / 2**20:.0f} MiB, built in {time.perf_counter() - started:.1f} s")
        return 0
    info = cached_library(args.podcasts, args.episodes, args.articles, args.seed, args.sites)
    state = "reused from cache" if info.cached else "built"
    print(f"{info.path}: {info.size_bytes / 2**20:.0f} MiB, {state} (build took {info.build_seconds:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
