"""Which directories a search asks, where they are, and the Podcast Index key and secret: from the library's
settings and the keyring (read off the UI thread: the keyring may wait for an unlock)."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed

from earmark.core.db.database import Database
from earmark.core.directory.apple import AppleDirectory
from earmark.core.directory.client import TIMEOUT_SECONDS, Directory, DirectoryError
from earmark.core.directory.fyyd import FyydDirectory
from earmark.core.directory.gpodder import GpodderDirectory
from earmark.core.directory.podcastindex import PodcastIndexDirectory
from earmark.core.directory.results import DirectoryResult
from earmark.core.errors import NoKeyringError
from earmark.core.records import record
from earmark.core.secrets.store import SecretKey, Secrets
from earmark.core.settings import get_setting, set_setting

NAMES = ("apple", "podcastindex", "fyyd", "gpodder")
LABELS = {"apple": "Apple Podcasts", "podcastindex": "Podcast Index", "fyyd": "fyyd", "gpodder": "gpodder.net"}


@record(frozen=True)
class DirectorySpec:
    """Everything needed to ask one directory, as plain values a worker can take."""

    name: str
    base_url: str
    country: str = "us"
    key: str = ""
    secret: str = ""
    timeout: float = TIMEOUT_SECONDS

    @property
    def label(self) -> str:
        """The directory in words."""
        return LABELS[self.name]


def secret_key(key: str) -> SecretKey:
    """Where the Podcast Index secret that goes with API key ``key`` is kept."""
    return SecretKey("directory", "podcastindex", key)


def keep_podcastindex_key(db: Database, key: str, secret: str) -> None:
    """Keep the person's Podcast Index API key (a setting) and secret (in the keyring, or the library when opted
    in), and ask Podcast Index from now on. NoKeyringError with its sentence when the secret cannot be kept."""
    key, secret = key.strip(), secret.strip()
    if not key or not secret:
        raise DirectoryError("Podcast Index needs both the API key and its secret (podcastindex.org gives both).")
    Secrets(db).set(secret_key(key), secret)
    set_setting(db, "directory.podcastindex_key", key)
    set_setting(db, "directory.podcastindex", True)


def chosen_names(db: Database) -> list[str]:
    """The directories the settings say a search asks (``directory.NAME`` on), Apple alone by default."""
    return [name for name in NAMES if get_setting(db, f"directory.{name}")]


def directory_specs(db: Database, names: list[str] | None = None,
                    secrets: Secrets | None = None) -> list[DirectorySpec]:
    """The directories ``names`` (default: the chosen ones), each with its settings and credentials."""
    specs = []
    for name in names if names is not None else chosen_names(db):
        if name not in NAMES:
            raise DirectoryError(f"There is no directory called {name!r}: the directories are {', '.join(NAMES)}.")
        key = secret = ""
        if name == "podcastindex" and (key := str(get_setting(db, "directory.podcastindex_key")).strip()):
            try:
                secret = (secrets or Secrets(db)).get(secret_key(key)) or ""
            except NoKeyringError:
                secret = ""  # the search then says the secret is missing
        specs.append(DirectorySpec(name, str(get_setting(db, f"directory.{name}_url")),
                                   str(get_setting(db, "directory.country")), key, secret))
    return specs


def open_directory(spec: DirectorySpec) -> Directory:
    """The client that asks the directory ``spec`` describes."""
    if spec.name == "apple":
        return AppleDirectory(spec.base_url, spec.country, spec.timeout)
    if spec.name == "podcastindex":
        return PodcastIndexDirectory(spec.key, spec.secret, spec.base_url, spec.timeout)
    if spec.name == "fyyd":
        return FyydDirectory(spec.base_url, spec.timeout)
    return GpodderDirectory(spec.base_url, spec.timeout)


def search_directory(spec: DirectorySpec, query: str, limit: int = 25) -> list[DirectoryResult]:
    """Search one directory (a worker's task)."""
    return open_directory(spec).search(query, limit)


def popular_in(spec: DirectorySpec, category: str = "", limit: int = 25) -> list[DirectoryResult]:
    """One directory's Popular list (a worker's task)."""
    return open_directory(spec).popular(category, limit)


def search_all(specs: list[DirectorySpec], query: str,
               limit: int = 25) -> Iterator[tuple[DirectorySpec, list[DirectoryResult] | DirectoryError]]:
    """Ask every directory at once; each answer (or its failure) as it comes."""
    if not specs:
        return
    with ThreadPoolExecutor(max_workers=len(specs), thread_name_prefix="earmark-directory") as pool:
        asked = {pool.submit(search_directory, spec, query, limit): spec for spec in specs}
        for future in as_completed(asked):
            error = future.exception()
            if error is None:
                yield asked[future], future.result()
            elif isinstance(error, DirectoryError):
                yield asked[future], error
            else:
                raise error
