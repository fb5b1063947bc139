"""Synthetic handwriting: digits 0-9 and capitals A-Z as ink-coverage images.

Three sources of glyphs, mixed by :func:`random_style`:

``"stroke"``
    A single-stroke skeleton font defined in this module (several variants per
    character: a 1 with or without flag and base, a 7 with or without a bar,
    an open or closed 4 ...). Each stroke is resampled, jittered point by point
    and drawn with a random pen width, so no two renderings are identical.
    OpenCV 5 replaced its Hershey stroke fonts by an outline font, so the
    Hershey data is no longer reachable through ``cv2.putText``; the skeleton
    font plays that role (``"hershey"`` is accepted as an alias).
``"font"``
    The Debian handwriting fonts (see :func:`handwriting_fonts`) through
    Pillow, with elastic distortion. Skipped when none are installed.
``"mnist"``
    Real handwritten digits from the MNIST test set (see :func:`load_mnist`).
    Indices 0-7999 are reserved for training the reader (split ``"train"``),
    8000-9999 for synthetic benchmark photos (split ``"synth"``).

All geometry here is in pixels of the returned image, x to the right and y
downwards. :func:`render_underline` and :func:`render_crossout` return stroke
polylines relative to a number's box so that the photo generator and the
training augmentation draw the same marks; :func:`rasterize_strokes` turns
them into a coverage mask.
"""

from __future__ import annotations

import gzip
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Literal, TypeAlias

import cv2
import numpy as np
from numpy.typing import NDArray

Box: TypeAlias = tuple[int, int, int, int]
Polyline: TypeAlias = NDArray[np.float64]
Source: TypeAlias = Literal["stroke", "font", "mnist"]
Split: TypeAlias = Literal["all", "train", "synth"]

CHARSET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

#: Characters narrower than this fraction of the height (a "1", an "I") keep at
#: least a pen width of paper from their neighbours (``render_text``).
NARROW_GLYPH = 0.4

# MNIST test-set indices reserved for synthetic photos; the rest train the reader.
MNIST_SYNTH_START = 8000

# Debian handwriting font packages (directory names under /usr/share/fonts).
_FONT_DIRS = (
    "fifthhorseman",
    "humor-sans",
    "breip",
    "bwht",
    "comic-neue",
    "kristi",
    "rufscript",
    "sjfonts",
    "klee",
    "yusei-magic",
    "kaushanscript",
)
_FONT_ROOTS = (Path("/usr/share/fonts/truetype"), Path("/usr/share/fonts/opentype"))


def default_shared_dir() -> Path:
    """The ``shared`` folder next to the repository checkout (may not exist)."""
    return Path(__file__).resolve().parents[2] / ".." / "shared"


# ---------------------------------------------------------------------------
# Style
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HandStyle:
    """How one writer writes.

    Lengths are fractions of the character height so that a style renders
    the same at any size.

    Attributes
    ----------
    source : {"stroke", "font", "mnist"}
        Where the glyph shapes come from (letters fall back to ``"stroke"``
        when the source is ``"mnist"``).
    font_path : str or None
        The TTF/OTF file for ``source="font"``.
    slant : float
        Horizontal shear, tan of the lean angle; positive leans right.
    rotation_deg : float
        Rotation of the whole string, degrees, positive counter-clockwise.
    stroke_width : float
        Pen width for stroke glyphs, fraction of the height; also thickens
        (>0.1) or thins (<0.08) font and MNIST glyphs a little.
    spacing : float
        Gap between the ink of consecutive characters, fraction of the
        height; negative values make digits touch or overlap (by at most a
        third of the narrower; a character narrower than ``NARROW_GLYPH``
        keeps a pen width of paper from its neighbours).
    jitter : float
        Amplitude of the smooth per-point wobble of strokes.
    aspect : float
        Width multiplier of glyphs.
    size_jitter : float
        Relative spread of character heights within a string.
    baseline_jitter : float
        Vertical spread of character positions within a string.
    break_prob : float
        Probability that a character has a gap in one of its strokes.
    elastic : float
        Elastic distortion amplitude (fraction of the height).
    variant_seed : int
        Picks the glyph variants this writer uses (a 1 with a flag, a 7 with
        a bar ...) consistently across strings.
    mnist_split : {"all", "train", "synth"}
        Which MNIST indices this style may draw from.
    """

    source: Source = "stroke"
    font_path: str | None = None
    slant: float = 0.15
    rotation_deg: float = 0.0
    stroke_width: float = 0.1
    spacing: float = 0.15
    jitter: float = 0.015
    aspect: float = 1.0
    size_jitter: float = 0.05
    baseline_jitter: float = 0.03
    break_prob: float = 0.0
    elastic: float = 0.02
    variant_seed: int = 0
    mnist_split: Split = "synth"


