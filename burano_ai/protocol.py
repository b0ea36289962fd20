"""`burano engine`: the JSON-lines analysis protocol (docs/engine-protocol.md), in the spirit of KataGo's
analysis engine.

One JSON object per line on stdin, one per line on stdout. A *query* asks for an analysis of one position
of any registered game (`parse_query` checks it; its `game`, default burano, or the game its position's
`format` tag names; the server reaches games only through `burano_ai.games.get_spec`); an *action*
controls the engine (`query_version`, `query_games`, `terminate`, `terminate_all`, `quit`). Every query
ends with exactly one final line: its final report (``"isDuringSearch": false``) or an error line
(``{"id": ..., "error": "...", "field": ...}``); before it, partial reports (``"isDuringSearch": true``)
every ``reportDuringSearchEvery`` seconds when asked.

Threads: `EngineServer.serve` reads the input in a thread of its own, so that a `terminate` reaches a
running search at once and control lines are answered at once; a loader thread checks each query and
loads its position (a record's replay may take seconds: the reader is never blocked by it) and queues
it; the calling thread runs the queued searches one after another (`engine.suggest` with its streaming
options: `on_report`, `stop`, `allow_moves`, `avoid_moves`). The queries waiting (loading or queued) are
bounded (`max_queue`, `burano engine --max-queue`): one more is answered at once with an error line. Output
lines are written whole, under a lock, and flushed. Nothing but protocol lines goes to stdout:
`serve_stdio` moves the process's file descriptor 1 to stderr before it serves, so that a stray print
from any library cannot corrupt the stream; logs go to stderr.

End of input: the queued queries are finished, then `serve` returns. `quit`: every running and queued
query is terminated (each still sends its final report), then `serve` returns.
"""

from __future__ import annotations

import collections
import difflib
import json
import logging
import math
import os
import sys
import threading
import traceback
from dataclasses import dataclass, field
from typing import Any, BinaryIO, TextIO

from burano_ai import __version__
from burano_ai.core.errors import BuranoError, OptionError, PositionError
from burano_ai.core.game import player_range_text
from burano_ai.core.jsonio import no_duplicate_keys
from burano_ai.core.options import game_options_json, make_game, parse_game_options
from burano_ai.core.people import offered_actions
from burano_ai.core.seats import CHANCE, SEAT_LETTERS, TERMINAL, parse_seat
from burano_ai.engine import MAX_THREADS, load_position, root_moves, spec_for_position, suggest
from burano_ai.games import DEFAULT_GAME, all_specs, get_spec, implementation_of
from burano_ai.record import FORMAT as RECORD_FORMAT
from burano_ai.record import (UNSEEN, GameRecord, RecordError, _did_you_mean, _hidden_options,
                               apply_moves, describe_step, play_in_worlds)
from burano_ai.search.limits import DEFAULT_SUGGEST_ITERATIONS, MAX_ITERATIONS, MAX_SECONDS, Limit
from burano_ai.search.result import SearchResult

log = logging.getLogger("burano_ai.protocol")

#: Exit code of `burano engine` when the reader of its output went away (128 + SIGPIPE, as the CLI's).
CLOSED_PIPE_EXIT = 141
#: The protocol's version (`query_version` answers it); it changes when a field changes meaning.
PROTOCOL_VERSION = 1
#: Longest input line read, in bytes (a game record of a 4-player game is about 150 kB; a position 10 kB).
MAX_LINE_BYTES = 4 << 20
#: Deepest nesting of a line's JSON (a query holding a record with annotated steps is 5 deep).
MAX_LINE_NESTING = 16
#: Candidates listed when a query does not say `top`.
DEFAULT_TOP = 10
#: Most candidates a query may ask for.
MAX_TOP = 2048
#: Shortest `reportDuringSearchEvery`, in seconds.
MIN_REPORT_EVERY = 0.01
#: Longest id, in characters.
MAX_ID_LENGTH = 256
#: Most queries waiting (being loaded or queued, not yet searching) by default; `burano engine --max-queue`.
#: A query over it is answered at once with an error line naming the limit: the queue never grows unbounded.
DEFAULT_MAX_QUEUE = 1000
#: Most move applications spent filling the `?` steps of a moves form with a view (`apply_view_moves`): a few
#: seconds; a fill that needs more is answered with an error naming what to do.
MAX_VIEW_FILL_STEPS = 20_000
#: The largest `--max-queue` an operator may set.
MAX_QUEUE_LIMIT = 100_000
#: Most bytes of query lines waiting for their position to load (their parsed JSON is held until then).
MAX_PENDING_BYTES = 16 << 20
#: The fields of a query, and of each action.
QUERY_FIELDS = ("id", "game", "position", "step", "seat", "maxIterations", "maxTime", "reportDuringSearchEvery",
                "allowMoves", "avoidMoves", "top", "seed", "includePlans", "threads", "eval")
ACTION_FIELDS = {"query_version": ("id", "action"), "query_games": ("id", "action"),
                 "terminate": ("id", "action", "terminateId"),
                 "terminate_all": ("id", "action"), "quit": ("id", "action")}
