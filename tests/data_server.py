"""A real HTTP server on 127.0.0.1 for the tests of ``calc data update``: the standard
library's ``http.server`` in a thread, on a port the system picks, answering each path with a
route the test sets (a file, a 404, a redirect, a body cut short, a stall ...). Nothing of the
network layer is mocked: the client under test connects to it over TCP.

Each route is a function of the request handler; :func:`file`, :func:`redirect`,
:func:`short`, :func:`no_length`, :func:`stall`, :func:`drip` and :func:`silent` make the usual
ones. Paths not routed are answered 404. ``requests`` lists the paths asked for, in order.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Route = Callable[[BaseHTTPRequestHandler], None]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"  # the connection closes after each answer

    def do_GET(self) -> None:  # http.server's name
        server: DataServer = self.server.owner  # type: ignore[attr-defined]
        server.requests.append(self.path)
        route = server.routes.get(self.path)
        if route is None:
            self.send_error(404, "Not Found")
            return
        # the client may go away (refusing the answer): nothing to do then
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            route(self)

    def log_message(self, format: str, *args: object) -> None:
        pass


class DataServer:
    """The server: ``url`` (``http://127.0.0.1:PORT/``), ``routes`` (path -> route),
    ``requests`` (paths asked for), ``release`` (set to end the stalled routes)."""

    def __init__(self) -> None:
        self.routes: dict[str, Route] = {}
        self.requests: list[str] = []
        self.release = threading.Event()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.httpd.daemon_threads = True
        self.httpd.owner = self  # type: ignore[attr-defined]
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def serve_files(self, files: dict[str, bytes]) -> None:
        """Route ``/NAME`` to each file's bytes."""
        for name, body in files.items():
            self.routes[f"/{name}"] = file(body)


@contextmanager
def data_server() -> Iterator[DataServer]:
    """A running :class:`DataServer`, shut down afterwards."""
    server = DataServer()
    server.thread.start()
    try:
        yield server
    finally:
        server.release.set()
        server.httpd.shutdown()
        server.httpd.server_close()


def _head(h: BaseHTTPRequestHandler, status: int, headers: dict[str, str]) -> None:
    h.send_response(status)
    for key, value in headers.items():
        h.send_header(key, value)
    h.end_headers()


def file(body: bytes) -> Route:
    """200 with the body and its true Content-Length."""

    def route(h: BaseHTTPRequestHandler) -> None:
        _head(h, 200, {"Content-Type": "application/json", "Content-Length": str(len(body))})
        h.wfile.write(body)

    return route


def redirect(to: str, status: int = 302) -> Route:
    """A redirect to the path or address ``to``."""

    def route(h: BaseHTTPRequestHandler) -> None:
        _head(h, status, {"Location": to, "Content-Length": "0"})

    return route


def short(body: bytes, announced: int) -> Route:
    """200 announcing ``announced`` bytes, sending ``body`` (fewer), then closing."""

    def route(h: BaseHTTPRequestHandler) -> None:
        _head(h, 200, {"Content-Length": str(announced)})
        h.wfile.write(body)

    return route


def no_length(size: int, chunk: bytes = b" " * 65536) -> Route:
    """200 without Content-Length: ``size`` bytes of spaces, then the connection closes."""

    def route(h: BaseHTTPRequestHandler) -> None:
        _head(h, 200, {})
        sent = 0
        while sent < size:
            piece = chunk[: size - sent]
            h.wfile.write(piece)
            sent += len(piece)

    return route


def stall(body: bytes, started: threading.Event, release: threading.Event) -> Route:
    """200 with the full Content-Length, half the body, then waiting (``started`` set) until
    ``release`` is set (or 60 s), then closing: a download that hangs half-way."""

    def route(h: BaseHTTPRequestHandler) -> None:
        _head(h, 200, {"Content-Length": str(len(body))})
        h.wfile.write(body[: len(body) // 2])
        h.wfile.flush()
        started.set()
        release.wait(60)

    return route


def drip(body: bytes, every: float) -> Route:
    """200 with the full Content-Length, one byte every ``every`` seconds."""

    def route(h: BaseHTTPRequestHandler) -> None:
        _head(h, 200, {"Content-Length": str(len(body))})
        for i in range(len(body)):
            h.wfile.write(body[i : i + 1])
            h.wfile.flush()
            time.sleep(every)

    return route


def silent(release: threading.Event) -> Route:
    """No answer at all until ``release`` is set (or 60 s)."""

    def route(h: BaseHTTPRequestHandler) -> None:
        release.wait(60)

    return route
