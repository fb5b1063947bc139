"""Pages whose writing the marks stage reads turned the wrong way, against the synthetic truth.

Usage: python scripts/orientation_census.py DIR [DIR ...] [--off DEGREES] [--workers N]
(DIR: photos made by `aggression-vision synth`, each with its truth JSON.)

The truth's writing direction on a page is that of its writing boxes (``synth.writing``)
mapped into the frame the marks stage reads in (``Segmentation.to_photo``), as
``aggression_vision.bench.accuracy.writing_angle`` measures it. The marks stage's is the angle
``read_page`` chose (``PageReading.angle``: the rotation, counter-clockwise, that makes the
writing upright). Prints one row per page more than ``--off`` degrees off (folder, photo,
truth angle, chosen angle, difference) and the count of such pages among those read.
Segmentations are kept as the benchmark's ``cached_regions`` reader keeps them (environment
variable ``AGGRESSION_VISION_SEGMENT_CACHE``), so a second census after a change of the
marks stage costs a fraction of the first.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from aggression_vision.bench.accuracy import writing_angle


def truth_angle(truth: dict, to_photo: np.ndarray) -> float | None:
    """The rotation (degrees, counter-clockwise, 0-360) that makes the truth's writing
    upright in the frame that ``to_photo`` maps to the photo (``writing_angle`` of its
    boxes mapped there); None without writing."""
    inv = np.linalg.inv(to_photo)
    quads = []
    for kinds in (truth.get("synth") or {}).get("writing", {}).values():
        for box in kinds.values():
            p = np.c_[np.asarray(box, float), np.ones(len(box))] @ inv.T
            quads.append(p[:, :2] / p[:, 2:])
    angle = writing_angle(quads)
    return None if angle is None else angle % 360.0


def census_row(photo: Path) -> tuple[str, float, float] | str | None:
    """(photo name, truth angle, chosen angle) of a photo with writing, None without
    writing, or a one-line message when the photo or its truth cannot be read."""
    from aggression_vision.bench.readers import cached_segmentation
    from aggression_vision.errors import AggressionVisionError
    from aggression_vision.vision.marks import read_page

    truth_file = photo.with_suffix(".json")
    try:
        truth = json.loads(truth_file.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        return f"{truth_file}: not a truth document ({e})"
    try:
        seg = cached_segmentation(photo)
    except AggressionVisionError as e:
        return str(e)
    want = truth_angle(truth, seg.to_photo)
    if want is None:
        return None
    return photo.name, want, float(read_page(seg).angle)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--off", type=float, default=25.0, help="degrees off that count")
    parser.add_argument("--workers", type=int, default=2, help="processes (1: this one)")
    args = parser.parse_args()
    for folder in args.folders:
        if not folder.is_dir():
            sys.exit(f"orientation_census: {folder}: not a folder")
    read = wrong = failed = 0
    # (One worker: in this process, no pool.)
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    with pool or contextlib.nullcontext():
        for folder in args.folders:
            photos = sorted(p for p in folder.glob("*.jpg") if p.with_suffix(".json").exists())
            rows = pool.map(census_row, photos, chunksize=4) if pool else map(census_row, photos)
            for row in rows:
                if row is None:
                    continue
                if isinstance(row, str):
                    failed += 1
                    print(f"orientation_census: {row}", file=sys.stderr)
                    continue
                name, want, got = row
                read += 1
                diff = (got - want + 180.0) % 360.0 - 180.0
                if abs(diff) > args.off:
                    wrong += 1
                    print(f"{folder.name}\t{name}\t{want:.0f}\t{got:.0f}\t{diff:+.0f}")
    print(f"{wrong} of {read} pages read more than {args.off:g} degrees off")
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
