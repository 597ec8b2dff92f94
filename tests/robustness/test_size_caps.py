"""Size caps: inputs over a parser's cap are refused at once, without reading them into more memory; inputs at
the worst shapes below the caps cost memory in proportion to their size (tracemalloc), never more."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from earmark.core.errors import EarmarkError, UnreachableError
from earmark.core.feeds import fetch as fetch_module
from earmark.core.feeds.fetch import fetch
from helpers.parsers import PARSERS

CAPPED = [name for name, parser in PARSERS.items() if parser.max_bytes]
KB, MB = 1024, 1024 * 1024


def traced(action: Callable[[], object]) -> tuple[object, float, int]:
    """What ``action`` returned or raised, its seconds and the peak memory it allocated."""
    tracemalloc.start()
    start = time.perf_counter()
    try:
        result: object = action()
    except EarmarkError as exc:
        result = exc
    finally:
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return result, seconds, peak


def test_every_parser_with_a_cap_is_listed() -> None:
    assert set(CAPPED) == {"opml", "chapters", "transcript"}


@pytest.mark.parametrize("name", CAPPED)
def test_input_over_the_cap_is_refused_at_once(name: str) -> None:
    parser = PARSERS[name]
    assert parser.max_bytes is not None
    data = b"[" + b" " * parser.max_bytes  # one byte over, and what it would start as
    result, seconds, peak = traced(lambda: parser.run(data))
    assert isinstance(result, parser.errors) and "larger than" in str(result)
    assert seconds < 1.0 and peak < 256 * KB, (seconds, peak)


def test_a_local_feed_over_the_cap_is_refused_without_reading_it(tmp_path: Path) -> None:
    path = tmp_path / "huge.xml"
    with path.open("wb") as file:  # sparse: no disk used
        file.truncate(fetch_module.MAX_FEED_BYTES + 1)
    result, seconds, peak = traced(lambda: fetch(str(path)))
    assert isinstance(result, UnreachableError) and "too large for a feed" in str(result)
    assert seconds < 1.0 and peak < 256 * KB


def _items(size: int) -> bytes:
    item = b"<item><title>t</title><guid>g</guid><enclosure url='https://e.com/a.mp3' type='audio/mpeg'/></item>"
    return b"<?xml version='1.0'?><rss version='2.0'><channel><title>T</title>" + item * (size // len(item)) + \
        b"</channel></rss>"


# The worst shapes found for each parser: the most objects per input byte. Memory is measured as a multiple of
# the input size (docs/reliability.md lists the results); the caps keep the absolute amounts bounded.
WORST: dict[str, tuple[Callable[[int], bytes], int, int]] = {  # shape, size in bytes, allowed multiple
    "feed": (_items, 256 * KB, 40),
    "opml": (lambda n: b"<opml version='2.0'><body>" + b"<outline/>" * (n // 10) + b"</body></opml>", MB, 40),
    "chapters": (lambda n: b'{"chapters":[' + b",".join([b"{}"] * (n // 3)) + b"]}", MB, 40),
    "transcript": (lambda n: b'{"segments":[' + b",".join([b"{}"] * (n // 3)) + b"]}", MB, 40),
    "backup": (lambda n: b'{"format":"earmark-backup","version":1,"tables":{"notes":{"columns":["id"],"rows":['
               + b",".join([b"[1]"] * (n // 4)) + b"]}}}", MB, 40),
}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", sorted(WORST))
def test_the_worst_shape_costs_memory_in_proportion_to_its_size(name: str) -> None:
    shape, size, multiple = WORST[name]
    data = shape(size)
    _, seconds, peak = traced(lambda: PARSERS[name].run(data))
    assert peak < multiple * len(data), f"{peak / len(data):.0f} times the input"
    assert seconds < 30.0
