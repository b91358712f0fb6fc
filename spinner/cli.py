"""`spinner --help` lists every subcommand. Each part of the project owns its commands:
they are imported lazily, so `spinner score` never pays for importing OpenCV or Flask."""

from __future__ import annotations

import importlib

import click

# name -> (module, attribute, one-line help). Lazy so a command's heavy imports stay its own.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "score": ("scorer.commands", "score", "Score a match record (GAME_RECORD.md) and print the answer as JSON."),
    "simulate": ("scorer.commands", "simulate", "Play random legal matches and print or write their records."),
    "demo": ("scorer.commands", "demo", "Play one simulated match and show its running score."),
    "read": ("vision.commands.read", "read", "Read every tile in photos of a table (--json, --annotate DIR)."),
    "train": (
        "vision.commands.read",
        "train",
        "Train the reader's models: spinner train detector|halves (training extra).",
    ),
    "eval": (
        "vision.commands.read",
        "evaluate",
        "Measure the reader on held-out synthetic photos and the real photos.",
    ),
    "export": ("vision.commands.read", "export", "Export the trained detector to ONNX for the companion."),
    "serve": ("webapp.serve", "serve", "Start the companion page for phones at the table (--https for the camera)."),
    "reader-worker": (
        "webapp.readqueue.command",
        "reader_worker",
        "Read the camera's photos from the queue in PostgreSQL (beside servers with SPINNER_READERS=queue).",
    ),
    "dataset": (
        "vision.synth.commands",
        "dataset",
        "Make synthetic data: spinner dataset synth|video --out DIR --seed S.",
    ),
    "watch": (
        "vision.commands.watch",
        "watch",
        "Follow a game from a camera, a video or photos: plays, asks and the running score.",
    ),
    "watch-eval": (
        "vision.commands.watch",
        "watch_eval",
        "Follow synthetic game videos: moves right, asked and wrong against the truth.",
    ),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attribute, _ = COMMANDS[name]
        return getattr(importlib.import_module(module), attribute)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Help text from the table, so `spinner --help` imports nothing heavy.
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup)
@click.version_option(package_name="spinner")
def main() -> None:
    """Spinner: reads a domino table and keeps the score."""


if __name__ == "__main__":
    main()
