"""Game records (`burano-game/1`, any registered game): who played, how the game started, and every step in order.

A record is the game's PGN: a header (the game, players, seats and who played them, the deal's seed or a
start position, the engine and date, the result) and the steps — each player's move by its text, each chance
event by its outcome's text and which seats saw it. It replays to the same positions in every rules
implementation that speaks the State API (`replay`, `positions`), and it can be exported for one seat
(`for_seat`): the steps that seat did not see lose their text and the seed goes (the start is the seat's
view of the first position), so a game can be shared without revealing what only the umpire saw. The
format is documented in docs/game-format.md.

A record cannot lie about what it hides: an export may null only steps its seat did not see (who saw a
step is checked against the replay), a one-seat view cannot start a full record, the `result` must be
the replay's, and the texts people read on a terminal (names, the event) carry no control characters.

    from burano_ai.record import GameRecord
    record = GameRecord.load("game.json")
    state = record.replay(ply=40)          # the position after the first 40 steps

The record reaches its game only through the registry (`burano_ai.games.get_spec(record.game)`): who sees
which step (`GameSpec.step_visibility`), which private steps an export hides (`hidden_in_export`), how a
step reads (`narrate_step`) and how a start position loads (`load_position`) are the game's. A record
without a ``game`` field is a Burano record (the files written before there were other games).

Every bad record raises `RecordError` (a `PositionError`) naming the field or the step:
``record.steps[17]: 'sail I9' is not legal here (...)``.
"""

from __future__ import annotations

import datetime
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from burano_ai.core.errors import BuranoError, OptionError, PositionError
from burano_ai.core.game import StepEffect, player_range_text
from burano_ai.core.jsonio import MAX_POSITION_BYTES, json_error_text, read_text_file
from burano_ai.core.options import game_for, parse_game_options
from burano_ai.core.people import offered_actions
from burano_ai.core.seats import SEAT_LETTERS, parse_seat
from burano_ai.core.seeds import derive
from burano_ai.games import DEFAULT_GAME, get_spec

#: The format tag of a game record.
FORMAT = "burano-game/1"
#: Largest record file read (a 4-player game is about 150 kB).
MAX_RECORD_BYTES = 16 * MAX_POSITION_BYTES
#: The step's actor for chance events.
CHANCE_ACTOR = "chance"
#: What a seat is when a person plays it.
HUMAN = "human"
#: Most worlds sampled for one step of a one-seat export's replay (`play_in_worlds`): when a step cannot be played
#: in the world the replay holds (a card another seat plays was filled into a third seat's hand), the world is
#: redrawn from what the seat knows (`GameSpec.resample_for_record`, then `State.resample`) until it can; past
#: this many, the step is impossible in every world tried and the replay stops with one line naming it. A step
#: of a real game needs a few dozen at most by `State.resample` (Burano, 4 players: 366 once in 280 exports,
#: another seat selling three blind fish cards; Walking in Burano: 48), Venice 2099's own sampler one.
MAX_STEP_SAMPLES = 20_000
#: Most worlds sampled over a whole export's replay (a few seconds of it at most); past it, a one-line RecordError.
MAX_WORLD_SAMPLES = 60_000
_WORLD_SAMPLE_TAG = 0x57A7
#: Longest seat name, player (bot spec) and event text.
MAX_NAME_CHARS = 200
#: The keys of a finished game's `result`.
RESULT_KEYS = ("scores", "order", "winners")

GameFactory = Callable[[int], Any]


class RecordError(PositionError):
    """A game record is malformed, or one of its steps cannot be played (the message names it)."""


class _SeenByError(RecordError):
    """A step's public kind, owner or `seen_by` is not the replay's: public facts, so no world of what a seat
    could not see mends it (an export's replay stops at once)."""


def engine_version() -> str:
    from burano_ai import __version__
    return f"burano_ai {__version__}"


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass
class SeatInfo:
    """One seat of the game: a display name and who played it ("human" or a bot spec string)."""

    name: str
    player: str = HUMAN

    @property
    def is_human(self) -> bool:
        return self.player == HUMAN


