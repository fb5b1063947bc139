"""Every factor of variation of the synthetic photos, with its range, and presets.

A range is a ``(low, high)`` tuple drawn uniformly; a probability is a float
in 0..1; a choice is a tuple of ``(name, weight)`` pairs. Lengths on paper are
in millimetres, so that a map looks the same at every photo resolution.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

Range = tuple[float, float]
Choice = tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class SynthParams:
    """Parameters of the synthetic photo generator.

    Attributes are grouped: map geometry, game, writing, pens, paper, camera.
    """

    # -- map geometry (mm) -----------------------------------------------------------
    n_countries: tuple[int, int] = (10, 40)
    #: Map extent (the land's longer side) as a fraction of the page's shorter side.
    map_extent: Range = (0.65, 0.95)
    #: Outline of the land: wobbly blob, a rectangle (a frame), a straight-sided polygon.
    land_shape: Choice = (("blob", 0.55), ("rect", 0.25), ("polygon", 0.2))
    #: Voronoi cells merged per country (more: less convex, more irregular shapes).
    cells_per_country: Range = (1.0, 3.0)
    #: How unequal the country sizes are (0 = even).
    size_variety: Range = (0.0, 1.0)
    #: Grid-like maps: a rectangle cut by straight lines, cuts often lined up
    #: (four-corner junctions, as in a sudoku grid).
    grid_prob: float = 0.12
    #: Maps drawn with a ruler: straight borders, no bending.
    ruler_prob: float = 0.15
    #: Low-frequency bending of each border, fraction of its length (capped for validity).
    bend: Range = (0.0, 0.07)
    #: High-frequency hand tremor of the drawn borders (mm).
    tremor_mm: Range = (0.05, 0.35)
    #: Shared borders shorter than this are contracted to a point (no ambiguous adjacency).
    min_shared_mm: float = 4.0
    #: Probability that a naturally short shared border becomes a point contact
    #: (otherwise it is flipped into a T-junction pair).
    short_border_contact_prob: float = 0.15
    #: Extra deliberate four-corner junctions (countries meeting at a point), per map.
    point_contacts: tuple[int, int] = (0, 2)
    #: Probability of a country wholly inside another.
    enclave_prob: float = 0.35
    #: Probability of a long thin country across the map, and its width range (mm).
    thin_prob: float = 0.35
    thin_width_mm: Range = (7.0, 12.0)
    #: Ground truth: countries are adjacent when their common border is longer
    #: than this many border line widths (point contacts are not adjacent).
    adjacency_line_widths: float = 3.0
    #: No country may narrow to a neck thinner than this many border line widths
    #: (two lobes joined at a point or through a neck): drawn with a pen, the
    #: outline's strokes touch there and the country looks like two.
    neck_line_widths: float = 3.0

    # -- drawing of the borders ------------------------------------------------------
    #: Probability that a border is drawn twice (slightly apart) and the offset
    #: between the two strokes, in line widths.
    double_prob: Range = (0.0, 0.4)
    double_offset_lw: Range = (0.3, 1.8)
    #: Probability per border end of a small gap (pen stopped short) and its size (mm).
    gap_prob: Range = (0.0, 0.3)
    gap_mm: Range = (0.2, 1.2)
    #: Probability per border end of an overshoot past the junction and its length (mm).
    overshoot_prob: Range = (0.0, 0.4)
    overshoot_mm: Range = (0.3, 2.5)
    #: Probability per border of a pen lift part way (a gap of ``gap_mm`` or an overlap).
    lift_prob: Range = (0.0, 0.25)

    # -- game ----------------------------------------------------------------------
    #: Probability that phase 2 is still being played in the photo.
    unfinished_phase2_prob: float = 0.25
    #: Fraction of the phase 3 conquests (as far as the game goes) already played.
    phase3_progress: Range = (0.0, 1.0)
    #: Spread of placements (log-normal sigma around an even share).
    placement_spread: Range = (0.3, 0.9)

    # -- writing ---------------------------------------------------------------------
    #: Digit height (mm) before fitting into small countries.
    digit_height_mm: Range = (3.5, 8.0)
    #: Probability that a map has capital letters naming the countries (<= 26 countries).
    label_prob: float = 0.45
    #: Probability that a number touches its country's border.
    touch_border_prob: float = 0.08
    #: Handwriting sources and their weights.
    hand_sources: Choice = (("stroke", 0.4), ("font", 0.3), ("mnist", 0.3))
    #: Font and MNIST splits used (``"synth"`` keeps them unseen by the reader's training).
    font_split: str = "synth"
    mnist_split: str = "synth"
    #: Underline and cross-out kinds and weights.
    underline_kinds: Choice = (
        ("straight", 0.4),
        ("curved", 0.2),
        ("double", 0.1),
        ("short", 0.15),
        ("long", 0.15),
    )
    crossout_kinds: Choice = (("single", 0.3), ("x", 0.25), ("strike", 0.3), ("scribble", 0.15))

    # -- pens ------------------------------------------------------------------------
    pen: Choice = (
        ("pencil", 0.35),
        ("ballpoint_blue", 0.3),
        ("ballpoint_black", 0.2),
        ("felt", 0.15),
    )
    #: Probability that a pencil map shows erased marks (faint numbers, stray lines),
    #: and their strength relative to the pencil.
    ghost_prob: float = 0.3
    ghost_strength: Range = (0.1, 0.25)
    #: Probability that the players write with a different pen from the map's.
    other_pen_prob: float = 0.4

    # -- paper -----------------------------------------------------------------------
    paper: Choice = (("plain", 0.3), ("squared", 0.35), ("seyes", 0.15), ("ruled", 0.2))
    #: Page size (short side, long side) choices in mm.
    page_size: Choice = (("a4", 0.5), ("a5", 0.25), ("notebook", 0.25))
    punch_holes_prob: float = 0.25
    #: Strength of the printed lines (0 faint .. 1 strong).
    print_strength: Range = (0.25, 0.8)

    # -- camera ----------------------------------------------------------------------
    megapixels: Range = (1.0, 12.0)
    #: Tilt of the page relative to the camera axis (degrees).
    tilt_deg: Range = (0.0, 35.0)
    #: In-plane rotation of the page (degrees).
    roll_deg: Range = (-180.0, 180.0)
    #: Probability that the roll is near a multiple of 90 degrees (phone held square).
    roll_near_axis_prob: float = 0.6
    #: Page's longer side as a fraction of the photo's longer side (>1: part of it is cut off).
    page_fill: Range = (0.7, 1.3)
    #: Probability that the page may run out of the frame (the map always stays in view).
    page_cut_prob: float = 0.35
    #: Smallest size of the map in the photo: its longer extent as a fraction of the
    #: photo's shorter side (drawn per photo from this range).
    map_min_fill: Range = (0.45, 0.7)
    #: Radial lens distortion: displacement at the photo's corner, as a fraction of
    #: the half diagonal (negative: barrel).
    lens_distortion: Range = (-0.015, 0.01)
    #: A sheet that does not lie flat: amplitude of a smooth displacement, fraction
    #: of the photo's longer side.
    page_bend: Range = (0.0, 0.004)
    #: Uneven light: amplitude of the smooth illumination field.
    light_unevenness: Range = (0.05, 0.35)
    #: Overall exposure (1 = paper close to white).
    exposure: Range = (0.7, 1.08)
    #: Probability of phone-style sharpening (unsharp mask).
    sharpen_prob: float = 0.4
    #: Probability of a cast shadow (a hand or a phone) and its darkness.
    shadow_prob: float = 0.45
    shadow_strength: Range = (0.15, 0.5)
    #: Gaussian blur sigma as a fraction of a millimetre on paper (focus), and motion blur.
    blur_mm: Range = (0.0, 0.12)
    motion_blur_prob: float = 0.15
    #: Sensor noise standard deviation (0..255 scale).
    noise: Range = (1.0, 6.0)
    jpeg_quality: tuple[int, int] = (70, 95)

    def to_dict(self) -> dict[str, Any]:
        """The parameters as plain data (for the record in each sample's JSON)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> SynthParams:
        """Parameters from a sample's ``synth.params`` record (the fields that differ
        from the defaults; JSON lists become tuples again).

        Raises
        ------
        ValueError
            For a field that does not exist.
        """
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(record) - names)
        if unknown:
            raise ValueError(f"unknown synth parameters: {', '.join(unknown)}")

        def tup(v: Any) -> Any:
            return tuple(tup(x) for x in v) if isinstance(v, list) else v

        return replace(cls(), **{k: tup(v) for k, v in record.items()})


