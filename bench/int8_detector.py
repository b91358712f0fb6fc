"""Quantise the detector to int8 and time its network against the float one (measured, left out).

    .venv/bin/python bench/int8_detector.py --photos datasets/synth-calib/images/train --out runs/detector-int8.onnx
    spinner eval --synthetic datasets/synth-heldout --detector runs/detector-int8.onnx   # what it costs

Static quantisation with onnxruntime (QDQ, per channel, activations uint8, weights int8, MinMax
calibration on the photos given, as the reader letterboxes them). The head (`model.23`) and what
follows it stay in float: its boxes, scores and angles share outputs whose ranges one scale cannot
hold (quantised too, no tile was found at all). Left out: the boxes lose the precision the
board's small halves need (bench/README.md, "An int8 detector").
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.read.detector import READ_SIDE, canvas_shape, letterbox, to_blob  # noqa: E402
from vision.read.reader import DEFAULT_DETECTOR, load_photo  # noqa: E402
from vision.read.session import open_session  # noqa: E402

#: the detection head's layer in ultralytics' yolo11 OBB: kept in float
HEAD = 23


def quantise(detector: Path, photos: list[Path], out: Path) -> Path:
    import onnx
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Photos(CalibrationDataReader):
        def __init__(self, name: str) -> None:
            self.name, self.left = name, iter(photos)

        def get_next(self) -> dict[str, np.ndarray] | None:
            photo = next(self.left, None)
            if photo is None:
                return None
            image = load_photo(photo)
            canvas, _, _ = letterbox(image, canvas_shape(*image.shape[:2], READ_SIDE))
            return {self.name: to_blob(canvas)}

    with tempfile.TemporaryDirectory() as work:
        prepared = Path(work) / "prepared.onnx"
        # the input's size is free, which symbolic shape inference cannot follow through the head
        quant_pre_process(str(detector), str(prepared), skip_symbolic_shape=True)
        model = onnx.load(str(prepared))
        layer = re.compile(r"/model\.(\d+)/")
        nodes = [n.name for n in model.graph.node if (m := layer.match(n.name)) and int(m.group(1)) < HEAD]
        quantize_static(
            str(prepared),
            str(out),
            Photos(model.graph.input[0].name),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            nodes_to_quantize=nodes,
        )
    quantised = onnx.load(str(out))
    del quantised.metadata_props[:]
    quantised.metadata_props.extend(onnx.load(str(detector)).metadata_props)  # the reading size, the enlargement
    onnx.save(quantised, str(out))
    return out


def network_ms(model: Path, runs: int = 20) -> float:
    """The network alone on an 800 x 608 input (a 4:3 photo at the reading size), median of `runs`."""
    session = open_session(model, "detector")
    name = session.get_inputs()[0].name
    blob = np.random.default_rng(0).random((1, 3, 608, 800), dtype=np.float32)
    for _ in range(3):
        session.run(None, {name: blob})
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        session.run(None, {name: blob})
        times.append(1000 * (time.perf_counter() - start))
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--detector", type=Path, default=DEFAULT_DETECTOR)
    parser.add_argument(
        "--photos", type=Path, required=True, help="a folder of JPEGs to calibrate on (not a measuring set)"
    )
    parser.add_argument("--count", type=int, default=48, help="how many of them")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    photos = sorted(args.photos.glob("*.jpg"))[: args.count]
    if not photos:
        parser.error(f"no JPEG photos in {args.photos}")
    quantise(args.detector, photos, args.out)
    for turn in (1, 2):  # taking turns: the machine's load moves both alike
        print(
            f"turn {turn}: float {network_ms(args.detector):.1f} ms, int8 {network_ms(args.out):.1f} ms (network alone, 800x608)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