#: What a field of KataGo's analysis engine is called here.
KATAGO_NAMES = {"maxVisits": "maxIterations", "maxPlayouts": "maxIterations", "analyzeTurns": "step",
                "moves": "position", "initialStones": "position", "includePolicy": "includePlans",
                "includePVVisits": "includePlans", "overrideSettings": "threads"}
#: The fields of the `{"players": N, "seed": S, "moves": [...]}` position form.
GAME_FIELDS = ("players", "seed", "moves", "view", "options")


class QueryError(OptionError):
    """A query or action line is malformed; `field` names the offending field (None: the line itself)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


# ------------------------------------------------------------------------------------------------
# Checking a line


@dataclass
class Job:
    """A checked query, ready to search."""

    id: str | int
    state: Any
    view: int | None                 # the position's view seat (a position object with "view")
    seat: int
    limit: Limit
    report_every: float | None
    allow_moves: list[int] | None
    top: int
    seed: int
    include_plans: bool
    threads: int | None
    params: Any = None               # the game's default search with the query's "eval", or None
    stop: threading.Event = field(default_factory=threading.Event)


def parse_line(raw: bytes | str) -> Any:
    """The JSON value of one input line (QueryError naming what is wrong: UTF-8, JSON, nesting)."""
    if isinstance(raw, (bytes, bytearray)):
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise QueryError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    try:
        data = json.loads(raw, object_pairs_hook=no_duplicate_keys)
    except json.JSONDecodeError as exc:
        raise QueryError(f"malformed JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise QueryError(f"malformed JSON: nested deeper than {MAX_LINE_NESTING} levels") from None
    except ValueError as exc:    # an integer literal beyond Python's digit limit, or a duplicate key
        raise QueryError(f"malformed JSON: {str(exc).splitlines()[0][:160]}") from None
    if _depth(data) > MAX_LINE_NESTING:
        raise QueryError(f"malformed JSON: nested deeper than {MAX_LINE_NESTING} levels")
    return data


def scan_id(raw: bytes | str) -> str | int | None:
    """The id of a line that cannot be parsed whole (too deep, malformed further on), when its top-level
    object has a readable `"id"` before the trouble; else None.

    A scan, not a parse: strings are skipped, brackets counted, and only at depth 1 a key `"id"` followed by
    `:` and a scalar value is read (`json.JSONDecoder.raw_decode` of a string or number recurses nowhere).
    """
    if isinstance(raw, (bytes, bytearray)):
        raw = bytes(raw).decode("utf-8", errors="replace")
    if not raw.lstrip().startswith("{"):
        return None
    decoder = json.JSONDecoder()
    depth = 0
    i, n = 0, len(raw)
    expect_key = False
    while i < n:
        c = raw[i]
        if c == '"':
            try:
                text, end = decoder.raw_decode(raw, i)
            except ValueError:
                return None
            if depth == 1 and expect_key and text == "id":
                j = end
                while j < n and raw[j] in " \t\r\n":
                    j += 1
                if j < n and raw[j] == ":":
                    j += 1
                    while j < n and raw[j] in " \t\r\n":
                        j += 1
                    if j < n and raw[j] not in "[{":
                        try:
                            value, _ = decoder.raw_decode(raw, j)
                        except (ValueError, RecursionError):
                            return None
                        return value if _is_id(value) else None
                return None
            expect_key = False
            i = end
            continue
        if c in "[{":
            depth += 1
            expect_key = c == "{" and depth == 1
        elif c in "]}":
            depth -= 1
            if depth <= 0:
                return None
        elif c == "," and depth == 1:
            expect_key = True
        i += 1
    return None


def _depth(value: Any) -> int:
    """Nesting depth of a JSON value (a scalar is 0), without recursion; stops counting past the limit."""
    if not isinstance(value, (dict, list)):
        return 0
    deepest = 1
    level = [value]
    while level and deepest <= MAX_LINE_NESTING:
        inner = []
        for item in level:
            for x in (item.values() if isinstance(item, dict) else item):
                if isinstance(x, (dict, list)):
                    inner.append(x)
        if inner:
            deepest += 1
        level = inner
    return deepest


def query_id(data: Any) -> str | int | None:
    """The line's id when it has a usable one (to label an error), else None."""
    if isinstance(data, dict):
        value = data.get("id")
        if _is_id(value):
            return value
    return None


def _is_id(value: Any) -> bool:
    return ((isinstance(value, str) and 0 < len(value) <= MAX_ID_LENGTH)
            or (isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**63))


def _check_fields(data: dict, allowed: tuple[str, ...], where: str = "") -> None:
    for key in data:
        if key not in allowed:
            close = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
            if not close and not where and KATAGO_NAMES.get(key) in allowed:
                close = [KATAGO_NAMES[key]]
            hint = f" - did you mean {close[0]!r}?" if close else f" (known: {', '.join(allowed)})"
            raise QueryError(f"unknown field {where + key[:60]!r}{hint}", f"{where}{key[:60]}")


