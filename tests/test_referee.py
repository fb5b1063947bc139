"""Judging the move between two readings."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

import pytest

from aggression_vision.document import document_to_state, load_document
from aggression_vision.game import Conquest, GameState, Pass, Placement, parse_move
from aggression_vision.referee import judge


@pytest.fixture
def game(samples_dir):
    final, _ = document_to_state(load_document(samples_dir / "napoleon-wellington-final.json"))
    lines = (samples_dir / "napoleon-wellington.moves").read_text().splitlines()
    moves = [parse_move(x) for x in lines if x.strip() and not x.startswith("#")]
    states = [GameState.initial(final.board)]
    for m in moves:
        states.append(states[-1].apply(m))
    return states, moves


def test_every_move_of_the_sample_game_is_found_and_legal(game):
    states, moves = game
    for before, after, move in zip(states[:-1], states[1:], moves, strict=True):
        v = judge(before, after)
        assert v.legal, (str(move), v)
        if isinstance(move, Placement):
            assert v.move == move
        elif isinstance(move, Pass):
            assert isinstance(v.move, Pass)
        else:
            assert v.move.target == move.target
        assert v.player == before.to_move


def test_conquest_reason_names_attackers_and_armies(game):
    states, moves = game
    i = [str(m) for m in moves].index("G, O, L conquer E")
    v = judge(states[i], states[i + 1])
    assert v.to_json() == {
        "legal": True,
        "move": "G, L, O conquer E",
        "player": "second",
        "reason": "G, L, O conquer E: attack 34 (G 12, L 11, O 11) > defence 10",
        "irregularities": [],
    }


def edit(state, **changes):
    armies = dict(state.armies)
    owner = dict(state.owner)
    conquered = set(state.conquered)
    for cid, (n, o, c) in changes.items():
        armies[cid], owner[cid] = n, o
        (conquered.add if c else conquered.discard)(cid)
    return replace(
        state,
        armies=MappingProxyType(armies),
        owner=MappingProxyType(owner),
        conquered=frozenset(conquered),
    )


def test_no_move(game):
    states, _ = game
    v = judge(states[20], states[20])
    assert not v.legal and v.move is None and v.reason == "no move was made"


def test_two_moves_at_once(game):
    states, _ = game
    v = judge(states[18], states[20])
    assert not v.legal and v.reason == "2 moves at once: A, K"


def test_wrong_player_placement(game):
    states, _ = game
    before = states[0]
    after = edit(before, B=(10, "second", False))
    v = judge(before, after)
    assert not v.legal and v.player == "second"
    assert v.reason == "it was first's turn, not second's (the new number in B is not underlined)"


def test_illegal_conquest_reason(game):
    states, _ = game
    before = states[18]  # phase 3 starts, first to move
    after = edit(before, H=(15, "second", True))
    v = judge(before, after)
    assert not v.legal and v.move == Conquest("H")
    assert v.reason == "H has 15 armies; first has only 15 in adjacent M"


def test_irregularities_make_it_illegal(game):
    states, _ = game
    before, after = states[18], states[19]
    after = edit(after, C=(24, "first", False))
    v = judge(before, after)
    assert not v.legal and v.move == Conquest("K", ("M",))
    assert v.irregularities == ["C: the number changed from 25 to 24"]
    assert v.reason == "M conquers K: attack 15 (M 15) > defence 7; but other things changed"
    uncrossed = edit(states[21], A=(8, "first", False))
    v = judge(states[20], uncrossed)
    assert "A: the number 8 is no longer crossed out" in v.irregularities


def test_matching_by_mapping_and_missing_countries(game):
    states, _ = game
    before, after = states[0], states[1]
    v = judge(before, after, {"A": "A", "C": "C"})
    assert v.move == Placement("C", 25)
    assert "country B of the first reading is missing from the second" in v.irregularities
    assert "country D of the second reading is new" in v.irregularities


def test_crossed_out_number_read_differently_is_not_irregular(game):
    states, _ = game
    before, after = states[20], states[21]  # A is crossed out in both
    after = edit(after, A=(3, "first", True))
    v = judge(before, after)
    assert v.legal and v.irregularities == []
