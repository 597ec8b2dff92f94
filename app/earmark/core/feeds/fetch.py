"""Reading a feed's (or a web page's) bytes from an http(s) URL, a file:// URL or a local path."""

from __future__ import annotations

import base64
import functools
import hashlib
import time
import zlib
from dataclasses import replace
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO
from urllib.parse import unquote, urlparse, urlsplit

from earmark import __version__
from earmark.core.errors import AuthRequiredError, GoneError, RetryLaterError, UnreachableError
from earmark.core.files import read_file
from earmark.core.records import record
from earmark.core.tls import https_handler
from earmark.core.urls import WEB_SCHEMES, origin, shown_address, split_userinfo

if TYPE_CHECKING:
    import urllib.request

MAX_FEED_BYTES = 50 * 1024 * 1024
TIMEOUT_SECONDS = 20.0  # per network operation (connect, each read)
TOTAL_SECONDS = 90.0  # for the whole body
CHUNK_BYTES = 256 * 1024
USER_AGENT = f"Earmark/{__version__} (+podcast and article library)"
_PERMANENT = (301, 308)
_SUBSCRIBE_SCHEMES = {"feed", "itpc", "pcast", "podcast"}


@record
class Validators:
    """What a conditional GET sends back to the server, and the credentials it needs."""

    etag: str | None = None
    last_modified: str | None = None
    user: str | None = None
    password: str | None = None


@record
class Fetched:
    """A document's bytes and where they finally came from (after redirects)."""

    data: bytes
    url: str
    content_type: str | None = None  # the server's, with its charset: feedparser decodes by it
    etag: str | None = None
    last_modified: str | None = None
    moved_to: str | None = None  # set when every redirect on the way was permanent (301/308)
    not_modified: bool = False  # the server answered 304: ``data`` is empty


