"""A setting's value written as text on the command line (``earmark setting KEY VALUE``), and back."""

from __future__ import annotations

import difflib
import json

from earmark.core.errors import EarmarkError
from earmark.core.settings import SETTINGS, Setting

_TRUE, _FALSE = ("yes", "true", "on", "1"), ("no", "false", "off", "0")


def setting_named(key: str) -> Setting:
    """The setting called ``key``; EarmarkError naming the closest keys when there is none."""
    if key in SETTINGS:
        return SETTINGS[key]
    near = difflib.get_close_matches(key, SETTINGS, n=3) or [k for k in SETTINGS if k.startswith(key)][:5]
    hint = f" Did you mean {', '.join(near)}?" if near else " docs/settings.md lists them all."
    raise EarmarkError(f"There is no setting called {key!r}.{hint}")


def parsed_value(setting: Setting, text: str) -> object:
    """``text`` as a value of ``setting``; EarmarkError with a sentence when it cannot be one."""
    wrong = EarmarkError(f"{text!r} is not a value {setting.key} can take ({_expected(setting)}).")
    if setting.type is bool:
        if text.strip().lower() not in (*_TRUE, *_FALSE):
            raise wrong
        return text.strip().lower() in _TRUE
    if setting.type in (int, float):
        try:
            number = float(text)
        except ValueError:
            raise wrong from None
        if setting.type is int and not number.is_integer():
            raise wrong
        return setting.coerce(number)
    if setting.type in (dict, list):
        try:
            value = json.loads(text)
        except ValueError:
            raise wrong from None
        if not isinstance(value, setting.type):
            raise wrong
        return value
    if setting.type is bytes:
        raise EarmarkError(f"{setting.key} is kept by the window itself and cannot be set by hand.")
    if setting.choices and text not in {value for value, _label in setting.choices}:
        raise wrong
    return text


def shown_value(value: object) -> str:
    """A value as ``earmark setting KEY`` prints it: text as it is, yes/no, numbers, JSON for the rest."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return f"({len(value)} bytes)"
    return json.dumps(value, ensure_ascii=False)


def _expected(setting: Setting) -> str:
    if setting.type is bool:
        return "yes or no"
    if setting.choices:
        return "one of " + ", ".join(value for value, _label in setting.choices)
    if setting.type in (int, float):
        bounds = f" from {setting.minimum:g}" if setting.minimum is not None else ""
        bounds += f" to {setting.maximum:g}" if setting.maximum is not None else ""
        return ("a whole number" if setting.type is int else "a number") + bounds
    return "a JSON " + ("object" if setting.type is dict else "array")
