"""Measure the marks reader on held-out crops and on the real sudoku photos.

Usage::

    python scripts/eval_marks.py crops --n 4000 [--model models/marks_ctc.onnx] [--tesseract 300]
    python scripts/eval_marks.py sudoku [--model ...]

``crops``: synthetic clusters from :mod:`marks_data` with seeds 900_000 + i (never used by
training, whose seeds are below 100_000), read exactly as at read time (``to_input`` ->
network -> vocabulary). Prints per-kind accuracy of the text, and precision/recall of
underline and cross-out.

``sudoku``: the 24 real photos of ../shared/data/sudoku-photos. The grid is rectified from
the corner metadata, each cell becomes a region of a hand-made Segmentation (its inner part,
away from the printed grid lines, is the writing), and :func:`read_marks` reads it; digit
cells must be read as their digit, blank cells as unoccupied, cells labelled 10 skipped.
This measures the marks stage alone on real paper, light and pencil.
"""

from __future__ import annotations

import argparse
import csv
import time
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import marks_data as md
import numpy as np

from aggression_vision.vision import digits
from aggression_vision.vision.marks import best_readings, read_marks
from aggression_vision.vision.types import Region, Segmentation

SUDOKU = md.SHARED / "data" / "sudoku-photos"


def eval_crops(args) -> None:
    net = digits.MarkNet(args.model)
    samples = []
    for i in range(args.n // 500):
        samples += md.make_batch(900_000 + i, 500)
    x = np.stack([s.x for s in samples])
    t = time.time()
    out = net.run(x)
    texts, probs = best_readings(out.logprobs)
    dt = time.time() - t
    right = defaultdict(list)
    for s, txt in zip(samples, texts, strict=True):
        ok = txt == s.text
        right[s.kind].append(ok)
        if s.crossed:
            right["crossed (all)"].append(ok)
            right[f"crossed: {s.cross_kind}"].append(ok)
        if s.touching:
            right["touching (all)"].append(ok)
        if s.text.isdigit():
            right["numbers (all)"].append(ok)
    print(f"{len(samples)} held-out crops, network + vocabulary in {dt * 1000:.0f} ms")
    print("| kind | n | text right |")
    print("|---|---|---|")
    for k in sorted(right):
        v = right[k]
        print(f"| {k} | {len(v)} | {100 * np.mean(v):.1f}% |")
    for name, truth, p in (
        ("underline", [s.underlined for s in samples], out.underlined),
        ("cross-out", [s.crossed for s in samples], out.crossed),
    ):
        truth = np.array(truth)
        pred = p > 0.5
        tp = int(np.sum(pred & truth))
        prec = tp / max(1, int(pred.sum()))
        rec = tp / max(1, int(truth.sum()))
        fa = float(np.mean(pred[~truth])) if np.any(~truth) else 0.0
        print(
            f"{name}: precision {100 * prec:.2f}%, recall {100 * rec:.2f}%, "
            f"false alarms {100 * fa:.2f}% (n={len(truth)}, positives={int(truth.sum())})"
        )
    conf = np.array(probs)
    ok = np.array([t == s.text for s, t in zip(samples, texts, strict=True)])
    for thr in (0.5, 0.8, 0.95):
        keep = conf >= thr
        kept = 100 * keep.mean()
        right = 100 * ok[keep].mean() if keep.any() else float("nan")
        print(f"confidence >= {thr}: keeps {kept:.1f}%, {right:.2f}% right")
    errs = Counter((s.text, t) for s, t in zip(samples, texts, strict=True) if s.text != t)
    print("most common errors (truth -> read):", errs.most_common(15))
    if args.tesseract:
        from aggression_vision.vision import ocr

        sub = samples[: args.tesseract]
        res = defaultdict(list)
        for s in sub:
            res[s.kind].append(ocr.read_text(s.x) == s.text)
        print(f"tesseract psm 7 on the first {len(sub)} crops:")
        for k in sorted(res):
            print(f"| {k} | {len(res[k])} | {100 * np.mean(res[k]):.1f}% |")


def sudoku_segmentation(image: np.ndarray, corners: np.ndarray, cell: int = 48) -> Segmentation:
    """A hand-made Segmentation of a sudoku grid: 81 square regions, inner ink as writing."""
    size = 9 * cell
    dst = np.array([[0, 0], [0, size], [size, size], [size, 0]], np.float32)
    m = cv2.getPerspectiveTransform(corners.astype(np.float32), dst)
    warped = cv2.warpPerspective(image, m, (size, size), flags=cv2.INTER_AREA)
    gray = cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY)
    # Paper brightness: a closing wider than any stroke keeps shadow edges sharp.
    paper = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, np.ones((15, 15), np.uint8))
    dark = (paper.astype(np.float32) - gray) / np.maximum(paper, 1)
    ink = dark > 0.18
    labels = np.zeros((size, size), np.int32)
    inner = np.zeros((size, size), bool)
    regions = []
    m_in = int(cell * 0.12)
    for r in range(9):
        for c in range(9):
            k = r * 9 + c + 1
            y0, x0 = r * cell, c * cell
            labels[y0 + 3 : y0 + cell - 3, x0 + 3 : x0 + cell - 3] = k
            inner[y0 + m_in : y0 + cell - m_in, x0 + m_in : x0 + cell - m_in] = True
            regions.append(
                Region(
                    k,
                    [],
                    float(cell * cell),
                    (x0 + cell / 2, y0 + cell / 2),
                    (x0, y0, x0 + cell, y0 + cell),
                )
            )
    writing = ink & inner
    return Segmentation(
        image=warped,
        gray=gray,
        ink=ink,
        borders=ink & ~inner,
        writing=writing,
        labels=labels,
        regions=regions,
        adjacency=[],
        line_width=2.0,
        to_photo=np.linalg.inv(m),
        photo_size=(size, size),
    )


