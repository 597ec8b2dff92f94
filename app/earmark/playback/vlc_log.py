"""What VLC's log says about the stream it is opening: the server's status and content type, a redirect
loop, a connection that failed or broke. libVLC reports only "error" or "ended"; its log says why.

The log callback runs on VLC's threads: it formats only the few messages of interest and records them under a
lock; the player reads the facts on the GUI thread when VLC's event arrives (after the messages that led to it).
"""

from __future__ import annotations

import re
import threading
from dataclasses import replace
from typing import Any

from earmark.core.records import record
from earmark.playback.problems import Trouble

# The format strings of the messages that tell what happened (libVLC 3's http and https access modules).
_RESPONSE = b"incoming response:"  # the new https module's response head (debug level)
_ANSWER = b"HTTP answer code %d"  # the old http module's status
_ERROR_STATUS = b"HTTP %d error"
_LOOP = b"redirection loop"
_READ_FAILED = b"cannot read data"
_UNREACHABLE = (b"cannot resolve", b"connection failed:", b"connection error:", b"cannot connect to")
_INTERESTING = (_RESPONSE, _ANSWER, _ERROR_STATUS, _LOOP, _READ_FAILED, *_UNREACHABLE)
_STATUS_LINE = re.compile(r"HTTP/[\d.]+ (\d{3})")
_CONTENT_TYPE = re.compile(r"^content-type:\s*([^\r\n;]+)", re.IGNORECASE | re.MULTILINE)
_NUMBER = re.compile(r"(\d{3})")
_LINE = 1024
END_SLACK = 3.0  # seconds: a stream that ends this close to its length has played to its end
CUT_SHARE = 0.9  # a stream that ends cleanly past this share of its length just had a length slightly off


@record(frozen=True)
class StreamFacts:
    """What the log said about the current media: the last HTTP status and content type, and what failed."""

    status: int | None = None
    content_type: str | None = None
    loop: bool = False
    unreachable: str | None = None  # why the connection failed, in words
    read_failed: bool = False  # the connection broke while reading


class StreamLog:
    """Facts gathered from VLC's log for the media loading now (``reset`` on every load)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._facts = StreamFacts()

    def reset(self) -> None:
        """Forget what was said about the previous media."""
        with self._lock:
            self._facts = StreamFacts()

    def facts(self) -> StreamFacts:
        """What has been said so far."""
        with self._lock:
            return self._facts

    def note(self, fmt: bytes, text: str) -> None:
        """Record one message (``fmt``: its format string, ``text``: the formatted message)."""
        with self._lock:
            self._facts = _learn(self._facts, fmt, text)


def _learn(facts: StreamFacts, fmt: bytes, text: str) -> StreamFacts:
    if fmt.startswith(_RESPONSE):
        status = _STATUS_LINE.search(text)
        kind = _CONTENT_TYPE.search(text)
        return replace(facts, status=int(status.group(1)) if status else facts.status,
                       content_type=kind.group(1).strip().lower() if kind else None)
    if fmt.startswith((_ANSWER, _ERROR_STATUS)):
        number = _NUMBER.search(text)
        return replace(facts, status=int(number.group(1))) if number else facts
    if fmt.startswith(_LOOP):
        return replace(facts, loop=True)
    if fmt.startswith(_READ_FAILED):
        return replace(facts, read_failed=True)
    return replace(facts, unreachable=facts.unreachable or _network_words(text))


def _network_words(text: str) -> str:
    lowered = text.lower()
    if "resolve" in lowered:
        return "its name was not found"
    if "refused" in lowered:
        return "connection refused"
    if "timed out" in lowered:
        return "no answer in time"
    return "no connection"


def open_failure(facts: StreamFacts) -> tuple[Trouble, str]:
    """Why VLC could not open a stream (its "error" event), with the detail for the sentence."""
    status = facts.status
    if facts.loop:
        return Trouble.REDIRECT_LOOP, ""
    if status in (404, 410):
        return Trouble.NOT_FOUND, _status_words(status)
    if status is not None and status >= 500:
        return Trouble.SERVER_ERROR, _status_words(status)
    if status is not None and status >= 400:
        return Trouble.REFUSED, _status_words(status)
    if facts.unreachable:
        return Trouble.UNREACHABLE, facts.unreachable
    return Trouble.UNREADABLE, ""


def unplayable(facts: StreamFacts) -> tuple[Trouble, str]:
    """Why VLC could not play a media: it failed to open it, or "played" it without a length (a web page, a
    stream cut before it could start)."""
    trouble = open_failure(facts)
    if trouble[0] != Trouble.UNREADABLE:
        return trouble
    kind = facts.content_type or ""
    if kind.startswith("text/") or "html" in kind or "xml" in kind or "json" in kind:
        return Trouble.WEB_PAGE, ""
    if facts.read_failed:  # cut before VLC had enough to start
        return Trouble.CLOSED, ""
    return trouble


def stopped_early(facts: StreamFacts, position: float, duration: float) -> Trouble | None:
    """Why a stream that VLC says "ended" at ``position`` did not reach its end, or None when it did."""
    if position >= duration - END_SLACK:
        return None
    if facts.read_failed:
        return Trouble.CLOSED
    if position < duration * CUT_SHARE:
        return Trouble.CUT_SHORT
    return None


def _status_words(status: int) -> str:
    from http import HTTPStatus  # when a stream fails, not with every start

    try:
        return f"{status} {HTTPStatus(status).phrase}"
    except ValueError:
        return str(status)


def attach(instance: Any, log: StreamLog) -> Any:
    """Send ``instance``'s log messages of interest to ``log``; returns the callback, which must be kept alive
    until ``instance.log_unset()`` (None when the C library's vsnprintf cannot be reached). Called as libVLC loads,
    which is when ctypes is needed (not at start)."""
    import ctypes

    import vlc

    vsnprintf = _vsnprintf()
    if vsnprintf is None:
        return None

    @vlc.CallbackDecorators.LogCb
    def callback(_data: Any, _level: int, _context: Any, fmt: bytes | None, args: Any) -> None:
        try:
            if not fmt or not fmt.startswith(_INTERESTING):
                return
            buffer = ctypes.create_string_buffer(_LINE)
            vsnprintf(buffer, _LINE, fmt, ctypes.cast(args, ctypes.c_void_p))
            log.note(fmt, buffer.value.decode("utf-8", errors="replace"))
        except Exception:  # noqa: BLE001,S110 - nothing may escape into VLC's thread; the facts stay as they were
            pass

    instance.log_set(callback, None)
    return callback


def _vsnprintf() -> Any:
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None)
        function = libc.vsnprintf
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_void_p]
    function.restype = ctypes.c_int
    return function
