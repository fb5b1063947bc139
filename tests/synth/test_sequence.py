"""Photo sequences of one game: one drawing, a new camera per position."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from aggression_vision.document import document_to_state
from aggression_vision.game import Conquest, Placement
from aggression_vision.synth.sequence import Marks, drawing_of, game_params, synth_game

SEED = 10


@pytest.fixture(scope="module")
def game():
    return synth_game(SEED, n_moves=11)


def test_a_move_adds_ink_only_where_it_is_written(game):
    s, ppm = game.states, game.ppm
    for k in (3, 9):  # a placement, a conquest (cross-out)
        before = game.sheet(drawing_of(s[k])).to_bgr().astype(int)
        after = game.sheet(drawing_of(s[k + 1])).to_bgr().astype(int)
        move = game.moves[k]
        cid = move.country if isinstance(move, Placement) else move.target
        owner = s[k + 1].owner[cid]
        x0, y0, x1, y1 = game._number(cid, s[k + 1].armies[cid], owner).box_mm
        changed = np.argwhere(np.abs(after - before).max(axis=2) > 0)
        assert len(changed) > 0
        rows, cols = changed[:, 0] / ppm, changed[:, 1] / ppm
        # A cross-out may overhang the number by a quarter of its size.
        pad = 0.3 * max(x1 - x0, y1 - y0)
        assert rows.min() >= y0 - pad and rows.max() <= y1 + pad
        assert cols.min() >= x0 - pad and cols.max() <= x1 + pad


def test_same_seed_same_photo(game):
    again = synth_game(SEED, n_moves=11)
    a = game.photo(game.states[5], camera=5)
    b = again.photo(again.states[5], camera=5)
    assert a.jpeg() == b.jpeg()
    c = game.photo(game.states[5], camera=6)
    assert c.image.shape != a.image.shape or not np.array_equal(c.image, a.image)


def test_truth_documents_are_the_positions(game):
    for k, photo in enumerate(game.photos()):
        state, _ = document_to_state(photo.document)
        assert state == game.states[k]
        assert photo.document["synth"]["moves_played"] == k
        assert all(len(c["polygon"]) >= 3 for c in photo.document["countries"])


def test_any_drawing_can_be_photographed(game):
    s = game.states[4]
    move = game.moves[4]
    assert isinstance(move, Placement)
    wrong = {**drawing_of(s), move.country: Marks(move.armies, "second")}
    doc = game.photo(wrong, camera=1).document
    assert "phase" not in doc and "to_move" not in doc
    entry = next(c for c in doc["countries"] if c["id"] == move.country)
    assert (entry["armies"], entry["owner"], entry["conquered"]) == (move.armies, "second", False)


def test_unknown_country_in_a_drawing(game):
    with pytest.raises(ValueError, match="not on the map: ZZ"):
        game.photo({"ZZ": Marks(3, "first")}, camera=0)


def test_too_many_countries_for_letters():
    params = replace(game_params(), n_countries=(30, 32))
    with pytest.raises(ValueError, match="at most 25 countries"):
        synth_game(1, params=params)


def test_given_moves_are_played():
    g = synth_game(SEED, moves=["40 in D", "5 in J"])
    assert [str(m) for m in g.moves] == ["40 in D", "5 in J"]
    assert g.states[-1].armies["J"] == 5 and g.states[-1].to_move == "first"


def test_rule_breaking_drawings(game):
    wrong = game.wrong_player(4)
    move = game.moves[4]
    assert wrong[move.country] == Marks(move.armies, "second")
    assert {c: m for c, m in wrong.items() if c != move.country} == drawing_of(game.states[4])
    bad = game.impossible_conquest(10)
    state = game.states[10]
    (target,) = [c for c, m in bad.items() if m.crossed and c not in state.conquered]
    assert state.owner[target] != state.to_move
    assert state.check(Conquest(target)) is not None


def test_rule_breaking_drawings_need_the_right_position(game):
    with pytest.raises(ValueError, match="move 9 is not a placement"):
        game.wrong_player(9)
    with pytest.raises(ValueError, match="position 3 is not a phase 3 position"):
        game.impossible_conquest(3)
    everything = synth_game(9)  # position 8: first can conquer every enemy country
    with pytest.raises(ValueError, match="first can conquer every enemy country"):
        everything.impossible_conquest(8)


def test_synth_game_command(tmp_path):
    from typer.testing import CliRunner

    from aggression_vision.cli import app

    r = CliRunner().invoke(app, ["synth", "--game", "--seed", "9", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    moves = (tmp_path / "game-000009.moves").read_text().splitlines()
    photos = sorted(tmp_path.glob("game-000009-*.jpg"))
    assert len(photos) == len(moves) + 1 == 15
    last, _ = document_to_state(json.loads(photos[-1].with_suffix(".json").read_text()))
    assert last.is_over()