@dataclass
class Step:
    """One step of the game, in order.

    Attributes:
        actor: the seat letter that moved, or "chance".
        move: the move's or the outcome's text (`State.action_to_string`); None where a one-seat export
            hides it.
        kind: chance steps: the chance kind's label ("fish-draw", "markers", ...); a private move: what
            every seat sees of it, when the game names that (Walking in Burano's "return-L2": a card
            went under the L2 deck), so an export's hidden step is refilled with a move of that kind.
        seat: chance steps: the seat the event belongs to (the drawer of a fish card), when there is one.
        seen_by: the seats that saw the step; None when every seat did.
        annotations: optional engine evaluation and comments (docs/game-format.md lists the keys).
    """

    actor: str
    move: str | None
    kind: str | None = None
    seat: str | None = None
    seen_by: list[str] | None = None
    annotations: dict[str, Any] | None = None

    @property
    def is_chance(self) -> bool:
        return self.actor == CHANCE_ACTOR

    @property
    def hidden(self) -> bool:
        return self.move is None

    def visible_to(self, seat_letter: str) -> bool:
        return self.seen_by is None or seat_letter in self.seen_by

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"actor": self.actor, "move": self.move}
        for key in ("kind", "seat", "seen_by", "annotations"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


def describe_step(state, action: int, game: str = DEFAULT_GAME) -> Step:
    """The `Step` that applying `action` at `state` (a State of `game`) is (the state is not modified)."""
    move = state.action_to_string(action)
    seen = get_spec(game).step_visibility(state, action)
    seen_by = None if seen.seen_by is None else [SEAT_LETTERS[p] for p in seen.seen_by]
    if state.is_chance_node():
        seat = None if seen.seat is None else SEAT_LETTERS[seen.seat]
        return Step(CHANCE_ACTOR, move, kind=seen.kind, seat=seat, seen_by=seen_by)
    return Step(SEAT_LETTERS[state.current_player()], move, kind=seen.kind, seen_by=seen_by)


def game_spec(game: str, error: type[BuranoError] = OptionError, where: str = ""):
    """The `GameSpec` of `game`; `error` (``where``, then the game and the known ones) if none is registered."""
    try:
        return get_spec(game)
    except OptionError as exc:
        raise error(f"{where}{exc}") from None


def play_in_worlds(state, steps: list[Any], seat: int, spec, play: Callable[[Any, int], Any], mendable_from: int,
                   game_factory: GameFactory | None = None, resampled: list[int] | None = None
                   ) -> Iterator[tuple[int, Any, Any]]:
    """Play `steps` (`Step`s, or what `_hidden_options` reads of them) from `state` as seat `seat` knows them:
    yield (i, the world before steps[i], the world after it) for every step.

    `play(world, i)` plays steps[i] on a copy of `world` and returns it (a hidden step: an outcome that fits;
    `_hidden_options`), or raises RecordError. The world is one of what the seat could not see, made up
    (the hidden steps' fills, a loaded view's hidden parts); when a step from `mendable_from` on cannot be
    played in it, it is redrawn there from what the seat knows until the step can be: first by the game's
    own sampler of the later steps (`GameSpec.resample_for_record`), then by `State.resample` -- at most
    `MAX_STEP_SAMPLES` worlds a step and `MAX_WORLD_SAMPLES` in all. A step before `mendable_from` (nothing
    made up yet) or a wrong public fact (`_SeenByError`) stops at once. The seat cannot tell the worlds
    apart, so it sees what it saw at every step; the world yielded before a step is one that plays it. The
    index of every world drawn is appended to `resampled`.

    Raises:
        RecordError: a step no world tried can play, named (or the sample budget spent).
    """
    budget = MAX_WORLD_SAMPLES
    letter = SEAT_LETTERS[seat]
    for i in range(len(steps)):
        try:
            after = play(state, i)
        except _SeenByError:
            raise
        except RecordError as exc:
            if i < mendable_from:
                raise
            for k in range(MAX_STEP_SAMPLES):
                if budget <= 0:
                    raise RecordError(f"no world of what seat {letter} could not see fits within "
                                      f"{MAX_WORLD_SAMPLES} samples (the steps hide too much, or lie); "
                                      f"it stops at {exc}") from None
                budget -= 1
                if resampled is not None:
                    resampled.append(i)
                seed = derive(_WORLD_SAMPLE_TAG, i, k)
                sample = spec.resample_for_record(state, seat, steps[i:], seed, game_factory) if k == 0 else None
                if sample is None:
                    sample = state.resample(seat, seed)
                try:
                    after = play(sample, i)
                except _SeenByError:
                    raise
                except RecordError:
                    continue
                state = sample
                break
            else:
                raise RecordError(f"{exc} (in each of {MAX_STEP_SAMPLES} samples of what seat {letter} could not "
                                  "see)") from None
        yield i, state, after
        state = after


@dataclass
class GameRecord:
    """A game: header and steps (docs/game-format.md)."""

    players: int
    seats: list[SeatInfo]
    seed: int | None = 0
    start: dict[str, Any] | None = None
    steps: list[Step] = field(default_factory=list)
    result: dict[str, Any] | None = None
    view: str | None = None
    engine: str = field(default_factory=engine_version)
    date: str = field(default_factory=_now)
    event: str | None = None
    game: str = DEFAULT_GAME
    #: The game's options besides the player count that differ from their defaults (`GameSpec.game_options`:
    #: name -> JSON value, a data option's object embedded); None or {} for none. A dealt game is made with
    #: them; a start position carries its own.
    options: dict[str, Any] | None = None

    @property
    def spec(self):
        """The `GameSpec` of the record's game."""
        return get_spec(self.game)

    # -- construction -------------------------------------------------------------------------------------

    @classmethod
    def new(cls, players: int, seed: int | None = 0, seats: list[SeatInfo] | None = None,
            start: dict[str, Any] | None = None, event: str | None = None, game: str = DEFAULT_GAME,
            options: dict[str, Any] | None = None) -> GameRecord:
        """An empty record of a `game` with `options` (`GameSpec.game_options`) dealt from `seed` (or
        starting at the full position `start`)."""
        if seats is None:
            seats = [SeatInfo(f"Seat {SEAT_LETTERS[i]}") for i in range(players)]
        record = cls(players=players, seats=seats, seed=None if start is not None else seed, start=start,
                     event=event, game=game, options=dict(options) if options else None)
        record._check_header()
        return record

    @classmethod
    def load(cls, path: str | os.PathLike) -> GameRecord:
        """Read a record file (UTF-8 JSON)."""
        return cls.from_json(read_text_file(path, MAX_RECORD_BYTES, "game record", RecordError))

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        if isinstance(text, (bytes, bytearray)):
            text = bytes(text).decode("utf-8-sig", errors="replace")
        if len(text) > MAX_RECORD_BYTES:
            raise RecordError(f"record: larger than {MAX_RECORD_BYTES} bytes")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"record: not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
        except ValueError as exc:       # an integer literal past Python's 4,300-digit limit
            raise RecordError(f"record: not JSON ({json_error_text(exc)})") from None
        except RecursionError:
            raise RecordError("record: nested too deeply") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Validate the record's structure (not yet its moves: `replay` plays them) and build it."""
        if not isinstance(data, dict):
            raise RecordError(f"record: must be a JSON object, not {type(data).__name__}")
        unknown = sorted(set(data) - _HEADER_KEYS)
        if unknown:
            raise RecordError(f"record: unknown field {unknown[0]!r} (known: {', '.join(sorted(_HEADER_KEYS))})")
        if data.get("format") != FORMAT:
            raise RecordError(f"record.format: must be {FORMAT!r}, not {data.get('format')!r}")
        game = data.get("game", DEFAULT_GAME)
        if not isinstance(game, str):
            raise RecordError(f"record.game: must be a game name, not {game!r}")
        spec = game_spec(game, RecordError, "record.game: ")
        players = data.get("players")
        if isinstance(players, bool) or not isinstance(players, int) or \
                not spec.min_players <= players <= spec.max_players:
            raise RecordError(f"record.players: must be {player_range_text(spec)}, not {players!r}")
        seats = _seats(data.get("seats"), players)
        seed = data.get("seed")
        start = data.get("start")
        if start is not None and not isinstance(start, dict):
            raise RecordError("record.start: must be a position object or null")
        if start is None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63):
            raise RecordError(f"record.seed: must be a whole number from 0 to 2^63-1 (or give record.start), "
                              f"not {seed!r}")
        if start is not None:
            seed = None if not isinstance(seed, int) or isinstance(seed, bool) else seed
        steps_data = data.get("steps", [])
        if not isinstance(steps_data, list):
            raise RecordError("record.steps: must be a list")
        steps = [_step(s, i, players, spec.chance_kinds) for i, s in enumerate(steps_data)]
        view = data.get("view")
        if view is not None and (not isinstance(view, str) or view not in tuple(SEAT_LETTERS[:players])):
            raise RecordError(f"record.view: must be a seat letter of this game or null, not {view!r}")
        result = _result(data.get("result"), players)
        try:
            options = parse_game_options(spec, data.get("options"), "record.options")
        except OptionError as exc:
            raise RecordError(str(exc)) from None
        record = cls(players=players, seats=seats, seed=seed, start=start, steps=steps, result=result, view=view,
                     engine=_text(data.get("engine", ""), "record.engine", MAX_NAME_CHARS),
                     date=_text(data.get("date", ""), "record.date", MAX_NAME_CHARS),
                     event=None if data.get("event") is None else _text(data["event"], "record.event",
                                                                        MAX_NAME_CHARS),
                     game=game, options=options or None)
        for i, s in enumerate(steps):
            if not s.hidden:
                continue
            where = f"record.steps[{i}].move"
            if view is None:
                raise RecordError(f"{where}: null (hidden) in a record that is not a one-seat export (record.view)")
            if s.actor == view:
                raise RecordError(f"{where}: null (hidden), but it is seat {view}'s own move: an export hides only "
                                  "steps its seat did not see")
            if s.visible_to(view):
                raise RecordError(f"{where}: null (hidden), but seat {view} saw this step (seen_by "
                                  f"{'every seat' if s.seen_by is None else ', '.join(s.seen_by)}): an export hides "
                                  "only steps its seat did not see")
        return record

    def _check_header(self) -> None:
        self.from_dict(self.to_dict())

    # -- output -------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        options = {"options": self.options} if self.options else {}    # written only when there are some
        return {
            "format": FORMAT,
            "game": self.game,
            "players": self.players,
            **options,
            "seats": [{"seat": SEAT_LETTERS[i], "name": s.name, "player": s.player} for i, s in enumerate(self.seats)],
            "seed": self.seed,
            "start": self.start,
            "engine": self.engine,
            "date": self.date,
            "event": self.event,
            "view": self.view,
            "result": self.result,
            "steps": [s.to_dict() for s in self.steps],
        }

    def to_json(self, indent: int | None = 1) -> str:
        """The record as JSON: one line per header field, seat and step (easy to read and to diff);
        ``indent=None`` gives one line."""
        data = self.to_dict()
        if indent is None:
            return json.dumps(data, ensure_ascii=False)

        def dump(value: Any) -> str:
            return json.dumps(value, ensure_ascii=False)

        def listed(items: list[Any]) -> str:
            if not items:
                return "[]"
            return "[\n" + ",\n".join("  " + dump(x) for x in items) + "\n ]"

        fields = [f" {dump(key)}: {listed(value) if key in ('seats', 'steps') else dump(value)}"
                  for key, value in data.items()]
        return "{\n" + ",\n".join(fields) + "\n}"

    def save(self, path: str | os.PathLike) -> None:
        """Write the record (UTF-8 JSON) atomically: a failed write leaves the old file intact."""
        path = os.fspath(path)
        tmp = f"{path}.tmp{os.getpid()}"
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(self.to_json())
                f.write("\n")
            os.replace(tmp, path)
        except OSError as exc:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise RecordError(f"cannot write {path}: {exc.strerror or exc}") from None

    # -- playing ------------------------------------------------------------------------------------------

    def initial_state(self, game_factory: GameFactory | None = None):
        """The position before the first step: the deal of `seed`, or `start` (a position of the game; in a
        one-seat export the seat's view, its hidden parts filled by the game's loader)."""
        return self._initial(game_factory)[0]

    def _initial(self, game_factory: GameFactory | None = None):
        """(the position before the first step, True when it was loaded from a one-seat view)."""
        spec = self.spec
        factory = game_factory or spec.game_class("compiled")
        if self.start is None:
            try:
                game = game_for(spec, self.players, self.options, factory)
            except OptionError as exc:
                raise RecordError(f"record.options: {exc}") from None
            return game.new_initial_state(self.seed), False
        try:
            state, view = spec.load_position(self.start, factory)
        except PositionError as exc:
            raise RecordError(f"record.start: {exc}") from None
        if state.num_players != self.players:
            raise RecordError(f"record.start: a {state.num_players}-player position in a {self.players}-player record")
        if view is not None and self.view is None:
            raise RecordError(f"record.start: seat {SEAT_LETTERS[view]}'s one-seat view cannot start a full record "
                              "(its hidden parts would be made up): give the full position, or record.view")
        if view is not None and SEAT_LETTERS[view] != self.view:
            raise RecordError(f"record.start: seat {SEAT_LETTERS[view]}'s one-seat view in a record exported for "
                              f"seat {self.view}")
        return state, view is not None

    def add(self, state, action: int) -> Step:
        """Append the step of applying `action` at `state` (call before applying it) and return it."""
        step = describe_step(state, action, self.game)
        self.steps.append(step)
        return step

    def finish(self, state) -> None:
        """Fill `result` from a terminal `state`: final scores, the order of finish, the winners (the
        seats sharing the best `State.finishing_key`)."""
        scores = list(state.scores())
        keys = [tuple(state.finishing_key(p)) for p in range(self.players)]
        order = sorted(range(self.players), key=lambda p: (tuple(-k for k in keys[p]), p))
        best = max(keys)
        self.result = {"scores": scores,
                       "order": [SEAT_LETTERS[p] for p in order],
                       "winners": [SEAT_LETTERS[p] for p in range(self.players) if keys[p] == best]}

    def truncate(self, ply: int) -> None:
        """Keep the first `ply` steps (the result goes with the rest)."""
        del self.steps[ply:]
        self.result = None

    def positions(self, game_factory: GameFactory | None = None,
                  checkpoint: Callable[[], None] | None = None) -> Iterator[tuple[int, Any]]:
        """Yield (ply, state before steps[ply]) for every step, then (len(steps), final state).

        The yielded state is the replay's own: copy it (`clone()`) to keep it past the next iteration. A
        one-seat export replays in a world of what its seat could not see (`_export_positions`).
        `checkpoint()`, if given, is called before every step an export's replay plays (its owner raises
        there to stop a replay that takes too long, or whose client left).
        """
        state, from_view = self._initial(game_factory)
        if self.view is not None and (from_view or any(s.hidden for s in self.steps)):
            yield from self._export_positions(state, from_view, game_factory, checkpoint=checkpoint)
            return
        for i, step in enumerate(self.steps):
            yield i, state
            self._apply(state, i, step)
        self._check_result(state)
        yield len(self.steps), state

    def replay(self, ply: int | None = None, game_factory: GameFactory | None = None):
        """The state after the first `ply` steps (all of them when None).

        A one-seat export replays with the steps it hides filled by a consistent assignment (any one that
        keeps every later step legal: the seat cannot tell them apart, so its view is the same).
        """
        if ply is None:
            ply = len(self.steps)
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(self.steps):
            raise RecordError(f"ply {ply!r} is not a step of this record (0 to {len(self.steps)})")
        for i, state in self.positions(game_factory):
            if i == ply:
                return state
        raise AssertionError("unreachable")

    def _apply(self, state, i: int, step: Step) -> None:
        """Play `step` at `state` (in place), checking its actor, kind, text and who saw it (`seen_by`, `seat`)
        against the position; RecordError naming the field otherwise (`state` is then untouched)."""
        where = f"record.steps[{i}]"
        if state.is_terminal():
            raise RecordError(f"{where}: the game is already over")
        if state.is_chance_node():
            if not step.is_chance:
                raise RecordError(f"{where}: a chance event is pending here, not a move by {step.actor}")
        else:
            mover = SEAT_LETTERS[state.current_player()]
            if step.actor != mover:
                raise RecordError(f"{where}.actor: {mover} is to move here, not {step.actor}")
        try:
            action = state.string_to_action(step.move)
        except BuranoError as exc:
            raise RecordError(f"{where}: {exc}") from None
        seen = self.spec.step_visibility(state, action)     # who saw it, from the state before it
        if step.kind is not None and step.kind != seen.kind:
            what = "the pending chance event" if step.is_chance else "this move's public kind"
            raise _SeenByError(f"{where}.kind: {what} is {seen.kind!r}, not {step.kind!r}")
        try:
            state.apply_action(action)        # checked: a refused action leaves the state untouched
        except BuranoError as exc:
            try:
                state.clone().play(step.move)     # the game's own words for why the text is not legal here
            except BuranoError as named:
                exc = named
            raise RecordError(f"{where}: {exc}") from None
        seen_by = None if seen.seen_by is None else [SEAT_LETTERS[p] for p in seen.seen_by]
        if step.seen_by != seen_by:
            raise _SeenByError(f"{where}.seen_by: the step was seen by "
                              f"{'every seat' if seen_by is None else ', '.join(seen_by)}, not "
                              f"{'every seat' if step.seen_by is None else ', '.join(step.seen_by) or 'no seat'}")
        seat = None if seen.seat is None else SEAT_LETTERS[seen.seat]
        if step.is_chance and step.seat != seat:
            raise _SeenByError(f"{where}.seat: the chance event belongs to {seat or 'no seat'}, "
                              f"not {step.seat or 'no seat'}")

    def _check_result(self, state) -> None:
        """The record's `result` is the replay's: the game is over and the scores, order and winners agree."""
        if self.result is None:
            return
        if not state.is_terminal():
            raise RecordError(f"record.result: given, but the game is not over after the {len(self.steps)} steps")
        expected = GameRecord(players=self.players, seats=self.seats)
        expected.finish(state)
        for key in RESULT_KEYS:
            if list(self.result[key]) != list(expected.result[key]):
                raise RecordError(f"record.result.{key}: {self.result[key]!r}, but the replay gives "
                                  f"{expected.result[key]!r}")

    def _export_positions(self, state, from_view: bool, game_factory: GameFactory | None,
                          resampled: list[int] | None = None,
                          checkpoint: Callable[[], None] | None = None) -> Iterator[tuple[int, Any]]:
        """`positions` of a one-seat export: the steps replayed in one world of what the seat could not see.

        The world starts as the start's (a one-seat view's hidden parts filled by the game's loader); a
        hidden step is given the first outcome of its kind that fits (`_hidden_options`: the ones the
        step's owner later shows first, the ones others later show last). When a step cannot be played in
        the world held -- another seat plays a card the fill dealt elsewhere -- the world at that step is
        redrawn from what the seat knows there until it can: first by the game's own sampler of the
        record's later steps (`GameSpec.resample_for_record`, Venice 2099's hands), then by
        `State.resample` (at most `MAX_STEP_SAMPLES` a step, `MAX_WORLD_SAMPLES` a record). No search
        over the hidden steps: the seat cannot tell the worlds apart, so every view it gets is the one it
        saw, and the position yielded before a step is always one in which that step is played. The ply of
        every world drawn is appended to `resampled` (once a world).

        Raises:
            RecordError: a step no world tried can play (the message names it), or a wrong `result`.
        """
        seat = SEAT_LETTERS.index(self.view)
        spec = self.spec
        steps = self.steps

        def play(world, i: int) -> Any:
            """The world after steps[i] (a hidden one: its first outcome that fits); RecordError if none."""
            if checkpoint is not None:
                checkpoint()
            after = world.clone()
            step = steps[i]
            if not step.hidden:
                self._apply(after, i, step)
                return after
            first: RecordError | None = None
            for text in _hidden_options(spec, world, steps, i):
                trial = after.clone()
                try:
                    self._apply(trial, i, Step(**{**step.__dict__, "move": text}))
                except _SeenByError:
                    raise
                except RecordError as exc:
                    first = first or exc
                    continue
                return trial
            raise first or RecordError(f"record.steps[{i}]: nothing can happen here")

        mendable_from = 0 if from_view else next((i + 1 for i, s in enumerate(steps) if s.hidden), len(steps))
        for i, world, after in play_in_worlds(state, steps, seat, spec, play, mendable_from, game_factory,
                                              resampled):
            yield i, world
            state = after
        self._check_result(state)
        yield len(steps), state

    # -- export -------------------------------------------------------------------------------------------

    def for_seat(self, seat: int | str) -> GameRecord:
        """This record as `seat` may share it: nothing in it rebuilds what the seat did not see.

        The other seats' private steps lose their text: which ones is the game's
        (`GameSpec.hidden_in_export`): in Burano another seat's blind fish draws, and its pyramid steps
        only when the record ends while that pyramid is still being built (a finished pyramid is revealed
        to all). The seed goes (it would replay every draw): `start` is the seat's one-seat view of the
        first position instead. Annotations stay on the seat's own moves only (another seat's were made
        from that seat's view)."""
        p = parse_seat(seat, self.players, what="seat", error=RecordError)
        letter = SEAT_LETTERS[p]
        if self.view is not None and self.view != letter:
            raise RecordError(f"record: exported for seat {self.view}; it cannot be exported for {letter}")
        hidden = self.spec.hidden_in_export(self.steps, p)
        steps = []
        for i, s in enumerate(self.steps):
            hide = i in hidden
            steps.append(Step(**{**s.__dict__, "move": None if hide else s.move,
                                 "annotations": s.annotations if s.actor == letter else None}))
        return GameRecord(players=self.players, seats=list(self.seats), seed=None,
                          start=self.initial_state().to_dict(p),
                          steps=steps, result=self.result, view=letter, engine=self.engine, date=self.date,
                          event=self.event, game=self.game, options=self.options)


