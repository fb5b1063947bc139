"""The ``aggression-vision`` command line: parse, call the library, print.

Heavy modules (OpenCV, numpy...) are imported inside the commands that need
them, so that ``suggest`` on a document starts quickly.
"""

from __future__ import annotations

import enum
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer

from aggression_vision.corrections import Corrections, apply_corrections, rule_warnings
from aggression_vision.document import (
    Annotations,
    document_to_state,
    dumps_document,
    load_json,
    state_to_document,
    write_atomic,
)
from aggression_vision.errors import AggressionVisionError, IllegalMoveError
from aggression_vision.game import Conquest, GameState, Placement, Player, parse_move

app = typer.Typer(
    name="aggression-vision",
    help="Read photos of hand-drawn Aggression maps and referee the game.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".heic", ".heif", ".bmp", ".tif", ".tiff"}


class PlayerChoice(str, enum.Enum):
    first = "first"
    second = "second"


class OcrBackend(str, enum.Enum):
    cnn = "cnn"
    tesseract = "tesseract"


# -- shared options -------------------------------------------------------------------

StateArg = Annotated[
    Path, typer.Argument(help="A state document (.json) or a photo of the map.", show_default=False)
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")]
ToMoveOpt = Annotated[
    PlayerChoice | None,
    typer.Option("--to-move", help="Override whose turn it is.", show_default=False),
]
OcrOpt = Annotated[
    OcrBackend, typer.Option("--ocr", help="Number reader for photos.", case_sensitive=False)
]


def _corner_pairs(text: str) -> list[tuple[float, float]]:
    """The four (x, y) corners of a ``--corners`` value; ValueError when malformed."""
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        values = []
    if len(values) != 8:
        raise ValueError(f"{text!r}: expected 8 numbers x1,y1,x2,y2,x3,y3,x4,y4")
    return [(values[i], values[i + 1]) for i in range(0, 8, 2)]


def _check_corners(text: str | None) -> str | None:
    if text is not None:
        try:
            _corner_pairs(text)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
    return text


CornersOpt = Annotated[
    str | None,
    typer.Option(
        "--corners",
        callback=_check_corners,
        help="Page corners x1,y1,x2,y2,x3,y3,x4,y4 in photo pixels, when not found.",
        show_default=False,
    ),
]
SetOpt = Annotated[
    list[str] | None, typer.Option("--set", help="Correct armies: D=12 (repeatable).")
]
OwnerOpt = Annotated[
    list[str] | None, typer.Option("--owner", help="Correct owner: D=first (repeatable).")
]
ConqueredOpt = Annotated[
    list[str] | None, typer.Option("--conquered", help="Mark D as crossed out (repeatable).")
]
UnoccupiedOpt = Annotated[
    list[str] | None, typer.Option("--unoccupied", help="Mark B as unoccupied (repeatable).")
]
AdjacentOpt = Annotated[
    list[str] | None, typer.Option("--adjacent", help="Add adjacency A,B (repeatable).")
]
NotAdjacentOpt = Annotated[
    list[str] | None, typer.Option("--not-adjacent", help="Remove adjacency A,B (repeatable).")
]


def _corrections(
    set_: list[str] | None,
    owner: list[str] | None,
    conquered: list[str] | None,
    unoccupied: list[str] | None,
    adjacent: list[str] | None,
    not_adjacent: list[str] | None,
) -> Corrections:
    return Corrections(
        set_armies=tuple(set_ or ()),
        owner=tuple(owner or ()),
        conquered=tuple(conquered or ()),
        unoccupied=tuple(unoccupied or ()),
        adjacent=tuple(adjacent or ()),
        not_adjacent=tuple(not_adjacent or ()),
    )


# -- plumbing ---------------------------------------------------------------------------


def _fail(message: str, code: int = 1) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _warn(messages: list[str]) -> None:
    for m in messages:
        typer.echo(f"warning: {m}", err=True)


def _print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")


T = TypeVar("T")


def _guard(fn: Callable[[], T]) -> T:
    """Run ``fn`` turning the package's errors into one-line messages and exit 1."""
    try:
        return fn()
    except AggressionVisionError as e:
        _fail(str(e))
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        _fail(f"{where}{e.strerror or e}")


def is_photo(path: Path) -> bool:
    """Whether ``path`` should be read as a photo rather than a state document."""
    if path.suffix.lower() in PHOTO_SUFFIXES:
        return True
    if path.suffix.lower() == ".json":
        return False
    try:
        with path.open("rb") as f:
            head = f.read(64).lstrip()
    except OSError:
        return False
    return not head.startswith(b"{")


def read_document(
    path: Path,
    *,
    ocr: str = "cnn",
    corners: str | None = None,
    corrections: Corrections | None = None,
) -> dict[str, Any]:
    """The document of ``path`` (read from the photo when it is one), corrected."""
    if is_photo(path):
        if not path.exists():
            raise AggressionVisionError(f"{path}: no such file")
        from aggression_vision.vision.pipeline import read_photo

        # (--corners was checked by its option callback)
        doc = read_photo(path, corners=None if corners is None else _corner_pairs(corners), ocr=ocr)
    else:
        doc = load_json(path)
        if not isinstance(doc, dict):
            raise AggressionVisionError(f"{path}: document: must be a JSON object")
    if corrections:
        doc = apply_corrections(doc, corrections)
    return doc


def load_state(
    path: Path,
    *,
    to_move: PlayerChoice | None = None,
    ocr: str = "cnn",
    corners: str | None = None,
    corrections: Corrections | None = None,
) -> tuple[GameState, Annotations]:
    """Position and annotations of a document or photo, with warnings collected."""
    doc = read_document(path, ocr=ocr, corners=corners, corrections=corrections)
    player: Player | None = to_move.value if to_move is not None else None  # type: ignore[assignment]
    state, ann = document_to_state(
        doc, source=str(path), to_move=player, check_totals=not is_photo(path)
    )
    reader_warnings = [w for w in doc.get("warnings", []) if isinstance(w, str)]
    ann.warnings = list(dict.fromkeys([*reader_warnings, *rule_warnings(doc), *ann.warnings]))
    return state, ann


def _load_or_exit(
    path: Path, to_move: PlayerChoice | None, ocr: OcrBackend, corr: Corrections
) -> tuple[GameState, Annotations]:
    """:func:`load_state` for a command: errors become one line and exit 1, warnings are shown."""
    state, ann = _guard(lambda: load_state(path, to_move=to_move, ocr=ocr.value, corrections=corr))
    _warn(ann.warnings)
    return state, ann


def conquest_json(state: GameState, move: Conquest) -> dict[str, Any]:
    """``{"target", "attackers", "attack", "defence"}`` for a conquest by the player to move."""
    assert state.to_move is not None
    attack, names = state.attack_on(move.target, state.to_move)
    return {
        "target": move.target,
        "attackers": names,
        "attack": attack,
        "defence": state.armies[move.target],
        "attacker_armies": {c: state.armies[c] for c in names},
    }


def _describe_conquest(state: GameState, move: Conquest) -> str:
    return state.describe_attack(move.target)


# -- commands ---------------------------------------------------------------------------


@app.command()
def read(
    photo: Annotated[Path, typer.Argument(help="Photo of the map.", show_default=False)],
    json_output: JsonOpt = False,
    out: Annotated[
        Path | None, typer.Option("--out", help="Save the (corrected) state document here.")
    ] = None,
    overlay: Annotated[
        Path | None, typer.Option("--overlay", help="Save the photo with the reading drawn on it.")
    ] = None,
    corners: CornersOpt = None,
    ocr: OcrOpt = OcrBackend.cnn,
    to_move: ToMoveOpt = None,
    set_: SetOpt = None,
    owner: OwnerOpt = None,
    conquered: ConqueredOpt = None,
    unoccupied: UnoccupiedOpt = None,
    adjacent: AdjacentOpt = None,
    not_adjacent: NotAdjacentOpt = None,
) -> None:
    """Read a photo of a map and print its state document."""
    corr = _corrections(set_, owner, conquered, unoccupied, adjacent, not_adjacent)

    def run() -> dict[str, Any]:
        if not is_photo(photo) and photo.suffix.lower() == ".json":
            raise AggressionVisionError(f"{photo}: 'read' takes a photo, not a state document")
        state, ann = load_state(
            photo, to_move=to_move, ocr=ocr.value, corners=corners, corrections=corr
        )
        doc = state_to_document(state, ann)
        if out is not None:
            write_atomic(out, dumps_document(doc))
        if overlay is not None:
            from aggression_vision.vision.load import load_image
            from aggression_vision.vision.overlay import render_overlay, save_png

            save_png(overlay, render_overlay(load_image(photo), doc))
        return doc

    doc = _guard(run)
    _warn(doc["warnings"])
    if json_output:
        _print_json(doc)
    else:
        _print_summary(doc)


def _print_summary(doc: dict[str, Any]) -> None:
    lines = [f"{len(doc['countries'])} countries, phase {doc['phase']}, to move: {doc['to_move']}"]
    for c in doc["countries"]:
        if c["armies"] is None:
            what = "unoccupied"
        else:
            what = f"{c['armies']:>3} {c['owner']}" + (" (conquered)" if c["conquered"] else "")
        near = sorted({b if a == c["id"] else a for a, b in doc["adjacency"] if c["id"] in (a, b)})
        lines.append(f"  {c['id']:>3}: {what:<26} adjacent {', '.join(near) or '-'}")
    s = doc["score"]
    lines.append(f"score: first {s['first']}, second {s['second']}")
    typer.echo("\n".join(lines))


@app.command()
def moves(
    state_path: StateArg,
    json_output: JsonOpt = False,
    to_move: ToMoveOpt = None,
    ocr: OcrOpt = OcrBackend.cnn,
    set_: SetOpt = None,
    owner: OwnerOpt = None,
    conquered: ConqueredOpt = None,
    unoccupied: UnoccupiedOpt = None,
    adjacent: AdjacentOpt = None,
    not_adjacent: NotAdjacentOpt = None,
) -> None:
    """List the legal moves of the player to move."""
    corr = _corrections(set_, owner, conquered, unoccupied, adjacent, not_adjacent)
    state, ann = _load_or_exit(state_path, to_move, ocr, corr)
    if state.phase == 2:
        p = state.to_move
        result: dict[str, Any] = {
            "phase": 2,
            "to_move": p,
            "unoccupied": state.unoccupied(),
            "remaining": state.remaining(p) if p else 0,
        }
        if json_output:
            _print_json(result)
        else:
            typer.echo(
                f"phase 2, {p} to move with {result['remaining']} armies left: write 1-"
                f"{result['remaining']} armies into one of {', '.join(result['unoccupied'])}"
            )
        return
    legal = state.legal_conquests()
    if json_output:
        _print_json(
            {
                "phase": 3,
                "to_move": state.to_move,
                "moves": [conquest_json(state, m) for m in legal],
            }
        )
        return
    if state.to_move is None:
        typer.echo("the game is over: nobody can conquer")
    elif not legal:
        typer.echo(f"phase 3, {state.to_move} to move: no legal conquest, {state.to_move} passes")
    else:
        typer.echo(f"phase 3, {state.to_move} to move, {len(legal)} legal conquests:")
        for m in legal:
            typer.echo(f"  {_describe_conquest(state, m)}")


@app.command()
def score(
    state_path: StateArg,
    json_output: JsonOpt = False,
    to_move: ToMoveOpt = None,
    ocr: OcrOpt = OcrBackend.cnn,
    set_: SetOpt = None,
    owner: OwnerOpt = None,
    conquered: ConqueredOpt = None,
    unoccupied: UnoccupiedOpt = None,
    adjacent: AdjacentOpt = None,
    not_adjacent: NotAdjacentOpt = None,
) -> None:
    """Print the score: own countries retained (not conquered)."""
    corr = _corrections(set_, owner, conquered, unoccupied, adjacent, not_adjacent)
    state, ann = _load_or_exit(state_path, to_move, ocr, corr)
    s = state.score()
    finished = state.is_over()
    if json_output:
        _print_json({"first": s["first"], "second": s["second"], "finished": finished})
        return
    names = ann.players or {}
    first = names.get("first", "first")
    second = names.get("second", "second")
    status = "final" if finished else "so far"
    typer.echo(f"{first} {s['first']}, {second} {s['second']} ({status})")


@app.command()
def suggest(
    state_path: StateArg,
    json_output: JsonOpt = False,
    all_moves: Annotated[
        bool, typer.Option("--all", help="Show the margin of every alternative move.")
    ] = False,
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time-limit",
            min=0.01,
            help="Seconds to think; returns the best move found so far (exact: false).",
        ),
    ] = None,
    overlay: Annotated[
        Path | None,
        typer.Option("--overlay", help="Draw the suggested attack on the photo (photos only)."),
    ] = None,
    to_move: ToMoveOpt = None,
    ocr: OcrOpt = OcrBackend.cnn,
    set_: SetOpt = None,
    owner: OwnerOpt = None,
    conquered: ConqueredOpt = None,
    unoccupied: UnoccupiedOpt = None,
    adjacent: AdjacentOpt = None,
    not_adjacent: NotAdjacentOpt = None,
) -> None:
    """Suggest the best move for the player to move, under perfect play."""
    corr = _corrections(set_, owner, conquered, unoccupied, adjacent, not_adjacent)
    state, ann = _load_or_exit(state_path, to_move, ocr, corr)
    if state.phase == 2:
        if overlay is not None:
            _warn(["--overlay draws phase-3 attacks; nothing drawn for a phase-2 placement"])
        _suggest_phase2(state, json_output=json_output, time_limit=time_limit)
        return
    from aggression_vision.game.solver import solve

    sol = solve(state, time_limit=time_limit, alternatives=all_moves)
    result: dict[str, Any] = {
        "phase": 3,
        "to_move": state.to_move,
        "best": conquest_json(state, sol.best) if sol.best else None,
        "margin": sol.margin,
        "exact": sol.exact,
        "line": list(sol.line),
    }
    if not sol.exact:
        result["bounds"] = [sol.lower, sol.upper]
    if all_moves:
        result["alternatives_exact"] = sol.alternatives_exact
        result["alternatives"] = [
            {**conquest_json(state, Conquest(t)), "margin": m}
            for t, m in sorted(sol.alternatives.items(), key=lambda kv: _order(state, kv))
        ]
    if overlay is not None:
        _guard(lambda: _suggest_overlay(state_path, state_to_document(state, ann), result, overlay))
    if json_output:
        _print_json(result)
        return
    _print_suggestion(state, result)