def check_id(data: Any) -> str | int:
    """The id of a line (a JSON object)."""
    if not isinstance(data, dict):
        raise QueryError(f"a line must be a JSON object, not {_json_type(data)}")
    if "id" not in data:
        raise QueryError("missing field 'id'", "id")
    value = data["id"]
    if not _is_id(value):
        raise QueryError(f"id must be a string of 1-{MAX_ID_LENGTH} characters or an integer, not "
                         f"{_shown(value)}", "id")
    return value


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, (dict, list)) else _json_type(value)
    return text if len(text) <= 60 else text[:57] + "..."


_MISSING = object()


def _whole(data: dict, key: str, low: int, high: int, default: Any = None, where: str = "") -> Any:
    value = data.get(key, _MISSING)
    if value is _MISSING:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise QueryError(f"{where}{key} must be a whole number from {low} to {high}, not {_shown(value)}",
                         f"{where}{key}")
    return value


def _seconds(data: dict, key: str, low: float, high: float) -> float | None:
    value = data.get(key, _MISSING)
    if value is _MISSING:
        return None
    if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
            or not low <= value <= high):
        raise QueryError(f"{key} must be a number of seconds from {low} to {high}, not {_shown(value)}", key)
    return float(value)


def _moves(data: dict, key: str) -> list | None:
    if key not in data:
        return None
    value = data[key]
    if not isinstance(value, list) or not all(isinstance(m, str) or (isinstance(m, int) and not isinstance(m, bool))
                                              for m in value):
        raise QueryError(f"{key} must be an array of move texts, not {_shown(value)}", key)
    return value


def query_game(data: dict) -> str | None:
    """The query's `game` (a registered game's key), or None when it names none."""
    if "game" not in data:
        return None
    game = data["game"]
    if not isinstance(game, str):
        raise QueryError(f"game must be a game's name, not {_shown(game)}", "game")
    try:
        get_spec(game)
    except OptionError as exc:
        raise QueryError(str(exc), "game") from None
    return game


def games_answer() -> list[dict[str, Any]]:
    """`query_games`: every registered game, the default first, with its player range and formats."""
    return [{"game": spec.key, "title": spec.title, "minPlayers": spec.min_players, "maxPlayers": spec.max_players,
             "defaultPlayers": spec.default_players, "positionFormat": spec.position_format,
             "recordFormat": RECORD_FORMAT, "default": spec.key == DEFAULT_GAME,
             "options": game_options_json(spec)} for spec in all_specs()]


def _factory_of(game: str, game_factory):
    """The factory that builds `game`'s States: the server's own for the default game (`burano engine
    --engine reference`), else None (the game's compiled Game)."""
    return game_factory if game == DEFAULT_GAME else None


def load_query_position(data: dict, game_factory=None, default_game: str = DEFAULT_GAME
                        ) -> tuple[Any, int | None, bool]:
    """(State, view seat or None, whether the State is already the view's root) of a query's position.

    `game_factory` builds the default game's States (other games use their compiled Game).

    The forms: a position object (its game's position format, e.g. `"format": "burano-position/1"`, full
    or one-seat view); a game record (`"format": "burano-game/1"`) with the query's `step` (default: after
    every step); a deal and moves, `{"players": N, "seed": S, "options": {...}?, "moves": [...], "view": "B"?}`
    (`options`: the game's options besides the player count, `core.options.parse_game_options`; moves are move
    and chance-outcome texts; with `view`, `?` stands for a step that seat cannot see). The game is the
    query's `game` when it names one (a position or record of another game is an error), else the one
    the position's format tag or the record's `game` names, else `default_game` (burano; `burano engine
    --game`).
    """
    game = query_game(data)
    if "position" not in data:
        raise QueryError("missing field 'position' (a position object, a game record, or "
                         "{\"players\": N, \"seed\": S, \"moves\": [...]})", "position")
    position = data["position"]
    if not isinstance(position, dict):
        raise QueryError(f"position must be an object, not {_json_type(position)}", "position")
    kind = position.get("format")
    if "step" in data and kind != RECORD_FORMAT:
        raise QueryError("step is only for a game record (a position with \"format\": "
                         f"\"{RECORD_FORMAT}\")", "step")
    try:
        if kind == RECORD_FORMAT:
            record = GameRecord.from_dict(position)
            if game is not None and record.game != game:
                raise QueryError(f"position: a record of {record.game!r}, not of {game!r}", "position")
            step = _whole(data, "step", 0, len(record.steps), None)
            state = record.replay(step, game_factory=_factory_of(record.game, game_factory))
            view = None if record.view is None else parse_seat(record.view, record.players, what="record.view",
                                                               error=PositionError)
            return state, view, False
        # The deal form: no format tag and only its own fields (seed and moves may be left out: seed 0, no moves).
        if kind is None and ("moves" in position or (position and set(position) <= set(GAME_FIELDS))):
            _check_fields(position, GAME_FIELDS, "position.")
            spec = get_spec(game or default_game)
            players = _whole(position, "players", spec.min_players, spec.max_players, None, "position.")
            if players is None:
                raise QueryError(f"position.players ({player_range_text(spec)}) is missing", "position.players")
            seed = position.get("seed", 0)
            if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
                raise QueryError(f"position.seed must be a whole number from 0 to 2**63-1, not {_shown(seed)}",
                                 "position.seed")
            moves = position.get("moves", [])
            if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
                raise QueryError(f"position.moves must be an array of move texts, not {_shown(moves)}",
                                 "position.moves")
            view = None
            if position.get("view") is not None:
                if not isinstance(position["view"], str):
                    raise QueryError(f"position.view must be a seat letter, not {_shown(position['view'])}",
                                     "position.view")
                view = parse_seat(position["view"], players, what="position.view", error=PositionError)
            try:
                options = parse_game_options(spec, position.get("options"), "position.options")
                make_game(spec, players, options, where="position.options")      # the options together (a first player beyond the players)
            except OptionError as exc:
                raise QueryError(str(exc), "position.options") from None
            start = GameRecord.new(players, seed, game=spec.key, options=options).initial_state(
                _factory_of(spec.key, game_factory))
            if view is None:
                state, _steps = apply_moves(start, moves, None, game=spec.key)
            else:
                state = apply_view_moves(start, moves, view, game=spec.key)
            return state, view, False
        spec = spec_for_position(position, game)
        state, view = load_position(position, _factory_of(spec.key, game_factory), spec.key)
        return state, view, True
    except QueryError:
        raise
    except BuranoError as exc:
        raise QueryError(str(exc), "position") from None