def eval_sudoku(args) -> None:
    if args.model:
        digits.load_net.cache_clear()
        digits.MODEL_PATH = Path(args.model)
    with open(SUDOKU / "metadata.csv") as f:
        rows = list(csv.DictReader(f))[: args.limit or None]
    tot = Counter()
    per_photo = []
    times = []
    cpu = []
    for row in rows:
        img = cv2.imread(str(SUDOKU / "images" / row["Name"]))
        if img.shape[1] != int(row["Width"]) or img.shape[0] != int(row["Height"]):
            print("size mismatch", row["Name"])
            continue
        corners = np.array(
            [
                [float(row["x_topleft_absolute"]), float(row["y_topleft_absolute"])],
                [float(row["x_bottomleft_absolute"]), float(row["y_bottomleft_absolute"])],
                [float(row["x_bottomright_absolute"]), float(row["y_bottomright_absolute"])],
                [float(row["x_topright_absolute"]), float(row["y_topright_absolute"])],
            ]
        )
        truth = np.loadtxt(SUDOKU / "labels" / (Path(row["Name"]).stem + ".txt"), dtype=int)
        seg = sudoku_segmentation(img, corners)
        t, c = time.time(), time.process_time()
        marks = read_marks(seg, backend=args.backend)
        times.append(time.time() - t)
        cpu.append(time.process_time() - c)
        ok = Counter()
        errors = []
        for r in range(9):
            for c in range(9):
                want = int(truth[r, c])
                if want == 10:
                    continue
                got = marks[r * 9 + c + 1].armies
                kind = "digit" if want else "blank"
                good = got == (want or None)
                ok[kind, good] += 1
                if not good:
                    errors.append((r, c, want, got))
        tot.update(ok)
        per_photo.append((row["Name"], ok, errors))
        d = ok["digit", True] / max(1, ok["digit", True] + ok["digit", False])
        b = ok["blank", True] / max(1, ok["blank", True] + ok["blank", False])
        print(f"{row['Name']}: digits {100 * d:.1f}%, blanks {100 * b:.1f}%  errors {errors[:8]}")
    d = tot["digit", True] / max(1, tot["digit", True] + tot["digit", False])
    b = tot["blank", True] / max(1, tot["blank", True] + tot["blank", False])
    print(
        f"TOTAL {len(per_photo)} photos: digit cells right {100 * d:.2f}% "
        f"({tot['digit', True]}/{tot['digit', True] + tot['digit', False]}), blanks unoccupied "
        f"{100 * b:.2f}% ({tot['blank', True]}/{tot['blank', True] + tot['blank', False]}); "
        f"read_marks median {1000 * np.median(times):.0f} ms wall, "
        f"{1000 * np.median(cpu):.0f} ms CPU per 81-cell grid"
    )


def main() -> None:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("crops")
    c.add_argument("--n", type=int, default=4000)
    c.add_argument("--model", default=None)
    c.add_argument("--tesseract", type=int, default=0)
    s = sub.add_parser("sudoku")
    s.add_argument("--model", default=None)
    s.add_argument("--backend", default="cnn")
    s.add_argument("--limit", type=int, default=0, help="only the first N photos")
    args = p.parse_args()
    if args.cmd == "crops":
        eval_crops(args)
    else:
        eval_sudoku(args)


if __name__ == "__main__":
    main()