def body_hash(data: bytes) -> str:
    """The fingerprint that tells an unchanged feed body from a changed one."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def is_web_url(source: str) -> bool:
    """Whether ``source`` names an http(s) resource rather than a local file."""
    try:
        return urlparse(source).scheme in ("http", "https")
    except ValueError:  # a malformed IPv6 host: not an address anything can be fetched from
        return False


def canonical_source(source: str) -> str:
    """The form a source is stored under: web URLs as given, local files as absolute file:// URLs.

    Subscribe links (``feed:``, ``itpc:``, ``podcast:``) become the https URL they wrap.
    """
    source = source.strip()
    shown = shown_address(source)  # a password typed in the address stays out of the sentences
    try:
        parsed = urlparse(source)
    except ValueError as exc:
        raise UnreachableError(f"{shown!r} is not a valid address: {exc}.") from exc
    scheme = parsed.scheme.lower()
    if scheme in _SUBSCRIBE_SCHEMES:
        return canonical_source(_wrapped_url(source.split(":", 1)[1])[0])
    if scheme in ("http", "https"):
        if not parsed.netloc:
            raise UnreachableError(f"{shown!r} is not a valid address: it names no server.")
        return source
    if scheme == "file":
        return _file_uri(source, Path(unquote(parsed.path)), home=False)
    if scheme and len(scheme) > 1:
        raise UnreachableError(f"Earmark cannot read {shown!r}: only http, https and local files are supported.")
    if not any(mark in source for mark in "/\\~") and not _is_file_name(source):  # no path: a mistyped address
        named = f"“{shown}”" if shown.isprintable() else repr(shown)  # a control character keeps it on one line
        raise UnreachableError(f"{named} is not an address: type a feed's web address (https://…) or the path "
                               "of a feed file.")
    return _file_uri(source, Path(source), home=True)


def _is_file_name(source: str) -> bool:
    """Whether ``source`` names something in the working folder (a name too long or holding a NUL names none)."""
    try:
        return Path(source).exists()
    except (OSError, ValueError):
        return False


def _wrapped_url(inner: str) -> tuple[str, bool]:
    """The web address a subscribe link wraps, and whether the link named its scheme: ``podcast:https://…``,
    ``podcast:http%3A%2F%2F…`` and ``podcast://http://…`` name theirs; ``podcast://host/feed`` names none (https
    is tried first)."""
    inner = inner.lstrip(":")
    if inner[:9].lower() in ("http%3a%2", "https%3a%"):
        inner = unquote(inner)
    named = inner.lstrip("/")
    scheme, _, rest = named.partition(":")
    if scheme.lower() in ("http", "https") and rest.startswith("//"):
        return named, True
    return "https:" + inner, False


def plain_http_fallback(source: str) -> str | None:
    """The http address to try when a subscribe link that names no scheme (``podcast://host/feed``,
    ``itpc://host/feed``) cannot be read over https; None for every other source."""
    scheme, _, inner = source.strip().partition(":")
    if scheme.lower() not in _SUBSCRIBE_SCHEMES:
        return None
    url, named = _wrapped_url(inner)
    return None if named else canonical_source("http:" + url.removeprefix("https:"))


def _file_uri(source: str, path: Path, home: bool) -> str:
    """The absolute file:// URL of a local path (``~`` expanded when ``home``); UnreachableError when there can
    be no such file."""
    try:
        return (path.expanduser() if home else path).resolve().as_uri()
    except ValueError as exc:  # found by fuzzing: pathlib refuses a NUL character
        raise UnreachableError(f"{source!r} is not a valid address: it holds a NUL character.") from exc
    except RuntimeError as exc:  # found by fuzzing: "~nobody/feed.xml" (no such user), or a symlink loop
        raise UnreachableError(f"{source!r} is not a valid address: {str(exc).rstrip('.')}.") from exc


@record(frozen=True)
class _Body:
    """What is being fetched (for the sentences) and how many bytes it may have."""

    what: str
    cap: int


def fetch(source: str, validators: Validators | None = None, timeout: float = TIMEOUT_SECONDS, *,
          what: str = "feed", max_bytes: int | None = None) -> Fetched:
    """Fetch a feed from the web or the disk; UnreachableError (or a subclass) with a plain sentence on failure.

    With ``validators`` the request is conditional: an unchanged feed comes back with ``not_modified`` set.
    ``what`` names the document in error sentences ("page"), ``max_bytes`` caps it (default MAX_FEED_BYTES).
    """
    body = _Body(what, MAX_FEED_BYTES if max_bytes is None else max_bytes)
    url = canonical_source(source)
    if not is_web_url(url):
        return _read_file(url, body)
    # Deferred (http.client costs ~20 ms of the window's start-up), and imported by name: refreshes fetch in several
    # threads at once, and while one thread's `import urllib.request` ends, the package's `request` attribute
    # is not set yet, so another thread's `urllib.request.X` raised AttributeError (a refresh failed on it in CI).
    from http.client import HTTPException
    from urllib.error import HTTPError, URLError

    url, validators = _split_credentials(url, validators or Validators())
    request = _request(url, validators)
    hops: list[int] = []
    request.hops = hops  # type: ignore[attr-defined]  # the redirect recorder notes each hop's code here
    try:
        with _opener().open(request, timeout=timeout) as response:
            data = _read_within(response, url, response.headers.get("Content-Encoding"), body=body)
            final_url = response.geturl()
            headers = response.headers
    except HTTPError as exc:
        exc.close()
        if exc.code == 304:
            # A feed that moved for good without changing answers 304 at its new address: the move counts too,
            # or the old address would be followed (and redirected) on every refresh forever.
            return Fetched(b"", url, not_modified=True, etag=exc.headers.get("ETag"),
                           last_modified=exc.headers.get("Last-Modified"),
                           moved_to=_moved_to(hops, exc.geturl(), url))
        raise _http_error(url, exc.code, exc.reason, exc.headers.get("Retry-After"), body.what) from exc
    except URLError as exc:
        raise UnreachableError(f"{url} could not be reached: {network_reason(exc.reason)}.") from exc
    except (TimeoutError, OSError) as exc:
        raise UnreachableError(f"{url} could not be reached: {network_reason(exc)}.") from exc
    except (HTTPException, ValueError) as exc:
        raise UnreachableError(f"{url} did not answer like a web server ({type(exc).__name__}).") from exc
    return Fetched(
        data=data,
        url=final_url,
        content_type=headers.get("Content-Type"),
        etag=headers.get("ETag"),
        last_modified=headers.get("Last-Modified"),
        moved_to=_moved_to(hops, final_url, url),
    )


def _split_credentials(url: str, validators: Validators) -> tuple[str, Validators]:
    """The address without ``user:password@``, and the validators carrying that part as basic auth.

    Private feeds are often shared with their credentials in the address; urllib would look up
    "user:password@host" as a host name, and error sentences would show the password. Stored credentials
    (``set-credentials``) win over the address's.
    """
    parts = split_userinfo(url)
    if parts.user is not None and validators.user is None:
        validators = replace(validators, user=parts.user, password=parts.password)
    return parts.url, validators


def _moved_to(hops: list[int], final_url: str, url: str) -> str | None:
    """The feed's new address when every redirect was permanent. It never carries credentials: those are
    stored apart (and dropped when the feed moves to another origin, see core/secrets/feeds.py)."""
    if not hops or not all(code in _PERMANENT for code in hops) or final_url == url:
        return None
    return final_url


def _request(url: str, validators: Validators) -> urllib.request.Request:
    from urllib.request import Request  # by name, as in fetch()

    headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "gzip, deflate"}
    if validators.etag:
        headers["If-None-Match"] = validators.etag
    if validators.last_modified:
        headers["If-Modified-Since"] = validators.last_modified
    if validators.user is not None:
        token = f"{validators.user}:{validators.password or ''}".encode()
        headers["Authorization"] = "Basic " + base64.b64encode(token).decode("ascii")
    return Request(url, headers=headers)


