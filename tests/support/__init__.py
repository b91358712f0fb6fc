"""Builders shared by the tests, imported by absolute import (`from tests.support.records import play`).

Fixtures are not here: they live in `tests/conftest.py`, where pytest finds them by name.
"""
