"""`spinner serve`: the companion on a production WSGI server, with its address and a QR code.

The server is cheroot (CherryPy's WSGI server), not Flask's development server, because:
- it is pure Python and runs wherever Spinner does (Linux, macOS, Windows), like waitress;
- unlike waitress it speaks TLS itself, which `--https` needs (phones open the camera only
  over HTTPS), without a proxy in front;
- it writes each chunk of a streaming response at once, which the live board (server-sent
  events) needs, and idle keep-alive connections wait in a selector, not in a thread;
  `webapp.headfirst` makes new connections and half-sent requests wait there too, so a slow or
  hostile client holds no thread until its request head has arrived.
Each open live stream does hold one worker thread while it waits, so the pool is sized for the
streams (`--threads`, default 320: 50 tables x 4 viewers, a camera upload waiting for its reading
at each table, and room for ordinary requests), and
`webapp.live` caps streams below it; past the cap a page falls back to polling.
"""

from __future__ import annotations

import signal
import socket
import sys

import click

from .live import hub

DEFAULT_THREADS = 320
#: Threads kept free of live streams for ordinary requests (pages, events, photos).
SPARE_THREADS = 24


def lan_addresses() -> list[str]:
    """This machine's addresses other phones can reach (read locally: no packet is sent)."""
    found: list[str] = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = str(info[4][0])
            if not address.startswith("127.") and address not in found:
                found.append(address)
    except OSError:
        pass
    return found


def addresses(host: str, port: int, scheme: str) -> list[str]:
    hosts = lan_addresses() if host in ("0.0.0.0", "::", "") else [host]
    if host in ("0.0.0.0", "::", "", "127.0.0.1", "localhost"):
        hosts.append("localhost")
    return [f"{scheme}://{h}:{port}/" for h in hosts]


def print_qr(url: str) -> None:
    import segno

    try:
        segno.make(url, error="l").terminal(compact=True)
    except (UnicodeEncodeError, OSError):  # a terminal that cannot show the block characters
        click.echo("(no QR code: this terminal cannot draw it)")


@click.command()
@click.option(
    "--host",
    default="0.0.0.0",
    show_default=True,
    help="Address to listen on (0.0.0.0: every network, so phones can reach it).",
)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--https",
    "use_https",
    is_flag=True,
    help="Serve HTTPS with a self-signed certificate kept under SPINNER_DATA (phones need it for the camera).",
)
@click.option(
    "--threads",
    default=DEFAULT_THREADS,
    show_default=True,
    type=click.IntRange(8, 4096),
    help="Worker threads (each live page holds one).",
)
@click.option("--no-qr", is_flag=True, help="Do not print the QR code.")
def serve(host: str, port: int, use_https: bool, threads: int, no_qr: bool) -> None:
    """Start the companion page: the database from DATABASE_URL, files under SPINNER_DATA."""
    from . import certs, create_app, frames, headfirst

    # Over HTTPS the session cookie is never sent in the clear.
    try:
        app = create_app({"SSE_MAX_STREAMS": max(1, threads - SPARE_THREADS), "SESSION_COOKIE_SECURE": use_https})
    except ValueError as error:  # a setting the server cannot run with (webapp.config)
        raise click.ClickException(str(error)) from None
    data = app.config["SPINNER_DATA"]
    server = headfirst.Server(
        (host, port), app, numthreads=threads, max=threads, server_name="spinner", request_queue_size=256
    )
    scheme = "http"
    if use_https:
        from cheroot.ssl.builtin import BuiltinSSLAdapter

        hosts = [h for h in lan_addresses()] + ([host] if host not in ("0.0.0.0", "::", "") else [])
        cert, key, made = certs.ensure(data / "tls", hosts)
        server.ssl_adapter = BuiltinSSLAdapter(str(cert), str(key))
        scheme = "https"
        click.echo(f"{'Made' if made else 'Using'} the self-signed certificate {cert}")
        click.echo(f"  SHA-256 {certs.fingerprint(cert)}")
        click.echo("  Each phone asks once whether to trust it: see the README, 'Using the phone's camera'.")
    urls = addresses(host, port, scheme)
    database = app.config["SQLALCHEMY_DATABASE_URI"]
    click.echo(f"Spinner is at the table. Database: {database.split('@')[-1]}; files: {data}")
    for url in urls:
        click.echo(f"  open {url}")
    if urls and not no_qr:
        click.echo("Scan with a phone on the same network:")
        print_qr(urls[0])
    # Photos the last run answered "queued" and never read (it was stopped or killed) are read now.
    # (With SPINNER_READERS=queue they wait in the durable queue for the reader workers.)
    requeued = frames.requeue(app) if app.config["READERS"] != "queue" else []
    if requeued:
        click.echo(f"Reading {len(requeued)} photo(s) the last run left waiting")
    sys.stdout.flush()
    # SIGTERM stops the server as Ctrl-C does (the reader processes end with it either way).
    signal.signal(signal.SIGTERM, _terminate)
    try:
        server.start()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        hub.close()  # live streams end now rather than at their next heartbeat
        server.stop()


def _terminate(signum: int, frame: object) -> None:
    raise SystemExit(0)