def random_style(
    rng: np.random.Generator,
    *,
    sources: Sequence[Source] = ("stroke", "font", "mnist"),
    weights: Sequence[float] | None = None,
    font_split: Split = "all",
    mnist_split: Split = "synth",
    shared_dir: Path | None = None,
) -> HandStyle:
    """Draw a random writer.

    Parameters
    ----------
    rng : numpy.random.Generator
        The only source of randomness.
    sources : sequence of {"stroke", "font", "mnist"}
        Allowed glyph sources; unavailable ones (no fonts installed, no MNIST
        file) are dropped.
    weights : sequence of float, optional
        Relative probabilities of ``sources`` (default: equal).
    font_split : {"all", "train", "synth"}
        Which fonts may be used (see :func:`handwriting_fonts`).
    mnist_split : {"all", "train", "synth"}
        Which MNIST indices may be used.
    shared_dir : Path, optional
        Where to look for ``data/mnist`` (default :func:`default_shared_dir`).

    Returns
    -------
    HandStyle
    """
    fonts = handwriting_fonts(font_split)
    available: list[Source] = []
    w: list[float] = []
    weights = list(weights) if weights is not None else [1.0] * len(sources)
    for src, wt in zip(sources, weights, strict=True):
        if src == "font" and not fonts:
            continue
        if src == "mnist" and load_mnist_cached(shared_dir) is None:
            continue
        available.append(src)
        w.append(wt)
    if not available:
        available, w = ["stroke"], [1.0]
    p = np.asarray(w, dtype=float) / float(np.sum(w))
    source = available[int(rng.choice(len(available), p=p))]
    font_path = str(fonts[int(rng.integers(len(fonts)))]) if source == "font" else None
    return HandStyle(
        source=source,
        font_path=font_path,
        slant=float(rng.uniform(-0.12, 0.45)),
        rotation_deg=float(rng.normal(0.0, 3.0)),
        stroke_width=float(rng.uniform(0.06, 0.16)),
        spacing=float(rng.choice([rng.uniform(-0.12, 0.0), rng.uniform(0.0, 0.4)], p=[0.2, 0.8])),
        jitter=float(rng.uniform(0.0, 0.035)),
        aspect=float(rng.uniform(0.75, 1.25)),
        size_jitter=float(rng.uniform(0.0, 0.12)),
        baseline_jitter=float(rng.uniform(0.0, 0.07)),
        break_prob=float(rng.choice([0.0, rng.uniform(0.1, 0.4)], p=[0.7, 0.3])),
        elastic=float(rng.uniform(0.0, 0.05)),
        variant_seed=int(rng.integers(2**31)),
        mnist_split=mnist_split,
    )


# ---------------------------------------------------------------------------
# Glyph sources
# ---------------------------------------------------------------------------


def handwriting_fonts(split: Split = "all") -> list[Path]:
    """The installed Debian handwriting fonts, sorted by path.

    Parameters
    ----------
    split : {"all", "train", "synth"}
        ``"synth"`` is every fourth font (sorted order, indices 3, 7, ...),
        kept unseen by the reader's training; ``"train"`` is the rest.

    Returns
    -------
    list of Path
        Empty when none are installed.
    """
    found: list[Path] = []
    for root in _FONT_ROOTS:
        for name in _FONT_DIRS:
            folder = root / name
            if folder.is_dir():
                found.extend(p for p in folder.iterdir() if p.suffix.lower() in (".ttf", ".otf"))
    found.sort()
    if split == "all":
        return found
    held = [p for i, p in enumerate(found) if i % 4 == 3]
    return held if split == "synth" else [p for p in found if p not in held]


def load_mnist(shared_dir: Path) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """Load the MNIST test set from ``shared_dir/data/mnist``.

    Parameters
    ----------
    shared_dir : Path
        The shared folder (holding ``data/mnist/t10k-*-ubyte.gz``).

    Returns
    -------
    images : ndarray of uint8, shape (10000, 28, 28)
        White digit (255) on black (0).
    labels : ndarray of uint8, shape (10000,)

    Raises
    ------
    FileNotFoundError
        When the files are missing.
    ValueError
        When a file is not in IDX format.
    """
    folder = Path(shared_dir) / "data" / "mnist"
    with gzip.open(folder / "t10k-images-idx3-ubyte.gz", "rb") as f:
        raw = f.read()
    magic, count, rows, cols = (int.from_bytes(raw[i : i + 4], "big") for i in range(0, 16, 4))
    if magic != 2051:
        raise ValueError(f"{folder}: images file has magic {magic}, expected 2051")
    images = np.frombuffer(raw, np.uint8, count * rows * cols, 16).reshape(count, rows, cols)
    with gzip.open(folder / "t10k-labels-idx1-ubyte.gz", "rb") as f:
        raw = f.read()
    magic, n = (int.from_bytes(raw[i : i + 4], "big") for i in range(0, 8, 4))
    if magic != 2049 or n != count:
        raise ValueError(f"{folder}: labels file has magic {magic} and {n} labels")
    labels = np.frombuffer(raw, np.uint8, n, 8)
    return images, labels


def mnist_indices(labels: NDArray[np.uint8], split: Split) -> NDArray[np.int64]:
    """Indices of the MNIST test set belonging to a split.

    ``"train"`` is 0-7999 (for training the reader), ``"synth"`` is 8000-9999
    (for synthetic benchmark photos only), ``"all"`` is everything.
    """
    idx = np.arange(len(labels))
    if split == "train":
        return idx[idx < MNIST_SYNTH_START]
    if split == "synth":
        return idx[idx >= MNIST_SYNTH_START]
    return idx


@lru_cache(maxsize=4)
def _mnist_cached(shared_dir: str) -> tuple[NDArray[np.uint8], NDArray[np.uint8]] | None:
    try:
        return load_mnist(Path(shared_dir))
    except (OSError, ValueError):
        return None


