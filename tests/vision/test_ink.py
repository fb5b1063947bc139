"""Tests for the ink stage."""

from dataclasses import replace

import cv2
import numpy as np

from aggression_vision.synth.generate import generate_sample
from aggression_vision.vision.ink import (
    _mod_180,
    _off_lattice,
    _ruling_in,
    _thick_across,
    connected_components,
    find_ink,
    paper_mask,
)
from aggression_vision.vision.load import load_image
from aggression_vision.vision.regions import segment
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


def _fanned_seyes_page() -> np.ndarray:
    """Dense horizontal ruling, sparse lines fanning out to a vanishing point, a drawn box."""
    h, w = 1050, 1400
    img = np.full((h, w, 3), 225, np.uint8)
    for y in range(20, h, 12):
        cv2.line(img, (0, y), (w - 1, y), (175, 175, 175), 1, cv2.LINE_AA)
    vx, vy = w / 2, -1000.0  # strong perspective: the sparse family converges above the page
    for x in range(40, w, 48):
        top = x + (vx - x) * h / (h - vy)
        cv2.line(img, (int(top), 0), (x, h - 1), (150, 150, 150), 2, cv2.LINE_AA)
    cv2.rectangle(img, (500, 400), (900, 700), (40, 40, 40), 5)
    return img


def test_fine_tiles_remove_more_of_a_fanned_out_sparse_ruling() -> None:
    img = _fanned_seyes_page()
    left = {}
    for fine in (0, 5):
        # The residual search (a curled corner's bent ruling) would also take
        # the fanned lines: left out, to measure the fine tiles alone.
        cfg = replace(ReaderSettings(), ruling_fine_tiles=fine, ruling_residual_tiles=0)
        ink = find_ink(img, settings=cfg)
        # The drawn box stays ink.
        assert ink.mask[398:403, 520:880].mean() > 0.9
        outside = ink.mask.copy()
        outside[380:720, 480:920] = False
        left[fine] = int(outside.sum())
    assert left[5] < 0.8 * left[0]


def _widely_fanned_ruling() -> tuple[np.ndarray, np.ndarray]:
    """Lines 35 px apart turning from 0 to 24 degrees down the page, and a drawn box.

    Returns the image and the lines' mask.
    """
    h, w, step = 1050, 1400, 35
    lines = np.zeros((h, w), np.uint8)
    n = (h + 400) // step
    for k in range(n):
        y0 = -200 + k * step
        turn = np.radians(24.0 * k / n)
        cv2.line(lines, (0, y0), (w, int(round(y0 + w * np.tan(turn)))), 1, 2, cv2.LINE_AA)
    img = np.full((h, w, 3), 235, np.uint8)
    img[lines > 0] = (215, 170, 150)
    cv2.rectangle(img, (500, 400), (900, 700), (40, 40, 40), 5)
    img = cv2.GaussianBlur(img, (0, 0), 1.5)
    return img, lines > 0


def test_fine_tiles_take_a_ruling_no_tile_around_saw() -> None:
    # Lines at least 24 steps long are seen across the page but in no tile:
    # where no tile around saw the ruling, the fine tiles need only a missed
    # tile's evidence (before: the same strict one, and more ruling stayed).
    img, lines = _widely_fanned_ruling()
    ink = find_ink(img, settings=replace(ReaderSettings(), grid_line_steps=24.0))
    assert ink.ruling.any()
    assert ink.mask[398:403, 520:880].mean() > 0.9  # the drawn box stays ink
    free = lines.copy()
    free[380:720, 480:920] = False
    assert int((ink.mask & free).sum()) < 0.03 * int(free.sum())  # before: 3.6%


def _seyes_under_a_map() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Dense ruling (lines every 12 px, verticals every 48) under a map's borders 70 px apart.

    Returns the image, the ruling's mask and the borders' mask.
    """
    h, w = 1050, 1400
    lines = np.zeros((h, w), np.uint8)
    for y in range(6, h, 12):
        cv2.line(lines, (0, y), (w - 1, y), 1, 2)
    for x in range(20, w, 48):
        cv2.line(lines, (x, 0), (x, h - 1), 1, 2)
    borders = np.zeros((h, w), np.uint8)
    rng = np.random.default_rng(3)
    for y in range(300, 760, 70):
        pts = np.array([[x, y + rng.integers(-12, 13)] for x in range(400, 1001, 40)], np.int32)
        cv2.polylines(borders, [pts], False, 1, 5)
    for x in range(400, 1001, 70):
        pts = np.array([[x + rng.integers(-12, 13), y] for y in range(300, 731, 40)], np.int32)
        cv2.polylines(borders, [pts], False, 1, 5)
    img = np.full((h, w, 3), 232, np.uint8)
    img[lines > 0] = (200, 165, 175)
    img[borders > 0] = (50, 45, 45)
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    return img, lines > 0, borders > 0


def test_dense_ruling_between_a_maps_borders_is_still_looked_at() -> None:
    # Dense ruling plus the borders fill half of a window a few strokes wide:
    # at ruling_max_density 0.5 most of the ruling near the borders was left
    # out of the ruling search as texture, and stayed ink.
    img, lines, borders = _seyes_under_a_map()
    grow = cv2.dilate(borders.astype(np.uint8), np.ones((31, 31), np.uint8)).astype(bool)
    off = ~cv2.dilate(borders.astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool)
    near = lines & grow & off
    left = {}
    for density in (0.5, ReaderSettings().ruling_max_density):
        ink = find_ink(img, settings=replace(ReaderSettings(), ruling_max_density=density))
        assert ink.mask[borders].mean() > 0.99
        left[density] = float(ink.mask[near].mean())
    assert left[0.5] > 0.8
    assert left[ReaderSettings().ruling_max_density] < 0.6


def _draw_grid(img: np.ndarray, print_bgr: tuple[int, int, int], thickness: int = 2) -> None:
    """A squared paper's lines, every 24 px from 12, drawn over ``img``."""
    h, w = img.shape[:2]
    for y in range(12, h, 24):
        cv2.line(img, (0, y), (w - 1, y), print_bgr, thickness)
    for x in range(12, w, 24):
        cv2.line(img, (x, 0), (x, h - 1), print_bgr, thickness)


def _squared_paper(
    h: int = 1050,
    w: int = 1400,
    paper: int = 225,
    print_bgr: tuple[int, int, int] = (175, 175, 175),
    thickness: int = 2,
) -> np.ndarray:
    """Squared paper: lines every 24 px (2 px grey ones by default) on light paper."""
    img = np.full((h, w, 3), paper, np.uint8)
    _draw_grid(img, print_bgr, thickness)
    return img


def _kept_with_and_without(
    img: np.ndarray,
    setting: str,
    band: tuple[slice, slice],
    stroke_box: tuple[int, int, int, int],
) -> tuple[float, float]:
    """The share of ``band``'s columns holding ink with the reader's ``setting`` and
    with it at 0; asserts that, either way, no ink is found away from ``stroke_box``
    (y0, y1, x0, x1): the printed grid is taken off."""
    kept = []
    for value in (getattr(ReaderSettings(), setting), 0.0):
        ink = find_ink(img, settings=replace(ReaderSettings(), **{setting: value}))
        kept.append(float(ink.mask[band].any(axis=0).mean()))
        away = ink.mask.copy()
        y0, y1, x0, x1 = stroke_box
        away[y0:y1, x0:x1] = False
        assert away.sum() < 0.002 * away.size
    return kept[0], kept[1]


