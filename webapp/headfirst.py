"""Cheroot's connection manager, giving a worker thread only to a request that has fully arrived.

Cheroot hands each new connection to a worker thread at once, and that thread then waits on the
socket for the request line and headers (up to `timeout` between two packets). A client that
opens a connection and sends half a request, or nothing, holds a thread doing nothing: a few
hundred of them and a scorer's change waits for a free thread for seconds.

Here a connection waits in the selector (one thread for all of them) until the head of its
request, up to the blank line, has arrived: its bytes are read as they come without blocking
and kept, then handed with the connection to a worker, which reads them first. A head that is
not complete within the server's `timeout` of the connection's arrival (or of its last request,
kept alive) is dropped. The body of a request, once its head has come, is read by the worker as
before; the live streams each hold a worker too, and are capped below the pool (`webapp.live`).
"""

from __future__ import annotations

import io
import selectors
import socket
import ssl
import time
from collections.abc import Callable, Iterator
from typing import Any, cast

from cheroot import connections, makefile, wsgi

#: A request head larger than this is handed to the worker as it is (which refuses it: 431/414).
MAX_HEAD = 64 * 1024
_END = b"\r\n\r\n"


class _Prefixed(io.RawIOBase):
    """A socket's bytes, after those the selector already read."""

    def __init__(self, head: bytes, sock: socket.socket) -> None:
        self.head = memoryview(head)
        self.raw = socket.SocketIO(sock, "rb")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int | None:
        if self.head:
            n = min(len(buffer), len(self.head))
            buffer[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        return self.raw.readinto(buffer)

    def close(self) -> None:
        self.raw.close()
        super().close()


class _Reader(makefile.StreamReader):
    def __init__(self, head: bytes, sock: socket.socket, bufsize: int) -> None:
        super(makefile.StreamReader, self).__init__(_Prefixed(head, sock), bufsize)  # skip its own socket
        self.bytes_read = 0


class HeadFirst(connections.ConnectionManager):
    """`ConnectionManager` that dispatches a connection only once its request head is in."""

    # Cheroot's private parts used here, which its stubs leave out (set by its `__init__`).
    _selector: connections._ThreadsafeSelector
    _stop_requested: bool
    _remove_invalid_sockets: Callable[[], None]
    _from_server_socket: Callable[[Any], Any]

    def __init__(self, server: Any) -> None:
        super().__init__(server)
        self._heads: dict[Any, bytearray] = {}

    def _wait(self, conn: Any) -> None:
        conn.last_used = time.time()
        self._selector.register(conn.socket.fileno(), selectors.EVENT_READ, data=conn)

    def put(self, conn: Any) -> None:
        """A connection kept alive after a request: its next request's head is awaited here too."""
        if conn.rfile.has_data():  # a pipelined request is in already
            conn.last_used = time.time()
            self.server.process_conn(conn)
        else:
            self._wait(conn)

    def _drop(self, fd: int, conn: Any) -> None:
        self._selector.unregister(fd)
        self._heads.pop(conn, None)
        conn.close()

    def _arrived(self, fd: int, conn: Any) -> bool:
        """Read what the connection has sent; whether its request head is complete."""
        head = self._heads.setdefault(conn, bytearray())
        sock = conn.socket
        try:
            sock.setblocking(False)
            chunk = sock.recv(MAX_HEAD)
        except (BlockingIOError, ssl.SSLWantReadError, ssl.SSLWantWriteError, InterruptedError):
            return False
        except OSError:
            chunk = b""
        finally:
            try:
                sock.settimeout(self.server.timeout)
            except OSError:
                pass
        if not chunk:  # closed by the client before its request was in
            self._drop(fd, conn)
            return False
        head += chunk
        # A TLS record may hold more than recv handed back: take what is pending as well.
        while isinstance(sock, ssl.SSLSocket) and sock.pending() and len(head) <= MAX_HEAD:
            head += sock.recv(sock.pending())
        if _END not in head and len(head) <= MAX_HEAD and not head.startswith(b"\r\n"):
            return False
        self._heads.pop(conn, None)
        conn.rfile = _Reader(bytes(head), sock, conn.rbufsize)
        return True

    def _expire(self, threshold: float) -> None:
        # Cheroot's stubs type `connections` as None; it yields (fd, connection) pairs.
        registered = cast(Iterator[tuple[int, Any]], self._selector.connections)
        for fd, conn in [
            (fd, conn) for fd, conn in registered if conn is not self.server and conn.last_used < threshold
        ]:
            self._drop(fd, conn)

    def _run(self, expiration_interval: float) -> None:
        last_expiration_check = time.time()
        select_timeout = min(expiration_interval, 0.05) if connections.IS_WINDOWS else expiration_interval
        while not self._stop_requested:
            try:
                active = self._selector.select(timeout=select_timeout)
            except OSError:
                self._remove_invalid_sockets()
                continue
            for fd, conn in active:
                if conn is self.server:
                    new = self._from_server_socket(self.server.socket)
                    if new is not None:
                        self._wait(new)
                elif self._arrived(fd, conn):
                    self._selector.unregister(fd)
                    self.server.process_conn(conn)
            now = time.time()
            if now - last_expiration_check > expiration_interval:
                self._expire(threshold=now - self.server.timeout)
                last_expiration_check = now


class Server(wsgi.Server):
    """Cheroot's WSGI server with `HeadFirst` managing its connections."""

    _connections: connections.ConnectionManager  # private in cheroot, left out of its stubs

    def prepare(self) -> None:
        super().prepare()
        if self.ready:
            old, self._connections = self._connections, HeadFirst(self)
            old._selector.close()  # type: ignore[attr-defined]  # private, left out of cheroot's stubs
