"""The Tesseract backend."""

from __future__ import annotations

import numpy as np
import pytest

from aggression_vision.vision import ocr


@pytest.mark.parametrize(
    ("raw", "want"),
    [
        ("12\n", "12"),
        (" 100 ", "100"),
        ("A 7", "A7"),
        ("B", "B"),
        ("0", ""),
        ("101", ""),
        ("", ""),
        ("1.2", "12"),
        ("AB", ""),
    ],
)
def test_parse_reading(raw: str, want: str) -> None:
    assert ocr.parse_reading(raw) == want


def test_missing_tesseract_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ocr, "tesseract_available", lambda: False)
    with pytest.raises(ocr.TesseractNotFoundError, match="tesseract is not installed"):
        ocr.read_text(np.ones((10, 10), np.float32))


def test_tesseract_reads_a_printed_number() -> None:
    if not ocr.tesseract_available():
        pytest.skip("tesseract binary absent")
    import cv2

    img = np.zeros((60, 120), np.uint8)
    cv2.putText(img, "42", (10, 50), cv2.FONT_HERSHEY_SIMPLEX, 1.6, 255, 4, cv2.LINE_AA)
    assert ocr.read_text(img.astype(np.float32) / 255) == "42"
