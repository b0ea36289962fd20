"""The engine facade: `suggest` checks its input, runs the search and returns a SearchResult.

    from burano_ai.engine import suggest
    from burano_ai.search import Limit
    result = suggest(position_json, limit=Limit(iterations=2000), seed=1)
    print(result.move, result.plan)

By default the search runs one tree shared by a thread per usable core (`threads`): the strongest
search, but not bit-reproducible (where iterations are too short to gain from threads, a few µs in a
game's last round, or other work holds the cores, it stays on one thread: `NativeSearcher.run`). Deterministic modes: ``threads=1``, or ``workers=W`` root-parallel
processes; then the same seed and iteration budget give the same result.

The position's game is read from its `format` tag (`burano-position/1`, `goofspiel-position/1`, ...) or
named (`game=`); the engine reaches it only through the registry (`burano_ai.games.get_spec`).

Every bad input raises a `ValueError` subclass from `burano_ai.core.errors` that names the offender:
`PositionError` for a position that cannot be searched (malformed, game over, a chance event pending),
`OptionError` for options (unknown seat, a seat that is not to move, a bad budget, worker or thread count).
"""

from __future__ import annotations

import dataclasses
import os
import time
from typing import Any, Callable, Sequence

from burano_ai.core.errors import BuranoError, OptionError, PositionError
from burano_ai.core.jsonio import MAX_POSITION_BYTES, parse_json_text, read_text_file
from burano_ai.core.seeds import derive
from burano_ai.core.seats import CHANCE, SEAT_LETTERS, TERMINAL, parse_seat
from burano_ai.games import DEFAULT_GAME, all_specs, get_spec
from burano_ai.search.limits import DEFAULT_SUGGEST_ITERATIONS, Limit
from burano_ai.search.ismcts import is_secret_decision
from burano_ai.search.params import Params
from burano_ai.core.game import GameFactory
from burano_ai.search.parallel import canonical_root, default_threads, run_search
from burano_ai.search.result import Candidate, PlanStep, SearchResult, build_result, rank_candidates
from burano_ai.validate import check_playable

#: Most worker processes `suggest` accepts.
MAX_WORKERS = 64
#: Most search threads `suggest` accepts.
MAX_THREADS = 64
#: Seconds between partial reports when `suggest` is given `on_report` but no `report_every`.
DEFAULT_REPORT_EVERY = 0.5
#: Shortest interval between partial reports (each one pauses the threads and copies the plan tree).
MIN_REPORT_EVERY = 0.01


def read_position_text(path: str | os.PathLike) -> str:
    """The text of a position file, read as UTF-8 (a byte-order mark is dropped).

    Raises:
        PositionError: the file cannot be read, is not UTF-8 or is larger than `MAX_POSITION_BYTES`.
    """
    return read_text_file(path, MAX_POSITION_BYTES, "position file")


def spec_for_position(data: Any, game: str | None = None):
    """The `GameSpec` of a position object: the one `game` names, else the one whose position format is
    its `format` tag, else the default game's (whose own checks then name what is wrong).

    Raises:
        OptionError: `game` names no registered game.
        PositionError: the format tag belongs to another game than `game`, or to no registered game.
    """
    tag = data.get("format") if isinstance(data, dict) else None
    if game is not None:
        spec = get_spec(game)
        if isinstance(tag, str) and tag != spec.position_format and \
                any(tag == other.position_format for other in all_specs()):
            raise PositionError(f"position.format: {tag!r} is not a {spec.title} position "
                                f"(expected {spec.position_format!r})")
        return spec
    if isinstance(tag, str):
        for spec in all_specs():
            if tag == spec.position_format:
                return spec
    return get_spec(DEFAULT_GAME)


def load_position(position: Any, game_factory: GameFactory | None = None,
                  game: str | None = None) -> tuple[Any, int | None]:
    """The one front door for positions: return (State, view seat or None).

    Args:
        position: a State (returned as it is, view None), a position JSON text (str or bytes), a position
            dict, or a path (`os.PathLike`) of a position file. Text is parsed exactly once.
        game_factory: `num_players -> Game` that builds the State; default: the game's compiled Game.
        game: the game's registry key; default: the game whose position format the `format` tag names
            (`spec_for_position`).

    Raises:
        PositionError: unreadable file, malformed JSON, an invalid position (the message names the field)
            or a position of another game than `game`.
        OptionError: `game` names no registered game.
    """
    if hasattr(position, "legal_actions") and hasattr(position, "to_json"):
        return position, None
    if isinstance(position, os.PathLike):
        position = read_position_text(position)
    if isinstance(position, (str, bytes, bytearray)):
        data = parse_json_text(position)   # size, UTF-8, nesting and integer-literal limits
    elif isinstance(position, dict):
        data = position
    else:
        raise PositionError(f"a position must be a State, a JSON text, a dict or a path, not "
                            f"{type(position).__name__}")
    spec = spec_for_position(data, game)
    state, view_seat = spec.load_position(data, game_factory)
    check_playable(state)         # the rules' part of validation: a move at every decision, outcomes at chance
    return state, view_seat


