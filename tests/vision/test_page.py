"""Tests for the page stage: finding and rectifying the sheet."""

from dataclasses import replace

import cv2
import numpy as np

from aggression_vision.vision.page import (
    _drawing_beyond,
    _edge_step,
    _quick_steps,
    _sheet_by_lines,
    _thin_lines,
    extract_page,
    find_sheet,
)
from aggression_vision.vision.settings import ReaderSettings


def _cut_off_sheet() -> tuple[np.ndarray, np.ndarray]:
    """A white sheet on a dark table, turned, its top-left corner outside the photo."""
    h, w = 900, 1200
    img = np.full((h, w, 3), 70, np.uint8)
    rng = np.random.default_rng(5)
    img = (img + rng.integers(0, 20, img.shape)).astype(np.uint8)  # table grain
    corners = np.array([[-60.0, 120.0], [1000.0, 40.0], [1080.0, 820.0], [40.0, 870.0]])
    cv2.fillPoly(img, [np.round(corners).astype(np.int32)], (225, 225, 225))
    cv2.rectangle(img, (300, 300), (800, 650), (40, 40, 40), 5)  # a drawn map
    return img, corners


def test_a_sheet_cut_off_by_the_frame_is_found_from_its_four_edges() -> None:
    img, truth = _cut_off_sheet()
    off = find_sheet(img, settings=replace(ReaderSettings(), page_by_lines=False))
    assert off is None  # no closed outline: the whole photo would be used
    found = find_sheet(img, settings=ReaderSettings())
    assert found is not None
    # Within 2% of the photo's long side of the true corners, the cut-off one too.
    assert np.abs(found - truth).max() < 0.02 * 1200
    page = extract_page(img, settings=ReaderSettings())
    assert page.rectified
    # The part of the sheet outside the photo is blank paper, not a smear.
    top_left = page.image[:20, :20].astype(int)
    assert top_left.min() > 150


def test_a_printed_box_is_not_taken_for_the_sheet() -> None:
    # A dark box on paper that fills the photo: its sides are lines, not paper edges.
    img = np.full((900, 1200, 3), 225, np.uint8)
    cv2.rectangle(img, (200, 150), (1000, 750), (30, 30, 30), 6)
    assert find_sheet(img, settings=ReaderSettings()) is None


def test_paper_with_strokes_beyond_a_side_refuses_it() -> None:
    # Analysis-image scale: a side at x = 200, the sheet to its left, paper
    # going on beyond it with a drawing's strokes (a fold or a shadow's edge).
    gray = np.full((400, 400), 200, np.uint8)
    gray[:, 200:] = 170
    for y in range(20, 380, 12):
        cv2.line(gray, (190, y), (230, y + 4), 40, 2)
    a, b = np.array([200.0, 0.0]), np.array([200.0, 399.0])
    out = np.array([1.0, 0.0])
    s = ReaderSettings()
    assert _drawing_beyond(gray, a, b, out, settings=s)
    assert not _drawing_beyond(
        gray, a, b, out, settings=replace(s, page_beyond_stroke_fraction=0.9)
    )
    # A dark table beyond the side is no paper.
    table = gray.copy()
    table[:, 200:] = 60
    assert not _drawing_beyond(table, a, b, out, settings=s)


def test_light_ruling_beyond_a_side_refuses_it() -> None:
    # A grid line along a glare's edge (big 2273): beyond it the paper goes
    # on, its printed lines light at the analysis scale (not 0.6 of it).
    gray = np.full((400, 400), 230, np.uint8)
    gray[:, 200:] = 200
    for x in range(200, 400, 8):
        gray[:, x] = 180
    for y in range(0, 400, 8):
        gray[y, 200:] = 180
    a, b = np.array([200.0, 0.0]), np.array([200.0, 399.0])
    out = np.array([1.0, 0.0])
    s = ReaderSettings()
    assert not _drawing_beyond(gray, a, b, out, settings=s)  # no dark strokes
    assert _drawing_beyond(gray, a, b, out, settings=s, lines=_thin_lines(gray, settings=s))
    off = replace(s, page_beyond_line_fraction=0.0)
    assert _thin_lines(gray, settings=off) is None
    # Blank paper beyond the side has no lines.
    blank = gray.copy()
    blank[:, 200:] = 200
    assert not _drawing_beyond(blank, a, b, out, settings=s, lines=_thin_lines(blank, settings=s))


