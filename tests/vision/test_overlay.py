"""Overlay layout: the map drawn large, labels beside the handwriting they report."""

from __future__ import annotations

import cv2
import numpy as np

from aggression_vision.vision.overlay import _anchor, _map_box, render_overlay

SQUARE = [[100, 100], [300, 100], [300, 300], [100, 300]]


def _doc(*polygons: list[list[int]]) -> dict[str, object]:
    countries = [
        {"id": chr(65 + k), "polygon": p, "armies": None, "owner": None, "conquered": False}
        for k, p in enumerate(polygons)
    ]
    return {"countries": countries, "adjacency": []}


def test_a_small_map_is_cropped_with_a_margin() -> None:
    box = _map_box(_doc(SQUARE), (2000, 1500), margin=0.1, min_gain=0.5)
    assert box == (80, 80, 320, 320)


def test_a_map_that_fills_the_photo_is_not_cropped() -> None:
    big = [[50, 50], [1900, 50], [1900, 1400], [50, 1400]]
    assert _map_box(_doc(big), (2000, 1500), margin=0.1, min_gain=0.5) == (0, 0, 2000, 1500)
    assert _map_box(_doc(), (2000, 1500), margin=0.1, min_gain=0.5) == (0, 0, 2000, 1500)


def test_the_overlay_shows_the_small_map_large() -> None:
    photo = np.full((1500, 2000, 3), 230, np.uint8)
    cv2.rectangle(photo, (100, 100), (300, 300), (40, 40, 40), 3)
    out = render_overlay(photo, _doc(SQUARE), max_side=2000)
    # The crop (map + 8% margin: 232 px square) is not enlarged, and it is the map's part.
    assert out.shape == (232, 232, 3)
    # The white outline sits 16 px inside the crop on every side.
    white = (out > 240).all(axis=2)
    assert white[16, 60:170].mean() > 0.5 and white[216, 60:170].mean() > 0.5
    assert white[60:170, 16].mean() > 0.5 and white[60:170, 216].mean() > 0.5


def test_labels_avoid_the_writing() -> None:
    poly = np.array(SQUARE, np.int32).reshape(-1, 1, 2)
    centre, depth = _anchor(poly)
    assert abs(centre[0] - 200) <= 2 and abs(centre[1] - 200) <= 2 and depth > 90
    ink = np.zeros((400, 400), bool)
    ink[170:230, 150:250] = True  # a number written in the middle
    at, _ = _anchor(poly, ink)
    assert not ink[at[1], at[0]]
    # Away from the number, but still well inside the country.
    assert min(at[0] - 100, 300 - at[0], at[1] - 100, 300 - at[1]) >= 40
    assert abs(at[1] - 200) > 30
