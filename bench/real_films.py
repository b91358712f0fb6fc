"""Game films of real tiles: the real `domibot-crops` photos laid as dealt games, followed.

    .venv/bin/python bench/real_films.py [--films 12] [--seed 0] [--variant any] [--players 4]
        [--reader models|truth] [--each-play] [--page] [--length 40 64] [--shake 1.5] [--turn 0.25]
        [--zoom 0] [--light 0.04] [--plays N] [--per-tile 12] [--crop-seed 0] [--all-crops] [--out DIR]
        [--json]

Each film (`vision/evaluate/real_films.py`) is a dealt game (`dealt_game`: passes and draws as the
deal makes them) laid with real photographs of real tiles, cut out of `../shared/real/domibot-crops`
at run time (measuring only: nothing of them is kept), on a dark cloth at 640x480, the tiles 40-64
px long: one photo of the bare cloth, then one photo after each play, as a player's phone gives
them. Followed the two ways players do:

- `spinner watch` on the folder of photos (`Watcher`, each photo settled), counted as `spinner
  watch-eval` counts (`vision.evaluate.games.follow_video`): every true play **right**, **asked**
  (a question answered with the truth: the reader's, or "did anyone pass from 4-5 on?" for the run
  of plays no arm settled, one question for them all; `--each-play`: one a play) or **wrong** (a
  play recorded differently from the truth with no question: the serious one), wrong seat or
  wrong tile, missed, questions, after a pass inferred, scores equal;
- `--page`: the page's "Take photo" flow too (`bench/page_camera.py --photos`: each photo posted
  to the app, its questions answered as a player would), for the games that draw nothing (the
  pad there scores no draws).

Every question and every wrong play is listed with its film, play index and the follower's reason
code. `--shake`, `--turn`, `--zoom`: how much the phone moves between photos (standard deviations:
pixels, degrees, share of the scale; the default is a phone held still, on a stand). `--reader truth` reads each photo from its truth (the follower alone, not the models).
`--out DIR` keeps each film (`DIR/film-SEED/photos/` for `spinner watch`, its truth beside it).
Without `../shared/real/domibot-crops` it says so and exits 0.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.evaluate import real_films  # noqa: E402
from vision.evaluate.games import COUNTED  # noqa: E402
from vision.evaluate.real_films import CROPS, SpriteBank, follow_film, make_film, models_reader  # noqa: E402

#: the page's photo flow: the variants whose draws the bench's pad need not score
PAGE_VARIANTS = ("partners", "partners-block", "block")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--films", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--variant", default="any", choices=["any", "partners", "partners-block", "all-fives", "block", "draw"]
    )
    parser.add_argument("--players", type=int, default=4, help="players (partnerships: 4)")
    parser.add_argument("--reader", choices=["models", "truth"], default="models")
    parser.add_argument("--each-play", action="store_true", help="ask about each play whose seat is open")
    parser.add_argument("--page", action="store_true", help="also the page's photo flow (bench/page_camera.py)")
    parser.add_argument("--length", type=float, nargs=2, default=None, metavar=("MIN", "MAX"), help="tile length, px")
    parser.add_argument("--shake", type=float, default=1.5, help="the phone's shift between photos, px (sd)")
    parser.add_argument("--turn", type=float, default=0.25, help="the phone's turn between photos, degrees (sd)")
    parser.add_argument("--zoom", type=float, default=0.0, help="the phone's change of scale between photos (sd)")
    parser.add_argument("--light", type=float, default=0.04, help="the exposure's swing between photos")
    parser.add_argument("--plays", type=int, default=None, help="only the first N plays of each game")
    parser.add_argument("--per-tile", type=int, default=12, help="crops cut for each tile (0: all)")
    parser.add_argument(
        "--crop-seed", type=int, default=0, help="the order the crops are cut in (film N is the same whatever --seed)"
    )
    parser.add_argument(
        "--all-crops", action="store_true", help="cut every crop first and report how many could not be"
    )
    parser.add_argument("--out", type=Path, default=None, help="keep each film here (photos and truth)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not CROPS.is_dir():
        print(f"{CROPS}: the real photos are not here (../shared/real beside the repository); nothing measured")
        return
    lengths = (min(args.length), max(args.length)) if args.length else real_films.LENGTHS
    started = time.perf_counter()
    bank = SpriteBank(CROPS, per_tile=args.per_tile or None, seed=args.crop_seed)
    if args.all_crops:
        bank.all()
    readers: dict[str, Any] = {}
    rows: list[dict[str, Any]] = []
    notes: list[dict[str, Any]] = []
    page_rows: list[dict[str, Any]] = []
    log = (lambda _text: None) if args.json else (lambda text: print(text, flush=True))
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(args.seed, args.seed + args.films):
            film = make_film(
                seed,
                bank,
                args.variant,
                args.players,
                max_plays=args.plays,
                shake=args.shake,
                turn_deg=args.turn,
                zoom=args.zoom,
                light_drift=args.light,
                lengths=lengths,
            )
            variant = film.record["variant"]
            if args.out is not None:
                film.write(args.out / f"film-{seed}")
            reader = None
            if args.reader == "models":
                reader = readers.setdefault(variant, models_reader(variant))
            report = follow_film(film, reader, each_play=args.each_play).to_json()
            row = {"film": seed, "variant": variant, "tile_px": round(film.tile_length, 1), "photos": len(film.photos)}
            row.update({k: report[k] for k in COUNTED})
            row["score_equal"] = report["score_equal"]
            row["seconds"] = report["seconds"]
            rows.append(row)
            for note in report["notes"]:
                notes.append({"film": seed, "variant": variant, **note})
            log(
                f"film {seed}: {variant}, {row['plays']} plays ({row['passes']} passes, {row['draws']} draws), "
                f"tiles {row['tile_px']} px: {row['right']} right, {row['asked']} asked in {row['questions']} "
                f"question(s) ({row['seat_questions']} who played), {row['wrong']} WRONG ({row['wrong_seat']} seat, "
                f"{row['wrong_tile']} tile), {row['offered_wrong_seat']} offered wrong seat, {row['not_reached']} missed; score "
                f"{'equal' if row['score_equal'] else 'DIFFERENT'} ({row['seconds']} s)"
            )
            for note in report["notes"]:
                if note["what"] != "run" or args.each_play:
                    log(f"    play {note['play']}: {note['what']} [{note['code']}] {note['reason']}")
            if args.page:
                if variant not in PAGE_VARIANTS:
                    log(f"    page: {variant} draws, which the page bench's pad does not score: not sent")
                else:
                    sys.path.insert(0, str(ROOT / "bench"))
                    import page_camera

                    page = page_camera.follow(seed, 1, Path(tmp), photos=True, video=film)
                    page_rows.append(page)
                    log(
                        f"    page: {page['right']} right, {page['wrong']} WRONG ({page['wrong_seat']} seat, "
                        f"{page['wrong_tile']} tile), {page['missed']} missed, {page['asked']} asked "
                        f"({page['asked_seat']} who played, {page['confirmed']} confirmed), {page['asked_run']} "
                        f"for {page['kept']} plays kept, {page['padded']} padded; score "
                        f"{'equal' if page['score_equal'] else 'DIFFERENT'}"
                    )
    total: dict[str, Any] = {k: sum(r[k] for r in rows) for k in COUNTED}
    total["scores_equal"] = sum(r["score_equal"] for r in rows)
    codes = collections.Counter(f"{n['what']}:{n['code']}" for n in notes)
    out: dict[str, Any] = {
        "films": args.films,
        "seed": args.seed,
        "variant": args.variant,
        "reader": args.reader,
        "each_play": args.each_play,
        "tile_px": list(lengths),
        "phone": {"shake": args.shake, "turn": args.turn, "zoom": args.zoom, "light": args.light},
        **total,
        "by_code": dict(codes.most_common()),
        "sprites": bank.summary(),
        "seconds": round(time.perf_counter() - started, 1),
        "rows": rows,
        "notes": notes,
    }
    if page_rows:
        keys = ("plays", "right", "wrong", "wrong_seat", "wrong_tile", "missed", "asked", "asked_seat", "asked_run")
        out["page"] = {k: sum(r[k] for r in page_rows) for k in (*keys, "kept", "confirmed", "padded")}
        out["page"]["films"] = len(page_rows)
        out["page"]["scores_equal"] = sum(r["score_equal"] for r in page_rows)
        out["page_rows"] = page_rows
    if args.json:
        print(json.dumps(out, indent=1))
        return
    sprites = out["sprites"]
    print(
        f"{args.films} films, {total['plays']} plays ({total['passes']} passes, {total['draws']} draws): "
        f"{total['right']} right, {total['asked']} asked in {total['questions']} questions "
        f"({total['seat_questions']} who played, {total['dismissed']} dismissed), {total['wrong']} WRONG "
        f"({total['wrong_seat']} seat, {total['wrong_tile']} tile), {total['offered_wrong_seat']} offered wrong "
        f"seat, {total['not_reached']} missed; after a pass {total['after_pass_inferred']} of {total['after_pass']} "
        f"recorded unasked, {total['after_pass_seat_inferred']} with their seat unasked; "
        f"scores equal {total['scores_equal']}/{args.films}"
    )
    print(f"questions and wrong plays by reason: {dict(codes.most_common())}")
    print(
        f"crops: {sprites['crops_looked_at']} looked at, {sprites['cut']} cut, skipped {sprites['skipped']} "
        f"({out['seconds']} s in all)"
    )
    if page_rows:
        p = out["page"]
        print(
            f"page, {p['films']} films, {p['plays']} plays: {p['right']} right, {p['wrong']} WRONG "
            f"({p['wrong_seat']} seat, {p['wrong_tile']} tile), {p['missed']} missed, {p['asked']} asked "
            f"({p['asked_seat']} who played, {p['confirmed']} confirmed), {p['asked_run']} for {p['kept']} plays "
            f"kept, {p['padded']} padded; scores equal {p['scores_equal']}/{p['films']}"
        )


if __name__ == "__main__":
    main()
