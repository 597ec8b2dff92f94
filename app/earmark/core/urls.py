"""Web addresses: their origin (what a password belongs to), and the credentials some carry inside them."""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import quote, quote_plus, unquote, urlsplit, urlunsplit

from earmark.core.records import record

WEB_SCHEMES = ("http", "https")
_USERINFO = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@")  # up to the authority's last "@"
_DEFAULT_PORTS = {"http": 80, "https": 443}
_DEFAULT_PORT_SUFFIXES = (":80", ":443")


@record(frozen=True)
class Userinfo:
    """An address without its ``user:password@`` part, and that part (None when it had none)."""

    url: str
    user: str | None = None
    password: str | None = None


def split_userinfo(url: str) -> Userinfo:
    """``http://alice:pw@host/feed`` → ``http://host/feed`` with user ``alice`` and password ``pw`` (decoded).
    Addresses that cannot be parsed, or carry no user, come back as they are."""
    try:
        parts = urlsplit(url)
        user = parts.username
    except ValueError:
        return Userinfo(url)
    if user is None and "@" not in parts.netloc:
        return Userinfo(url)
    host = parts.netloc.rpartition("@")[2]
    return Userinfo(urlunsplit(parts._replace(netloc=host)), unquote(user or ""), unquote(parts.password or ""))


def shown_address(url: str) -> str:
    """``url`` as shown to the user, in sentences or logs: without a ``user:password@`` part, even when the rest
    cannot be parsed."""
    return _USERINFO.sub(r"\1", url, count=1)


def origin(url: str) -> str:
    """``scheme://host:port`` of a web address, port filled in: a password is given to one origin only (a
    move to another host, another port or from https to http is another origin). "" when it has none."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return ""
    scheme = parts.scheme.lower()
    if scheme not in WEB_SCHEMES or not parts.hostname:
        return ""
    return f"{scheme}://{parts.hostname.lower()}:{port or _DEFAULT_PORTS[scheme]}"


def is_web_address(url: str | None) -> bool:
    """Whether ``url`` is an http(s) address with a host."""
    return bool(url) and origin(url or "") != ""


def comparable(url: str) -> str:
    """The form under which two spellings of one feed or episode address compare equal, as gpodder.net
    normalises them: lower-case scheme and host, no credentials, an empty path as ``/``, path and query
    quoted the same way, ``feed:``/``itpc:`` as http."""
    url = url.strip()
    try:
        scheme, netloc, path, query, fragment = urlsplit(url)
    except ValueError:
        return url
    scheme = scheme.lower()
    if scheme in ("feed", "itpc", "itms"):
        scheme = "http"
    netloc = netloc.rpartition("@")[2].lower()
    path = quote(unquote(path), "/%:@!$&'()*+,;=~") or "/"
    query = quote_plus(unquote(query), ":&=/?")
    return urlunsplit((scheme, netloc, path, query, fragment))


@lru_cache(maxsize=8192)  # every subscription's address is keyed at each look-up: each is worked out once
def address_key(url: str) -> str:
    """The form under which two addresses of one feed compare equal (core/feeds/identity.py): ``comparable``'s,
    without scheme, a leading ``www.``, a default port or a trailing slash. A local file's address stays as it is."""
    url = comparable(url)
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    if parts.scheme not in WEB_SCHEMES:
        return url
    host = parts.netloc.removeprefix("www.")
    for port in _DEFAULT_PORT_SUFFIXES:
        host = host.removesuffix(port)
    query = f"?{parts.query}" if parts.query else ""
    return f"{host}{parts.path.rstrip('/')}{query}"
