"""Whose speed the player bar's speed box shows: the playing podcast's own (set while listening, kept for it) or
the default every other podcast plays at (Settings ▸ Playback)."""

from __future__ import annotations

KEYS = "[ slower, ] faster, Backspace 1×"


def speed_tip(podcast: str | None, own: float | None, default: float) -> str:
    """The speed box's tooltip: ``podcast`` playing (None: nothing of a podcast), its ``own`` speed if it has one,
    and the ``default`` speed."""
    if podcast is None:
        return f"Default speed for every podcast without its own ({KEYS}; also in Settings ▸ Playback)"
    if own is None:
        return (f"“{podcast}” plays at the default speed, {default:g}× (Settings ▸ Playback); a speed chosen here "
                f"({KEYS}) is kept for this podcast only")
    return (f"The speed of “{podcast}”, kept for this podcast ({KEYS}; Podcast Playback Settings, Ctrl+Shift+T); "
            f"other podcasts play at the default, {default:g}× (Settings ▸ Playback)")
