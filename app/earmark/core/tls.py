"""One TLS context for every request Earmark makes. urllib gives each https connection a context of its own, and
making one reads the system's certificate store (~65 ms of CPU with OpenSSL 3): a refresh of 300 feeds spent
20 s of CPU on it, beside the window."""

from __future__ import annotations

import functools
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ssl
    from urllib.request import HTTPSHandler


_MAKING = threading.Lock()  # a refresh's fetch threads all ask for it at once: one makes it, the others wait


def tls_context() -> ssl.SSLContext:
    """The context every https request shares, made at the first (contexts are safe to share between threads)."""
    with _MAKING:
        return _shared()


@functools.cache
def _shared() -> ssl.SSLContext:
    """A context as http.client makes its own: the system's certificates, HTTP/1.1 offered, post-handshake
    authentication allowed."""
    import ssl  # deferred: the window's start-up makes no request

    context = ssl.create_default_context()
    context.set_alpn_protocols(["http/1.1"])
    if context.post_handshake_auth is not None:
        context.post_handshake_auth = True
    return context


def https_handler() -> HTTPSHandler:
    """urllib's https handler using the shared context (given to ``build_opener``, it replaces its own)."""
    from urllib.request import HTTPSHandler

    return HTTPSHandler(context=tls_context())
