"""Issue 5's paper target as numbers: drawn boxes whole or cut, printed-grid and word regions.

Usage: python scripts/paper_target.py [FOLDER]

FOLDER defaults to ../shared/data/paper-photos (10 diagrams of boxes with
handwriting on squared and lined paper, no truth files). The target is "no
printed grid square or ruled band becomes a country". The boxes below were
marked by hand on the overlays of ``scripts/paper_regions.py --overlay`` at
8b4dbed, in photo pixels (x0, y0, x1, y1; regions are mapped to the photo
with their segmentation's ``to_photo``, so a change of the page stage's crop
does not move them).

- BOXES: drawn boxes holding writing that should each be one region. A box
  is *whole* when exactly one region's centre lies in it and that region's
  bounding box stays within the drawn box grown by a quarter; *cut* counts
  the extra regions when several centres lie in it (a printed line, or
  writing welded to one, splits it); *lost* when none does (its outline was
  taken for ruling); *leak* when the one region spills out of it.
- JUNK: spots where a region is a printed grid square, a word of writing
  closed by grid stretches, or a band between a drawn and a printed line;
  every region whose centre lies in one counts.

At 8b4dbed: whole 18, cut 18, lost 0, leak 0, junk 22, regions 201 (at
49e2401, whose page stage crops ex07 to its sheet: junk 13, regions 200). Only
ex00, ex01, ex06 (0020, 0073), ex07, ex08_0035 and ex09 are marked (ex06_0083
is plain paper; ex08_0009 and ex08_0075 were not gone through).
"""

import glob
import sys
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from aggression_vision.vision.load import load_image
from aggression_vision.vision.regions import segment
from aggression_vision.vision.settings import ReaderSettings
from aggression_vision.vision.types import Segmentation

Box = tuple[int, int, int, int]
BOXES: dict[str, list[Box]] = {
    "ex00_writer0088": [
        (550, 1134, 753, 1250),  # Evaluate Application
        (1037, 1306, 1288, 1407),  # Create Account for Customer
        (1424, 1323, 1610, 1431),  # Send welcome pack
        (1415, 1452, 1572, 1540),  # Send PIN Number
        (1393, 1574, 1571, 1659),  # Send Bank-card
    ],
    "ex01_writer0048": [
        (444, 230, 791, 448),  # assess risk
        (896, 189, 1337, 451),  # advanced risk assessment
        (419, 720, 835, 941),  # simple risk assessment
        (1642, 740, 2088, 928),  # notify customer with result
        (1642, 972, 2096, 1130),  # organize disbursement
    ],
    "ex06_writer0020": [
        (1389, 229, 1734, 425),  # confirm order
        (2201, 490, 2482, 698),  # print out order
        (1248, 765, 1538, 974),  # write down order
        (1730, 1233, 2143, 1482),  # Attach order to pinboard
    ],
    "ex06_writer0073": [
        (900, 285, 1406, 489),  # receive order by Lieferando
        (1745, 281, 2046, 458),  # Confirm order
        (1196, 699, 1663, 894),  # receive order by website
        (2023, 684, 2386, 854),  # print out order
        (2386, 1035, 2910, 1356),  # attach order note to pinboard
        (856, 1367, 1314, 1591),  # take order by phone
        (1455, 1336, 1873, 1535),  # write down order note
    ],
    "ex07_writer0020": [
        (783, 775, 1233, 1040),  # Ask external Expert for Review of Doctor
        (1869, 824, 2284, 1017),  # Fill cheque for expert
        (1521, 1365, 1846, 1512),  # forward expertise
        (1187, 1763, 1535, 1981),  # Interview patients
        (1215, 1993, 1538, 2146),  # Create report
        (1740, 1944, 1958, 2105),  # file interviews and expertise
        (481, 297, 2445, 539),  # External Expert (pool)
    ],
    "ex09_writer0020": [
        (202, 108, 1116, 295),  # Student (pool)
        (569, 569, 723, 658),  # initial assessment
        (727, 392, 860, 456),  # Create PDF
    ],
}
JUNK: dict[str, list[Box]] = {
    "ex00_writer0088": [(1739, 1396, 1842, 1491)],  # "Application successfully completed"
    "ex01_writer0048": [
        (2210, 109, 2273, 241),  # a grid square in the shadowed right part
        (205, 435, 401, 528),  # "credit request received"
        (2239, 874, 2511, 1006),  # "credit request confirmed"
    ],
    "ex06_writer0020": [
        (942, 911, 1112, 1032),  # "received by Phone"
        (2138, 1853, 2242, 1991),  # "end order process"
    ],
    "ex07_writer0020": [
        (2146, 688, 2434, 1532),  # bands between the pool's drawn lines and grid lines
        (2146, 492, 2540, 2048),
        (2019, 1008, 2229, 1538),
        (636, 838, 694, 985),  # lane titles closed by grid stretches
        (636, 1008, 720, 1138),
        (648, 1175, 757, 1584),
        (516, 1526, 579, 1728),
        (772, 1593, 858, 1765),
        (654, 1590, 766, 1904),
    ],
    "ex08_writer0035": [
        (42, 243, 241, 921),  # bands between the printed margin and the lanes' lines
        (114, 1015, 232, 1445),
    ],
}
KEYS = ("whole", "cut", "lost", "leak", "junk", "regions")


