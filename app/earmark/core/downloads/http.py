"""Opening an episode's address: redirects followed to http and https only, ten at most and never round in a
loop; what the server refused turned into a sentence that says whether asking again can help."""

from __future__ import annotations

import http.client
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit
from urllib.request import HTTPRedirectHandler

from earmark.core.downloads.failures import DownloadError, network_reason, status_reason
from earmark.core.feeds.fetch import USER_AGENT, parse_retry_after
from earmark.core.tls import https_handler

MAX_HOPS = 10
WEB_SCHEMES = ("http", "https")


def open_media(url: str, name: str, have: int, timeout: float) -> http.client.HTTPResponse | None:
    """The server's answer for ``url``, asking for the bytes from ``have`` on (a Range request) when some are
    held; None when the server says there is nothing after them (the file is complete). Raises DownloadError."""
    opener = urllib.request.build_opener(https_handler(), _Redirects(url, name))
    headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "identity"}
    if have:
        headers["Range"] = f"bytes={have}-"
    try:
        response = opener.open(urllib.request.Request(url, headers=headers), timeout=timeout)
    except DownloadError:
        raise
    except urllib.error.HTTPError as exc:
        with exc:
            if exc.code == 416 and have:
                return None
            if 300 <= exc.code < 400:
                raise DownloadError(name, "the server redirects it to an address Earmark cannot follow", False) from exc
            reason, retryable = status_reason(exc.code, str(exc.reason or ""))
            wait = parse_retry_after(exc.headers.get("Retry-After")) if exc.headers else None
            raise DownloadError(name, reason, retryable, wait, counted=True) from exc
    except urllib.error.URLError as exc:
        raise DownloadError(name, network_reason(exc)) from exc
    except (OSError, http.client.HTTPException, ValueError) as exc:
        raise DownloadError(name, network_reason(exc)) from exc
    return response  # an HTTPResponse (or a file's answer, for the episode of a local feed)


# The base by name, not as urllib.request.HTTPRedirectHandler: loaded in a worker thread, this module may run while
# another thread ends its first import of urllib.request, before the package has that attribute (feeds/fetch.py).
class _Redirects(HTTPRedirectHandler):
    """Follows redirects to http and https addresses only (urllib would fetch ``ftp://`` too), stops a loop at
    its first repeat and a chain after MAX_HOPS hops."""

    max_redirections = MAX_HOPS + 1  # urllib's own limit never comes first: the sentence is ours

    def __init__(self, url: str, name: str) -> None:
        super().__init__()
        self._visited = [url]
        self._name = name

    def redirect_request(self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any,
                         newurl: str) -> urllib.request.Request | None:
        problem = None
        if urlsplit(newurl).scheme.lower() not in WEB_SCHEMES:
            problem = (f"the server redirects it to {newurl}, which is not a web address (Earmark follows http and "
                       "https only)")
        elif newurl in self._visited:
            problem = "the server's redirects go round in a loop"
        elif len(self._visited) > MAX_HOPS:
            problem = f"the server redirected it more than {MAX_HOPS} times"
        if problem is not None:
            fp.close()
            raise DownloadError(self._name, problem, retryable=False)
        self._visited.append(newurl)
        return super().redirect_request(req, fp, code, msg, headers, newurl)
