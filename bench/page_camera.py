"""How well the companion page's live camera keeps the score of a filmed game, with the bundled models.

    .venv/bin/python bench/page_camera.py [--videos 20] [--seed 0] [--every 2 | --irregular N] [--dealt VARIANT]
        [--photos] [--seating] [--size 1280x960] [--moved P --nudge P --takeback P --objects P] [--json]

Each synthetic game video (`vision.synth.video`, 1280x960, six still frames between moves, arms
reaching in, light drift, shake) goes through the app as the page's live camera sends it: every
`--every`-th frame (the page sends a frame a second; a still table lasts `6 / every` of them) is
posted as a JPEG to `POST /api/games/ID/frames?source=camera`, with the page's two small captures
(the frame before and this one: alike, the table was still), and read by the server's reader (the
ONNX models, in this process). `--every 7` is a slow reader: no still table is sent twice.
`--irregular N`: a busy server instead, the gap to the next frame sent drawn anew each time (1 to
5 frames, seeded by N and the film), so a still table may be sent once, the frame before it being
the arm itself.
`--dealt VARIANT`: dealt films, with the passes a real deal makes (`game_video(dealt=...)`); in the
variants that draw (`draw`, `all-fives`) with its draws too, the boneyard in view: the page's hand
keeps its tile counts open (`unseen_draws`), and the truth's draws are unseen ones (`as_seen`).
With `--photos` the counts stay closed (photos leave them as the pad keeps them) and this player
taps no Draw: a play after an unseen draw is missed, a limit of the bench, not of the page.
`--seating`: the film's seating saved first, as the page's "Where each player sits" saves it
(`PUT /api/games/ID/seating`, each seat's side of the picture), so that an arm names its player
from the first play (dealt films). `--size`: the films' frame size (a phone's camera gives about
1280 wide, the size the page asks for; Chromium's fake camera gives the film's own).
`--moved`, `--nudge`, `--takeback`, `--objects`: what else happens at a real table, each the chance
of its happening where it may (`vision.synth.happen`; off, the films are as before).
`--photos`: a player's photos instead (the last still frame of each state of the table, sent as
"Take photo" sends it): no arm in view, so who laid a tile comes from the rules or a question. A
question the camera asks is answered as a player at the table would: "yes" when it proposes the
true next play with its end, or, asked who played it, a tap on the true seat (`asked_seat`), or,
asked which of several new tiles came first (`plays`), a tap on the true next play (one naming
no seat, then a tap on the seat that laid it), the photo's next question answered the same way; otherwise "no", and the player scores the true play on the
pad (`padded`). Figures over all videos:

- right: plays recorded as the true record has them, before the first difference;
- wrong: plays recorded after that, each a **wrong seat** (the true tile of its place recorded for
  another seat: a pass or a draw unseen) or a **wrong tile**; **missed**: true plays never recorded;
- asked: questions the camera asked (each a tap on the phone), of which `confirmed` were right;
- asked_run: questions for plays kept with their seat open (no arm said who laid them: "did anyone
  pass from 4-5 on?"), answered with the true seats of the `kept` plays, one question for them all;
- padded: plays a player scored on the pad after turning a question down;
- draws (the games that draw): draws recorded, of the truth's, and **draws wrong**: recorded where
  the truth has none (by that seat, between the same two plays); a draw not seen is not recorded
  (the hand's counts stay open and the scorer infers it);
- scores equal: videos whose recorded plays, counts, points and totals equal the truth's.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorer.match import score_record  # noqa: E402
from vision.evaluate.games import as_seen  # noqa: E402
from vision.follow.seats import SIDES  # noqa: E402
from vision.synth.video import game_video  # noqa: E402


def plays_of(answer: dict) -> list[tuple]:
    return [
        (p["seat"], "-".join(sorted(p["tile"].split("-"))), p["count"], p["points"])
        for p in answer["hands"][0]["plays"]
    ]


def pad_next(client, base: str, auth: dict, events: list[dict], truth: list[tuple]) -> int:
    """The player scores the true next play on the pad, when the record so far is the truth's: its
    end as the truth names it, or the mirror image's (the app's layout may have west and east, or
    north and south, the other way round). 1 when it was scored."""
    done = plays_of(client.get(f"{base}/score").get_json())
    if len(done) >= len(truth) or done != truth[: len(done)]:
        return 0
    event = dict(events[len(done)])
    mirror = {"west": "east", "east": "west", "north": "south", "south": "north"}
    for end in [event["end"], mirror[event["end"]]] if "end" in event else [None]:
        if end is not None:
            event["end"] = end
        if client.post(f"{base}/events", json={**event, "why": "bench: the pad"}, headers=auth).status_code != 201:
            continue
        if plays_of(client.get(f"{base}/score").get_json()) == truth[: len(done) + 1]:
            return 1
        client.post(f"{base}/undo", json={"why": "bench: wrong end"}, headers=auth)
    return 0


def answer_run(client, base: str, auth: dict, frame: dict, truth: list[tuple]) -> tuple[int, dict]:
    """ "Did anyone pass from 4-5 on?", answered as a player would: each kept play laid after a pass
    (its true seat is not the seat after the one before) named with its true seat; "no" where the
    kept tiles are not the true next ones (the pad scores them then). How many plays it recorded,
    and the frame answered (a photo that asked before it was looked at is looked at then)."""
    plays = frame["proposal"]["params"]["plays"]
    done = plays_of(client.get(f"{base}/score").get_json())
    players = len(client.get(f"{base}/record").get_json()["players"])
    start = len(done)
    tiles = ["-".join(sorted(p["tile"].split("-"))) for p in plays]
    if done != truth[:start] or tiles != [t[1] for t in truth[start : start + len(plays)]]:
        done = client.post(
            f"{base}/frames/{frame['id']}/reject", json={"why": "bench: not the true plays"}, headers=auth
        )
        return 0, done.get_json()
    passes, expected = [], plays[0]["seat"]
    for i in range(len(plays)):
        seat = truth[start + i][0]
        if seat != expected:
            passes.append([i, seat])
        expected = (seat + 1) % players
    response = client.post(f"{base}/frames/{frame['id']}/accept", json={"passes": passes}, headers=auth)
    return (len(plays) if response.status_code == 200 else 0), response.get_json()


def draws_between(events: list[dict]) -> dict[tuple[int, int], int]:
    """Tiles drawn by each seat after each number of plays: {(plays before, seat): tiles}."""
    out: dict[tuple[int, int], int] = {}
    plays = 0
    for event in events:
        if event["type"] == "play":
            plays += 1
        elif event["type"] == "draw":
            key = (plays, event["seat"])
            out[key] = out.get(key, 0) + int(event.get("count", 1))
    return out


def small(image) -> bytes:  # type: ignore[no-untyped-def]
    """The page's own small capture of the camera's picture (`camera.js`: 320 pixels wide)."""
    height, width = image.shape[:2]
    resized = cv2.resize(image, (320, round(320 * height / width)), interpolation=cv2.INTER_AREA)
    return cv2.imencode(".jpg", resized, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


def photos_of(video) -> Any:  # type: ignore[no-untyped-def]
    """A player's photos of the film: the last still frame of each state of the table, no arm."""
    last = None
    for frame in video.frames():
        if last is not None and frame.state != last.state:
            yield last
            last = None
        if not frame.arm and frame.event is not None:
            last = frame
    if last is not None:
        yield last


