"""The engine facade: `suggest` checks its input, runs the search and returns a SearchResult.

    from burano_ai.engine import suggest
    from burano_ai.search import Limit
    result = suggest(position_json, limit=Limit(iterations=2000), seed=1, workers=2)
    print(result.move, result.plan)

Every bad input raises a `ValueError` subclass from `burano_ai.errors` that names the offender:
`PositionError` for a position that cannot be searched (malformed, game over, a chance event pending),
`OptionError` for options (unknown seat, a seat that is not to move, a bad budget or worker count).
"""

from __future__ import annotations

import json
import time
from typing import Any, Callable

from .data.colours import SEAT_LETTERS
from .errors import OptionError, PositionError
from .search.ismcts import CHANCE, TERMINAL
from .search.limits import DEFAULT_ITERATIONS, Limit
from .search.params import Params
from .search.parallel import GameFactory, canonical_root, default_game_factory, run_search
from .search.result import Candidate, PlanStep, SearchResult, build_result

#: Most worker processes `suggest` accepts.
MAX_WORKERS = 64


def load_position(position: Any, game_factory: GameFactory | None = None) -> tuple[Any, int | None]:
    """Return (state, view seat or None) for a State, a position JSON text or a position dict.

    Raises:
        PositionError: the text is not valid position JSON, or the position is invalid.
    """
    if hasattr(position, "legal_actions") and hasattr(position, "to_json"):
        return position, None
    if isinstance(position, (bytes, bytearray)):
        position = position.decode("utf-8", errors="replace")
    if isinstance(position, str):
        try:
            data = json.loads(position)
        except json.JSONDecodeError as exc:
            raise PositionError(f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
        text = position
    elif isinstance(position, dict):
        data = position
        text = json.dumps(position)
    else:
        raise PositionError(f"a position must be a State, a JSON text or a dict, not {type(position).__name__}")
    if not isinstance(data, dict):
        raise PositionError("position: expected a JSON object")
    players = data.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise PositionError(f"position.players: expected 2, 3 or 4, got {players!r}")
    factory = game_factory or default_game_factory()
    state = factory(players).state_from_json(text)
    view = data.get("view")
    view_seat = None
    if view is not None:
        view_seat = parse_seat(view, players, what="position.view", error=PositionError)
    return state, view_seat


def parse_seat(seat: Any, num_players: int, what: str = "seat", error: type[ValueError] = OptionError) -> int:
    """Return a seat index from 0-based int or a seat letter (`A`..`D`, any case)."""
    letters = SEAT_LETTERS[:num_players]
    if isinstance(seat, str) and len(seat.strip()) == 1 and seat.strip().upper() in letters:
        return letters.index(seat.strip().upper())
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < num_players:
        return seat
    raise error(f"unknown {what} {seat!r}: a {num_players}-player game has seats "
                f"{', '.join(letters)} (or 0..{num_players - 1})")


def _check_options(limit: Any, params: Any, seed: Any, workers: Any, progress: Any) -> tuple[Limit, Params]:
    if limit is None:
        limit = Limit(iterations=DEFAULT_ITERATIONS)
    if not isinstance(limit, Limit):
        raise OptionError(f"limit must be a burano_ai.search.Limit, not {limit!r}")
    if params is None:
        params = Params()
    if not isinstance(params, Params):
        raise OptionError(f"params must be a burano_ai.search.Params, not {params!r}")
    params.validate()
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError(f"seed must be an integer, not {seed!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise OptionError(f"workers must be a whole number from 1 to {MAX_WORKERS}, not {workers!r}")
    if progress is not None and not callable(progress):
        raise OptionError(f"progress must be callable(done, total), not {progress!r}")
    return limit, params


def suggest(position: Any, seat: int | str | None = None, limit: Limit | None = None, params: Params | None = None,
            seed: int = 0, workers: int = 1, progress: Callable[[int, int | None], None] | None = None,
            game_factory: GameFactory | None = None) -> SearchResult:
    """Search the position for the seat to move and return the suggested move with its statistics.

    Args:
        position: a State, or a position JSON text or dict (full, or the one-seat view of the searching
            seat); the search reads only what the seat can know either way.
        seat: the searching seat (0-based or a letter); default: the seat to move. It must be to move.
        limit: iterations and/or seconds; default `Limit(iterations=1000)`.
        params: search tunables; default `Params()`.
        seed: every random choice of the search derives from it.
        workers: root-parallel worker processes.
        progress: called as `progress(iterations done, total or None)` during the search.
        game_factory: `num_players -> Game` used to load JSON (and in workers); default: the compiled
            `burano_ai.Game` if built, else the reference Game (for a State: its own Game class).

    Raises:
        PositionError: malformed position, game over, or a chance event pending.
        OptionError: unknown seat, a seat that is not to move, a view of another seat, a bad limit,
            params, seed or worker count.
    """
    start = time.perf_counter()
    limit, params = _check_options(limit, params, seed, workers, progress)
    state, view_seat = load_position(position, game_factory)
    n = state.num_players
    to_move = state.current_player()
    if to_move == TERMINAL or state.is_terminal():
        raise PositionError("the game is over: there is no move to suggest")
    if to_move == CHANCE:
        raise PositionError("a chance event is pending (a draw, a roof tile or a marker shuffle): "
                            "apply its outcome before asking for a move")
    if seat is None:
        seat = to_move
    seat = parse_seat(seat, n)
    if seat != to_move:
        raise OptionError(f"seat {SEAT_LETTERS[seat]} is not to move: seat {SEAT_LETTERS[to_move]} is")
    if view_seat is not None and view_seat != seat:
        raise OptionError(f"the position is seat {SEAT_LETTERS[view_seat]}'s view; it cannot be searched for "
                          f"seat {SEAT_LETTERS[seat]}")
    legal = state.legal_actions()
    if len(legal) == 1:
        only = legal[0]
        text = state.action_to_string(only)
        elapsed = time.perf_counter() - start
        return SearchResult(seat=seat, action=only, move=text,
                            candidates=(Candidate(only, text, 0, 0.0, 0.0, 0.0, 0.0),),
                            pv=(PlanStep(only, text, 0),), iterations=0, elapsed=elapsed,
                            iterations_per_second=0.0, seed=seed, workers=workers,
                            notes=(f"only one legal move: {text}",))
    root = canonical_root(state, seat, game_factory)
    summary = run_search(root, seat, limit, params, seed=seed, workers=workers, progress=progress,
                         game_factory=game_factory)
    elapsed = time.perf_counter() - start
    notes = []
    if limit.iterations is not None and summary["iterations"] < limit.iterations:
        notes.append(f"time limit of {limit.seconds} s reached after {summary['iterations']} of "
                     f"{limit.iterations} iterations")
    if params.horizon_turns is not None:
        notes.append(f"win chances and VP are estimates at the end of the seat's turn {params.horizon_turns} "
                     f"from now, not final results")
    elif params.evaluator is not None:
        notes.append("win chances and VP are the evaluator's estimates at the search leaves")
    return build_result(summary, seat, seed, workers, elapsed, root.action_to_string, tuple(notes))