def _hidden_options(spec, state, steps: list[Step], i: int) -> list[str]:
    """The texts the hidden step `steps[i]` could have at `state` (outcomes of its kind), the likeliest to fit
    first. A hidden draw or deal (chance): what its seat later shows (a card it plays or sells) first, what
    another seat or a later public step of the same kind shows (a card dealt to someone else) last. A hidden
    move (a card given away, Walking in Burano's return): what later comes back into view by chance (the card
    surfacing from under the deck) first, what its mover later plays (so it kept it) last."""
    step = steps[i]
    owner = step.seat if step.is_chance else step.actor
    texts = [state.action_to_string(a) for a in offered_actions(state)
             if step.kind is None or spec.step_visibility(state, a).kind == step.kind]
    own: set[str] = set()
    chance: set[str] = set()
    others: set[str] = set()
    for later in steps[i + 1:]:
        if later.move is None:
            continue
        words = set(later.move.replace(":", " ").replace(",", " ").split())
        if later.is_chance:
            (own if owner is not None and later.seat == owner and later.kind != step.kind else chance).update(words)
        else:
            (own if owner is not None and later.actor == owner else others).update(words)

    def rank(text: str) -> int:
        word = text.replace(":", " ").split()[-1]
        if step.is_chance:
            return 2 if word in others or word in chance else 0 if word in own else 1
        return 0 if word in chance else 2 if word in own else 1

    return sorted(texts, key=rank)