def apply_view_moves(start, moves: list[str], view: int, game: str = DEFAULT_GAME,
                     budget: int = MAX_VIEW_FILL_STEPS):
    """The deal `start` after `moves` as seat `view` knows them (the moves form with `"view"`): a copy.

    A move may be `?` (or one of the game's `unseen_texts`) for a step the seat could not see; every other
    text is played as written (a step the seat saw only later -- in Burano a pyramid, shown to all once
    finished -- may be named). The `?` steps are filled as a one-seat record export is replayed
    (`record.play_in_worlds`): each with an outcome that fits (`record._hidden_options`), and where a later
    named move cannot be played in the world so made up, that world is redrawn from what the seat knows
    until it can -- never a fabricated choice that makes another seat's later public move "illegal", and
    never a search over the fills. The seat cannot tell the fills apart: its view is the same whichever.

    Raises:
        QueryError (field `position.moves`): a move that cannot be played whatever the `?` steps were
            (named), a `?` where the seat sees the step, or more than `budget` applications spent.
    """
    letter = SEAT_LETTERS[view]
    spec = get_spec(game)
    unseen_texts = {UNSEEN, *spec.unseen_texts}
    texts = []
    for i, text in enumerate(moves):
        if not isinstance(text, str) or not text.strip():
            raise QueryError(f"position.moves[{i}]: an empty move", "position.moves")
        texts.append(text.strip())
    unseen = [t in unseen_texts for t in texts]
    first_unseen = next((i for i, u in enumerate(unseen) if u), len(texts))
    future = [_FutureStep(None if u else t) for t, u in zip(texts, unseen)]
    left = [budget]

    def where(i: int) -> str:
        return f"position.moves[{i}] {texts[i]!r}"

    def spend() -> None:
        left[0] -= 1
        if left[0] < 0:
            raise QueryError(f"position.moves: no outcome of the '?' steps found within {budget} steps that keeps "
                             f"every later move legal; name the steps seat {letter} has seen since (in Burano a "
                             "finished pyramid is shown to every seat)", "position.moves")

    def play(world, i: int):
        spend()
        state = world.clone()
        if state.is_terminal():
            raise QueryError(f"{where(i)}: the game is already over", "position.moves")
        if not unseen[i]:
            try:
                state.apply_action(state.string_to_action(texts[i]))   # checked: a refusal leaves it untouched
            except BuranoError as exc:
                raise RecordError(f"{where(i)}: {exc}{_did_you_mean(state, texts[i])}") from None
            return state
        offered = offered_actions(state)
        if not offered:
            raise QueryError(f"{where(i)}: nothing can happen here", "position.moves")
        if describe_step(state, offered[0], game).visible_to(letter):
            raise QueryError(f"{where(i)}: seat {letter} sees this step: name it "
                             f"(e.g. {state.action_to_string(offered[0])!r})", "position.moves")
        state.apply_action(state.string_to_action(_hidden_options(spec, state, future, i)[0]))
        return state

    state = start.clone()
    try:
        for _i, _world, state in play_in_worlds(start.clone(), future, view, spec, play, first_unseen + 1):
            pass
    except RecordError as exc:
        message = str(exc)
        if message.startswith("position.moves[") and "(in each of" in message:
            message = message.split(" (in each of")[0] + " (whatever the '?' steps before it were)"
        raise QueryError(message, "position.moves") from None
    return state


@dataclass
class _FutureStep:
    """What `record._hidden_options` and `GameSpec.resample_for_record` read of a step: its text (None for
    `?`), its public kind (a `?` names none), whether it is chance and who took it (a move list says
    neither: taken as a move by a seat not known)."""

    move: str | None
    kind: str | None = None
    is_chance: bool = False
    actor: str | None = None
    seat: str | None = None


