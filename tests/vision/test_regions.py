"""Region stage on small maps drawn with OpenCV: counts, enclaves, writing, corners, gaps."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from aggression_vision.errors import MapNotFoundError
from aggression_vision.vision.adjacency import (
    border_lengths,
    drop_corner_contacts,
    find_adjacency,
    grow_labels,
    label_gap,
)
from aggression_vision.vision.regions import (
    bridge_ends,
    chained_fragments,
    close_gaps,
    curled_branches,
    cut_pockets,
    join_facing_ends,
    linked_fragments,
    neck_closings,
    seal_steps,
    segment,
    split_writing,
    stub_bridges,
    swallowed_countries,
    thin,
    welded_seeds,
    welded_splits,
    welded_strokes,
)
from aggression_vision.vision.settings import ReaderSettings
from aggression_vision.vision.types import Segmentation

INK = (60, 50, 40)
W, H = 900, 700
LW = 3


def _paper(width: int = W, height: int = H) -> NDArray[np.uint8]:
    """Slightly uneven off-white paper (a smooth light gradient, fixed noise)."""
    rng = np.random.default_rng(0)
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    light = 235 - 25 * (xx / width) - 10 * (yy / height)
    noise = rng.normal(0, 2.0, (height, width)).astype(np.float32)
    gray = np.clip(light + noise, 0, 255).astype(np.uint8)
    return np.dstack([gray, gray, gray])


def _wobbly(
    p0: tuple[float, float], p1: tuple[float, float], rng: np.random.Generator, n: int = 12
) -> NDArray[np.int32]:
    """A hand-drawn-looking line from p0 to p1 (ends exact, middle jittered)."""
    t = np.linspace(0, 1, n)[:, None]
    pts = (1 - t) * np.asarray(p0, float) + t * np.asarray(p1, float)
    jitter = rng.normal(0, 2.0, pts.shape)
    jitter[0] = jitter[-1] = 0
    return np.round(pts + jitter).astype(np.int32).reshape(-1, 1, 2)


def _grid_map(rows: int = 3, cols: int = 3, *, wobble: bool = True) -> NDArray[np.uint8]:
    """A framed map cut into rows x cols countries; inner corners are 4-country points."""
    rng = np.random.default_rng(1)
    img = _paper()
    x0, y0, x1, y1 = 150, 120, 750, 600
    xs = np.linspace(x0, x1, cols + 1)
    ys = np.linspace(y0, y1, rows + 1)
    for x in xs:
        line = _wobbly((x, y0), (x, y1), rng) if wobble else np.int32([[[x, y0]], [[x, y1]]])
        cv2.polylines(img, [line], False, INK, LW, cv2.LINE_AA)
    for y in ys:
        line = _wobbly((x0, y), (x1, y), rng) if wobble else np.int32([[[x0, y]], [[x1, y]]])
        cv2.polylines(img, [line], False, INK, LW, cv2.LINE_AA)
    return img


def _cell_of(seg: Segmentation, x: float, y: float) -> int:
    """The region index at working coordinates (x, y) (the working image is the photo here)."""
    return int(seg.labels[int(y), int(x)])


def _adjacent(seg: Segmentation) -> set[tuple[int, int]]:
    return {(i, j) for i, j, _ in seg.adjacency}


def test_grid_map_counts_and_corner_contacts() -> None:
    seg = segment(_grid_map())
    assert len(seg.regions) == 9
    assert not seg.ruled  # plain paper: no printed ruling taken off
    centres = [[_cell_of(seg, 250 + 200 * c, 200 + 160 * r) for c in range(3)] for r in range(3)]
    assert len({v for row in centres for v in row}) == 9 and 0 not in np.ravel(centres)
    adj = _adjacent(seg)
    for r in range(3):
        for c in range(3):
            for dr, dc in ((0, 1), (1, 0)):
                if r + dr < 3 and c + dc < 3:
                    a, b = sorted((centres[r][c], centres[r + dr][c + dc]))
                    assert (a, b) in adj, f"4-neighbours {(r, c)} and {(r + dr, c + dc)}"
            for dc in (-1, 1):
                if r + 1 < 3 and 0 <= c + dc < 3:
                    a, b = sorted((centres[r][c], centres[r + 1][c + dc]))
                    assert (a, b) not in adj, f"diagonal {(r, c)} meets only at a point"
    assert len(adj) == 12


def test_regions_are_in_reading_order() -> None:
    seg = segment(_grid_map(2, 3, wobble=False))
    cells = [_cell_of(seg, 250 + 200 * c, 240 + 240 * r) for r in range(2) for c in range(3)]
    assert cells == [1, 2, 3, 4, 5, 6]


def test_polygons_are_in_photo_coordinates() -> None:
    img = _grid_map(1, 1, wobble=False)
    seg = segment(img)
    assert len(seg.regions) == 1
    xs = [p[0] for p in seg.regions[0].polygon]
    ys = [p[1] for p in seg.regions[0].polygon]
    # The country spans the frame (150..750, 120..600) up to about a line width.
    assert min(xs) == pytest.approx(150, abs=6) and max(xs) == pytest.approx(750, abs=6)
    assert min(ys) == pytest.approx(120, abs=6) and max(ys) == pytest.approx(600, abs=6)


def test_photo_coordinates_survive_the_working_resize() -> None:
    big = cv2.resize(_grid_map(1, 1, wobble=False), None, fx=2.5, fy=2.5)
    seg = segment(big)
    xs = [p[0] for p in seg.regions[0].polygon]
    assert min(xs) == pytest.approx(375, abs=12) and max(xs) == pytest.approx(1875, abs=12)
    assert seg.photo_size == (big.shape[1], big.shape[0])


def test_digits_with_loops_do_not_become_countries() -> None:
    img = _grid_map(1, 2, wobble=False)
    for x in (230, 530):
        cv2.putText(img, "80", (x, 400), cv2.FONT_HERSHEY_SIMPLEX, 3.0, INK, 6, cv2.LINE_AA)
    cv2.putText(img, "9", (330, 250), cv2.FONT_HERSHEY_SIMPLEX, 2.0, INK, 5, cv2.LINE_AA)
    seg = segment(img)
    assert len(seg.regions) == 2
    # The writing is handed to the marks stage, and the loops belong to their country.
    assert seg.writing[300:420, 220:420].any()
    assert _cell_of(seg, 262, 370) == _cell_of(seg, 200, 200)


def test_number_touching_a_border_is_writing() -> None:
    img = _grid_map(1, 2, wobble=False)
    # "68" whose first loop touches the middle border at x = 450.
    cv2.putText(img, "68", (452, 400), cv2.FONT_HERSHEY_SIMPLEX, 3.0, INK, 6, cv2.LINE_AA)
    seg = segment(img)
    assert len(seg.regions) == 2
    assert len(seg.adjacency) == 1


def _welded_d(img: NDArray[np.uint8], x: int, y0: int, y1: int, bulge: int) -> None:
    """A letter D whose stem is drawn along the vertical border at ``x`` (its bowl on the right)."""
    cv2.line(img, (x, y0), (x, y1), INK, LW, cv2.LINE_AA)
    centre = (x, (y0 + y1) // 2)
    cv2.ellipse(img, centre, (bulge, (y1 - y0) // 2), 0, -90, 90, INK, LW, cv2.LINE_AA)


def test_the_inside_of_a_letter_welded_to_a_border_is_no_country() -> None:
    img = _grid_map(1, 2, wobble=False)
    cv2.putText(img, "25", (220, 400), cv2.FONT_HERSHEY_SIMPLEX, 3.0, INK, 6, cv2.LINE_AA)
    _welded_d(img, 450, 325, 385, 40)
    seg = segment(img)
    assert len(seg.regions) == 2
    # The bowl's paper goes to the country around it.
    right = seg.regions[_cell_of(seg, 600, 200) - 1]
    outline = np.array(right.polygon, np.float32).reshape(-1, 1, 2)
    assert cv2.pointPolygonTest(outline, (470.0, 355.0), False) > 0
    off = segment(img, settings=replace(ReaderSettings(), country_min_text_area=0.0))
    assert len(off.regions) == 3


def test_a_small_country_holding_a_number_is_kept() -> None:
    img = _grid_map(1, 2, wobble=False)
    cv2.putText(img, "25", (220, 400), cv2.FONT_HERSHEY_SIMPLEX, 3.0, INK, 6, cv2.LINE_AA)
    # A country in the corner, smaller than the page's writing, with a "7" in it.
    cv2.rectangle(img, (450, 120), (500, 165), INK, LW, cv2.LINE_AA)
    cv2.putText(img, "7", (466, 155), cv2.FONT_HERSHEY_SIMPLEX, 0.9, INK, 3, cv2.LINE_AA)
    seg = segment(img)
    assert len(seg.regions) == 3
    assert _cell_of(seg, 458, 135) not in (0, _cell_of(seg, 600, 400))
    # Without the "7" it is too small for the page's writing.
    cv2.rectangle(img, (456, 126), (494, 159), (235, 235, 235), -1)
    assert len(segment(img).regions) == 2


def test_enclave_is_its_own_country() -> None:
    img = _grid_map(1, 2, wobble=False)
    cv2.circle(img, (300, 360), 80, INK, LW, cv2.LINE_AA)
    seg = segment(img)
    assert len(seg.regions) == 3
    inner = _cell_of(seg, 300, 360)
    host = _cell_of(seg, 180, 150)
    other = _cell_of(seg, 600, 360)
    adj = _adjacent(seg)
    assert tuple(sorted((inner, host))) in adj
    assert tuple(sorted((inner, other))) not in adj


def test_small_gap_in_a_border_is_closed() -> None:
    img = _paper()
    cv2.rectangle(img, (150, 120), (750, 600), INK, LW, cv2.LINE_AA)
    # Middle border stops 4 px short of the frame (a little more than a line width).
    cv2.line(img, (450, 120), (450, 596 - 4), INK, LW, cv2.LINE_AA)
    seg = segment(img)
    assert len(seg.regions) == 2


def test_double_drawn_border_is_one_border() -> None:
    img = _grid_map(1, 2, wobble=False)
    rng = np.random.default_rng(3)
    line = _wobbly((456, 120), (456, 600), rng)
    cv2.polylines(img, [line], False, INK, LW, cv2.LINE_AA)
    seg = segment(img)
    assert len(seg.regions) == 2
    assert len(seg.adjacency) == 1


def test_sea_is_not_a_country() -> None:
    img = _paper()
    rng = np.random.default_rng(5)
    # An irregular island split in two, floating in the sea.
    outline = np.array([[200, 200], [500, 140], [720, 260], [680, 540], [330, 600], [160, 420]])
    t = np.linspace(0, 1, 10)[:, None]
    ring = []
    for a, b in zip(outline, np.roll(outline, -1, axis=0), strict=True):
        ring.extend((1 - t) * a + t * b + rng.normal(0, 1.5, (10, 2)))
    cv2.polylines(img, [np.round(ring).astype(np.int32)], True, INK, LW, cv2.LINE_AA)
    cv2.line(img, (480, 140), (470, 590), INK, LW, cv2.LINE_AA)
    seg = segment(img)
    assert len(seg.regions) == 2
    assert _cell_of(seg, 50, 50) == 0


def test_blank_page_raises() -> None:
    with pytest.raises(MapNotFoundError, match="no drawing"):
        segment(_paper())


def test_close_gaps_bridges_only_small_gaps() -> None:
    mask = np.zeros((40, 80), bool)
    mask[19:22, 5:30] = True  # strokes 3 px wide
    mask[19:22, 33:50] = True  # 3-px gap
    mask[19:22, 60:75] = True  # 10-px gap
    closed = close_gaps(mask, gap=6)
    assert closed[20, 30:33].all()
    assert not closed[20, 52:58].any()


def _join(mask: NDArray[np.bool_], w: int) -> NDArray[np.bool_]:
    closed = close_gaps(mask, gap=3 * w)
    return join_facing_ends(
        closed, mask, line_width=w, gap=3 * w, min_branch=3 * w, cone=20, max_thickness=2 * w
    )


def test_facing_line_ends_are_joined_up_to_the_closing_gap() -> None:
    # Closing with a disk 3 line widths across reopens the join of two line
    # ends more than about 2 line widths apart; the ends are joined up to 3.
    w = 5
    for gap, joined in ((13, True), (15, True), (18, False)):
        mask = np.zeros((60, 220), bool)
        mask[28:33, 20:100] = True
        mask[28:33, 100 + gap : 200] = True
        assert not close_gaps(mask, gap=3 * w)[30, 100 : 100 + gap].all()
        assert bool(_join(mask, w)[30, 100 : 100 + gap].all()) is joined


def test_a_line_end_facing_a_blob_is_not_joined_to_it() -> None:
    # A line ending 2.6 line widths short of the corner a bar's end makes
    # with it: joined when the bar is a drawn line, not when it is three line
    # widths thick (writing welded together by closing).
    w = 5
    for thick, joined in ((5, True), (15, False)):
        mask = np.zeros((160, 220), bool)
        mask[28:33, 20:100] = True
        mask[28:150, 113 : 113 + thick] = True
        assert not close_gaps(mask, gap=3 * w)[30, 100:113].all()
        assert bool(_join(mask, w)[30, 100:113].all()) is joined


def test_a_line_end_facing_a_line_is_not_joined_to_it() -> None:
    # A stroke hanging off a border towards another one 2.6 line widths away
    # may be a number's stroke as well as a broken border: only two loose
    # ends facing each other are joined (the later bridging sees the rest).
    w = 5
    for top in (67, 15):
        mask = np.zeros((120, 200), bool)
        mask[10:15, 10:190] = True  # the border the stroke hangs off
        mask[100:105, 10:190] = True  # the border it faces
        mask[top:87, 98:103] = True  # 13 px (2.6 line widths) short of it
        assert not _join(mask, w)[100 - 13 : 100, 100].all()


def test_a_border_broken_short_of_the_closing_gap_separates_its_countries() -> None:
    # A column of two small countries whose shared border, hanging between
    # two junctions by short branches (no later bridging for them), has a
    # gap closing leaves open (about 2.8 line widths tip to tip): joined.
    img = _paper()
    cv2.rectangle(img, (150, 120), (750, 600), INK, LW, cv2.LINE_AA)
    for x in (418, 482):
        cv2.line(img, (x, 120), (x, 600), INK, LW, cv2.LINE_AA)
    cv2.line(img, (418, 360), (440, 360), INK, LW, cv2.LINE_AA)
    cv2.line(img, (460, 360), (482, 360), INK, LW, cv2.LINE_AA)
    seg = segment(img)
    assert len(seg.regions) == 4
    assert 0 != _cell_of(seg, 450, 250) != _cell_of(seg, 450, 470) != 0
    off = segment(img, settings=replace(ReaderSettings(), gap_end_min_branch=0.0))
    assert len(off.regions) == 3


def test_point_contact_is_shorter_than_a_shared_border() -> None:
    labels = np.zeros((30, 30), np.int32)
    labels[:14, :14] = 1
    labels[16:, 16:] = 2  # diagonal: corner to corner across the junction
    labels[:14, 16:] = 3
    grown = grow_labels(labels, reach=3.0)
    lengths = border_lengths(grown)
    assert lengths.get((1, 3), 0) >= 12
    assert lengths.get((1, 2), 0) <= 4
    pairs = {(i, j) for i, j, _ in find_adjacency(grown, min_length=6)}
    assert (1, 3) in pairs and (2, 3) in pairs and (1, 2) not in pairs


def test_smudged_corner_contact_is_dropped() -> None:
    # Four countries around a junction: 1 2 / 3 4. The diagonal 1-4 got a
    # short boundary from ink at the junction; a genuine long 1-4 stays.
    sides = [(1, 2, 60.0), (1, 3, 60.0), (2, 4, 60.0), (3, 4, 60.0)]
    smudged = drop_corner_contacts([*sides, (1, 4, 20.0)], max_length=40, ratio=0.6)
    assert (1, 4, 20.0) not in smudged and len(smudged) == 4
    genuine = drop_corner_contacts([*sides, (1, 4, 45.0)], max_length=40, ratio=0.6)
    assert (1, 4, 45.0) in genuine
    # Countries 2 and 3 adjacent too: no junction of four, nothing dropped.
    linked = drop_corner_contacts([*sides, (1, 4, 20.0), (2, 3, 20.0)], max_length=40, ratio=0.6)
    assert len(linked) == 6


def test_short_border_between_two_junctions_is_no_corner_contact() -> None:
    # 3 on top, 4 below, 1 and 2 side by side between them: the short 1|2
    # border has the neighbours of a junction of four, but only one line
    # separates 1 and 2 (5 px); at a meeting at a point they are diagonal
    # across the junction (about 10 px).
    sides = [(1, 3, 48.0), (2, 3, 48.0), (1, 4, 48.0), (2, 4, 48.0)]
    short = (1, 2, 20.0)
    assert short not in drop_corner_contacts([*sides, short], max_length=40, ratio=0.6)
    lanes = np.zeros((100, 100), np.int32)
    lanes[:37] = 3
    lanes[63:] = 4
    lanes[40:60, :47] = 1
    lanes[40:60, 52:] = 2
    kept = drop_corner_contacts(
        [*sides, short], max_length=40, ratio=0.6, labels=lanes, min_apart=8.0
    )
    assert short in kept
    cross = np.zeros((100, 100), np.int32)
    cross[:47, :47] = 1
    cross[53:, 53:] = 2
    cross[:47, 53:] = 3
    cross[53:, :47] = 4
    dropped = drop_corner_contacts(
        [*sides, short], max_length=40, ratio=0.6, labels=cross, min_apart=8.0
    )
    assert short not in dropped and len(dropped) == 4


def test_label_gap_measures_near_labels_and_gives_inf_without_both_in_reach() -> None:
    labels = np.zeros((60, 60), np.int32)
    labels[10:20, 5:55] = 1
    labels[10:58, 50:55] = 1  # an L: its box covers the page
    labels[24:40, 20:30] = 2  # 5 px below label 1
    labels[45:50, 2:8] = 4  # inside 1's box, far from its pixels
    assert label_gap(labels, 1, 2, reach=8.0) == pytest.approx(5.0, abs=0.1)
    assert label_gap(labels, 1, 4, reach=8.0) == np.inf
    assert label_gap(labels, 1, 9, reach=8.0) == np.inf  # no such label


def test_a_short_border_between_two_junctions_is_kept_and_a_smudged_corner_dropped() -> None:
    # With the reader's settings: two countries diagonal around a four-country junction
    # (common neighbours 2 and 3, not adjacent to each other) whose boundary measures
    # ``contact`` line widths, the junction's sides ``side`` line widths.
    st = ReaderSettings()
    lw = 4.0

    def dropped(contact: float, side: float) -> bool:
        sides = [(1, 2, side * lw), (1, 3, side * lw), (2, 4, side * lw), (3, 4, side * lw)]
        kept = drop_corner_contacts(
            [*sides, (1, 4, contact * lw)],
            max_length=st.corner_contact_length * lw,
            ratio=st.corner_contact_ratio,
        )
        return (1, 4, contact * lw) not in kept

    # The smudged corners of the real sudoku photos: 4.1-5.8 line widths, 0.30-0.35
    # of the junction's shortest side.
    assert dropped(4.1, 4.1 / 0.30) and dropped(5.8, 5.8 / 0.35)
    # A short border between two T-junctions (the synthetic maps draw them at least six
    # line widths long), beside sides not much longer, or longer than any corner seen.
    assert not dropped(5.5, 12.0)
    assert not dropped(6.8, 40.0)


def test_light_pencil_map_is_read() -> None:
    # Strokes only about 15 % darker than the paper: nowhere "strong" ink,
    # but long, so they are strokes and not paper grain.
    img = _grid_map(2, 2)
    light = _paper()
    faint = (img.astype(np.float32) < light.astype(np.float32) - 40).any(axis=2)
    img = light.copy()
    img[faint] = (light[faint].astype(np.float32) * 0.84).astype(np.uint8)
    seg = segment(img)
    assert len(seg.regions) == 4


def _squared_paper(step: int = 18) -> NDArray[np.uint8]:
    """Paper with a printed grid: thin, light lines every ``step`` pixels."""
    img = _paper()
    for x in range(5, W, step):
        img[:, x] = (img[:, x].astype(np.float32) * 0.85).astype(np.uint8)
    for y in range(5, H, step):
        img[y, :] = (img[y, :].astype(np.float32) * 0.85).astype(np.uint8)
    return img


def test_border_along_a_printed_ruling_line_is_kept() -> None:
    img = _squared_paper()
    # A framed map whose borders all run along ruling lines (x, y = 5 + 18 k).
    x0, x1, xm = 149, 743, 455
    y0, y1 = 113, 599
    for x in (x0, xm, x1):
        cv2.line(img, (x, y0), (x, y1), INK, LW, cv2.LINE_AA)
    for y in (y0, y1):
        cv2.line(img, (x0, y), (x1, y), INK, LW, cv2.LINE_AA)
    seg = segment(img)
    assert len(seg.regions) == 2
    assert len(seg.adjacency) == 1


def test_thin_leaves_one_pixel_lines() -> None:
    mask = np.zeros((60, 90), np.uint8)
    mask[20:26, 5:85] = 1  # a bar 6 px thick
    skeleton = thin(mask.astype(bool))
    cols = skeleton[:, 10:80].sum(axis=0)
    assert (cols == 1).all()
    assert skeleton[:, 10:80].any(axis=1).nonzero()[0].tolist() in ([22], [23])


def test_bridge_ends_continues_a_broken_line_and_leaves_ticks() -> None:
    lw = 3.0
    mask = np.zeros((120, 200), np.uint8)
    cv2.line(mask, (10, 60), (80, 60), 1, 3)  # a line broken by a 30 px gap
    cv2.line(mask, (110, 60), (190, 60), 1, 3)
    cv2.line(mask, (40, 30), (40, 40), 1, 3)  # a short tick pointing at the line
    out = bridge_ends(mask.astype(bool), line_width=lw, reach=12 * lw, min_branch=6 * lw, cone=30)
    assert out[60, 80:111].all()
    assert not out[43:57, 40].any()
    # A gap wider than the reach stays open.
    out = bridge_ends(mask.astype(bool), line_width=lw, reach=5 * lw, min_branch=6 * lw, cone=30)
    assert not out[60, 90:100].any()


@pytest.mark.parametrize(("angle", "thickness"), [(40.0, 2), (52.0, 3)])
def test_bridge_ends_continues_a_slanted_line_whose_skeleton_steps(
    angle: float, thickness: int
) -> None:
    # At these slants the skeleton of the line has corner steps (a pixel beside
    # the diagonal one): the walk from its end once took the step's side pixel,
    # found no way on and called the line a spur too short to continue.
    lw = 3.0
    mask = np.zeros((200, 260), np.uint8)
    d = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
    start, stop, wall = np.array([20.0, 20.0]), 20 + d * 60, 20 + d * 90
    across = np.array([-d[1], d[0]]) * 40
    cv2.line(mask, _pt(start), _pt(stop), 1, thickness)
    cv2.line(mask, _pt(wall - across), _pt(wall + across), 1, thickness)
    borders = mask.astype(bool)
    out = bridge_ends(borders, line_width=lw, reach=12 * lw, min_branch=6 * lw, cone=30)
    gx, gy = _pt(20 + d * 75)  # the middle of the gap
    assert out[gy - 2 : gy + 3, gx - 2 : gx + 3].any()


def _pt(p: NDArray[np.float64]) -> tuple[int, int]:
    return int(p[0]), int(p[1])


def test_bridge_ends_joins_two_ends_along_removed_ruling() -> None:
    lw = 3.0
    ruling = np.zeros((120, 200), np.uint8)
    cv2.line(ruling, (0, 60), (199, 60), 1, 1)  # the printed line the border ran along
    ruling = ruling.astype(bool)

    def bridged(mask: NDArray[np.uint8], **kw: float) -> NDArray[np.bool_]:
        return bridge_ends(
            mask.astype(bool),
            line_width=lw,
            reach=12 * lw,
            min_branch=6 * lw,
            cone=30,
            ruling=ruling,
            max_on_ruling=0.5,
            **kw,
        )

    broken = np.zeros((120, 200), np.uint8)
    cv2.line(broken, (10, 60), (80, 60), 1, 3)  # a stretch erased with the ruling
    cv2.line(broken, (110, 60), (190, 60), 1, 3)
    assert not bridged(broken)[60, 85:105].any()  # along the ruling: the ruling's own line
    assert bridged(broken, end_to_end_thickness=0.75 * lw)[60, 80:111].all()
    # A thin remnant of the ruling is not joined ...
    thin_line = np.zeros((120, 200), np.uint8)
    thin_line[60, 10:81] = thin_line[60, 110:191] = 1
    assert not bridged(thin_line, end_to_end_thickness=0.75 * lw)[60, 85:105].any()
    # ... nor is a line aimed along the ruling at the side of another border.
    side = np.zeros((120, 200), np.uint8)
    cv2.line(side, (10, 60), (80, 60), 1, 3)
    cv2.line(side, (110, 15), (110, 105), 1, 3)
    assert not bridged(side, end_to_end_thickness=0.75 * lw)[60, 85:105].any()


def _welded_network() -> NDArray[np.bool_]:
    """A T of border lines, a curled stroke (a digit's bowl) hanging off the bar, and a
    straight border stopping short."""
    mask = np.zeros((200, 300), np.uint8)
    cv2.line(mask, (10, 20), (290, 20), 1, 3)  # the bar of the T
    cv2.line(mask, (150, 20), (150, 190), 1, 3)  # its stem
    # A 3's upper bowl: hangs off the bar at its top, curls round, loose end.
    cv2.ellipse(mask, (70, 45), (18, 22), 0, -90, 180, 1, 3)
    cv2.line(mask, (70, 20), (70, 23), 1, 3)
    # A border stopping short: straight off the stem, loose end.
    cv2.line(mask, (150, 120), (250, 130), 1, 3)
    return mask.astype(bool)


def test_curled_branch_hanging_off_a_border_is_writing() -> None:
    mask = _welded_network()
    out = curled_branches(
        mask, line_width=3.0, max_extent=60.0, min_length=12.0, min_ratio=2.5, keep=6.0
    )
    assert out[40:70, 50:92].sum() > 0.5 * mask[40:70, 50:92].sum()  # the bowl is taken
    assert not out[15:24, :].any()  # the bar it hangs on is not cut
    assert not out[100:150, 140:].any()  # the straight loose border stays
    # A long curl (beyond the writing size) is a border.
    out = curled_branches(
        mask, line_width=3.0, max_extent=30.0, min_length=12.0, min_ratio=2.5, keep=6.0
    )
    assert not out.any()


def test_curled_branch_attached_at_two_junctions_is_a_border() -> None:
    mask = _welded_network()
    cv2.line(mask.view(np.uint8), (80, 20), (80, 24), 1, 3)  # the bowl also meets the bar
    out = curled_branches(
        mask, line_width=3.0, max_extent=60.0, min_length=12.0, min_ratio=2.5, keep=6.0
    )
    assert not out[60:70, 50:92].any()


def test_curled_branch_round_a_country_is_a_border() -> None:
    """A border broken by a gap that runs round a whole country curls like a digit but
    encloses a country-sized paper area once closed: it stays border."""
    mask = np.zeros((200, 300), np.uint8)
    cv2.line(mask, (10, 20), (290, 20), 1, 3)  # the border it hangs off
    # Three sides of a 60 x 60 square off the bar; the fourth side's end stops short.
    cv2.polylines(mask, [np.array([[100, 20], [100, 80], [160, 80], [160, 30]])], False, 1, 3)
    kw = dict(line_width=3.0, max_extent=70.0, min_length=12.0, min_ratio=2.5, keep=6.0)
    assert curled_branches(mask.astype(bool), **kw)[60:82, 98:162].any()  # taken without the test
    assert not curled_branches(mask.astype(bool), min_hole=22.0, **kw).any()
    # A digit's bowl (16 pixels of inscribed radius once closed) is still taken.
    out = curled_branches(_welded_network(), min_hole=22.0, **kw)
    assert out[40:70, 50:92].sum() > 0.5 * _welded_network()[40:70, 50:92].sum()


def test_a_frame_around_countries_is_sea() -> None:
    img = _paper()
    h, w = img.shape[:2]
    cv2.rectangle(img, (40, 40), (w - 40, h - 40), (30, 30, 30), 4)  # the frame
    x0, x1 = 120, w - 120
    step = (x1 - x0) // 3
    for k in range(3):
        cv2.rectangle(img, (x0 + k * step, 140), (x0 + (k + 1) * step, h - 140), (30, 30, 30), 4)
    seg = segment(img, settings=ReaderSettings(frame_min_enclosed=3))
    assert len(seg.regions) == 3
    seg = segment(img, settings=ReaderSettings(frame_min_enclosed=100))
    assert len(seg.regions) == 4


def test_a_country_swallowed_by_gap_closing_is_found_again() -> None:
    # Two boxes before closing; in the closed borders the right one kept a
    # country and the left one was filled but for pockets (a big digit).
    raw = np.zeros((100, 200), dtype=bool)
    raw[10, 10:190] = raw[90, 10:190] = True
    raw[10:91, 10] = raw[10:91, 100] = raw[10:91, 190] = True
    countries = np.zeros(raw.shape, dtype=np.int32)
    countries[20:80, 110:180] = 1
    sea = np.zeros(raw.shape, dtype=bool)
    sea[:5] = True
    out = swallowed_countries(raw, countries, sea, min_inradius=20.0, min_area=2000.0)
    assert out[50, 50] and out[15, 15]  # the left box's paper
    assert not out[50, 150] and not out[2, 50] and not raw[out].any()
    # Too small an area, no room for the disc, or a country inside: nothing.
    assert not swallowed_countries(raw, countries, sea, min_inradius=20.0, min_area=9000.0).any()
    assert not swallowed_countries(raw, countries, sea, min_inradius=45.0, min_area=2000.0).any()
    countries[40:60, 40:60] = 2
    assert not swallowed_countries(raw, countries, sea, min_inradius=20.0, min_area=2000.0).any()


def test_a_small_country_around_a_welded_digit_is_found_again() -> None:
    # A small box whose digit (a T) is welded to its right side: the paper
    # around it is a ring too thin for the disc, the box with the digit's
    # strokes closed over holds it. Closing filled it all: no country.
    raw = np.zeros((100, 100), dtype=bool)
    raw[10:13, 10:73] = raw[70:73, 10:73] = True
    raw[10:73, 10:13] = raw[10:73, 70:73] = True
    raw[40:43, 35:70] = raw[22:60, 35:38] = True  # the digit
    countries = np.ones(raw.shape, dtype=np.int32)  # the box's neighbours
    countries[10:73, 10:73] = 0
    sea = np.zeros(raw.shape, dtype=bool)
    sea[:5] = True
    countries[sea] = 0

    def found(hull: float, around: NDArray[np.int32] = countries) -> NDArray[np.bool_]:
        return swallowed_countries(
            raw,
            around,
            sea,
            min_inradius=15.0,
            min_area=3000.0,
            hull=hull,
            hull_area=1500.0,
            min_share=0.35,
        )

    assert not found(0.0).any()
    out = found(9.0)
    assert out[25, 25] and out[55, 60]  # the ring's paper ...
    assert out[41, 50] and out[30, 36]  # ... and the digit's strokes
    assert not out[11, 40] and not out[40, 71] and not out[80, 40]  # not the box nor outside
    # The digit's strokes wider than the disc: they are no writing.
    assert not found(2.0).any()
    # Among no countries (the sea, words' pockets): not a country.
    assert not found(9.0, np.zeros_like(countries)).any()


def test_a_straight_piece_of_border_cut_off_by_gaps_is_no_writing() -> None:
    # Writing-sized: under 6% of the 1000 px side.
    mask = np.zeros((1000, 1000), dtype=np.uint8)
    cv2.rectangle(mask, (20, 20), (980, 980), 1, 3)  # the border network
    cv2.line(mask, (60, 200), (110, 190), 1, 3)  # a faint stretch of border, alone
    cv2.putText(mask, "7", (250, 250), cv2.FONT_HERSHEY_SIMPLEX, 2.6, 1, 3)
    settings = ReaderSettings()
    borders, writing = split_writing(mask.astype(bool), line_width=4.0, settings=settings)
    assert borders[195, 60:110].any() and not writing[185:205, 60:110].any()
    assert writing[190:260, 240:310].any()  # the digit's strokes bend: writing
    # Along removed printed ruling it is what is left of a ruling line.
    ruling = np.zeros(mask.shape, dtype=bool)
    cv2.line(ruling.view(np.uint8), (0, 212), (999, 12), 1, 3)
    _, writing = split_writing(mask.astype(bool), line_width=4.0, settings=settings, ruling=ruling)
    assert writing[185:205, 60:110].any()
    # Turned off, it is writing as before.
    off = ReaderSettings(fragment_min_extent=0.0)
    _, writing = split_writing(mask.astype(bool), line_width=4.0, settings=off)
    assert writing[185:205, 60:110].any()


def _broken_border_map() -> NDArray[np.uint8]:
    """Two countries whose common border, a thinner pencil line that wavers,
    is broken into nine pieces (each too crooked and too short to be taken
    for a stretch of border alone), 7 px gaps between them."""
    img = _paper()
    cv2.rectangle(img, (150, 150), (750, 550), INK, LW, cv2.LINE_AA)
    ys = np.arange(150, 551)
    xs = 450 + 10 * np.sin((ys - 150) / 400 * 6 * np.pi)
    keep = np.ones(len(ys), dtype=bool)
    for start in range(150, 520, 45):
        keep[(ys >= start + 1) & (ys < start + 8)] = False
    pieces = np.split(np.arange(len(ys)), np.flatnonzero(np.diff(keep.astype(int))) + 1)
    for idx in pieces:
        if keep[idx[0]]:
            line = np.stack([xs[idx], ys[idx]], 1).astype(np.int32).reshape(-1, 1, 2)
            cv2.polylines(img, [line], False, INK, 2, cv2.LINE_AA)
    cv2.putText(img, "7", (280, 360), cv2.FONT_HERSHEY_SIMPLEX, 1.4, INK, 3)
    cv2.putText(img, "12", (580, 360), cv2.FONT_HERSHEY_SIMPLEX, 1.4, INK, 3)
    return img


def test_a_border_broken_into_a_chain_of_pieces_separates_its_countries() -> None:
    img = _broken_border_map()
    seg = segment(img)
    assert len(seg.regions) == 2
    assert _cell_of(seg, 300, 250) != _cell_of(seg, 600, 250)
    assert _cell_of(seg, 300, 250) > 0 and _cell_of(seg, 600, 250) > 0
    # Turned off, the pieces are writing and the two countries one.
    assert len(segment(img, settings=ReaderSettings(chain_min_span=0.0)).regions) == 1


def test_a_number_written_across_a_narrow_country_is_no_chain() -> None:
    borders = np.zeros((200, 300), dtype=bool)
    borders[:, 100:103] = borders[:, 197:200] = True
    kw = dict(line_width=3.0, min_length=12.0, max_fill=1.3, reach=9.0, min_span=60.0)
    # A faint border (thinner than the map's line width) crossing the country
    # in three wavering pieces: a chain.
    chain = np.zeros_like(borders)
    for x0 in (106, 136, 166):
        xs = np.arange(x0, x0 + 26)
        ys = 60 + 3 * np.sin(xs / 5.0)
        cv2.polylines(chain.view(np.uint8), [np.stack([xs, ys], 1).astype(np.int32)], False, 1, 1)
    assert chained_fragments(borders, chain, **kw).sum() == chain.sum()
    # A number as wide as the country with a double underline reaching both
    # sides is more ink for its length.
    number = np.zeros_like(borders)
    cv2.putText(number.view(np.uint8), "22", (108, 150), cv2.FONT_HERSHEY_SIMPLEX, 1.9, 1, 3)
    for y in (160, 168):
        xs = np.arange(106, 194)
        ys = y + 2 * np.sin(xs / 4.0)
        cv2.polylines(number.view(np.uint8), [np.stack([xs, ys], 1).astype(np.int32)], False, 1, 2)
    fill = ReaderSettings().chain_max_fill
    assert chained_fragments(borders, number, **kw, max_chain_fill=1e9).any()
    assert not chained_fragments(borders, number, **kw, max_chain_fill=fill).any()


def test_a_faint_border_traced_twice_is_a_chain() -> None:
    # Two broken strokes side by side, two line widths apart: more ink for
    # its length than one stroke, less than a number with its underline.
    borders = np.zeros((200, 300), dtype=bool)
    borders[:, 100:103] = borders[:, 197:200] = True
    kw = dict(line_width=3.0, min_length=12.0, max_fill=1.3, reach=9.0, min_span=60.0)
    chain = np.zeros_like(borders)
    for y, starts in ((60, (106, 136, 166)), (66, (106, 121, 151, 181))):
        for x0 in starts:
            xs = np.arange(x0, min(x0 + 27, 194), 0.25)
            ys = y + 2 * np.sin(xs / 5.0)
            line = np.stack([xs, ys], 1).round().astype(np.int32)
            cv2.polylines(chain.view(np.uint8), [line], False, 1, 2)
    fill = ReaderSettings().chain_max_fill
    assert chained_fragments(borders, chain, **kw, max_chain_fill=fill).sum() == chain.sum()


def test_one_piece_alone_from_border_to_border_is_no_chain() -> None:
    # A single stroke across a narrow country (a cross-out reaching both
    # sides) is for linked_fragments and split_writing to judge: a chain is
    # two pieces or more.
    borders = np.zeros((200, 300), dtype=bool)
    borders[:, 100:103] = borders[:, 197:200] = True
    kw = dict(line_width=3.0, min_length=12.0, max_fill=1.3, reach=9.0, min_span=60.0)
    stroke = np.zeros_like(borders)
    xs = np.arange(106, 194)
    ys = 60 + 3 * np.sin(xs / 5.0)
    cv2.polylines(stroke.view(np.uint8), [np.stack([xs, ys], 1).astype(np.int32)], False, 1, 1)
    assert not chained_fragments(borders, stroke, **kw).any()
    # Cut in two, the same stroke is a chain.
    stroke[:, 148:152] = False
    assert chained_fragments(borders, stroke, **kw).sum() == stroke.sum()


def test_a_bending_piece_of_border_longer_than_a_number_is_no_writing() -> None:
    # Writing-sized (58 px: under 6% of the 1000 px side) but 19 line widths
    # long, a single stroke bending too much to fit a box 2 line widths wide:
    # a stretch of faint border cut off by gaps, not writing. A "2" bends
    # too, but fills more than a single stroke.
    mask = np.zeros((1000, 1000), dtype=np.uint8)
    cv2.rectangle(mask, (20, 20), (980, 980), 1, 2)  # the border network
    xs = np.arange(60, 116)
    ys = 200 + 8 * np.sin((xs - 60) / 55.0 * np.pi)
    cv2.polylines(mask, [np.stack([xs, ys], 1).astype(np.int32)], False, 1, 2)
    cv2.putText(mask, "2", (250, 250), cv2.FONT_HERSHEY_SIMPLEX, 2.0, 1, 3)
    settings = ReaderSettings()
    borders, writing = split_writing(mask.astype(bool), line_width=3.0, settings=settings)
    assert borders[195:212, 60:116].any() and not writing[190:215, 55:120].any()
    assert writing[190:260, 240:310].any()
    off = ReaderSettings(fragment_bent_extent=0.0)
    _, writing = split_writing(mask.astype(bool), line_width=3.0, settings=off)
    assert writing[190:215, 55:120].any()


def _cut(raw: NDArray[np.bool_], closed: NDArray[np.bool_], thin: float) -> NDArray[np.bool_]:
    """cut_pockets on the paper areas of ``closed`` holding a disc of 5 px."""
    free = (~closed).astype(np.uint8)
    count, pockets = cv2.connectedComponents(free, connectivity=8)
    dist = cv2.distanceTransform(free, cv2.DIST_L2, 5)
    inradius = np.zeros(count, dtype=np.float32)
    np.maximum.at(inradius, pockets.ravel(), dist.ravel())
    return cut_pockets(raw, pockets, inradius, min_inradius=5.0, max_inradius=thin)


def test_a_country_cut_into_slivers_by_gap_closing_keeps_its_gap() -> None:
    # A box whose bottom line carries a straight stroke (a welded '1') that
    # stops short of the top line; closing tied it on and cut the box in two.
    raw = np.zeros((100, 200), dtype=bool)
    raw[10, 10:191] = raw[90, 10:191] = True
    raw[10:91, 10] = raw[10:91, 100] = raw[10:91, 190] = True
    raw[16:91, 55] = True
    closed = raw.copy()
    closed[10:16, 55] = True
    out = _cut(raw, closed, 30.0)
    assert out[50, 30] and out[50, 80] and not out[50, 150] and not raw[out].any()
    # Halves wide enough to be countries: nothing.
    assert not _cut(raw, closed, 15.0).any()
    # A narrow country beside a wide one: a real border.
    raw[16:91, 55] = False
    raw[16:91, 30] = True
    closed = raw.copy()
    closed[10:16, 30] = True
    assert not _cut(raw, closed, 30.0).any()


def _split(
    raw: NDArray[np.bool_],
    closed: NDArray[np.bool_],
    writing: NDArray[np.bool_],
    judge: Callable[[NDArray[np.float32]], float] | None = None,
) -> NDArray[np.bool_]:
    """welded_splits on the paper areas of ``closed`` holding a disc of 5 px, for
    writing 30 px high and lines 3 px wide (``judge``: the digit reader, the ink
    its darkness)."""
    free = (~closed).astype(np.uint8)
    count, pockets = cv2.connectedComponents(free, connectivity=8)
    dist = cv2.distanceTransform(free, cv2.DIST_L2, 5)
    inradius = np.zeros(count, dtype=np.float32)
    np.maximum.at(inradius, pockets.ravel(), dist.ravel())
    return welded_splits(
        raw,
        closed,
        pockets,
        inradius,
        writing,
        min_inradius=5.0,
        max_extent=60.0,
        reach=12.0,
        clean_height=15.0,
        line_length=39.0,
        min_stroke=15.0,
        min_bend=9.0,
        min_thickness=1.5,
        darkness=raw.astype(np.float32),
        judge=judge,
        min_posterior=0.9,
    )


def test_a_country_cut_by_a_welded_number_tied_across_keeps_its_gap() -> None:
    # A box 40 px wide; a "7" hangs on its left line by its bar, the bar's
    # end 5 px short of the right line: closing tied it on and cut the box.
    raw = np.zeros((240, 200), dtype=np.uint8)
    cv2.rectangle(raw, (10, 10), (50, 230), 1, 3)
    cv2.rectangle(raw, (50, 10), (190, 230), 1, 3)
    seven = np.array([[10, 100], [43, 100], [30, 128]], np.int32).reshape(-1, 1, 2)
    cv2.polylines(raw, [seven], False, 1, 3)
    raw = raw.astype(bool)
    closed = raw.copy()
    closed[99:102, 43:50] = True
    writing = np.zeros_like(raw)
    out = _split(raw, closed, writing)
    assert out[50, 30] and out[180, 30] and not out[120, 120] and not raw[out].any()
    # The digit reader judges the bent ink: a stub it does not read as a number
    # is a real border stopping short.
    seen: list[NDArray[np.float32]] = []

    def reader(surely: float) -> Callable[[NDArray[np.float32]], float]:
        def read(crop: NDArray[np.float32]) -> float:
            seen.append(crop)
            return surely

        return read

    assert not _split(raw, closed, writing, reader(0.5)).any()
    assert seen and seen[-1].any()
    assert _split(raw, closed, writing, reader(0.95))[50, 30]
    # A number in either part: a real border between numbered countries.
    numbered = writing.copy()
    numbered[40:65, 30:33] = True
    assert not _split(raw, closed, numbered).any()
    # A straight stretch of border stopping short: a real gap.
    straight = np.zeros(raw.shape, dtype=np.uint8)
    cv2.rectangle(straight, (10, 10), (50, 230), 1, 3)
    cv2.rectangle(straight, (50, 10), (190, 230), 1, 3)
    cv2.line(straight, (10, 100), (43, 100), 1, 3)
    raw = straight.astype(bool)
    closed = raw.copy()
    closed[99:102, 43:50] = True
    assert not _split(raw, closed, writing).any()


def test_a_welded_one_tied_to_the_border_across_is_writing() -> None:
    rng = np.random.default_rng(3)
    img = _paper()
    xs, ys = np.linspace(150, 750, 10), np.linspace(120, 600, 10)
    for x in xs:
        cv2.polylines(img, [_wobbly((x, 120), (x, 600), rng)], False, INK, 6, cv2.LINE_AA)
    for y in ys:
        cv2.polylines(img, [_wobbly((150, y), (750, y), rng)], False, INK, 6, cv2.LINE_AA)
    # A '1' in the middle cell: its foot on the bottom line, its top 8 px
    # short of the top line (gap closing reaches it).
    cx, cy = int((xs[4] + xs[5]) / 2), (ys[4] + ys[5]) / 2
    cv2.line(img, (cx, int(ys[4]) + 11), (cx, int(ys[5])), INK, 6, cv2.LINE_AA)
    cv2.line(img, (cx, int(ys[4]) + 11), (cx - 12, int(ys[4]) + 25), INK, 6, cv2.LINE_AA)
    # These cells are wider for their lines than a real sudoku's: the halves
    # the '1' cuts are 3.5 and 4.1 line widths.
    seg = segment(img, settings=replace(ReaderSettings(), cut_pocket_inradius=4.5))
    assert len(seg.regions) == 81
    assert _cell_of(seg, cx - 15, cy) == _cell_of(seg, cx + 15, cy)


def _welded_seven(corners: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Two countries split by a wobbly vertical line at x = 450 and a "7" (its three
    ``corners``) hanging on the line by the end of its bar: the photo and the 7's own
    pixels off the line's ink."""
    rng = np.random.default_rng(5)
    img = _paper()
    cv2.rectangle(img, (150, 120), (750, 600), INK, LW, cv2.LINE_AA)
    cv2.polylines(img, [_wobbly((450, 120), (450, 600), rng)], False, INK, LW, cv2.LINE_AA)
    seven = np.array(corners, np.int32).reshape(-1, 1, 2)
    cv2.polylines(img, [seven], False, INK, LW, cv2.LINE_AA)
    digit = np.zeros((H, W), np.uint8)
    cv2.polylines(digit, [seven], False, 1, LW + 2)
    digit[:, :456] = 0  # off the line's own ink
    return img, digit.astype(bool)


def test_a_digit_welded_to_a_border_is_writing_down_to_the_border() -> None:
    # Two countries split by a vertical line; a "7" hangs on the line by the
    # end of its bar, its foot near the line. Only its corner sticks out
    # beyond protrusion_distance: the strokes that join it to the line are
    # writing too.
    img, digit = _welded_seven([[451, 340], [468, 340], [459, 372]])
    taken = {}
    for root in (0.0, 1.0):
        seg = segment(img, settings=replace(ReaderSettings(), protrusion_root=root))
        assert len(seg.regions) == 2
        taken[root] = (seg.writing & digit).sum() / (seg.ink & digit).sum()
    assert taken[1.0] > 0.9 and taken[0.0] < 0.6


def test_a_tall_digit_welded_to_a_border_is_writing_down_to_the_border() -> None:
    # A "7" about 9 line widths tall hangs on the line between two countries
    # by the end of its bar: its strokes are still followed back to the line.
    img, digit = _welded_seven([[451, 330], [480, 330], [462, 385]])
    taken = {}
    for extent in (8.0, ReaderSettings().protrusion_root_extent):
        seg = segment(img, settings=replace(ReaderSettings(), protrusion_root_extent=extent))
        assert len(seg.regions) == 2
        taken[extent] = (seg.writing & digit).sum() / (seg.ink & digit).sum()
    assert taken[16.0] > 0.9 > taken[8.0]


def _hanging_piece() -> tuple[NDArray[np.bool_], NDArray[np.bool_], NDArray[np.int32]]:
    # A piece of border ink 30 px long off the boundary: its far end (the
    # protrusion) and the stroke back towards the line, in country 1.
    stub = np.zeros((100, 100), bool)
    loose = np.zeros((100, 100), bool)
    loose[40:44, 30:60] = True
    stub[40:44, 50:60] = True
    labels = np.ones((100, 100), np.int32)
    labels[loose] = 0
    return stub, loose, labels


def test_a_piece_next_to_the_sea_is_not_followed_back() -> None:
    from aggression_vision.vision import regions

    stub, loose, labels = _hanging_piece()
    kw = dict(max_extent=40.0, reach=30.0, min_tip=4.0, labels=labels)
    taken = regions._protrusion_roots(stub, loose, **kw)
    assert taken[loose].all()
    sea = np.zeros_like(stub)
    sea[:36] = True  # a title on a frame line: the sea 4 px above it
    labels[:36] = 0
    kept = regions._protrusion_roots(stub, loose, sea=sea, sea_reach=10.0, **kw)
    assert not (kept & ~stub).any()
    far = regions._protrusion_roots(stub, loose, sea=sea, sea_reach=2.0, **kw)
    assert far[loose].all()


def test_a_piece_among_ink_is_not_followed_back() -> None:
    from aggression_vision.vision import regions

    stub, loose, labels = _hanging_piece()
    kw = dict(max_extent=40.0, reach=30.0, min_tip=4.0, min_paper=0.3)
    assert regions._protrusion_roots(stub, loose, labels=labels, **kw)[loose].all()
    labels[5:80, :95] = 0  # printed text: no paper of a country around the piece
    kept = regions._protrusion_roots(stub, loose, labels=labels, **kw)
    assert not (kept & ~stub).any()


def test_a_piece_between_two_countries_is_not_followed_back() -> None:
    from aggression_vision.vision import regions

    stub, loose, labels = _hanging_piece()
    labels[44:] = 2  # the stroke back runs along the border with country 2
    labels[loose] = 0
    kept = regions._protrusion_roots(
        stub, loose, max_extent=40.0, reach=30.0, min_tip=4.0, labels=labels
    )
    assert not (kept & ~stub).any()


STUB_LW = 4.5  # what a 3-thick cv2.line measures


def _stub_bridges_in_frame(
    mask: NDArray[np.uint8],
    min_extent: float = 6 * STUB_LW,
    unclosed: NDArray[np.uint8] | None = None,
) -> NDArray[np.bool_]:
    """stub_bridges on ``mask`` drawn 3 thick: the frame 10 px in is the border
    network, everything inside it the protrusions."""
    lw = STUB_LW
    borders = mask.astype(bool)
    stub = borders.copy()
    stub[:15] = stub[185:] = stub[:, :15] = stub[:, 285:] = False

    def bridge(b: NDArray[np.bool_], far: NDArray[np.bool_] | None) -> NDArray[np.bool_]:
        return bridge_ends(b, line_width=lw, reach=12 * lw, min_branch=6 * lw, cone=30)

    return stub_bridges(
        borders,
        stub,
        line_width=lw,
        min_extent=min_extent,
        max_fill=1.3,
        margin=20 * lw,
        bridge=bridge,
        unclosed=None if unclosed is None else unclosed.astype(bool),
        max_density=0.6,
        window=3.0,
    )


def test_stub_bridges_measures_a_piece_on_its_ink_before_closing() -> None:
    # Closing filled the paper beside a wavering border piece: the closed
    # piece is a band 17 px thick (too full for a line), its ink a 3-thick line.
    closed = np.zeros((200, 300), np.uint8)
    cv2.rectangle(closed, (10, 10), (290, 190), 1, 3)
    raw = closed.copy()
    cv2.rectangle(closed, (40, 52), (260, 68), 1, -1)
    cv2.line(raw, (40, 60), (260, 60), 1, 3)
    assert not _stub_bridges_in_frame(closed).any()
    out = _stub_bridges_in_frame(closed, unclosed=raw)
    assert out[50:71, 14:38].any() and out[50:71, 262:286].any()
    # A digit's strokes on the line (ink filling a window 3 line widths
    # square) are no border's: the piece is measured on the closed ink.
    cv2.rectangle(raw, (140, 53), (155, 67), 1, -1)
    assert not _stub_bridges_in_frame(closed, unclosed=raw).any()


def test_stub_bridges_ties_a_loose_line_piece_and_not_a_digit() -> None:
    mask = np.zeros((200, 300), np.uint8)
    cv2.rectangle(mask, (10, 10), (290, 190), 1, 3)  # the network
    cv2.line(mask, (40, 60), (260, 60), 1, 3)  # a border piece, 27 px gaps both sides
    cv2.circle(mask, (150, 130), 15, 1, 3)  # a digit's loop: bent, not line-like
    out = _stub_bridges_in_frame(mask)
    assert out[55:66, 14:38].any() and out[55:66, 262:286].any()
    assert not out[100:160].any() and not (out & mask.astype(bool)).any()
    # Shorter than min_extent: left alone.
    assert not _stub_bridges_in_frame(mask, min_extent=90 * STUB_LW).any()


def test_a_border_broken_off_at_both_ends_still_separates_its_countries() -> None:
    # Gaps of 30 px (about 5 line widths): wider than gap closing, so the line
    # hangs free and the protrusion step would take it for writing.
    rng = np.random.default_rng(4)
    img = _paper()
    cv2.rectangle(img, (150, 120), (750, 600), INK, LW, cv2.LINE_AA)
    cv2.polylines(img, [_wobbly((450, 150), (450, 570), rng)], False, INK, LW, cv2.LINE_AA)
    cv2.putText(img, "2", (560, 380), cv2.FONT_HERSHEY_SIMPLEX, 1.5, INK, LW, cv2.LINE_AA)
    seg = segment(img)
    assert len(seg.regions) == 2
    assert _cell_of(seg, 300, 360) != _cell_of(seg, 650, 300)
    off = segment(img, settings=replace(ReaderSettings(), stub_bridge_reach=0.0))
    assert len(off.regions) == 1


def _hanging_border(digits: bool) -> NDArray[np.uint8]:
    """A border from the top of a box stopping 48 px (~7.8 measured line
    widths: wider than stub_bridge_reach 6) short of the bottom, with a
    column of digits along it when ``digits``."""
    rng = np.random.default_rng(4)
    img = _paper()
    cv2.rectangle(img, (150, 120), (750, 600), INK, LW, cv2.LINE_AA)
    cv2.polylines(img, [_wobbly((450, 120), (450, 552), rng)], False, INK, LW, cv2.LINE_AA)
    cv2.putText(img, "2", (560, 380), cv2.FONT_HERSHEY_SIMPLEX, 1.5, INK, LW, cv2.LINE_AA)
    if digits:
        for y in range(170, 532, 45):
            cv2.putText(img, "7", (458, y), cv2.FONT_HERSHEY_SIMPLEX, 1.2, INK, LW, cv2.LINE_AA)
    return img


def test_a_border_stopping_farther_than_stub_bridge_reach_is_continued() -> None:
    # Clear of writing, the hanging border's loose end is continued up to
    # stub_long_reach line widths, and it separates its two countries.
    img = _hanging_border(digits=False)
    seg = segment(img)
    assert len(seg.regions) == 2
    assert _cell_of(seg, 300, 360) != _cell_of(seg, 650, 300)
    # (dividing_pieces, which continues such a line too, turned off as well.)
    off = segment(img, settings=replace(ReaderSettings(), stub_long_reach=0.0, divide_inradius=0.0))
    assert len(off.regions) == 1


def test_a_line_along_writing_is_not_continued_farther() -> None:
    # The same line with digits all along it is taken as an underline or a
    # number's stroke: the longer reach is not for it (stub_long_share 1
    # lets it through).
    img = _hanging_border(digits=True)
    assert len(segment(img).regions) == 1
    loose = replace(ReaderSettings(), stub_long_share=1.0)
    assert len(segment(img, settings=loose).regions) == 2


def test_a_short_border_hanging_off_a_junction_is_bridged_and_kept() -> None:
    # A band along the top of the map, cut in two by a border that leaves the
    # junction below and stops 21 px (~4.3 line widths, wider than gap
    # closing) short of the top line: its branch (~5 line widths) is shorter
    # than bridge_min_branch 6, so stub bridging with a shorter branch ties
    # it, and its bridge must stay border: the last bridging pass, which
    # needs a branch of bridge_min_branch, would not make it again (without
    # keeping it: 3 regions).
    img = _paper()
    cv2.rectangle(img, (150, 120), (750, 600), INK, LW, cv2.LINE_AA)
    cv2.line(img, (150, 168), (750, 168), INK, LW, cv2.LINE_AA)
    cv2.line(img, (450, 168), (452, 141), INK, LW, cv2.LINE_AA)
    cv2.line(img, (450, 168), (450, 600), INK, LW, cv2.LINE_AA)
    settings = replace(ReaderSettings(), stub_bridge_extent=4.0, stub_bridge_min_branch=4.0)
    seg = segment(img, settings=settings)
    assert len(seg.regions) == 4
    assert 0 != _cell_of(seg, 300, 144) != _cell_of(seg, 600, 144) != 0
    off = segment(img, settings=replace(settings, stub_bridge_min_branch=6.0))
    assert len(off.regions) == 3
    assert _cell_of(off, 300, 144) == _cell_of(off, 600, 144)


def test_stub_bridges_ties_a_bent_line_piece() -> None:
    mask = np.zeros((200, 300), np.uint8)
    cv2.rectangle(mask, (10, 10), (290, 190), 1, 3)
    # An L-shaped border piece: 27 px from the left side, 38 px above the bottom.
    cv2.polylines(
        mask, [np.int32([[40, 60], [200, 60], [200, 150]]).reshape(-1, 1, 2)], False, 1, 3
    )
    out = _stub_bridges_in_frame(mask)
    assert out[55:66, 14:38].any() and out[152:186, 195:206].any()


def test_linked_fragments_takes_a_piece_between_borders_not_a_free_one() -> None:
    lw = 4.5
    mask = np.zeros((200, 300), np.uint8)
    cv2.line(mask, (10, 20), (290, 20), 1, 3)  # two border lines
    cv2.line(mask, (10, 180), (290, 180), 1, 3)
    borders = mask.astype(bool)
    writing = np.zeros_like(borders)
    piece = np.zeros((200, 300), np.uint8)
    cv2.line(piece, (100, 30), (100, 170), 1, 3)  # 8 px gaps to both lines
    cv2.line(piece, (200, 60), (200, 140), 1, 3)  # as long, but far from both
    writing |= piece.astype(bool)
    kwargs = dict(line_width=lw, min_length=9 * lw, min_straightness=0.6, max_fill=1.3)
    out = linked_fragments(borders, writing, reach=3 * lw, **kwargs)
    assert out[100, 98:103].any() and not out[:, 190:].any()
    # Out of reach: nothing.
    assert not linked_fragments(borders, writing, reach=1 * lw, **kwargs).any()


def test_linked_fragments_takes_a_dash_close_to_both_borders() -> None:
    """A dash of a border drawn in dashes (shorter than min_length) between two lines."""
    lw = 6.0
    mask = np.zeros((120, 200), np.uint8)
    cv2.line(mask, (10, 20), (190, 20), 1, 6)  # two border lines 60 px apart
    cv2.line(mask, (10, 80), (190, 80), 1, 6)
    borders = mask.astype(bool)
    dash = np.zeros((120, 200), np.uint8)
    cv2.line(dash, (60, 29), (60, 71), 1, 6)  # about 5 px gaps to both lines
    cv2.line(dash, (140, 40), (140, 60), 1, 6)  # as short, but 17 px from both
    writing = dash.astype(bool)
    kw = dict(line_width=lw, min_length=9 * lw, min_straightness=0.6, max_fill=1.3, reach=3 * lw)
    assert not linked_fragments(borders, writing, **kw).any()  # shorter than min_length
    out = linked_fragments(borders, writing, short_length=4 * lw, short_reach=1.5 * lw, **kw)
    assert out[50, 58:63].any() and not out[:, 130:].any()


def test_a_short_border_piece_cut_off_by_gaps_separates_its_countries() -> None:
    img = _paper(1800, 1400)
    cv2.rectangle(img, (200, 200), (1600, 1200), INK, LW, cv2.LINE_AA)
    cv2.line(img, (200, 300), (1600, 300), INK, LW, cv2.LINE_AA)
    # The border between the band's two countries: a bent piece under writing
    # size (6% of 1800 px) and fragment length, 12 px short of both lines.
    bent = np.int32([[900, 213], [910, 238], [912, 262], [900, 287]]).reshape(-1, 1, 2)
    cv2.polylines(img, [bent], False, INK, LW, cv2.LINE_AA)
    seg = segment(img)
    scale = seg.image.shape[1] / 1800  # the working image is smaller
    left, right = (int(500 * scale), int(250 * scale)), (int(1300 * scale), int(250 * scale))
    assert 0 != _cell_of(seg, *left) != _cell_of(seg, *right) != 0
    # (dividing_pieces, which takes such a piece too, turned off as well.)
    off = segment(img, settings=replace(ReaderSettings(), link_reach=0.0, divide_inradius=0.0))
    assert _cell_of(off, *left) == _cell_of(off, *right) != 0


def _neck_map(passage: int) -> NDArray[np.uint8]:
    """A framed map: two half-ellipses from the top and bottom edges whose rims
    pass ``passage`` px apart (centre to centre) in the middle; the paper left
    and right of them is one country joined through that neck."""
    img = _paper()
    cv2.rectangle(img, (150, 120), (750, 600), INK, LW, cv2.LINE_AA)
    top = 360 - passage // 2
    bottom = top + passage
    cv2.ellipse(img, (450, 120), (200, top - 120), 0, 0, 180, INK, LW, cv2.LINE_AA)
    cv2.ellipse(img, (450, 600), (200, 600 - bottom), 0, 180, 360, INK, LW, cv2.LINE_AA)
    return img


def test_a_narrow_neck_closed_by_gap_closing_is_opened_again() -> None:
    img = _neck_map(9)
    seg = segment(img)
    assert len(seg.regions) == 3
    assert _cell_of(seg, 200, 360) == _cell_of(seg, 700, 360) != 0
    off = segment(img, settings=replace(ReaderSettings(), neck_end_reach=0))
    assert len(off.regions) == 4


def test_neck_closings_leaves_a_gap_where_a_line_stops_short() -> None:
    raw = np.zeros((60, 90), bool)
    raw[10:13, 5:85] = True  # a line across the top ...
    raw[47:50, 5:85] = True  # ... and the bottom
    raw[10:50, 5:8] = raw[10:50, 82:85] = True
    raw[13:40, 44:47] = True  # a line down from the top stopping 7 px short
    closed = raw.copy()
    closed[40:47, 44:47] = True
    countries = np.zeros(raw.shape, np.int32)
    countries[13:47, 8:44] = 1
    countries[13:47, 47:82] = 2
    countries[closed] = 0
    kw = {"min_width": 2.0, "side_reach": 8.0}
    assert not neck_closings(raw, closed, countries, end_reach=4.0, **kw).any()
    # The stopping line's end is what tells: looked for nowhere, it is a neck.
    assert neck_closings(raw, closed, countries, end_reach=0.0, **kw).any()


def _underlined_number(pen: tuple[int, int, int]) -> tuple[NDArray[np.bool_], NDArray[np.uint8]]:
    """A blue-pen box (a border network) holding a grey number with a
    straight underline 60 px long drawn in ``pen``, 5 px beside it, its ends
    4 px from the box's top and bottom lines."""
    h, w = 600, 1400
    colour = np.full((h, w, 3), 235, np.uint8)
    ink = np.zeros((h, w), np.uint8)
    cv2.rectangle(ink, (500, 196), (900, 268), 1, 3)
    colour[ink > 0] = (170, 60, 40)
    number = np.zeros((h, w), np.uint8)
    cv2.circle(number, (620, 232), 12, 1, 3)
    cv2.line(number, (640, 218), (640, 246), 1, 3)
    under = np.zeros((h, w), np.uint8)
    cv2.line(under, (601, 202), (601, 262), 1, 3)
    colour[number > 0] = (120, 120, 120)
    colour[under > 0] = pen
    return (ink | number | under) > 0, colour


def test_an_underline_in_the_writing_pen_beside_its_number_is_writing() -> None:
    settings = ReaderSettings()
    mask, colour = _underlined_number((120, 120, 120))
    under = np.zeros(mask.shape, bool)
    under[205:260, 600:603] = True
    _, writing = split_writing(mask, line_width=4.0, settings=settings, colour=colour)
    assert writing[under].all()
    # Without the colours, or in the borders' pen, it is a piece of border.
    _, writing = split_writing(mask, line_width=4.0, settings=settings)
    assert not writing[under].any()
    mask, colour = _underlined_number((170, 60, 40))
    _, writing = split_writing(mask, line_width=4.0, settings=settings, colour=colour)
    assert not writing[under].any()


def test_linked_fragments_leaves_an_underline_beside_its_number() -> None:
    mask, colour = _underlined_number((120, 120, 120))
    box = np.zeros(mask.shape, np.uint8)
    cv2.rectangle(box, (500, 196), (900, 268), 1, 3)
    borders = box > 0
    writing = mask & ~borders
    kw = {"line_width": 4.0, "min_length": 36.0, "min_straightness": 0.6, "max_fill": 1.6}
    kw |= {"reach": 12.0, "beside": 12.0, "contrast": 20.0}
    assert not linked_fragments(borders, writing, colour=colour, **kw).any()
    assert linked_fragments(borders, writing, **kw)[230, 601]


def test_a_walk_from_a_loose_end_stops_at_the_junction_it_reaches() -> None:
    from aggression_vision.vision.regions import _branch_from

    # A tick (a printed grid line's remnant) hanging off a border at a T,
    # as thinning leaves it (tune 513): the step onto the junction also
    # takes in a pixel of the border's lower arm, so the junction is seen
    # from its three runs of neighbours, not from two unseen neighbours.
    rows = [
        "...............#",
        "..............#.",
        ".............#..",
        "............##..",
        "...........##...",
        ".........##.....",
        "..########......",
        "........#.......",
        ".......#........",
        ".......#........",
        ".......#........",
    ]
    skeleton = np.array([[c == "#" for c in row] for row in rows])
    path, junction = _branch_from(skeleton, (6, 2), 40)
    assert junction
    assert path[-1] == (6, 8) and len(path) == 7


#: A pencil border's two tapering ends (tune 526): closing joins them by a
#: line one pixel thin, with a diagonal step.
_TAPERING_ENDS = [
    "####.............",
    "####.............",
    "####.............",
    "#####............",
    "..####...........",
    "...####..........",
    "....####.........",
    ".....###.........",
    "......##.........",
    ".......#.........",
    ".................",
    ".................",
    "...........##....",
    "..........####...",
    "...........####..",
    "............###..",
    ".............###.",
]


def _paper_areas(ink: np.ndarray) -> int:
    return cv2.connectedComponents((~ink).astype(np.uint8), connectivity=8)[0] - 1


def test_closing_leaves_no_diagonal_passage_across_the_line() -> None:
    # The paper on either side would cross the join's diagonal step
    # (8-connected) if closing did not fill it.
    mask = np.array([[c == "#" for c in row] for row in _TAPERING_ENDS])
    closed = close_gaps(mask, gap=11)
    assert closed[10:12].any()  # joined
    assert _paper_areas(mask) == 1
    assert _paper_areas(closed) == 2


def test_closing_leaves_the_steps_open_along_the_image_edge() -> None:
    # Within ``edge`` pixels of the image's edge (here the whole drawing)
    # the step stays: the ink there is more often a notebook's binding.
    mask = np.array([[c == "#" for c in row] for row in _TAPERING_ENDS])
    closed = close_gaps(mask, gap=11, edge=6)
    assert closed[10:12].any()
    assert _paper_areas(closed) == 1


def _framed_diagonal(size: int = 60) -> NDArray[np.bool_]:
    """A square frame cut by a one-pixel diagonal line (a staircase touching by corners)."""
    ink = np.zeros((size, size), dtype=bool)
    ink[:2], ink[-2:], ink[:, :2], ink[:, -2:] = True, True, True, True
    ink[np.arange(size), np.arange(size)] = True
    return ink


def test_seal_steps_parts_two_wide_areas_joined_by_a_diagonal_step() -> None:
    ink = _framed_diagonal()
    assert _paper_areas(ink) == 1  # 8-connected paper crosses the line
    sealed = seal_steps(ink, min_inradius=5.0)
    assert _paper_areas(sealed) == 2
    assert (sealed >= ink).all()


def test_seal_steps_leaves_small_areas_joined() -> None:
    # Areas too small to hold the disc (a grid square, a digit's loop) stay one.
    ink = _framed_diagonal()
    assert seal_steps(ink, min_inradius=30.0) is ink


def test_seal_steps_leaves_the_steps_along_the_ruling_open() -> None:
    ink = _framed_diagonal()
    ruling = np.zeros_like(ink)
    ruling[np.arange(60), np.arange(60)] = True
    assert _paper_areas(seal_steps(ink, min_inradius=5.0, ruling=ruling)) == 1


def test_welded_seeds_give_a_country_the_gap_closing_filled_beside_a_digit() -> None:
    # A line between countries 1 and 2, a "]" welded to it on the right by its
    # top arm; closing filled the paper between the "]" and the line. Lower
    # down the line has a gap that closing also filled.
    raw = np.zeros((120, 100), dtype=bool)
    raw[:, 48:52] = True
    raw[100:104, 48:52] = False  # the gap in the line
    raw[40:43, 52:61] = raw[58:61, 55:61] = raw[40:61, 58:61] = True  # the "]"
    fill = np.zeros_like(raw)
    fill[43:58, 52:58] = fill[58:61, 52:55] = True
    fill[100:104, 48:52] = True
    labels = np.zeros(raw.shape, dtype=np.int32)
    labels[:, :48] = 1
    labels[:, 52:] = 2
    labels[raw | fill] = 0
    none = np.zeros(raw.shape, dtype=bool)
    found = SimpleNamespace(labels=labels, sea=none, barrier=none)
    seeded = welded_seeds(raw, found)  # type: ignore[arg-type]
    assert seeded is not None
    seeds = seeded[0]
    assert (
        seeds[fill & (np.arange(100) > 51)[None, :] & (np.arange(120) < 90)[:, None]] == 2
    ).all()
    assert not seeds[100:104, 48:52].any()  # the gap touches both countries
    assert not seeds[raw].any()
    # Grown from the seeds, the boundary runs down the line, and the "]"
    # reaches 9 px beyond it; grown from the countries alone not.
    for start, far in ((labels, False), (seeds, True)):
        full = grow_labels(start, reach=500.0)
        edge = np.zeros(raw.shape, dtype=bool)
        edge[:, 1:] = full[:, 1:] != full[:, :-1]
        dist = cv2.distanceTransform((~edge).astype(np.uint8), cv2.DIST_L2, 3)
        assert (dist[40:61, 58:61] > 9).any() == far


def test_outline_traced_in_the_countrys_box_is_the_whole_page_one() -> None:
    """``_outline`` traces a grown country in its box: the same contour as over the page
    (a country at the image's corner, one grown into two pieces, one grown to the edge)."""
    from aggression_vision.vision.regions import _outline

    labels = np.zeros((60, 90), np.int32)
    labels[0:20, 0:30] = 1
    labels[25:40, 40:70] = 2
    labels[31:57, 76:89] = 3
    grown = labels.copy()
    grown[42:44, 50:53] = 2  # a detached piece within the reach
    grown[30:58, 75:90] = 3  # grown by one pixel, to the image's right edge
    for label, reach in ((1, 0.0), (2, 4.0), (3, 1.0)):
        _, _, stats, _ = cv2.connectedComponentsWithStats((labels == label).astype(np.uint8))
        contours, _ = cv2.findContours(
            (grown == label).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
        )
        whole = max(contours, key=cv2.contourArea)
        assert np.array_equal(_outline(grown, label, stats[1], reach), whole)


def test_a_bent_border_piece_cut_off_by_gaps_divides_its_country() -> None:
    img = _paper(1800, 1400)
    cv2.rectangle(img, (200, 200), (1600, 1200), INK, LW, cv2.LINE_AA)
    cv2.line(img, (200, 330), (1600, 330), INK, LW, cv2.LINE_AA)
    # The border between the band's two countries: a zigzag under writing
    # size, too bent for linked_fragments, about 12 px short of both lines.
    xs, ys = [900, 940, 900, 940, 900], [214, 239, 264, 289, 314]
    zigzag = np.int32(list(zip(xs, ys, strict=True))).reshape(-1, 1, 2)
    cv2.polylines(img, [zigzag], False, INK, LW, cv2.LINE_AA)
    # A number beside a border stays writing.
    cv2.putText(img, "17", (400, 400), cv2.FONT_HERSHEY_SIMPLEX, 2.5, INK, 4, cv2.LINE_AA)
    # (This zigzag reads as a 3 upright and as a 5 upside down, the latter above
    # divide_number_posterior: with that test on, it stays writing, as a number
    # welded to the borders would. The test is of the bent piece's joining.)
    settings = replace(ReaderSettings(), divide_number_posterior=0.0)
    seg = segment(img, settings=settings)
    scale = seg.image.shape[1] / 1800  # the working image is smaller
    left, right = (int(500 * scale), int(265 * scale)), (int(1300 * scale), int(265 * scale))
    assert 0 != _cell_of(seg, *left) != _cell_of(seg, *right) != 0
    assert len(seg.regions) == 3
    y0, y1, x0, x1 = (int(v * scale) for v in (350, 400, 400, 500))
    assert seg.writing[y0:y1, x0:x1].any()
    off = segment(img, settings=replace(settings, divide_inradius=0.0))
    assert _cell_of(off, *left) == _cell_of(off, *right) != 0


def test_a_border_broken_twice_divides_its_country() -> None:
    img = _paper(1800, 1400)
    cv2.rectangle(img, (200, 200), (1600, 1200), INK, LW, cv2.LINE_AA)
    cv2.line(img, (200, 450), (1600, 450), INK, LW, cv2.LINE_AA)
    # The border between the band's two countries, broken into two bent
    # pieces: each has one end near a line and points at the other.
    for xs, ys in (([900, 870, 905], [214, 260, 300]), ([915, 940, 905], [360, 400, 436])):
        piece = np.int32(list(zip(xs, ys, strict=True))).reshape(-1, 1, 2)
        cv2.polylines(img, [piece], False, INK, LW, cv2.LINE_AA)
    seg = segment(img)
    scale = seg.image.shape[1] / 1800  # the working image is smaller
    left, right = (int(500 * scale), int(325 * scale)), (int(1300 * scale), int(325 * scale))
    assert 0 != _cell_of(seg, *left) != _cell_of(seg, *right) != 0
    assert len(seg.regions) == 3
    off = segment(img, settings=replace(ReaderSettings(), divide_inradius=0.0))
    assert _cell_of(off, *left) == _cell_of(off, *right) != 0


def _dividing(
    borders: np.ndarray, writing: np.ndarray, found: Any, lw: float, **kw: Any
) -> np.ndarray:
    """``dividing_pieces`` with the tests' usual lengths and reaches (``kw`` adds
    to or overrides them)."""
    from aggression_vision.vision.regions import dividing_pieces

    args: dict[str, Any] = dict(
        line_width=lw,
        min_length=6 * lw,
        max_fill=1.3,
        min_straightness=0.5,
        end_reach=4 * lw,
        min_inradius=5 * lw,
    )
    return np.asarray(dividing_pieces(borders, writing, found, **(args | kw)))


def _one_boxed_country(lw: float) -> tuple[np.ndarray, Any]:
    """A 300 x 400 page whose borders (``lw`` wide) box in one country, and its
    countries (``_countries``)."""
    from aggression_vision.vision.regions import _countries

    borders = np.zeros((300, 400), bool)
    borders[50:54, 50:350] = borders[246:250, 50:350] = True
    borders[50:250, 50:54] = borders[50:250, 346:350] = True
    return borders, _countries(borders, line_width=lw, settings=ReaderSettings())


def test_a_hair_thin_piece_is_no_dividing_border() -> None:
    """``dividing_pieces`` joins a stretch of border cut off by gaps at both
    ends; one a pixel wide at a line width of 4 (a stretch of printed ruling
    the ruling search missed) stays writing."""

    lw = 4.0
    settings = ReaderSettings()
    borders, found = _one_boxed_country(lw)
    assert len(found.ids) == 1

    def divided(width: int, min_fill: float) -> bool:
        writing = np.zeros_like(borders)
        writing[66:234, 200 : 200 + width] = True  # 12 px short of both lines
        got = _dividing(borders, writing, found, lw, min_fill=min_fill)
        return bool(got[60:240, 200].all())

    assert divided(4, settings.divide_min_fill)
    assert not divided(1, settings.divide_min_fill)
    assert divided(1, 0.0)


def test_a_digit_beside_another_is_no_dividing_border() -> None:
    """A stroke that ``dividing_pieces`` would join to the borders (one end
    near a line, the other continued by a ray) stays writing when a
    digit-sized piece of writing lies side by side with it (the second 1 of
    an 11), unless the digit test is off or that piece is in another pen
    (much darker: a number in ink beside a pencilled border)."""

    lw = 4.0
    borders, found = _one_boxed_country(lw)

    def divided(other: bool, gap: float, ink: float = 0.3) -> bool:
        writing = np.zeros_like(borders)
        writing[66:180, 200:204] = True  # 12 px short of the top line only
        darkness = np.where(writing, np.float32(0.3), np.float32(0.0))
        if other:
            writing[75:170, 224:228] = True  # another 1, 20 px beside it
            darkness[75:170, 224:228] = ink
        got = _dividing(
            borders,
            writing,
            found,
            lw,
            ray_reach=100.0,
            digit_gap=gap,
            digit_extent=1.5,
            darkness=darkness,
            digit_tone=2.0,
        )
        return bool(got[60:240, 200].all())

    assert divided(False, 0.35)
    assert not divided(True, 0.35)
    assert not divided(True, 0.35, ink=0.5)  # the same pen, a firmer stroke
    assert divided(True, 0.35, ink=0.8)  # a number in ink: not the piece's
    assert divided(True, 0.0)


def test_a_piece_that_reads_as_a_number_is_no_dividing_border() -> None:
    """A piece that ``dividing_pieces`` would join to the borders stays writing
    when the number reader (``judge``) reads it as a number surely enough:
    turned any way with ``any_turn``, else turned as the page's writing (here
    the four wide "numbers" that read best unturned)."""

    lw = 4.0
    borders, found = _one_boxed_country(lw)

    def wide_reads(crop: np.ndarray) -> float:
        # (A stand-in for the network: ink wider than tall reads as a number.)
        return 0.95 if crop.shape[1] > crop.shape[0] else 0.05

    def divided(numbers: bool, **kw: Any) -> bool:
        writing = np.zeros_like(borders)
        writing[66:234, 200:204] = True  # 12 px short of both lines: tall
        if numbers:
            for y in (100, 180):
                writing[y : y + 20, 80:110] = writing[y : y + 20, 260:290] = True
        darkness = np.where(writing, np.float32(0.3), np.float32(0.0))
        args: dict[str, Any] = dict(darkness=darkness, judge=wide_reads, min_posterior=0.9)
        got = _dividing(borders, writing, found, lw, **(args | kw))
        return bool(got[60:240, 200].all())

    assert not divided(True, any_turn=True)  # it reads as a number turned a quarter
    assert divided(True, any_turn=False)  # the page's writing reads unturned
    assert not divided(False, any_turn=False)  # alone it sets the page's turn
    assert divided(True, any_turn=True, min_posterior=0.99)
    assert divided(True, any_turn=True, judge=None)
    assert divided(True, any_turn=True, darkness=None)


def test_a_piece_between_two_small_numbered_countries_divides_them() -> None:
    """A stretch of border with both ends near the borders that cuts a band
    into two parts too narrow for ``min_inradius`` is border when each part
    holds a number of its own (``held_inradius``); with a number on one side
    only (an underline, a digit joined to the borders) it stays writing,
    unless the other side is wide enough for ``min_inradius``."""
    from aggression_vision.vision.regions import _countries

    lw = 4.0
    borders = np.zeros((140, 400), bool)
    borders[50:54, 50:350] = borders[86:90, 50:350] = True  # a band 32 px tall
    borders[50:90, 50:54] = borders[50:90, 346:350] = True
    found = _countries(borders, line_width=lw, settings=ReaderSettings())
    assert len(found.ids) == 1

    def divided(numbers: tuple[int, ...], held: float) -> bool:
        writing = np.zeros_like(borders)
        writing[58:82, 198:202] = True  # 4 px short of both lines
        for x in numbers:
            writing[62:76, x : x + 6] = True  # a digit
        got = _dividing(
            borders, writing, found, lw, min_length=4 * lw, end_reach=3 * lw, held_inradius=held
        )
        return bool(got[56:84, 200].all())

    assert divided((120, 270), 3 * lw)
    assert not divided((120,), 3 * lw)
    assert not divided((120, 270), 0.0)
    assert not divided((120, 270), 5 * lw)
    # The band's right part widened: a number is needed on the left only.
    borders[86:90, 244:350] = False
    borders[130:134, 240:350] = borders[86:134, 240:244] = borders[86:134, 346:350] = True
    found = _countries(borders, line_width=lw, settings=ReaderSettings())
    assert divided((120,), 3 * lw)
    assert not divided((270,), 3 * lw)


def test_a_coast_piece_cut_off_by_gaps_closes_its_country_off_the_sea() -> None:
    img = _paper(1800, 1400)
    # The map's coast, broken on the top side of its right country: a bay
    # (a V too bent for linked_fragments) about 12 px short of both stretches.
    pts = [(1112, 200), (1600, 200), (1600, 1200), (200, 1200), (200, 200), (988, 200)]
    cv2.polylines(img, [np.int32(pts).reshape(-1, 1, 2)], False, INK, LW, cv2.LINE_AA)
    bay = np.int32([(1000, 200), (1050, 275), (1100, 200)]).reshape(-1, 1, 2)
    cv2.polylines(img, [bay], False, INK, LW, cv2.LINE_AA)
    cv2.line(img, (900, 200), (900, 1200), INK, LW, cv2.LINE_AA)
    seg = segment(img)
    scale = seg.image.shape[1] / 1800  # the working image is smaller
    left, right = (int(500 * scale), int(700 * scale)), (int(1300 * scale), int(700 * scale))
    assert 0 != _cell_of(seg, *left) != _cell_of(seg, *right) != 0
    assert len(seg.regions) == 2
    off = segment(img, settings=replace(ReaderSettings(), divide_coast=False))
    assert _cell_of(off, *left) != 0 == _cell_of(off, *right)
    assert len(off.regions) == 1


def _welded_number() -> tuple[dict[str, NDArray], NDArray[np.bool_]]:
    # A border line down the middle of two countries (1 left, 2 right). A
    # number in country 1 touches it: its top is writing, its hook (a bar
    # and a stem, shorter than the writing height 1.3 times) is joined to the
    # line and was kept with the borders. Country 2 holds a clean number 30 px
    # tall (the writing height).
    borders = np.zeros((200, 200), bool)
    writing = np.zeros((200, 200), bool)
    borders[:, 100:103] = True
    hook = np.zeros((200, 200), bool)
    hook[120:123, 75:100] = True
    hook[95:123, 75:78] = True
    borders |= hook
    writing[90:93, 75:100] = True
    writing[80:90, 97:100] = True
    writing[60:90, 140:143] = True
    labels = np.where(np.arange(200) < 100, 1, 2).astype(np.int32)[None, :].repeat(200, 0)
    labels[borders] = 0
    arrays = {"borders": borders, "writing": writing, "labels": labels, "ink": borders | writing}
    return arrays, hook


def test_the_strokes_of_a_number_welded_to_a_border_are_taken_off_it() -> None:
    arrays, hook = _welded_number()
    got = welded_strokes(**arrays, line_width=3.0, settings=ReaderSettings())
    assert got[hook].mean() > 0.8
    assert not got[:, 100:103].any()  # the line stays a border
    off = replace(ReaderSettings(), welded_stroke_depth=0.0)
    assert not welded_strokes(**arrays, line_width=3.0, settings=off).any()


def test_no_strokes_are_taken_where_the_country_has_its_number() -> None:
    arrays, _ = _welded_number()
    arrays["writing"][140:170, 40:43] = True  # a clean number in country 1
    arrays["ink"] = arrays["borders"] | arrays["writing"]
    assert not welded_strokes(**arrays, line_width=3.0, settings=ReaderSettings()).any()


def test_a_stretch_of_border_between_two_countries_is_no_stroke() -> None:
    # The hook closes a small country 3 against the line: it is a border.
    arrays, hook = _welded_number()
    arrays["labels"][95:120, 78:100] = 3
    assert not welded_strokes(**arrays, line_width=3.0, settings=ReaderSettings()).any()


def test_a_flat_rule_touching_a_border_seeks_no_strokes() -> None:
    # The rule under a printed heading is no number's writing.
    arrays, _ = _welded_number()
    arrays["writing"][80:90, 97:100] = False  # the number's top: a flat bar only
    arrays["ink"] = arrays["borders"] | arrays["writing"]
    assert not welded_strokes(**arrays, line_width=3.0, settings=ReaderSettings()).any()


def test_a_border_dash_between_two_gaps_separates_its_countries() -> None:
    img = _paper()
    cv2.rectangle(img, (150, 120), (750, 600), INK, LW, cv2.LINE_AA)
    cv2.line(img, (150, 160), (750, 160), INK, LW, cv2.LINE_AA)
    # The border across the band: a dash drawn as the pen lifted (thinner),
    # too small for the ink (under ink_min_blob square line widths), about
    # two line widths short of both lines.
    cv2.line(img, (450, 131), (450, 149), INK, LW - 1, cv2.LINE_AA)
    left, right = (300, 140), (600, 140)
    seg = segment(img)
    assert 0 != _cell_of(seg, *left) != _cell_of(seg, *right) != 0
    off = segment(img, settings=replace(ReaderSettings(), link_dash_length=0.0))
    assert _cell_of(off, *left) == _cell_of(off, *right) != 0


def test_a_digit_one_beside_a_border_is_no_dash() -> None:
    img = _paper()
    cv2.rectangle(img, (150, 120), (750, 600), INK, LW, cv2.LINE_AA)
    cv2.line(img, (150, 150), (750, 150), INK, LW, cv2.LINE_AA)
    cv2.line(img, (450, 150), (450, 600), INK, LW, cv2.LINE_AA)
    # A small '1' along the border below the band, as near to it as a dash
    # in a gap would be to the lines at its ends: border ink at its side.
    cv2.line(img, (461, 200), (461, 214), INK, LW - 1, cv2.LINE_AA)
    seg = segment(img)
    assert not seg.borders[198:217, 459:464].any()


def _ring_around_a_number() -> np.ndarray:
    """A map's outline, a small ring (an enclave) with a "1" welded to it across
    its hole, and a "-" elsewhere; ink of line width 7."""
    m = np.zeros((1000, 1400), np.uint8)
    cv2.rectangle(m, (100, 100), (1300, 900), 1, 7)
    cv2.ellipse(m, (700, 500), (34, 27), 0, 0, 360, 1, 7)
    cv2.line(m, (700, 474), (700, 526), 1, 7)
    cv2.line(m, (300, 300), (330, 300), 1, 7)
    return m.astype(bool)


def test_a_small_ring_around_its_number_is_a_border_and_stays_one() -> None:
    # The "1" across the ring leaves no country-sized disc in either half of its
    # hole, but the ring with its hole is far wider than a digit's loop: an
    # enclave (before: writing, and the enclave merged into its country).
    ink = _ring_around_a_number()
    st = ReaderSettings()
    filled = ink.copy()
    cv2.ellipse(filled.view(np.uint8), (700, 500), (34, 27), 0, 0, 360, 1, -1)
    rings = np.zeros_like(ink)
    borders, writing = split_writing(ink, line_width=7.0, settings=st, rings=rings)
    assert borders[500, 734] and borders[474, 700] and writing[300, 315]
    assert rings[500, 734] and not rings[300, 315]
    # Gap closing fills the small hole: the ring stays a border when asked again.
    assert split_writing(filled, line_width=7.0, settings=st, rings=rings)[0][500, 700]
    assert not split_writing(filled, line_width=7.0, settings=st)[0][500, 700]
    off = replace(st, enclave_ring_inradius=0.0)
    assert not split_writing(ink, line_width=7.0, settings=off)[0][500, 734]


def test_the_empty_loop_of_a_large_thin_zero_is_writing() -> None:
    # A "10" in the middle country, its 0 written large with a thin pen: the 0's hole
    # holds a disc of about 3.5 line widths, room for the island-country test (2.5)
    # but for no number (dev3 061097, 061028; a D the same: 061075). Before, the 0 was
    # a border and the country's number read 1.
    img = _grid_map(wobble=False)
    cv2.line(img, (415, 335), (415, 395), INK, 2, cv2.LINE_AA)
    cv2.ellipse(img, (455, 365), (18, 24), 0, 0, 360, INK, 2, cv2.LINE_AA)
    # A ring of the same size around a written 7 in the top-left country: an island
    # country's number is written inside it, the loop stays a border.
    cv2.ellipse(img, (250, 200), (18, 24), 0, 0, 360, INK, 2, cv2.LINE_AA)
    cv2.polylines(img, [np.int32([[242, 188], [258, 188], [248, 212]])], False, INK, 2)
    seg = segment(img)
    assert seg.writing[365, 437] and not seg.borders[365, 437]
    assert seg.borders[200, 232] and not seg.writing[200, 232]
    off = segment(img, settings=replace(ReaderSettings(), empty_loop_inradius=0.0))
    assert off.borders[365, 437] and not off.writing[365, 437]


def test_a_loop_with_a_stroke_inside_it_is_no_empty_loop() -> None:
    from aggression_vision.vision.ink import Ink
    from aggression_vision.vision.regions import _bare_hole

    def bare(inside: bool) -> bool:
        mask = np.zeros((120, 120), np.uint8)
        cv2.ellipse(mask, (60, 60), (20, 26), 0, 0, 360, 1, 3)
        if inside:
            # A number welded to the ring from within (fresh2 020140: an enclave).
            cv2.line(mask, (41, 60), (55, 60), 1, 3)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
        k = int(labels[60, 40])
        x, y, w, h = (int(v) for v in stats[k, :4])
        sub = (labels[y : y + h, x : x + w] == k).astype(np.uint8)
        _, lab = cv2.connectedComponents(np.pad(1 - sub, 1, constant_values=1), connectivity=4)
        hole = ((lab > 0) & (lab != lab[0, 0]))[1:-1, 1:-1]
        darkness = (mask * 0.8).astype(np.float32)
        ink = Ink(np.zeros_like(mask), darkness, mask.astype(bool), np.zeros_like(mask, bool), 3.0)
        return _bare_hole(ink, sub.astype(bool), hole, (x, y), 3.0, ReaderSettings())

    assert bare(False)
    assert not bare(True)