def _squared_with_pencil_along_a_line() -> np.ndarray:
    """Squared paper (2 px grey lines every 24 px) and a pencil stroke as light as
    the grid drawn over one of its lines, only a little thicker than the line."""
    img = _squared_paper()
    cv2.line(img, (300, 493), (1100, 493), (170, 170, 170), 4)
    return img


def test_pencil_along_a_grid_line_is_kept_and_crossings_are_not_ink() -> None:
    img = _squared_with_pencil_along_a_line()
    ink = find_ink(img, settings=ReaderSettings())
    # The stroke over the grid line stays ink along most of its length.
    assert ink.mask[485:500, 320:1080].any(axis=0).mean() > 0.9
    # Away from it, no dot of ruling (the crossings of the two families) is left.
    away = ink.mask.copy()
    away[470:520, 280:1120] = False
    assert away.sum() < 0.002 * away.size


def test_a_pencil_border_between_two_grid_lines_is_kept() -> None:
    # A straight pencil border running along the grid between two of its
    # lines, as light as they are and no wider: it is a long straight line
    # of the family, but off the lattice (its neighbours are one step apart).
    img = _squared_paper()
    cv2.line(img, (300, 501), (1100, 501), (170, 170, 170), 2)
    # (The stroke loses a few pixels beside each crossing grid line.)
    on, off = _kept_with_and_without(
        img, "ruling_lattice_tolerance", (slice(496, 507), slice(320, 1080)), (480, 520, 280, 1120)
    )
    assert on > 0.75
    assert off < 0.1


def test_the_lattice_test_takes_the_stroke_beside_a_line_not_the_line() -> None:
    # Lines every 24 px in a column, a stroke 5 px below one of them: the
    # stroke is off the lattice, the line next to it (whose neighbours, the
    # stroke and the next line, are 29 px apart) is not.
    lines = np.zeros((300, 20), np.uint8)
    for y in range(12, 300, 24):
        lines[y : y + 2] = 1
    lines[113:115] = 1  # 5 px below the line at 108
    off = np.zeros_like(lines)
    off[_off_lattice(lines, 24.0, 0.3)] = 1
    assert off[113:115].all()
    assert off.sum() == off[113:115].sum()
    # With nothing beyond its two neighbours (a tile's end), it is not judged.
    end = lines[100:140].copy()
    assert _off_lattice(end, 24.0, 0.3) is None  # no pixel off the lattice


def _pencil_map(line: int, faded: int) -> np.ndarray:
    """A 3x2-country pencil map (grey ``line``) on plain paper (235) whose three
    horizontal lines fade to ``faded`` over x 800-1000."""
    img = np.full((1050, 1400, 3), 235, np.uint8)
    for x in (300, 700, 1100):
        cv2.line(img, (x, 250), (x, 800), (line, line, line), 4)
    for y in (250, 525, 800):
        cv2.line(img, (300, y), (1100, y), (line, line, line), 4)
        cv2.line(img, (800, y), (1000, y), (faded, faded, faded), 4)
    return img


def test_a_faint_pencil_drawing_on_plain_paper_is_ink() -> None:
    # A light pencil map: its lines are about 9% darker than the paper, but
    # only 6% over a stretch (below the usual ink level), and blurred.
    img = _pencil_map(213, 221)
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    faint = {}
    for ratio in (0.0, 0.3):
        ink = find_ink(img, settings=replace(ReaderSettings(), ink_faint_ratio=ratio))
        assert ink.mask[240:261, 320:680].any(axis=0).mean() > 0.9
        faint[ratio] = ink.mask[240:261, 810:990].any(axis=0).mean()
    assert faint[0.3] > 0.9
    assert faint[0.0] < 0.5


def _faint_pencil_map_on_broken_ruling() -> np.ndarray:
    """The pencil map of ``_pencil_map`` (about 11% darker than the paper) on lined
    paper printed very faintly: each line alternates 10 px dashes about 3.75% and
    2.9% darker than the paper, below the ruling search's level, and across the
    faint pass's level of 3%."""
    img = np.full((1050, 1400, 3), 240, np.uint8)
    for y in range(15, 1050, 30):
        for x in range(0, 1400, 20):
            img[y : y + 2, x : x + 10] = 231
            img[y : y + 2, x + 10 : x + 20] = 233
    for x in (300, 700, 1100):
        cv2.line(img, (x, 250), (x, 800), (213, 213, 213), 4)
    for y in (250, 525, 800):
        cv2.line(img, (300, y), (1100, y), (213, 213, 213), 4)
    return img


def test_the_faint_pass_takes_no_dashes_of_a_faint_ruling() -> None:
    # At the faint level the lines are dashes (no lattice of long lines): the
    # check for printed ruling looks a little below it, where they are whole.
    img = _faint_pencil_map_on_broken_ruling()
    off_map = np.ones(img.shape[:2], bool)
    for x in (300, 700, 1100):
        off_map[:, x - 8 : x + 9] = False
    for y in (250, 525, 800):
        off_map[y - 8 : y + 9, :] = False
    strays = {}
    for guard in (1.0, ReaderSettings().ink_faint_guard):
        ink = find_ink(img, settings=replace(ReaderSettings(), ink_faint_guard=guard))
        assert ink.mask[240:261, 320:680].any(axis=0).mean() > 0.9  # the map
        strays[guard] = int((ink.mask & off_map).sum())
    assert strays[1.0] > 50  # (the dashes touching the map's lines: 96 px)
    assert strays[ReaderSettings().ink_faint_guard] == 0


def test_a_faded_stretch_of_a_pencil_map_is_ink() -> None:
    # A pencil map about 13% darker than the paper, faded over a stretch
    # (glare, focus, a lighter hand) to 3.4%: more than a quarter of the
    # drawing's darkness (erased lines are at most that), less than 0.04.
    img = _pencil_map(205, 227)
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    rng = np.random.default_rng(3)
    img = np.clip(img + rng.normal(0, 1.5, img.shape), 0, 255).astype(np.uint8)
    ink = find_ink(img, settings=ReaderSettings())
    assert ink.mask[240:261, 810:990].any(axis=0).mean() > 0.9
    # No paper grain comes in with it.
    blank = ink.mask[300:500, 320:680]
    assert blank.mean() < 0.001
    old = replace(ReaderSettings(), ink_faint_ratio=0.3, ink_darkness_plain=0.04)
    assert find_ink(img, settings=old).mask[240:261, 810:990].any(axis=0).mean() < 0.5


