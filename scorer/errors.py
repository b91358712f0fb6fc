"""The one error a record can raise: it names the hand, the event and the rule in plain words."""

from __future__ import annotations

from typing import Any


class RecordError(ValueError):
    """A match record that breaks a rule, or cannot be read.

    `hand` and `event` are 0-based indexes into the record (None where the problem is the
    record as a whole, or a hand as a whole); the message says which rule, in words.

    `code` and `params` say the same for a page to word for players (in their language, with
    names for seats and numbers from 1): the command line keeps `message`, the page's words are
    webapp/wording.py. Seats, sides and event indexes in `params` are 0-based like the record's.
    `code` is "record" where nothing more precise is given (the page then shows `message`).
    """

    def __init__(
        self, message: str, hand: int | None = None, event: int | None = None, *, code: str = "record", **params: object
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hand = hand
        self.event = event
        self.code = code
        self.params = params

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled (a process pool sends errors back so) with all it says, not only its message
        return _restore, (self.message, self.hand, self.event, self.code, self.params)

    def at(self, hand: int | None = None, event: int | None = None) -> RecordError:
        """The same error, placed in the record (only fills in what is not known yet)."""
        return RecordError(
            self.message,
            self.hand if self.hand is not None else hand,
            self.event if self.event is not None else event,
            code=self.code,
            **self.params,
        )

    def where(self) -> str:
        parts = []
        if self.hand is not None:
            parts.append(f"hand {self.hand}")
        if self.event is not None:
            parts.append(f"event {self.event}")
        return ", ".join(parts)

    def __str__(self) -> str:
        where = self.where()
        return f"{where}: {self.message}" if where else self.message

    def to_dict(self, coded: bool = False) -> dict[str, object]:
        """The error as JSON: the command line's fields, and with `coded` the code and its params."""
        out: dict[str, object] = {"error": self.message, "hand": self.hand, "event": self.event}
        if coded:
            out.update(code=self.code, params=self.params)
        return out


def _restore(message: str, hand: int | None, event: int | None, code: str, params: dict[str, Any]) -> RecordError:
    return RecordError(message, hand, event, code=code, **params)
