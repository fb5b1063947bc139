"""Synthetic photos of Aggression games with their ground-truth state documents.

``generate_sample(seed, params)`` is deterministic: the same seed and
parameters give the same photo and document, bit for bit. A data set of
``count`` samples from seed ``S`` uses seeds ``S, S+1, ...`` (sample names
carry the seed), so any sample can be regenerated on its own.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import shapely
import shapely.affinity
import shapely.ops
from numpy.typing import NDArray
from shapely.geometry import Polygon

from aggression_vision.document import state_to_document
from aggression_vision.game import Board, GameState
from aggression_vision.game.mapgen import country_ids
from aggression_vision.synth.camera import choose_pose, photograph, random_distortion
from aggression_vision.synth.game import play_game
from aggression_vision.synth.handwriting import HandStyle, random_style
from aggression_vision.synth.maps import SynthMap, generate_map
from aggression_vision.synth.paper import PAGE_SIZES_MM, Pen, random_pen, render_paper
from aggression_vision.synth.params import SynthParams
from aggression_vision.synth.render import (
    draw_borders,
    draw_polylines,
    pencil_texture,
    reading_order,
    write_label,
    write_text,
)

GENERATOR_VERSION = 3

_PAIR = re.compile(r"\[\s+(-?[\d.e+-]+),\s+(-?[\d.e+-]+)\s+\]")


@dataclass
class Sample:
    """One synthetic photo and its ground truth.

    Attributes
    ----------
    name : str
    image : ndarray of uint8, shape (rows, cols, 3)
        BGR, as OpenCV writes it.
    jpeg_quality : int
    document : dict
        The spec's state document, polygons in ``image`` pixel coordinates,
        plus a ``"synth"`` record of how the sample was made.
    state : GameState
    """

    name: str
    image: NDArray[np.uint8]
    jpeg_quality: int
    document: dict[str, Any]
    state: GameState
    warnings: list[str] = field(default_factory=list)


def _choice(rng: np.random.Generator, options: tuple[tuple[str, float], ...]) -> str:
    w = np.array([x for _, x in options], dtype=float)
    return options[int(rng.choice(len(options), p=w / w.sum()))][0]


def _place_map(
    rng: np.random.Generator, smap: SynthMap, page_mm: tuple[float, float]
) -> NDArray[np.float64]:
    """Offset (mm) that puts the map somewhere on the page, 8 mm from the edges."""
    x0, y0, x1, y1 = smap.land.bounds
    margin = 8.0
    lo = np.array([margin - x0, margin - y0])
    hi = np.array([page_mm[0] - margin - x1, page_mm[1] - margin - y1])
    hi = np.maximum(hi, lo)
    return np.asarray(rng.uniform(lo, hi))


def _translate(smap: SynthMap, off: NDArray[np.float64]) -> SynthMap:
    dx, dy = float(off[0]), float(off[1])
    return SynthMap(
        countries=[shapely.affinity.translate(p, dx, dy) for p in smap.countries],
        borders=[b + off for b in smap.borders],
        adjacency=smap.adjacency,
        point_contacts=smap.point_contacts,
        shared_mm=smap.shared_mm,
        threshold_mm=smap.threshold_mm,
        land=shapely.affinity.translate(smap.land, dx, dy),
        ruler=smap.ruler,
        thin=smap.thin,
        enclave=smap.enclave,
        layout=smap.layout,
    )


def player_styles(rng: np.random.Generator, params: SynthParams) -> dict[str, HandStyle]:
    """One hand per player, drawn from ``params.hand_sources`` (first's hand drawn first)."""
    sources = tuple(s for s, _ in params.hand_sources)
    weights = tuple(w for _, w in params.hand_sources)
    return {
        p: random_style(
            rng,
            sources=sources,  # type: ignore[arg-type]
            weights=weights,
            font_split=params.font_split,  # type: ignore[arg-type]
            mnist_split=params.mnist_split,  # type: ignore[arg-type]
        )
        for p in ("first", "second")
    }


def page_pens_and_map(
    rng: np.random.Generator, params: SynthParams
) -> tuple[tuple[float, float], dict[str, Pen], SynthMap]:
    """Draw the page size, the pens and the map placed on the page, in that order.

    Shared by the single-photo generator and the game sequences so that both make
    the same draws from ``rng`` in the same order.

    Parameters
    ----------
    rng : numpy.random.Generator
    params : SynthParams
        ``page_size``, ``pen``, ``other_pen_prob``, ``map_extent`` and the map's own.

    Returns
    -------
    page_mm : tuple of float
        Page width and height in mm.
    pens : dict of str to Pen
        ``"map"``, ``"first"`` and ``"second"`` (a player often shares the map's pen).
    smap : SynthMap
        The map in page mm.
    """
    page_mm = PAGE_SIZES_MM[_choice(rng, params.page_size)]
    map_pen = random_pen(rng, _choice(rng, params.pen))
    pens: dict[str, Pen] = {"map": map_pen}
    for player in ("first", "second"):
        pens[player] = (
            random_pen(rng, _choice(rng, params.pen))
            if rng.random() < params.other_pen_prob
            else map_pen
        )
    # Map geometry on the page.
    extent = float(rng.uniform(*params.map_extent)) * min(page_mm)
    smap = generate_map(rng, params, extent_mm=extent, line_width_mm=map_pen.width_mm)
    smap = _translate(smap, _place_map(rng, smap, page_mm))
    return page_mm, pens, smap


def generate_sample(seed: int, params: SynthParams | None = None) -> Sample:
    """Generate one synthetic photo and its ground-truth document.

    Parameters
    ----------
    seed : int
        The only source of randomness.
    params : SynthParams, optional
        Defaults to ``SynthParams()`` (the ``default`` preset).

    Returns
    -------
    Sample
    """
    params = params or SynthParams()
    rng = np.random.default_rng(seed)
    warnings: list[str] = []

    # Paper and pens.
    paper_kind = _choice(rng, params.paper)
    page_mm, pens, smap = page_pens_and_map(rng, params)
    map_pen = pens["map"]
    n = len(smap.countries)

    # Camera pose first: the reading order of the ids is the photo's.
    pose = choose_pose(rng, params, page_mm=page_mm, keep_mm=np.asarray(smap.land.exterior.coords))
    centre_mm = tuple(np.asarray(smap.land.centroid.coords[0]))
    ppm = float(np.clip(pose.px_per_mm(centre_mm) * rng.uniform(1.0, 1.15), 3.0, 24.0))  # type: ignore[arg-type]

    spots = [shapely.ops.polylabel(p, tolerance=0.3) for p in smap.countries]
    labelled = n <= 26 and rng.random() < params.label_prob
    if labelled:
        letters = [chr(ord("A") + int(k)) for k in rng.permutation(n)]
        ids = letters
    else:
        spots_px = pose.project(np.array([[s.x, s.y] for s in spots]))
        band = float(np.sqrt(np.median([p.area for p in smap.countries]))) * pose.px_per_mm(
            centre_mm  # type: ignore[arg-type]
        )
        order = reading_order(spots_px, band)
        names = country_ids(n)
        ids = [""] * n
        for rank, i in enumerate(order):
            ids[i] = names[rank]
    board = Board.from_pairs(ids, [(ids[i], ids[j]) for i, j in smap.adjacency])
    state, moves = play_game(board, rng, params)

    # The page and its ink.
    sheet = render_paper(rng, paper_kind, page_mm, ppm, params)
    shape = sheet.shape
    layers = {k: np.zeros(shape, np.float32) for k in ("map", "first", "second")}
    draw_borders(
        layers["map"],
        smap.borders,
        rng,
        params,
        ppm=ppm,
        width_mm=map_pen.width_mm,
        ruler=smap.ruler,
    )
    styles = player_styles(rng, params)
    h0 = float(rng.uniform(*params.digit_height_mm))
    # People write smaller on a map of small countries.
    radii = [p.exterior.distance(c) for p, c in zip(smap.countries, spots, strict=True)]
    h0 = min(h0, max(2.5, float(np.median(radii))))
    boxes_mm: dict[str, dict[str, tuple[float, float, float, float]]] = {}
    for i in rng.permutation(n):
        cid = ids[i]
        poly = smap.countries[i]
        number_box = None
        armies = state.armies[cid]
        if armies is not None:
            owner = state.owner[cid]
            assert owner is not None
            number_box = write_text(
                layers[owner],
                poly,
                str(armies),
                rng,
                params,
                style=styles[owner],
                ppm=ppm,
                height_mm=h0 * float(rng.uniform(0.85, 1.15)),
                pen_width_mm=pens[owner].width_mm,
                underline=owner == "first",
                crossout=cid in state.conquered,
                touch=bool(rng.random() < params.touch_border_prob),
            )
            if number_box is not None:
                boxes_mm[cid] = {"number": number_box}
            if number_box is None:
                warnings.append(f"{cid}: the number did not fit")
        if labelled:
            avoid = shapely.box(*number_box).buffer(0.8) if number_box else None
            got = write_label(
                layers["map"],
                poly,
                cid,
                rng,
                params,
                style=styles["first"],
                ppm=ppm,
                height_mm=h0,
                pen_width_mm=map_pen.width_mm,
                avoid=avoid,
            )
            if got is not None:
                boxes_mm.setdefault(cid, {})["label"] = got
            if got is None:
                # No letter on paper: the ground truth must not claim one.
                warnings.append(f"{cid}: the letter did not fit")
    ghosts = 0
    if map_pen.kind == "pencil" and rng.random() < params.ghost_prob:
        # Erased pencil: faint numbers and stray lines that are not part of the game.
        layers["ghost"] = np.zeros(shape, np.float32)
        pens["ghost"] = map_pen
        ghosts = int(rng.integers(1, 4))
        for _ in range(ghosts):
            poly = smap.countries[int(rng.integers(n))]
            if rng.random() < 0.6:
                write_text(
                    layers["ghost"],
                    poly,
                    str(int(rng.integers(1, 60))),
                    rng,
                    params,
                    style=styles["second"],
                    ppm=ppm,
                    height_mm=h0,
                    pen_width_mm=map_pen.width_mm,
                )
            else:
                c = np.asarray(shapely.ops.polylabel(poly, 0.5).coords[0])
                ang = rng.uniform(0, np.pi)
                half = np.array([np.cos(ang), np.sin(ang)]) * rng.uniform(4, 12)
                draw_polylines(
                    layers["ghost"], [np.stack([c - half, c + half]) * ppm], map_pen.width_mm * ppm
                )
    for key, layer in layers.items():
        pen = pens[key]
        # Only the part of the page with ink on it (much faster at 12 MP).
        rows = np.flatnonzero(cv2.reduce(layer, 1, cv2.REDUCE_MAX).ravel() > 0)
        cols = np.flatnonzero(cv2.reduce(layer, 0, cv2.REDUCE_MAX).ravel() > 0)
        if len(rows) == 0:
            continue
        y0, y1, x0, x1 = int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1
        cov = np.minimum(layer[y0:y1, x0:x1], 1.0) * np.float32(pen.opacity)
        if key == "ghost":
            cov *= np.float32(rng.uniform(*params.ghost_strength))
        tex = pencil_texture(rng, cov.shape, pen.kind, ppm=ppm)  # type: ignore[arg-type]
        if tex is not None:
            cov *= tex
        sheet.apply_ink(cov, pen.ink, origin=(y0, x0))

    distortion = random_distortion(rng, params, pose.size)
    photo, quality = photograph(sheet.to_bgr(), sheet.alpha, ppm, pose, rng, params, distortion)

    # Every ring to the photo in one batch (the distortion is inverted iteratively).
    rings_mm: list[NDArray[np.float64]] = []
    for p in smap.countries:
        rings_mm += [np.asarray(r.coords)[:-1] for r in (p.exterior, *p.interiors)]
    for kinds in boxes_mm.values():
        rings_mm += [np.asarray(shapely.box(*b).exterior.coords)[:-1] for b in kinds.values()]
    flat = distortion.forward(pose.project(np.concatenate(rings_mm)))
    in_photo = iter(np.split(flat, np.cumsum([len(r) for r in rings_mm])[:-1]))

    def next_ring() -> list[list[float]]:
        return [[round(float(x), 2), round(float(y), 2)] for x, y in next(in_photo)]

    # Same order as rings_mm: each country's outline then its holes, then the writing.
    outlines = {}
    holes = {}
    for cid, p in zip(ids, smap.countries, strict=True):
        outlines[cid] = next_ring()
        holes[cid] = [next_ring() for _ in p.interiors]
    writing = {cid: {kind: next_ring() for kind in kinds} for cid, kinds in boxes_mm.items()}

    # Ground truth in photo pixels.
    polygons = outlines
    doc = state_to_document(
        state,
        polygons=polygons,
        labels={cid: (cid if "label" in boxes_mm.get(cid, {}) else None) for cid in ids},
    )
    for entry in doc["countries"]:
        if holes[entry["id"]]:
            entry["holes"] = holes[entry["id"]]
    name = f"synth-{seed:06d}"
    doc["synth"] = {
        "generator_version": GENERATOR_VERSION,
        "seed": seed,
        "name": name,
        "size": list(pose.size),
        "paper": paper_kind,
        "pens": {k: v.kind for k, v in pens.items()},
        "line_width_px": round(map_pen.width_mm * pose.px_per_mm(centre_mm), 2),  # type: ignore[arg-type]
        "ruler": smap.ruler,
        "layout": smap.layout,
        "labelled": labelled,
        "point_contacts": [[ids[i], ids[j]] for i, j in smap.point_contacts],
        "thin": ids[smap.thin] if smap.thin is not None else None,
        "enclave": ids[smap.enclave] if smap.enclave is not None else None,
        "tilt_deg": round(pose.tilt_deg, 2),
        "roll_deg": round(pose.roll_deg, 2),
        "ghosts": ghosts,
        "moves": [str(m) for m in moves],
        # Where each number (with its marks) and letter was written: photo quads.
        "writing": writing,
        # Fields that differ from SynthParams(): with the seed, enough to regenerate.
        "params": {k: v for k, v in params.to_dict().items() if v != getattr(SynthParams(), k)},
        "warnings": warnings,
    }
    return Sample(
        name=name, image=photo, jpeg_quality=quality, document=doc, state=state, warnings=warnings
    )


def write_sample(sample: Sample, out_dir: Path) -> tuple[Path, Path]:
    """Write ``NAME.jpg`` and ``NAME.json`` into ``out_dir``; return both paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    jpg = out_dir / f"{sample.name}.jpg"
    js = out_dir / f"{sample.name}.json"
    ok, buf = cv2.imencode(".jpg", sample.image, [cv2.IMWRITE_JPEG_QUALITY, sample.jpeg_quality])
    if not ok:  # pragma: no cover - OpenCV always encodes a uint8 BGR image
        raise OSError(f"could not encode {jpg}")
    jpg.write_bytes(buf.tobytes())
    text = json.dumps(sample.document, indent=1)
    text = _PAIR.sub(r"[\1, \2]", text)  # one [x, y] pair per line, not three lines
    js.write_text(text + "\n", encoding="utf-8")
    return jpg, js


def _make_one(seed: int, params: SynthParams | None, out_dir: Path) -> tuple[Path, str]:
    sample = generate_sample(seed, params)
    jpg, _ = write_sample(sample, out_dir)
    return jpg, sample.name


def generate_dataset(
    out_dir: Path,
    count: int,
    seed: int,
    params: SynthParams | None = None,
    *,
    workers: int = 1,
    progress: Callable[[int, str], None] | None = None,
) -> list[Path]:
    """Generate ``count`` samples with seeds ``seed .. seed + count - 1`` into ``out_dir``.

    Each sample depends on its seed only, so ``workers`` processes give the same
    files as one. Returns the JPEG paths in seed order; ``progress(done, name)``
    is called as samples are written.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    seeds = [seed + i for i in range(count)]
    if workers <= 1:
        paths = []
        for i, s in enumerate(seeds):
            jpg, name = _make_one(s, params, out_dir)
            paths.append(jpg)
            if progress is not None:
                progress(i + 1, name)
        return paths
    from concurrent.futures import ProcessPoolExecutor, as_completed

    results: dict[int, Path] = {}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(_make_one, s, params, out_dir): s for s in seeds}
        for done, fut in enumerate(as_completed(futures), start=1):
            jpg, name = fut.result()
            results[futures[fut]] = jpg
            if progress is not None:
                progress(done, name)
    return [results[s] for s in seeds]