def _easy() -> SynthParams:
    """Clean, scanner-like photos: the reader's smoke test."""
    base = SynthParams()
    return replace(
        base,
        n_countries=(10, 20),
        land_shape=(("blob", 0.6), ("rect", 0.4)),
        cells_per_country=(1.0, 2.0),
        size_variety=(0.0, 0.5),
        bend=(0.0, 0.04),
        tremor_mm=(0.05, 0.15),
        point_contacts=(0, 1),
        enclave_prob=0.1,
        thin_prob=0.1,
        double_prob=(0.0, 0.05),
        gap_prob=(0.0, 0.05),
        overshoot_prob=(0.0, 0.1),
        lift_prob=(0.0, 0.05),
        digit_height_mm=(5.0, 8.0),
        touch_border_prob=0.0,
        hand_sources=(("stroke", 0.6), ("font", 0.4)),
        pen=(("ballpoint_black", 0.5), ("ballpoint_blue", 0.3), ("felt", 0.2)),
        paper=(("plain", 0.7), ("squared", 0.3)),
        punch_holes_prob=0.0,
        print_strength=(0.15, 0.35),
        megapixels=(2.0, 6.0),
        tilt_deg=(0.0, 5.0),
        roll_deg=(-4.0, 4.0),
        page_fill=(0.8, 0.95),
        page_cut_prob=0.0,
        map_min_fill=(0.3, 0.4),
        lens_distortion=(0.0, 0.0),
        page_bend=(0.0, 0.0),
        light_unevenness=(0.0, 0.08),
        shadow_prob=0.0,
        ghost_prob=0.0,
        exposure=(0.9, 1.05),
        sharpen_prob=0.0,
        blur_mm=(0.0, 0.04),
        motion_blur_prob=0.0,
        noise=(0.5, 2.0),
        jpeg_quality=(88, 95),
    )


def _hard() -> SynthParams:
    """The full range pushed to its ends: stress tests."""
    return replace(
        SynthParams(),
        n_countries=(25, 40),
        double_prob=(0.2, 0.5),
        gap_prob=(0.2, 0.4),
        overshoot_prob=(0.2, 0.5),
        tilt_deg=(20.0, 35.0),
        light_unevenness=(0.25, 0.45),
        shadow_prob=0.8,
        noise=(4.0, 9.0),
        jpeg_quality=(60, 80),
    )


def _small() -> SynthParams:
    """The default mix at 0.3-1 MP: quick looks and fast tests."""
    return replace(SynthParams(), megapixels=(0.3, 1.0))


PRESETS: dict[str, SynthParams] = {
    "easy": _easy(),
    "default": SynthParams(),
    "hard": _hard(),
    "small": _small(),
}


def preset(name: str) -> SynthParams:
    """The named preset.

    Raises
    ------
    ValueError
        For an unknown name.
    """
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown preset {name!r}; choose from {', '.join(PRESETS)}") from None