#: the gaps between frames sent by a page on a busy server (`--irregular`), drawn evenly
GAPS = (1, 1, 2, 2, 3, 4, 5)


def sent_frames(every: int, irregular: int | None, seed: int) -> Any:
    """Whether the page sends frame k: every `every`-th, or at gaps drawn from `GAPS`."""
    if irregular is None:
        return lambda k: k % every == 0
    rng = random.Random(irregular * 100_003 + seed)
    sent, k = set(), 0
    while k < 100_000:
        sent.add(k)
        k += rng.choice(GAPS)
    return sent.__contains__


def follow(
    seed: int,
    every: int,
    folder: Path,
    captures: bool = True,
    dealt: str | None = None,
    photos: bool = False,
    irregular: int | None = None,
    plays: int | None = None,
    video: Any = None,
    seating: bool = False,
    size: tuple[int, int] = (1280, 960),
    happen: Any = None,
) -> dict:
    """One film through the app (`video`: a film made elsewhere, e.g. `bench/real_films.py`'s real
    tiles, instead of the synthetic game of `seed`)."""
    from webapp import create_app

    if video is None:
        video = game_video(seed, size[0], size[1], still_frames=6, dealt=dealt, max_plays=plays, happen=happen)
    send = sent_frames(every, irregular, seed)
    app = create_app(
        {
            "SPINNER_DATA": folder / "data",
            "DATABASE_URL": f"sqlite:///{folder / f'{seed}.db'}",
            "CAMERA_WAIT": 60.0,
            "READER_PROCESSES": 0,
        }
    )
    client = app.test_client()
    made = client.post(
        "/api/games", json={"variant": video.record["variant"], "players": video.record["players"]}
    ).get_json()
    auth = {"Authorization": f"Bearer {made['token']}"}
    base = f"/api/games/{made['id']}"
    if seating and video.sides is not None:  # as the page's "Where each player sits" saves it
        sides = [SIDES[side] for side in video.sides]
        said = client.put(f"{base}/seating", json={"seating": sides}, headers=auth)
        assert said.status_code == 200, said.get_json()
    client.post(f"{base}/hands", json={"leader": video.record["hands"][0].get("leader", 0)}, headers=auth)
    # the record as the table saw it: a dealt film's end-of-hand pips come from a deal nobody showed
    seen = score_record(as_seen(video.record))
    truth = plays_of(seen)
    # the plays alone: a dealt film's passes show in no photo (the scorer infers them from the seats)
    events = [e for e in video.record["hands"][0]["events"] if e["type"] == "play"]
    asked = confirmed = padded = sent = asked_seat = asked_run = kept_plays = 0
    kept = None  # the newest frame of plays kept with their seat open (its question stands)
    started = time.perf_counter()
    previous: bytes | None = None
    for k, frame in enumerate(photos_of(video) if photos else video.frames()):
        capture = small(frame.image)  # the page captures every tick, sent or not
        before, previous = previous, capture
        if not send(k) and not photos:
            continue
        ok, jpeg = cv2.imencode(".jpg", frame.image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        sent += 1
        if photos:  # "Take photo": one photo after each play, nothing else
            answer = client.post(
                f"{base}/frames?source=photo",
                data={"photo": (io.BytesIO(jpeg.tobytes()), "table.jpg")},
                headers=auth,
                content_type="multipart/form-data",
            ).get_json()
        elif captures and before is not None:  # as the page sends it: the frame and its two captures
            data = {
                "photo": (io.BytesIO(jpeg.tobytes()), "table.jpg"),
                "before": (io.BytesIO(before), "before.jpg"),
                "now": (io.BytesIO(capture), "now.jpg"),
            }
            answer = client.post(
                f"{base}/frames?source=camera&seat=0", data=data, headers=auth, content_type="multipart/form-data"
            ).get_json()
        else:
            answer = client.post(
                f"{base}/frames?source=camera&seat=0",
                data=jpeg.tobytes(),
                headers={**auth, "Content-Type": "image/jpeg"},
            ).get_json()
        while True:  # a photo answered may ask its next question (the rest of its new tiles)
            while answer["status"] == "confirm" and answer["proposal"].get("code") == "passes_unsure":
                asked_run += 1
                recorded, answer = answer_run(client, base, auth, answer, truth)  # a photo is looked at then
                kept_plays += recorded
                kept = None
            if answer["status"] == "kept":  # a play followed with its seat open: asked about with the others
                kept = answer
                break
            if answer["status"] != "confirm":
                break
            asked += 1
            proposal = answer["proposal"]
            event = (proposal.get("events") or [None])[0]
            done = plays_of(client.get(f"{base}/score").get_json())
            tap = "reject"
            if event is None and proposal.get("plays") and len(done) < len(truth) and done == truth[: len(done)]:
                # several new tiles, more than one order: the player taps the true next play, if shown
                seat, tile = truth[len(done)][:2]
                # (a play naming no seat: tapped, then the seat that laid it, as the page asks)
                event = next(
                    (e for e in proposal["plays"] if e["tile"] == tile and e.get("seat") in (seat, None)), None
                )
            named = event is not None and ("end" in event or not done)  # the lead needs no end
            if named and len(done) < len(truth) and done == truth[: len(done)]:
                seat, tile = truth[len(done)][:2]
                # (a first play of an order question whose seat is named is recorded by its tap)
                asks_seat = not proposal.get("plays") or event.get("seat") is None
                if event["tile"] == tile and seat in (proposal.get("seats") or []) and asks_seat:
                    # "who played it?": the player taps the seat that did, one of the seats shown (as
                    # the page's `playOf`: the candidate of that seat, tile and end, else the play proposed)
                    event = next(
                        (
                            c[-1]["event"]
                            for c in proposal.get("candidates") or []
                            if c[-1]["event"]["seat"] == seat
                            and c[-1]["event"]["tile"] == event["tile"]
                            and c[-1]["event"].get("end") == event.get("end")
                        ),
                        {**event, "seat": seat},  # a lead: every seat is shown
                    )
                    asked_seat += 1
                if event["tile"] == tile and event.get("seat") == seat:
                    tap = "accept"
            response = client.post(
                f"{base}/frames/{answer['id']}/{tap}",
                json={"why": "bench", **({"event": event} if tap == "accept" else {})},
                headers=auth,
            )
            if tap == "accept" and response.status_code == 200:
                got = plays_of(client.get(f"{base}/score").get_json())
                if got[: len(done) + 1] == truth[: len(done) + 1]:  # (plays taken up after it: judged at the end)
                    confirmed += 1
                    answer = response.get_json()
                    continue
                # the end was not the true one
                client.post(f"{base}/undo", json={"why": "bench: wrong end"}, headers=auth)
            padded += pad_next(client, base, auth, events, truth)
            break
    if kept is not None:  # the film is over: the player answers the question that stands
        frame = client.get(f"{base}/frames/{kept['id']}", headers=auth).get_json()
        if frame["status"] == "kept":
            asked_run += 1
            kept_plays += answer_run(client, base, auth, frame, truth)[0]
    got_answer = client.get(f"{base}/score").get_json()
    got = plays_of(got_answer)
    right = next((i for i, (a, b) in enumerate(zip(got, truth)) if a != b), min(len(got), len(truth)))
    # each play recorded from the first difference on: the true tile of that place for another
    # seat (a pass or a draw unseen), or another tile; true plays never recorded are missed
    wrong_seat = sum(
        1 for i in range(right, min(len(got), len(truth))) if got[i][1] == truth[i][1] and got[i][0] != truth[i][0]
    )
    equal = got == truth and got_answer["totals"] == seen["totals"]
    # draws (the games that draw): each recorded draw against the truth's between the same two plays
    # (the boneyard counted in view; one not seen is the scorer's to infer, never recorded)
    recorded = client.get(f"{base}/record").get_json()["hands"][0]["events"]
    drawn, true_drawn = draws_between(recorded), draws_between(video.record["hands"][0]["events"])
    draws_wrong = sum(max(0, n - true_drawn.get(key, 0)) for key, n in drawn.items() if key[0] <= right)
    return {
        "seed": seed,
        "variant": video.record["variant"],
        "plays": len(truth),
        "right": right,
        "wrong": len(got) - right,
        "wrong_seat": wrong_seat,
        "wrong_tile": len(got) - right - wrong_seat,
        "missed": max(0, len(truth) - len(got)),
        "asked": asked,
        "asked_seat": asked_seat,
        "asked_run": asked_run,
        "kept": kept_plays,
        "confirmed": confirmed,
        "padded": padded,
        "draws": sum(drawn.values()),
        "true_draws": sum(true_drawn.values()),
        "draws_wrong": draws_wrong,
        "frames_sent": sent,
        "score_equal": equal,
        "seconds": round(time.perf_counter() - started, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--videos", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--every", type=int, default=2, help="send every Nth frame (a still table is 6 frames)")
    parser.add_argument(
        "--irregular",
        type=int,
        default=None,
        metavar="N",
        help="a busy server: gaps of 1-5 frames between frames sent, drawn with seed N (instead of --every)",
    )
    parser.add_argument("--plays", type=int, default=None, help="only the first N plays of each film")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--seating", action="store_true", help="dealt films: save the film's seating first, as the page's panel does"
    )
    parser.add_argument("--size", default="1280x960", help="frame size, WIDTHxHEIGHT")
    parser.add_argument(
        "--no-captures",
        action="store_true",
        help="send frames alone, without the page's two captures a second apart (the page before 2026-11-26)",
    )
    parser.add_argument(
        "--dealt",
        choices=["partners", "partners-block", "block", "draw", "all-fives", "any"],
        default=None,
        help="dealt films with passes, and draws in draw and all-fives (the live camera keeps a drawing "
        "hand's counts open: the pad here scores no draws); any: a variant drawn from each film's seed",
    )
    parser.add_argument(
        "--photos",
        action="store_true",
        help="a player's photos instead of the live camera: one after each play, no arm in view",
    )
    for name, what in (
        ("moved", "the phone re-framed (shifted, turned 10-30 degrees, zoomed 0.8-1.25)"),
        ("nudge", "a laid tile nudged (moved a little, turned a few degrees)"),
        ("takeback", "another tile laid where the play goes and taken back first (before a play)"),
        ("objects", "a thing (a cup, a phone, a score sheet) set down for a few moves"),
    ):
        parser.add_argument(
            f"--{name}", type=float, default=0.0, metavar="P", help=f"chance between two moves of {what}"
        )
    args = parser.parse_args()
    from vision.synth.happen import Happenings

    happen = Happenings(args.moved, args.nudge, args.takeback, args.objects)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(args.seed, args.seed + args.videos):
            row = follow(
                seed,
                args.every,
                Path(tmp),
                captures=not args.no_captures,
                dealt=args.dealt,
                photos=args.photos,
                irregular=args.irregular,
                plays=args.plays,
                seating=args.seating,
                size=(int(args.size.split("x")[0]), int(args.size.split("x")[1])),
                happen=happen if happen.any() else None,
            )
            rows.append(row)
            if not args.json:
                print(
                    f"video {seed}: {row['variant']}, {row['plays']} plays: {row['right']} right, {row['wrong']} wrong "
                    f"({row['wrong_seat']} seat, {row['wrong_tile']} tile), {row['missed']} missed, "
                    f"{row['asked']} asked ({row['asked_seat']} who played, {row['confirmed']} confirmed, "
                    f"{row['asked_run']} for {row['kept']} plays kept, "
                    f"{row['padded']} padded); "
                    + (
                        f"draws {row['draws']} of {row['true_draws']} ({row['draws_wrong']} wrong); "
                        if row["true_draws"]
                        else ""
                    )
                    + f"score {'equal' if row['score_equal'] else 'DIFFERENT'}"
                    f" ({row['seconds']} s)",
                    flush=True,
                )
    total = {
        key: sum(r[key] for r in rows)
        for key in (
            "plays",
            "right",
            "wrong",
            "wrong_seat",
            "wrong_tile",
            "missed",
            "asked",
            "asked_seat",
            "asked_run",
            "kept",
            "confirmed",
            "padded",
            "draws",
            "true_draws",
            "draws_wrong",
        )
    }
    total["scores_equal"] = sum(r["score_equal"] for r in rows)
    if args.json:
        print(json.dumps({"videos": args.videos, **total, "rows": rows}))
    else:
        print(
            f"{args.videos} videos, {total['plays']} plays: {total['right']} right, {total['wrong']} wrong "
            f"({total['wrong_seat']} seat, {total['wrong_tile']} tile), {total['missed']} missed, "
            f"{total['asked']} asked ({total['asked_seat']} who played, {total['confirmed']} confirmed, "
            f"{total['asked_run']} for {total['kept']} plays kept, "
            f"{total['padded']} padded); "
            + (
                f"draws {total['draws']} of {total['true_draws']} recorded ({total['draws_wrong']} wrong); "
                if total["true_draws"]
                else ""
            )
            + f"scores equal {total['scores_equal']}/{args.videos}"
        )


if __name__ == "__main__":
    main()
