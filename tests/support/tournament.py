"""Tournament night: a clock the test moves, the director seen through the API, and tables whose
matches are played from simulated records (scorer.simulate)."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from scorer import score_record
from scorer.simulate import observe, simulate_match

TEAMS = [
    ("Los Primos", ("Ana", "Beto")),
    ("Doble Seis", ("Carla", "Dario")),
    ("Capicúa", ("Elena", "Fito")),
    ("La Tranca", ("Gina", "Hugo")),
    ("Chucho", ("Iris", "Juan")),
    ("Zapatero", ("Kiko", "Lola")),
    ("El Tranque", ("Mona", "Nico")),
    ("Pollona", ("Olga", "Pepe")),
]


class Clock:
    """The tournament's clock (`TOURNAMENT_CLOCK`), moved by the test; matches keep real time."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **amount: float) -> None:
        self.now += timedelta(**amount)


class Director:
    """One tournament seen through the API, with the director's token at hand."""

    def __init__(self, client: Any, created: dict[str, Any]) -> None:
        self.client = client
        self.id = created["id"]
        self.token = created["token"]
        self.links = created["links"]

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def url(self, path: str = "") -> str:
        return f"/api/tournaments/{self.id}{path}"

    def post(self, path: str, json: Any = None, **kwargs: Any):
        return self.client.post(self.url(path), json=json if json is not None else {}, headers=self.auth, **kwargs)

    def put(self, path: str, json: Any = None, **kwargs: Any):
        return self.client.put(self.url(path), json=json, headers=self.auth, **kwargs)

    def view(self) -> dict[str, Any]:
        response = self.client.get(self.url(), headers=self.auth)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def register_all(self, teams=TEAMS) -> None:
        for name, players in teams:
            response = self.post("/teams", {"name": name, "players": list(players)})
            assert response.status_code == 201, response.get_json()

    def tables(self) -> list[dict[str, Any]]:
        return self.view()["rounds"][-1]["tables"]

    def result(self, number: int, table: int, **fields: Any):
        return self.post(f"/rounds/{number}/tables/{table}/result", fields)


def key_of(link: str) -> str:
    return re.search(r"key=([^&]+)", link).group(1)


# -- playing a table's match ------------------------------------------------------------------


def simulated(seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """An observed `partners-block` match to 100 (what a table writes down) and its answer."""
    record = observe(simulate_match("partners-block", 4, seed), random.Random(seed))
    return record, score_record(record)


def write_hands(game_id: str, hands: list[dict[str, Any]]) -> None:
    """Many events at once through the match store's own checked change (one replay, not one per event).

    The first hand continues the match's last hand; each later one starts a new hand. Used to
    bring a table near its end quickly; the last events go through the API like the pad's.
    """
    from webapp import store
    from webapp.models import EventRow, HandRow

    def plan(game, snap):  # type: ignore[no-untyped-def]
        record = store._copy(snap.record)
        first = len(record["hands"]) - 1
        start = len(record["hands"][first]["events"])
        record["hands"][first]["events"].extend(hands[0]["events"])
        for hand in hands[1:]:
            record["hands"].append(
                {**({"leader": hand["leader"]} if "leader" in hand else {}), "events": list(hand["events"])}
            )

        def write(version: int) -> None:
            for i, event in enumerate(hands[0]["events"]):
                store.db.session.add(
                    EventRow(game_id=game.id, hand=first, position=start + i, body=event, created_version=version)
                )
            for n, hand in enumerate(hands[1:], first + 1):
                store.db.session.add(
                    HandRow(game_id=game.id, number=n, leader=hand.get("leader"), deal=None, created_version=version)
                )
                for i, event in enumerate(hand["events"]):
                    store.db.session.add(
                        EventRow(game_id=game.id, hand=n, position=i, body=event, created_version=version)
                    )

        return store.Plan(record, write, "event", "", after={"events": sum(len(h["events"]) for h in hands)})

    store._change(game_id, None, plan, who="test", why="simulated", source="api")


class TablePhone:
    """The phone at one table: the match's scorer link, as the director's page hands it out."""

    def __init__(self, app: Any, client: Any, table: dict[str, Any]) -> None:
        self.app = app
        self.client = client
        self.game_id = table["game_id"]
        self.token = key_of(table["scorer_link"])

    def event(self, event: dict[str, Any]):
        response = self.client.post(
            f"/api/games/{self.game_id}/events", json=event, headers={"Authorization": f"Bearer {self.token}"}
        )
        assert response.status_code == 201, response.get_json()
        return response

    def new_hand(self, leader: int | None):
        response = self.client.post(
            f"/api/games/{self.game_id}/hands",
            json={"leader": leader},
            headers={"Authorization": f"Bearer {self.token}"},
        )
        assert response.status_code == 201, response.get_json()

    def play(
        self, record: dict[str, Any], hands: int | None = None, events: int | None = None, api_tail: int = 2
    ) -> None:
        """Play the record's first `hands` hands (all) and `events` events of the next one.

        All but the last `api_tail` events are written at once; those go through the API.
        """
        chosen = [dict(h) for h in record["hands"][:hands]]
        if events is not None:
            extra = record["hands"][len(chosen)]
            chosen.append({**extra, "events": extra["events"][:events]})
        tail: list[dict[str, Any]] = []
        while chosen and len(tail) < api_tail and chosen[-1]["events"]:
            tail.insert(0, chosen[-1]["events"][-1])
            chosen[-1] = {**chosen[-1], "events": chosen[-1]["events"][:-1]}
        with self.app.app_context():
            write_hands(self.game_id, chosen)
        for event in tail:
            self.event(event)

    def finish(self, record: dict[str, Any], hand: int, start: int) -> None:
        """The rest of the record through the API: hand `hand` from event `start`, then later hands."""
        for event in record["hands"][hand]["events"][start:]:
            self.event(event)


def started(director: Director, teams=TEAMS) -> dict:
    """The teams registered (registration closed where fewer than 8) and round 1 drawn."""
    director.register_all(teams)
    if len(teams) < 8:
        assert director.post("/close").status_code == 200
    response = director.post("/rounds", {"seed": 1})
    assert response.status_code == 201, response.get_json()
    return response.get_json()