def load_mnist_cached(
    shared_dir: Path | None = None,
) -> tuple[NDArray[np.uint8], NDArray[np.uint8]] | None:
    """:func:`load_mnist`, cached, returning None when the data is absent."""
    return _mnist_cached(str(shared_dir or default_shared_dir()))


def missing_hands(shared_dir: Path | None = None) -> list[str]:
    """What the generator's hands lack on this machine, one line each (empty: nothing).

    Without MNIST (``shared_dir/data/mnist``, by default ``../shared`` beside the checkout)
    or the Debian handwriting fonts, the same seeds give other photos than where they are
    present: sets generated on two machines then differ.
    """
    lines = []
    if load_mnist_cached(shared_dir) is None:
        folder = Path(shared_dir or default_shared_dir()).resolve() / "data" / "mnist"
        lines.append(f"no MNIST digits in {folder}: drawn without them")
    if not handwriting_fonts():
        lines.append("no Debian handwriting fonts installed: drawn without them")
    return lines


def _arc(
    cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int = 14
) -> list[tuple[float, float]]:
    """Points of an elliptic arc; angles in degrees, y down (90 = bottom)."""
    t = np.radians(np.linspace(a0, a1, n))
    return [(cx + rx * math.cos(a), cy + ry * math.sin(a)) for a in t]


_P = list[tuple[float, float]]


def _glyphs() -> dict[str, list[list[_P]]]:
    """Skeleton glyphs: char -> variants -> strokes -> points in a unit-high box."""
    g: dict[str, list[list[_P]]] = {}
    g["0"] = [[_arc(0.3, 0.5, 0.28, 0.5, -95, 270)], [_arc(0.3, 0.5, 0.3, 0.5, -80, 285)]]
    g["1"] = [
        [[(0.3, 0.0), (0.3, 1.0)]],
        [[(0.08, 0.22), (0.32, 0.0), (0.32, 1.0)]],
        [[(0.08, 0.22), (0.32, 0.0), (0.32, 1.0)], [(0.1, 1.0), (0.55, 1.0)]],
    ]
    g["2"] = [
        [_arc(0.3, 0.27, 0.27, 0.27, 195, 385) + [(0.02, 1.0), (0.62, 1.0)]],
        [_arc(0.3, 0.27, 0.27, 0.27, 200, 370) + [(0.1, 0.8), (0.02, 1.0), (0.62, 0.98)]],
    ]
    g["3"] = [
        [_arc(0.28, 0.26, 0.26, 0.24, 200, 450) + _arc(0.28, 0.74, 0.3, 0.26, 270, 520)],
        [[(0.03, 0.0), (0.55, 0.0), (0.25, 0.42)] + _arc(0.28, 0.72, 0.3, 0.28, 250, 510)],
    ]
    g["4"] = [
        [[(0.45, 1.0), (0.45, 0.0), (0.0, 0.68), (0.62, 0.68)]],
        [[(0.12, 0.0), (0.03, 0.62), (0.62, 0.62)], [(0.47, 0.3), (0.47, 1.0)]],
    ]
    g["5"] = [
        [[(0.55, 0.0), (0.1, 0.0), (0.06, 0.45)] + _arc(0.3, 0.7, 0.28, 0.3, 215, 500)],
        [
            [(0.1, 0.0), (0.06, 0.45)] + _arc(0.3, 0.7, 0.28, 0.3, 215, 500),
            [(0.1, 0.0), (0.58, 0.0)],
        ],
    ]
    g["6"] = [
        [[(0.52, 0.0), (0.3, 0.12), (0.12, 0.36)] + _arc(0.31, 0.72, 0.28, 0.28, 200, 545)],
        [_arc(0.62, 0.7, 0.58, 0.7, 250, 180) + _arc(0.32, 0.72, 0.28, 0.28, 180, 530)],
    ]
    g["7"] = [
        [[(0.02, 0.0), (0.62, 0.0), (0.22, 1.0)]],
        [[(0.02, 0.0), (0.62, 0.0), (0.22, 1.0)], [(0.15, 0.52), (0.55, 0.5)]],
        [[(0.02, 0.12), (0.05, 0.0), (0.62, 0.0), (0.3, 1.0)]],
    ]
    g["8"] = [
        [_arc(0.3, 0.25, 0.22, 0.25, 0, 360), _arc(0.3, 0.74, 0.28, 0.26, -90, 270)],
        [_arc(0.3, 0.25, 0.22, 0.25, 90, -180) + _arc(0.3, 0.73, 0.28, 0.27, 270, 630)],
    ]
    g["9"] = [
        [_arc(0.3, 0.28, 0.27, 0.28, 0, 360) + [(0.57, 0.28), (0.52, 1.0)]],
        [_arc(0.3, 0.28, 0.27, 0.28, 10, 370) + _arc(0.28, 0.5, 0.3, 0.5, 0, 110)],
    ]
    g["A"] = [[[(0.0, 1.0), (0.33, 0.0), (0.66, 1.0)], [(0.14, 0.62), (0.52, 0.62)]]]
    g["B"] = [
        [
            [(0.06, 0.0), (0.06, 1.0)],
            [(0.06, 0.0), (0.33, 0.0)]
            + _arc(0.33, 0.25, 0.22, 0.25, -90, 90)
            + [(0.06, 0.5), (0.36, 0.5)]
            + _arc(0.36, 0.75, 0.25, 0.25, -90, 90)
            + [(0.06, 1.0)],
        ]
    ]
    g["C"] = [[_arc(0.34, 0.5, 0.32, 0.5, -40, -320)]]
    g["D"] = [
        [
            [(0.06, 0.0), (0.06, 1.0)],
            [(0.06, 0.0), (0.24, 0.0)] + _arc(0.24, 0.5, 0.38, 0.5, -90, 90) + [(0.06, 1.0)],
        ]
    ]
    g["E"] = [[[(0.58, 0.0), (0.06, 0.0), (0.06, 1.0), (0.58, 1.0)], [(0.06, 0.5), (0.46, 0.5)]]]
    g["F"] = [[[(0.58, 0.0), (0.06, 0.0), (0.06, 1.0)], [(0.06, 0.48), (0.46, 0.48)]]]
    g["G"] = [[_arc(0.35, 0.5, 0.33, 0.5, -40, -360) + [(0.68, 0.8)], [(0.68, 0.52), (0.38, 0.52)]]]
    g["H"] = [[[(0.06, 0.0), (0.06, 1.0)], [(0.58, 0.0), (0.58, 1.0)], [(0.06, 0.5), (0.58, 0.5)]]]
    g["I"] = [
        [[(0.3, 0.0), (0.3, 1.0)]],
        [[(0.3, 0.0), (0.3, 1.0)], [(0.08, 0.0), (0.52, 0.0)], [(0.08, 1.0), (0.52, 1.0)]],
    ]
    g["J"] = [[[(0.55, 0.0), (0.55, 0.72)] + _arc(0.32, 0.72, 0.23, 0.28, 0, 180)]]
    g["K"] = [[[(0.06, 0.0), (0.06, 1.0)], [(0.58, 0.0), (0.06, 0.58)], [(0.22, 0.44), (0.6, 1.0)]]]
    g["L"] = [[[(0.06, 0.0), (0.06, 1.0), (0.55, 1.0)]]]
    g["M"] = [[[(0.0, 1.0), (0.08, 0.0), (0.36, 0.62), (0.64, 0.0), (0.72, 1.0)]]]
    g["N"] = [[[(0.06, 1.0), (0.06, 0.0), (0.58, 1.0), (0.58, 0.0)]]]
    g["O"] = [[_arc(0.34, 0.5, 0.33, 0.5, -95, 270)]]
    g["P"] = [
        [
            [(0.06, 1.0), (0.06, 0.0), (0.3, 0.0)]
            + _arc(0.3, 0.26, 0.26, 0.26, -90, 90)
            + [(0.06, 0.52)]
        ]
    ]
    g["Q"] = [[_arc(0.34, 0.5, 0.33, 0.5, -95, 270), [(0.4, 0.7), (0.72, 1.02)]]]
    g["R"] = [
        [
            [(0.06, 1.0), (0.06, 0.0), (0.3, 0.0)]
            + _arc(0.3, 0.26, 0.26, 0.26, -90, 90)
            + [(0.06, 0.52)],
            [(0.26, 0.52), (0.6, 1.0)],
        ]
    ]
    g["S"] = [[_arc(0.31, 0.25, 0.27, 0.25, -15, -270) + _arc(0.31, 0.75, 0.29, 0.25, -90, 165)]]
    g["T"] = [[[(0.0, 0.0), (0.64, 0.0)], [(0.32, 0.0), (0.32, 1.0)]]]
    g["U"] = [[[(0.06, 0.0), (0.06, 0.68)] + _arc(0.32, 0.68, 0.26, 0.32, 180, 0) + [(0.58, 0.0)]]]
    g["V"] = [[[(0.0, 0.0), (0.32, 1.0), (0.64, 0.0)]]]
    g["W"] = [[[(0.0, 0.0), (0.18, 1.0), (0.37, 0.3), (0.56, 1.0), (0.74, 0.0)]]]
    g["X"] = [[[(0.02, 0.0), (0.6, 1.0)], [(0.6, 0.0), (0.02, 1.0)]]]
    g["Y"] = [[[(0.0, 0.0), (0.32, 0.5), (0.64, 0.0)], [(0.32, 0.5), (0.32, 1.0)]]]
    g["Z"] = [[[(0.02, 0.0), (0.6, 0.0), (0.02, 1.0), (0.62, 1.0)]]]
    return g


