"""End-to-end tests of the synthetic photo generator and the ``synth`` command."""

from __future__ import annotations

import json
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import cv2
import numpy as np
import pytest
import shapely
from typer.testing import CliRunner

from aggression_vision.cli import app
from aggression_vision.document import document_to_state, validate_document
from aggression_vision.game import Board, GameState, parse_move
from aggression_vision.synth.generate import generate_sample, sample_polygon, write_sample
from aggression_vision.synth.params import PRESETS, SynthParams, preset

SMALL = replace(SynthParams(), megapixels=(0.3, 0.6))
SEEDS = range(5)


@pytest.fixture(scope="module")
def samples():  # type: ignore[no-untyped-def]
    return [generate_sample(s, SMALL) for s in SEEDS]


def test_deterministic_per_seed() -> None:
    a = generate_sample(11, SMALL)
    b = generate_sample(11, SMALL)
    c = generate_sample(12, SMALL)
    assert np.array_equal(a.image, b.image)
    assert a.document == b.document
    assert a.image.shape != c.image.shape or not np.array_equal(a.image, c.image)


def test_document_is_valid_and_in_the_photo(samples) -> None:  # type: ignore[no-untyped-def]
    for s in samples:
        doc = s.document
        validate_document(doc)
        h, w = s.image.shape[:2]
        assert doc["synth"]["size"] == [w, h]
        for c in doc["countries"]:
            pts = np.array(c["polygon"])
            assert pts[:, 0].min() >= 0 and pts[:, 0].max() <= w
            assert pts[:, 1].min() >= 0 and pts[:, 1].max() <= h
            if c["label"] is not None:
                assert c["label"] == c["id"]


def test_polygons_valid_and_disjoint(samples) -> None:  # type: ignore[no-untyped-def]
    for s in samples:
        ids = [c["id"] for c in s.document["countries"]]
        polys = {i: sample_polygon(s.document, i) for i in ids}
        for p in polys.values():
            assert p.is_valid and p.area > 50
        for a, b in combinations(ids, 2):
            # shared borders coincide up to the 0.01 px rounding of the JSON
            assert polys[a].intersection(polys[b]).area < 1e-3 * min(polys[a].area, polys[b].area)


def test_adjacency_consistent_with_geometry(samples) -> None:  # type: ignore[no-untyped-def]
    for s in samples:
        doc = s.document
        ids = [c["id"] for c in doc["countries"]]
        polys = {i: sample_polygon(doc, i) for i in ids}
        adj = {frozenset(p) for p in doc["adjacency"]}
        points = {frozenset(p) for p in doc["synth"]["point_contacts"]}
        lw = doc["synth"]["line_width_px"]
        assert not adj & points
        for a, b in combinations(ids, 2):
            shared = polys[a].buffer(0.05).intersection(polys[b].boundary).length
            pair = frozenset((a, b))
            if pair in adj:
                assert shared > 3 * lw, (s.name, a, b, shared)
            else:
                assert shared < lw, (s.name, a, b, shared)
            if pair in points:
                assert polys[a].distance(polys[b]) < 0.05


def test_game_is_legal_replay(samples) -> None:  # type: ignore[no-untyped-def]
    for s in samples:
        doc = s.document
        ids = [c["id"] for c in doc["countries"]]
        board = Board.from_pairs(ids, [tuple(p) for p in doc["adjacency"]])
        state = GameState.initial(board)
        for text in doc["synth"]["moves"]:
            state = state.apply(parse_move(text))
        by_id = {c["id"]: c for c in doc["countries"]}
        for cid in ids:
            assert state.armies[cid] == by_id[cid]["armies"]
            assert state.owner[cid] == by_id[cid]["owner"]
            assert (cid in state.conquered) == by_id[cid]["conquered"]
        assert state.phase == doc["phase"]
        assert state.to_move == doc["to_move"]
        read, _ = document_to_state(doc)
        assert read.phase == doc["phase"]


def test_variety_over_seeds() -> None:
    docs = [generate_sample(s, replace(SMALL, n_countries=(10, 14))).document for s in range(12)]
    assert {d["phase"] for d in docs} == {2, 3}
    assert any(c["conquered"] for d in docs for c in d["countries"])
    assert any(d["synth"]["labelled"] for d in docs)
    assert len({d["synth"]["paper"] for d in docs}) >= 3
    assert len({d["synth"]["pens"]["map"] for d in docs}) >= 2


def test_writes_jpeg_and_json(tmp_path: Path) -> None:
    s = generate_sample(3, SMALL)
    jpg, js = write_sample(s, tmp_path)
    img = cv2.imread(str(jpg))
    assert img.shape == s.image.shape
    assert json.loads(js.read_text())["countries"] == s.document["countries"]


def test_cli_synth_writes_files(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["synth", "--count", "2", "--seed", "5", "--out", str(tmp_path), "--preset", "small"]
    )
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [
        "synth-000005.jpg",
        "synth-000005.json",
        "synth-000006.jpg",
        "synth-000006.json",
    ]


def test_cli_synth_unknown_preset(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["synth", "--out", str(tmp_path), "--preset", "nope"])
    assert result.exit_code == 2
    assert "unknown preset" in result.output


def test_presets() -> None:
    assert set(PRESETS) >= {"easy", "default", "hard", "small"}
    with pytest.raises(ValueError, match="unknown preset"):
        preset("nope")
    assert preset("default") == SynthParams()
    assert shapely is not None


