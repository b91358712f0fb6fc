"""Tournament night (issue 6): the club's partners tournament of seed 001, run from the companion.

The rules are the scorer's (`scorer.tournament`: registration, pairing, results, corrections,
standings, the bell); this package keeps a tournament in the database (`models`, migration
0002), changes it one checked step at a time and ties each table to an ordinary companion match
(`service`), brings in the tables' results by themselves or by the director's hand (`results`,
reading each match with `calls`), and shows it all (`view`): the director's page, the table
cards and the standings board (`pages`), the JSON API (`api`), one file to export and import
(`transfer`), and on each table's own match page its round, clock and bell (`table`). The
director's link and the table links derived from it are in `access`.
"""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    from .. import store
    from . import api, models, pages  # noqa: F401  (models: the tables)
    from .table import hold_result, is_table

    if not any(guard.check is hold_result for guard in store.GUARDS):  # one app after another in the tests
        store.GUARDS.append(store.Guard(hold_result, concerns=is_table()))

    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
