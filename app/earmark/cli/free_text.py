"""An argument parser that takes free text as text: a word that names none of a command's options is a value,
whatever it starts with (argparse alone takes any word starting with "-" for an unknown option, so
`earmark note ID '---'` failed)."""

from __future__ import annotations

import argparse
from typing import Any


class TextParser(argparse.ArgumentParser):
    """ArgumentParser whose commands take ``---``, ``-draft`` or ``-1: too slow`` as values; options (exact,
    ``--opt=value``, abbreviated ``--opt``, joined ``-xVALUE``) and ``--`` work as before."""

    def _parse_optional(self, arg_string: str) -> Any:
        if arg_string.startswith("-") and arg_string != "--" and not self._names_an_option(arg_string):
            return None  # a value (argparse's own answer for "-" and for text with a space)
        return super()._parse_optional(arg_string)

    def _names_an_option(self, word: str) -> bool:
        options = self._option_string_actions
        name = word.split("=", 1)[0]
        if word in options or name in options:
            return True
        if word.startswith("--"):
            return self.allow_abbrev and any(option.startswith(name) for option in options if option[:2] == "--")
        return word[:2] in options  # a short option with its value joined: "-x5"