_GLYPHS = _glyphs()


def _resample(points: NDArray[np.float64], step: float) -> NDArray[np.float64]:
    """Resample a polyline at roughly even arc-length ``step``."""
    seg = np.linalg.norm(np.diff(points, axis=0), axis=1)
    s = np.concatenate([[0.0], np.cumsum(seg)])
    if s[-1] <= 0:
        return points
    n = max(2, int(math.ceil(s[-1] / step)) + 1)
    t = np.linspace(0.0, s[-1], n)
    return np.stack([np.interp(t, s, points[:, 0]), np.interp(t, s, points[:, 1])], axis=1)


def _smooth_noise(n: int, rng: np.random.Generator, corr: int) -> NDArray[np.float64]:
    """``n`` values of unit-scale noise correlated over about ``corr`` samples."""
    raw = rng.normal(size=n + 2 * corr)
    kernel = np.hanning(2 * corr + 1)
    kernel /= np.sqrt(np.sum(kernel**2))
    return np.convolve(raw, kernel, mode="valid")[:n]


def jitter_polyline(
    points: NDArray[np.float64], rng: np.random.Generator, *, amplitude: float, step: float
) -> NDArray[np.float64]:
    """Resample a polyline and add a smooth random wobble (the hand's tremor).

    Parameters
    ----------
    points : ndarray, shape (N, 2)
        (x, y) points.
    rng : numpy.random.Generator
    amplitude : float
        Standard deviation of the displacement, same unit as ``points``.
    step : float
        Resampling distance, same unit as ``points``.
    """
    pts = _resample(np.asarray(points, dtype=float), step)
    if amplitude <= 0:
        return pts
    corr = max(2, len(pts) // 6)
    dx = _smooth_noise(len(pts), rng, corr) * amplitude
    dy = _smooth_noise(len(pts), rng, corr) * amplitude
    return pts + np.stack([dx, dy], axis=1)


def _stroke_glyph(
    ch: str, rng: np.random.Generator, style: HandStyle, height: float
) -> tuple[list[NDArray[np.float64]], float]:
    """Jittered stroke polylines of one character, scaled to ``height``; and its width."""
    variants = _GLYPHS[ch]
    pick = np.random.default_rng([style.variant_seed, ord(ch)]).integers(len(variants))
    if rng.random() < 0.15:  # writers are not perfectly consistent
        pick = rng.integers(len(variants))
    strokes = variants[int(pick)]
    sx = height * style.aspect * rng.uniform(0.92, 1.08)
    out = []
    for stroke in strokes:
        pts = np.asarray(stroke, dtype=float) * np.array([sx, height])
        out.append(
            jitter_polyline(pts, rng, amplitude=style.jitter * height, step=max(1.0, 0.03 * height))
        )
    width = max(float(np.max(p[:, 0])) for p in out)
    return out, width


def rasterize_strokes(
    shape: tuple[int, int],
    strokes: Sequence[NDArray[np.float64]],
    width: float,
    *,
    supersample: int = 4,
) -> NDArray[np.float32]:
    """Draw polylines as an anti-aliased coverage mask.

    Parameters
    ----------
    shape : (rows, cols)
        Output shape.
    strokes : sequence of ndarray, shape (N, 2)
        (x, y) polylines in pixel coordinates of the output.
    width : float
        Pen width in output pixels (may be fractional).
    supersample : int
        Sub-pixel precision of the drawing.

    Returns
    -------
    ndarray of float32, shape ``shape``, values 0..1 (1 = ink).
    """
    canvas = np.zeros(shape, np.uint8)
    shift = int(round(math.log2(supersample)))
    scale = 1 << shift
    # cv2 thickness is an integer; draw at a supersampled size to honour fractional widths.
    if width < 2.5:
        big = np.zeros((shape[0] * 4, shape[1] * 4), np.uint8)
        for s in strokes:
            pts = np.round((np.asarray(s) * 4 + 1.5) * scale).astype(np.int32)
            cv2.polylines(big, [pts], False, 255, max(1, int(round(width * 4))), cv2.LINE_AA, shift)
        return (
            cv2.resize(big, (shape[1], shape[0]), interpolation=cv2.INTER_AREA).astype(np.float32)
            / 255.0
        )
    for s in strokes:
        pts = np.round(np.asarray(s) * scale).astype(np.int32)
        cv2.polylines(canvas, [pts], False, 255, int(round(width)), cv2.LINE_AA, shift)
    return canvas.astype(np.float32) / 255.0


def _break_strokes(
    strokes: list[NDArray[np.float64]], rng: np.random.Generator, gap: float
) -> list[NDArray[np.float64]]:
    """Cut a gap of length ``gap`` into one random stroke (a pen that skipped)."""
    i = int(rng.integers(len(strokes)))
    pts = strokes[i]
    seg = np.linalg.norm(np.diff(pts, axis=0), axis=1)
    s = np.concatenate([[0.0], np.cumsum(seg)])
    if s[-1] < 3 * gap:
        return strokes
    start = rng.uniform(gap, s[-1] - 2 * gap)
    a, b = pts[s < start], pts[s > start + gap]
    pieces = [p for p in (a, b) if len(p) >= 2]
    return strokes[:i] + pieces + strokes[i + 1 :]


@lru_cache(maxsize=256)
def _font(path: str, size: int):  # type: ignore[no-untyped-def]
    from PIL import ImageFont

    return ImageFont.truetype(path, size)


def _font_glyph(ch: str, style: HandStyle, height: int) -> NDArray[np.float32] | None:
    """A font glyph scaled to ``height`` rows, or None when the font lacks it."""
    from PIL import Image, ImageDraw

    assert style.font_path is not None
    size = max(8, int(height * 1.6))
    font = _font(style.font_path, size)
    img = Image.new("L", (size * 2, size * 2), 0)
    ImageDraw.Draw(img).text((size // 2, size // 4), ch, fill=255, font=font)
    a = np.asarray(img, dtype=np.float32) / 255.0
    return _crop_scale(a, height, style.aspect)


def _mnist_glyph(
    ch: str, rng: np.random.Generator, style: HandStyle, height: int
) -> NDArray[np.float32] | None:
    data = load_mnist_cached()
    if data is None or not ch.isdigit():
        return None
    images, labels = data
    idx = mnist_indices(labels, style.mnist_split)
    idx = idx[labels[idx] == int(ch)]
    a = images[int(rng.choice(idx))].astype(np.float32) / 255.0
    out = _crop_scale(a, height, style.aspect)
    # MNIST is 20 px tall; upscaled it turns soft, so restore a pen-like edge.
    return None if out is None else np.clip((out - 0.25) * 2.0, 0.0, 1.0)


def _crop_scale(a: NDArray[np.float32], height: int, aspect: float) -> NDArray[np.float32] | None:
    ys, xs = np.nonzero(a > 0.2)
    if len(ys) == 0:
        return None
    a = a[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    h, w = a.shape
    new_w = max(1, int(round(w * height / h * aspect)))
    out = cv2.resize(
        a, (new_w, height), interpolation=cv2.INTER_AREA if h > height else cv2.INTER_LINEAR
    )
    return np.clip(out, 0.0, 1.0)


def elastic_distort(
    image: NDArray[np.float32], rng: np.random.Generator, *, alpha: float, sigma: float
) -> NDArray[np.float32]:
    """Elastic distortion (Simard et al. 2003) of a single-channel image.

    Parameters
    ----------
    image : ndarray of float32, shape (rows, cols)
    rng : numpy.random.Generator
    alpha : float
        Displacement amplitude in pixels.
    sigma : float
        Smoothness of the displacement field in pixels.
    """
    if alpha <= 0:
        return image
    h, w = image.shape
    dx = cv2.GaussianBlur(rng.uniform(-1, 1, (h, w)).astype(np.float32), (0, 0), sigma)
    dy = cv2.GaussianBlur(rng.uniform(-1, 1, (h, w)).astype(np.float32), (0, 0), sigma)
    norm = max(float(np.abs(dx).max()), float(np.abs(dy).max()), 1e-6)
    dx *= alpha / norm
    dy *= alpha / norm
    gx, gy = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    return cv2.remap(image, gx + dx, gy + dy, cv2.INTER_LINEAR, borderValue=0.0)


def _adjust_weight(a: NDArray[np.float32], style: HandStyle, height: int) -> NDArray[np.float32]:
    """Thicken heavy pens a little (raster glyphs come with their own weight)."""
    extra = int(round((style.stroke_width - 0.1) * height * 0.5))
    if extra > 0:
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * extra + 1, 2 * extra + 1))
        a = cv2.dilate(a, k)
    elif extra < 0 and height >= 40:
        a = cv2.erode(a, np.ones((2, 2), np.uint8))
    return a


# ---------------------------------------------------------------------------
# Strings
# ---------------------------------------------------------------------------


def render_text(
    text: str,
    rng: np.random.Generator,
    *,
    height_px: int,
    style: HandStyle | None = None,
    source: str = "auto",
) -> tuple[NDArray[np.float32], list[Box]]:
    """Render a handwritten string of digits 0-9 and capitals A-Z.

    Parameters
    ----------
    text : str
        Characters from ``CHARSET``.
    rng : numpy.random.Generator
        The only source of randomness (the same rng state gives the same image).
    height_px : int
        Character height in output pixels (before slant and rotation).
    style : HandStyle, optional
        The writer; drawn with :func:`random_style` when omitted.
    source : {"auto", "stroke", "hershey", "font", "mnist"}
        Force a glyph source; ``"auto"`` uses the style's. Letters are drawn
        with the stroke font when the source is ``"mnist"``; a missing font
        glyph also falls back to the stroke font.

    Returns
    -------
    image : ndarray of float32, shape (rows, cols)
        Ink coverage 0..1 (1 = ink), cropped to the ink with a small margin.
    boxes : list of (x0, y0, x1, y1)
        One box per character, in ``image`` pixels, x1/y1 exclusive.

    Raises
    ------
    ValueError
        For an empty string, a character outside ``CHARSET`` or a
        non-positive height.
    """
    if not text:
        raise ValueError("render_text: empty text")
    bad = sorted(set(text) - set(CHARSET))
    if bad:
        raise ValueError(f"render_text: unsupported characters {bad!r} in {text!r}")
    if height_px < 1:
        raise ValueError(f"render_text: height_px must be >= 1, got {height_px}")
    if style is None:
        style = random_style(rng)
    if source != "auto":
        src = "stroke" if source == "hershey" else source
        if src not in ("stroke", "font", "mnist"):
            raise ValueError(f"render_text: unknown source {source!r}")
        if src == "font" and style.font_path is None:
            fonts = handwriting_fonts()
            style = replace(
                style, font_path=str(fonts[int(rng.integers(len(fonts)))]) if fonts else None
            )
            src = "font" if style.font_path else "stroke"
        style = replace(style, source=src)  # type: ignore[arg-type]

    # Work supersampled so that thin pens and small sizes stay smooth.
    ss = int(min(4, max(1, math.ceil(48 / height_px))))
    H = height_px * ss

    # Each character as its own raster (coverage), then placed on a common baseline.
    drawn: list[tuple[NDArray[np.float32], int, int, float]] = []  # (raster, ink x0, w, y)
    pen = max(1.0, style.stroke_width * H)
    for ch in text:
        h = max(4, int(round(H * (1 + rng.normal(0, style.size_jitter)))))
        raster: NDArray[np.float32] | None = None
        if style.source == "font" and style.font_path:
            raster = _font_glyph(ch, style, h)
        elif style.source == "mnist":
            raster = _mnist_glyph(ch, rng, style, h)
        if raster is not None:
            raster = _adjust_weight(raster, style, h)
            pad = int(math.ceil(style.elastic * h)) + 2
            raster = np.pad(raster, pad)
            raster = elastic_distort(raster, rng, alpha=style.elastic * h, sigma=0.18 * h)
            if style.break_prob and rng.random() < style.break_prob:
                raster = _erase_gap(raster, rng, gap=max(2.0, 0.12 * h), pen=max(2.0, 0.15 * h))
            off = pad
        else:
            strokes, _w = _stroke_glyph(ch, rng, style, h)
            if style.break_prob and rng.random() < style.break_prob:
                strokes = _break_strokes(strokes, rng, gap=max(1.5 * pen, 0.1 * h))
            off = int(math.ceil(pen + style.jitter * h * 3)) + 2
            allpts = np.concatenate(strokes)
            lo = allpts.min(axis=0)
            strokes = [s - lo + off for s in strokes]
            size = (allpts.max(axis=0) - lo + 2 * off + 1).astype(int)
            raster = rasterize_strokes((int(size[1]), int(size[0])), strokes, pen)
        ys, xs = np.nonzero(raster > 0.25)
        if len(xs) == 0:
            continue
        x0_ink, x1_ink = int(xs.min()), int(xs.max())
        y_top = (-off) + rng.normal(0, style.baseline_jitter) * H + (H - h)
        drawn.append((raster, x0_ink, x1_ink - x0_ink + 1, y_top))
    chars: list[tuple[NDArray[np.float32], float, float]] = []  # (raster, x, y) top-left
    x = 0.0
    for i, (raster, x0_ink, ink_w, y_top) in enumerate(drawn):
        chars.append((raster, x - x0_ink, y_top))
        if i + 1 < len(drawn):
            narrower = min(ink_w, drawn[i + 1][2])
            # Touching characters overlap a little, never more than a third of
            # the narrower one.
            gap = max(style.spacing * H, -0.3 * min(narrower, 0.5 * H))
            if narrower < NARROW_GLYPH * H:
                # A "1" is barely wider than the pen: touching a neighbour's
                # stroke it would only thicken it, and the number would show
                # one digit fewer. People leave it apart.
                gap = max(gap, pen)
            x += ink_w + gap

    # Slant and rotation of the whole string, applied to each character so
    # that every character keeps its own box.
    theta = math.radians(style.rotation_deg)
    c, s = math.cos(theta), math.sin(theta)
    # x' = x - slant * y leans the tops of the characters to the right (y is down).
    linear = np.array([[c, s], [-s, c]]) @ np.array([[1.0, -style.slant], [0.0, 1.0]])
    affine = np.concatenate([linear, np.zeros((2, 1))], axis=1)

    corners = []
    for raster, cx, cy in chars:
        h, w = raster.shape
        quad = np.array([[cx, cy], [cx + w, cy], [cx, cy + h], [cx + w, cy + h]])
        corners.append(quad @ affine[:, :2].T + affine[:, 2])
    allc = np.concatenate(corners)
    lo = np.floor(allc.min(axis=0)) - 2
    hi = np.ceil(allc.max(axis=0)) + 2
    out_w, out_h = int(hi[0] - lo[0]), int(hi[1] - lo[1])
    image = np.zeros((out_h, out_w), np.float32)
    char_masks = []
    for raster, cx, cy in chars:
        m = affine.copy()
        m[:, 2] = affine[:, :2] @ np.array([cx, cy]) + affine[:, 2] - lo
        warped = cv2.warpAffine(raster, m, (out_w, out_h), flags=cv2.INTER_LINEAR, borderValue=0.0)
        char_masks.append(warped)
        np.maximum(image, warped, out=image)

    # Back to the requested size.
    if ss > 1:
        fw, fh = max(1, round(out_w / ss)), max(1, round(out_h / ss))
        image = cv2.resize(image, (fw, fh), interpolation=cv2.INTER_AREA)
        char_masks = [cv2.resize(m, (fw, fh), interpolation=cv2.INTER_AREA) for m in char_masks]
    ys, xs = np.nonzero(image > 0.1)
    margin = max(1, height_px // 10)
    y0 = max(0, int(ys.min()) - margin)
    x0 = max(0, int(xs.min()) - margin)
    y1 = min(image.shape[0], int(ys.max()) + 1 + margin)
    x1 = min(image.shape[1], int(xs.max()) + 1 + margin)
    image = np.clip(image[y0:y1, x0:x1], 0.0, 1.0)
    boxes: list[Box] = []
    for m in char_masks:
        m = m[y0:y1, x0:x1]
        cy_, cx_ = np.nonzero(m > 0.25)
        if len(cx_) == 0:
            cy_, cx_ = np.nonzero(m > 0.0)
        boxes.append((int(cx_.min()), int(cy_.min()), int(cx_.max()) + 1, int(cy_.max()) + 1))
    return image, boxes


def _erase_gap(
    raster: NDArray[np.float32], rng: np.random.Generator, *, gap: float, pen: float
) -> NDArray[np.float32]:
    """Erase a short band across a raster glyph's stroke (a skipping pen)."""
    ys, xs = np.nonzero(raster > 0.5)
    if len(xs) == 0:
        return raster
    i = int(rng.integers(len(xs)))
    ang = rng.uniform(0, math.pi)
    d = np.array([math.cos(ang), math.sin(ang)]) * pen * 1.5
    p = np.array([xs[i], ys[i]], dtype=float)
    mask = rasterize_strokes(raster.shape, [np.stack([p - d, p + d])], gap)  # type: ignore[arg-type]
    return raster * (1.0 - mask)


# ---------------------------------------------------------------------------
# Underlines and cross-outs
# ---------------------------------------------------------------------------

UnderlineKind: TypeAlias = Literal["straight", "curved", "double", "short", "long"]
CrossoutKind: TypeAlias = Literal["single", "x", "strike", "scribble"]
UNDERLINE_KINDS: tuple[UnderlineKind, ...] = ("straight", "curved", "double", "short", "long")
CROSSOUT_KINDS: tuple[CrossoutKind, ...] = ("single", "x", "strike", "scribble")


def render_underline(
    box: tuple[float, float, float, float],
    rng: np.random.Generator,
    *,
    kind: UnderlineKind | None = None,
    jitter: float = 0.02,
) -> list[Polyline]:
    """Stroke polylines of an underline below a number.

    Parameters
    ----------
    box : (x0, y0, x1, y1)
        The number's ink box; the polylines are in the same coordinates.
    rng : numpy.random.Generator
    kind : {"straight", "curved", "double", "short", "long"}, optional
        Random when omitted.
    jitter : float
        Hand wobble as a fraction of the box height.

    Returns
    -------
    list of ndarray, shape (N, 2)
        (x, y) polylines; draw them with the same pen as the number.
    """
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if kind is None:
        kind = UNDERLINE_KINDS[int(rng.choice(5, p=[0.4, 0.2, 0.1, 0.15, 0.15]))]
    length = {"short": rng.uniform(0.5, 0.8), "long": rng.uniform(1.15, 1.6)}.get(
        kind, rng.uniform(0.85, 1.2)
    ) * max(w, 0.6 * h)
    cx = (x0 + x1) / 2 + rng.normal(0, 0.08) * w
    if kind == "short":  # a short underline starts under the first digit
        cx = x0 + length / 2 + rng.uniform(-0.1, 0.2) * w
    # Usually a small gap below the digits; sometimes touching them.
    gap = rng.choice([rng.uniform(0.06, 0.3), rng.uniform(-0.04, 0.05)], p=[0.8, 0.2]) * h
    y = y1 + gap
    tilt = rng.normal(0, 0.05)
    t = np.linspace(-0.5, 0.5, 24)
    xs = cx + t * length
    ys = y + t * length * tilt
    if kind == "curved":
        ys = ys + (rng.choice([-1, 1]) * rng.uniform(0.06, 0.2) * h) * (4 * t**2 - 1) * -1
        if rng.random() < 0.3:
            ys = ys + rng.uniform(0.03, 0.08) * h * np.sin(t * rng.uniform(6, 12))
    lines = [np.stack([xs, ys], axis=1)]
    if kind == "double":
        sep = rng.uniform(0.12, 0.25) * h
        off = rng.normal(0, 0.05) * w
        lines.append(np.stack([xs + off, ys + sep], axis=1))
    return [jitter_polyline(p, rng, amplitude=jitter * h, step=max(1.0, 0.05 * h)) for p in lines]


def render_crossout(
    box: tuple[float, float, float, float],
    rng: np.random.Generator,
    *,
    kind: CrossoutKind | None = None,
    jitter: float = 0.02,
) -> list[Polyline]:
    """Stroke polylines crossing out a number.

    Parameters
    ----------
    box : (x0, y0, x1, y1)
        The number's ink box; the polylines are in the same coordinates.
    rng : numpy.random.Generator
    kind : {"single", "x", "strike", "scribble"}, optional
        ``"single"`` one diagonal stroke, ``"x"`` two crossing diagonals,
        ``"strike"`` a roughly horizontal strike-through, ``"scribble"`` a
        back-and-forth zigzag over the digits. Random when omitted.
    jitter : float
        Hand wobble as a fraction of the box height.

    Returns
    -------
    list of ndarray, shape (N, 2)
    """
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if kind is None:
        kind = CROSSOUT_KINDS[int(rng.choice(4, p=[0.3, 0.25, 0.3, 0.15]))]
    over = rng.uniform(0.0, 0.25)
    ax0, ax1 = x0 - over * w, x1 + over * w
    ay0, ay1 = y0 - over * h * 0.5, y1 + over * h * 0.5
    lines: list[NDArray[np.float64]]
    if kind == "single":
        if rng.random() < 0.75:  # mostly bottom-left to top-right
            lines = [np.array([[ax0, ay1], [ax1, ay0]])]
        else:
            lines = [np.array([[ax0, ay0], [ax1, ay1]])]
    elif kind == "x":
        lines = [np.array([[ax0, ay0], [ax1, ay1]]), np.array([[ax0, ay1], [ax1, ay0]])]
    elif kind == "strike":
        yc = (y0 + y1) / 2 + rng.normal(0, 0.1) * h
        tilt = rng.normal(0, 0.12) * h
        lines = [np.array([[ax0, yc + tilt / 2], [ax1, yc - tilt / 2]])]
        if rng.random() < 0.2:
            lines.append(lines[0] + np.array([0.0, rng.uniform(0.15, 0.3) * h]))
    else:
        n = int(rng.integers(4, 9))
        xs = np.linspace(ax0, ax1, n)
        ys = np.where(np.arange(n) % 2 == 0, ay1, ay0) + rng.normal(0, 0.08, n) * h
        lines = [np.stack([xs, ys], axis=1)]
    return [jitter_polyline(p, rng, amplitude=jitter * h, step=max(1.0, 0.05 * h)) for p in lines]
