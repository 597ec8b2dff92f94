"""Listening: playing, the player bar, Up next, Skip Silence, episode commands and transcription."""