def _on_ink(near: np.ndarray, doc: dict, shift: float) -> float:  # type: ignore[type-arg]
    hits = total = 0
    for c in doc["countries"]:
        ring = shapely.LinearRing(np.array(c["polygon"]) + shift)
        for d in np.arange(0, ring.length, 2.0):
            x, y = ring.interpolate(d).coords[0]
            if 0 <= x < near.shape[1] and 0 <= y < near.shape[0]:
                hits += int(near[int(y), int(x)])
            total += 1
    return hits / total


def test_drawn_borders_lie_on_the_ground_truth() -> None:
    """Most of every true border has ink right on it in the photo (within ~2 line widths),
    and clearly less so when the polygons are moved by a few line widths. Plain paper, so
    that printed lines do not count as ink."""
    params = replace(SMALL, paper=(("plain", 1.0),), megapixels=(1.0, 1.5))
    for s in (generate_sample(seed, params) for seed in (1, 2, 3)):
        gray = cv2.cvtColor(s.image, cv2.COLOR_BGR2GRAY).astype(np.int16)
        paper = cv2.dilate(gray.astype(np.uint8), np.ones((15, 15), np.uint8)).astype(np.int16)
        ink = ((paper - gray) > 20).astype(np.uint8)
        r = int(np.ceil(max(2.0, 1.5 * s.document["synth"]["line_width_px"])))
        near = cv2.dilate(ink, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
        on = _on_ink(near, s.document, 0.0)
        assert on > 0.85, (s.name, on)
        assert _on_ink(near, s.document, 3.0 * r) < on - 0.1, s.name


def test_writing_inside_its_country(samples) -> None:  # type: ignore[no-untyped-def]
    for s in samples:
        doc = s.document
        writing = doc["synth"]["writing"]
        for c in doc["countries"]:
            if c["armies"] is not None:
                quad = shapely.Polygon(writing[c["id"]]["number"])
                assert sample_polygon(doc, c["id"]).contains(quad.centroid), (s.name, c["id"])
            # a label in the ground truth means a letter on paper, and the reverse
            assert (c["label"] is not None) == ("label" in writing.get(c["id"], {}))
            if c["label"] is not None:
                quad = shapely.Polygon(writing[c["id"]]["label"])
                assert sample_polygon(doc, c["id"]).contains(quad.centroid)


def test_same_document_in_a_fresh_process() -> None:
    """No hidden state (hash seeds, caches, global RNGs) leaks into a sample."""
    import os
    import subprocess
    import sys

    code = (
        "import json, sys\n"
        "from dataclasses import replace\n"
        "from aggression_vision.synth.generate import generate_sample\n"
        "from aggression_vision.synth.params import SynthParams\n"
        "s = generate_sample(21, replace(SynthParams(), megapixels=(0.3, 0.6)))\n"
        "sys.stdout.write(json.dumps(s.document, sort_keys=True))\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    here = generate_sample(21, SMALL).document
    assert json.loads(out) == json.loads(json.dumps(here))


SAMPLES_DIR = Path(__file__).resolve().parents[2] / "samples"


@pytest.mark.parametrize("path", sorted(SAMPLES_DIR.glob("synth-*.json")), ids=lambda p: p.name)
def test_committed_samples_are_valid(path: Path) -> None:
    doc = json.loads(path.read_text())
    validate_document(doc)
    document_to_state(doc)
    img = cv2.imread(str(path.with_suffix(".jpg")))
    assert [img.shape[1], img.shape[0]] == doc["synth"]["size"]
    assert path.with_suffix(".jpg").stat().st_size < 1_500_000


def test_dataset_same_with_workers(tmp_path: Path) -> None:
    from aggression_vision.synth.generate import generate_dataset

    one = generate_dataset(tmp_path / "one", 2, 40, SMALL)
    two = generate_dataset(tmp_path / "two", 2, 40, SMALL, workers=2)
    assert (
        [p.name for p in one] == [p.name for p in two] == ["synth-000040.jpg", "synth-000041.jpg"]
    )
    for a, b in zip(one, two, strict=True):
        assert a.read_bytes() == b.read_bytes()
        assert a.with_suffix(".json").read_text() == b.with_suffix(".json").read_text()


def test_committed_samples_regenerate() -> None:
    """samples/synth-*.json are what the generator makes from their seed and parameters.

    When the generator changes on purpose, rewrite them with
    ``python -c "from pathlib import Path; from aggression_vision.synth.generate import
    write_committed_samples as w; w(Path('samples'))"``.
    """
    from aggression_vision.synth.generate import regenerate
    from aggression_vision.synth.handwriting import handwriting_fonts, load_mnist_cached

    path = SAMPLES_DIR / "synth-01.json"
    if not path.exists():
        pytest.skip("no committed samples")
    # The samples were drawn with MNIST (../shared) and the 27 Debian handwriting fonts that
    # scripts/test.sh installs; without them the generator draws other hands.
    if load_mnist_cached() is None or len(handwriting_fonts()) != 27:
        pytest.skip("the handwriting sources of the committed samples are not all present")
    doc = json.loads(path.read_text())
    again = regenerate(doc).document
    assert again["countries"] == doc["countries"]
    assert again["adjacency"] == doc["adjacency"]


def test_params_record_round_trip() -> None:
    p = replace(SynthParams(), megapixels=(3.0, 5.0), pen=(("pencil", 1.0),))
    doc = generate_sample(2, replace(p, megapixels=(0.3, 0.4))).document
    back = SynthParams.from_record(json.loads(json.dumps(doc["synth"]["params"])))
    assert back == replace(p, megapixels=(0.3, 0.4))
    with pytest.raises(ValueError, match="unknown synth parameters: nope"):
        SynthParams.from_record({"nope": 1})