def _order(state: GameState, kv: tuple[str, int]) -> tuple[int, int]:
    sign = -1 if state.to_move == "first" else 1
    return (sign * kv[1], state.board.countries.index(kv[0]))


def _print_suggestion(state: GameState, result: dict[str, Any]) -> None:
    p = state.to_move
    m = result["margin"]
    verdict = "a draw" if m == 0 else f"{'first' if m > 0 else 'second'} wins by {abs(m)}"
    exact = "" if result["exact"] else f" (not proven; bounds {result['bounds']})"
    if p is None:
        typer.echo(f"the game is over: {verdict}")
        return
    if result["best"] is None:
        typer.echo(f"{p} has no legal conquest and passes")
    else:
        typer.echo(f"best for {p}: {_describe_conquest(state, Conquest(result['best']['target']))}")
    typer.echo(f"margin under best play: {m:+d}, {verdict}{exact}")
    if result["line"]:
        typer.echo(f"expected line: {', '.join(result['line'])}")
    if result.get("alternatives") and not result["alternatives_exact"]:
        typer.echo("margins of the alternatives (estimates: time ran out before proof):")
    for alt in result.get("alternatives", []):
        typer.echo(f"  {alt['target']:>3}: margin {alt['margin']:+d}")


def _suggest_phase2(state: GameState, *, json_output: bool, time_limit: float | None) -> None:
    from aggression_vision.game.placement import advise

    advice = advise(state, time_limit=time_limit if time_limit is not None else 3.0)
    if json_output:
        _print_json(advice.to_json())
        return
    out = advice.to_json()
    best = out["best"]
    typer.echo(f"best for {out['to_move']}: {best['armies']} in {best['country']}")
    typer.echo(
        f"expected margin {out['expected_margin']:+.2f} (first minus second), "
        f"{out['to_move']} wins {100 * out['win_rate']:.0f}% of its "
        f"{out['alternatives'][0]['simulations']} simulations "
        f"({out['simulations']} in all)"
    )
    if out["threatens"]:
        typer.echo(f"threatens: {', '.join(out['threatens'])}")
    if out["protects"]:
        typer.echo(f"protects: {', '.join(out['protects'])}")
    for reason in out["reasons"]:
        typer.echo(f"  {reason}")
    for alt in out["alternatives"][1:6]:
        typer.echo(
            f"  or {alt['armies']:>3} in {alt['country']:<3} expected margin "
            f"{alt['expected_margin']:+.2f}"
        )