def _inside(point: tuple[float, float], box: Box) -> bool:
    """Whether an (x, y) point lies in an (x0, y0, x1, y1) box."""
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def _in_photo(points: list[tuple[float, float]], to_photo: NDArray[np.float64]) -> NDArray:
    """Working-image (x, y) points mapped to photo pixels by a 3 x 3 homography."""
    return cv2.perspectiveTransform(np.array([points], dtype=np.float64), to_photo)[0]


def _counts(name: str, seg: Segmentation) -> dict[str, int]:
    """The target's counts for one photo's regions."""
    regions = []
    for r in seg.regions:
        x0, y0, x1, y1 = r.bbox
        c, a, b = _in_photo([r.centroid, (x0, y0), (x1, y1)], seg.to_photo)
        regions.append((tuple(c), (*a, *b)))
    row = dict.fromkeys(KEYS, 0)
    row["regions"] = len(regions)
    for box in BOXES.get(name, []):
        hits = [r for r in regions if _inside(r[0], box)]
        if not hits:
            row["lost"] += 1
        elif len(hits) > 1:
            row["cut"] += len(hits) - 1
        else:
            gx, gy = (box[2] - box[0]) / 4, (box[3] - box[1]) / 4
            x0, y0, x1, y1 = hits[0][1]
            fits = x0 >= box[0] - gx and y0 >= box[1] - gy and x1 <= box[2] + gx
            row["whole" if fits and y1 <= box[3] + gy else "leak"] += 1
    for box in JUNK.get(name, []):
        row["junk"] += sum(_inside(r[0], box) for r in regions)
    return row


S = ReaderSettings()
DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "paper-photos"
folder = sys.argv[1] if len(sys.argv) > 1 else str(DEFAULT)
photos = sorted(glob.glob(folder + "/*.jpg"))
if not photos:
    sys.exit(f"{folder}: no .jpg photos there (the paper photos of ../shared/data)")
total = dict.fromkeys(KEYS, 0)
for f in photos:
    im, ps = load_image(f, min_long_side=int(S.working_long_side * S.decode_oversampling))
    row = _counts(Path(f).stem, segment(im, photo_size=ps, settings=S))
    for k in KEYS:
        total[k] += row[k]
    print(f"{Path(f).stem:17s} " + "  ".join(f"{k} {row[k]:3d}" for k in KEYS))
print(f"{'total':17s} " + "  ".join(f"{k} {total[k]:3d}" for k in KEYS))
