"""Training and evaluation crops for the marks reader (used by scripts/train_digits.py).

Each sample is one cluster of writing as the reader sees it: a number 1-100, a capital
letter, a letter next to a number, or no text (a stray stroke), in one hand, optionally
underlined and/or crossed out (single slash, strike-through, X, scribble), with touching or
broken digits, border fragments, blur, thickness changes and elastic distortion; then
normalised by :func:`aggression_vision.vision.digits.to_input` exactly as at read time.

Hands: the project's handwriting renderer (``aggression_vision.synth.handwriting``) when it
is importable, MNIST digits 0-7999 (indices 8000-9999 are reserved for the synthetic
benchmark photos), installed TTF fonts (handwriting and print: sudoku digits are printed),
and OpenCV Hershey stroke fonts. numpy + OpenCV + Pillow only.
"""

from __future__ import annotations

import gzip
import string
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFont

from aggression_vision.vision.digits import INPUT_H, INPUT_W, to_input

try:  # the project's handwriting renderer (the benchmark photos are drawn with it)
    from aggression_vision.synth import handwriting as hw
except ImportError:  # pragma: no cover
    hw = None

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
MNIST_TRAIN = range(0, 8000)  # 8000-9999 belong to the synthetic benchmark photos

HAND_FONTS = [
    "truetype/sjfonts/SteveHand.ttf",
    "truetype/sjfonts/Delphine.ttf",
    "opentype/bwht/BecauseWeBuild-Regular.otf",
    "opentype/bwht/BecauseWeConnect-Regular.otf",
    "opentype/bwht/BecauseWeCreate-Regular.otf",
    "truetype/fifthhorseman/dkg.ttf",
    "truetype/rufscript/Rufscript010.ttf",
    "truetype/kristi/Kristi.ttf",
    "opentype/comic-neue/ComicNeue-Regular.otf",
    "opentype/comic-neue/ComicNeue-Italic.otf",
    "opentype/comic-neue/ComicNeue-Light.otf",
    "truetype/humor-sans/Humor-Sans.ttf",
    "truetype/breip/Breip.ttf",
    "truetype/klee/KleeOne-Regular.ttf",
    "truetype/yusei-magic/YuseiMagic-Regular.ttf",
    "truetype/kaushanscript/KaushanScript-Regular.ttf",
]
PRINT_FONTS = [
    "truetype/dejavu/DejaVuSans.ttf",
    "truetype/dejavu/DejaVuSerif.ttf",
    "truetype/dejavu/DejaVuSerifCondensed.ttf",
    "opentype/urw-base35/NimbusRoman-Regular.otf",
    "opentype/urw-base35/NimbusSans-Regular.otf",
    "opentype/urw-base35/C059-Roman.otf",
    "opentype/urw-base35/P052-Roman.otf",
    "opentype/urw-base35/URWBookman-Light.otf",
    "opentype/urw-base35/NimbusMonoPS-Regular.otf",
    "truetype/noto/NotoSansMono-Regular.ttf",
]
HERSHEY = [
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
    cv2.FONT_HERSHEY_SCRIPT_COMPLEX,
]
CROSS_KINDS = ("slash", "strike", "x", "scribble")


def _existing(paths: list[str]) -> list[str]:
    out = []
    for rel in paths:
        p = Path("/usr/share/fonts") / rel
        if p.is_file():
            out.append(str(p))
    return out


@lru_cache(maxsize=1)
def load_mnist_train() -> tuple[NDArray[np.uint8], NDArray[np.uint8]] | None:
    """MNIST test-set digits 0-7999 (white on black, 28x28) and labels, or None when absent."""
    img = SHARED / "data" / "mnist" / "t10k-images-idx3-ubyte.gz"
    lab = SHARED / "data" / "mnist" / "t10k-labels-idx1-ubyte.gz"
    if not img.is_file():
        return None
    with gzip.open(img) as f:
        images = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 28, 28)
    with gzip.open(lab) as f:
        labels = np.frombuffer(f.read(), np.uint8, offset=8)
    sel = np.asarray(MNIST_TRAIN)
    return images[sel], labels[sel]


