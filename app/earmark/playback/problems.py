"""What went wrong with playback, as one sentence a listener understands, naming the episode."""

from __future__ import annotations

from enum import StrEnum

from earmark.core.records import record
from earmark.core.timefmt import format_clock


class Trouble(StrEnum):
    """The kinds of playback failure, each with its own sentence."""

    NOT_FOUND = "not found"
    REFUSED = "refused"
    SERVER_ERROR = "server error"
    UNREACHABLE = "unreachable"
    REDIRECT_LOOP = "redirect loop"
    WEB_PAGE = "web page"
    SLOW_START = "slow start"
    TOO_SLOW = "too slow"
    CLOSED = "closed"
    CUT_SHORT = "cut short"
    UNREADABLE = "unreadable"
    MISSING = "missing"
    NO_AUDIO = "no audio"
    NO_PLAYER = "no player"


# A stream that stopped part-way: where, and why in brackets.
_STOPPED = {Trouble.CLOSED: "the server closed the connection", Trouble.CUT_SHORT: "the server sent no more"}


@record(frozen=True)
class Problem:
    """A playback failure: its kind, the sentence to show, where playback stopped (where a retry resumes) and,
    when the player tries again by itself, in how many seconds."""

    kind: Trouble
    sentence: str
    position: float = 0.0
    retry_in: float | None = None

    @property
    def final(self) -> bool:
        """Whether playback stays stopped until the user acts."""
        return self.retry_in is None


def describe(kind: Trouble, title: str, *, detail: str = "", position: float = 0.0, duration: float | None = None,
             retry_in: float | None = None, attempts: int = 1) -> str:
    """The sentence for a failure of the episode ``title``. ``detail``: the server's status or the network's
    reason, when known."""
    name = f"“{title}”"
    bracket = f" ({detail})" if detail else ""
    if kind in _STOPPED or kind == Trouble.TOO_SLOW:
        why = _STOPPED.get(kind) or f"the server is too slow: {detail}"
        of = f" of {format_clock(duration)}" if duration else ""
        return f"The stream of {name} stopped at {format_clock(position)}{of} ({why})."
    if kind == Trouble.SERVER_ERROR:
        if retry_in is not None:
            return f"The server of {name} had an error{bracket}; trying again in {retry_in:g} s."
        times = f" {attempts} times" if attempts > 1 else ""
        return f"{name} could not be played: the server had an error{bracket}{times}; try again later."
    sentences = {
        Trouble.NOT_FOUND: f"{name} was not found on the server{bracket}: the podcast may have moved or removed it.",
        Trouble.REFUSED: f"{name} could not be played: the server refused access{bracket}.",
        Trouble.UNREACHABLE: f"{name} could not be played: the server could not be reached{bracket}.",
        Trouble.REDIRECT_LOOP: f"{name} could not be played: the server's redirects go round in a loop.",
        Trouble.WEB_PAGE: f"{name} could not be played: the server sent a web page instead of the audio.",
        Trouble.SLOW_START: f"{name} did not start: the server is too slow ({detail or 'nothing arrived'}).",
        Trouble.UNREADABLE: f"{name} could not be played: the file is missing, damaged or in a format VLC cannot "
                            "read.",
        Trouble.MISSING: f"{name} could not be played: the file {detail} is missing.",
        Trouble.NO_AUDIO: f"{name} has no audio to play.",
    }
    return sentences.get(kind, detail or f"{name} could not be played.")