def _suggest_overlay(
    path: Path, doc: dict[str, Any], result: dict[str, Any], overlay: Path
) -> None:
    """Draw the suggestion on the photo, with the (corrected) reading already made."""
    if not is_photo(path):
        raise AggressionVisionError(f"{path}: --overlay needs a photo, not a state document")
    from aggression_vision.vision.load import load_image
    from aggression_vision.vision.overlay import render_suggestion, save_png

    save_png(overlay, render_suggestion(load_image(path), doc, result))


@app.command()
def check(
    state_path: StateArg,
    move: Annotated[
        str,
        typer.Argument(
            help="A move ('C conquers D', 'D', '12 in F'), or a second photo/document AFTER: "
            "then the move made between the two is found and judged.",
            show_default=False,
        ),
    ],
    json_output: JsonOpt = False,
    to_move: ToMoveOpt = None,
    ocr: OcrOpt = OcrBackend.cnn,
    set_: SetOpt = None,
    owner: OwnerOpt = None,
    conquered: ConqueredOpt = None,
    unoccupied: UnoccupiedOpt = None,
    adjacent: AdjacentOpt = None,
    not_adjacent: NotAdjacentOpt = None,
) -> None:
    """Is MOVE legal now? Or: which move was made between BEFORE and AFTER, and was it legal?

    Exit 0 when legal, 1 when not (with the reason). With two photos/documents
    the corrections apply to the second (AFTER) reading.
    """
    corr = _corrections(set_, owner, conquered, unoccupied, adjacent, not_adjacent)
    if _names_a_file(move):
        _check_pair(state_path, Path(move), json_output, to_move, ocr.value, corr)
        return
    state, ann = _load_or_exit(state_path, to_move, ocr, corr)
    parsed = _guard(lambda: parse_move(move))
    reason = state.check(parsed)
    result = {
        "legal": reason is None,
        "move": str(parsed),
        "player": state.to_move,
        "reason": reason or _why_legal(state, parsed),
    }
    if json_output:
        _print_json(result)
    else:
        verdict = "legal" if reason is None else "illegal"
        typer.echo(f"{result['move']}: {verdict} for {state.to_move}: {result['reason']}")
    if reason is not None:
        raise typer.Exit(1)