@lru_cache(maxsize=256)
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def _tight(a: NDArray[np.float32], thr: float = 0.1) -> NDArray[np.float32]:
    ys, xs = np.nonzero(a > thr)
    if ys.size == 0:
        return a[:1, :1] * 0
    return a[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _glyph_ttf(ch: str, path: str, h: int) -> NDArray[np.float32]:
    font = _font(path, int(h * 1.6))
    im = Image.new("L", (int(h * 3), int(h * 3)), 0)
    ImageDraw.Draw(im).text((h // 2, h // 4), ch, fill=255, font=font)
    return _tight(np.asarray(im, np.float32) / 255.0)


def _glyph_hershey(ch: str, face: int, h: int, thick: int, italic: bool) -> NDArray[np.float32]:
    scale = cv2.getFontScaleFromHeight(face, h, thick)
    canvas = np.zeros((h * 3, h * 3), np.uint8)
    cv2.putText(
        canvas,
        ch,
        (h // 2, int(h * 2)),
        face | (cv2.FONT_ITALIC if italic else 0),
        scale,
        255,
        thick,
        cv2.LINE_AA,
    )
    return _tight(canvas.astype(np.float32) / 255.0)


def _glyph_mnist(d: int, rng: np.random.Generator) -> NDArray[np.float32]:
    data = load_mnist_train()
    assert data is not None
    images, labels = data
    idx = rng.choice(np.flatnonzero(labels == d))
    return _tight(images[idx].astype(np.float32) / 255.0, 0.2)


def _scale_to_height(g: NDArray[np.float32], h: float, aspect: float) -> NDArray[np.float32]:
    gh, gw = g.shape
    s = h / max(gh, 1)
    nw = max(1, round(gw * s * aspect))
    nh = max(1, round(gh * s))
    return cv2.resize(g, (nw, nh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)


def _shear(a: NDArray[np.float32], k: float, angle: float = 0.0) -> NDArray[np.float32]:
    h, w = a.shape
    pad = int(abs(k) * h + 0.3 * max(h, w)) + 2
    a = cv2.copyMakeBorder(a, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    hh, ww = a.shape
    m = cv2.getRotationMatrix2D((ww / 2, hh / 2), angle, 1.0)
    m[0, 1] += -k
    m[0, 2] += k * hh / 2
    return _tight(cv2.warpAffine(a, m, (ww, hh), flags=cv2.INTER_LINEAR), 0.05)


def _elastic(a: NDArray[np.float32], rng: np.random.Generator, alpha: float, sigma: float):
    h, w = a.shape
    dx = cv2.GaussianBlur(rng.uniform(-1, 1, (h, w)).astype(np.float32), (0, 0), sigma) * alpha
    dy = cv2.GaussianBlur(rng.uniform(-1, 1, (h, w)).astype(np.float32), (0, 0), sigma) * alpha
    xx, yy = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    return cv2.remap(a, xx + dx, yy + dy, cv2.INTER_LINEAR, borderValue=0)


@dataclass
class Hand:
    """One writer: where the glyphs come from and how they are placed."""

    kind: str  # "ttf", "hershey", "mnist", "synth"
    font: str = ""
    face: int = 0
    thick: int = 2
    italic: bool = False
    slant: float = 0.0
    spacing: float = 0.15
    aspect: float = 1.0


def random_hand(rng: np.random.Generator, text: str, fonts: dict[str, list[str]]) -> Hand:
    digits_only = text.isdigit()
    choices = ["ttf_hand", "ttf_print", "hershey"]
    weights = [0.35, 0.2, 0.25]
    if digits_only and load_mnist_train() is not None:
        choices.append("mnist")
        weights.append(0.35)
    w = np.asarray(weights) / sum(weights)
    kind = choices[rng.choice(len(choices), p=w)]
    hand = Hand(
        kind="ttf" if kind.startswith("ttf") else kind,
        slant=float(rng.normal(0, 0.15)),
        spacing=float(rng.uniform(-0.12, 0.4))
        if rng.random() < 0.8
        else float(rng.uniform(0.4, 0.8)),
        aspect=float(rng.uniform(0.8, 1.2)),
    )
    if kind == "ttf_hand":
        hand.font = str(rng.choice(fonts["hand"]))
    elif kind == "ttf_print":
        hand.font = str(rng.choice(fonts["print"]))
        hand.slant = float(rng.normal(0, 0.05))
    elif kind == "hershey":
        hand.face = int(rng.choice(HERSHEY))
        hand.italic = bool(rng.random() < 0.2)
    return hand


def render_text(
    text: str, rng: np.random.Generator, hand: Hand, h: int
) -> tuple[NDArray[np.float32], list[tuple[int, int, int, int]]]:
    """Render ``text`` at character height ``h``: ink image and per-character boxes."""
    thick = max(1, round(h * rng.uniform(0.05, 0.13)))
    glyphs = []
    for ch in text:
        gh = h * rng.uniform(0.9, 1.08)
        if hand.kind == "mnist":
            g = _glyph_mnist(int(ch), rng)
        elif hand.kind == "ttf":
            g = _glyph_ttf(ch, hand.font, h)
        else:
            g = _glyph_hershey(ch, hand.face, h, thick, hand.italic)
        g = _scale_to_height(g, gh, hand.aspect * rng.uniform(0.9, 1.1))
        g = _shear(g, hand.slant + rng.normal(0, 0.05), float(rng.normal(0, 3)))
        glyphs.append(g)
    total_h = max(g.shape[0] for g in glyphs) + h
    xs = []
    x = h // 2
    for i, g in enumerate(glyphs):
        xs.append(x)
        gap = hand.spacing + rng.normal(0, 0.05)
        if i + 1 < len(text) and text[i].isalpha() != text[i + 1].isalpha():
            gap += rng.uniform(0.3, 0.8)  # a letter written next to its number
        x += g.shape[1] + int(gap * h)
    width = max(xi + g.shape[1] for xi, g in zip(xs, glyphs, strict=True)) + h // 2
    canvas = np.zeros((total_h, width), np.float32)
    boxes = []
    base = total_h - h // 2
    for xi, g in zip(xs, glyphs, strict=True):
        gy = base - g.shape[0] + int(rng.normal(0, 0.04) * h)
        gy = max(0, min(total_h - g.shape[0], gy))
        sub = canvas[gy : gy + g.shape[0], xi : xi + g.shape[1]]
        np.maximum(sub, g[: sub.shape[0], : sub.shape[1]], out=sub)
        boxes.append((xi, gy, xi + g.shape[1], gy + g.shape[0]))
    return canvas, boxes


def _polyline(canvas, pts, thick, rng, intensity=1.0):
    pts = np.asarray(pts, np.float64)
    pts = pts + rng.normal(0, thick * 0.15, pts.shape)
    cv2.polylines(
        canvas,
        [np.round(pts * 4).astype(np.int32)],
        False,
        float(intensity),
        max(1, int(thick)),
        cv2.LINE_AA,
        shift=2,
    )


def _curve(p0, p1, sag, n=16):
    t = np.linspace(0, 1, n)[:, None]
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    d = p1 - p0
    normal = np.array([-d[1], d[0]]) / (np.hypot(*d) + 1e-9)
    return p0 + t * d + (4 * t * (1 - t)) * sag * normal


def _draw_project(canvas, lines, thick):
    mask = hw.rasterize_strokes(canvas.shape, lines, float(thick))
    np.maximum(canvas, mask, out=canvas)


def add_underline(canvas, box, h, thick, rng):
    """Draw an underline (straight, curved, slanted, short/long, sometimes double)."""
    if hw is not None and rng.random() < 0.5:
        _draw_project(canvas, hw.render_underline(box, rng, jitter=rng.uniform(0, 0.04)), thick)
        return
    x0, y0, x1, y1 = box
    w = x1 - x0
    y = y1 + rng.uniform(-0.05, 0.35) * h
    if rng.random() < 0.2:  # short
        a = x0 + rng.uniform(0, 0.25) * w
        b = x1 - rng.uniform(0, 0.25) * w
    else:
        a = x0 - rng.uniform(-0.05, 0.35) * h
        b = x1 + rng.uniform(-0.05, 0.45) * h
    tilt = np.tan(np.radians(rng.normal(0, 5))) * (b - a)
    sag = rng.normal(0, 0.08) * h
    _polyline(canvas, _curve((a, y - tilt / 2), (b, y + tilt / 2), sag), thick, rng)
    if rng.random() < 0.12:
        dy = rng.uniform(0.12, 0.25) * h
        _polyline(canvas, _curve((a, y + dy - tilt / 2), (b, y + dy + tilt / 2), sag), thick, rng)


def add_crossout(canvas, box, h, thick, rng, kind: str):
    """Draw a cross-out of ``kind`` (slash, strike, x, scribble) over the box."""
    if hw is not None and rng.random() < 0.5:
        pk = {"slash": "single"}.get(kind, kind)
        _draw_project(
            canvas, hw.render_crossout(box, rng, kind=pk, jitter=rng.uniform(0, 0.04)), thick
        )
        return
    x0, y0, x1, y1 = box
    mx = lambda: rng.uniform(-0.1, 0.35) * h  # noqa: E731
    my = lambda: rng.uniform(-0.15, 0.25) * h  # noqa: E731
    if kind == "slash":
        if rng.random() < 0.7:
            p0, p1 = (x0 - mx(), y1 + my()), (x1 + mx(), y0 - my())
        else:
            p0, p1 = (x0 - mx(), y0 - my()), (x1 + mx(), y1 + my())
        _polyline(canvas, _curve(p0, p1, rng.normal(0, 0.06) * h), thick, rng)
    elif kind == "strike":
        yc = (y0 + y1) / 2 + rng.normal(0, 0.12) * h
        tilt = np.tan(np.radians(rng.normal(0, 8))) * (x1 - x0)
        p0, p1 = (x0 - mx(), yc + tilt / 2), (x1 + mx(), yc - tilt / 2)
        _polyline(canvas, _curve(p0, p1, rng.normal(0, 0.06) * h), thick, rng)
        if rng.random() < 0.15:
            off = rng.uniform(0.12, 0.25) * h
            _polyline(canvas, _curve((p0[0], p0[1] + off), (p1[0], p1[1] + off), 0), thick, rng)
    elif kind == "x":
        _polyline(canvas, _curve((x0 - mx(), y1 + my()), (x1 + mx(), y0 - my()), 0), thick, rng)
        _polyline(canvas, _curve((x0 - mx(), y0 - my()), (x1 + mx(), y1 + my()), 0), thick, rng)
    else:  # scribble: a zig-zag back and forth across the number
        n = int(rng.integers(3, 8))
        ys = np.linspace(y0 + 0.1 * h, y1 - 0.1 * h, n) + rng.normal(0, 0.05 * h, n)
        xs = np.where(np.arange(n) % 2 == 0, x0 - mx(), x1 + mx())
        pts = np.stack([xs + rng.normal(0, 0.1 * h, n), ys], axis=1)
        _polyline(canvas, pts, thick, rng)


def add_fragment(canvas, h, thick, rng):
    """A piece of a country border entering the crop from a side."""
    hh, ww = canvas.shape
    side = rng.integers(4)
    length = rng.uniform(0.5, 1.2) * h
    if side < 2:
        x = 1 if side == 0 else ww - 2
        y = rng.uniform(0, hh)
        p0, p1 = (x, y), (x, y + length)
    else:
        y = 1 if side == 2 else hh - 2
        x = rng.uniform(0, ww)
        p0, p1 = (x, y), (x + length, y)
    _polyline(canvas, _curve(p0, p1, rng.normal(0, 0.1) * h), thick, rng)


@dataclass
class Sample:
    x: NDArray[np.float32]  # (INPUT_H, INPUT_W)
    text: str
    underlined: bool
    crossed: bool
    kind: str  # clean / underlined / crossed / both / touching / letter / empty
    touching: bool
    cross_kind: str


def random_text(rng: np.random.Generator) -> str:
    r = rng.random()
    if r < 0.72:
        return random_number(rng)
    if r < 0.9:
        return str(rng.choice(list(string.ascii_uppercase)))
    if r < 0.95:
        return str(rng.choice(list(string.ascii_uppercase))) + str(int(rng.integers(1, 101)))
    return ""


def _project_hand(rng: np.random.Generator):
    """A writer from the project's renderer (training splits of MNIST and fonts only)."""
    if hw is None:
        return None
    return hw.random_style(rng, mnist_split="train", font_split="train")


def random_number(rng: np.random.Generator) -> str:
    """An army count 1-100 as :func:`random_text` draws them (small ones the most common)."""
    if rng.random() < 0.5:
        return str(int(rng.integers(1, 101)))
    return str(int(min(100, max(1, round(rng.exponential(12))))))


def random_pair(rng: np.random.Generator) -> str:
    """A two-digit number for :func:`render_overlapping`; 40% hold a 1 (1x or x1)."""
    if rng.random() < 0.4:
        d = int(rng.integers(0, 10))
        if rng.random() < 0.5:
            return f"1{d}"
        return f"{max(d, 1)}1"
    return str(int(rng.integers(10, 100)))


def render_overlapping(
    text: str, rng: np.random.Generator, hand: Hand, style, h: int
) -> tuple[NDArray[np.float32], list[tuple[int, int, int, int]]]:
    """Two digits written over each other: the second overlaps 0-50% of the wider one.

    Each digit is rendered alone in the same hand (the project's renderer when ``style``
    is given), then placed on a common baseline so that the second digit's ink starts
    inside the first's; a "1" may go right through the other digit. The second digit's
    centre always stays right of the first's (the reading order). Returns the ink image
    and one box per digit.
    """
    glyphs = []
    for ch in text:
        if style is not None:
            g, _ = hw.render_text(ch, rng, height_px=h, style=style)
        else:
            g, _ = render_text(ch, rng, hand, h)
        glyphs.append(_tight(g, 0.1))
    (g1, g2) = glyphs
    w1, w2 = g1.shape[1], g2.shape[1]
    overlap = rng.uniform(0.0, 0.5) * max(w1, w2)
    x2 = w1 - overlap
    x2 = max(x2, w1 / 2 - w2 / 2 + 0.12 * h)  # centre of the second right of the first's
    x2 = int(round(x2))
    hh = max(g1.shape[0], g2.shape[0]) + h // 2
    ww = max(w1, x2 + w2) + h // 2
    canvas = np.zeros((hh, ww), np.float32)
    base = hh - h // 4
    boxes = []
    for g, x in ((g1, 0), (g2, x2)):
        y = base - g.shape[0] + int(rng.normal(0, 0.05) * h)
        y = max(0, min(hh - g.shape[0], y))
        x += h // 4
        sub = canvas[y : y + g.shape[0], x : x + g.shape[1]]
        np.maximum(sub, g[: sub.shape[0], : sub.shape[1]], out=sub)
        boxes.append((x, y, x + g.shape[1], y + g.shape[0]))
    return canvas, boxes


def make_sample(
    rng: np.random.Generator,
    fonts: dict[str, list[str]],
    *,
    hard: float = 1.0,
    crossed_share: float = 0.0,
    pair_share: float = 0.0,
) -> Sample:
    """One random training crop; ``hard`` scales the probability of marks and distortions.

    With probability ``crossed_share`` the crop is a number that is crossed out (any kind,
    underlined or not as usual): the data of the crossed-out specialist
    (``models/marks_crossed.onnx``); otherwise any text as :func:`random_text` draws it.
    With probability ``pair_share`` it is a two-digit number whose digits overlap
    (:func:`render_overlapping`; underlined and crossed out as usual): the data of the
    pair reader (``models/marks_pairs.onnx``).
    """
    force_pair = pair_share > 0 and rng.random() < pair_share
    force_cross = not force_pair and crossed_share > 0 and rng.random() < crossed_share
    if force_pair:
        text = random_pair(rng)
    else:
        text = random_number(rng) if force_cross else random_text(rng)
    h = int(rng.integers(28, 48))
    thick = max(1, round(h * rng.uniform(0.05, 0.13)))
    hand = random_hand(rng, text or "1", fonts)
    style = _project_hand(rng) if rng.random() < 0.55 else None
    if style is not None:
        thick = max(1, round(style.stroke_width * h))
    has_number = any(c.isdigit() for c in text)
    if force_pair:
        canvas, boxes = render_overlapping(text, rng, hand, style, h)
    elif text and style is not None:
        canvas, boxes = hw.render_text(text, rng, height_px=h, style=style)
    elif text:
        canvas, boxes = render_text(text, rng, hand, h)
    else:
        canvas = np.zeros((2 * h, 2 * h), np.float32)
        boxes = [(h // 2, h // 2, int(1.5 * h), int(1.5 * h))]
    pad = h
    canvas = cv2.copyMakeBorder(canvas, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    boxes = [(a + pad, b + pad, c + pad, d + pad) for a, b, c, d in boxes]
    num_boxes = [b for b, c in zip(boxes, text or "1", strict=False) if c.isdigit()] or boxes
    nbox = (
        min(b[0] for b in num_boxes),
        min(b[1] for b in num_boxes),
        max(b[2] for b in num_boxes),
        max(b[3] for b in num_boxes),
    )
    touching = force_pair or (len(boxes) > 1 and hand.spacing < 0.0)
    underlined = crossed = False
    cross_kind = ""
    if text == "":
        if rng.random() < 0.5:
            add_fragment(canvas, h, thick, rng)
        elif rng.random() < 0.5:
            add_underline(canvas, nbox, h, thick, rng)
            underlined = True
        else:
            for _ in range(int(rng.integers(1, 3))):
                c = (
                    int(rng.uniform(pad, canvas.shape[1] - pad)),
                    int(rng.uniform(pad, canvas.shape[0] - pad)),
                )
                cv2.circle(canvas, c, max(1, thick), 1.0, -1, cv2.LINE_AA)
    elif has_number:
        if rng.random() < 0.45 * hard:
            add_underline(canvas, nbox, h, thick, rng)
            underlined = True
        if force_cross or rng.random() < 0.4 * hard:
            cross_kind = str(rng.choice(CROSS_KINDS, p=[0.35, 0.25, 0.2, 0.2]))
            add_crossout(canvas, nbox, h, thick, rng, cross_kind)
            crossed = True
    if text and rng.random() < 0.06 * hard:
        add_fragment(canvas, h, thick, rng)
    # broken strokes: small gaps punched along the ink
    if text and rng.random() < 0.15 * hard:
        for _ in range(int(rng.integers(1, 4))):
            ys, xs = np.nonzero(canvas > 0.5)
            if ys.size:
                i = rng.integers(ys.size)
                cv2.circle(canvas, (int(xs[i]), int(ys[i])), max(1, thick // 2 + 1), 0.0, -1)
    if rng.random() < 0.7:
        canvas = _elastic(canvas, rng, alpha=rng.uniform(0.5, 2.5) * h / 20, sigma=h / 6)
    if rng.random() < 0.3:
        k = np.ones((2, 2), np.uint8)
        canvas = cv2.dilate(canvas, k) if rng.random() < 0.6 else cv2.erode(canvas, k)
    x = to_input(canvas)
    x = augment_input(x, rng)
    if text == "":
        kind = "empty"
    elif not has_number:
        kind = "letter"
    elif underlined and crossed:
        kind = "both"
    elif crossed:
        kind = "crossed"
    elif underlined:
        kind = "underlined"
    elif touching:
        kind = "touching"
    else:
        kind = "clean"
    return Sample(x, text, underlined, crossed, kind, touching, cross_kind)


def random_guard_text(rng: np.random.Generator) -> str:
    """A number as on the real sudoku photos: mostly one digit (lone 1s and 2s often), or two."""
    r = rng.random()
    if r < 0.25:
        return str(rng.choice(["1", "2"]))
    if r < 0.65:
        return str(int(rng.integers(1, 10)))
    if r < 0.95:
        return str(int(rng.integers(10, 100)))
    return "100"


def _guard_shape(rng: np.random.Generator, h: int) -> NDArray[np.float32]:
    """Ink that is no text: a "+" where printed ruling lines cross, a lone bar, dots."""
    canvas = np.zeros((2 * h, 2 * h), np.float32)
    thick = max(1, round(h * rng.uniform(0.03, 0.1)))
    c = np.array([h, h], float) + rng.normal(0, 0.1 * h, 2)
    r = rng.random()
    if r < 0.5:  # a crossing: two bars, arms of 0.2-0.6 writing heights
        turn = rng.normal(0, 0.1)
        for ang in (turn, turn + np.pi / 2 + rng.normal(0, 0.05)):
            d = np.array([np.cos(ang), np.sin(ang)])
            a, b = rng.uniform(0.2, 0.6, 2) * h
            _polyline(canvas, [c - a * d, c + b * d], thick, rng)
    elif r < 0.8:  # one straight bar, any direction
        ang = rng.uniform(0, np.pi)
        d = np.array([np.cos(ang), np.sin(ang)]) * rng.uniform(0.3, 0.9) * h
        _polyline(canvas, [c - d, c + d], thick, rng)
    else:  # dots
        for _ in range(int(rng.integers(1, 4))):
            p = c + rng.normal(0, 0.3 * h, 2)
            cv2.circle(canvas, (int(p[0]), int(p[1])), max(1, thick), 1.0, -1, cv2.LINE_AA)
    return canvas


def make_guard_sample(
    rng: np.random.Generator,
    fonts: dict[str, list[str]],
    rotated: float = 0.2,
    empty: float = 0.15,
) -> tuple[NDArray[np.float32], str, int]:
    """One crop for the forgetting guard of ``train_digits.py --distill``.

    Real-looking digits the shipped network already reads: MNIST 0-7999 (60%) or a print
    font, no underline, cross-out or fragment, mild distortion, the photometric changes of
    :func:`augment_input`. A share ``rotated`` is turned by 90, 180 or 270 degrees (the
    reader tells a page's orientation by how well the network reads each turn: that must
    not change either). A share ``empty`` is ink that is no text (:func:`_guard_shape`:
    ruling crossings, bars, dots), read as nothing. Returns the input, the text and the
    turn in degrees.
    """
    h = int(rng.integers(28, 48))
    if rng.random() < empty:
        return augment_input(to_input(_guard_shape(rng, h)), rng), "", 0
    text = random_guard_text(rng)
    if load_mnist_train() is not None and rng.random() < 0.6:
        hand = Hand(kind="mnist")
    else:
        hand = Hand(kind="ttf", font=str(rng.choice(fonts["print"])))
    hand.slant = float(rng.normal(0, 0.1 if hand.kind == "mnist" else 0.04))
    hand.spacing = float(rng.uniform(-0.05, 0.4))
    hand.aspect = float(rng.uniform(0.85, 1.15))
    canvas, _ = render_text(text, rng, hand, h)
    canvas = cv2.copyMakeBorder(canvas, h // 2, h // 2, h // 2, h // 2, cv2.BORDER_CONSTANT)
    if rng.random() < 0.5:
        canvas = _elastic(canvas, rng, alpha=rng.uniform(0.3, 1.5) * h / 20, sigma=h / 6)
    if rng.random() < 0.3:
        k = np.ones((2, 2), np.uint8)
        canvas = cv2.dilate(canvas, k) if rng.random() < 0.5 else cv2.erode(canvas, k)
    turn = int(rng.choice([90, 180, 270])) if rng.random() < rotated else 0
    if turn:
        canvas = np.ascontiguousarray(np.rot90(canvas, turn // 90))
    return augment_input(to_input(canvas), rng), text, turn


def make_guard_batch(seed: int, n: int) -> tuple[NDArray[np.float32], list[str], list[int]]:
    """``n`` guard crops from ``numpy.random.default_rng(seed)``: inputs, texts, turns."""
    rng = np.random.default_rng(seed)
    fonts = font_lists()
    out = [make_guard_sample(rng, fonts) for _ in range(n)]
    return np.stack([o[0] for o in out]), [o[1] for o in out], [o[2] for o in out]


def augment_input(x: NDArray[np.float32], rng: np.random.Generator) -> NDArray[np.float32]:
    """Photometric changes in the network frame: blur, faint pencil, noise, binarisation."""
    if rng.random() < 0.5:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.3, 1.0))
    if rng.random() < 0.25:
        x = (x > rng.uniform(0.2, 0.5)).astype(np.float32)
    else:
        x = np.clip(x * rng.uniform(0.5, 1.3), 0, 1) ** rng.uniform(0.7, 1.4)
    if rng.random() < 0.4:
        mask = cv2.dilate((x > 0.05).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
        x = np.where(mask, x + rng.normal(0, rng.uniform(0.02, 0.1), x.shape), x)
    shift = rng.integers(-2, 3, 2)
    x = np.roll(x, tuple(int(s) for s in shift), axis=(0, 1))
    return np.clip(x, 0, 1).astype(np.float32)


def _held_out_fonts() -> set[str]:
    """Fonts the synthetic benchmark photos are drawn with; the reader must never see them."""
    if hw is None:
        return set()
    return {str(p.resolve()) for p in hw.handwriting_fonts("synth")}


def font_lists() -> dict[str, list[str]]:
    """Training fonts: HAND_FONTS minus the benchmark's held-out fonts, and PRINT_FONTS."""
    held = _held_out_fonts()
    hand = [f for f in _existing(HAND_FONTS) if str(Path(f).resolve()) not in held]
    return {"hand": hand, "print": _existing(PRINT_FONTS)}


def make_batch(
    seed: int, n: int, hard: float = 1.0, crossed_share: float = 0.0, pair_share: float = 0.0
) -> list[Sample]:
    """``n`` samples from ``numpy.random.default_rng(seed)`` (see :func:`make_sample`)."""
    rng = np.random.default_rng(seed)
    fonts = font_lists()
    return [
        make_sample(rng, fonts, hard=hard, crossed_share=crossed_share, pair_share=pair_share)
        for _ in range(n)
    ]


def to_arrays(samples: list[Sample]):
    x = (
        np.stack([s.x for s in samples]).astype(np.float32)
        if samples
        else np.zeros((0, INPUT_H, INPUT_W), np.float32)
    )
    return x
