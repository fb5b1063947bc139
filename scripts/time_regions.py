"""Time photo loading + the region stage (no marks) on the >= 10 MP synthetic photos of a folder.

Usage: python scripts/time_regions.py SYNTH_DIR
"""

import glob
import json
import sys
import time

import numpy as np

from aggression_vision.vision.load import load_image
from aggression_vision.vision.regions import segment
from aggression_vision.vision.settings import ReaderSettings

S = ReaderSettings()
files = []
for f in sorted(glob.glob(sys.argv[1] + "/*.jpg")):
    with open(f[:-4] + ".json", encoding="utf-8") as fh:
        w, h = json.load(fh)["synth"]["size"]
    if w * h >= 10e6:
        files.append(f)
im, ps = load_image(files[0], min_long_side=int(S.working_long_side * S.decode_oversampling))
segment(im, photo_size=ps)  # warm-up (imports, OpenCV init)
wall, cpu = [], []
for f in files:
    t0, c0 = time.perf_counter(), time.process_time()
    im, ps = load_image(f, min_long_side=int(S.working_long_side * S.decode_oversampling))
    segment(im, photo_size=ps)
    wall.append(time.perf_counter() - t0)
    cpu.append(time.process_time() - c0)
print(
    f"{len(files)} photos >= 10 MP: wall median {np.median(wall):.2f} s "
    f"(p90 {np.percentile(wall, 90):.2f}), CPU median {np.median(cpu):.2f} s "
    f"(p90 {np.percentile(cpu, 90):.2f})"
)