def _names_a_file(text: str) -> bool:
    p = Path(text)
    return p.suffix.lower() in PHOTO_SUFFIXES | {".json"} or (p.exists() and p.is_file())


def _check_pair(
    before: Path,
    after: Path,
    json_output: bool,
    to_move: PlayerChoice | None,
    ocr: str,
    corr: Corrections,
) -> None:
    from aggression_vision.follow import compare_documents

    def run() -> Any:
        b_doc = read_document(before, ocr=ocr)
        a_doc = read_document(after, ocr=ocr, corrections=corr)
        player: Player | None = to_move.value if to_move is not None else None  # type: ignore[assignment]
        return compare_documents(
            b_doc,
            a_doc,
            before_source=str(before),
            after_source=str(after),
            to_move=player,
            strict=(not is_photo(before), not is_photo(after)),
        )

    comp = _guard(run)
    _warn(comp.before_annotations.warnings)
    v = comp.verdict
    if json_output:
        _print_json(v.to_json())
    else:
        verdict = "legal" if v.legal else "illegal"
        what = f"{v.move} by {v.player}" if v.move is not None else "no single move"
        typer.echo(f"{what}: {verdict}: {v.reason}")
        for item in v.irregularities:
            typer.echo(f"  irregular: {item}")
    if not v.legal:
        raise typer.Exit(1)


