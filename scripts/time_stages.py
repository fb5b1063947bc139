"""CPU time of the region stage and of the marks stage, per photo of a folder.

Usage: python scripts/time_stages.py DIR   (DIR: photos made by `aggression-vision synth`)
Prints one row per photo (countries found, segment s, marks s) and the medians, with the marks
time also scaled to 20 countries (the issue's budget is 100 ms for a 20-country map).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from aggression_vision.vision.load import load_image
from aggression_vision.vision.marks import read_marks
from aggression_vision.vision.regions import segment


def main(folder: Path) -> None:
    seg_t, marks_t, per20 = [], [], []
    for path in sorted(folder.glob("*.jpg")):
        loaded = load_image(path)
        image = loaded[0] if isinstance(loaded, tuple) else loaded
        t0 = time.process_time()
        seg = segment(image)
        t1 = time.process_time()
        read_marks(seg)
        t2 = time.process_time()
        n = max(1, len(seg.regions))
        seg_t.append(t1 - t0)
        marks_t.append(t2 - t1)
        per20.append((t2 - t1) * 20 / n)
        print(f"{path.name}\t{n}\t{t1 - t0:.3f}\t{t2 - t1:.3f}")
    print(
        f"median CPU s: segment {statistics.median(seg_t):.3f}, "
        f"marks {statistics.median(marks_t):.3f}, "
        f"marks per 20 countries {statistics.median(per20):.3f}"
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]))