@functools.cache
def _opener() -> urllib.request.OpenerDirector:
    """The opener every fetch uses; building one per request cost about 0.4 ms (its handlers, and the proxy
    settings read from the environment), and a refresh makes hundreds of requests. Its redirect handler notes
    each hop's status code on the request (``hops``), to tell moved feeds from temporary detours."""
    from urllib.request import HTTPRedirectHandler, build_opener  # by name, as in fetch()

    class Recorder(HTTPRedirectHandler):
        def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]  # stdlib hook
            hops = req.hops
            hops.append(code)
            if urlsplit(newurl).scheme.lower() not in WEB_SCHEMES:
                # urllib would follow ftp: too (and fetch the file from anywhere the server names)
                fp.close()
                raise UnreachableError(f"{req.full_url} redirects to {newurl}, which is not a web address; Earmark "
                                       "follows redirects to http and https only.")
            new = super().redirect_request(req, fp, code, msg, headers, newurl)
            if new is not None:
                new.hops = hops  # type: ignore[attr-defined]  # carried along the redirects
                if origin(newurl) != origin(req.full_url):
                    new.remove_header("Authorization")  # urllib forwards it anywhere: the password is for this server
            return new

    return build_opener(https_handler(), Recorder())


def _http_error(url: str, code: int, reason: object, retry_after: str | None, what: str = "feed") -> UnreachableError:
    if 300 <= code < 400:
        return UnreachableError(f"{url} redirects in a loop or to nowhere (HTTP {code}).")
    if code == 410:
        return GoneError(f"{url} is gone: the server says the {what} was removed for good (HTTP 410).")
    if code in (401, 403):
        return AuthRequiredError(f"{url} needs a user name and password (HTTP {code}).")
    if code in (429, 503):
        wait = parse_retry_after(retry_after)
        later = f" and asks to wait {_duration(wait)}" if wait else ""
        return RetryLaterError(f"{url} is busy (HTTP {code}){later}; Earmark will try again later.", wait)
    return UnreachableError(f"{url} answered with HTTP error {code} ({reason}).")


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delta seconds or an HTTP date); None when absent or junk."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.0f} h"


