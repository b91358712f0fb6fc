"""Run an exported ultralytics OBB model with onnxruntime: no torch at run time.

The exported graph takes a letterboxed RGB image (1, 3, S, S) in [0, 1] and gives
(1, 4 + classes + 1, anchors): centre x, centre y, width, height (input pixels), one score per
class (already sigmoid), and the box angle in radians. Post-processing is ours: the best class
per anchor, a confidence threshold, rotated non-maximum suppression (OpenCV's), and the boxes
mapped back to the photo's own pixels.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .onnx_session import open_session


@dataclass(frozen=True, slots=True)
class ObbDetection:
    """One oriented box in photo pixels."""

    cls: int
    confidence: float
    center: tuple[float, float]
    size: tuple[float, float]  # width, height along the box's own axes
    angle: float  # radians, the box's width axis against the photo's x axis
    scores: tuple[float, ...]  # every class's score, for second-best readings

    def corners(self) -> np.ndarray:
        """The four corners, (4, 2) float32, in order around the box."""
        return cv2.boxPoints(((self.center[0], self.center[1]), self.size, float(np.degrees(self.angle)))).astype(np.float32)


def letterbox(image: np.ndarray, size: int, scaleup: bool = False) -> tuple[np.ndarray, float, tuple[float, float]]:
    """Resize keeping the aspect ratio and pad to size x size, as ultralytics does (grey 114).

    A photo smaller than the input is padded, not enlarged (`scaleup=False`, as ultralytics
    offers): enlarging would show the model tiles far bigger than any it learnt.
    """
    h, w = image.shape[:2]
    scale = min(size / h, size / w)
    if not scaleup:
        scale = min(scale, 1.0)
    nh, nw = round(h * scale), round(w * scale)
    resized = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_LINEAR) if (nh, nw) != (h, w) else image
    top, left = (size - nh) // 2, (size - nw) // 2
    canvas = np.full((size, size, 3), 114, dtype=np.uint8)
    canvas[top : top + nh, left : left + nw] = resized
    return canvas, scale, (left, top)


class ObbModel:
    """An exported OBB model. `predict(bgr_image)` -> detections in the image's own pixels."""

    def __init__(self, path: str | Path, threads: int | None = None) -> None:
        self.path = Path(path)
        self.session = open_session(self.path, "detector", threads)
        meta = self.session.get_modelmeta().custom_metadata_map
        self.names: dict[int, str] = ast.literal_eval(meta["names"]) if "names" in meta else {}
        shape = self.session.get_inputs()[0].shape
        self.imgsz = int(shape[2]) if isinstance(shape[2], int) else int(ast.literal_eval(meta.get("imgsz", "[640]"))[0])
        self.input_name = self.session.get_inputs()[0].name

    def predict(self, image: np.ndarray, conf: float = 0.25, iou: float = 0.5, max_det: int = 300) -> list[ObbDetection]:
        canvas, scale, (left, top) = letterbox(image, self.imgsz)
        blob = cv2.dnn.blobFromImage(canvas, 1 / 255.0, swapRB=True)  # BGR -> RGB, HWC -> NCHW
        (raw,) = self.session.run(None, {self.input_name: blob})
        return decode(raw[0], scale, (left, top), conf, iou, max_det)


def decode(
    raw: np.ndarray, scale: float, pad: tuple[float, float], conf: float, iou: float, max_det: int
) -> list[ObbDetection]:
    """(4 + classes + 1, anchors) -> detections in photo pixels, after rotated NMS per class."""
    preds = raw.T  # (anchors, 4 + nc + 1)
    scores = preds[:, 4:-1]
    best = scores.argmax(axis=1)
    confidence = scores[np.arange(len(best)), best]
    keep = confidence >= conf
    if not keep.any():
        return []
    preds, scores, best, confidence = preds[keep], scores[keep], best[keep], confidence[keep]
    left, top = pad
    cx = (preds[:, 0] - left) / scale
    cy = (preds[:, 1] - top) / scale
    w = preds[:, 2] / scale
    h = preds[:, 3] / scale
    angle = preds[:, -1]
    out: list[ObbDetection] = []
    for cls in np.unique(best):
        index = np.flatnonzero(best == cls)
        boxes = [((float(cx[i]), float(cy[i])), (float(w[i]), float(h[i])), float(np.degrees(angle[i]))) for i in index]
        kept = cv2.dnn.NMSBoxesRotated(boxes, confidence[index].tolist(), conf, iou)
        for k in np.asarray(kept).reshape(-1):
            i = index[int(k)]
            out.append(
                ObbDetection(
                    cls=int(cls),
                    confidence=float(confidence[i]),
                    center=(float(cx[i]), float(cy[i])),
                    size=(float(w[i]), float(h[i])),
                    angle=float(angle[i]),
                    scores=tuple(float(s) for s in scores[i]),
                )
            )
    out.sort(key=lambda d: -d.confidence)
    return out[:max_det]
