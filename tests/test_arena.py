"""The arena: Wilson intervals, whole games, the report and the CLI command."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from aggression_vision.arena import (
    GameResult,
    make_tasks,
    play_game,
    run_arena,
    summarise,
    to_markdown,
    wilson_interval,
)
from aggression_vision.cli import app
from aggression_vision.game import GameState
from aggression_vision.game.mapgen import random_board
from aggression_vision.game.policies import make_policy
from aggression_vision.game.solver import solve


def test_wilson_interval_known_values() -> None:
    # 7 of 10: the textbook example, 0.3968-0.8922.
    lo, hi = wilson_interval(7, 10)
    assert lo == pytest.approx(0.3968, abs=1e-4)
    assert hi == pytest.approx(0.8922, abs=1e-4)


@pytest.mark.parametrize(("k", "n"), [(1, 3), (140, 200), (199, 200), (50, 51)])
def test_wilson_interval_solves_the_score_equation(k: int, n: int) -> None:
    # The Wilson bounds are the p with (k/n - p)^2 = z^2 p (1 - p) / n.
    z = 1.959963984540054
    for p in wilson_interval(k, n):
        assert (k / n - p) ** 2 == pytest.approx(z * z * p * (1 - p) / n, abs=1e-12)


def test_wilson_interval_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(0, 20)
    assert lo == 0.0 and 0.0 < hi < 0.2
    lo, hi = wilson_interval(20, 20)
    assert hi == 1.0 and 0.8 < lo < 1.0
    with pytest.raises(ValueError, match="successes <= trials"):
        wilson_interval(3, 2)


def test_tasks_play_each_map_from_both_seats() -> None:
    tasks = make_tasks(["advisor", "random", "tips"], games=4, size=10, seed=3, time_limit=0.1)
    assert len(tasks) == 8
    for opp in ("random", "tips"):
        mine = [t for t in tasks if t.opponent == opp]
        assert [t.candidate_first for t in mine] == [True, False, True, False]
        assert mine[0].map_seed == mine[1].map_seed != mine[2].map_seed
    # Every pairing sees the same maps.
    assert [t.map_seed for t in tasks[:4]] == [t.map_seed for t in tasks[4:]]
    with pytest.raises(ValueError, match="at least two policies"):
        make_tasks(["advisor"], games=2, size=10, seed=0, time_limit=0.1)


def test_play_game_ends_with_the_exact_margin() -> None:
    board = random_board(10, rng=2)
    rng = random.Random(0)
    end, placements, seconds, margin = play_game(
        GameState.initial(board), make_policy("spread"), make_policy("concentrate"), rng
    )
    assert end.phase == 3
    assert margin == solve(end).margin
    assert len(placements) == len(seconds["first"]) + len(seconds["second"])
    # Replaying the placements gives the same position.
    replay = GameState.initial(board)
    for p in placements:
        replay = replay.apply(p)
    assert replay == end


def _result(margin: int, first: bool) -> GameResult:
    return GameResult("a", "b", 0, 0, first, margin, [], [0.1], [0.0], 0.0)


def test_summarise_counts_from_the_candidates_side() -> None:
    rows = [_result(2, True), _result(2, False), _result(-1, False), _result(0, True)]
    (p,) = summarise(rows)
    # margin is first minus second: +2 with the candidate second is a loss.
    assert (p["wins"], p["draws"], p["losses"]) == (2, 1, 1)
    assert p["as_first"] == {"wins": 1, "draws": 1, "losses": 0}
    assert p["as_second"] == {"wins": 1, "draws": 0, "losses": 1}
    assert p["win_share_decided"] == pytest.approx(2 / 3)
    assert p["ci95"] == list(wilson_interval(2, 3))


def test_advisor_beats_random_on_a_tiny_arena() -> None:
    report = run_arena(
        ["advisor", "random"], games=8, size=10, seed=1, time_limit=5.0, iterations=24, workers=1
    )
    (p,) = report["pairings"]
    assert p["games"] == 8
    assert p["wins"] >= 6, to_markdown(report)
    assert p["mean_margin"] > 0


def test_cli_arena_json() -> None:
    runner = CliRunner()
    args = ["arena", "--games", "2", "--size", "8", "--policies", "advisor,random"]
    args += ["--iterations", "4", "--workers", "1", "--json"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    (p,) = out["pairings"]
    assert (p["candidate"], p["opponent"], p["games"]) == ("advisor", "random", 2)
    assert p["wins"] + p["draws"] + p["losses"] == 2
    assert "arena: 2/2 games" in res.stderr  # progress goes to stderr, never stdout


def test_cli_arena_table_and_unknown_policy() -> None:
    runner = CliRunner()
    res = runner.invoke(
        app, ["arena", "--games", "2", "--size", "6", "--policies", "tips,spread", "--workers", "1"]
    )
    assert res.exit_code == 0, res.output
    assert "| tips | spread | 2 |" in res.stdout
    res = runner.invoke(app, ["arena", "--games", "2", "--policies", "advisor,greedy"])
    assert res.exit_code == 2
    assert "unknown policy 'greedy'" in res.stderr
