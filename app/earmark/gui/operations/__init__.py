"""User actions run off the UI thread, one module per domain; each returns a Changes set."""
