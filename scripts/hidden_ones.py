"""How often a handwritten 1 disappears into the next digit (synthetic handwriting).

Renders ``--count`` two-digit numbers "1d" (d random, random writers, heights 15-49 px)
with ``render_text`` and counts the 1s of which less than ``--visible`` of the ink lies
farther than a pen width from the next digit's ink: in a photo those read as one digit.

    python scripts/hidden_ones.py --count 3000
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

import cv2
import numpy as np

import aggression_vision.synth.handwriting as hw


class _Recorder:
    """``cv2`` as the renderer sees it, keeping each character's warped raster."""

    def __init__(self) -> None:
        self.rasters: list[np.ndarray] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(cv2, name)

    def warpAffine(self, *args: Any, **kwargs: Any) -> np.ndarray:  # noqa: N802 (cv2's name)
        out = cv2.warpAffine(*args, **kwargs)
        self.rasters.append(out)
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--visible", type=float, default=0.3)
    args = parser.parse_args()
    if args.count < 1:
        raise SystemExit(f"hidden_ones.py: --count must be at least 1, got {args.count}")
    if not 0.0 < args.visible <= 1.0:
        raise SystemExit(f"hidden_ones.py: --visible must be in (0, 1], got {args.visible}")
    recorder = _Recorder()
    hw.cv2 = recorder  # type: ignore[assignment]
    shares = []
    hidden: Counter[str] = Counter()
    drawn: Counter[str] = Counter()
    for seed in range(args.count):
        rng = np.random.default_rng(seed)
        style = hw.random_style(rng)
        digit = str(int(rng.integers(0, 10)))
        height = int(rng.integers(15, 50))
        recorder.rasters.clear()
        hw.render_text("1" + digit, rng, height_px=height, style=style)
        one, other = recorder.rasters[0] > 0.25, recorder.rasters[1] > 0.25
        pen = max(1, int(round(style.stroke_width * one.shape[0])))
        near = cv2.dilate(other.astype(np.uint8), np.ones((1, 2 * pen + 1), np.uint8)) > 0
        share = float((one & ~near).sum() / max(1, one.sum()))
        shares.append(share)
        drawn[style.source] += 1
        if share < args.visible:
            hidden[style.source] += 1
    pct = np.percentile(shares, [1, 2, 5, 10, 25, 50]).round(2)
    print(f"visible share of the 1, percentiles 1/2/5/10/25/50: {pct.tolist()}")
    print(f"written by source: {dict(drawn)}")
    print(
        f"1s less than {args.visible:.0%} visible: {sum(hidden.values())} of {args.count} "
        f"({sum(hidden.values()) / args.count:.1%}) {dict(hidden)}"
    )


if __name__ == "__main__":
    main()