def default_params(state: Any, game: str | None = None) -> Params:
    """The default search of `state`'s game: `Params()` with the game's `GameSpec.search_defaults`."""
    return Params(**spec_for_position({"format": state.to_dict().get("format")}, game).search_defaults)


def _check_options(limit: Any, params: Any, seed: Any, workers: Any, threads: Any,
                   progress: Any, trees: Any = 1) -> tuple[Limit, Params | None]:
    if limit is None:
        limit = Limit(iterations=DEFAULT_SUGGEST_ITERATIONS)
    if not isinstance(limit, Limit):
        raise OptionError(f"limit must be a burano_ai.search.Limit, not {limit!r}")
    if params is not None:        # None: the game's default search, once the position names the game
        if not isinstance(params, Params):
            raise OptionError(f"params must be a burano_ai.search.Params, not {params!r}")
        params.validate()
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError(f"seed must be an integer, not {seed!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise OptionError(f"workers must be a whole number from 1 to {MAX_WORKERS}, not {workers!r}")
    if threads is not None:
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
            raise OptionError(f"threads must be a whole number from 1 to {MAX_THREADS}, not {threads!r}")
        if threads > 1 and workers > 1:
            raise OptionError(f"threads={threads} shares one tree and workers={workers} runs separate trees: "
                              "choose one of them")
    if isinstance(trees, bool) or not isinstance(trees, int) or not 1 <= trees <= MAX_WORKERS:
        raise OptionError(f"trees must be a whole number from 1 to {MAX_WORKERS}, not {trees!r}")
    if trees > 1 and (workers > 1 or (threads or 1) > 1):
        raise OptionError(f"trees={trees} runs independent trees on a thread each: not with threads={threads} "
                          f"or workers={workers}")
    if progress is not None and not callable(progress):
        raise OptionError(f"progress must be callable(done, total), not {progress!r}")
    return limit, params


def _check_streaming(on_report: Any, report_every: Any, stop: Any, workers: int) -> float | None:
    """Check the streaming options of `suggest`; return the report interval (None without reports)."""
    if on_report is not None and not callable(on_report):
        raise OptionError(f"on_report must be callable(SearchResult), not {on_report!r}")
    if stop is not None and not callable(getattr(stop, "is_set", None)):
        raise OptionError(f"stop must be a threading.Event (something with is_set()), not {stop!r}")
    if report_every is not None:
        if (isinstance(report_every, bool) or not isinstance(report_every, (int, float))
                or not MIN_REPORT_EVERY <= report_every <= 86_400):
            raise OptionError(f"report_every must be a number of seconds from {MIN_REPORT_EVERY} to 86400, "
                              f"not {report_every!r}")
    if workers > 1 and (on_report is not None or stop is not None):
        raise OptionError(f"workers={workers}: searches in worker processes cannot report while they run or be "
                          "stopped early; use threads")
    if on_report is None:
        return None
    return float(report_every) if report_every is not None else DEFAULT_REPORT_EVERY


def _move_ids(moves: Any, what: str, state, legal: list[int], texts: dict[str, int]) -> set[int]:
    """The legal action ids named by `moves` (move texts or action ids); OptionError naming any other."""
    if isinstance(moves, (str, bytes)) or not hasattr(moves, "__iter__"):
        raise OptionError(f"{what} must be a list of moves (texts or action ids), not {moves!r}")
    out = set()
    for move in moves:
        if isinstance(move, bool) or not isinstance(move, (int, str)):
            raise OptionError(f"{what}: a move is a text or an action id, not {move!r}")
        if isinstance(move, int):
            if move not in legal:
                raise OptionError(f"{what}: action {move} is not a legal move here")
            out.add(move)
            continue
        action = texts.get(" ".join(move.split()))
        if action is None:      # another spelling the rules' parser knows (letter case, order of a pair, ...)
            try:
                parsed = state.string_to_action(move)
            except (BuranoError, ValueError):
                parsed = None
            action = parsed if parsed in legal else None
        if action is None:
            shown = ", ".join(sorted(texts)[:12]) + (", ..." if len(texts) > 12 else "")
            raise OptionError(f"{what}: {move!r} is not a legal move here (legal: {shown})")
        out.add(action)
    return out


def root_moves(state, allow_moves: Any = None, avoid_moves: Any = None) -> list[int] | None:
    """The root moves a search may choose: the legal moves of `state`, kept to `allow_moves` and without
    `avoid_moves` (move texts or action ids), in legal order; None when neither is given.

    Raises:
        OptionError: a named move is not legal here, or no move is left.
    """
    if allow_moves is None and avoid_moves is None:
        return None
    legal = list(state.legal_actions())
    texts = {state.action_to_string(a): a for a in legal}
    allowed = set(legal) if allow_moves is None else _move_ids(allow_moves, "allow_moves", state, legal, texts)
    avoided = set() if avoid_moves is None else _move_ids(avoid_moves, "avoid_moves", state, legal, texts)
    kept = [a for a in legal if a in allowed and a not in avoided]
    if not kept:
        raise OptionError("allow_moves / avoid_moves leave no move to search")
    return kept


def suggest(position: Any, seat: int | str | None = None, limit: Limit | None = None, params: Params | None = None,
            seed: int = 0, workers: int = 1, progress: Callable[[int, int | None], None] | None = None,
            game_factory: GameFactory | None = None, view: int | str | None = None,
            threads: int | None = None, on_report: Callable[[SearchResult], None] | None = None,
            report_every: float | None = None, stop: Any = None, allow_moves: Any = None,
            avoid_moves: Any = None, game: str | None = None, trees: int = 1) -> SearchResult:
    """Search the position for the seat to move and return the suggested move with its statistics.

    Args:
        position: a State, or a position JSON text or dict (full, or the one-seat view of the searching
            seat); the search reads only what the seat can know either way.
        seat: the searching seat (0-based or a letter); default: the seat to move. It must be to move.
        limit: iterations and/or seconds; default `Limit(iterations=DEFAULT_SUGGEST_ITERATIONS)` (10,000).
        params: search tunables; default the game's default search (`Params(**GameSpec.search_defaults)`).
        seed: every random choice of the search derives from it.
        workers: root-parallel worker processes, each with its own tree (deterministic).
        progress: called as `progress(iterations done, total or None)` during the search.
        game_factory: `num_players -> Game` used to load JSON (and in workers); default: the game's
            compiled Game (for a State: its own Game class).
        view: when `position` is a State loaded from a one-seat view (`load_position`), that seat: the
            State is then already the search root (a view of another seat is refused).
        threads: threads sharing one native tree (not bit-reproducible when > 1); default: every usable
            core when the native tree runs the search and `workers` is 1, else 1. Asked for more than 1
            where the Python tree runs, the search runs one thread and says so in the notes.
        on_report: called with a partial `SearchResult` (`partial` True: the candidates so far,
            iterations, elapsed) every `report_every` seconds while the search runs, in the calling
            thread; the search pauses meanwhile (threads finish their iterations in flight). Not after
            the end: the return value is the final result. An exception raised by `on_report` ends the
            search and propagates.
        report_every: seconds between reports (default `DEFAULT_REPORT_EVERY`, at least 0.01).
        stop: a `threading.Event`; once set (from any thread, or a signal handler) the search ends
            within ~10 ms plus the iterations in flight and `suggest` returns the best so far
            (`stopped` True, with a note).
        allow_moves / avoid_moves: move texts (as `state.action_to_string` writes them) or action ids:
            the root moves the search may choose (only these / all but these).
        game: the game of a position text or dict (`load_position`); default: its `format` tag's.
        trees: independent trees searched in this process, a thread each, with the seeds of root-parallel
            workers (`search.parallel`); they stream reports and stop as one search. When they choose
            different moves the result says so (`SearchResult.tree_moves`) and reports those moves tied.
            Not with `threads` or `workers` above 1.

    A search with `on_report`, `stop` or both is the same search as without them: with one thread the
    same seed and iteration budget give the same final result. Worker processes take neither.

    Every search runs at least one iteration (per worker), even when `limit.seconds` is spent first.

    Raises:
        PositionError: malformed position, game over, a chance event pending, or no legal move.
        OptionError: unknown seat, a seat that is not to move, a view of another seat, a bad limit,
            params, seed, worker, thread or tree count, two of threads, workers and trees above 1,
            a bad `on_report`, `report_every` or `stop`, streaming with workers, a move in `allow_moves` / `avoid_moves`
            that is not legal, or no move left by them.
    """
    start = time.perf_counter()
    limit, params = _check_options(limit, params, seed, workers, threads, progress, trees)
    report_every = _check_streaming(on_report, report_every, stop, workers)
    state, view_seat = load_position(position, game_factory, game)
    if params is None:
        params = default_params(state, game)
    n = state.num_players
    if view is not None:
        if view_seat is not None:
            raise OptionError("view is only for a State: a position text or dict says its own view")
        view_seat = parse_seat(view, n, what="view")
    to_move = state.current_player()
    if to_move == TERMINAL or state.is_terminal():
        raise PositionError("the game is over: there is no move to suggest")
    if to_move == CHANCE:
        raise PositionError("a chance event is pending (a draw, a reveal, a shuffle): "
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
    if not legal:
        raise PositionError(f"seat {SEAT_LETTERS[seat]} is to move but has no legal move: "
                            "the position cannot arise in a game")
    allowed = root_moves(state, allow_moves, avoid_moves)
    if len(legal) == 1:
        only = legal[0]
        text = state.action_to_string(only)
        elapsed = time.perf_counter() - start
        step = PlanStep(only, text, 0)
        return SearchResult(seat=seat, action=only, move=text,
                            candidates=(Candidate(only, text, 0, 0.0, 0.0, 0.0, 0.0, plan=(step,)),),
                            pv=(step,), iterations=0, elapsed=elapsed,
                            iterations_per_second=0.0, seed=seed, workers=workers,
                            notes=(f"only one legal move: {text}",), tie_margin=params.tie_margin)
    # A one-seat view of the searching seat is its own canonical root (loading its view again gives
    # the same position); anything else is reduced to the seat's view first.
    root = state if view_seat == seat else canonical_root(state, seat, game_factory)
    if threads is None:
        threads = 1 if trees > 1 else default_threads(root, params, workers)
    # A simultaneous choice searched with the other seats' bandits: its visits are a mixed strategy (`tied`).
    mixed = params.secret != "prior" and is_secret_decision(root)

    def on_summary(partial: dict) -> None:
        on_report(build_result(partial, seat, seed, workers, time.perf_counter() - start,
                               root.action_to_string, tuple(partial["notes"]), threads=partial["threads"],
                               selection=params.final_selection, partial=True,
                               chance_kind_name=root.chance_kind_name, trees=trees, tie_margin=params.tie_margin,
                               mixed=mixed))
    summary = run_search(root, seat, limit, params, seed=seed, workers=workers, progress=progress,
                         game_factory=game_factory, threads=threads,
                         root_actions=None if allowed is None else tuple(allowed), stop=stop,
                         on_summary=None if on_report is None else on_summary, report_every=report_every,
                         trees=trees)
    elapsed = time.perf_counter() - start
    if summary["iterations"] < 1:   # run_search runs at least one; an answer without search is a bug
        raise RuntimeError("the search ran no iteration")
    notes = list(summary["notes"])
    stopped = bool(summary.get("stopped"))
    if stopped:
        notes.append(f"stopped after {summary['iterations']} iterations: the best move so far")
    elif limit.iterations is not None and summary["iterations"] < limit.iterations:
        notes.append(f"time limit of {limit.seconds} s reached after {summary['iterations']} of "
                     f"{limit.iterations} iterations")
    if allowed is not None and len(allowed) < len(legal):
        notes.append(f"searched {len(allowed)} of {len(legal)} legal moves (allow / avoid)")
    if params.result_note:
        notes.append(params.result_note)
    return build_result(summary, seat, seed, workers, elapsed, root.action_to_string, tuple(notes),
                        threads=summary["threads"], selection=params.final_selection, stopped=stopped,
                        chance_kind_name=root.chance_kind_name, trees=trees, tie_margin=params.tie_margin,
                        mixed=mixed)


def with_runner_ups_checked(result: SearchResult, checks: list[SearchResult], selection: str = "lcb") -> SearchResult:
    """`result` with runner-ups replaced by their own searches (`checks`: each a `suggest` restricted to one
    runner-up by `allow_moves`), the candidates ranked again, a note per check.

    Why: a tree starves a move whose value shows only deeper. Its mean stays low because it got few visits,
    while the move the tree locked onto got the depth that shows its value (issue 33: on the README's
    example both roofs reach a 0.58 value when searched deeply, and the one left behind shows 0.39-0.41).
    Searched on its own for as many iterations as the suggested move had, a runner-up is compared at a
    like depth, so the suggestion and its ties (`SearchResult.tied`) are honest about it.
    """
    best = result.best
    checked: dict[int, Candidate] = {}
    notes = list(result.notes)
    iterations = result.iterations
    elapsed = result.elapsed
    for own in checks:
        mine = own.best
        if mine is None or best is None:
            continue
        before = next((c for c in result.candidates if c.action == mine.action), None)
        checked[mine.action] = mine
        iterations += own.iterations
        elapsed += own.elapsed
        was = ("" if before is None else
               f" (it had {before.value:.3f} from {before.visits:,} visits beside {best.move}, {best.value:.3f})")
        notes.append(f"checked {mine.move} on its own: {mine.visits:,} iterations, value {mine.value:.3f}{was}")
    if not checked:
        return result
    candidates = rank_candidates([checked.get(c.action, c) for c in result.candidates], selection)
    first = candidates[0]
    return dataclasses.replace(result, action=first.action, move=first.move, candidates=tuple(candidates),
                               pv=first.plan, iterations=iterations, elapsed=elapsed,
                               iterations_per_second=iterations / elapsed if elapsed > 0 else 0.0,
                               notes=tuple(notes))


#: The note of a result whose runner-ups `check_runner_ups` did not search on their own (a secret simultaneous choice).
SECRET_NOT_CHECKED = ("runner-ups not searched on their own: at a secret simultaneous choice the other seats' "
                      "bandits would learn the move searched alone")
#: The key that derives the seed of a runner-up's own search (`check_runner_ups`) from the suggestion's seed.
CHECK_SEED_KEY = 0x76657269


def check_runner_ups(position: Any, result: SearchResult, count: int = 2, seconds: float | None = None,
                     stop: Any = None, on_check: Callable[[int, int, Candidate], None] | None = None,
                     runners: Sequence[Candidate] | None = None, **options: Any) -> SearchResult:
    """`result` (a `suggest` of `position`) with its `count` runner-ups of highest mean value each searched on
    its own, as deep as the suggested move was, and the candidates ranked again (`with_runner_ups_checked`).

    Not at a secret simultaneous choice searched with the other seats' bandits (`Params.secret` "ucb" or
    "exp3"; `result.mixed`: Goofspiel's bids): there the other seats' bandits would learn that the move searched alone is coming and value it
    against opponents who know, unlike the moves of the search itself (measured: such checks left splits
    between seeds that no tie margin up to 0.3 reported, docs/strength.md, "Simultaneous bids"). The result
    is returned unchecked, with the note SECRET_NOT_CHECKED.

    Runner-ups are picked by mean value, not rank: a starved move has few visits, so the ranking lists it
    low, but its mean already stands out among the moves left behind. Each check is `suggest` restricted to
    that move (`allow_moves`) for the suggested move's visits (at most `seconds` each, if given), with a seed
    derived from `result.seed` (`CHECK_SEED_KEY`), and otherwise `options` (the keyword arguments of the
    suggestion's own `suggest`: params, seat, threads, trees, game...). `stop` (a `threading.Event`) ends the
    checks early; those done still count. `on_check(k, count, runner)` is called before the k-th check (from
    0), e.g. for a live line. `runners`: check these candidates (at most `count`) instead of those of highest
    mean value. `burano suggest` without a budget runs this once its answer settled, and on the starved
    runner-ups (`search.result.starved_candidates`) when it did not.
    """
    if count < 0:
        raise OptionError(f"runner-ups to check must be 0 or more, not {count}")
    best = result.best
    if best is None or len(result.candidates) < 2 or count == 0:
        return result
    if result.mixed:
        return dataclasses.replace(result, notes=result.notes + (SECRET_NOT_CHECKED,))
    if runners is None:
        runners = sorted(result.candidates[1:], key=lambda c: (-c.value, -c.visits, c.action))
    runners = list(runners)[:count]
    options = {k: v for k, v in options.items() if k not in ("on_report", "report_every", "progress")}
    checks = []
    for k, runner in enumerate(runners):
        if stop is not None and stop.is_set():
            break
        if on_check is not None:
            on_check(k, len(runners), runner)
        checks.append(suggest(position, **{**options, "stop": stop, "limit": Limit(iterations=max(best.visits, 1),
                                                                                     seconds=seconds),
                                           "seed": derive(result.seed, CHECK_SEED_KEY, k),
                                           "allow_moves": [runner.action], "avoid_moves": None}))
    params = options.get("params")
    return with_runner_ups_checked(result, checks, params.final_selection if params is not None else "lcb")
