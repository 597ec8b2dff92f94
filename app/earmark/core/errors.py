"""Error types: user-facing failures carry one plain sentence; anything else is a bug."""


class EarmarkError(Exception):
    """A failure the user can understand and act on; ``str(err)`` is the sentence to show."""


class LibraryError(EarmarkError):
    """The library file cannot be opened or used (not SQLite, unreadable, locked, too new)."""


class LibraryTooNewError(LibraryError):
    """The library was written by a newer Earmark than this one."""


class LibraryReadOnlyError(LibraryError):
    """The library can be read but not written (read-only file, folder or disk)."""


class LibraryFullError(LibraryReadOnlyError):
    """The disk that holds the library is full: it can be read, not written, until there is room again."""


class LibraryBusyError(LibraryError):
    """Another program kept the library locked for longer than Earmark waits."""


class LibraryDamagedError(LibraryError):
    """The library file is not SQLite, or is truncated or corrupt: it is left untouched."""


class FeedError(EarmarkError):
    """A source could not be read as a feed (not a feed, malformed beyond repair)."""


class UnreachableError(EarmarkError):
    """A URL or file could not be fetched (network error, HTTP error, missing file)."""


class NotFoundError(EarmarkError):
    """An item, source or other record named by the user does not exist."""


class GoneError(UnreachableError):
    """The server says the feed is gone for good (HTTP 410)."""


class AuthRequiredError(UnreachableError):
    """The server wants a user name and password (HTTP 401/403)."""


class RetryLaterError(UnreachableError):
    """The server is busy or rate-limiting (HTTP 429/503); ``retry_after`` is in seconds when it said."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TranscriptError(EarmarkError):
    """A transcript could not be read (not a transcript, no timed lines, a format Earmark does not know)."""


class TranscribeError(EarmarkError):
    """An episode could not be transcribed here (no engine, no model, not downloaded, not audio, only silence)."""


class NoSpeechError(TranscribeError):
    """The engine heard no words in audio that is not silent."""


class BackupError(EarmarkError):
    """A backup cannot be restored (not a backup, damaged, newer than this Earmark, library not empty)."""


class ExtractionError(EarmarkError):
    """A page or file holds no article Earmark can read (no text found, not a web page, a feed)."""


class NoKeyringError(EarmarkError):
    """No system keyring (Secret Service) can keep a password: none is running, or it stayed locked."""


class SyncError(EarmarkError):
    """A sync with the gpodder.net or Nextcloud server failed (unreachable, refused, a broken answer)."""


class SyncAuthError(SyncError):
    """The sync server refused the user name or password (or there is no password to send)."""


class AudioError(EarmarkError):
    """An episode's audio cannot be analysed (no such file, not audio, unreachable, no audio stream)."""
