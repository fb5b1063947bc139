"""Open a photo: JPEG, PNG, WebP or HEIC, EXIF orientation applied, size-guarded."""

from __future__ import annotations

import warnings
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageOps, UnidentifiedImageError

from aggression_vision.errors import ImageLoadError

DEFAULT_MAX_PIXELS = 60_000_000

_heif_registered = False


def _register_heif() -> None:
    """Teach Pillow to open HEIC/HEIF files (once; pillow-heif is optional)."""
    global _heif_registered
    if _heif_registered:
        return
    _heif_registered = True
    try:
        import pillow_heif
    except ImportError:  # pragma: no cover - pillow-heif is a declared dependency
        return
    pillow_heif.register_heif_opener()


def load_image(
    path: str | Path,
    *,
    max_pixels: int = DEFAULT_MAX_PIXELS,
    min_long_side: int | None = None,
) -> tuple[NDArray[np.uint8], tuple[int, int]]:
    """Read a photo as the viewer shows it.

    Parameters
    ----------
    path : str or Path
        JPEG, PNG, WebP or HEIC file.
    max_pixels : int
        Photos with more pixels than this are refused (decompression bombs).
    min_long_side : int, optional
        When given, a JPEG may be decoded at a reduced scale (1/2, 1/4, 1/8,
        done by the decoder, much faster than full decoding) as long as the
        result's long side stays at least this large.

    Returns
    -------
    image : (H, W, 3) uint8 BGR
        The decoded photo, EXIF orientation applied (possibly reduced).
    photo_size : (width, height)
        Size of the full photo as displayed (EXIF orientation applied); divide
        by ``image``'s size to get the reduction factor.

    Raises
    ------
    ImageLoadError
        The file is missing, not an image, truncated, or too large.
    """
    path = Path(path)
    if not path.is_file():
        raise ImageLoadError(f"{path}: no such file")
    _register_heif()
    try:
        with warnings.catch_warnings():
            # Our own guard below is stricter than Pillow's warning threshold.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            img = Image.open(path)
    except UnidentifiedImageError:
        raise ImageLoadError(f"{path}: not an image (unknown or unsupported format)") from None
    except Image.DecompressionBombError:
        raise ImageLoadError(f"{path}: too many pixels (more than {max_pixels})") from None
    except OSError as exc:
        raise ImageLoadError(f"{path}: cannot be opened ({exc})") from None
    with img:
        width, height = img.size
        if width * height > max_pixels:
            raise ImageLoadError(
                f"{path}: {width}x{height} is {width * height / 1e6:.0f} MP, "
                f"more than the {max_pixels / 1e6:.0f} MP accepted"
            )
        try:
            orientation = img.getexif().get(0x0112, 1)
        except Exception:  # a broken EXIF block must not stop the reading
            orientation = 1
        if min_long_side is not None and img.format == "JPEG":
            long_side = max(width, height)
            scale = max(1, long_side // max(1, min_long_side))
            if scale >= 2:
                target = (width // scale, height // scale)
                img.draft("RGB", target)
        try:
            img.load()
            # In place, and no conversion of an RGB photo: each would copy it.
            ImageOps.exif_transpose(img, in_place=True)
            rgb = img if img.mode == "RGB" else img.convert("RGB")
        except (OSError, SyntaxError, ValueError) as exc:
            raise ImageLoadError(f"{path}: damaged or truncated image ({exc})") from None
        array = np.asarray(rgb, dtype=np.uint8)
    photo_size = (height, width) if orientation in (5, 6, 7, 8) else (width, height)
    # OpenCV swaps the channels much faster than a copy of numpy's reversed view.
    return cv2.cvtColor(array, cv2.COLOR_RGB2BGR), photo_size
