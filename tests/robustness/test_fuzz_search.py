"""Search queries of any Unicode (FTS5 operators, quotes, NULs, surrogates from undecodable argv bytes) and any
filter values, through the search functions and the ``earmark search`` command: results or a one-line error."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from earmark.cli import main
from earmark.core.db.connection import open_library
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import count_items, list_items
from earmark.core.errors import EarmarkError
from helpers import notes_library
from helpers.fuzz import assert_sentence, honour, scaled
from helpers.parsers import PARSERS

FTS_TOKENS = ('"', "'", "*", "^", ":", "-", "+", "(", ")", "{", "}", "AND", "OR", "NOT", "NEAR", "NEAR(a b, 2)",
              "title:", "{title text}:", "text:graph", "\x00", "\\", "%", "_", "'; DROP TABLE items; --", "graph",
              "Größe", "café", "ﬁ", "İ", "🎧", "\u200b", "\ufeff", "\ud800", "\udcff", "a" * 300)
QUERIES = st.lists(st.one_of(st.sampled_from(FTS_TOKENS), st.text(max_size=8),
                             st.text(alphabet=st.characters(codec=None), max_size=8)),
                   max_size=12).map(" ".join)


@pytest.mark.timeout(120)
@settings(max_examples=scaled(300))
@given(QUERIES)
def test_any_query_searches_without_failing(query: str) -> None:
    honour(PARSERS["search"], query.encode("utf-8", "surrogatepass"))


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("search") / "library.db"
    db = open_library(path)
    notes_library.build(db)
    db.close()
    return path


ODD_TEXT = st.one_of(st.sampled_from(FTS_TOKENS), st.text(max_size=12))
DAYS = st.one_of(st.sampled_from(("2024-05-01", "2024-13-45", "0000-00-00", "9999-99-99", "2024-5-1", "")), ODD_TEXT)
NUMBERS = st.one_of(st.none(), st.floats(), st.integers(-10**20, 10**20))


@pytest.mark.timeout(120)
@settings(max_examples=scaled(150), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=QUERIES, tag=st.one_of(st.none(), ODD_TEXT), day=st.one_of(st.none(), DAYS), low=NUMBERS,
       high=NUMBERS, sort=st.sampled_from(("default", "published", "title", "duration", "source", "last_played")))
def test_any_filter_lists_counts_and_searches_or_says_why_not(library: Path, text: str, tag: str | None,
                                                              day: str | None, low: float | None,
                                                              high: float | None, sort: str) -> None:
    db = open_library(library)
    try:
        flt = ItemFilter(text=text, tag=tag, published_from=day, published_to=day, duration_min=low,
                         duration_max=high, sort=sort)  # type: ignore[arg-type]
    except EarmarkError as exc:
        assert_sentence(exc)
        return
    finally:
        db.close()
    db = open_library(library)
    try:
        assert len(list_items(db, flt)) == count_items(db, flt)
    finally:
        db.close()


def run_cli(library: Path, *args: str) -> tuple[int, str]:
    """``earmark`` in-process, printing to a UTF-8 terminal as a real one would (strict: no lone surrogates)."""
    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["--library", str(library), *args])
    except SystemExit as exit_:  # argparse refusing an option value: usage and exit status 2
        code = int(exit_.code or 0)
    for stream in (out, err):
        stream.flush()
    assert isinstance(err.buffer, io.BytesIO)
    return code, err.buffer.getvalue().decode("utf-8")


@pytest.mark.timeout(120)
@settings(max_examples=scaled(120), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=QUERIES, options=st.lists(st.sampled_from(("--tag", "--from", "--to", "--min-duration", "--sort",
                                                       "--json", "--kind")), max_size=3, unique=True),
       value=ODD_TEXT)
def test_the_search_command_answers_or_fails_with_a_sentence(library: Path, query: str, options: list[str],
                                                             value: str) -> None:
    argv = [query if not query.startswith("-") else f" {query}"]
    for option in options:
        argv += [option] if option == "--json" else [option, value]
    code, err = run_cli(library, "search", *argv)
    assert code in (0, 1, 2), err
    if code == 1:
        assert err.startswith("earmark: ") and err.count("\n") == 1, err
    assert "Traceback" not in err


if sys.platform == "win32":  # argv holds no surrogate escapes there
    pytestmark = pytest.mark.skip
