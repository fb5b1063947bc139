"""Phase-2 advice, baseline policies and random maps."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aggression_vision.game import Board, GameState, Placement
from aggression_vision.game.mapgen import country_ids, random_board
from aggression_vision.game.placement import AdvisorPolicy, advise
from aggression_vision.game.policies import (
    POLICY_NAMES,
    Compact,
    candidate_amounts,
    finish,
    make_policy,
)
from aggression_vision.game.solver import solve


def _play(state: GameState, moves: list[str]) -> GameState:
    from aggression_vision.game import parse_move

    for m in moves:
        state = state.apply(parse_move(m))
    return state


def _random_position(n: int, seed: int, placements: int) -> GameState:
    """A random phase-2 position: ``placements`` random placements on a random map."""
    rng = random.Random(seed)
    state = GameState.initial(random_board(n, rng=seed))
    for _ in range(placements):
        if state.phase != 2:
            break
        assert state.to_move is not None
        top = state.remaining(state.to_move)
        c = rng.choice(state.unoccupied())
        state = state.apply(Placement(c, rng.randint(1, max(1, min(top, 30)))))
    return state


# -- maps ---------------------------------------------------------------------------------


def test_random_board_is_seeded_planar_and_connected() -> None:
    for seed in range(5):
        b = random_board(20, rng=seed)
        assert b == random_board(20, rng=seed)
        assert b.countries == tuple(country_ids(20))
        # A planar graph on n vertices has at most 3n - 6 edges.
        assert 19 <= len(b.pairs()) <= 3 * 20 - 6
        seen = {b.countries[0]}
        todo = [b.countries[0]]
        while todo:
            for d in b.neighbours(todo.pop()):
                if d not in seen:
                    seen.add(d)
                    todo.append(d)
        assert len(seen) == 20
    assert random_board(20, rng=1) != random_board(20, rng=2)


def test_random_board_rejects_tiny_maps() -> None:
    with pytest.raises(ValueError, match="at least 2 countries"):
        random_board(1)


# -- compact position -----------------------------------------------------------------------


def test_compact_follows_the_rules_of_phase_2() -> None:
    for seed in range(10):
        state = _random_position(9, seed, placements=seed % 5)
        if state.phase != 2:
            continue
        x = Compact.from_state(state)
        rng = random.Random(seed)
        while state.phase == 2:
            c, a = rng.choice(x.free), 1 + rng.randrange(x.remaining[x.to_move])
            state = state.apply(Placement(state.board.countries[c], a))
            x.place(c, a)
            assert x.to_state() == state
            for q, name in enumerate(("first", "second")):
                for i, country in enumerate(state.board.countries):
                    total = sum(
                        state.armies[d] or 0
                        for d in state.board.neighbours(country)
                        if state.owner[d] == name
                    )
                    assert x.attack(q, i) == total


def test_compact_refuses_phase_3() -> None:
    b = Board.from_pairs(["A", "B"], [("A", "B")])
    s = _play(GameState.initial(b), ["60 in A", "30 in B"])
    with pytest.raises(ValueError, match="phase 3"):
        Compact.from_state(s)


def test_finish_ends_phase_2_legally() -> None:
    state = _random_position(12, 3, placements=2)
    x = finish(Compact.from_state(state), random.Random(0))
    assert x.to_move == -1
    end = x.to_state()
    assert end.phase == 3
    assert not end.unoccupied() or all(end.remaining(p) == 0 for p in ("first", "second"))


def test_candidate_amounts_leave_one_army_per_later_placement() -> None:
    state = _random_position(10, 1, placements=2)
    x = Compact.from_state(state)
    p = x.to_move
    later = x.own_placements_left(p) - 1
    for c in x.free:
        amounts = candidate_amounts(x, c)
        assert amounts == sorted(set(amounts))
        assert all(1 <= a <= x.remaining[p] - later for a in amounts)


# -- policies ---------------------------------------------------------------------------------


@settings(
    derandomize=True,
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    n=st.integers(2, 9),
    seed=st.integers(0, 10_000),
    placements=st.integers(0, 8),
    name=st.sampled_from(POLICY_NAMES),
)
def test_baseline_policies_are_always_legal(n: int, seed: int, placements: int, name: str) -> None:
    state = _random_position(n, seed, placements)
    policy = make_policy(name)
    rng = random.Random(seed)
    while state.phase == 2:
        move = policy.choose(state, rng)
        assert state.is_legal(move), (name, move, state.check(move))
        state = state.apply(move)


def test_unknown_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown policy 'greedy'"):
        make_policy("greedy")


def test_concentrate_and_spread_do_what_they_say() -> None:
    board = random_board(20, rng=4)
    rng = random.Random(0)
    state = GameState.initial(board)
    c = make_policy("concentrate").choose(state, rng)
    s = make_policy("spread").choose(state, rng)
    assert c.armies == 25
    assert s.armies == 10  # 100 armies over the 10 countries first gets on 20


# -- advisor ------------------------------------------------------------------------------------


@settings(derandomize=True, max_examples=12, deadline=None)
@given(n=st.integers(2, 9), seed=st.integers(0, 10_000), placements=st.integers(0, 7))
def test_advice_is_a_legal_placement(n: int, seed: int, placements: int) -> None:
    state = _random_position(n, seed, placements)
    if state.phase != 2:
        return
    advice = advise(state, time_limit=5.0, iterations=12, rng=seed)
    assert state.is_legal(advice.best)
    assert advice.to_move == state.to_move
    assert advice.alternatives[0].placement == advice.best
    assert 1 <= advice.simulations <= 12


def test_advice_is_deterministic_given_the_seed() -> None:
    state = _random_position(12, 7, placements=3)
    a = advise(state, time_limit=30.0, iterations=40, rng=5)
    b = advise(state, time_limit=30.0, iterations=40, rng=5)
    assert a.best == b.best
    assert a.expected_margin == b.expected_margin
    assert [x.to_json() for x in a.alternatives] == [x.to_json() for x in b.alternatives]


def test_advice_respects_the_time_limit() -> None:
    state = _random_position(16, 2, placements=1)
    advice = advise(state, time_limit=0.2, rng=0)
    # Anytime: it stops after the simulation that crosses the limit (one leaf's
    # solve at most; generous for a loaded machine).
    assert advice.seconds < 2.5
    assert state.is_legal(advice.best)


def test_last_country_is_solved_exactly() -> None:
    # A - B - C in a row; first holds A with 10, second B with 5; C is the last country.
    b = Board.from_pairs(["A", "B", "C"], [("A", "B"), ("B", "C")])
    state = _play(GameState.initial(b), ["10 in A", "5 in B"])
    advice = advise(state, time_limit=30.0, rng=0)
    assert advice.exact
    assert advice.simulations == 90  # every amount 1..90 in C
    after = state.apply(advice.best)
    assert solve(after).margin == advice.expected_margin == 2
    assert advice.threatens == ["B"]
    assert advice.win_rate == 1.0


def test_threatens_and_protects() -> None:
    # F is free between W (second, 6), M (first, 4) and E (second, 3).
    # 5 in F for first: 5 > 3 brings E within reach, 5 < 6 does not reach W;
    # M had no enemy next to it, but a big enemy placement in F would have
    # made it conquerable: F is a buffer for M.
    b = Board.from_pairs(
        ["W", "F", "M", "E", "X"], [("W", "F"), ("F", "M"), ("F", "E"), ("W", "X"), ("E", "X")]
    )
    state = _play(GameState.initial(b), ["4 in M", "6 in W", "1 in X", "3 in E"])
    x = Compact.from_state(state)
    from aggression_vision.game.placement import _threatens_protects

    threatens, protects = _threatens_protects(x, b.countries.index("F"), 5)
    assert threatens == ["E"]
    assert protects == ["M"]


def test_advice_refuses_phase_3() -> None:
    b = Board.from_pairs(["A", "B"], [("A", "B")])
    s = _play(GameState.initial(b), ["60 in A", "30 in B"])
    with pytest.raises(ValueError, match="phase-2 position"):
        advise(s)


def test_advice_json_has_the_contract_keys() -> None:
    state = _random_position(8, 1, placements=2)
    out = advise(state, time_limit=5.0, iterations=10, rng=0).to_json()
    assert out["phase"] == 2
    assert out["to_move"] == state.to_move
    assert set(out["best"]) == {"country", "armies"}
    for key in ("expected_margin", "alternatives", "threatens", "protects", "exact"):
        assert key in out


def test_advisor_policy_plays_legal_moves() -> None:
    state = _random_position(8, 3, placements=0)
    policy = AdvisorPolicy(time_limit=5.0, iterations=6)
    rng = random.Random(1)
    while state.phase == 2:
        move = policy.choose(state, rng)
        assert state.is_legal(move)
        state = state.apply(move)
