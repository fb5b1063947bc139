"""Tesseract as an alternative reader of the writing clusters (``--ocr tesseract``).

Kept to compare with the network side by side: Tesseract reads print well but
handwriting poorly, and cannot tell underlines or cross-outs (those still come from the
network). One ``pytesseract`` call per cluster costs about 0.2 s (a process start).
"""

from __future__ import annotations

import re
import shutil
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from aggression_vision.errors import AggressionVisionError

#: Characters Tesseract may output (the reader's alphabet).
WHITELIST = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: Height, in pixels, the cluster is scaled to before Tesseract sees it (its LSTM
#: prefers x-heights of 20-30 px).
TESS_HEIGHT = 48


class TesseractNotFoundError(AggressionVisionError):
    """The tesseract binary is not installed (needed for ``--ocr tesseract``)."""


@lru_cache(maxsize=1)
def tesseract_available() -> bool:
    """Whether the ``tesseract`` binary is on PATH."""
    return shutil.which("tesseract") is not None


def read_text(ink: NDArray[np.floating], *, psm: int = 7) -> str:
    """Read one cluster with Tesseract and keep what fits the vocabulary.

    Parameters
    ----------
    ink : (H, W) float array
        Ink darkness 0..1 of the cluster (as made by the marks reader).
    psm : int
        Tesseract page segmentation mode (7: a single text line).

    Returns
    -------
    str
        A number 1-100, a letter, a letter followed by a number, or ``""``.

    Raises
    ------
    TesseractNotFoundError
        When the tesseract binary is absent.
    """
    if not tesseract_available():
        raise TesseractNotFoundError(
            "tesseract is not installed: install it (Debian: apt-get install tesseract-ocr) "
            "or use --ocr cnn"
        )
    import pytesseract

    ink = np.asarray(ink, np.float32)
    ys, xs = np.nonzero(ink > 0.15)
    if ys.size == 0:
        return ""
    crop = ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    scale = TESS_HEIGHT / crop.shape[0]
    big = cv2.resize(
        crop, (max(1, round(crop.shape[1] * scale)), TESS_HEIGHT), interpolation=cv2.INTER_LINEAR
    )
    img = (255 - np.clip(big, 0, 1) * 255).astype(np.uint8)
    img = np.asarray(cv2.copyMakeBorder(img, 16, 16, 16, 16, cv2.BORDER_CONSTANT, value=255))
    raw = pytesseract.image_to_string(
        img, config=f"--psm {psm} -c tessedit_char_whitelist={WHITELIST}"
    )
    return parse_reading(raw)


def parse_reading(raw: str) -> str:
    """Reduce raw OCR output to a vocabulary string (or ``""``).

    >>> parse_reading(" 12\\n")
    '12'
    >>> parse_reading("A 7")
    'A7'
    >>> parse_reading("0")
    ''
    """
    s = re.sub(r"[^0-9A-Z]", "", raw.upper())
    m = re.fullmatch(r"([A-Z]?)(\d{1,3})", s)
    if m:
        n = int(m.group(2))
        if 1 <= n <= 100:
            return f"{m.group(1)}{n}"
        return m.group(1)
    if re.fullmatch(r"[A-Z]", s):
        return s
    return ""
