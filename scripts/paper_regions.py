"""Paper photos (../shared/data/paper-photos): regions found and the smallest one's size.

Usage: python scripts/paper_regions.py [FOLDER] [--overlay DIR]

With --overlay, DIR/NAME.png shows each photo's working image with the regions
tinted (one colour each, their boxes in red), the borders in green and the
writing in magenta: a printed grid square or ruled band that became a country
shows as a tinted square or band.
"""

import argparse
import glob
from pathlib import Path

import cv2
import numpy as np

from aggression_vision.vision.load import load_image
from aggression_vision.vision.regions import segment
from aggression_vision.vision.settings import ReaderSettings

S = ReaderSettings()
DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "paper-photos"
parser = argparse.ArgumentParser()
parser.add_argument("folder", nargs="?", default=str(DEFAULT))
parser.add_argument("--overlay", type=Path, help="folder for one overlay PNG per photo")
args = parser.parse_args()
if args.overlay:
    args.overlay.mkdir(parents=True, exist_ok=True)
for f in sorted(glob.glob(args.folder + "/*.jpg")):
    im, ps = load_image(f, min_long_side=int(S.working_long_side * S.decode_oversampling))
    seg = segment(im, photo_size=ps, settings=S)
    sizes = sorted(max(r.bbox[2] - r.bbox[0], r.bbox[3] - r.bbox[1]) for r in seg.regions)
    smallest = sizes[0] if sizes else "-"
    print(
        f"{Path(f).name:22s} regions {len(seg.regions):3d}  smallest region {smallest:>4} px  "
        f"working {seg.image.shape[1]}x{seg.image.shape[0]}"
    )
    if args.overlay:
        out = seg.image.copy()
        colours = np.random.default_rng(0).integers(60, 255, (int(seg.labels.max()) + 1, 3))
        inside = seg.labels > 0
        out[inside] = (0.5 * out[inside] + 0.5 * colours[seg.labels[inside]]).astype(np.uint8)
        out[seg.borders] = (0, 160, 0)
        out[seg.writing] = (200, 0, 200)
        for r in seg.regions:
            cv2.rectangle(out, r.bbox[:2], r.bbox[2:], (0, 0, 255), 2)
        cv2.imwrite(str(args.overlay / (Path(f).stem + ".png")), out)