@app.command()
def track(
    game_dir: Annotated[Path, typer.Argument(help="The game folder (created on the first photo).")],
    photo: Annotated[Path, typer.Argument(help="The newest photo (or state document) of the map.")],
    json_output: JsonOpt = False,
    to_move: ToMoveOpt = None,
    ocr: OcrOpt = OcrBackend.cnn,
    set_: SetOpt = None,
    owner: OwnerOpt = None,
    conquered: ConqueredOpt = None,
    unoccupied: UnoccupiedOpt = None,
    adjacent: AdjacentOpt = None,
    not_adjacent: NotAdjacentOpt = None,
) -> None:
    """Record the move shown by a new photo in a game folder, then print the move table.

    The first photo starts the game. Each next one is judged against the last
    state: a legal move is recorded (photo copied in, move log, state), an
    illegal one is refused (exit 1) and nothing is written. Correct a misread
    with --set/--owner/... before it is recorded.
    """
    from aggression_vision.follow import GameFolder

    corr = _corrections(set_, owner, conquered, unoccupied, adjacent, not_adjacent)

    def run() -> tuple[Any, Any, GameFolder]:
        folder = GameFolder(game_dir)
        doc = read_document(photo, ocr=ocr.value, corrections=corr)
        strict = not is_photo(photo)
        if not folder.is_started():
            return None, folder.start(photo, doc, strict=strict), folder
        player: Player | None = to_move.value if to_move is not None else None  # type: ignore[assignment]
        comp, entry = folder.record(photo, doc, to_move=player, strict=strict)
        return comp, entry, folder

    comp, entry, folder = _guard(run)
    state_doc = _guard(folder.state_document)
    result: dict[str, Any] = {
        "recorded": entry is not None,
        "verdict": comp.verdict.to_json() if comp is not None else None,
        "moves": [{"n": n, "player": p, "move": m} for n, p, m in _guard(folder.table)],
        "score": state_doc["score"],
        "to_move": state_doc["to_move"],
    }
    if json_output:
        _print_json(result)
    else:
        if comp is None:
            typer.echo(f"started {game_dir} with {len(state_doc['countries'])} countries")
        elif entry is None:
            v = comp.verdict
            what = f"{v.move} by {v.player}" if v.move is not None else "no single move"
            typer.echo(f"not recorded: {what}: illegal: {v.reason}")
            for item in v.irregularities:
                typer.echo(f"  irregular: {item}")
        for n, p, m in folder.table():
            typer.echo(f"{n:>3}  {p:<12} {m}")
        names = state_doc.get("players") or {}
        s = state_doc["score"]
        typer.echo(
            f"score: {names.get('first', 'first')} {s['first']}, "
            f"{names.get('second', 'second')} {s['second']}"
        )
    if entry is None:
        raise typer.Exit(1)


