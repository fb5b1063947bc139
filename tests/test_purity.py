"""The rules engine stays pure and light to import."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("cv2", "skimage", "shapely", "pytesseract", "numpy", "numba", "torch", "PIL")


def imported_modules(statement: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", statement],
        capture_output=True,
        text=True,
        check=True,
    )
    names = set()
    for line in out.stderr.splitlines():
        if "|" in line:
            names.add(line.rsplit("|", 1)[1].strip().split(".")[0])
    return names


def test_game_imports_nothing_heavy():
    mods = imported_modules("import aggression_vision.game")
    assert "aggression_vision" in mods
    assert not mods & set(HEAVY), mods & set(HEAVY)


def test_cli_start_up_imports_no_image_stack():
    mods = imported_modules("import aggression_vision.cli")
    assert not mods & {"cv2", "skimage", "shapely", "pytesseract", "numpy", "torch"}
