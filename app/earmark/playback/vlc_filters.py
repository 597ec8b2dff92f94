"""Choosing a VLC media player's audio filters (the voice boost's compressor). libVLC 3 offers no call for it,
and a player's own "audio-filter" variable hides the instance's ``--audio-filter``; but a libVLC 3 media player
is a VLC object, so the variable is set through libvlccore, and the player's audio output is reset so that the
output of the next media it plays is built with those filters. The compressor's settings are instance options
(vlc_engine.COMPRESSOR_ARGS), which the filter reads when it is built. Where libvlccore cannot be reached this
way (another libVLC), ``set_audio_filters`` says so and the voice boost is the equalizer alone. (Imported once
libVLC is loaded: ctypes and the types below are no part of a start.)"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from functools import lru_cache
from typing import Any

log = logging.getLogger(__name__)

_VAR_STRING = 0x0040  # VLC_VAR_STRING


class _Value(ctypes.Union):  # vlc_value_t
    _fields_ = [("i_int", ctypes.c_int64), ("b_bool", ctypes.c_bool), ("f_float", ctypes.c_float),
                ("psz_string", ctypes.c_char_p), ("p_address", ctypes.c_void_p), ("coords", ctypes.c_int64 * 2)]


@lru_cache(maxsize=1)
def _core() -> Any:
    """libvlccore 3 (None when it is not there)."""
    try:
        core = ctypes.CDLL("libvlccore.so.9")
    except OSError:
        return None
    core.var_SetChecked.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, _Value]
    core.var_SetChecked.restype = ctypes.c_int
    core.var_GetChecked.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(_Value)]
    core.var_GetChecked.restype = ctypes.c_int
    return core


def set_audio_filters(player: Any, filters: str) -> bool:
    """Build ``player``'s next audio output with ``filters`` (VLC module names joined by ":", "" for none);
    False when this libVLC does not allow it."""
    core = _core()
    if core is None:
        return False
    handle = ctypes.c_void_p(ctypes.cast(player._as_parameter_, ctypes.c_void_p).value)
    output = _Value()
    if core.var_GetChecked(handle, b"aout", _VAR_STRING, ctypes.byref(output)) != 0:
        log.info("this libVLC's players have no audio output variable: voice boost is the equalizer alone")
        return False
    name = (output.psz_string or b"").decode()  # (VLC's copy of the string is left: a few bytes per switch)
    if core.var_SetChecked(handle, b"audio-filter", _VAR_STRING, _Value(psz_string=filters.encode())) != 0:
        return False
    player.audio_output_set(name or "any")  # the next media gets an output built with the filters
    return True