def _why_legal(state: GameState, move: object) -> str:
    if isinstance(move, Conquest):
        return _describe_conquest(state, move)
    if isinstance(move, Placement):
        assert state.to_move is not None
        left = state.remaining(state.to_move) - move.armies
        return f"{move.country} is unoccupied; {state.to_move} keeps {left} armies"
    return "no legal conquest is available"


@app.command()
def apply(
    state_path: StateArg,
    move: Annotated[str, typer.Argument(help="A move: 'C conquers D', 'D' or '12 in F'.")],
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write the new document here (default: print it)."),
    ] = None,
    json_output: JsonOpt = False,
    to_move: ToMoveOpt = None,
    ocr: OcrOpt = OcrBackend.cnn,
    set_: SetOpt = None,
    owner: OwnerOpt = None,
    conquered: ConqueredOpt = None,
    unoccupied: UnoccupiedOpt = None,
    adjacent: AdjacentOpt = None,
    not_adjacent: NotAdjacentOpt = None,
) -> None:
    """Play MOVE and write the resulting state document."""
    corr = _corrections(set_, owner, conquered, unoccupied, adjacent, not_adjacent)

    def run() -> dict[str, Any]:
        state, ann = load_state(state_path, to_move=to_move, ocr=ocr.value, corrections=corr)
        _warn(ann.warnings)
        parsed = parse_move(move)
        try:
            new = state.apply(parsed)
        except IllegalMoveError as e:
            raise IllegalMoveError(f"{state_path}: {e}") from None
        ann.warnings = []
        doc = state_to_document(new, ann)
        if out is not None:
            write_atomic(out, dumps_document(doc))
        return doc

    doc = _guard(run)
    if out is None or json_output:
        sys.stdout.write(dumps_document(doc))
    else:
        typer.echo(f"wrote {out}")


