"""Podcast directories: finding a podcast by its name (Apple Podcasts, Podcast Index, fyyd, gpodder.net)."""
