"""The recogniser: input normalisation, CTC scoring, the ONNX model and its card."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from aggression_vision.synth import handwriting as hw
from aggression_vision.vision import digits
from aggression_vision.vision.marks import best_readings


def test_to_input_blank_is_zero() -> None:
    assert not digits.to_input(np.zeros((20, 30), np.float32)).any()


def test_to_input_scales_ink_to_fixed_height() -> None:
    ink = np.zeros((200, 100), np.float32)
    ink[50:150, 40:60] = 1.0
    x = digits.to_input(ink)
    assert x.shape == (digits.INPUT_H, digits.INPUT_W)
    rows = np.nonzero(x.max(axis=1) > 0.5)[0]
    assert rows.max() - rows.min() + 1 == digits.INK_HEIGHT


def test_to_input_very_wide_ink_fits_the_frame() -> None:
    ink = np.ones((10, 400), np.float32)
    x = digits.to_input(ink)
    cols = np.nonzero(x.max(axis=0) > 0.5)[0]
    assert cols.min() >= 0 and cols.max() < digits.INPUT_W
    assert cols.max() - cols.min() > digits.INPUT_W * 0.9


def _brute_force(lp: np.ndarray, label: list[int]) -> float:
    """Sum over every path of length T that collapses to ``label``."""
    t_len, c = lp.shape
    total = 0.0
    for path in itertools.product(range(c), repeat=t_len):
        out, prev = [], 0
        for s in path:
            if s != prev and s != 0:
                out.append(s)
            prev = s
        if out == label:
            total += float(np.exp(sum(lp[t, s] for t, s in enumerate(path))))
    return np.log(total) if total > 0 else -np.inf


def test_ctc_log_likelihood_matches_brute_force() -> None:
    rng = np.random.default_rng(3)
    t_len, c = 5, 4  # blank + "0", "1", "2"
    logits = rng.normal(size=(1, t_len, len(digits.ALPHABET) + 1))
    logits[..., c:] = -30.0  # keep the brute force small: only blank, 0, 1, 2 matter
    lp = logits - np.log(np.exp(logits).sum(axis=2, keepdims=True))
    cands = ("", "1", "11", "12", "21", "102", "111")
    got = digits.ctc_log_likelihood(lp, cands)[0]
    for cand, g in zip(cands, got, strict=True):
        want = _brute_force(lp[0, :, :c], digits.encode(cand))
        assert g == pytest.approx(want, rel=1e-6, abs=1e-6), cand


def test_greedy_decode_collapses_repeats_and_blanks() -> None:
    lp = np.full((1, 6, len(digits.ALPHABET) + 1), -10.0)
    for t, cls in enumerate([2, 2, 0, 2, 0, 11]):  # "1", "1", blank, "1", blank, "A"
        lp[0, t, cls] = 0.0
    assert digits.greedy_decode(lp) == ["11A"]


def test_vocabulary_has_no_impossible_numbers() -> None:
    v = set(digits.vocabulary())
    assert {"", "1", "100", "A", "Z", "B12"} <= v
    assert not {"0", "101", "007"} & v


@pytest.mark.parametrize(
    "path",
    [
        digits.MODEL_PATH,
        digits.SECOND_MODEL_PATH,
        digits.PAIRS_MODEL_PATH,
        digits.CROSSED_MODEL_PATH,
    ],
    ids=lambda p: p.stem,
)
def test_model_sha256_matches_its_card(path: Path) -> None:
    card = path.with_suffix(".md").read_text()
    m = re.search(r"sha256[^0-9a-f]*([0-9a-f]{64})", card)
    assert m, "model card must state the sha256"
    assert digits.file_sha256(path) == m.group(1)


def test_second_model_has_the_first_ones_layout() -> None:
    """The second network is run in two parts like the first, with the same outputs."""
    net = digits.load_second_net()
    assert net._split is not None
    x = np.zeros((2, digits.INPUT_H, digits.INPUT_W), np.float32)
    x[1, 4:28, 50:60] = 1.0
    out = net.run(x)
    assert out.logprobs.shape == (2, digits.INPUT_W // 4, 1 + len(digits.ALPHABET))
    assert out.underlined.shape == out.crossed.shape == (2,)


def test_missing_model_raises() -> None:
    with pytest.raises(digits.ModelNotFoundError, match="not found"):
        digits.MarkNet("/nonexistent/model.onnx")


def _rendered_number(rng: np.random.Generator) -> tuple[str, np.ndarray]:
    """A number 1-100 in a stroke hand of the project's renderer: its text and ink."""
    n = int(rng.integers(1, 101))
    style = hw.random_style(rng, sources=("stroke",))
    ink, _ = hw.render_text(str(n), rng, height_px=36, style=style)
    return str(n), ink