@app.command()
def bench(
    target: Annotated[
        str | None,
        typer.Argument(
            help="Directory of synthetic samples (NAME.jpg + NAME.json ground truth), "
            "or the word 'engine' for the solver benchmark (a folder named engine: ./engine).",
            show_default=False,
        ),
    ] = None,
    json_output: JsonOpt = False,
    ocr: OcrOpt = OcrBackend.cnn,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Worker processes.")] = 2,
    sudoku: Annotated[
        Path | None,
        typer.Option(
            "--sudoku",
            help="Also score the real sudoku photos of this folder (images/, labels/, "
            "metadata.csv); TARGET may then be omitted.",
            show_default=False,
        ),
    ] = None,
    limit: Annotated[
        int | None,
        typer.Option(
            "--limit", min=1, help="Only the first N photos (by name).", show_default=False
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Also write the JSON report here.", show_default=False),
    ] = None,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print markdown tables (for the README).")
    ] = False,
    reader: Annotated[
        str,
        typer.Option(
            "--reader",
            help="The photo reader, as package.module:function; "
            "aggression_vision.bench.readers:regions_only skips the marks.",
        ),
    ] = "aggression_vision.vision.pipeline:read_photo",
) -> None:
    """Measure how well photos are read (synthetic samples, real sudoku photos) and how fast.

    With --json, prints one document: the report, or an object whose "reports" list holds
    both (synthetic, then sudoku). Reader failures are measured, not errors: exit status 0.
    """
    if target == "engine":
        _bench_engine(json_output=json_output, limit=limit, out=out)
        return
    if target is None and sudoku is None:
        _fail("bench: give a directory of samples, 'engine', or --sudoku DIR", 2)

    from functools import partial

    from aggression_vision.bench.runner import run_sudoku, run_synthetic

    # A progress bar only where someone watches it.
    progress = sys.stderr.isatty()
    reports: list[Any] = [
        _guard(
            partial(
                run,
                Path(where),
                reader=reader,
                ocr=ocr.value,
                workers=workers,
                limit=limit,
                progress=progress,
            )
        )
        for run, where in ((run_synthetic, target), (run_sudoku, sudoku))
        if where is not None
    ]
    documents = [r.to_dict() for r in reports]
    document = documents[0] if len(documents) == 1 else {"reports": documents}
    if out is not None:
        _guard(lambda: write_atomic(out, json.dumps(document, indent=2) + "\n"))
    if json_output:
        _print_json(document)
    elif markdown:
        from aggression_vision.bench.report import to_markdown

        typer.echo("\n".join(to_markdown(r) for r in reports))
    else:
        from rich.console import Console

        from aggression_vision.bench.report import render

        # Piped to a file, keep every column rather than rich's default 80 characters.
        console = Console() if sys.stdout.isatty() else Console(width=200)
        for r in reports:
            console.print(*render(r))


def _bench_engine(*, json_output: bool, limit: int | None, out: Path | None) -> None:
    try:
        from aggression_vision.bench.engine import main as engine_main
        from aggression_vision.bench.engine import to_markdown as engine_markdown
    except ImportError as e:
        _fail(f"bench engine: the solver benchmark is not available ({e})")
    progress = sys.stderr.isatty()

    def run() -> dict[str, Any]:
        if limit is None:
            return engine_main(json_output=json_output, progress=progress)
        return engine_main(json_output=json_output, progress=progress, positions=limit)

    report = _guard(run)
    if out is not None:
        _guard(lambda: write_atomic(out, json.dumps(report, indent=2) + "\n"))
    if json_output:
        _print_json(report)
    else:
        typer.echo(engine_markdown(report))