def _read_within(response: BinaryIO, url: str, encoding: str | None = None, deadline: float | None = None,
                 body: _Body | None = None) -> bytes:
    """The body, read in chunks so that a server trickling bytes cannot hold a fetch forever, and decoded
    from gzip/deflate with the same size cap on the decoded bytes (a compression bomb stops at the cap)."""
    deadline = time.monotonic() + TOTAL_SECONDS if deadline is None else deadline
    body = body or _Body("feed", MAX_FEED_BYTES)
    decoder: zlib._Decompress | None = None
    chunks: list[bytes] = []
    size = received = 0
    # read1: what one receive got. read(n) waits for all n bytes, so a server trickling 16 KiB every few seconds
    # (each within the socket timeout) held a fetch for minutes past the deadline (found by the robustness suite).
    read = getattr(response, "read1", response.read)
    while chunk := read(CHUNK_BYTES):
        if time.monotonic() > deadline:
            raise UnreachableError(f"{url} took more than {TOTAL_SECONDS:g} s to send the {body.what}; gave up.")
        received += len(chunk)
        if received > body.cap:  # the bytes on the wire count too (found by the robustness suite: endless
            raise _too_large(url, body)  # data after the end of a compressed stream piled up in zlib's unused_data)
        if decoder is None:
            decoder = _decoder(encoding, chunk)  # on the first bytes: deflate comes with or without its header
        if decoder is not None:
            if decoder.eof:
                continue  # bytes after the end of the compressed stream are not part of the feed
            chunk = _inflate(decoder, chunk, body.cap - size + 1, url, body)
        size += len(chunk)
        if size > body.cap:
            raise _too_large(url, body)
        chunks.append(chunk)
    # http.client's read(n) returns b"" when the server closes early, even short of its Content-Length
    # (``length`` keeps what is missing), and a zlib stream cut short just stops: both are half a feed,
    # which would otherwise be parsed (and stored) as if it were the whole one.
    if getattr(response, "length", None):
        raise UnreachableError(f"{url} closed the connection before the whole {body.what} arrived; try again later.")
    if decoder is not None and not decoder.eof:
        raise UnreachableError(f"{url} sent a compressed {body.what} that stops in the middle; try again later.")
    return b"".join(chunks)


def _decoder(encoding: str | None, first: bytes) -> zlib._Decompress | None:
    encoding = (encoding or "").strip().lower()
    if encoding in ("gzip", "x-gzip"):
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if encoding == "deflate":
        # zlib-wrapped, as the standard says; but some servers send a raw deflate stream, which has no
        # header (a zlib header is CM 8 in the low nibble and a multiple of 31 as a big-endian number).
        wrapped = len(first) >= 2 and first[0] & 0x0F == 8 and int.from_bytes(first[:2], "big") % 31 == 0
        return zlib.decompressobj(32 + zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS)
    return None


def _inflate(decoder: zlib._Decompress, chunk: bytes, limit: int, url: str, body: _Body) -> bytes:
    try:
        out = decoder.decompress(chunk, limit)
    except zlib.error as exc:
        raise UnreachableError(f"{url} sent a compressed {body.what} that cannot be decompressed ({exc}).") from exc
    if decoder.unconsumed_tail:  # more output is waiting than the cap allows
        raise _too_large(url, body)
    return out


def _too_large(name: object, body: _Body) -> UnreachableError:
    return UnreachableError(f"{name} is larger than {body.cap // (1024 * 1024)} MB, too large for a {body.what}.")


def _read_file(url: str, body: _Body) -> Fetched:
    path = Path(unquote(urlparse(url).path))
    return Fetched(data=read_file(path, f"a {body.what} file", body.cap, f"a {body.what}"), url=url)


def network_reason(reason: object) -> str:
    """Why a connection failed, in words ("connection refused", "the connection timed out")."""
    if isinstance(reason, TimeoutError) or "timed out" in str(reason):
        return "the connection timed out"
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror[0].lower() + reason.strerror[1:]
    return str(reason)
