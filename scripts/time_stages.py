"""CPU and wall-clock time of the region stage and of the marks stage, per photo of a folder.

Usage: python scripts/time_stages.py DIR [--reps N] [--limit N]
(DIR: photos made by `aggression-vision synth`, or any folder of .jpg photos.)

Photos are loaded and segmented as the reader does (``ReaderSettings``). Prints one row per
photo (countries found, segment and marks seconds, CPU and wall clock) and the medians, with
the marks time also scaled to 20 countries (the issue's budget is 100 ms for a 20-country
map). CPU time (``process_time``) counts every thread of the process (OpenCV's included);
wall-clock time is what the user waits, and on a busy machine it also counts the time other
processes held the cores. With ``--reps N`` the marks stage is run N times per photo and its
fastest run kept (the least disturbed by other work on the machine); the networks' kept
outputs (``MarkNet.run``) are dropped before each run, so every run times a first reading.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from aggression_vision.vision import digits
from aggression_vision.vision.load import load_image
from aggression_vision.vision.marks import read_marks
from aggression_vision.vision.regions import segment
from aggression_vision.vision.settings import ReaderSettings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--reps", type=int, default=1, help="marks runs per photo (fastest kept)")
    parser.add_argument("--limit", type=int, default=0, help="only the first N photos")
    args = parser.parse_args()
    st = ReaderSettings()
    # (Both networks are loaded once per process by the reader too: not the stage's time.)
    digits.load_net()
    digits.load_second_net()
    paths = sorted(args.folder.glob("*.jpg"))
    if args.limit:
        paths = paths[: args.limit]
    rows = []
    print("photo\tcountries\tsegment cpu s\tsegment wall s\tmarks cpu s\tmarks wall s")
    for path in paths:
        image, photo_size = load_image(
            path,
            max_pixels=st.max_pixels,
            min_long_side=int(st.working_long_side * st.decode_oversampling),
        )
        c0, w0 = time.process_time(), time.perf_counter()
        seg = segment(image, photo_size=photo_size, settings=st)
        seg_cpu, seg_wall = time.process_time() - c0, time.perf_counter() - w0
        cpu, wall = [], []
        for _ in range(max(1, args.reps)):
            # (Each run reads the networks again: no outputs kept from the last one.)
            digits.forget_outputs()
            c0, w0 = time.process_time(), time.perf_counter()
            read_marks(seg)
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
        n = max(1, len(seg.regions))
        rows.append((n, seg_cpu, seg_wall, min(cpu), min(wall)))
        print(f"{path.name}\t{n}\t{seg_cpu:.3f}\t{seg_wall:.3f}\t{min(cpu):.3f}\t{min(wall):.3f}")
    if not rows:
        print("no photos")
        return

    def med(values: list[float]) -> str:
        return f"{statistics.median(values):.3f}"

    per20_cpu = [r[3] * 20 / r[0] for r in rows]
    per20_wall = [r[4] * 20 / r[0] for r in rows]
    print(
        f"median s ({len(rows)} photos): segment CPU {med([r[1] for r in rows])} "
        f"wall {med([r[2] for r in rows])}; marks CPU {med([r[3] for r in rows])} "
        f"wall {med([r[4] for r in rows])}; marks per 20 countries CPU {med(per20_cpu)} "
        f"wall {med(per20_wall)}"
    )


if __name__ == "__main__":
    main()
