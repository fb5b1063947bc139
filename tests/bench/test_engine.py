"""The solver benchmark: its positions, its naive reference, its report (not its timings)."""

from __future__ import annotations

import random

import pytest

from aggression_vision.bench.engine import (
    MAX_ARMIES,
    MIN_ARMIES,
    _Budget,
    main,
    naive_value,
    random_board,
    spread_position,
    to_markdown,
)
from aggression_vision.game import naive_solve


def test_random_board_is_a_connected_planar_looking_map() -> None:
    board = random_board(30, random.Random(1))
    assert len(board) == 30
    pairs = board.pairs()
    # Planar graphs have at most 3n - 6 edges; drawn maps have 4-7 neighbours on average.
    assert len(pairs) <= 3 * 30 - 6
    assert 3.0 <= 2 * len(pairs) / 30 <= 6.0
    seen, todo = set(), [board.countries[0]]
    while todo:
        c = todo.pop()
        if c not in seen:
            seen.add(c)
            todo.extend(board.neighbours(c))
    assert len(seen) == 30


def test_positions_are_seeded() -> None:
    a = random_board(20, random.Random(7))
    b = random_board(20, random.Random(7))
    assert a.pairs() == b.pairs()
    assert a.pairs() != random_board(20, random.Random(8)).pairs()


def test_spread_position_rules() -> None:
    rng = random.Random(3)
    for n in (20, 36):
        state = spread_position(random_board(n, rng), rng)
        assert state.phase == 3 and state.to_move == "first"
        assert all(
            MIN_ARMIES <= (state.armies[c] or 0) <= MAX_ARMIES for c in state.board.countries
        )
        assert state.remaining("first") >= 0 and state.remaining("second") >= 0
        owners = [state.owner[c] for c in state.board.countries]
        assert abs(owners.count("first") - owners.count("second")) <= 1


def test_naive_copy_matches_reference_and_respects_budget() -> None:
    rng = random.Random(4)
    state = spread_position(random_board(12, rng), rng)
    ref = naive_solve(state)
    margin, states = naive_value(state, 10**6)
    assert (margin, states) == (ref.margin, ref.nodes)
    with pytest.raises(_Budget):
        naive_value(state, max(1, states // 2))


def test_report_and_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    report = main(sizes=(10, 12), positions=2, seed=5, naive_budget=10**6, progress=False)
    assert capsys.readouterr().out == ""
    assert [s["size"] for s in report["sizes"]] == [10, 12]
    for s in report["sizes"]:
        assert s["positions"] == 2 and s["naive_finished"] == 2
        assert s["median_speedup"] is not None and s["median_seconds"] > 0
    assert len(report["rows"]) == 4
    for row in report["rows"]:
        assert row["naive_margin"] == row["margin"]
    md = to_markdown(report)
    assert md.count("\n") == 5 and "| 12 | 2 |" in md and "Hard positions" in md


def test_report_without_naive() -> None:
    report = main(sizes=(10,), positions=1, seed=5, naive_budget=0, progress=False)
    s = report["sizes"][0]
    assert s["naive_finished"] == 0 and s["median_speedup"] is None
    assert "| - |" in to_markdown(report)