_HEADER_KEYS = frozenset({"format", "game", "players", "seats", "seed", "start", "engine", "date", "event", "view",
                          "result", "steps", "options"})
_STEP_KEYS = frozenset({"actor", "move", "kind", "seat", "seen_by", "annotations"})


#: Characters a text read on a terminal may not hold: controls (C0 and C1, Unicode category Cc: ESC starts a
#: terminal escape sequence that can set the window title or clear the screen), the line and paragraph
#: separators (Zl, Zp), and the bidirectional marks and overrides that reorder what a terminal shows.
_UNPRINTABLE = re.compile("[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def check_printable(value: str, where: str, error: type[BuranoError] = PositionError) -> str:
    """`value`, if it holds no character that changes a terminal (`error` naming the first one, escaped)."""
    bad = _UNPRINTABLE.search(value)
    if bad is not None:
        raise error(f"{where}: control character U+{ord(bad.group()):04X} in {_short(value)} (texts shown on a "
                    "terminal may not hold control characters or escape sequences)")
    return value


def _text(value: Any, where: str, max_chars: int | None = None) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{where}: must be a string, not {type(value).__name__}")
    if max_chars is not None and len(value) > max_chars:
        raise RecordError(f"{where}: longer than {max_chars} characters")
    return check_printable(value, where, RecordError)


def _result(data: Any, players: int) -> dict[str, Any] | None:
    """A finished game's `result` checked field by field (`GameRecord.replay` then checks it is the replay's)."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise RecordError("record.result: must be an object with scores, order and winners, or null")
    for key in RESULT_KEYS:
        if key not in data:
            raise RecordError(f"record.result: no {key!r} (a result has {', '.join(RESULT_KEYS)})")
    unknown = sorted(set(data) - set(RESULT_KEYS))
    if unknown:
        raise RecordError(f"record.result: unknown field {unknown[0]!r} (known: {', '.join(RESULT_KEYS)})")
    letters = tuple(SEAT_LETTERS[:players])   # a tuple: "AB" is no seat, though it is in "ABCD"
    scores = data["scores"]
    if not isinstance(scores, list) or len(scores) != players or \
            any(isinstance(x, bool) or not isinstance(x, (int, float)) for x in scores):
        raise RecordError(f"record.result.scores: must be a list of {players} numbers (one per seat), not "
                          f"{_short(scores)}")
    order = data["order"]
    if not isinstance(order, list) or sorted(order, key=str) != list(letters):
        raise RecordError(f"record.result.order: must list every seat once ({', '.join(letters)}), not {_short(order)}")
    winners = data["winners"]
    if not isinstance(winners, list) or not winners or any(not isinstance(w, str) or w not in letters
                                                           for w in winners) or len(set(winners)) != len(winners):
        raise RecordError(f"record.result.winners: must be a non-empty list of seat letters ({', '.join(letters)}), "
                          f"not {_short(winners)}")
    return {key: data[key] for key in RESULT_KEYS}


def _short(value: Any) -> str:
    """`value`'s repr, cut to one short line for an error message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _seats(data: Any, players: int) -> list[SeatInfo]:
    if not isinstance(data, list) or len(data) != players:
        raise RecordError(f"record.seats: must be a list of {players} seats")
    out = []
    for i, s in enumerate(data):
        where = f"record.seats[{i}]"
        if not isinstance(s, dict):
            raise RecordError(f"{where}: must be an object with name and player")
        unknown = sorted(set(s) - {"seat", "name", "player"})
        if unknown:
            raise RecordError(f"{where}: unknown field {unknown[0]!r}")
        if s.get("seat", SEAT_LETTERS[i]) != SEAT_LETTERS[i]:
            raise RecordError(f"{where}.seat: must be {SEAT_LETTERS[i]!r}, not {s.get('seat')!r}")
        out.append(SeatInfo(_text(s.get("name", f"Seat {SEAT_LETTERS[i]}"), f"{where}.name", MAX_NAME_CHARS),
                            _text(s.get("player", HUMAN), f"{where}.player", MAX_NAME_CHARS)))
    return out


def _step(data: Any, i: int, players: int, chance_kinds: tuple[str, ...]) -> Step:
    where = f"record.steps[{i}]"
    if not isinstance(data, dict):
        raise RecordError(f"{where}: must be an object with actor and move")
    unknown = sorted(set(data) - _STEP_KEYS)
    if unknown:
        raise RecordError(f"{where}: unknown field {unknown[0]!r} (known: {', '.join(sorted(_STEP_KEYS))})")
    letters = tuple(SEAT_LETTERS[:players])   # a tuple: "AB" is no seat, though it is in "ABCD"
    actor = data.get("actor")
    if actor != CHANCE_ACTOR and (not isinstance(actor, str) or actor not in letters):
        raise RecordError(f"{where}.actor: must be a seat letter ({', '.join(letters)}) or 'chance', not {actor!r}")
    if "move" not in data:
        raise RecordError(f"{where}: no move")
    move = data["move"]
    if move is not None and (not isinstance(move, str) or not move.strip() or len(move) > 200):
        raise RecordError(f"{where}.move: must be a move text, not {_short(move)}")
    if move is not None:
        check_printable(move, f"{where}.move", RecordError)
    kind = data.get("kind")
    if kind is not None and kind not in chance_kinds:
        raise RecordError(f"{where}.kind: unknown chance kind {kind!r}")
    seat = data.get("seat")
    if seat is not None and (not isinstance(seat, str) or seat not in letters):
        raise RecordError(f"{where}.seat: must be a seat letter ({', '.join(letters)}), not {seat!r}")
    seen_by = data.get("seen_by")
    if seen_by is not None and (not isinstance(seen_by, list) or
                                any(not isinstance(x, str) or x not in letters for x in seen_by)):
        raise RecordError(f"{where}.seen_by: must be a list of seat letters ({', '.join(letters)}) or absent")
    annotations = data.get("annotations")
    if annotations is not None and not isinstance(annotations, dict):
        raise RecordError(f"{where}.annotations: must be an object")
    for key, value in (annotations or {}).items():
        check_printable(key, f"{where}.annotations", RecordError)
        if isinstance(value, str):
            check_printable(value, f"{where}.annotations.{key}", RecordError)
    return Step(actor, move, kind=kind, seat=seat, seen_by=seen_by, annotations=annotations)


def record_from_moves(players: int, seed: int, moves: list[str], game_factory: GameFactory | None = None,
                      game: str = DEFAULT_GAME) -> tuple[GameRecord, Any]:
    """A record of the deal of `seed` followed by `moves` (move and outcome texts), and its final state.

    Raises RecordError naming the first move that cannot be played (``moves[3]: ...``).
    """
    record = GameRecord.new(players, seed, game=game)
    state, record.steps = apply_moves(record.initial_state(game_factory), moves, label="moves[{index}]", game=game)
    return record, state


#: The move text for a step the position's seat cannot see (another seat's blind draw or hidden pyramid cube).
UNSEEN = "?"


def apply_moves(state, moves: list[str], view: int | None = None,
                label: str = "move {number} {text}", game: str = DEFAULT_GAME) -> tuple[Any, list[Step]]:
    """Apply `moves` (move and chance-outcome texts) to a copy of `state` (a State of `game`); return
    (the copy, the steps).

    For a one-seat view (`view`), a step that seat cannot see -- in Burano another seat's blind fish draw,
    another seat's pyramid cube while pyramids are built -- is written `?` or one of the game's own
    spellings of it (`GameSpec.unseen_texts`): any legal choice, the view is the same whichever it was.
    Raises RecordError naming the first move that cannot be played (`state` is never modified); `label`
    names it, from `index` (0-based), `number` (1-based) and `text` (quoted).
    """
    unseen_texts = {UNSEEN, *get_spec(game).unseen_texts}
    work = state.clone()
    steps = []
    for i, text in enumerate(moves):
        where = label.format(index=i, number=i + 1, text=repr(text))
        if not isinstance(text, str) or not text.strip():
            raise RecordError(f"{where}: an empty move")
        if work.is_terminal():
            raise RecordError(f"{where}: the game is already over")
        unseen = text.strip() in unseen_texts
        if unseen:
            action = _unseen_action(work, view, where, game)
        else:
            try:
                action = work.string_to_action(text.strip())
            except BuranoError as exc:
                raise RecordError(f"{where}: {exc}{_did_you_mean(work, text)}") from None
        step = describe_step(work, action, game)
        if view is not None and not unseen and not step.visible_to(SEAT_LETTERS[view]):
            raise RecordError(f"{where}: seat {SEAT_LETTERS[view]} cannot see this step; write it {UNSEEN!r}")
        try:
            work.apply_action(action)    # checked: an illegal move leaves `work` untouched
        except BuranoError as exc:
            raise RecordError(f"{where}: {exc}{_did_you_mean(work, text)}") from None
        steps.append(step)
    return work, steps


def _did_you_mean(state, text: str) -> str:
    """`; did you mean 'pick flat'?` when a legal move or outcome is close to `text`."""
    import difflib
    offered = [state.action_to_string(a) for a in offered_actions(state)]
    close = difflib.get_close_matches(text.strip(), offered, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def _unseen_action(state, view: int | None, where: str, game: str) -> int:
    if view is None:
        raise RecordError(f"{where}: this is a full position: name the move or outcome ('?' is for a step the "
                          "position's seat cannot see)")
    outcomes = offered_actions(state)
    if not outcomes:
        raise RecordError(f"{where}: nothing can happen here")
    step = describe_step(state, outcomes[0], game)
    if step.visible_to(SEAT_LETTERS[view]):
        raise RecordError(f"{where}: seat {SEAT_LETTERS[view]} sees this step: name it "
                          f"(e.g. {state.action_to_string(outcomes[0])!r})")
    return outcomes[0]


#: Between a step's text and its consequences in a narration line.
EFFECTS_SEPARATOR = " — "


def narrate_step(step: Step, seat: int | None = None, game: str = DEFAULT_GAME,
                 effects: list[StepEffect] | None = None, words: str | None = None) -> str:
    """The step of a `game` record as `seat` (0-based) may read it; None: the umpire, who sees everything.

    The words are the game's (`GameSpec.narrate_step`): in Burano ``B: take b5``, ``B draws a fish card
    from the deck`` (hidden from the reader), ``A draws tuna from the deck``, ``the fish display is
    refilled: squid``, ``C places a pyramid cube (hidden)``. With the move in people's `words`
    (`step_words`) they follow its text where the reader sees it: ``C: done (stop placing lace
    workers)``. With the step's `effects` (`GameSpec.step_effects`, see `record_narration`), the ones
    the seat may read follow: ``B: take b5 (...) — B -3 coins (second move of the turn)``.
    """
    text, told = narrate_parts(step, seat, game, effects, words)
    return text + (EFFECTS_SEPARATOR + "; ".join(told) if told else "")


def narrate_parts(step: Step, seat: int | None = None, game: str = DEFAULT_GAME,
                  effects: list[StepEffect] | None = None, words: str | None = None) -> tuple[str, list[str]]:
    """`narrate_step` in parts: (the step's text, the texts of the effects `seat` may read)."""
    letter = None if seat is None else SEAT_LETTERS[seat]
    hidden = step.move is None or (letter is not None and not step.visible_to(letter))
    if words and not hidden and not step.is_chance:
        rest = words[len(step.move):] if words.startswith(step.move) else None
        if rest is None:
            told = f"{step.move} ({words})"
        elif rest.lstrip()[:1] in (":", ",", ""):   # `build pink@e5: level 2, lace` says only what it adds
            rest = rest.lstrip(" :,")
            told = f"{step.move} ({rest})" if rest else step.move
        else:                      # `end the build (1 card placed)`: the words read on from the move's text
            told = words
        step = Step(**{**step.__dict__, "move": told})
    return get_spec(game).narrate_step(step, hidden), [e.text for e in effects or () if e.visible_to(seat)]


def step_effects(before, after, action: int | None = None, game: str = DEFAULT_GAME) -> list[StepEffect]:
    """What the step from `before` to `after` (full States of `game`; `action` its action if known)
    changed, in the game's words, each effect with who may read it (`GameSpec.step_effects`)."""
    return list(get_spec(game).step_effects(before, after, action))


def step_words(state, action: int, game: str = DEFAULT_GAME) -> str | None:
    """The move `action` of `state` in people's words (`GameSpec.describe_move`); None for a chance
    outcome, or when the words are the move's text."""
    if state.is_chance_node():
        return None
    words = get_spec(game).describe_move(state, action)
    return None if words == state.action_to_string(action) else words


def record_narration(record: GameRecord, game_factory: GameFactory | None = None
                     ) -> tuple[list[str | None], list[list[StepEffect]]]:
    """For every step of `record`: its move in people's words (`step_words`) and its effects (derived: a
    record stores neither), replayed once.

    A one-seat export replays with its hidden steps filled (`GameRecord.positions`); what is told never
    depends on which fill, since a game tells only what every reader of it may know."""
    words: list[str | None] = []
    effects: list[list[StepEffect]] = []
    previous = None
    action = None
    for ply, state in record.positions(game_factory):
        if previous is not None:
            effects.append(step_effects(previous, state, action, record.game))
        if ply < len(record.steps):
            previous = state.clone()
            move = record.steps[ply].move
            try:
                action = None if move is None else state.string_to_action(move)
            except BuranoError:   # the replay names the bad step (`GameRecord._apply`)
                action = None
            words.append(None if action is None else step_words(state, action, record.game))
    return words, effects


def record_effects(record: GameRecord, game_factory: GameFactory | None = None) -> list[list[StepEffect]]:
    """The effects of every step of `record` (`record_narration`)."""
    return record_narration(record, game_factory)[1]
