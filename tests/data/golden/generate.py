"""Write the golden solver positions of this folder (run from the repository root).

Each ``*.json`` holds a phase-3 state document, the legal targets of the
player to move, and the perfect-play margin after each of them and overall,
all computed by the reference ``naive_solve`` (plain memoised minimax), never
by the solver under test::

    python tests/data/golden/generate.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from aggression_vision.bench.engine import random_board, spread_position
from aggression_vision.document import document_to_state, load_document, state_to_document
from aggression_vision.game import GameState, naive_solve
from aggression_vision.game.board import Board

HERE = Path(__file__).resolve().parent
SAMPLES = HERE.parents[2] / "samples"


def _random_small(seed: int, n: int) -> GameState:
    """A random (not necessarily planar) map with unoccupied and conquered countries."""
    rng = random.Random(seed)
    ids = [chr(65 + i) for i in range(n)]
    pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :] if rng.random() < 0.35]
    armies: dict[str, int | None] = {}
    owner: dict[str, str | None] = {}
    for c in ids:
        r = rng.random()
        armies[c], owner[c] = (
            (None, None) if r < 0.1 else (rng.randint(1, 12), "first" if r < 0.55 else "second")
        )
    conquered = {c for c in ids if armies[c] and rng.random() < 0.15}
    state, _ = GameState.from_position(
        Board.from_pairs(ids, pairs),
        armies,
        owner,  # type: ignore[arg-type]
        conquered,
        phase=3,
        to_move=rng.choice(["first", "second"]),  # type: ignore[arg-type]
    )
    return state


def _record(name: str, state: GameState, description: str) -> None:
    sol = naive_solve(state)
    doc = state_to_document(state)
    doc.pop("score", None)
    doc.pop("warnings", None)
    out = {
        "description": description,
        "state": doc,
        "legal": [m.target for m in state.legal_conquests()],
        "margin": sol.margin,
        "alternatives": sol.alternatives,
        "naive_states": sol.nodes,
    }
    (HERE / f"{name}.json").write_text(json.dumps(out, indent=1) + "\n")
    print(f"{name}: margin {sol.margin}, {len(out['legal'])} legal, {sol.nodes} states")


def main() -> None:
    for seed, n in [(1, 8), (2, 9), (3, 10), (4, 10), (5, 12)]:
        _record(f"random-{n}-{seed}", _random_small(seed, n), f"random map, seed {seed}")
    rng = random.Random("golden")
    for n in (14, 16, 20):
        state = spread_position(random_board(n, rng), rng)
        _record(f"spread-{n}", state, f"planar map of {n}, spread 3-10 armies, first to move")
        state = state.with_to_move("second")
        _record(f"spread-{n}-second", state, f"planar map of {n}, spread, second to move")
    for name in ("napoleon-wellington-phase3", "napoleon-wellington-midgame"):
        path = SAMPLES / f"{name}.json"
        if path.exists():
            state, _ = document_to_state(load_document(path))
            if state.phase == 3 and state.to_move is not None:
                _record(name, state, f"samples/{name}.json")


if __name__ == "__main__":
    main()