def test_reads_rendered_numbers() -> None:
    """Seeded handwriting from the project's renderer (stroke font, held-out MNIST)."""
    rng = np.random.default_rng(20261130)
    truths, inputs = [], []
    for _ in range(24):
        text, ink = _rendered_number(rng)
        truths.append(text)
        inputs.append(digits.to_input(ink))
    out = digits.load_net().run(np.stack(inputs))
    texts, probs = best_readings(out.logprobs)
    right = sum(t == w for t, w in zip(texts, truths, strict=True))
    assert right >= 22, list(zip(truths, texts, strict=True))
    assert all(0.0 <= p <= 1.0 for p in probs)
    # Clean numbers: neither underlined nor crossed out.
    assert np.mean(out.underlined < 0.5) >= 0.9
    assert np.mean(out.crossed < 0.5) >= 0.9


def test_ctc_log_likelihood_float32_agrees_and_prefixes_are_shared() -> None:
    rng = np.random.default_rng(5)
    logits = rng.normal(size=(4, 32, len(digits.ALPHABET) + 1))
    lp = logits - np.log(np.exp(logits).sum(axis=2, keepdims=True))
    vocab = digits.vocabulary()[:127] + ("A12", "B100", "A1")
    ll64 = digits.ctc_log_likelihood(lp, vocab)
    ll32 = digits.ctc_log_likelihood(lp.astype(np.float32), vocab, dtype=np.float32)
    assert np.all(np.isfinite(ll64))
    np.testing.assert_allclose(ll32, ll64, rtol=1e-4, atol=1e-3)
    # One candidate alone scores as it does among the others.
    alone = digits.ctc_log_likelihood(lp, ("A12",))[:, 0]
    np.testing.assert_allclose(alone, ll64[:, vocab.index("A12")], rtol=1e-9)


def test_ctc_log_likelihood_impossible_column_and_repeats() -> None:
    """A column no class can explain (every state zero from there on) gives -inf for every
    candidate of that item only, without NaN; repeated characters need a blank between
    them (brute force), and each item scores as it does alone in the batch."""
    rng = np.random.default_rng(8)
    t_len, c = 6, 4  # blank + "0", "1", "2"
    logits = rng.normal(size=(3, t_len, len(digits.ALPHABET) + 1))
    logits[..., c:] = -30.0
    lp = logits - np.log(np.exp(logits).sum(axis=2, keepdims=True))
    lp[1, 2, :] = -np.inf
    cands = ("", "1", "11", "111", "121", "2")
    for dtype in (np.float64, np.float32):
        got = digits.ctc_log_likelihood(lp.astype(dtype), cands, dtype=dtype)
        assert not np.isnan(got).any()
        assert np.all(got[1] == -np.inf)
        for i in (0, 2):
            alone = digits.ctc_log_likelihood(lp[i : i + 1].astype(dtype), cands, dtype=dtype)
            np.testing.assert_array_equal(alone[0], got[i])
    got = digits.ctc_log_likelihood(lp, cands)
    for i in (0, 2):
        for cand, g in zip(cands, got[i], strict=True):
            want = _brute_force(lp[i, :, :c], digits.encode(cand))
            assert g == pytest.approx(want, rel=1e-6, abs=1e-6), cand


def test_ink_box_is_the_box_of_the_pixels_over_the_ink_level() -> None:
    ink = np.zeros((9, 12), np.float32)
    assert digits.ink_box(ink) is None
    assert digits.ink_box(np.zeros((0, 5), np.float32)) is None
    ink[2, 3] = 0.5
    ink[6, 9] = 1.0
    ink[8, 11] = digits.INK_LEVEL  # (not over the level)
    assert digits.ink_box(ink) == (2, 7, 3, 10)


