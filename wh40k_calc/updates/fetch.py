"""One file over HTTP(S), written to a local file: capped, timed and with few redirects.

The client is the standard library's ``urllib.request``: ``calc data update`` makes a few dozen
plain GET requests for static files, which needs no connection pool, HTTP/2 or retries, and a
library would add its packages to every install for one rarely run command. It gives what the
update needs: TLS verified against the system's certificates (``SSL_CERT_FILE`` and
``SSL_CERT_DIR`` are honoured), proxies from the environment (``https_proxy``, ``http_proxy``,
``no_proxy``), a timeout on connecting and on every read (:data:`TIMEOUT`), and redirects
limited here (:data:`MAX_REDIRECTS`; a loop ends at its first repeat; only to http and https
addresses). What it lacks is added here: a deadline for the whole file (:data:`DEADLINE`: a
server sending a byte every few seconds never trips the read timeout), a size cap checked
against ``Content-Length`` before reading and against the bytes received while reading, and a
check that the body is as long as ``Content-Length`` said (``urllib`` returns a short body
without a word). Only ``calc data update`` imports this module (``urllib.request`` takes some
30 ms to import, TLS included).

Every failure is a :class:`FetchError` with a one-line message naming the address; an error
writing the local file (a full disk) is an ``OSError`` as it comes, for the caller to name.
"""

from __future__ import annotations

import http.client
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from .. import __version__
from . import UpdateError

TIMEOUT = 30.0  # seconds to connect, and without a byte while reading
DEADLINE = 300.0  # seconds for one whole file
MAX_REDIRECTS = 5
CHUNK = 64 * 1024
USER_AGENT = f"wh40k-calc/{__version__} (calc data update)"


class FetchError(UpdateError):
    """A download that failed: no network, an HTTP error, too many redirects, a body cut
    short or over the cap, too slow. The message is one line naming the address."""


class _Redirects(urllib.request.HTTPRedirectHandler):
    """urllib's redirect handling, with at most :data:`MAX_REDIRECTS` redirects, none to an
    address visited before, and only to http and https addresses."""

    max_redirections = MAX_REDIRECTS
    max_repeats = 1

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        scheme = urlsplit(newurl).scheme.lower()
        if scheme not in ("http", "https"):
            raise FetchError(f"{req.full_url}: redirected to a {scheme or 'relative'} address")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


@lru_cache(maxsize=1)
def _opener() -> urllib.request.OpenerDirector:
    """urllib's default opener (proxies from the environment, TLS verified) with
    :class:`_Redirects` instead of its redirect handler."""
    return urllib.request.build_opener(_Redirects)


def _where(url: str) -> str:
    """The host (and port) of an address, for messages."""
    return urlsplit(url).netloc or url


def _network_message(url: str, exc: BaseException, timeout: float) -> str:
    """One line for a request that got no answer (refused, unknown host, TLS, timeout)."""
    reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
    if isinstance(reason, TimeoutError):
        return f"no answer from {_where(url)} within {timeout:g} s ({url})"
    text = getattr(reason, "strerror", None) or str(reason) or type(reason).__name__
    return f"cannot reach {_where(url)} ({text}; {url})"


def _length(response: http.client.HTTPResponse) -> int | None:
    """The ``Content-Length`` a response announces (None: none, or not a number)."""
    value = (response.headers.get("Content-Length") or "").strip()
    return int(value) if value.isdigit() else None


def fetch(
    url: str,
    dest: Path,
    cap: int,
    on_bytes: Callable[[int, int | None], None] | None = None,
    missing_ok: bool = False,
    timeout: float | None = None,
    deadline: float | None = None,
) -> bool:
    """Download ``url`` into the file ``dest`` (created only once the server answers 200).

    Args:
        url: an http or https address.
        dest: the local file to write (replaced).
        cap: the most bytes the file may have; a larger one is refused (before reading when
            the server announces its length).
        on_bytes: called as ``(bytes so far, bytes announced or None)`` after each chunk read
            (the progress bar; an exception it raises, ``KeyboardInterrupt`` included, ends
            the download).
        missing_ok: a 404 answer returns False instead of failing.
        timeout: seconds to connect, and without a byte while reading (None:
            :data:`TIMEOUT`).
        deadline: seconds for the whole file (None: :data:`DEADLINE`).

    Returns:
        True when the file was written; False for a 404 with ``missing_ok``.

    Raises:
        FetchError: no answer, an HTTP error, a redirect loop or too many redirects, a body
            over the cap, shorter than announced or broken off, slower than ``deadline``.
        OSError: writing ``dest`` failed (a full disk, a read-only folder).
    """
    timeout = TIMEOUT if timeout is None else timeout
    deadline = DEADLINE if deadline is None else deadline
    request = urllib.request.Request(
        url, headers={"User-Agent": USER_AGENT, "Accept-Encoding": "identity"}
    )
    start = time.monotonic()
    try:
        response = _opener().open(request, timeout=timeout)
    except urllib.error.HTTPError as exc:
        exc.close()
        if exc.code == 404 and missing_ok:
            return False
        if 300 <= exc.code < 400:
            raise FetchError(
                f"{url}: a redirect loop or too many redirects (more than {MAX_REDIRECTS})"
            ) from None
        raise FetchError(f"{url}: {exc.code} {exc.reason}") from None
    except (OSError, http.client.HTTPException, ValueError) as exc:  # URLError is an OSError
        raise FetchError(_network_message(url, exc, timeout)) from None
    with response:
        if response.status != 200:
            raise FetchError(f"{url}: {response.status} {response.reason}, not the file")
        expected = _length(response)
        if expected is not None and expected > cap:
            raise FetchError(
                f"{url}: {expected:,} bytes, larger than a faction file can be "
                f"({cap:,}); not downloaded"
            )
        got = 0
        with dest.open("wb") as out:
            while True:
                try:
                    chunk = response.read1(CHUNK)  # what has come, not a full chunk
                except TimeoutError:
                    raise FetchError(
                        f"{url}: no data for {timeout:g} s after {got:,} bytes; stopped"
                    ) from None
                except (OSError, http.client.HTTPException) as exc:
                    raise FetchError(
                        f"{url}: the server broke off the download after {got:,} bytes "
                        f"({type(exc).__name__})"
                    ) from None
                if not chunk:
                    break
                got += len(chunk)
                if got > cap:
                    raise FetchError(
                        f"{url}: more than {cap:,} bytes, larger than a faction file can be; "
                        "stopped"
                    )
                out.write(chunk)
                if on_bytes is not None:
                    on_bytes(got, expected)
                if time.monotonic() - start > deadline:
                    raise FetchError(f"{url}: not downloaded within {deadline:g} s; stopped")
    if expected is not None and got < expected:
        raise FetchError(f"{url}: the download was cut short ({got:,} of {expected:,} bytes)")
    return True