def test_a_faint_map_under_darker_writing_is_seen_as_faint() -> None:
    # A light pencil map (9% darker than the paper, 6% over a stretch) with
    # darker numbers in its countries: all the ink's median (~0.2) is that of
    # the writing, the lines' (~0.09) tells the map is faint.
    img = _pencil_map(213, 221)
    for i, x in enumerate(range(340, 1080, 70)):
        for y in (330, 420, 610, 700):
            if not (760 < x < 1040 and y > 500):
                digit = str((i * 7 + y) % 10)
                cv2.putText(img, digit, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 1.6, (165, 165, 165), 7)
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    rng = np.random.default_rng(5)
    img = np.clip(img + rng.normal(0, 1.5, img.shape), 0, 255).astype(np.uint8)
    faded = {}
    for least in (0.0, ReaderSettings().ink_lines_least):
        ink = find_ink(img, settings=replace(ReaderSettings(), ink_lines_least=least))
        faded[least] = ink.mask[240:261, 810:990].any(axis=0).mean()
        assert ink.mask[530:560, 820:990].mean() < 0.001  # no paper grain
    assert faded[ReaderSettings().ink_lines_least] > 0.9
    assert faded[0.0] < 0.5


def _dark_map_fading(line: int, faded: int, lit: int = 235) -> np.ndarray:
    """A 3x2-country map (grey ``line``, its top border zigzagging as drawn
    by hand) on plain paper (235) whose top border fades to ``faded`` over
    x 800-1000, the paper around there (the top right) ``lit`` (glare)."""
    img = np.full((1050, 1400, 3), 235, np.uint8)
    grey = (line, line, line)
    for x in (300, 700, 1100):
        cv2.line(img, (x, 250), (x, 800), grey, 4)
    for y in (525, 800):
        cv2.line(img, (300, y), (1100, y), grey, 4)
    top = np.array([(x, 250 + (15 if k % 2 else -15)) for k, x in enumerate(range(300, 1101, 40))])
    top[0, 1] = top[-1, 1] = 250
    cv2.polylines(img, [top.astype(np.int32)], False, grey, 4)
    area = img[:450, 600:]
    area[:] = np.where(area < 235, area, lit).astype(np.uint8)
    box = img[200:300, 800:1000]
    box[:] = np.where(box < lit, faded, lit).astype(np.uint8)
    return cv2.GaussianBlur(img, (0, 0), 1.0)


def test_the_washed_out_stretch_of_a_map_that_is_not_faint_is_bridged() -> None:
    # A map 23% darker than the paper (not faint) whose top border fades to
    # 6.9% over a stretch on the brightly lit side of the sheet: above a
    # quarter of its darkness, below the ink level. Only the gap is bridged:
    # the strokes elsewhere keep their width.
    img = _dark_map_fading(181, 228, lit=245)
    rng = np.random.default_rng(3)
    img = np.clip(img + rng.normal(0, 1.5, img.shape), 0, 255).astype(np.uint8)
    ink = {}
    for gain in (0.0, ReaderSettings().ink_faint_gaps_gain):
        ink[gain] = find_ink(img, settings=replace(ReaderSettings(), ink_faint_gaps_gain=gain))
        assert ink[gain].mask[330:500, 320:680].mean() < 0.001  # no paper grain
    bridged = ink[ReaderSettings().ink_faint_gaps_gain].mask
    assert bridged[225:276, 810:990].any(axis=0).mean() > 0.9
    assert ink[0.0].mask[225:276, 810:990].any(axis=0).mean() < 0.5
    assert bridged[500:550, 320:680].sum() == ink[0.0].mask[500:550, 320:680].sum()


def test_a_map_stretch_in_glare_is_bridged() -> None:
    # Glare clips the paper to white over a part of the top border: the
    # border there is only 3.5% darker, below a quarter of the map's darkness.
    img = _dark_map_fading(181, 246, lit=255)
    bridged = {}
    for gain in (0.0, ReaderSettings().ink_glare_gain):
        ink = find_ink(img, settings=replace(ReaderSettings(), ink_glare_gain=gain))
        bridged[gain] = ink.mask[225:276, 810:990].any(axis=0).mean()
        assert ink.mask[300:500, 720:1080].mean() < 0.001
    assert bridged[ReaderSettings().ink_glare_gain] > 0.9
    assert bridged[0.0] < 0.5


def _ruled(dark_every: int, line_bgr: int, dark_bgr: int) -> np.ndarray:
    """Squared paper (2 px lines every 24 px), every ``dark_every``-th horizontal line darker."""
    h, w = 1050, 1400
    img = np.full((h, w, 3), 225, np.uint8)
    for i, y in enumerate(range(12, h, 24)):
        grey = dark_bgr if dark_every and i % dark_every == 0 else line_bgr
        cv2.line(img, (0, y), (w - 1, y), (grey, grey, grey), 2)
    for x in range(12, w, 24):
        cv2.line(img, (x, 0), (x, h - 1), (line_bgr, line_bgr, line_bgr), 2)
    return img


def test_light_pencil_exactly_over_a_grid_line_is_kept_on_uniform_ruling() -> None:
    # The stroke is no thicker than the line and only 0.09 darker: only the
    # darkness tells it, with a margin fitting a ruling whose lines are alike.
    img = _ruled(0, 200, 200)
    cv2.line(img, (300, 492), (1100, 492), (180, 180, 180), 2)
    kept = {}
    for margin in (0.15, 0.05):
        ink = find_ink(img, settings=replace(ReaderSettings(), grid_darker_extra_uniform=margin))
        kept[margin] = ink.mask[486:499, 320:1080].any(axis=0).mean()
        away = ink.mask.copy()
        away[470:520, 280:1120] = False
        assert away.sum() < 0.002 * away.size
    assert kept[0.05] > 0.9
    assert kept[0.15] < 0.5


def test_the_darker_lines_of_seyes_like_ruling_are_not_ink() -> None:
    # Every fourth line printed darker (as on Seyes paper): the family is
    # two-level, and its darker lines keep the wide margin. Taken for a
    # uniform ruling (the test never passes), they would be drawing.
    img = _ruled(4, 200, 180)
    left = {}
    for fraction in (ReaderSettings().grid_two_level_fraction, 1.01):
        ink = find_ink(img, settings=replace(ReaderSettings(), grid_two_level_fraction=fraction))
        left[fraction] = ink.mask.sum() / ink.mask.size
    assert left[ReaderSettings().grid_two_level_fraction] < 0.002
    assert left[1.01] > 0.01


def test_grey_pencil_along_a_blue_grid_line_is_kept() -> None:
    # Blue squared paper and a grey stroke as dark as the lines and no wider,
    # drawn over one of them: only its colour tells it from the print.
    h, w = 1050, 1400
    blue = (205, 165, 140)  # BGR: dark in red, light in blue
    img = _squared_paper(h, w, 225, blue)
    cv2.line(img, (300, 492), (1100, 492), (165, 165, 165), 2)
    kept = {}
    # (Without the grey stretches along the lines, which keep it too.)
    for colour_min in (0.0, ReaderSettings().ruling_colour_min):
        settings = replace(ReaderSettings(), ruling_colour_min=colour_min, ruling_grey_length=0.0)
        ink = find_ink(img, settings=settings)
        kept[colour_min] = ink.mask[486:499, 320:1080].any(axis=0).mean()
        away = ink.mask.copy()
        away[470:520, 280:1120] = False
        assert away.sum() < 0.002 * away.size
    assert kept[ReaderSettings().ruling_colour_min] > 0.9
    assert kept[0.0] < 0.5


