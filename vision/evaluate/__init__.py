"""How well each stage does: photos (`photos`, `ddd_board`), layouts (`layout`) and followed
games (`games`), each against its truth."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


class TruthError(ValueError):
    """A truth file that cannot be read as JSON; the message names it."""


def read_truth(path: Path) -> Any:
    """A truth file's JSON, or a TruthError naming the file and what is wrong with it."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TruthError(f"{path}: no such truth file") from None
    except (OSError, ValueError) as error:  # unreadable, not UTF-8, not JSON
        raise TruthError(f"{path}: is not a truth JSON ({error})") from None
