"""Tests for the ink stage."""

import cv2
import numpy as np

from aggression_vision.vision.ink import find_ink
from aggression_vision.vision.settings import ReaderSettings


def _paper_with_lines(pink_bgr: tuple[int, int, int], pen_bgr: tuple[int, int, int]) -> np.ndarray:
    """A white page with a vertical line in ``pink_bgr`` and a horizontal one in ``pen_bgr``."""
    img = np.full((600, 800, 3), 235, np.uint8)
    cv2.line(img, (150, 0), (150, 599), pink_bgr, 3)
    cv2.line(img, (250, 300), (750, 300), pen_bgr, 4)
    return img


def test_pink_margin_line_is_not_ink_but_a_red_pen_is() -> None:
    # A pink print line keeps the paper's red; a red pen stroke is dark in red too.
    img = _paper_with_lines((120, 110, 225), (40, 40, 150))
    ink = find_ink(img, settings=ReaderSettings())
    assert not ink.mask[:, 140:161].any()
    assert ink.mask[295:306, 300:700].mean() > 0.2


def test_blue_and_pencil_strokes_are_ink() -> None:
    img = _paper_with_lines((150, 150, 150), (170, 60, 30))
    ink = find_ink(img, settings=ReaderSettings())
    assert ink.mask[:, 140:161].any(axis=1).mean() > 0.9
    assert ink.mask[295:306, 300:700].any(axis=0).mean() > 0.9