def _drawn_lines(img: np.ndarray, xs: tuple[int, ...], ys: tuple[int, ...]) -> None:
    """Draw a map of dark 4-pixel lines at columns ``xs`` and rows ``ys``."""
    for x in xs:
        cv2.line(img, (x, ys[0]), (x, ys[-1]), (60, 60, 60), 4)
    for y in ys:
        cv2.line(img, (xs[0], y), (xs[-1], y), (60, 60, 60), 4)


def _sheet_on_a_table(shadow: bool) -> np.ndarray:
    """A sheet cut off by the frame's top on a dark table, a drawn network on it.

    With ``shadow`` a hard shadow darkens the sheet's lower part, the
    drawing runs on into it, and a separate box lies wholly in it.
    """
    rng = np.random.default_rng(5)
    h, w = 1050, 1400
    grain = rng.normal(0, 1, (h // 6, w // 6)).astype(np.float32)
    grain = cv2.resize(grain, (w, h), interpolation=cv2.INTER_CUBIC)
    # A grainy table (its grain is ink-like); under the shadow a smooth one.
    table = np.clip(40 + (0 if shadow else 14) * grain, 0, 255).astype(np.uint8)
    img = cv2.merge([table, table, table])
    sheet = np.array([[300, -10], [1100, -10], [1150, 900], [250, 950]], np.int32)
    cv2.fillPoly(img, [sheet], (225, 225, 225))
    if shadow:
        dark = np.zeros((h, w), np.uint8)
        cv2.fillPoly(dark, [sheet], 1)
        dark[:520] = 0
        img[dark > 0] = (120, 120, 120)
        cv2.rectangle(img, (480, 600), (620, 740), (50, 50, 50), 4)
    _drawn_lines(img, (400, 700, 1000), (150, 475, 800))
    return img


def test_the_table_around_a_cut_off_sheet_is_not_ink() -> None:
    img = _sheet_on_a_table(shadow=False)
    table = np.ones(img.shape[:2], bool)
    table[:, 200:1200] = False
    on_table = {}
    for area_max in (0.0, ReaderSettings().paper_area_max):
        ink = find_ink(img, settings=replace(ReaderSettings(), paper_area_max=area_max))
        # The drawing stays.
        assert ink.mask[140:161, 420:980].any(axis=0).mean() > 0.9
        on_table[area_max] = ink.mask[table].mean()
    assert on_table[ReaderSettings().paper_area_max] < 0.001
    assert on_table[0.0] > 0.01


def _sheet_with_glare() -> np.ndarray:
    """A rectified sheet (paper everywhere) with a bright glare spot over its
    lower part and a drawing on the dimmer paper above it."""
    h, w = 900, 1200
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    glare = np.exp(-(((xx - 600) / 420) ** 2 + ((yy - 760) / 260) ** 2))
    gray = np.clip(150 + 100 * glare, 0, 255).astype(np.uint8)
    img = cv2.merge([gray, gray, gray])
    _drawn_lines(img, (300, 600, 900), (80, 230, 380))
    return img


def test_a_drawing_beside_a_glare_spot_on_a_rectified_sheet_is_kept() -> None:
    # The glare spot is the largest bright area: as the sheet's area it
    # would put the drawing off the sheet. A rectified sheet has no table.
    img = _sheet_with_glare()
    kept = {}
    for rectified in (False, True):
        ink = find_ink(img, settings=ReaderSettings(), rectified=rectified)
        kept[rectified] = ink.mask[220:241, 320:880].any(axis=0).mean()
    assert kept[True] > 0.9
    assert kept[False] < 0.1


def test_a_drawing_running_into_a_hard_shadow_on_the_sheet_is_kept() -> None:
    img = _sheet_on_a_table(shadow=True)
    box = {}
    for crossing in (ReaderSettings().paper_area_crossing, 2.0):
        ink = find_ink(img, settings=replace(ReaderSettings(), paper_area_crossing=crossing))
        # The lines that run into the shadow are kept whole.
        assert ink.mask[790:811, 420:980].any(axis=0).mean() > 0.9
        assert ink.mask[560:780, 690:711].any(axis=1).mean() > 0.9
        box[crossing] = ink.mask[590:611, 500:600].any(axis=0).mean()
    # The box wholly in the shadow is kept only because the drawing crosses
    # into the shadow (the shadow is paper, not the table).
    assert box[ReaderSettings().paper_area_crossing] > 0.9
    assert box[2.0] < 0.1


def _curled_squared_page() -> np.ndarray:
    """Squared paper whose horizontal lines bend down in the bottom-right corner, a drawn box."""
    h, w = 1050, 1400
    img = np.full((h, w, 3), 225, np.uint8)
    step = 30
    xs = np.arange(w)
    for y0 in range(15, h + 300, step):
        # A curled corner: the lines turn away, more the farther right and down.
        bend = 0.25 * np.clip(xs - 800, 0, None) * np.clip(y0 - 450, 0, None) / 600.0
        pts = np.stack([xs, y0 - bend], axis=1).round().astype(np.int32)
        cv2.polylines(img, [pts], False, (170, 170, 170), 1, cv2.LINE_AA)
    for x in range(15, w, step):
        cv2.line(img, (x, 0), (x, h - 1), (170, 170, 170), 1, cv2.LINE_AA)
    cv2.rectangle(img, (200, 200), (600, 500), (60, 60, 60), 4)
    return img


def test_a_ruling_bent_in_a_curled_corner_is_removed_there_too() -> None:
    img = _curled_squared_page()
    off = find_ink(img, settings=replace(ReaderSettings(), ruling_residual_tiles=0))
    on = find_ink(img, settings=ReaderSettings())
    corner = (slice(750, 1050), slice(1100, 1400))
    assert on.mask[corner].sum() < 0.75 * off.mask[corner].sum()
    # The drawn box stays.
    assert on.mask[195:206, 250:550].any(axis=0).mean() > 0.9
    assert on.mask[250:450, 195:206].any(axis=1).mean() > 0.9


def test_the_ruling_search_in_threads_is_the_same_as_one_by_one() -> None:
    # The curled page runs every pass: page, tiles, fine and missed tiles, bent ruling.
    img = _curled_squared_page()
    one = find_ink(img, settings=replace(ReaderSettings(), ruling_threads=1))
    two = find_ink(img, settings=replace(ReaderSettings(), ruling_threads=2))
    assert one.ruling.any()
    assert np.array_equal(one.ruling, two.ruling)
    assert np.array_equal(one.mask, two.mask)


def _squared_page_with_parallel_borders() -> np.ndarray:
    """Straight squared paper (step 30) with six drawn parallel borders, turned, 14 px apart."""
    h, w = 1050, 1400
    img = np.full((h, w, 3), 225, np.uint8)
    for y in range(15, h, 30):
        cv2.line(img, (0, y), (w - 1, y), (170, 170, 170), 1, cv2.LINE_AA)
    for x in range(15, w, 30):
        cv2.line(img, (x, 0), (x, h - 1), (170, 170, 170), 1, cv2.LINE_AA)
    for i in range(6):
        y = 660 + 14 * i
        cv2.line(img, (750, y), (1350, y - 160), (150, 150, 150), 2, cv2.LINE_AA)
    return img


def test_the_bent_ruling_search_leaves_parallel_borders_off_the_ruling_step() -> None:
    img = _squared_page_with_parallel_borders()
    kept = {}
    for pitch in (0.0, ReaderSettings().ruling_residual_pitch):
        ink = find_ink(img, settings=replace(ReaderSettings(), ruling_residual_pitch=pitch))
        # The borders, away from their ends.
        kept[pitch] = ink.mask[560:780, 950:1150].sum()
    assert kept[ReaderSettings().ruling_residual_pitch] > 2 * kept[0.0]


def test_mod_180_is_the_float_remainder_bit_for_bit() -> None:
    # The ruling search bins gradient angles with it: any difference from
    # ``% 180.0`` (signed zeros, 180 reached by rounding) would change them.
    rng = np.random.default_rng(3)
    y = rng.standard_normal(200_000).astype(np.float32)
    x = rng.standard_normal(200_000).astype(np.float32)
    x[:1000] = 0.0
    y[1000:2000] = -0.0
    y[2000:3000] *= np.float32(1e-8)
    x[2000:3000] = -np.abs(x[2000:3000])
    edges = np.array([-180, 180, -0.0, 0.0, -1e-6, -1e-30, -179.99999, 1e-30], np.float32)
    for degrees in (edges, np.degrees(np.arctan2(y, x))):
        expected = degrees % 180.0
        got = _mod_180(degrees)
        assert got.dtype == expected.dtype
        assert np.array_equal(got.view(np.uint32), expected.view(np.uint32))


def _pale_squared_with_a_bent_pencil_stroke() -> np.ndarray:
    """Pale grey-green squared paper (its colour ratio about 0.26, under
    ``ruling_colour_min``) and a grey stroke as dark and as thin as its lines
    that comes in at an angle, runs along a grid line for 300 px and leaves."""
    h, w = 1050, 1400
    print_bgr = (200, 200, 190)
    img = _squared_paper(h, w, 235, print_bgr)
    grey = (197, 197, 197)
    path = np.array([(300, 300), (500, 492), (800, 492), (1000, 700)], np.int32)
    cv2.polylines(img, [path.reshape(-1, 1, 2)], False, grey, 2)
    return img


def test_grey_pencil_along_a_pale_grid_line_is_kept_where_it_continues_a_stroke() -> None:
    img = _pale_squared_with_a_bent_pencil_stroke()
    on, off = _kept_with_and_without(
        img, "ruling_colour_weak", (slice(486, 499), slice(520, 780)), (280, 720, 280, 1020)
    )
    assert on > 0.9
    assert off < 0.5


def _violet_squared_with_a_lone_pencil_line() -> np.ndarray:
    """Weakly coloured violet squared paper (colour ratio about 0.33, under
    ``ruling_colour_min``) and, on one of its lines, a grey stroke as thin as
    they are and a little darker (not enough to pass for drawing by its
    darkness) that touches no other drawing (a coast along the grid: no
    stroke it continues)."""
    h, w = 1050, 1400
    print_bgr = (185, 175, 168)
    img = _squared_paper(h, w, 225, print_bgr)
    cv2.line(img, (300, 492), (1100, 492), (160, 160, 160), 2)
    return img


def test_a_grey_stretch_of_a_coloured_grid_line_is_kept() -> None:
    img = _violet_squared_with_a_lone_pencil_line()
    on, off = _kept_with_and_without(
        img, "ruling_grey_length", (slice(486, 499), slice(320, 1080)), (470, 520, 280, 1120)
    )
    assert on > 0.9
    assert off < 0.5


def test_a_grey_tinted_patch_of_a_coloured_grid_is_not_kept() -> None:
    # The same violet print, grey over a patch of the page (the light's tint):
    # every line there is grey, not one among coloured ones.
    img = _violet_squared_with_a_lone_pencil_line()
    img[:] = np.where(img == 160, 225, img).astype(np.uint8)  # no pencil line
    patch = img[300:700, 400:800]
    patch[(patch != 225).any(axis=2)] = (160, 160, 160)
    found = {}
    for band in (ReaderSettings().ruling_grey_band, 0.0):
        # (The grey pieces test of ruling_colour_min off: on a weakly coloured
        # print it keeps grey pieces of its own.)
        settings = replace(ReaderSettings(), ruling_grey_band=band, ruling_colour_min=0.0)
        ink = find_ink(img, settings=settings)
        found[band] = float(ink.mask[300:700, 400:800].mean())
    assert found[ReaderSettings().ruling_grey_band] < 0.002
    assert found[0.0] > 0.01


def test_dense_ink_on_the_lines_does_not_set_the_rulings_thickness() -> None:
    # Lines 3 px thick, a stroke 5 px thick drawn along one of them, and dense
    # blobs (junctions, numbers) on the lines: counted in the ruling's
    # thickness they make the stroke look as thin as the ruling.
    runs = np.zeros((200, 600), np.uint8)
    for y in range(10, 190, 12):
        runs[y : y + 3] = 1
    stroke = np.zeros_like(runs, dtype=bool)
    stroke[69:74, 200:300] = True  # the line at rows 70-72, one pixel more each side
    blobs = np.zeros_like(stroke)
    for y in range(10, 190, 12):
        for x in (60, 450):
            blobs[y - 4 : y + 8, x : x + 40] = True
    runs[stroke | blobs] = 1
    rotated = runs.copy()
    settings = ReaderSettings()
    kept = _thick_across(
        rotated, runs, settings=settings, min_length=20, texture=blobs.astype(np.uint8)
    )
    assert kept[stroke].mean() > 0.75  # (an even opening kernel drops one edge row)
    counted = _thick_across(rotated, runs, settings=settings, min_length=20)
    assert counted[stroke].mean() < 0.1


def _dashed_ruling_tile() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A tile of lines every 12 px, as dashes 100 px long whose 30 px gaps are dense ink.

    Returns the darkness, the ink and the dense part of it.
    """
    h, w = 525, 700
    mask = np.zeros((h, w), bool)
    gaps = np.zeros((h, w), bool)
    for y in range(20, h - 10, 12):
        mask[y : y + 2] = True
        # Staggered, so that the dashes' ends line up in no other direction.
        for x in range(y * 37 % 130, w, 130):
            gaps[y : y + 2, x : x + 30] = True
    darkness = np.where(mask, np.float32(0.3), np.float32(0.0)).astype(np.float32)
    return darkness, mask, gaps


def test_dense_ink_is_no_evidence_of_a_ruling_in_a_tile() -> None:
    # Through the dense ink the dashes make lines long enough for a ruling;
    # in a tile (scale given) that ink does not count, on the page it does.
    darkness, mask, gaps = _dashed_ruling_tile()
    settings = ReaderSettings()
    _, found = _ruling_in(darkness, mask, settings=settings, scale=1400)
    assert found
    _, found = _ruling_in(darkness, mask, settings=settings, scale=1400, texture=gaps)
    assert not found
    _, found = _ruling_in(darkness, mask, settings=settings, texture=gaps)
    assert found


def test_connected_components_match_opencvs_with_16_and_32_bit_labels() -> None:
    rng = np.random.default_rng(0)
    few = (rng.random((300, 400)) < 0.3).astype(np.uint8)
    # A dot on every other pixel of every other row: more runs than 16 bits count.
    many = np.zeros((600, 600), np.uint8)
    many[::2, ::2] = 1
    for image in (few, many):
        count, labels, stats, centroids = connected_components(image)
        ref = cv2.connectedComponentsWithStats(image, None, 8)
        assert count == ref[0]
        assert np.array_equal(labels, ref[1])
        assert np.array_equal(stats, ref[2])
        assert np.array_equal(centroids, ref[3])
    assert connected_components(few)[1].dtype == np.uint16
    assert connected_components(many)[1].dtype == np.int32


def test_the_grain_of_the_table_does_not_hide_a_cut_off_sheets_ruling() -> None:
    # Synthetic photo 134: ruled paper cut off by the frame, dark ballpoint
    # lines, a grainy table beside it. The grain used to set the ruling's
    # direction (axis-aligned), so the ruling was not found and its lines cut
    # the map into 60 regions (29 countries).
    sample = generate_sample(134)
    ok, jpeg = cv2.imencode(".jpg", sample.image, [cv2.IMWRITE_JPEG_QUALITY, sample.jpeg_quality])
    assert ok
    seg = segment(cv2.imdecode(jpeg, cv2.IMREAD_COLOR))
    truth = len(sample.document["countries"])
    assert truth == 29
    assert abs(len(seg.regions) - truth) <= 3
    assert seg.ruled  # (the marks stage looks for what is left of it)


def test_a_grid_of_ink_borders_across_lined_paper_is_no_ruling(shared_dir, tmp_path) -> None:
    # Dev photo 061065 (generator version 3; its hands come from ../shared's
    # MNIST, without it the seed draws another photo): a grid of countries
    # drawn in blue ballpoint across lined paper. One tile of the ruling search
    # took the map's parallel borders, crossing the printed lines, for a second
    # family twice as dark as the print; read as the reader reads it, 11
    # regions were found for its 24 countries.
    sample = generate_sample(61065)
    assert len(sample.document["countries"]) == 24
    ok, jpeg = cv2.imencode(".jpg", sample.image, [cv2.IMWRITE_JPEG_QUALITY, sample.jpeg_quality])
    assert ok
    path = tmp_path / "synth-061065.jpg"
    path.write_bytes(jpeg.tobytes())
    st = ReaderSettings()
    image, size = load_image(
        path,
        max_pixels=st.max_pixels,
        min_long_side=int(st.working_long_side * st.decode_oversampling),
    )
    found = {
        darker: len(
            segment(image, photo_size=size, settings=replace(st, ruling_new_darker=darker)).regions
        )
        for darker in (0.0, st.ruling_new_darker)
    }
    assert found[0.0] <= 15
    assert 22 <= found[st.ruling_new_darker] <= 27


def test_a_heavy_stroke_inside_the_sheet_is_paper_but_the_table_at_the_edge_is_not() -> None:
    gray = np.full((1200, 1600), 235, np.uint8)
    cv2.line(gray, (600, 400), (900, 400), 20, 48)  # a felt stroke wider than the median
    gray[:, :80] = 60  # the table along the left edge
    paper = np.full(gray.shape, 235, np.float32)
    s = ReaderSettings()
    kept = paper_mask(gray, paper, settings=s)
    assert kept[400, 620:880].all()
    assert not kept[:, :60].any()
    dropped = paper_mask(gray, paper, settings=replace(s, paper_blob_max=0.0))
    assert not dropped[400, 700:800].any()


def _squared_with_glare() -> np.ndarray:
    """Blue squared paper under a pencil rectangle; the bottom third in a glare
    that leaves ruling and pencil about a third of their contrast (below the ink level)."""
    h, w = 1050, 1400
    img = _squared_paper(h, w, 215, (205, 175, 160), 1)
    cv2.rectangle(img, (305, 205), (1095, 905), (180, 180, 180), 4)
    img = cv2.GaussianBlur(img, (0, 0), 0.8)
    fade = np.ones((h, 1, 1), np.float32)
    fade[700:] = 0.35
    fade = cv2.GaussianBlur(fade, (1, 61), 0).reshape(h, 1, 1)
    glare = 255 - (255 - img.astype(np.float32)) * fade
    rng = np.random.default_rng(5)
    return np.clip(glare + rng.normal(0, 1.0, img.shape), 0, 255).astype(np.uint8)


def test_pencil_in_a_glare_on_squared_paper_is_ink() -> None:
    img = _squared_with_glare()
    ink = find_ink(img, settings=ReaderSettings())
    # The rectangle's sides in the glare are ink, as above it.
    assert ink.mask[750:1000, 298:314].any(axis=1)[50:150].mean() > 0.9
    assert ink.mask[897:914, 320:1080].any(axis=0).mean() > 0.9
    # The ruling in the glare does not come in with it.
    inside = ink.mask[760:880, 340:1060]
    assert inside.mean() < 0.002
    off = replace(ReaderSettings(), ruling_contrast_max_gain=1.0)
    assert find_ink(img, settings=off).mask[897:914, 320:1080].any(axis=0).mean() < 0.5


def _squared_with_dark_cores() -> np.ndarray:
    """Squared paper whose lines have a dark core between light rims (as in a
    shadow, where the print's crests stand out from their rims), and a pen
    stroke drawn over one line."""
    h, w = 1050, 1400
    img = np.full((h, w, 3), 225, np.uint8)
    for c in range(12, max(h, w), 24):
        for d, grey in ((-1, 205), (1, 205), (0, 125)):
            cv2.line(img, (0, c + d), (w - 1, c + d), (grey, grey, grey), 1)
            cv2.line(img, (c + d, 0), (c + d, h - 1), (grey, grey, grey), 1)
    cv2.line(img, (300, 492), (1100, 492), (40, 40, 40), 3)
    return img


def test_grid_lines_with_dark_crests_are_ruling_and_a_pen_stroke_along_one_is_kept() -> None:
    # The lines' median darkness (rims included) is low: measured against it
    # alone, their cores would pass for drawing along the lines.
    img = _squared_with_dark_cores()
    left = {}
    for crest in (0.0, ReaderSettings().grid_darker_crest):
        ink = find_ink(img, settings=replace(ReaderSettings(), grid_darker_crest=crest))
        assert ink.mask[486:499, 320:1080].any(axis=0).mean() > 0.9
        away = ink.mask.copy()
        away[470:520, 280:1120] = False
        left[crest] = away.sum() / away.size
    assert left[ReaderSettings().grid_darker_crest] < 0.002
    assert left[0.0] > 0.05


def _squared_with_a_stroke_across_and_one_along() -> np.ndarray:
    """Squared paper (2 px grey lines every 24 px), a pen stroke across its
    vertical lines and one over a vertical line, along it."""
    img = _squared_paper()
    cv2.line(img, (500, 300), (720, 300), (40, 40, 40), 4)
    cv2.line(img, (901, 400), (901, 700), (40, 40, 40), 4)
    return img


def test_a_stroke_across_a_grid_line_is_whole_and_leaves_no_ticks_on_the_line() -> None:
    # The crossings are given back; the grid line beyond the stroke's sides is
    # not (ticks on every stroke close words and grid squares into countries).
    ink = find_ink(_squared_with_a_stroke_across_and_one_along(), settings=ReaderSettings())
    assert ink.mask[298:303, 560:660].any(axis=0).all()
    for x in range(516, 720, 24):  # the vertical lines crossed (x = 516, 540, ...)
        assert not ink.mask[304:312, x - 3 : x + 4].any()
        assert not ink.mask[290:297, x - 3 : x + 4].any()
    assert ink.mask[420:680, 899:903].all()


def test_a_faded_stretch_of_a_pencil_map_on_squared_paper_is_ink() -> None:
    # Squared paper (crisp lines ~10% darker than the paper) under a pencil
    # map ~16% darker (blurred), faded over a stretch to ~7%: lighter than
    # the ink level and than the printed lines.
    h, w = 1050, 1400
    img = np.full((h, w, 3), 225, np.uint8)
    for x in (312, 696, 1104):
        cv2.line(img, (x, 250), (x, 830), (188, 188, 188), 4)
    for y in (264, 528, 816):
        cv2.line(img, (312, y), (1104, y), (188, 188, 188), 4)
        cv2.line(img, (810, y), (990, y), (206, 206, 206), 4)
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    _draw_grid(img, (203, 203, 203))
    rng = np.random.default_rng(3)
    img = np.clip(img + rng.normal(0, 1.5, img.shape), 0, 255).astype(np.uint8)
    faded = {}
    for on in (False, True):
        settings = ReaderSettings() if on else replace(ReaderSettings(), ink_faint_ruled_median=0.0)
        ink = find_ink(img, settings=settings)
        assert ink.ruling[300:500, 320:680].mean() > 0.1
        faded[on] = ink.mask[254:275, 820:980].any(axis=0).mean()
        # Neither the grid nor its rims come in.
        assert ink.mask[300:500, 320:680].mean() < 0.001
    assert faded[True] > 0.8
    assert faded[False] < 0.7


def _broken_lines_turned(gap: int) -> tuple[np.ndarray, np.ndarray]:
    """Lined paper turned to 80 degrees, each line printed in pieces 4 steps long with
    ``gap`` px breaks between them (faint print, glare), and a drawn box.

    Returns the image and the lines' mask.
    """
    h, w, step = 1050, 1400, 45
    lines = np.zeros((h, w), np.uint8)
    d = np.array([np.cos(np.radians(80.0)), np.sin(np.radians(80.0))])
    piece = 4 * step
    for k, x in enumerate(np.arange(-200.0, w + 200.0, step / d[1])):
        centre = np.array([x, h / 2.0])
        # Staggered breaks: no two neighbouring lines break at the same height.
        t = -800.0 + (37 * k) % piece
        while t < 800.0:
            a, b = centre + t * d, centre + (t + piece - gap) * d
            ends = [tuple(int(round(v)) for v in p) for p in (a, b)]
            cv2.line(lines, ends[0], ends[1], 255, 2, cv2.LINE_AA)
            t += piece
    alpha = lines[..., None] / 255.0
    paper, ink = np.array([232.0, 232, 232]), np.array([190.0, 170, 150])
    img = (paper * (1 - alpha) + ink * alpha).astype(np.uint8)
    cv2.rectangle(img, (500, 400), (900, 700), (80, 80, 80), 3)
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    return img, lines > 127


def test_a_ruling_in_pieces_is_still_found_on_the_page() -> None:
    # Each line is in pieces shorter than grid_line_steps: across breaks of
    # less than a step the pieces are one long line (before: no ruling found,
    # and the lines stayed as ink to cut the countries into strips).
    img, lines = _broken_lines_turned(gap=20)
    free = lines.copy()
    free[380:720, 480:920] = False
    left = {}
    for bridge in (0.0, ReaderSettings().grid_line_bridge):
        ink = find_ink(img, settings=replace(ReaderSettings(), grid_line_bridge=bridge))
        assert ink.mask[398:403, 520:880].mean() > 0.9  # the drawn box stays ink
        left[bridge] = int((ink.mask & free).sum()) / int(free.sum())
    assert left[0.0] > 0.3
    assert left[ReaderSettings().grid_line_bridge] < 0.05


def test_ink_inside_the_drawing_is_on_the_sheet_though_its_paper_is_not() -> None:
    from aggression_vision.vision.ink import _kept_by_sheet

    # The map's outline wholly on the sheet; inside it a shadow the sheet's area
    # left out (its paper too dark), holding a number; beyond the sheet, the table.
    mask = np.zeros((800, 1000), bool)
    mask[100:104, 100:600] = mask[596:600, 100:600] = True
    mask[100:600, 100:104] = mask[100:600, 596:600] = True
    mask[400:440, 400:404] = True  # a "1" in the shadow
    mask[400:404, 760:800] = True  # a streak on the table
    sheet = np.ones_like(mask)
    sheet[300:550, 300:550] = False  # the shadow
    sheet[:, 700:] = False  # the table
    st = ReaderSettings()
    kept = _kept_by_sheet(mask, sheet, settings=st)
    assert kept is not None
    assert kept[400:440, 400:404].all() and kept[100:104, 100:600].all()
    assert not kept[400:404, 760:800].any()
    unhulled = _kept_by_sheet(mask, sheet, settings=replace(st, paper_area_hull=False))
    assert unhulled is not None and not unhulled[400:440, 400:404].any()


def _faint_lines_in_short_pieces() -> tuple[np.ndarray, np.ndarray]:
    """Lined paper whose lines are above the ink level only in 20 px pieces, joined
    by 5 px stretches between the ruling search's level and the ink level, with
    every sixth 25 px stretch blank (staggered), under a drawn box cut in two.

    Returns the image and the lines' mask.
    """
    h, w, step = 900, 1200, 40
    paper = 232.0
    gray = np.full((h, w), paper)
    lines = np.zeros((h, w), bool)
    for k, y in enumerate(range(30, h - 20, step)):
        for x0 in range(0, w, 25):
            if (x0 // 25 + k) % 6:
                gray[y : y + 2, x0 : x0 + 20] = paper * (1 - 0.12)
                gray[y : y + 2, x0 + 20 : x0 + 25] = paper * (1 - 0.065)
            lines[y : y + 2, x0 : x0 + 25] = True
    img = np.repeat(gray.astype(np.uint8)[..., None], 3, axis=2)
    cv2.rectangle(img, (300, 200), (900, 700), (60, 60, 60), 4)
    cv2.line(img, (600, 200), (600, 700), (60, 60, 60), 4)
    return img, lines


def test_faint_lines_in_pieces_that_the_drawing_holds_are_ruling() -> None:
    # The lines are whole only across their breaks, and mostly too short a piece
    # to be ink alone: only the pieces touching the box are kept as ink. They are
    # still ink-dark, so the family is a ruling (before: 'mostly not ink', no
    # ruling, and the kept pieces stayed as stubs or strips inside the countries).
    img, lines = _faint_lines_in_short_pieces()
    ink = find_ink(img, settings=ReaderSettings())
    assert ink.ruling.any()
    inside = np.zeros_like(lines)
    inside[210:690, 310:890] = lines[210:690, 310:890]
    assert int((ink.mask & inside).sum()) < 0.02 * int(inside.sum())
    assert ink.mask[198:203, 320:880].mean() > 0.9  # the drawn box stays ink
    assert ink.mask[220:680, 598:603].mean() > 0.9


def test_faded_pink_margin_line_is_not_ink_but_strokes_across_it_are() -> None:
    # Blur and the photo's colour sampling fade a thin pink margin line: its
    # red-channel darkness is over half its grey darkness (the per-pixel pink
    # test keeps it), far less than a drawing's.
    img = np.full((1000, 750, 3), 235, np.uint8)
    cv2.line(img, (150, 0), (150, 999), (170, 160, 200), 3)
    for y in (200, 500, 800):  # pencil borders drawn across the line
        cv2.line(img, (40, y), (700, y), (110, 110, 110), 4)
    cv2.line(img, (400, 200), (400, 800), (110, 110, 110), 4)
    cv2.line(img, (150, 530), (150, 620), (110, 110, 110), 4)  # and one along it
    ink = find_ink(img, settings=ReaderSettings())
    line = ink.mask[:, 140:161].copy()
    line[190:211] = line[490:631] = line[790:811] = False  # the crossings, the border along it
    assert not line.any()
    assert ink.mask[530:620, 145:156].any(axis=1).all()
    # The borders stay whole, across the line too.
    for y in (200, 500, 800):
        assert ink.mask[y - 3 : y + 4, 60:690].any(axis=0).all()
    off = replace(ReaderSettings(), margin_line_ratio=0.0)
    assert find_ink(img, settings=off).mask[300:400, 145:156].any(axis=1).mean() > 0.9


def _photographed(img: np.ndarray, seed: int) -> np.ndarray:
    """A drawn float image as a camera gives it: a little blur and grain (seeded), 8 bits."""
    img = cv2.GaussianBlur(img, (0, 0), 0.8)
    rng = np.random.default_rng(seed)
    return np.clip(img + rng.normal(0, 1.5, img.shape), 0, 255).astype(np.uint8)


def _pencil_circles_on_squared_paper() -> np.ndarray:
    """Squared paper (2 px lines about 10% darker than the paper, every 24 px) under
    a pencil map as light as the lines (circles and a wavy border, 7% darker:
    below the ink level; darker still where it crosses a line) and one dark
    written stroke."""
    h, w = 1050, 1400
    img = _squared_paper(h, w, paper=225, print_bgr=(203, 203, 203)).astype(np.float32)
    pencil = np.zeros((h, w), np.uint8)
    cv2.circle(pencil, (500, 520), 230, 1, 3)
    cv2.circle(pencil, (960, 520), 230, 1, 3)
    xs = np.arange(300, 1160)
    ys = 520 + 60 * np.sin(xs / 70.0)
    cv2.polylines(pencil, [np.stack([xs, ys], 1).astype(np.int32)], False, 1, 3)
    img *= np.where(pencil > 0, np.float32(209 / 225), np.float32(1.0))[:, :, None]
    cv2.line(img, (700, 380), (760, 440), (60, 60, 60), 4)
    return _photographed(img, seed=5)


def test_a_pencil_map_as_light_as_the_squared_papers_lines_is_seen_off_the_ruling() -> None:
    img = _pencil_circles_on_squared_paper()
    on_circle = np.zeros(img.shape[:2], bool)
    cv2.circle(on_circle.view(np.uint8), (500, 520), 230, 1, 3)
    grid_away = np.zeros(img.shape[:2], bool)
    grid_away[850:1040, 100:1300] = True  # ruling only, far from the drawing
    kept = {}
    for level in (ReaderSettings().ink_off_ruling_level, 0.0):
        settings = replace(ReaderSettings(), ink_off_ruling_level=level)
        ink = find_ink(img, settings=settings, rectified=True)
        assert ink.ruling[grid_away].any()
        assert ink.mask[grid_away].mean() < 0.001
        kept[level] = float(ink.mask[on_circle].mean())
    # (Where the circle runs along an axis it is as straight as a printed
    # line over the opening's length: those short stretches stay out.)
    assert kept[ReaderSettings().ink_off_ruling_level] > 0.7
    assert kept[0.0] < 0.4


def _bent_squared_paper_with_a_dark_map() -> np.ndarray:
    """Squared paper whose lines bend (a curled sheet: 5 px waves along them, lines
    every 24 px about 10% darker than the paper) under a dark ballpoint map."""
    h, w = 1050, 1400
    img = np.full((h, w), 225.0, np.float32)
    lines = np.zeros((h, w), np.uint8)
    for y in range(12, h, 24):
        xs = np.arange(0, w)
        ys = y + 5 * np.sin(xs / 90.0 + y / 200.0)
        cv2.polylines(lines, [np.stack([xs, ys], 1).astype(np.int32)], False, 1, 2)
    for x in range(12, w, 24):
        ys = np.arange(0, h)
        xs = x + 5 * np.sin(ys / 90.0 + x / 200.0)
        cv2.polylines(lines, [np.stack([xs, ys], 1).astype(np.int32)], False, 1, 2)
    img *= np.where(lines > 0, np.float32(203 / 225), np.float32(1.0))
    img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    cv2.rectangle(img, (400, 300), (1000, 750), (40, 40, 40), 4)
    cv2.line(img, (700, 300), (700, 750), (40, 40, 40), 4)
    return _photographed(img, seed=7)


def test_the_off_ruling_pass_adds_nothing_where_the_opening_does_not_model_the_ruling() -> None:
    # The bent lines are not straight over the opening's length: what the
    # opening leaves of them is ruling, and the pass must see that and add
    # nothing (the map itself is dark: nothing is missing).
    img = _bent_squared_paper_with_a_dark_map()
    away = np.ones(img.shape[:2], bool)
    away[290:760, 390:1010] = False
    guarded = find_ink(img, settings=ReaderSettings(), rectified=True)
    off = find_ink(
        img, settings=replace(ReaderSettings(), ink_off_ruling_level=0.0), rectified=True
    )
    assert guarded.ruling[away].any()
    assert int((guarded.mask & ~off.mask).sum()) == 0
    loose = replace(ReaderSettings(), ink_off_ruling_left=1.0, ink_off_ruling_parallel=1.0)
    unguarded = find_ink(img, settings=loose, rectified=True)
    assert int((unguarded.mask & ~off.mask)[away].sum()) > 0
