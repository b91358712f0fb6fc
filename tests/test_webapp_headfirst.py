"""`webapp.headfirst`: a connection gets a worker thread only once its request head is in (issue 37)."""

from __future__ import annotations

import http.client
import socket
import threading

import pytest

from webapp.headfirst import Server


def echo(environ, start_response):  # type: ignore[no-untyped-def]
    body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [environ["PATH_INFO"].encode() + b" " + body]


@pytest.fixture
def server():
    # Two threads, and a long socket timeout: a thread given to a silent client would stay taken.
    running = Server(("127.0.0.1", 0), echo, numthreads=2, max=2, timeout=120)
    running.prepare()
    thread = threading.Thread(target=running.serve, daemon=True)
    thread.start()
    yield running
    running.stop()


def get(server, path: str, body: bytes | None = None) -> bytes:
    connection = http.client.HTTPConnection("127.0.0.1", server.bind_addr[1], timeout=30)
    connection.request("POST" if body is not None else "GET", path, body=body)
    answer = connection.getresponse().read()
    connection.close()
    return answer


def test_silent_and_half_sent_connections_hold_no_thread(server):
    held = []
    for i in range(40):
        sock = socket.create_connection(("127.0.0.1", server.bind_addr[1]))
        if i % 2:
            sock.sendall(b"POST /slow HTTP/1.1\r\nHost: x\r\nContent-")
        held.append(sock)
    try:
        assert get(server, "/scorer", b"6-6") == b"/scorer 6-6"
        assert get(server, "/again") == b"/again "
    finally:
        for sock in held:
            sock.close()


def test_a_head_sent_in_pieces_is_answered_whole(server):
    sock = socket.create_connection(("127.0.0.1", server.bind_addr[1]))
    sock.settimeout(30)
    for piece in (b"POST /pie", b"ces HTTP/1.1\r\nHost: x\r\nContent-Le", b"ngth: 5\r\n", b"\r\nhe", b"llo"):
        sock.sendall(piece)
    assert b"\r\n/pieces hello\r\n" in answer_of(sock)
    sock.sendall(b"GET /second HTTP/1.1\r\nHost: x\r\n\r\n")  # the same connection, kept alive
    assert b"\r\n/second \r\n" in answer_of(sock)
    sock.close()


def answer_of(sock: socket.socket) -> bytes:
    answer = b""
    while not answer.endswith(b"\r\n0\r\n\r\n"):  # the end of a chunked answer
        chunk = sock.recv(4096)
        assert chunk, answer
        answer += chunk
    return answer


def test_a_large_body_still_arrives_whole(server):
    body = bytes(range(256)) * 4096  # 1 MB
    assert get(server, "/big", body) == b"/big " + body