def test_an_edge_step_must_be_crisp_and_strong() -> None:
    s = ReaderSettings()
    a, b = np.array([200.0, 20.0]), np.array([200.0, 380.0])
    crisp = np.full((400, 400), 70, np.float32)
    crisp[:, 200:] = 220
    step, normal = _edge_step(crisp, a, b, settings=s)
    assert step > 100 and normal[0] > 0.99  # towards the paper
    soft = cv2.GaussianBlur(crisp, (0, 0), 6)  # a shadow's edge ramps
    assert _edge_step(soft, a, b, settings=s)[0] == 0
    weak = np.where(crisp > 100, 85, 70).astype(np.float32)  # 15 grey levels
    assert _edge_step(weak, a, b, settings=s)[0] == 0
    assert _edge_step(weak, a, b, settings=replace(s, page_step_min=10.0))[0] > 0


def _tilted_sheet_out_of_the_top(facing_page: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """A sheet narrowing towards the top and running out of the photo there.

    With ``facing_page`` a slightly darker page adjoins its left edge (a book).
    """
    h, w = 1200, 900
    rng = np.random.default_rng(3)
    img = (np.full((h, w, 3), 30) + rng.integers(0, 20, (h, w, 3))).astype(np.uint8)
    quad = np.array([[160.0, -300.0], [740.0, -300.0], [820.0, 800.0], [80.0, 800.0]])
    if facing_page:
        left = np.array([[-400.0, -300.0], [160.0, -300.0], [80.0, 800.0], [-400.0, 800.0]])
        cv2.fillPoly(img, [np.round(left).astype(np.int32)], (185, 185, 185))
    cv2.fillPoly(img, [np.round(quad).astype(np.int32)], (220, 220, 220))
    cv2.rectangle(img, (300, 200), (600, 500), (40, 40, 40), 4)
    return img, quad


def test_a_book_page_running_out_of_the_photo_is_not_closed_by_the_frame() -> None:
    img, _ = _tilted_sheet_out_of_the_top(facing_page=True)
    assert find_sheet(img, settings=replace(ReaderSettings(), page_frame_bright=0.0)) is not None
    assert find_sheet(img, settings=ReaderSettings()) is None


def test_a_tilted_sheet_running_out_of_the_top_is_closed_by_the_frame() -> None:
    # Steep tilt: the sheet narrows towards the top and runs out of the
    # photo there; three of its edges are seen.
    img, quad = _tilted_sheet_out_of_the_top()
    h = img.shape[0]
    off = find_sheet(img, settings=replace(ReaderSettings(), page_by_frame=False))
    assert off is None
    # Its sides turn by about 8 degrees: less would be no perspective to undo.
    parallel = find_sheet(img, settings=replace(ReaderSettings(), page_frame_min_turn=10.0))
    assert parallel is None
    found = find_sheet(img, settings=ReaderSettings())
    assert found is not None
    # Its bottom corners and the frame's top where the side edges cross it.
    left_top = quad[0] + (quad[3] - quad[0]) * (0 - quad[0, 1]) / (quad[3, 1] - quad[0, 1])
    right_top = quad[1] + (quad[2] - quad[1]) * (0 - quad[1, 1]) / (quad[2, 1] - quad[1, 1])
    truth = np.array([left_top, right_top, quad[2], quad[3]])
    assert np.abs(found - truth).max() < 0.02 * h
    page = extract_page(img, settings=ReaderSettings())
    assert page.rectified
    # The working image is the sheet: no table along its sides, at the top
    # (where the sheet is narrow in the photo) as at the bottom.
    gray = cv2.cvtColor(page.image, cv2.COLOR_BGR2GRAY)
    m = int(0.03 * max(gray.shape))
    assert np.median(gray[m:-m, m : 2 * m]) > 180
    assert np.median(gray[m:-m, -2 * m : -m]) > 180
    assert np.median(gray[m : 2 * m, m:-m]) > 180


def test_a_sheet_on_a_table_as_bright_in_places_is_found() -> None:
    # A sheet on a table with soft light patches (reflections, pale wood)
    # within 10% of the paper's brightness over about 40% of the table.
    h, w = 900, 1200
    table = np.full((h, w), 110, np.uint8)
    for cx, cy in ((0, 0), (w, 0), (0, h), (w, h)):
        cv2.circle(table, (cx, cy), 330, 200, -1)
    table = cv2.GaussianBlur(table, (0, 0), 10)
    img = np.repeat(table[:, :, None], 3, axis=2)
    corners = np.array([[330.0, 130.0], [900.0, 170.0], [870.0, 780.0], [300.0, 740.0]])
    cv2.fillPoly(img, [np.round(corners).astype(np.int32)], (215, 215, 215))
    cv2.rectangle(img, (450, 300), (750, 600), (60, 60, 60), 3)  # a drawn map
    found = find_sheet(img, settings=ReaderSettings())
    assert found is not None
    assert np.abs(found - corners).max() < 0.02 * w
    # From its four straight edges (the way when no outline is closed), too;
    # the former limit (30% of the table as bright: paper going on) refused it.
    small = cv2.resize(img, (400, 300), interpolation=cv2.INTER_AREA)
    edges = _sheet_by_lines(small, settings=ReaderSettings())
    assert edges is not None
    assert np.abs(edges * 3 - corners).max() < 0.02 * w
    strict = replace(ReaderSettings(), page_outside_fraction=0.3)
    assert _sheet_by_lines(small, settings=strict) is None


def test_a_sheet_in_a_corner_of_the_photo_is_cropped_to() -> None:
    # A tilted sheet whose two other sides run out of the photo: no four edges
    # to rectify, but the table around it is clearly darker.
    h, w = 2000, 1500
    img = np.full((h, w, 3), 50, np.uint8)
    corners = np.array([[-200.0, 1000.0], [700.0, 900.0], [800.0, 2300.0], [-200.0, 2300.0]])
    cv2.fillPoly(img, [np.round(corners).astype(np.int32)], (225, 225, 225))
    cv2.rectangle(img, (100, 1300), (600, 1800), (40, 40, 40), 4)  # a drawn map
    assert find_sheet(img, settings=ReaderSettings()) is None
    whole = extract_page(img, settings=replace(ReaderSettings(), page_crop_max=0.0))
    assert whole.image.shape[:2] == (1400, 1050)
    page = extract_page(img, settings=ReaderSettings())
    assert not page.rectified
    assert max(page.image.shape[:2]) == ReaderSettings().working_long_side
    # The working image is the box around the sheet, the map at a larger scale.
    ph, pw = page.image.shape[:2]
    box = np.array([[0, 0, 1], [pw, ph, 1]], float) @ page.to_photo.T
    x0, y0, x1, y1 = (box[:, :2] / box[:, 2:]).ravel()
    assert x0 <= 1 and x1 < 850 and 850 < y0 < 900 and y1 >= h - 1
    gray = cv2.cvtColor(page.image, cv2.COLOR_BGR2GRAY)
    to_working = np.linalg.inv(page.to_photo)
    corner = to_working @ np.array([100.0, 1300.0, 1.0])
    cx, cy = np.round(corner[:2] / corner[2]).astype(int)
    assert gray[cy - 2 : cy + 3, cx - 2 : cx + 3].min() < 100  # the map's corner
    # A part of the sheet in deep shadow, with the drawing going on in it, is
    # outside the bright area: the box would cut the map.
    cv2.rectangle(img, (900, 0), (1500, 2000), (80, 80, 80), -1)
    cv2.rectangle(img, (950, 300), (1400, 800), (20, 20, 20), 4)
    shadowed = extract_page(img, settings=ReaderSettings())
    assert shadowed.image.shape[:2] == (1400, 1050)


def test_ruling_lines_have_no_quick_step_and_a_paper_edge_has() -> None:
    # Analysis scale: a paper edge at x = 100 (table left, paper right) and a
    # printed ruling line on the paper at x = 250. Only the edge is tested.
    gray = np.full((300, 400), 60.0, np.float32)
    gray[:, 100:] = 220.0
    gray[:, 249:252] = 150.0
    segs = np.array([[100, 20, 100, 280], [250, 20, 250, 280]], np.int32)
    steps = _quick_steps(gray, segs, settings=ReaderSettings())
    assert steps[0] > 100 and steps[1] < 5
    kept = steps >= ReaderSettings().page_quick_step * ReaderSettings().page_step_min
    assert kept.tolist() == [True, False]


def _ruled_in_perspective(step: int = 24) -> tuple[np.ndarray, np.ndarray]:
    """A lined sheet filling the photo, seen at a slant (its lines fan out), and the
    homography that took the flat sheet into the photo."""
    h, w = 900, 1200
    flat = np.full((h, w), 235, np.uint8)
    for y in range(step, h, step):
        cv2.line(flat, (0, y), (w - 1, y), 170, 2, cv2.LINE_AA)
    cv2.rectangle(flat, (350, 250), (850, 650), 40, 5)  # (a drawn map)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = np.array([[-150, -60], [w + 40, 110], [w + 10, h - 120], [-120, h + 50]], np.float32)
    to_photo = cv2.getPerspectiveTransform(src, dst)
    photo = cv2.warpPerspective(flat, to_photo, (w, h), borderValue=235)
    return photo, to_photo


def test_a_ruling_seen_in_perspective_is_made_straight_and_parallel() -> None:
    """The lines of a lined sheet under strong perspective fan out over about 14
    degrees; the homography from their vanishing point makes them parallel again
    (fresh seeds 20152 and 20154: lined paper, the sheet's corners out of the frame,
    the ruling searched in vain and its lines taken for borders)."""
    from aggression_vision.vision.page import ruling_homography

    photo, to_photo = _ruled_in_perspective()
    settings = ReaderSettings()
    found = ruling_homography(photo, settings=settings)
    assert found is not None
    along, size = found
    assert max(size) == max(photo.shape)
    # The sheet's lines, through the photo, into the working image: all one direction.
    angles = []
    for y in (120, 360, 600, 840):
        ends = np.array([[100.0, y, 1.0], [1100.0, y, 1.0]]) @ (along @ to_photo).T
        ends = ends[:, :2] / ends[:, 2:]
        dx, dy = ends[1] - ends[0]
        angles.append(np.degrees(np.arctan2(dy, dx)))
    assert np.ptp(angles) < 0.5
    assert abs(angles[0]) < 0.5 or abs(abs(angles[0]) - 90.0) < 0.5
    # No ruling, or the same sheet seen square on: left as it is.
    assert ruling_homography(np.full((900, 1200), 235, np.uint8), settings=settings) is None
    square = cv2.warpPerspective(photo, np.linalg.inv(to_photo), (1200, 900), borderValue=235)
    assert ruling_homography(square, settings=settings) is None
    off = replace(settings, ruling_perspective=0.0)
    assert ruling_homography(photo, settings=off) is None
    # The page stage takes it: the working image is the sheet made flat.
    page = extract_page(cv2.cvtColor(photo, cv2.COLOR_GRAY2BGR), settings=settings)
    assert page.rectified and page.corners is None
    assert not extract_page(cv2.cvtColor(photo, cv2.COLOR_GRAY2BGR), settings=off).rectified
