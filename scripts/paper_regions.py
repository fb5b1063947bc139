"""Paper photos (../shared/data/paper-photos): regions found and the smallest one's size.

Usage: python scripts/paper_regions.py [FOLDER]
"""

import glob
import sys
from pathlib import Path

from aggression_vision.vision.load import load_image
from aggression_vision.vision.regions import segment
from aggression_vision.vision.settings import ReaderSettings

S = ReaderSettings()
DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "paper-photos"
folder = sys.argv[1] if len(sys.argv) > 1 else str(DEFAULT)
for f in sorted(glob.glob(folder + "/*.jpg")):
    im, ps = load_image(f, min_long_side=int(S.working_long_side * S.decode_oversampling))
    seg = segment(im, photo_size=ps, settings=S)
    sizes = sorted(max(r.bbox[2] - r.bbox[0], r.bbox[3] - r.bbox[1]) for r in seg.regions)
    smallest = sizes[0] if sizes else "-"
    print(
        f"{Path(f).name:22s} regions {len(seg.regions):3d}  smallest region {smallest:>4} px  "
        f"working {seg.image.shape[1]}x{seg.image.shape[0]}"
    )
