"""The bundled Napoleon v Wellington game replays legally to its 4-6 result."""

from __future__ import annotations

import pytest

from aggression_vision.document import document_to_state, load_document
from aggression_vision.game import Conquest, GameState, Pass, Placement, naive_solve, parse_move


def read_moves(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    return [parse_move(line) for line in lines if line.strip() and not line.startswith("#")]


def test_napoleon_wellington_replays_to_four_six(samples_dir):
    final, ann = document_to_state(load_document(samples_dir / "napoleon-wellington-final.json"))
    state = GameState.initial(final.board)
    moves = read_moves(samples_dir / "napoleon-wellington.moves")
    for move in moves:
        assert state.is_legal(move), (str(move), state.check(move))
        state = state.apply(move)
    assert state.is_over()
    assert state.score() == {"first": 4, "second": 6}
    assert state.winner() == "second"
    assert state.armies == final.armies and state.conquered == final.conquered
    assert ann.players == {"first": "Napoleon", "second": "Wellington"}
    retained = {
        p: {c for c in state.board.countries if state.owner[c] == p} - state.conquered
        for p in ("first", "second")
    }
    assert retained == {"first": set("MPJC"), "second": set("HLOGTS")}


def test_napoleon_wellington_map_is_laid_out_like_the_seed(samples_dir):
    state, _ = document_to_state(load_document(samples_dir / "napoleon-wellington-final.json"))
    assert state.board.countries == tuple("ABCDEFGHIJKLMNOPQRST")
    assert state.unoccupied() == ["B", "N"]
    assert state.board.neighbours("A") == set("MBD")
    assert state.board.neighbours("B") == set("AMKFCD")
    moves = read_moves(samples_dir / "napoleon-wellington.moves")
    assert moves[-1] == Conquest("D", ("C",))
    assert isinstance(moves[-2], Pass)
    assert all(isinstance(m, Placement) for m in moves[:18])


def test_second_conquers_e_with_34_from_g_o_l(samples_dir):
    state, _ = document_to_state(load_document(samples_dir / "napoleon-wellington-midgame.json"))
    assert state.to_move == "second"
    assert state.attack_on("E", "second") == (34, ["G", "L", "O"])
    assert state.is_legal(parse_move("G, O, L conquer E"))


@pytest.mark.parametrize("name", ["phase2", "phase3", "midgame", "final"])
def test_samples_are_consistent_with_the_move_list(samples_dir, name):
    doc = load_document(samples_dir / f"napoleon-wellington-{name}.json")
    state, ann = document_to_state(doc)
    assert ann.warnings == []
    assert doc["score"] == state.score()


def test_phase3_start_value_is_a_legal_line(samples_dir):
    state, _ = document_to_state(load_document(samples_dir / "napoleon-wellington-phase3.json"))
    sol = naive_solve(state)
    s = state
    for target in sol.line:
        while not s.legal_conquests():
            s = s.apply(Pass())
        s = s.apply(Conquest(target))
    while not s.is_over():
        s = s.apply(Pass())
    assert s.score()["first"] - s.score()["second"] == sol.margin
