"""Episode downloads: safe file names and resumable HTTP transfers."""
