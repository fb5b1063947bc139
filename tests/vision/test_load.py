"""Photo loading: formats, EXIF orientation, reduced decoding, and every error path."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from aggression_vision.errors import ImageLoadError
from aggression_vision.vision.load import load_image


def _picture(width: int = 60, height: int = 40) -> Image.Image:
    """An RGB picture with a red top-left quarter, to see orientation and colour order."""
    arr = np.full((height, width, 3), 255, np.uint8)
    arr[: height // 2, : width // 2] = (255, 0, 0)
    return Image.fromarray(arr)


@pytest.mark.parametrize("suffix", [".jpg", ".png", ".webp"])
def test_loads_common_formats_as_bgr(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"photo{suffix}"
    _picture().save(path, quality=95) if suffix != ".png" else _picture().save(path)
    image, size = load_image(path)
    assert image.shape == (40, 60, 3) and image.dtype == np.uint8
    assert size == (60, 40)
    b, g, r = image[5, 5].astype(int)
    assert r > 200 and b < 60 and g < 60  # BGR order: red lands in the last channel


def test_heic_via_pillow_heif(tmp_path: Path) -> None:
    pillow_heif = pytest.importorskip("pillow_heif")
    path = tmp_path / "photo.heic"
    heif = pillow_heif.from_pillow(_picture(64, 48))
    heif.save(path, quality=90)
    image, size = load_image(path)
    assert size == (64, 48)
    assert image.shape == (48, 64, 3)


def test_exif_orientation_is_applied(tmp_path: Path) -> None:
    path = tmp_path / "rotated.jpg"
    exif = Image.Exif()
    exif[0x0112] = 6  # the viewer rotates 90 degrees clockwise
    _picture(60, 40).save(path, exif=exif, quality=95)
    image, size = load_image(path)
    assert size == (40, 60)
    assert image.shape == (60, 40, 3)
    # The red top-left quarter is now at the top-right.
    assert image[5, 35, 2] > 200 and image[5, 5, 2] > 200 and image[5, 5, 0] > 200
    assert image[5, 35, 0] < 60


def test_reduced_decoding_keeps_the_photo_size(tmp_path: Path) -> None:
    path = tmp_path / "big.jpg"
    _picture(1600, 1200).save(path, quality=90)
    image, size = load_image(path, min_long_side=700)
    assert size == (1600, 1200)
    assert max(image.shape[:2]) == 800  # decoded at 1/2, still >= 700


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ImageLoadError, match=r"nothere\.jpg: no such file"):
        load_image(tmp_path / "nothere.jpg")


def test_not_an_image(tmp_path: Path) -> None:
    path = tmp_path / "notes.jpg"
    path.write_text("this is not a photo")
    with pytest.raises(ImageLoadError, match=r"notes\.jpg: not an image"):
        load_image(path)


def test_truncated_file(tmp_path: Path) -> None:
    path = tmp_path / "cut.jpg"
    _picture(400, 300).save(path, quality=95)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    with pytest.raises(ImageLoadError, match=r"cut\.jpg: damaged or truncated"):
        load_image(path)


def test_too_many_pixels(tmp_path: Path) -> None:
    path = tmp_path / "huge.png"
    _picture(300, 200).save(path)
    with pytest.raises(ImageLoadError, match=r"huge\.png: 300x200 .* more than"):
        load_image(path, max_pixels=50_000)