def test_split_network_matches_whole_network() -> None:
    """The trunk run only near the ink (digits._SplitNet) gives the whole network's outputs:
    ink of every width, anywhere from the left edge to the right, and blank inputs."""
    rng = np.random.default_rng(11)
    inputs = np.zeros((40, digits.INPUT_H, digits.INPUT_W), np.float32)
    for i in range(1, 40):
        width = int(rng.integers(1, digits.INPUT_W + 1))
        x0 = int(rng.integers(0, digits.INPUT_W - width + 1))
        if i % 5 == 1:
            x0 = 0 if i % 10 == 1 else digits.INPUT_W - width
        patch = rng.random((digits.INPUT_H - 6, width)) < 0.25
        inputs[i, 3:-3, x0 : x0 + width] = patch * rng.uniform(0.2, 1.0, patch.shape)
    net = digits.MarkNet()
    assert net._split is not None, "the shipped model should be run in two parts"
    out = net.run(inputs)
    whole = cv2.dnn.readNetFromONNX(str(digits.MODEL_PATH))
    names = list(whole.getUnconnectedOutLayersNames())
    whole.setInput(inputs[:, None], "x")
    ref = dict(zip(names, whole.forward(names), strict=True))
    logits = np.asarray(ref["logits"], np.float32)
    logprobs = logits - np.log(np.exp(logits).sum(axis=2, keepdims=True))
    np.testing.assert_allclose(out.logprobs, logprobs, atol=1e-5)
    probs = 1.0 / (1.0 + np.exp(-np.asarray(ref["marks"], np.float32)))
    np.testing.assert_allclose(out.underlined, probs[:, 0], atol=1e-6)
    np.testing.assert_allclose(out.crossed, probs[:, 1], atol=1e-6)


def test_to_input_box_is_that_of_every_ink_pixel() -> None:
    """to_input's box from the rows and columns holding ink is the box of the ink pixels."""
    rng = np.random.default_rng(11)
    for _ in range(50):
        h, w = (int(v) for v in rng.integers(8, 160, 2))
        ink = (rng.random((h, w)) * (rng.random((h, w)) < 0.05)).astype(np.float32)
        ys, xs = np.nonzero(ink > 0.15)
        ref = np.zeros((digits.INPUT_H, digits.INPUT_W), np.float32)
        if ys.size:
            crop = ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
            ch, cw = crop.shape
            scale = min(digits.INK_HEIGHT / ch, (digits.INPUT_W - 4) / cw)
            nh, nw = max(1, round(ch * scale)), max(1, round(cw * scale))
            interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
            small = cv2.resize(crop, (nw, nh), interpolation=interp)
            oy, ox = (digits.INPUT_H - nh) // 2, (digits.INPUT_W - nw) // 2
            ref[oy : oy + nh, ox : ox + nw] = np.clip(small, 0.0, 1.0)
        assert np.array_equal(digits.to_input(ink), ref)


def test_crossed_out_reader_reads_rendered_crossed_out_numbers() -> None:
    """Seeded crossed-out numbers from the project's renderer (stroke hands), each kind of
    cross-out in turn: the crossed-out reader (x38) reads 105 of 120 (its predecessor 97)."""
    rng = np.random.default_rng(20261203)
    truths, inputs = [], []
    for i in range(120):
        text, ink = _rendered_number(rng)
        pad = 12
        canvas = np.pad(ink, pad)
        ys, xs = np.nonzero(ink > 0.3)
        box = (xs.min() + pad, ys.min() + pad, xs.max() + pad, ys.max() + pad)
        lines = hw.render_crossout(box, rng, kind=hw.CROSSOUT_KINDS[i % 4])
        np.maximum(canvas, hw.rasterize_strokes(canvas.shape, lines, 3.0), out=canvas)
        truths.append(text)
        inputs.append(digits.to_input(canvas))
    out = digits.load_crossed_net().run(np.stack(inputs))
    texts, _ = best_readings(out.logprobs)
    right = sum(t == w for t, w in zip(texts, truths, strict=True))
    assert right >= 102, right
    assert np.mean(out.crossed > 0.5) >= 0.95


def test_run_keeps_the_outputs_of_inputs_read_before() -> None:
    """A row read before (in any batch) gives the same outputs as the whole batch run."""
    rng = np.random.default_rng(3)
    inputs = np.zeros((6, digits.INPUT_H, digits.INPUT_W), np.float32)
    for i in range(4):
        inputs[i, 4:-4, 10 * i : 10 * i + 20] = rng.uniform(0.2, 1.0, (digits.INPUT_H - 8, 20))
    inputs[4] = inputs[1]  # (the same row twice in one batch; row 5 blank)
    net = digits.MarkNet()
    first = net.run(inputs[:3])
    out = net.run(inputs[::-1])
    ref = digits.MarkNet()._forward(np.ascontiguousarray(inputs[::-1, None]))
    assert np.array_equal(out.logprobs, ref.logprobs)
    assert np.array_equal(out.underlined, ref.underlined)
    assert np.array_equal(out.crossed, ref.crossed)
    assert np.array_equal(first.logprobs, ref.logprobs[::-1][:3])
    assert len(net._memo) == 5  # (four inked rows and the blank one)


def test_forget_outputs_drops_what_every_loaded_network_keeps() -> None:
    net = digits.MarkNet()
    net.run(np.zeros((2, digits.INPUT_H, digits.INPUT_W), np.float32))
    assert len(net._memo) == 1
    digits.forget_outputs()
    assert not net._memo