def parse_query(data: dict, default_threads: int | None = None, game_factory=None,
                default_game: str = DEFAULT_GAME) -> Job:
    """Check a query object (its id already checked) and load its position; QueryError naming the field."""
    _check_fields(data, QUERY_FIELDS)
    state, view, is_view_root = load_query_position(data, game_factory, default_game)
    n = state.num_players
    to_move = state.current_player()
    if to_move == TERMINAL or state.is_terminal():
        raise QueryError("the game is over: there is no move to analyse", "position")
    if to_move == CHANCE:
        raise QueryError("a chance event is pending (a draw, a reveal, a shuffle): add its outcome to the moves, "
                         "or analyse the position after it", "position")
    seat = to_move
    if "seat" in data:
        if not isinstance(data["seat"], str):
            raise QueryError(f"seat must be a seat letter, not {_shown(data['seat'])}", "seat")
        try:
            seat = parse_seat(data["seat"], n, what="seat")
        except OptionError as exc:
            raise QueryError(str(exc), "seat") from None
        if seat != to_move:
            raise QueryError(f"seat {SEAT_LETTERS[seat]} is not to move: seat {SEAT_LETTERS[to_move]} is", "seat")
    if view is not None and view != seat:
        raise QueryError(f"the position is seat {SEAT_LETTERS[view]}'s view; it cannot be analysed for seat "
                         f"{SEAT_LETTERS[seat]}", "position")
    iterations = _whole(data, "maxIterations", 1, MAX_ITERATIONS, None)
    seconds = _seconds(data, "maxTime", 0.001, MAX_SECONDS)
    if iterations is None and seconds is None:
        iterations = DEFAULT_SUGGEST_ITERATIONS
    report_every = _seconds(data, "reportDuringSearchEvery", MIN_REPORT_EVERY, MAX_SECONDS)
    allow, avoid = _moves(data, "allowMoves"), _moves(data, "avoidMoves")
    try:
        allowed = root_moves(state, allow, avoid)
    except OptionError as exc:
        raise QueryError(str(exc).replace("allow_moves", "allowMoves").replace("avoid_moves", "avoidMoves"),
                         "allowMoves" if "allow" in str(exc) else "avoidMoves") from None
    top = _whole(data, "top", 1, MAX_TOP, DEFAULT_TOP)
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise QueryError(f"seed must be a whole number from 0 to 2**63-1, not {_shown(seed)}", "seed")
    include_plans = data.get("includePlans", False)
    if not isinstance(include_plans, bool):
        raise QueryError(f"includePlans must be true or false, not {_shown(include_plans)}", "includePlans")
    threads = _whole(data, "threads", 1, MAX_THREADS, default_threads)
    params = None
    if "eval" in data:
        evaluation = data["eval"]
        if not isinstance(evaluation, str) or not evaluation:
            raise QueryError(f"eval must be \"playout\", \"net\" or a net file's path, not {_shown(evaluation)}", "eval")
        from burano_ai.search.netfile import eval_to_net
        from burano_ai.search.params import Params
        try:
            found = implementation_of(state.game)
            game_key = found[0].key if found is not None else default_game
            params = Params(**{**get_spec(game_key).search_defaults, "net": eval_to_net(evaluation)})
            if params.net is not None:
                from burano_ai.search.netfile import net_for
                net_for(state, params.net)        # a mismatched or missing net is this query's error now
        except OptionError as exc:
            raise QueryError(str(exc), "eval") from None
    return Job(id=data["id"], state=state, view=view if is_view_root else None, seat=seat,
               limit=Limit(iterations=iterations, seconds=seconds), report_every=report_every,
               allow_moves=allowed, top=top, seed=seed, include_plans=include_plans, threads=threads,
               params=params)


# ------------------------------------------------------------------------------------------------
# Reports


def _number(x: float, digits: int = 6) -> float:
    return round(float(x), digits)


def report(job: Job, result: SearchResult, during: bool) -> dict[str, Any]:
    """The protocol's report of a (partial or final) search result."""
    infos = []
    for order, c in enumerate(result.candidates[:job.top]):
        info = {"move": c.move, "action": c.action, "order": order, "visits": c.visits,
                "winrate": _number(c.win_prob), "value": _number(c.value), "lcb": _number(c.lcb),
                "expectedVp": _number(c.expected_vp, 3), "margin": _number(c.expected_margin, 3),
                "marginStdev": None if c.margin_stdev is None else _number(c.margin_stdev, 3),
                "winrates": None if c.seat_win_probs is None else {
                    SEAT_LETTERS[p]: _number(x) for p, x in enumerate(c.seat_win_probs)}}
        if job.include_plans:
            info["plan"] = [_plan_step(s) for s in c.plan]
        infos.append(info)
    seat = result.seat
    best = result.best
    root = {"seat": SEAT_LETTERS[seat], "positionKey": f"{job.state.information_state_key(seat):016x}",
            "visits": result.iterations, "iterations": result.iterations, "time": _number(result.elapsed, 4),
            "iterationsPerSecond": _number(result.iterations_per_second, 1), "nodes": result.nodes,
            "threads": result.threads, "seed": result.seed, "deterministic": result.deterministic,
            "winrate": None if best is None else _number(best.win_prob),
            "margin": None if best is None else _number(best.expected_margin, 3),
            "tied": [c.move for c in result.tied],      # issue 21: moves statistically tied for first
            "plan": [_plan_step(s) for s in result.pv]}
    out = {"id": job.id, "isDuringSearch": during, "move": result.move, "moveInfos": infos, "rootInfo": root}
    if not during:
        out["terminated"] = job.stop.is_set()
        out["notes"] = list(result.notes)
    return out


