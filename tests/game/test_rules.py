"""Rules of phases 2 and 3, inference, notation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aggression_vision.errors import IllegalMoveError, InvalidDocumentError, InvalidMoveError
from aggression_vision.game import (
    Board,
    Conquest,
    GameState,
    Pass,
    Placement,
    naive_solve,
    parse_move,
)

LINE = Board.from_pairs(["A", "B", "C", "D"], [("A", "B"), ("B", "C"), ("C", "D")])


def position(armies, owner, conquered=(), board=LINE, **kw):
    state, warnings = GameState.from_position(board, armies, owner, set(conquered), **kw)
    return state, warnings


# -- board --------------------------------------------------------------------------------


def test_board_rejects_duplicates_unknown_and_self_adjacency():
    with pytest.raises(InvalidDocumentError, match="duplicate country id 'A'"):
        Board.from_pairs(["A", "A"], [])
    with pytest.raises(InvalidDocumentError, match="unknown country 'Z'"):
        Board.from_pairs(["A"], [("A", "Z")])
    with pytest.raises(InvalidDocumentError, match="'A' is adjacent to itself"):
        Board.from_pairs(["A"], [("A", "A")])


def test_board_pairs_once_each():
    assert LINE.pairs() == [("A", "B"), ("B", "C"), ("C", "D")]
    assert len(LINE) == 4 and "A" in LINE and "Z" not in LINE


# -- notation -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["12 in F", "C conquers D", "C, G conquer D", "D", "pass"],
)
def test_notation_round_trip(text):
    assert str(parse_move(text)) == text


def test_notation_variants():
    assert parse_move("C and G conquer D") == Conquest("D", ("C", "G"))
    assert parse_move("  7 in  B ") == Placement("B", 7)


@pytest.mark.parametrize("text", ["", "conquers D", "12 on F", "x y z"])
def test_notation_rejects_garbage(text):
    with pytest.raises(InvalidMoveError, match="cannot parse move"):
        parse_move(text)


@given(
    st.one_of(
        st.builds(
            Placement,
            st.from_regex(r"[A-Z]{1,2}", fullmatch=True),
            st.integers(1, 100),
        ),
        st.builds(
            Conquest,
            st.from_regex(r"[A-Z]{1,2}", fullmatch=True),
            st.lists(st.from_regex(r"[A-Z]{1,2}", fullmatch=True), max_size=3).map(tuple),
        ),
    )
)
@settings(derandomize=True, max_examples=200)
def test_notation_round_trip_property(move):
    assert parse_move(str(move)) == move


# -- phase 2 ------------------------------------------------------------------------------


def test_phase2_alternates_and_skips_exhausted_player():
    s = GameState.initial(LINE)
    s = s.apply(Placement("A", 100))
    assert s.to_move == "second"
    s = s.apply(Placement("B", 10))
    assert s.to_move == "second"  # first has nothing left and is skipped
    s = s.apply(Placement("C", 10))
    assert s.phase == 2 and s.to_move == "second"
    s = s.apply(Placement("D", 10))
    assert s.phase == 3  # every country occupied


def test_phase2_ends_when_both_exhausted_with_unoccupied_countries():
    s = GameState.initial(LINE).apply(Placement("A", 100)).apply(Placement("B", 100))
    assert s.phase == 3 and s.unoccupied() == ["C", "D"]


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (Placement("Z", 3), "there is no country Z"),
        (Placement("A", 0), "at least 1 army"),
        (Placement("A", 101), "first has only 100 armies left, not 101"),
        (Conquest("A"), "conquests are made in phase 3"),
        (Pass(), "passing is only for phase 3"),
    ],
)
def test_phase2_illegal_moves_say_why(move, reason):
    with pytest.raises(IllegalMoveError, match=reason):
        GameState.initial(LINE).apply(move)


def test_phase2_cannot_place_on_occupied():
    s = GameState.initial(LINE).apply(Placement("A", 5))
    with pytest.raises(IllegalMoveError, match="A is already occupied"):
        s.apply(Placement("A", 5))


# -- phase 3 ------------------------------------------------------------------------------


def phase3(**kw):
    # A(first 12) - B(second 14) - C(first 5) - D(second 3)
    state, _ = position(
        {"A": 12, "B": 14, "C": 5, "D": 3},
        {"A": "first", "B": "second", "C": "first", "D": "second"},
        **kw,
    )
    return state


def test_conquest_needs_strictly_more_armies():
    s = phase3(to_move="first")
    assert [m.target for m in s.legal_conquests()] == ["B", "D"]  # 17 > 14, 5 > 3
    s2, _ = position(
        {"A": 9, "B": 14, "C": 5, "D": 3},
        {"A": "first", "B": "second", "C": "first", "D": "second"},
        to_move="first",
    )
    assert [m.target for m in s2.legal_conquests()] == ["D"]  # 14 is not > 14
    with pytest.raises(
        IllegalMoveError, match="B has 14 armies; first has only 14 in adjacent A, C"
    ):
        s2.apply(Conquest("B"))


def test_conquered_armies_take_no_further_part_and_attackers_are_not_used_up():
    s = phase3(to_move="first").apply(Conquest("D", ("C",)))
    assert s.to_move == "second"
    # second: B attacks with 14 > 12 (A) and > 5 (C)
    assert {m.target for m in s.legal_conquests()} == {"A", "C"}
    s = s.apply(Conquest("C"))
    # C is out: first's attack on B is A alone, 12 < 14
    # first cannot conquer but second still can: first must pass
    assert s.to_move == "first" and s.legal_conquests() == []
    with pytest.raises(IllegalMoveError, match="conquests are made|illegal"):
        s.apply(Conquest("B"))
    s = s.apply(Pass())
    s = s.apply(Conquest("A"))
    assert s.is_over() and s.score() == {"first": 0, "second": 1}
    assert s.winner() == "second"


def test_pass_only_when_no_conquest_and_game_end():
    s = phase3(to_move="first")
    with pytest.raises(IllegalMoveError, match="has a legal conquest and may not pass"):
        s.apply(Pass())


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (Conquest("Z"), "there is no country Z"),
        (Conquest("A"), "A belongs to first"),
        (Conquest("B", ("D",)), "D does not belong to first"),
        (Conquest("D", ("A",)), "A is not adjacent to D"),
        (Conquest("B", ("Q",)), "there is no country Q"),
    ],
)
def test_phase3_illegal_moves_say_why(move, reason):
    with pytest.raises(IllegalMoveError, match=reason):
        phase3(to_move="first").apply(move)


def test_conquest_of_unoccupied_or_conquered_or_by_conquered():
    s, _ = position(
        {"A": 12, "B": 14, "C": 5, "D": None},
        {"A": "first", "B": "second", "C": "first", "D": None},
        conquered={"C"},
        to_move="first",
    )
    with pytest.raises(IllegalMoveError, match="D is unoccupied"):
        s.apply(Conquest("D"))
    with pytest.raises(IllegalMoveError, match="C is already conquered"):
        s.with_to_move("second").apply(Conquest("C"))
    with pytest.raises(IllegalMoveError, match="C is conquered and cannot attack"):
        s.apply(Conquest("B", ("C",)))


def test_no_adjacent_attacker_message():
    board = Board.from_pairs(["A", "B"], [])
    s, _ = position(
        {"A": 5, "B": 1}, {"A": "first", "B": "second"}, board=board, phase=3, to_move="first"
    )
    assert s.check(Conquest("B")) == "B has 1 armies; first has no country adjacent to it"


def test_game_over_state():
    board = Board.from_pairs(["A", "B"], [("A", "B")])
    s, _ = position({"A": 4, "B": 4}, {"A": "first", "B": "second"}, board=board)
    assert s.to_move is None and s.is_over()
    assert s.check(Conquest("B")) == "the game is over"


# -- position validation and inference ----------------------------------------------------


@pytest.mark.parametrize(
    ("armies", "owner", "conquered", "match"),
    [
        ({"A": 3}, {}, set(), "armies without owner"),
        ({}, {"A": "first"}, set(), "owner without armies"),
        ({"A": 0}, {"A": "first"}, set(), "armies must be >= 1"),
        ({"A": 60, "B": 50}, {"A": "first", "B": "first"}, set(), "first has 110 armies"),
        ({}, {}, {"A"}, "conquered but unoccupied"),
        ({}, {}, {"Z"}, "unknown country 'Z'"),
    ],
)
def test_from_position_rejects_invalid(armies, owner, conquered, match):
    with pytest.raises(InvalidDocumentError, match=match):
        position(armies, owner, conquered)


def test_from_position_rejects_bad_phase_and_phase2_conquests():
    with pytest.raises(InvalidDocumentError, match="phase must be 2 or 3"):
        position({}, {}, phase=4)
    with pytest.raises(InvalidDocumentError, match="phase 2 position has conquered"):
        position({"A": 3}, {"A": "first"}, {"A"}, phase=2)


def test_infer_phase2_to_move():
    s, w = position({"A": 10}, {"A": "first"})
    assert (s.phase, s.to_move, w) == (2, "second", [])
    s, w = position({"A": 10, "B": 5}, {"A": "first", "B": "second"})
    assert (s.phase, s.to_move, w) == (2, "first", [])
    s, w = position({"A": 100}, {"A": "first"})
    assert s.to_move == "second" and w == []
    s, w = position({"A": 10, "B": 5, "C": 5}, {"A": "second", "B": "second", "C": "second"})
    assert s.to_move == "first" and "cannot tell whose turn" in w[0]


def test_infer_phase3_from_conquests():
    s = phase3()
    assert (s.phase, s.to_move) == (3, "first")
    s, w = position(
        {"A": 12, "B": 14, "C": 5, "D": 3},
        {"A": "first", "B": "second", "C": "first", "D": "second"},
        {"D"},
    )
    assert (s.phase, s.to_move, w) == (3, "second", [])
    # two conquests by first, none by second: someone passed
    board = Board.from_pairs(list("ABCDE"), [("A", "B"), ("A", "C"), ("A", "E"), ("D", "E")])
    s, w = position(
        {"A": 50, "B": 1, "C": 1, "D": 2, "E": 1},
        {"A": "first", "B": "second", "C": "second", "D": "first", "E": "second"},
        {"B", "C"},
        board=board,
    )
    assert s.to_move == "second" and "someone passed" in w[0]


# -- minimax reference --------------------------------------------------------------------


def test_naive_solve_small():
    sol = naive_solve(phase3(to_move="first"))
    # first takes B (with A+C 17 > 14), then second has nothing left: D falls too.
    assert sol.margin == 2 and sol.best == Conquest("B", ("A", "C"))
    assert sol.line == ("B", "D")
    assert sol.alternatives == {"B": 2, "D": -1}
    with pytest.raises(ValueError, match="phase-3"):
        naive_solve(GameState.initial(LINE))
