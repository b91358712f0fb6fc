"""`spinner reader-worker`: read the camera's photos from the queue in PostgreSQL (docs/deploy.md).

Run it beside web processes started with SPINNER_READERS=queue, with the same DATABASE_URL and
SPINNER_PHOTO_DIR (the folder of kept photos, shared with them), on this machine or another one.
SIGTERM or Ctrl-C stops it once the frame it is reading is settled; killed outright, the frame it
was reading goes back to the queue for another worker.
"""

from __future__ import annotations

import signal
import sys

import click


@click.command()
def reader_worker() -> None:
    """Read the photos the web processes queue (SPINNER_READERS=queue), one at a time."""
    from sqlalchemy import inspect

    from .. import create_app, fanout
    from ..db import db
    from .worker import Worker

    try:
        app = create_app(migrate=False)  # the web processes migrate the schema
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if not fanout.is_postgresql(url):
        raise click.ClickException(
            "the read queue is in PostgreSQL: set DATABASE_URL=postgresql://... to the web processes' database"
        )
    with app.app_context():
        if not inspect(db.engine).has_table("read_jobs"):
            raise click.ClickException(
                "this database has no read queue yet: start `spinner serve` on it once first (it migrates the schema)"
            )
    worker = Worker(app)
    worker.start()
    worker.listener.listening.wait(30)
    click.echo(
        f"Reading photos from the queue. Database: {url.split('@')[-1]}; photos: {app.config['SPINNER_PHOTOS']}; "
        f"models: {app.config['SPINNER_MODELS']}"
    )
    sys.stdout.flush()

    def stop(signum: int, frame: object) -> None:
        worker.stopping.set()
        worker.wake.set()

    signal.signal(signal.SIGTERM, stop)
    try:
        worker.run()
    except KeyboardInterrupt:
        pass
    finally:
        worker.stop()
        worker.close()
