"""Asking a directory: one GET answered in JSON, with every failure turned into one sentence naming the directory."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Protocol
from urllib.parse import urlencode

from earmark.core.directory.results import DirectoryResult
from earmark.core.errors import EarmarkError
from earmark.core.feeds.fetch import USER_AGENT, network_reason
from earmark.core.records import record
from earmark.core.tls import tls_context

TIMEOUT_SECONDS = 10.0  # a directory slower than this is said to be slow; the others show meanwhile
MAX_ANSWER_BYTES = 8 * 1024 * 1024


class DirectoryError(EarmarkError):
    """A directory could not be asked or did not answer usefully; the sentence names it."""


@record(frozen=True)
class Category:
    """A category of a directory's Popular list: its ``code`` in the directory's terms, its ``name`` in words."""

    code: str
    name: str


class Directory(Protocol):
    """One podcast directory: ``search`` by words, ``popular`` podcasts (per ``categories``, where it has any),
    ``lookup`` of a result that names no feed address yet."""

    name: str  # as in the settings and ``earmark find --directory``
    label: str  # in words, for sentences ("Apple Podcasts")
    categories: tuple[Category, ...]  # empty: it has no Popular list

    def search(self, query: str, limit: int = 25) -> list[DirectoryResult]:
        """The podcasts matching ``query``; DirectoryError with a sentence on failure."""

    def popular(self, category: str = "", limit: int = 25) -> list[DirectoryResult]:
        """The directory's popular podcasts (in ``category``, a Category's code, when given)."""


def get_json(label: str, url: str, params: Mapping[str, object] | None = None,
             headers: Mapping[str, str] | None = None, timeout: float = TIMEOUT_SECONDS) -> object:
    """The JSON document at ``url`` with ``params`` as its query; DirectoryError naming ``label`` on failure."""
    from urllib.error import HTTPError, URLError
    from urllib.request import Request, urlopen

    if params:
        url = f"{url}{'&' if '?' in url else '?'}{urlencode(params)}"
    request = Request(url, headers={"User-Agent": USER_AGENT, "Accept": "application/json", **(headers or {})})
    try:
        # noqa below: the address is a setting, http(s)
        with urlopen(request, timeout=timeout, context=tls_context()) as response:  # noqa: S310
            data = response.read(MAX_ANSWER_BYTES + 1)
    except HTTPError as exc:
        exc.close()
        if exc.code in (401, 403):
            raise DirectoryError(f"{label} refused the search (HTTP {exc.code}): check the API key and secret "
                                 "kept for it.") from exc
        raise DirectoryError(f"{label} answered with HTTP error {exc.code} ({exc.reason}).") from exc
    except URLError as exc:
        raise DirectoryError(f"{label} could not be reached: {network_reason(exc.reason)}.") from exc
    except (TimeoutError, OSError) as exc:
        raise DirectoryError(f"{label} could not be reached: {network_reason(exc)}.") from exc
    except ValueError as exc:  # a base address that is no address (a setting typed wrong)
        raise DirectoryError(f"{label} cannot be asked at {url!r}: {exc}.") from exc
    if len(data) > MAX_ANSWER_BYTES:
        raise DirectoryError(f"{label} sent an answer larger than {MAX_ANSWER_BYTES // (1024 * 1024)} MB.")
    try:
        return json.loads(data)
    except ValueError as exc:
        raise DirectoryError(f"{label} did not answer in JSON as its API does ({exc}).") from exc


def text(value: object) -> str:
    """A field of an answer as text ("" when missing or not text)."""
    return value.strip() if isinstance(value, str) else ""


def number(value: object) -> int | None:
    """A field of an answer as a whole number (None when missing or not a number)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def rows(answer: object, key: str | None, label: str) -> list[dict]:
    """The list of objects under ``key`` of ``answer`` (or ``answer`` itself when ``key`` is None); objects only."""
    if key is None:
        found = answer
    else:
        found = answer.get(key) if isinstance(answer, dict) else None
    if not isinstance(found, list):
        raise DirectoryError(f"{label} answered without a list of podcasts.")
    return [row for row in found if isinstance(row, dict)]


def iso_date(value: object) -> str:
    """A date as ISO 8601 in UTC ("2024-05-13T10:00:00Z") from Unix seconds or an ISO 8601 text; "" when neither."""
    try:
        if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
            when = datetime.fromtimestamp(value, UTC)
        elif isinstance(value, str) and value.strip():
            when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
            when = when.replace(tzinfo=when.tzinfo or UTC).astimezone(UTC)
        else:
            return ""
    except (ValueError, OverflowError, OSError):
        return ""
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")
