"""Chapters JSON and transcripts built by hypothesis: wrong types, negative, huge, NaN and infinite times,
broken timestamps, BOMs, CRLF, huge lines, word-level JSON segments; every result has finite, ordered times."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from helpers.fuzz import honour, scaled
from helpers.parsers import PARSERS

# JSON values of every kind, including the non-JSON numbers Python's json writes and reads back.
ANY_JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20)),
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(st.text(max_size=8), children,
                                                                                max_size=4)),
    max_leaves=12,
)
TIMES = st.one_of(st.integers(-10, 10**6), st.floats(), st.sampled_from((2**63, -(2**63), 10**400, "12", "1:02",
                                                                         "nan", "inf", "-0", "", None, True, [], {})))
URLS = st.sampled_from(("https://example.com/c", "javascript:alert(1)", "file:///etc/passwd", "../x", "", None, 5))


@st.composite
def chapters_documents(draw: st.DrawFn) -> bytes:
    entries = draw(st.lists(st.one_of(
        st.fixed_dictionaries({"startTime": TIMES}, optional={"title": ANY_JSON, "url": URLS, "toc": ANY_JSON,
                                                               "endTime": TIMES, "img": URLS}),
        ANY_JSON,
    ), max_size=12))
    document = draw(st.sampled_from(({"version": "1.2.0", "chapters": entries}, {"chapters": entries}, entries,
                                     {"chapters": {"0": entries}}, {"chapters": None})))
    text = json.dumps(document, allow_nan=True, default=str)
    return draw(st.sampled_from((b"", b"\xef\xbb\xbf"))) + text.encode("utf-8", "surrogatepass")


@pytest.mark.timeout(120)
@settings(max_examples=scaled(250))
@given(chapters_documents())
def test_generated_chapters_honour_the_contract(document: bytes) -> None:
    honour(PARSERS["chapters"], document)


CLOCKS = st.one_of(
    st.builds(lambda h, m, s, ms, sep: f"{h:02d}:{m:02d}:{s:02d}{sep}{ms:03d}", st.integers(0, 10**6),
              st.integers(0, 99), st.integers(0, 99), st.integers(0, 999), st.sampled_from((",", "."))),
    st.sampled_from(("00:00:1d.890", "99:99:99,999", "0:00", "-1:00:00,000", "00:00:00,000", "1:2:3", "::",
                     "00:00:01,000", "9" * 400 + ":00:00.000", "00:00:01.0000", "0:-5", "+0:05", "nan", "-inf",
                     "1e3", "1_0:00", "9" * 400)),
    st.text(alphabet="0123456789:,.-", max_size=14),
)
LINES = st.one_of(st.text(max_size=40), st.sampled_from(("<v Ana>Hello", "<b>bold</b> &amp; &nbsp;", "NOTE x",
                                                         "WEBVTT", "1", "", "-->", "<c.yellow>x</c>")))


@st.composite
def cue_files(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(("srt", "vtt", "sbv")))
    blocks = []
    for number in range(draw(st.integers(0, 8))):
        start, end = draw(CLOCKS), draw(CLOCKS)
        timing = f"{start},{end}" if kind == "sbv" else f"{start} --> {end}" + draw(st.sampled_from(
            ("", " align:start position:10%", " -->", "\t")))
        index = [str(number + 1)] if kind == "srt" and draw(st.booleans()) else []
        blocks.append("\n".join(index + [timing] + draw(st.lists(LINES, max_size=3))))
    if draw(st.integers(0, 9)) == 0:  # one huge line
        blocks.append("00:00:01.000 --> 00:00:02.000\n" + draw(st.sampled_from(("a", "1:", "<", "-->", " "))) * 200_000)
    text = ("WEBVTT\n\n" if kind == "vtt" and draw(st.booleans()) else "") + "\n\n".join(blocks)
    newline = draw(st.sampled_from(("\n", "\r\n", "\r")))
    encoding = draw(st.sampled_from(("utf-8", "utf-8-sig", "utf-16", "cp1252")))
    return text.replace("\n", newline).encode(encoding, errors="replace")


@st.composite
def json_transcripts(draw: st.DrawFn) -> bytes:
    segments = draw(st.lists(st.one_of(
        st.fixed_dictionaries({"startTime": TIMES, "body": ANY_JSON}, optional={"endTime": TIMES,
                                                                               "speaker": ANY_JSON}),
        ANY_JSON,
    ), max_size=20))
    document = draw(st.sampled_from(({"version": "1.0.0", "segments": segments}, {"segments": segments}, segments)))
    return json.dumps(document, allow_nan=True, default=str).encode("utf-8", "surrogatepass")


@st.composite
def html_transcripts(draw: st.DrawFn) -> bytes:
    parts = draw(st.lists(st.one_of(
        st.builds(lambda speaker: f"<cite>{speaker}:</cite>", st.text(max_size=10)),
        st.builds(lambda clock: f"<time>{clock}</time>", CLOCKS),
        st.builds(lambda words: f"<p>{words}</p>", LINES),
        st.sampled_from(("<![CDATA[x]]>", "<![if x]>", "<![ x", "<!DOCTYPE html>", "<script>x</script>", "</p>",
                         "<time>", "<p>", "&#xd800;", "<!--", "<?x")),
    ), max_size=12))
    return "".join(parts).encode()


@pytest.mark.timeout(120)
@settings(max_examples=scaled(300))
@given(st.one_of(cue_files(), json_transcripts(), html_transcripts()))
@example(b"<time>-1:00:00,000</time><p>x</p>")  # found by this fuzz: a cue at -3600 s
@example(b"<time>nan</time><p>x</p><time>0:-5</time><p>y</p><time>1e3</time><p>z</p>")
def test_generated_transcripts_honour_the_contract(document: bytes) -> None:
    honour(PARSERS["transcript"], document)
