"""Whether a half read blank shows its tile's body: the colour of a tile's two faces is one.

A half the classifier reads as blank shows no pips, and so does whatever lies over a half or
beside a tile: a finger or a hand laid on it, the table where a box runs off the tile's end, a
paper or a cup's rim. Each is read as a blank half as surely as the bare face is. A blank half
is the tile's own body, the colour the other half shows between its pips, so a blank half whose
colour is another is not a face seen bare. Light falls alike on both halves, and a shadow or a
highlight changes how light a colour is more than which colour: the halves are compared by
chroma alone (CIELAB a* and b*), each half by its median over its middle, clear of the rim.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.read.crops import HALF_SIZE

#: the part of a half's crop its colour is taken from: its middle three quarters each way, clear
#: of the rim (the crop's margin holds the table, the divider and the tile's edge), where a
#: finger over part of the half still shows in the median
CORE = slice(HALF_SIZE // 8, HALF_SIZE - HALF_SIZE // 8)
#: how far apart (CIELAB a*b*, about the units of a colour difference a person sees) a blank
#: half's colour may lie from its tile's other half before it is taken for something else: far
#: enough that glare on one half of a coloured tile seldom reaches it, near enough that skin on
#: ivory does (models/README.md, "A blank half unlike its tile")
APART = 15.0


def chroma(crops: np.ndarray) -> np.ndarray:
    """(N, 2): the median a* and b* of the `CORE` of each of N BGR half crops (N, H, W, 3)."""
    if len(crops) == 0:
        return np.zeros((0, 2), dtype=np.float32)
    inner = np.ascontiguousarray(crops[:, CORE, CORE])
    n, h, w, _ = inner.shape
    lab = cv2.cvtColor(inner.reshape(n * h, w, 3), cv2.COLOR_BGR2LAB).reshape(n, h * w, 3)
    return np.median(lab[..., 1:].astype(np.float32), axis=1)


def unlike(blank: np.ndarray, other: np.ndarray, apart: float = APART) -> np.ndarray:
    """For each pair of a blank half's crop and its tile's other half's, whether their colours lie
    more than `apart` apart (a* b*): something else than the tile's bare face is read as blank."""
    return np.linalg.norm(chroma(blank) - chroma(other), axis=1) > apart