def _plan_step(step) -> dict[str, Any]:
    return {"move": step.move, "visits": step.visits, "uncertain": step.uncertain, "chance": step.chance}


def error_line(qid: Any, message: str, field_name: str | None = None) -> dict[str, Any]:
    out = {"id": qid, "error": " ".join(str(message).split())}
    if field_name is not None:
        out["field"] = field_name
    return out


# ------------------------------------------------------------------------------------------------
# The server


def read_lines(stream: BinaryIO, limit: int = MAX_LINE_BYTES):
    """Yield the lines of `stream` (bytes, newline stripped); a line longer than `limit` yields None."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith(b"\n"):
            while True:      # skip the rest of the long line
                more = stream.readline(limit)
                if not more or more.endswith(b"\n"):
                    break
            yield None
            continue
        yield line.rstrip(b"\r\n")


@dataclass
class Pending:
    """A query read and checked for its id, waiting for its position to be loaded (`EngineServer._load`)."""

    id: str | int
    data: dict
    size: int                        # bytes of its line (counted against MAX_PENDING_BYTES)
    cancelled: bool = False          # its final line is written or being written (terminated, quit, or refused)


class EngineServer:
    """The engine: read lines from `input`, write protocol lines to `output` (see the module docstring).

    Three threads: the reader (`_read`) answers control lines and bad lines at once and hands queries to
    the loader (`_load`), which checks them and loads their positions (a record's replay may take a
    while: the reader keeps reading meanwhile), and the caller of `serve`, which searches the loaded
    queries one after another.

    Args:
        output: a text stream; every line is written whole and flushed.
        threads: search threads of a query that does not say (default: `engine.suggest`'s, every core).
        game_factory: `num_players -> Game` of the default game (burano; `burano engine --engine
            reference`); default: its compiled Game. Other games always use their compiled Game.
        game: the game of a query that names none and whose position does not either (a deal and moves);
            `burano engine --game`.
        max_queue: most queries waiting (loading or queued, not yet searching); one more is answered with
            an error line (`burano engine --max-queue`).
    """

    def __init__(self, output: TextIO, threads: int | None = None, game_factory=None,
                 game: str = DEFAULT_GAME, max_queue: int = DEFAULT_MAX_QUEUE) -> None:
        if isinstance(max_queue, bool) or not isinstance(max_queue, int) or not 1 <= max_queue <= MAX_QUEUE_LIMIT:
            raise OptionError(f"max_queue must be a whole number from 1 to {MAX_QUEUE_LIMIT}, not {max_queue!r}")
        self.output = output
        self.threads = threads
        self.game_factory = game_factory
        self.game = get_spec(game).key
        self.max_queue = max_queue
        self._write_lock = threading.Lock()
        self._cond = threading.Condition()
        self._queue: collections.deque[Job] = collections.deque()        # loaded, waiting for the search
        self._pending: collections.deque[Pending] = collections.deque()  # read, waiting for the loader
        self._loading: Pending | None = None
        self._pending_bytes = 0
        self._active: dict[Any, Job | Pending] = {}   # queries not finished (pending, loading, queued, running)
        self._eof = False
        self._quitting = False
        self.closed = False                      # the reader of our output went away
        self.reader: threading.Thread | None = None
        self.loader: threading.Thread | None = None

    # --- output

    def write(self, obj: dict[str, Any]) -> None:
        line = json.dumps(obj, separators=(",", ":"), allow_nan=False) + "\n"   # ASCII: any id survives
        with self._write_lock:
            if self.closed:
                return
            try:
                self.output.write(line)
                self.output.flush()
            except (BrokenPipeError, OSError, ValueError):
                self.closed = True
        if self.closed:
            self._quit()      # outside the lock: quitting answers the queries still loading (not written)

    # --- input

    def _waiting(self) -> int:
        """Queries not yet searching (call with `_cond` held)."""
        return len(self._pending) + len(self._queue) + (self._loading is not None)

    def handle_line(self, raw: bytes | str | None) -> None:
        """Answer a control or bad line, or hand a query to the loader (called by the reader thread; never
        raises on bad input)."""
        if raw is None:
            self.write(error_line(None, f"line longer than {MAX_LINE_BYTES} bytes; skipped"))
            return
        if not raw.strip():
            return
        data = None
        try:
            try:
                data = parse_line(raw)
            except QueryError as exc:
                # Too deep or malformed further on: answer with the id when the line's start shows it.
                self.write(error_line(scan_id(raw), str(exc), exc.field))
                return
            qid = check_id(data)
            action = data.get("action")
            if action is not None:
                self._action(qid, action, data)
                return
            if self._quitting:
                raise QueryError("the engine is quitting")
            with self._cond:
                if qid in self._active:
                    raise QueryError(f"id {qid!r} is already in use by a query that has not finished", "id")
                if self._waiting() >= self.max_queue:
                    raise QueryError(f"the queue is full ({self.max_queue} queries wait; burano engine "
                                     "--max-queue): send it again when a query has finished")
                size = len(raw)
                if self._pending and self._pending_bytes + size > MAX_PENDING_BYTES:
                    raise QueryError(f"the queue is full ({self._pending_bytes + size} bytes of queries wait to "
                                     f"be loaded, at most {MAX_PENDING_BYTES}): send it again when a query has "
                                     "finished")
                pending = Pending(qid, data, size)
                self._active[qid] = pending
                self._pending.append(pending)
                self._pending_bytes += size
                self._cond.notify_all()
        except QueryError as exc:
            self.write(error_line(query_id(data), str(exc), exc.field))
        except BuranoError as exc:
            self.write(error_line(query_id(data), str(exc)))
        except Exception as exc:     # a bug: answer, log, keep serving
            log.error("internal error on an input line:\n%s", traceback.format_exc())
            self.write(error_line(query_id(data), f"internal error: {type(exc).__name__}: {exc}"))

    def _action(self, qid: Any, action: Any, data: dict) -> None:
        if not isinstance(action, str) or action not in ACTION_FIELDS:
            raise QueryError(f"unknown action {_shown(action)} (known: {', '.join(ACTION_FIELDS)})", "action")
        _check_fields(data, ACTION_FIELDS[action])
        if action == "query_version":
            self.write({"id": qid, "action": action, "name": "burano", "version": __version__,
                        "protocolVersion": PROTOCOL_VERSION})
        elif action == "query_games":
            self.write({"id": qid, "action": action, "games": games_answer()})
        elif action == "terminate":
            if "terminateId" not in data:
                raise QueryError("missing field 'terminateId'", "terminateId")
            target = data["terminateId"]
            if not _is_id(target):
                raise QueryError(f"terminateId must be a query id, not {_shown(target)}", "terminateId")
            # The acknowledgement goes out before the stop, so it always precedes the query's final line.
            with self._cond:
                found = self._active.get(target)
            self.write({"id": qid, "action": action, "terminateId": target, "found": found is not None})
            if found is not None:
                self._terminate(found)
        elif action == "terminate_all":
            with self._cond:
                found_all = list(self._active.values())
            self.write({"id": qid, "action": action})
            for found in found_all:
                self._terminate(found)
        else:   # quit
            self.write({"id": qid, "action": action})
            self._quit()

    def _terminate(self, found: Job | Pending) -> None:
        """Stop a search, or answer a query whose position is not loaded yet (its final line: an error)."""
        if isinstance(found, Job):
            found.stop.set()
            return
        with self._cond:
            if found.cancelled or self._active.get(found.id) is not found:
                return          # loaded meanwhile: it is a Job now, or already answered
            found.cancelled = True
            if found in self._pending:
                self._pending.remove(found)
                self._pending_bytes -= found.size
        self.write(error_line(found.id, "terminated before its position was loaded"))
        self._answered(found)

    def _answered(self, pending: Pending) -> None:
        """`pending` has its final line: forget it (only now, so that `serve` never ends before the line is out)."""
        with self._cond:
            if self._active.get(pending.id) is pending:
                del self._active[pending.id]
            self._cond.notify_all()

    def _unanswered(self) -> bool:
        """Queries read but not yet loaded whose final line is still to be written (call with `_cond` held)."""
        return any(isinstance(x, Pending) for x in self._active.values())

    def _quit(self) -> None:
        with self._cond:
            self._quitting = True
            waiting = [x for x in self._active.values() if isinstance(x, Pending)]
            for job in self._active.values():
                if isinstance(job, Job):
                    job.stop.set()
            self._cond.notify_all()
        for pending in waiting:
            self._terminate(pending)

    def _read(self, stream: BinaryIO) -> None:
        try:
            for line in read_lines(stream):
                self.handle_line(line)
                if self._quitting:
                    break
        except Exception:
            log.error("reading the input failed:\n%s", traceback.format_exc())
        finally:
            with self._cond:
                self._eof = True
                self._cond.notify_all()

    def _load(self) -> None:
        """The loader thread: check each pending query and load its position, in the order they came."""
        while True:
            with self._cond:
                while not self._pending and not self._quitting and not self._eof:
                    self._cond.wait()
                if not self._pending:
                    return
                pending = self._pending.popleft()
                self._pending_bytes -= pending.size
                self._loading = pending
            job = None
            try:
                job = parse_query(pending.data, self.threads, self.game_factory, self.game)
            except QueryError as exc:
                error = error_line(pending.id, str(exc), exc.field)
            except BuranoError as exc:
                error = error_line(pending.id, str(exc))
            except Exception as exc:     # a bug: answer, log, keep serving
                log.error("internal error in query %r:\n%s", pending.id, traceback.format_exc())
                error = error_line(pending.id, f"internal error: {type(exc).__name__}: {exc}")
            with self._cond:
                self._loading = None
                answered = pending.cancelled
                if not answered and job is not None:
                    self._active[pending.id] = job
                    if self._quitting:
                        job.stop.set()
                    self._queue.append(job)
                elif not answered:
                    pending.cancelled = True      # its error line is on its way: a terminate now finds nothing to do
                self._cond.notify_all()
            if not answered and job is None:
                self.write(error)
                self._answered(pending)

    # --- searching

    def run_job(self, job: Job) -> None:
        """Search one job; write its partial reports and exactly one final line."""
        def on_report(partial: SearchResult) -> None:
            self.write(report(job, partial, during=True))

        try:
            # A State carries its Game: the search rebuilds roots and worker positions with its class.
            result = suggest(job.state, seat=job.seat, limit=job.limit, seed=job.seed, threads=job.threads,
                             view=job.view, params=job.params,
                             on_report=on_report if job.report_every is not None else None,
                             report_every=job.report_every, stop=job.stop, allow_moves=job.allow_moves)
        except BuranoError as exc:
            self.write(error_line(job.id, str(exc)))
        except Exception as exc:
            log.error("internal error in query %r:\n%s", job.id, traceback.format_exc())
            self.write(error_line(job.id, f"internal error: {type(exc).__name__}: {exc}"))
        else:
            self.write(report(job, result, during=False))

    def serve(self, stream: BinaryIO) -> None:
        """Read `stream` in a thread and search the queued queries until the input ends or `quit`.

        `quit` returns as soon as the queued searches have sent their final lines, even while a position is
        still loading (that query was answered: terminated); the loader thread is a daemon.
        """
        reader = self.reader = threading.Thread(target=self._read, args=(stream,), name="burano-engine-input",
                                                daemon=True)
        loader = self.loader = threading.Thread(target=self._load, name="burano-engine-loader", daemon=True)
        reader.start()
        loader.start()
        while True:
            with self._cond:
                # Quitting, or the input ended and every query is loaded: done once every query read has its
                # final line out (a pending one is answered by `_terminate` or the loader, in other threads).
                while not self._queue and not (
                        (self._quitting or (self._eof and not self._pending and self._loading is None))
                        and not self._unanswered()):
                    self._cond.wait()
                if not self._queue:
                    return
                job = self._queue.popleft()
            try:
                self.run_job(job)
            finally:
                with self._cond:
                    if self._active.get(job.id) is job:
                        del self._active[job.id]


def serve_stdio(threads: int | None = None, game_factory=None, game: str = DEFAULT_GAME,
                max_queue: int = DEFAULT_MAX_QUEUE) -> None:
    """Serve the protocol on this process's stdin and stdout (`burano engine`); `game`: the game of a query
    that does not say (`EngineServer`).

    File descriptor 1 is moved to a private descriptor first and fd 1 then points at stderr, so that only
    protocol lines can reach the real stdout.
    """
    sys.stdout.flush()
    private = os.dup(1)
    os.dup2(2, 1)
    output = os.fdopen(private, "w", encoding="utf-8", newline="\n", buffering=1)
    sys.stdout = sys.stderr
    if not logging.getLogger().handlers:
        logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="burano engine: %(message)s")
    server = EngineServer(output, threads=threads, game_factory=game_factory, game=game, max_queue=max_queue)
    log.info("ready (protocol %d, burano_ai %s); one JSON query per line", PROTOCOL_VERSION, __version__)
    # The input thread reads its own file object on a copy of fd 0: were it sys.stdin, interpreter
    # shutdown would wait for the lock that a pending read holds, and abort.
    stream = open(os.dup(sys.stdin.fileno()), "rb")
    code = 0
    try:
        server.serve(stream)
    except KeyboardInterrupt:        # Ctrl-C: end at once, as the CLI does (130)
        code = 130
    try:
        output.flush()
    except OSError:
        pass
    if server.closed:
        code = CLOSED_PIPE_EXIT
    if code or any(t is not None and t.is_alive() for t in (server.reader, server.loader)):
        sys.stderr.flush()
        os._exit(code)     # the input thread may still wait in a read, the loader in a replay: do not wait


def main(argv: list[str] | None = None) -> int:
    """`python -m burano_ai.protocol [--threads N]`: the server of `burano engine`, without the CLI."""
    import argparse
    parser = argparse.ArgumentParser(prog="python -m burano_ai.protocol", description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=None, metavar="T",
                        help="search threads of a query that does not say (default: every usable core)")
    parser.add_argument("--max-queue", type=int, default=DEFAULT_MAX_QUEUE, metavar="N",
                        help=f"most queries waiting to be searched (default {DEFAULT_MAX_QUEUE})")
    args = parser.parse_args(argv)
    if args.threads is not None and not 1 <= args.threads <= MAX_THREADS:
        parser.error(f"--threads must be from 1 to {MAX_THREADS}, not {args.threads}")
    if not 1 <= args.max_queue <= MAX_QUEUE_LIMIT:
        parser.error(f"--max-queue must be from 1 to {MAX_QUEUE_LIMIT}, not {args.max_queue}")
    try:
        serve_stdio(threads=args.threads, max_queue=args.max_queue)
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
