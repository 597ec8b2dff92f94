"""Sync with a gpodder.net (mygpo API v2) or Nextcloud gPodder Sync server: the clients and the local journal."""
