"""Feed URLs and files given in place of a command (``earmark URL``, ``earmark FILE.opml``, as a desktop
launcher passes them): they go to the window, not to a command."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

TARGET_SCHEMES = ("http", "https", "feed", "itpc", "pcast", "podcast", "file", "earmark")
VALUE_OPTIONS = ("--library",)  # global options that take a value


WINDOW_FLAGS = ("--minimised", "--minimized")  # the options of the window alone, beside --library


def window_options(argv: Sequence[str]) -> tuple[Path | None, bool] | None:
    """``(library, minimised)`` when ``argv`` holds only the window's options (``--library PATH``,
    ``--minimised``): the window opens without the parser and its commands. None for anything else."""
    library: Path | None = None
    minimised = False
    words = iter(argv)
    for word in words:
        if word in WINDOW_FLAGS:
            minimised = True
        elif word == "--library":
            value = next(words, None)
            if value is None or value.startswith("-"):
                return None  # the parser says what is missing
            library = Path(value)
        elif word.startswith("--library=") and word != "--library=":
            library = Path(word.removeprefix("--library="))
        else:
            return None
    return library, minimised


def is_target(text: str) -> bool:
    """Whether ``text`` is something the window opens: a feed URL, or an existing file (feed or .opml)."""
    scheme, colon, _rest = text.partition(":")
    if colon and scheme.lower() in TARGET_SCHEMES:
        return True
    return Path(text).expanduser().is_file()


def split_targets(argv: Sequence[str], commands: set[str]) -> tuple[list[str], list[str]]:
    """Take the targets out of ``argv``: (the rest, the targets as absolute paths or URLs). A first word that
    is a command, or that is neither a URL nor a file, leaves ``argv`` to the parser."""
    rest: list[str] = []
    targets: list[str] = []
    words = list(argv)
    index = 0
    while index < len(words):
        word = words[index]
        if word == "--":
            candidates = words[index + 1:]
            if candidates and all(is_target(c) for c in candidates):
                return rest, targets + [_absolute(c) for c in candidates]
            return list(argv), []
        if word in VALUE_OPTIONS:
            rest += words[index:index + 2]
            index += 2
            continue
        if word.startswith("-"):
            rest.append(word)
            index += 1
            continue
        if word in commands or not is_target(word):
            return list(argv), []
        targets.append(_absolute(word))
        index += 1
    return rest, targets


def _absolute(target: str) -> str:
    scheme, colon, _rest = target.partition(":")
    if colon and scheme.lower() in TARGET_SCHEMES:
        return target
    return str(Path(target).expanduser().resolve())
