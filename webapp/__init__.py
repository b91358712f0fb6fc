"""The companion page: a phone-friendly Flask app for the table (issue 5).

`create_app()` is the app factory (Flask tutorial style): configuration from the environment
(`webapp.config`), the database and its migrations (`webapp.db`, applied at start), and two
blueprints, `api` (the JSON API the page itself uses) and `pages` (the HTML for phones).
`spinner serve` runs it on a production WSGI server (`webapp.serve`).
"""

from __future__ import annotations

from typing import Any

from flask import Flask


def create_app(overrides: dict[str, Any] | None = None, *, migrate: bool = True) -> Flask:
    from . import api, config, db, errors, fanout, frames_api, models, openapi, pages, security, validate  # noqa: F401  (models: the tables)

    app = Flask(__name__)
    app.config.from_mapping(config.load(overrides))
    # Before any blueprint: their routes are compiled with the converters there are then.
    app.url_map.converters["int"] = validate.BoundedInt
    db.init_app(app)
    if migrate:
        db.upgrade(app)
    errors.init_app(app)
    security.init_app(app)
    openapi.init_app(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(frames_api.bp)
    app.register_blueprint(pages.bp)
    from . import tournament  # tournament night (issue 6): /t and /api/tournaments

    tournament.init_app(app)
    # other processes' changes reach this one's streams (PostgreSQL only; see webapp.fanout)
    app.extensions["spinner.listener"] = fanout.listen(app.config["SQLALCHEMY_DATABASE_URI"])
    return app
