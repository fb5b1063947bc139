"""Training crops cut from synthetic PHOTOS by the reader's own region stage.

The crops of ``scripts/marks_data.py`` are drawn directly; the reader at run time sees
clusters cut out of a photographed page (perspective, blur, JPEG, pen texture, grid
residue, border fragments, its own grouping). This script renders synthetic photos with
the training split of hands (``font_split="train"``, ``mnist_split="train"``: none of the
benchmark's held-out fonts, MNIST 0-7999 only), runs the region stage and the marks
stage's clustering on them, turns each page upright by the true writing angle, and labels
every cluster from the ground truth:

- a cluster that holds one country's whole number (with its marks) and nothing else:
  that number, underlined when the owner is ``first``, crossed when conquered;
- one that holds one whole letter: that letter;
- one that touches no writing at all: no text (border fragments, specks, grid residue);
- anything else (part of a number, a number and its letter together, two countries'
  writing): left out.

Seeds: photos ``seed * 1000 + i`` (use seeds 2..999: below 1000 is the tuning range,
the benchmark's held-out photos start at 1,000,000; this script never reads those).

Usage::

    python scripts/photo_crops.py --seed 5 --count 400 --out /tmp/photo_crops_s5.npz

The output has the format of ``train_digits.py``'s cache (``--extra FILE``).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from aggression_vision.bench.accuracy import writing_angle
from aggression_vision.synth.generate import generate_sample
from aggression_vision.synth.params import SynthParams
from aggression_vision.vision import marks as mk
from aggression_vision.vision.digits import to_input
from aggression_vision.vision.load import load_image
from aggression_vision.vision.regions import segment
from aggression_vision.vision.settings import ReaderSettings


def _box(quad: np.ndarray) -> tuple[float, float, float, float]:
    return (
        float(quad[:, 0].min()),
        float(quad[:, 1].min()),
        float(quad[:, 0].max()),
        float(quad[:, 1].max()),
    )


def _inter(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(0.0, w) * max(0.0, h)


def _area(a: tuple[float, ...]) -> float:
    return max(0.0, a[2] - a[0]) * max(0.0, a[3] - a[1])


def photo_crops(seed: int) -> tuple[list[np.ndarray], list[str], list[tuple[float, float]]]:
    """Labelled crops of one synthetic photo (see the module docstring)."""
    params = SynthParams(font_split="train", mnist_split="train")
    sample = generate_sample(seed, params)
    doc = sample.document
    settings = ReaderSettings()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "p.jpg"
        cv2.imwrite(str(path), sample.image, [cv2.IMWRITE_JPEG_QUALITY, sample.jpeg_quality])
        image, photo_size = load_image(
            path,
            max_pixels=settings.max_pixels,
            min_long_side=int(settings.working_long_side * settings.decode_oversampling),
        )
    try:
        seg = segment(image, settings=settings, photo_size=photo_size)
    except Exception:  # noqa: BLE001 - a photo the region stage cannot read gives no crops
        return [], [], []
    to_work = np.linalg.inv(np.asarray(seg.to_photo, float))
    quads: list[tuple[str, np.ndarray, str, bool, bool]] = []
    for c in doc["countries"]:
        w = doc["synth"]["writing"].get(c["id"], {})
        for kind, pts in w.items():
            q = cv2.perspectiveTransform(np.asarray(pts, float).reshape(-1, 1, 2), to_work)
            text = str(c["armies"]) if kind == "number" else str(c["label"])
            under = kind == "number" and c["owner"] == "first"
            crossed = kind == "number" and bool(c["conquered"])
            quads.append((kind, q.reshape(-1, 2), text, under, crossed))
    if not quads:
        return [], [], []
    # The true upright angle: minus the direction of the writing's baselines.
    angle = writing_angle(q for _, q, *_ in quads)
    assert angle is not None  # (quads is not empty)
    turned = mk.rotate_segmentation(seg, angle)
    turn = np.vstack([mk.turn_matrix(seg.gray.shape, angle)[0], [0.0, 0.0, 1.0]])
    boxes = [_box((np.c_[q, np.ones(len(q))] @ turn.T)[:, :2]) for _, q, *_ in quads]
    clusters, crops = mk.extract_clusters(turned)
    xs: list[np.ndarray] = []
    texts: list[str] = []
    marks: list[tuple[float, float]] = []
    for cl, crop in zip(clusters, crops, strict=True):
        cb = tuple(float(v) for v in cl.bbox)
        touching = [i for i, b in enumerate(boxes) if _inter(cb, b) > 0]
        if not touching:
            label, under, crossed = "", False, False
        elif len(touching) == 1:
            i = touching[0]
            kind, _, text, under, crossed = quads[i]
            inter = _inter(cb, boxes[i])
            # The whole piece of writing, and not much else.
            if inter < 0.8 * _area(boxes[i]) or inter < 0.6 * _area(cb):
                continue
            label = text
        else:
            continue
        xs.append((to_input(crop) * 255).round().astype(np.uint8))
        texts.append(label)
        marks.append((float(under), float(crossed)))
    # Pages leave many stray blobs; keep at most half as many of them as texts.
    none = [i for i, t in enumerate(texts) if not t]
    n_text = len(texts) - len(none)
    rng = np.random.default_rng(seed)
    drop = set(rng.permutation(none)[max(2, n_text // 2) :].tolist())
    keep = [i for i in range(len(texts)) if i not in drop]
    return [xs[i] for i in keep], [texts[i] for i in keep], [marks[i] for i in keep]


def _job(seed: int) -> tuple[list[np.ndarray], list[str], list[tuple[float, float]]]:
    return photo_crops(seed)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=5, help="photos seed*1000 .. seed*1000+count-1")
    p.add_argument("--count", type=int, default=400)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", required=True)
    args = p.parse_args()
    if not 2 <= args.seed <= 999:
        p.error("--seed must be 2..999 (tuning photos are below 1000, held-out from 1,000,000)")
    t0 = time.time()
    seeds = [args.seed * 1000 + i for i in range(args.count)]
    xs: list[np.ndarray] = []
    texts: list[str] = []
    marks: list[tuple[float, float]] = []
    with ProcessPoolExecutor(args.workers) as ex:
        for k, (x, t, m) in enumerate(ex.map(_job, seeds)):
            xs += x
            texts += t
            marks += m
            if k % 20 == 0:
                print(
                    f"{k + 1}/{len(seeds)} photos, {len(xs)} crops, {time.time() - t0:.0f} s",
                    flush=True,
                )
    kinds = ["photo-text" if t else "photo-none" for t in texts]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp.npz")
    np.savez(
        tmp,
        x=np.stack(xs),
        texts=np.array(texts),
        marks=np.array(marks, np.float32),
        kinds=np.array(kinds),
    )
    tmp.replace(out)
    n_none = sum(1 for t in texts if not t)
    print(
        f"wrote {out}: {len(xs)} crops ({n_none} without text) from {len(seeds)} photos "
        f"in {time.time() - t0:.0f} s"
    )


if __name__ == "__main__":
    main()
