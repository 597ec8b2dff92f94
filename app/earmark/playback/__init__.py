"""Playback: the player interface, its VLC and null backends, and progress keeping. QtCore only."""
