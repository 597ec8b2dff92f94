"""JSON over HTTP with a sync server: basic auth sent up front, the session cookie kept, answers capped in size
and time, and every failure a sentence that says what happened and that nothing was lost."""

from __future__ import annotations

import base64
import http.client
import http.cookiejar
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from email.utils import parsedate_to_datetime
from urllib.request import HTTPRedirectHandler

from earmark import __version__
from earmark.core.errors import SyncAuthError, SyncError
from earmark.core.feeds.fetch import network_reason
from earmark.core.tls import https_handler

TIMEOUT_SECONDS = 20.0  # per network operation
TOTAL_SECONDS = 120.0  # for one whole answer
MAX_ANSWER_BYTES = 32 * 1024 * 1024  # years of a heavy listener's episode actions fit in a few MB
CHUNK_BYTES = 256 * 1024
KEPT = "your changes are kept and sent at the next sync"


# The base by name, not as urllib.request.HTTPRedirectHandler: loaded in a worker thread, this module may run while
# another thread ends its first import of urllib.request, before the package has that attribute (feeds/fetch.py).
class _NoRedirects(HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]  # stdlib hook
        return None  # a redirect is reported (with where it leads), never followed with the password


class JsonClient:
    """Requests to one server for one user. ``cookies`` keeps a login's session between requests;
    ``server_time`` is the server's clock (from its last Date header) minus this computer's, in seconds."""

    def __init__(self, base_url: str, user: str, password: str, *, cookies: bool = True,
                 timeout: float = TIMEOUT_SECONDS, max_bytes: int = MAX_ANSWER_BYTES) -> None:
        self.base_url = base_url.rstrip("/")
        self.host = urllib.parse.urlsplit(self.base_url).netloc or self.base_url
        self.user = user
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.clock_offset: float | None = None
        self._auth = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
        handlers: list[urllib.request.BaseHandler] = [https_handler(), _NoRedirects()]
        if cookies:
            handlers.append(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self._opener = urllib.request.build_opener(*handlers)

    def call(self, method: str, path: str, *, query: dict[str, object] | None = None, body: object = None,
             auth: bool = True, expect_json: bool = True) -> object:
        """Send one request and return the decoded JSON answer (None when ``expect_json`` is off)."""
        url = self.base_url + path + (f"?{urllib.parse.urlencode(query)}" if query else "")
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, method=method, headers={
            "User-Agent": f"Earmark/{__version__}", "Accept": "application/json"})
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if auth:
            request.add_header("Authorization", self._auth)  # pre-emptively: no 401 round trip first
        raw = self._send(request)
        return decode_json(raw, self.host, path) if expect_json else None

    def _send(self, request: urllib.request.Request) -> bytes:
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                self._note_clock(response.headers.get("Date"))
                return self._read(response)
        except urllib.error.HTTPError as exc:
            self._note_clock(exc.headers.get("Date") if exc.headers else None)
            exc.close()
            raise self._http_error(exc) from exc
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                raise self._too_slow() from exc
            raise SyncError(f"The sync server at {self.host} could not be reached ({network_reason(exc.reason)}); "
                            f"{KEPT}.") from exc
        except TimeoutError as exc:
            raise self._too_slow() from exc
        except OSError as exc:
            raise SyncError(f"The sync server at {self.host} could not be reached ({network_reason(exc)}); "
                            f"{KEPT}.") from exc
        except (http.client.HTTPException, ValueError) as exc:
            raise SyncError(f"The sync server at {self.host} did not answer like a web server "
                            f"({type(exc).__name__}); {KEPT}.") from exc

    def _read(self, response: http.client.HTTPResponse) -> bytes:
        deadline = time.monotonic() + TOTAL_SECONDS
        chunks: list[bytes] = []
        size = 0
        while chunk := response.read1(CHUNK_BYTES):
            size += len(chunk)
            if size > self.max_bytes:
                raise SyncError(f"The sync server at {self.host} sent more than {self.max_bytes // 2**20} MB in "
                                f"one answer; Earmark stopped reading it, applied nothing from it, and {KEPT}.")
            if time.monotonic() > deadline:
                raise SyncError(f"The sync server at {self.host} took more than {TOTAL_SECONDS:g} s to answer; "
                                f"{KEPT}.")
            chunks.append(chunk)
        if response.length:  # closed before its Content-Length
            raise SyncError(f"The sync server at {self.host} closed the connection in the middle of an answer; "
                            f"{KEPT}.")
        return b"".join(chunks)

    def _too_slow(self) -> SyncError:
        return SyncError(f"The sync server at {self.host} did not answer within {self.timeout:g} s; {KEPT}.")

    def _http_error(self, exc: urllib.error.HTTPError) -> SyncError:
        code = exc.code
        if code in (401, 403):
            return SyncAuthError(f"The sync server at {self.host} refused the user name or password of "
                                 f"{self.user} (HTTP {code}); log in again. {KEPT[0].upper()}{KEPT[1:]}.")
        if 300 <= code < 400:
            where = exc.headers.get("Location") if exc.headers else None
            return SyncError(f"The sync server at {self.host} sends Earmark elsewhere ({where or 'no address'}, "
                             f"HTTP {code}); log in with the server's own address.")
        if code == 404:
            return SyncError(f"The sync server at {self.host} has no such page ({urllib.parse.urlsplit(exc.url).path},"
                             f" HTTP 404): check that it is a server of the kind chosen.")
        return SyncError(f"The sync server at {self.host} answered with an error (HTTP {code} {exc.reason}); "
                         f"Earmark will try again later, and {KEPT}.")

    def _note_clock(self, date: str | None) -> None:
        if not date:
            return
        try:
            server = parsedate_to_datetime(date).timestamp()
        except (TypeError, ValueError):
            return
        self.clock_offset = server - time.time()



def decode_json(raw: bytes, host: str, path: str) -> object:
    """A server's answer as JSON; SyncError with a sentence when it is not JSON."""
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise SyncError(f"The sync server at {host} sent an answer that is not valid JSON ({path}); nothing was "
                        f"applied, and {KEPT}.") from exc
