"""HTML → text without nh3 for plain markup: the same text as through nh3, for every show note and article of
the feed fixtures, for the bench's feeds and for random markup built to find the differences."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from earmark.core.feeds.parse import parse_feed
from earmark.core.html import _BLOCK_END, _PLAIN_TAG, _to_text, _with_line_break, _without_plain_tags
from helpers.feed_server import fixture_files, own_fixture_files

FEED_FILES = [path for path in fixture_files("feeds", "hostile") + own_fixture_files("feeds")
              if path.suffix in (".xml", ".rss", ".atom", ".rdf")]
TAGS = ["p", "P", "br", "br/", "a", "b", "i", "em", "strong", "ul", "ol", "li", "div", "span", "h2", "img", "hr",
        "blockquote", "code", "pre", "table", "td", "tr", "script", "style", "textarea", "title", "svg", "select",
        "option", "o:p", "font", "sub", "wbr"]
TEXTS = ["Hello", " world ", "a > b", "a < b", "Q & A", "&amp;", "&amp;lt;", "&lt;b&gt;", "&nbsp;", "&notit;",
         "&copy", "&#233;", "&#x1F600;", "&#128;", "&#1;", "&#0;", "&#xD800;", "&#xFFFE;", "&#13;", "caf\u00e9",
         "\n", "\n\n", "\t", "  ", "\r\n", "\r", "\x0c", "\x01", "\x85", "\u00a0", "<!-- note -->", "<![CDATA[x]]>",
         "&", "&#", "&#x;", "<", ">", "</", "<3", "=", '"', "'", "line\u2028break"]
ATTRIBUTES = ["", ' href="https://example.org/?a=1&amp;b=2"', " class=x", " title='a > b'", ' data-x="<y>"',
              " disabled", ' a = "1" b', " /", ' "quoted"', " on=`x`"]


def same_text(markup: str) -> str:
    text = _to_text(markup)
    assert text == _to_text(markup, fast=False), markup
    return text


def _markups(path: Path) -> list[str]:
    try:
        feed = parse_feed(path.read_bytes(), "https://feeds.example.org/feed.xml", None)
    except Exception:  # noqa: BLE001 - a fixture that is no feed has no show notes to compare
        return []
    return [markup for entry in feed.entries for markup in (entry.description, entry.content, entry.title) if markup]


@pytest.mark.parametrize("path", FEED_FILES, ids=[f"{p.parent.name}/{p.name}" for p in FEED_FILES])
def test_every_fixture_show_note_gives_the_nh3_text(path: Path) -> None:
    for markup in _markups(path):
        same_text(markup)


def test_the_bench_feeds_take_the_plain_way_to_the_same_text() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    try:
        from feed_server import FeedSpec, show_notes  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    rng = random.Random(3)
    for number in range(300):
        notes = show_notes(rng, number % 7, number)
        assert _without_plain_tags(notes) is not None
        assert same_text(notes)
    assert FeedSpec  # the bench's own module, as its feeds are built


@pytest.mark.parametrize("seed", range(40))
def test_random_markup_gives_the_nh3_text(seed: int) -> None:
    """Half the seeds mostly build markup of the plain way's (misnested, unclosed, odd attributes), the others
    anything; both ways must give the same text either way."""
    rng = random.Random(seed)
    plain_tags = [tag for tag in TAGS if _without_plain_tags(f"<{tag}>") is not None]
    plain_texts = [text for text in TEXTS if _without_plain_tags(f"<p>{text}") is not None]
    tags, texts = (plain_tags, plain_texts) if seed % 2 else (TAGS, TEXTS)
    plain = 0
    for _ in range(150):
        pieces = []
        for _ in range(rng.randint(1, 12)):
            if rng.random() < 0.5:
                pieces.append(rng.choice(texts))
            else:
                tag = rng.choice(tags)
                pieces.append(f"<{'/' if rng.random() < 0.4 else ''}{tag}{rng.choice(ATTRIBUTES)}>")
        markup = "".join(pieces)
        plain += _without_plain_tags(markup) is not None
        same_text(markup)
    assert plain >= (30 if seed % 2 else 3)  # the plain way was taken often enough to be compared


def test_plain_show_notes_lose_their_tags_without_nh3() -> None:
    markup = ('<p>Our guest: <a href="https://example.org/?a=1&amp;b=2">Ann &amp; Bob</a></p>'
              "<ul><li>One&nbsp;two</li><li>caf&#233; Q & A</li></ul><br/>Last")
    assert _without_plain_tags(markup) is not None
    assert same_text(markup) == "Our guest: Ann & Bob\nOne\u00a0two\ncaf\u00e9 Q & A\n\nLast"


@pytest.mark.parametrize("markup", ["<pre>\ncode</pre>", "<table><tr>x<td>y</td></tr></table>", "a<!-- b -->c",
                                    "<script>x()</script>y", "caf&eacute", "a\r\nb<br>", "&#1;<p>", "a < b<p>",
                                    "<o:p>x</o:p>", "<textarea><p>x</textarea>"])
def test_markup_an_html_parser_reads_otherwise_goes_through_nh3(markup: str) -> None:
    assert _without_plain_tags(markup) is None
    same_text(markup)


@pytest.mark.parametrize("seed", range(5))
def test_block_ends_get_their_line_break_as_the_template_gives_it(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(200):
        markup = "".join(rng.choice([*TEXTS, "</p>", "</P>", "<br>", "<BR />", "<br\t/>", "</li>", "</h3>", "</pre>",
                                     "</tr>", "</blockquote>", "</div >", "<br x>"]) for _ in range(rng.randint(0, 9)))
        assert _BLOCK_END.sub(_with_line_break, markup) == _BLOCK_END.sub("\\g<0>\n", markup)


# html.py's plain tags as a flat list of names, as they were written before being grouped by first letter
PLAIN_NAMES = ("a abbr address article aside b big blockquote br center cite code dd del dfn div dl dt em figcaption "
               "figure font footer h1 h2 h3 h4 h5 h6 header hr i img ins kbd li main mark nav ol p q s samp section "
               "small span strike strong sub sup time tt u ul var wbr").split()
FLAT_PLAIN_TAG = re.compile(r"</?(?:" + "|".join(PLAIN_NAMES) + r")(?![^\s/>])(?:\s+[^\s\"'<>/=]+(?:\s*=\s*"
                            r"(?:\"[^\"<>]*\"|'[^'<>]*'|[^\s\"'<>=`]+))?)*\s*/?>", re.IGNORECASE)


@pytest.mark.parametrize("seed", range(5))
def test_the_grouped_plain_tag_names_match_what_the_flat_list_matched(seed: int) -> None:
    rng = random.Random(seed)
    # every name, its neighbours one letter off or longer, other case, and the letters Unicode folds to ASCII
    names = [*PLAIN_NAMES, *(n.upper() for n in PLAIN_NAMES), *(n + "x" for n in PLAIN_NAMES), *(n[:-1] for n in
             PLAIN_NAMES), "h0", "h7", "hR", "\u017fpan", "\u212abd", "\u0130mg", "\u0131ns", "dd1", "tt", "ti"]
    for _ in range(2000):
        pieces = [rng.choice(["<", "</", "x ", ">", "<<"]) + rng.choice(names) + rng.choice(ATTRIBUTES) + ">"
                  for _ in range(rng.randint(1, 6))]
        markup = rng.choice(TEXTS).join(pieces)
        assert _PLAIN_TAG.sub("", markup) == FLAT_PLAIN_TAG.sub("", markup), markup
    for name in PLAIN_NAMES:
        assert _PLAIN_TAG.fullmatch(f"<{name}>") and _PLAIN_TAG.fullmatch(f"</{name.upper()}>")


@pytest.mark.parametrize("seed", range(5))
def test_spaces_and_blank_lines_fold_as_one_substitution_each_folded_them(seed: int) -> None:
    """_to_text skips the substitutions when their scans find nothing to do: the same text as always doing them."""
    import html

    from earmark.core.html import _LINES, _SPACES

    rng = random.Random(seed)
    pieces = ["word", " ", "  ", "\t", "\n", "\n\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028",
              "\u00a0", "\u3000", "&nbsp;", "&#10;", "&#13;", "x y"]
    for _ in range(2000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        lines = "\n".join(line.strip() for line in _SPACES.sub(" ", html.unescape(text)).splitlines())
        assert _to_text(text) == _LINES.sub("\n\n", lines).strip(), repr(text)