@app.command()
def arena(
    games: Annotated[
        int, typer.Option("--games", min=1, help="Games per pairing (both seats).")
    ] = 200,
    size: Annotated[int, typer.Option("--size", min=2, help="Countries per random map.")] = 20,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the maps and the policies.")] = 0,
    policies: Annotated[
        str,
        typer.Option(
            "--policies",
            help="Candidate first, then its opponents: advisor, random, concentrate, spread, tips.",
        ),
    ] = "advisor,random,concentrate,spread,tips",
    time_limit: Annotated[
        float, typer.Option("--time-limit", min=0.01, help="Advisor seconds per placement.")
    ] = 0.5,
    iterations: Annotated[
        int | None,
        typer.Option(
            "--iterations",
            min=1,
            help="Advisor simulations per placement (reproducible; --time-limit still caps).",
            show_default=False,
        ),
    ] = None,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Worker processes.")] = 2,
    json_output: JsonOpt = False,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Also write the JSON report (with every game) here."),
    ] = None,
) -> None:
    """Play whole games between phase-2 policies on random maps (phase 3 by perfect play).

    Prints win/draw/loss of the first policy against each other one, with a 95% Wilson
    interval on its share of wins among decided games.
    """
    from aggression_vision.arena import run_arena, to_markdown

    names = [p.strip() for p in policies.split(",") if p.strip()]
    from rich.progress import Progress

    # A bar on a terminal; a line every 5% otherwise (a long run in the background).
    bar = Progress(transient=True) if sys.stderr.isatty() else None
    task = bar.add_task("arena", total=None) if bar is not None else None

    def progress_cb(done: int, total: int) -> None:
        if bar is not None and task is not None:
            bar.update(task, completed=done, total=total)
        elif done == total or done % max(1, total // 20) == 0:
            typer.echo(f"arena: {done}/{total} games", err=True)

    if bar is not None:
        bar.start()
    try:
        report = run_arena(
            names,
            games=games,
            size=size,
            seed=seed,
            time_limit=time_limit,
            iterations=iterations,
            workers=workers,
            progress=progress_cb,
        )
    except ValueError as e:
        _fail(f"arena: {e}", 2)
    finally:
        if bar is not None:
            bar.stop()
    if out is not None:
        _guard(lambda: write_atomic(out, json.dumps(report, indent=2) + "\n"))
    if json_output:
        _print_json({k: v for k, v in report.items() if k != "games"})
        return
    typer.echo(to_markdown(report))


@app.command()
def synth(
    out: Annotated[Path, typer.Option("--out", help="Output directory.", show_default=False)],
    count: Annotated[int, typer.Option("--count", min=1, help="Number of samples.")] = 10,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the first sample.")] = 0,
    preset: Annotated[
        str,
        typer.Option("--preset", help="Parameter preset: easy, default, hard or small (0.3-1 MP)."),
    ] = "default",
    workers: Annotated[int, typer.Option("--workers", min=1, help="Worker processes.")] = 1,
    game: Annotated[
        bool,
        typer.Option(
            "--game",
            help="Instead: COUNT games, one photo per position of each (same sheet, "
            "a new camera each time; clean photos, --preset ignored), for trying check and track.",
        ),
    ] = False,
) -> None:
    """Generate synthetic photos with ground truth: NAME.jpg + NAME.json per sample.

    Sample i uses seed SEED+i (named synth-SEED+i), so each can be regenerated alone.
    """
    from aggression_vision.synth.handwriting import missing_hands

    for line in missing_hands():
        typer.echo(f"note: {line} (the same seeds give other photos where they exist)", err=True)
    if game:
        from aggression_vision.synth.sequence import write_game

        for i in range(count):
            shots = _guard(lambda i=i: write_game(seed + i, out))  # type: ignore[misc]
            typer.echo(f"[{i + 1}/{count}] game-{seed + i:06d}: {len(shots)} photos", err=True)
        typer.echo(f"wrote {count} games to {out}")
        return
    from aggression_vision.synth.generate import generate_dataset
    from aggression_vision.synth.params import preset as get_preset

    try:
        params = get_preset(preset)
    except ValueError as e:
        _fail(f"synth: {e}", 2)

    def progress(done: int, name: str) -> None:
        typer.echo(f"[{done}/{count}] {name}", err=True)

    paths = _guard(
        lambda: generate_dataset(out, count, seed, params, workers=workers, progress=progress)
    )
    typer.echo(f"wrote {len(paths)} samples to {out}")


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
