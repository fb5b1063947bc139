"""Tests of the synthetic handwriting renderer."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from aggression_vision.synth.handwriting import (
    CHARSET,
    CROSSOUT_KINDS,
    MNIST_SYNTH_START,
    UNDERLINE_KINDS,
    HandStyle,
    handwriting_fonts,
    load_mnist,
    load_mnist_cached,
    mnist_indices,
    random_style,
    rasterize_strokes,
    render_crossout,
    render_text,
    render_underline,
)

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"


def _has_mnist() -> bool:
    return (SHARED / "data" / "mnist" / "t10k-images-idx3-ubyte.gz").exists()


@pytest.mark.parametrize("source", ["stroke", "font", "mnist"])
def test_render_text_shape_and_boxes(source: str) -> None:
    if source == "font" and not handwriting_fonts():
        pytest.skip("no handwriting fonts installed")
    if source == "mnist" and not _has_mnist():
        pytest.skip("MNIST absent")
    rng = np.random.default_rng(1)
    for text in ["7", "42", "100", "3A"]:
        style = random_style(rng)
        img, boxes = render_text(text, rng, height_px=32, style=style, source=source)
        assert img.dtype == np.float32
        assert img.min() >= 0.0 and img.max() <= 1.0
        assert img.max() > 0.5
        assert len(boxes) == len(text)
        for x0, y0, x1, y1 in boxes:
            assert 0 <= x0 < x1 <= img.shape[1]
            assert 0 <= y0 < y1 <= img.shape[0]
            # every box holds ink
            assert img[y0:y1, x0:x1].max() > 0.25
        # the height is about what was asked (slant and rotation enlarge it a little)
        assert 20 <= img.shape[0] <= 80


def test_boxes_in_reading_order_when_spaced() -> None:
    rng = np.random.default_rng(3)
    style = HandStyle(spacing=0.4, slant=0.0, rotation_deg=0.0)
    img, boxes = render_text("1234", rng, height_px=40, style=style)
    centres = [(b[0] + b[2]) / 2 for b in boxes]
    assert centres == sorted(centres)
    # spaced characters do not overlap
    for a, b in zip(boxes, boxes[1:], strict=False):
        assert a[2] <= b[0] + 1


@pytest.mark.parametrize("text", ["15", "51", "111", "71"])
def test_a_narrow_one_keeps_paper_between_it_and_its_neighbours_even_when_written_tight(
    text: str,
) -> None:
    # Touching characters may overlap, but a bare 1 laid along a 5's stem only
    # thickens it: the photo would show one digit fewer than the truth.
    checked = 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        style = replace(random_style(rng), spacing=-0.12, slant=0.0, rotation_deg=0.0)
        _, boxes = render_text(text, rng, height_px=40, style=style)
        pen = max(1.0, style.stroke_width * 40)
        for a, b in zip(boxes, boxes[1:], strict=False):
            # (A 1 written as a bare stroke: a quarter of the height wide at most.)
            if min(a[2] - a[0], b[2] - b[0]) <= 0.25 * 40:
                checked += 1
                assert b[0] - a[2] >= pen - 2
    assert checked >= 3


def test_deterministic_per_seed() -> None:
    a, ba = render_text("58", np.random.default_rng(7), height_px=30)
    b, bb = render_text("58", np.random.default_rng(7), height_px=30)
    c, _ = render_text("58", np.random.default_rng(8), height_px=30)
    assert np.array_equal(a, b) and ba == bb
    assert a.shape != c.shape or not np.array_equal(a, c)


def test_every_character_renders() -> None:
    rng = np.random.default_rng(0)
    for ch in CHARSET:
        img, boxes = render_text(ch, rng, height_px=24, style=HandStyle())
        assert len(boxes) == 1 and img.max() > 0.5, ch


@pytest.mark.parametrize(
    ("text", "height", "match"),
    [("", 20, "empty"), ("1a", 20, "unsupported"), ("12", 0, "height_px")],
)
def test_render_text_rejects_bad_input(text: str, height: int, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        render_text(text, np.random.default_rng(0), height_px=height)


def test_unknown_source_rejected() -> None:
    with pytest.raises(ValueError, match="unknown source"):
        render_text("1", np.random.default_rng(0), height_px=20, source="typewriter")


def test_small_and_large_heights() -> None:
    rng = np.random.default_rng(5)
    for h in (8, 12, 120):
        img, boxes = render_text("88", rng, height_px=h, style=HandStyle())
        assert len(boxes) == 2
        assert 0.6 * h <= img.shape[0] <= 2.5 * h + 6


@pytest.mark.parametrize("kind", UNDERLINE_KINDS)
def test_underline_below_box(kind: str) -> None:
    rng = np.random.default_rng(2)
    box = (100.0, 50.0, 160.0, 90.0)
    lines = render_underline(box, rng, kind=kind)  # type: ignore[arg-type]
    assert len(lines) == (2 if kind == "double" else 1)
    pts = np.concatenate(lines)
    assert np.median(pts[:, 1]) > 85.0  # below (or touching) the digits
    overlap = min(160.0, pts[:, 0].max()) - max(100.0, pts[:, 0].min())
    assert overlap > 0.4 * 60.0  # under a good part of the number


@pytest.mark.parametrize("kind", CROSSOUT_KINDS)
def test_crossout_crosses_box(kind: str) -> None:
    rng = np.random.default_rng(4)
    box = (100.0, 50.0, 160.0, 90.0)
    lines = render_crossout(box, rng, kind=kind)  # type: ignore[arg-type]
    mask = rasterize_strokes((200, 300), lines, 3.0)
    inside = mask[50:90, 100:160]
    assert inside.sum() > 0.3 * mask.sum()  # mostly over the number
    assert (inside > 0.5).any(axis=0).mean() > 0.7  # across most of its width


def test_rasterize_fractional_width() -> None:
    line = [np.array([[5.0, 10.0], [45.0, 10.0]])]
    thin = rasterize_strokes((20, 50), line, 1.0).sum()
    thick = rasterize_strokes((20, 50), line, 4.0).sum()
    assert 30 < thin < 60 and 3 * thin < thick < 5 * thin


def test_font_split_disjoint() -> None:
    train, synth = handwriting_fonts("train"), handwriting_fonts("synth")
    assert not set(train) & set(synth)
    assert sorted(train + synth) == handwriting_fonts("all")


@pytest.mark.skipif(not _has_mnist(), reason="MNIST absent")
def test_mnist_split() -> None:
    images, labels = load_mnist(SHARED)
    assert images.shape == (10000, 28, 28) and labels.shape == (10000,)
    train, synth = mnist_indices(labels, "train"), mnist_indices(labels, "synth")
    assert train.max() < MNIST_SYNTH_START <= synth.min()
    assert len(train) + len(synth) == 10000
    assert load_mnist_cached(SHARED) is not None


def test_load_mnist_missing(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_mnist(tmp_path)
    assert load_mnist_cached(tmp_path) is None


def test_missing_hands_names_the_absent_mnist(tmp_path):
    from aggression_vision.synth.handwriting import missing_hands

    lines = missing_hands(tmp_path / "nowhere")
    assert any("no MNIST digits in" in line and "nowhere" in line for line in lines)


def test_missing_hands_is_quiet_where_mnist_is(shared_dir):
    from aggression_vision.synth.handwriting import missing_hands

    assert not any("MNIST" in line for line in missing_hands(shared_dir))


def test_synth_command_notes_hands_it_draws_without(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from aggression_vision.cli import app
    from aggression_vision.synth import generate, handwriting

    monkeypatch.setattr(handwriting, "default_shared_dir", lambda: tmp_path / "nowhere")
    monkeypatch.setattr(generate, "generate_dataset", lambda *a, **k: [])
    r = CliRunner().invoke(app, ["synth", "--out", str(tmp_path / "out"), "--count", "1"])
    assert r.exit_code == 0, r.output
    assert "note: no MNIST digits in" in r.stderr
    assert "note:" not in r.stdout