#: The samples committed in ``samples/`` (synth-01 ...): seeds chosen for variety.
COMMITTED_SAMPLES = (610, 611, 614, 620)
#: Their parameters: the default mix at 3-5 MP (small files).
COMMITTED_PARAMS = replace(SynthParams(), megapixels=(3.0, 5.0))


def write_committed_samples(out_dir: Path) -> list[Path]:
    """(Re)write ``synth-01.jpg/json`` ... for :data:`COMMITTED_SAMPLES` into ``out_dir``."""
    paths = []
    for k, seed in enumerate(COMMITTED_SAMPLES, start=1):
        sample = generate_sample(seed, COMMITTED_PARAMS)
        sample.name = f"synth-{k:02d}"
        jpg, _ = write_sample(sample, out_dir)
        paths.append(jpg)
    return paths


def regenerate(doc: dict[str, Any]) -> Sample:
    """The sample a synthetic document was made from (its seed and parameters)."""
    record = doc["synth"]
    return generate_sample(int(record["seed"]), SynthParams.from_record(record["params"]))


def sample_polygon(doc: dict[str, Any], cid: str) -> Polygon:
    """The shapely polygon (with holes) of country ``cid`` in a synthetic document."""
    entry = next(c for c in doc["countries"] if c["id"] == cid)
    return Polygon(entry["polygon"], entry.get("holes", []))
