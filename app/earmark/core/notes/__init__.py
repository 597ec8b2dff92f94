"""Notes, transcripts and what leaves the app: exports, backup and restore."""
