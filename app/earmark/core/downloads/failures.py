"""Why a download failed, in one sentence that names the episode, and whether asking again can help."""

from __future__ import annotations

import socket
import ssl
from urllib.parse import unquote, urlsplit

from earmark.core.errors import UnreachableError

RETRYABLE_CLIENT_ERRORS = frozenset({408, 429})  # a timeout or a rate limit: the only 4xx that pass with time


class DownloadError(UnreachableError):
    """A download failed: ``“name” could not be downloaded: reason.`` ``retryable``: whether another attempt
    may succeed (a 404 or a loop never does); ``retry_after``: seconds the server asked to wait, if it said;
    ``counted``: a refusal of the server's (an HTTP status) whose sentence says how often it came."""

    def __init__(self, name: str, reason: str, retryable: bool = True, retry_after: float | None = None,
                 counted: bool = False) -> None:
        super().__init__(f"“{name}” could not be downloaded: {reason}.")
        self.name = name
        self.reason = reason
        self.retryable = retryable
        self.retry_after = retry_after
        self.counted = counted

    def after(self, attempts: int) -> DownloadError:
        """This failure as the last of ``attempts``: a server error that lasted says so."""
        if not self.counted or attempts < 2:
            return self
        return DownloadError(self.name, f"{self.reason} {attempts} times; try again later", retryable=False)


def episode_name(url: str) -> str:
    """What to call an episode when nothing better is known: the file name in its address."""
    try:
        name = unquote(urlsplit(url).path.rsplit("/", 1)[-1])
    except ValueError:
        name = ""
    return name or url


def status_reason(code: int, phrase: str) -> tuple[str, bool]:
    """An HTTP error status in words, and whether retrying may help."""
    label = f"{code} {phrase}".strip()
    if code in (404, 410):
        return f"the server has no such file ({label})", False
    if code in (401, 403):
        return f"the server refused access ({label})", False
    if code in RETRYABLE_CLIENT_ERRORS:
        return f"the server is busy ({label})", True
    if 400 <= code < 500:
        return f"the server refused the request ({label})", False
    if code >= 500:
        return f"the server had an error ({label})", True
    return f"the server answered {label}", True


def network_reason(error: BaseException) -> str:
    """Why a connection failed, in a listener's words."""
    reason = getattr(error, "reason", error)
    if isinstance(reason, ConnectionRefusedError):
        return "the server could not be reached (connection refused)"
    if isinstance(reason, socket.gaierror):
        return "the server could not be reached (its name was not found)"
    if isinstance(reason, TimeoutError) or "timed out" in str(reason):
        return "the server could not be reached (no answer in time)"
    if isinstance(reason, ssl.SSLError):
        return f"the secure connection failed ({reason.reason or reason})"
    if isinstance(reason, ConnectionError):
        return "the connection broke"
    if isinstance(reason, OSError) and reason.strerror:
        return f"the server could not be reached ({reason.strerror[0].lower()}{reason.strerror[1:]})"
    return f"the server could not be reached ({reason})"


def size_text(count: int) -> str:
    """A byte count for a sentence: 480 bytes, 48 KB, 2.4 MB."""
    if count < 1000:
        return f"{count} bytes"
    if count < 1_000_000:
        return f"{count / 1000:.0f} KB"
    return f"{count / 1_000_000:.1f} MB"
