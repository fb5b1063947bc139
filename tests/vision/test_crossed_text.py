"""The crossed-out reader's word on the text of numbers read as crossed out (``crossed_text``)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from aggression_vision.vision import digits
from aggression_vision.vision.marks import (
    Cluster,
    ClusterReading,
    MarksSettings,
    crossed_asked,
    crossed_text,
)


class _Reads:
    """Stands in for a network: reads every view as ``text`` with posterior mass ``sure``."""

    def __init__(self, text: str, sure: float) -> None:
        self.text, self.sure, self.seen = text, sure, 0

    def run(self, x: np.ndarray) -> digits.NetOutput:
        self.seen += len(x)
        n, steps, classes = len(x), digits.INPUT_W // 4, 1 + len(digits.ALPHABET)
        lp = np.full((n, steps, classes), np.log((1 - self.sure) / (classes - 1)), np.float32)
        lp[:, :, 0] = np.log(self.sure)  # blank
        for t, ch in enumerate(self.text):
            lp[:, 4 * t + 2, :] = np.log((1 - self.sure) / (classes - 1))
            lp[:, 4 * t + 2, 1 + digits.ALPHABET.index(ch)] = np.log(self.sure)
        return digits.NetOutput(lp, np.zeros(n, np.float32), np.zeros(n, np.float32))


def _crop() -> np.ndarray:
    crop = np.zeros((30, 20), np.float32)
    crop[5:25, 9:12] = 1.0
    return crop


def test_only_numbers_read_crossed_out_are_asked() -> None:
    cfg = MarksSettings()
    cl = Cluster(1, (0, 0, 20, 30), (1,), 1.0)
    crossed = ClusterReading(cl, "7", 0.6, 0.0, 0.9)
    plain = ClusterReading(cl, "7", 0.6, 0.0, 0.02)  # an uncrossed digit (any sudoku digit)
    underlined = ClusterReading(cl, "4", 0.3, 0.95, 0.1)
    letter = ClusterReading(cl, "A", 0.6, 0.0, 0.9)
    part = ClusterReading(Cluster(1, (0, 0, 20, 30), (1,), split_of=(0, 1)), "7", 0.6, 0.0, 0.9)
    sure = ClusterReading(cl, "7", 0.97, 0.0, 0.9)
    # A stray mark read as nothing, in doubt about a cross-out (a blank sudoku cell).
    nothing = ClusterReading(cl, "", 0.2, 0.7, 0.44)
    assert crossed_asked(crossed, cfg)
    assert crossed_asked(replace(nothing, crossed=0.9), cfg)
    # A doubtful cross-out is asked too, and a fairly sure reading of a crossed number.
    assert crossed_asked(replace(crossed, crossed=0.27), cfg)
    assert crossed_asked(replace(crossed, probability=0.92), cfg)
    asked_not = (plain, underlined, letter, part, sure, nothing)
    assert not any(crossed_asked(r, cfg) for r in asked_not)
    first, second = _Reads("1", 0.5), _Reads("4", 0.5)
    readings = list(asked_not)
    got = crossed_text(readings, [_crop()] * len(readings), first, cfg, second)  # type: ignore[arg-type]
    assert got == readings and first.seen == second.seen == 0


def test_the_mean_of_both_readings_replaces_the_text() -> None:
    cfg = MarksSettings()
    cl = Cluster(1, (0, 0, 20, 30), (1,), 1.0)
    r = ClusterReading(cl, "1", 0.6, 0.0, 0.9)
    shears = len(cfg.view_shears) if cfg.crossed_text_shears else 0
    views = 1 + len(cfg.view_angles) + shears
    sure_second = _Reads("4", 0.99)
    got = crossed_text([r], [_crop()], _Reads("1", 0.6), cfg, sure_second)  # type: ignore[arg-type]
    assert got[0].text == "4" and sure_second.seen == views
    got = crossed_text([r], [_crop()], _Reads("1", 0.99), cfg, _Reads("4", 0.6))  # type: ignore[arg-type]
    assert got[0].text == "1"
    off = MarksSettings(crossed_text=1.0)
    assert crossed_text([r], [_crop()], _Reads("1", 0.6), off, _Reads("4", 0.99))[0] is r  # type: ignore[arg-type]


def test_the_crossed_out_reader_weighs_more_in_the_mean() -> None:
    cl = Cluster(1, (0, 0, 20, 30), (1,), 1.0)
    r = ClusterReading(cl, "1", 0.6, 0.0, 0.9)
    # Both networks equally sure of different numbers: the weight decides.
    for weight, text in ((MarksSettings().crossed_text_weight, "4"), (0.33, "1")):
        cfg = MarksSettings(crossed_text_weight=weight)
        got = crossed_text([r], [_crop()], _Reads("1", 0.9), cfg, _Reads("4", 0.9))  # type: ignore[arg-type]
        assert got[0].text == text, weight


def test_the_mean_posterior_is_the_one_the_totals_read() -> None:
    # ``hundred_armies`` reads another number where a player's total asks for it by the
    # posterior of the numbers read crossed out: the mean that decided their text.
    cl = Cluster(1, (0, 0, 20, 30), (1,), 1.0)
    asked = ClusterReading(cl, "1", 0.6, 0.0, 0.9)
    plain = ClusterReading(cl, "7", 0.6, 0.0, 0.02)
    vocab = len(digits.closed_vocabulary())
    ll = np.zeros((2, vocab))
    cfg = MarksSettings()
    readings = [asked, plain]
    crossed_text(readings, [_crop()] * 2, _Reads("1", 0.9), cfg, _Reads("4", 0.9), likelihoods=ll)  # type: ignore[arg-type]
    post = np.exp(ll[0] - ll[0].max())
    assert int(np.argmax(post)) == 4 and post[1] > 0.1  # "4" first, "1" still likely
    assert not ll[1].any()  # (not asked: left alone)
    ll = np.zeros((2, vocab))
    off = replace(cfg, crossed_text_hundred=False)
    crossed_text(readings, [_crop()] * 2, _Reads("1", 0.9), off, _Reads("4", 0.9), likelihoods=ll)  # type: ignore[arg-type]
    assert not ll.any()


class _Shares:
    """Stands in for a network: one character among ``shares`` (character -> probability),
    blanks elsewhere; the same cross-out probability for every input."""

    def __init__(self, shares: dict[str, float], crossed: float) -> None:
        self.shares, self.crossed = shares, crossed

    def run(self, x: np.ndarray) -> digits.NetOutput:
        n, steps, classes = len(x), digits.INPUT_W // 4, 1 + len(digits.ALPHABET)
        p = np.full((n, steps, classes), 1e-6)
        p[:, :, 0] = 1.0
        p[:, 2, :] = 1e-6
        for ch, q in self.shares.items():
            p[:, 2, 1 + digits.ALPHABET.index(ch)] = q
        p /= p.sum(axis=2, keepdims=True)
        crossed = np.full(n, self.crossed, np.float32)
        return digits.NetOutput(np.log(p).astype(np.float32), np.zeros(n, np.float32), crossed)


def test_the_ruling_free_crops_text_is_taken_only_when_likely_enough() -> None:
    """A crossed-out number read again without the printed ruling through it takes that
    reading's text when it is surer than the reading and at least ``ruled_text_least``
    likely: a cleaned reading barely surer than a doubtful one is as often wrong."""
    from aggression_vision.vision.marks import _reread_ruled

    cfg = MarksSettings()
    cl = Cluster(1, (0, 0, 20, 30), (1,), 1.0)
    doubtful = [ClusterReading(cl, "1", 0.2, 0.0, 0.9)]
    crop = _crop()
    gray = np.zeros((30, 20), np.uint8)
    unsure = _Shares({"7": 0.36, "1": 0.33, "4": 0.31}, crossed=0.2)  # "7" at about 0.36
    got = _reread_ruled(doubtful, [crop], gray, unsure, cfg, {0: crop})  # type: ignore[arg-type]
    assert got[0].text == "1" and got[0].crossed == pytest.approx(0.2)
    off = replace(cfg, ruled_text_least=0.0)
    got = _reread_ruled(doubtful, [crop], gray, unsure, off, {0: crop})  # type: ignore[arg-type]
    assert got[0].text == "7"
    sure = _Shares({"7": 0.6, "1": 0.4}, crossed=0.2)
    got = _reread_ruled(doubtful, [crop], gray, sure, cfg, {0: crop})  # type: ignore[arg-type]
    assert got[0].text == "7" and got[0].probability > 0.5


def test_a_number_still_crossed_out_without_the_ruling_keeps_its_text() -> None:
    """The ruling-free crop's text replaces the reading's only when that crop is no
    longer read as crossed out (the printed line was the cross): a number still struck
    through keeps the crossed-out reader's text (on the dev and validation pages the
    step had taken 29 wrong texts and 22 right ones; 23 of the 29 numbers were truly
    crossed out)."""
    from aggression_vision.vision.marks import _reread_ruled

    cfg = replace(MarksSettings(), second_crossed=1.0)  # (no second network here)
    cl = Cluster(1, (0, 0, 20, 30), (1,), 1.0)
    doubtful = [ClusterReading(cl, "1", 0.2, 0.0, 0.9)]
    crop = _crop()
    gray = np.zeros((30, 20), np.uint8)
    struck = _Shares({"7": 0.6, "1": 0.4}, crossed=0.9)
    got = _reread_ruled(doubtful, [crop], gray, struck, cfg, {0: crop})  # type: ignore[arg-type]
    assert got[0].text == "1" and got[0].crossed == pytest.approx(0.9)
    clean = _Shares({"7": 0.6, "1": 0.4}, crossed=0.2)
    got = _reread_ruled(doubtful, [crop], gray, clean, cfg, {0: crop})  # type: ignore[arg-type]
    assert got[0].text == "7" and got[0].crossed == pytest.approx(0.2)


class _Strikes:
    """Stands in for a network: reads a "0", crossed out when a column at the middle of
    the input's ink holds ink along most of the ink's rows (a stroke through the digit,
    top to bottom; a "0"'s sides are at the ink's edges)."""

    def run(self, x: np.ndarray) -> digits.NetOutput:
        n, steps, classes = len(x), digits.INPUT_W // 4, 1 + len(digits.ALPHABET)
        p = np.full((n, steps, classes), 1e-6)
        p[:, :, 0] = 1.0
        p[:, 2, 0], p[:, 2, 1 + digits.ALPHABET.index("0")] = 1e-6, 1.0
        p /= p.sum(axis=2, keepdims=True)
        crossed = np.zeros(n, np.float32)
        for j, view in enumerate(x):
            ink = view > 0.1
            rows = np.count_nonzero(ink.any(axis=1))
            cols = np.flatnonzero(ink.any(axis=0))
            c = (cols[0] + cols[-1]) // 2
            mid = ink[:, c - 1 : c + 2]
            crossed[j] = 0.9 if np.count_nonzero(mid, axis=0).max() >= 0.7 * rows else 0.1
        return digits.NetOutput(np.log(p).astype(np.float32), np.zeros(n, np.float32), crossed)


def test_a_sheared_grids_column_through_a_number_is_no_cross_out() -> None:
    """A squared page seen in perspective: its rows run at 10 degrees, its columns upright
    (not square to the rows). A column through a "0" reads as a strike; the number read
    again cleaned of the ruling at each family's own slant is not crossed out
    (``ruling_sheared``), where the rows' slant alone leaves the column in the crop."""
    from aggression_vision.vision.marks import _reread_ruled

    h, w = 120, 160
    gray = np.full((h, w), 220, np.uint8)
    slope = np.tan(np.radians(10.0))
    for y in range(-40, h + 20, 12):
        cv2.line(gray, (0, y), (w - 1, int(round(y + slope * (w - 1)))), 170, 2, cv2.LINE_AA)
    for x in (5, 45, 85, 125):
        cv2.line(gray, (x, 0), (x, h - 1), 170, 2, cv2.LINE_AA)
    cv2.ellipse(gray, (85, 60), (8, 12), 0, 0, 360, 40, 3, cv2.LINE_AA)  # column 85 through it
    gray = cv2.GaussianBlur(gray, (3, 3), 0)  # (a photo's blur)
    box = (60, 45, 100, 75)
    top = 180.0
    dark = 220.0 - gray.astype(np.float32)
    crop = np.zeros((h, w), np.float32)
    x0, y0, x1, y1 = box
    crop[y0:y1, x0:x1] = np.minimum(dark[y0:y1, x0:x1] / top, 1.0)
    cl = Cluster(1, box, (1,), 1.0, origin=(0, 0), top=top)
    read = [ClusterReading(cl, "0", 0.9, 0.0, 0.9)]
    cfg = replace(MarksSettings(), second_crossed=1.0)  # (no second network here)
    net = _Strikes()
    assert net.run(digits.to_input(crop)[None]).crossed[0] > 0.5  # (the crop reads as struck)
    got = _reread_ruled(read, [crop], gray, net, cfg)  # type: ignore[arg-type]
    assert got[0].crossed < 0.5
    off = replace(cfg, ruling_sheared=False)
    got = _reread_ruled(read, [crop], gray, net, off)  # type: ignore[arg-type]
    assert got[0].crossed > 0.5
