"""The game interface every service speaks: a `GameSpec` per game, a `Game` per player count, `State`s.

The State API is OpenSpiel's (`current_player`, `legal_actions`, `apply_action`, `chance_outcomes`,
`clone`, `returns`, `action_to_string`, an information-state key and `resample`), plus what a search
and the services need of a game and used to hard-code for Burano: the order of finish
(`finishing_key`), a cut-off evaluation (`estimated_scores`), how a decision is searched
(`decision_mode`: in the open, or a secret simultaneous choice such as Burano's pyramids), the game's
`prior` over a decision, and a `turn_id` (plans and horizons stop when it changes).

A `GameSpec` is the one declaration of a game (OpenSpiel's `GameType` + `REGISTER_SPIEL_GAME`,
python-chess's variant classes): its key, title, player range, formats, implementations and the
optional capabilities it has (`capabilities`), which services read instead of probing with
`getattr`. `burano_ai.games` finds specs lazily by key.
"""

from __future__ import annotations

import importlib
import warnings
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

from burano_ai.core.arguments import check_action_list
from burano_ai.core.errors import OptionError
from burano_ai.core.seats import CHANCE, TERMINAL, parse_seat


class DecisionMode(IntEnum):
    """How the pending decision is searched (the C interface's DECISION_* values)."""

    OPEN = 0       # a tree edge for every seat
    SECRET = 1     # a secret simultaneous choice: an edge for the searching seat, sampled for the others


#: `State.turn_id()` of a decision that belongs to no turn (its edge never ends one).
NO_TURN = -1


@runtime_checkable
class State(Protocol):
    """One position of a game, from the rules' side (both implementations of every game)."""

    game: Any

    @property
    def num_players(self) -> int: ...
    def current_player(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def legal_actions(self, player: int | str | None = None) -> list[int]: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def apply_action(self, action: int) -> None: ...
    def clone(self) -> State: ...
    def scores(self) -> list[float]: ...
    def returns(self) -> list[float]: ...
    def action_to_string(self, action: int) -> str: ...
    def string_to_action(self, text: str) -> int: ...
    def play(self, text: str) -> int: ...
    def to_json(self, seat: int | None = None, indent: int | None = None) -> str: ...
    def to_dict(self, seat: int | None = None) -> dict[str, Any]: ...
    def information_state_key(self, seat: int) -> Any: ...   # equal for states `seat` cannot tell apart
    def resample(self, seat: int, seed: int) -> State: ...
    # What the framework used to hard-code for Burano:
    def finishing_key(self, player: int) -> tuple: ...
    def estimated_scores(self) -> list[float]: ...
    def decision_mode(self) -> int: ...
    def prior(self, player: int, legal: Sequence[int]) -> dict[int, float] | None: ...
    def turn_id(self) -> int: ...
    # A compiled State (`core._game.NativeState`) adds `key()` and `full_key()`: its 64-bit Zobrist key,
    # kept incrementally and recomputed, and `rewind_secret(seat)`: a copy with the other seats' secret
    # choices of the round made before `seat`'s own (pending) taken back, or None (`GameOpsC.rewind_secret`;
    # Goofspiel's reference has it too). The search with bandits (`Params.secret`) lets them choose again.
    # What the search's plans and messages name:
    @property
    def chance_kind(self) -> int: ...      # the pending chance event's kind, 0..6 (the C interface's)
    def chance_kind_name(self, kind: int | None = None) -> str: ...   # its name ("fish-draw", "prize")
    def phase_name(self) -> str: ...       # the part of the game the State is in ("pyramid", "bid")


#: Where the game stands, one family of names (issue 32). Each answers one question for one reader;
#: none is a synonym of another:
#:
#: - `State.phase_name()`: the rules' name of the pending phase, one word, stable ("pyramid", "bid",
#:   "over"; "chance" or the phase at a chance node, whose event `State.chance_kind_name()` names
#:   ("fish-draw", "prize")). For programs and messages about the rules (`validate`, logs, plans).
#: - `GameSpec.phase_label(position)`: where the game stands, in a few words for people ("spring r1",
#:   "round 3", "setup", "over"): a column of the analysis table, the web status line.
#: - `GameSpec.turn_label(position)`: the heading of a person's turn, longer ("spring round 1, rounds
#:   (turn)", "round 3, prize 7"): `burano play` prints it above the moves.
#: - `GameSpec.decision_label(state, seat)`: the pending decision of `seat` as the analysis lists it;
#:   by default (`Declaration`) `phase_label` of the seat's view, the same words.
#: - `GameSpec.chance_label(position)`: what the pending chance event is, for people ("fish").
#:
#: `GameSpec.phase_name(state)` was a second spelling of the first (the State's phase, or its chance
#: kind at a chance node): it is gone from the contract and from every game, and `Declaration` keeps
#: it only as a deprecated alias for outside callers.
LABEL_FAMILY = ("phase_name", "phase_label", "turn_label", "decision_label", "chance_label")


def check_prior_arguments(state: Any, player: Any, legal: Any) -> tuple[int, list[int] | None]:
    """The arguments of `State.prior(player, legal)`, checked alike in every game and implementation.

    Returns (player as a 0-based seat, `legal` as a list of ids), or (seat, None) when the prior is None
    whatever the game: `legal` empty, a chance node, the end, or `player` not the seat to decide.
    `player` may also be `current_player()`'s pseudo-player at a chance node or the end (CHANCE,
    TERMINAL): no seat decides there, so the prior is None.

    Raises:
        TypeError: `player` is not a seat, `legal` not a list or tuple of ints.
        OptionError: `player` no seat of this game; an id out of range, given twice, or not a legal move
            of the seat to decide (the prior is over legal moves; an id past the last action used to be
            read out of bounds by the compiled cores).
    """
    pseudo = type(player) is int and player in (CHANCE, TERMINAL)
    seat = player if pseudo else parse_seat(player, state.num_players, "player")
    ids = check_action_list(legal, state.game.num_distinct_actions())
    if pseudo:
        return seat, None
    if not ids or state.is_terminal() or state.is_chance_node() or state.current_player() != seat:
        return seat, None
    allowed = set(state.legal_actions())
    for action in ids:
        if action not in allowed:
            raise OptionError(f"prior: action {action} is not a legal move here")
    return seat, ids


@runtime_checkable
class Game(Protocol):
    """A game's rules and metadata for one player count (OpenSpiel's `Game`)."""

    num_players: int

    def num_distinct_actions(self) -> int: ...
    def max_chance_outcomes(self) -> int: ...
    def new_initial_state(self, seed: int = 0) -> State: ...
    def state_from_json(self, text: str) -> State: ...


#: A callable that makes a Game for a player count (a Game class is one).
GameFactory = Callable[[int], Game]


@dataclass(frozen=True)
class StepVisibility:
    """Who sees one step of a game, as a record writes it (`GameSpec.step_visibility`).

    Attributes:
        kind: a chance step's kind, one of the spec's `chance_kinds` ("fish-draw"); for a move, None or what
            every seat sees of a private move (also one of `chance_kinds`: Walking in Burano's "return-L2").
        seat: a chance step's owner (the seat that draws), when the event belongs to one seat.
        seen_by: the seats that see the step's outcome; None when every seat does.
    """

    kind: str | None = None
    seat: int | None = None
    seen_by: tuple[int, ...] | None = None


@dataclass(frozen=True)
class StepEffect:
    """One consequence of a step, in words, and who may read it (`GameSpec.step_effects`).

    Attributes:
        text: the consequence as people read it ("B +2 coins (bumped from I2)").
        seen_by: the seats that may read it; None when every seat may.
        points: the points it tells, as (seat, scoring category, points): the end's score table adds a
            game's up by category (Burano, Goofspiel; the games whose final State has a `final_breakdown`
            leave it empty).
    """

    text: str
    seen_by: tuple[int, ...] | None = None
    points: tuple[tuple[int, str, float], ...] = ()

    def visible_to(self, seat: int | None) -> bool:
        """Whether `seat` (None: the umpire, who sees everything) may read this effect."""
        return seat is None or self.seen_by is None or seat in self.seen_by


def unrevealed_moves(steps: Sequence[Any]) -> set[int]:
    """The indices of the record `steps` (`record.Step`s) that are moves after the last public move
    (chance steps skipped): secret simultaneous moves still unrevealed when the record ends (Burano's
    pyramid being built, Goofspiel's open round). A game's `hidden_in_export` starts from these."""
    unrevealed: set[int] = set()
    for i in range(len(steps) - 1, -1, -1):
        step = steps[i]
        if step.is_chance:
            continue
        if step.seen_by is None:
            break
        unrevealed.add(i)
    return unrevealed


@dataclass(frozen=True)
class BotDeclaration:
    """One of a game's own bots (`GameSpec.bots`): a heuristic choice and the options its spec takes.

    The framework plays it (`burano_ai.bots.heuristic.HeuristicBot`), so a game's heuristics import
    nothing of the framework.

    Attributes:
        choose: ``(world, seat, legal, rng, options, sample_chance) -> action``: `world` is the seat's
            view loaded back (a State of its own, to modify at will), `legal` the legal actions, `rng` a
            `random.Random` seeded per decision, `options` the spec's options over the defaults,
            `sample_chance(state, rng) -> outcome` the framework's chance sampler.
        options: option key -> default value; an int option takes a whole number >= 1, a float one a
            number >= 0.
        summary: one line for the bot tables.
    """

    choose: Callable[..., int]
    options: Mapping[str, Any]
    summary: str = ""


#: The kinds of a game option (`GameOption.kind`).
OPTION_KINDS = ("choice", "int", "bool", "data")


@dataclass(frozen=True)
class GameOption:
    """One option of a game besides its player count (`GameSpec.game_options`): a keyword argument of
    `GameSpec.new_game` and of the game's Game classes, of the same name.

    A value is a JSON value everywhere it travels (the protocol, the web API, a record's `options`): a
    choice is one of `choices`, an int is in `low..high`, a bool is true or false, and a "data" option
    is a JSON object (a game's replaceable component data: on the command line, the path of a JSON
    file, read by `core.options`). `core.options.parse_game_options` checks values against this
    declaration; the game's own loader (`load`) checks a data object's contents.

    Attributes:
        name: the keyword (`side`, `data`); `--option NAME=VALUE` on the command line.
        kind: "choice", "int", "bool" or "data" (`OPTION_KINDS`).
        default: the value when the option is not given (None for "data": the built-in data).
        help: one line for `burano games` and the web form.
        choices: a "choice" option's values.
        low, high: an "int" option's range (inclusive).
        values: an "int" option's only values, when not every whole number of its range is one (Venice
            2099's `move_dirs`: 4 or 8); empty: the whole range.
        load: a "data" option's validator: called with the JSON object, raises a one-line `OptionError`
            naming the wrong item; its return value says whether the data is a placeholder (True/False),
            or None when the game does not say.
    """

    name: str
    kind: str
    default: Any = None
    help: str = ""
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    values: tuple[int, ...] = ()
    load: Callable[[Any], bool | None] | None = None

    def __post_init__(self) -> None:
        if self.kind not in OPTION_KINDS:
            raise ValueError(f"GameOption {self.name!r}: kind must be one of {', '.join(OPTION_KINDS)}, "
                             f"not {self.kind!r}")


def import_game_class(spec: GameSpec, implementation: str = "compiled") -> GameFactory:
    """The Game class of `spec`'s `implementation`, imported from its "module:attribute" entry: what
    every spec's `game_class` does.

    "compiled" asks for the default implementation: a game written in Python only (no "compiled" entry)
    gives its first one, so the services' default works for it unchanged.

    Raises:
        OptionError: the game has no such implementation (the message names the ones it has).
    """
    if implementation == "compiled" and "compiled" not in spec.implementations:
        implementation = next(iter(spec.implementations))
    if implementation not in spec.implementations:
        raise OptionError(f"unknown implementation {implementation!r} of {spec.title} "
                          f"(expected {' or '.join(spec.implementations)})")
    module, _, attribute = spec.implementations[implementation].partition(":")
    return getattr(importlib.import_module(module), attribute)


#: The utility models of OpenSpiel's sense a game declares (`GameSpec.utility`): "shares", `returns()` are
#: win/loss shares summing to 1 (1/k to each of k winners: every game before the poker ones); "payoff",
#: `returns()` are what each seat wins or loses (chips) within `GameSpec.payoff_range`.
UTILITY_MODELS = ("shares", "payoff")

#: The required declaration of a game (at most 12 members); every other `GameSpec` member has a default
#: in `core.spec.SpecBase`.
DECLARATION = ("key", "title", "min_players", "max_players", "default_players", "position_format",
               "implementations", "capabilities", "game_options", "utility", "payoff_range", "action_counts")


class Declaration:
    """The declaration members a game of win/loss shares gets without writing them: `utility` "shares",
    returns in 0..1, and the counts read off its Game (a spec of the games written before the declaration
    inherits it; `core.spec.SpecBase` builds on it); and the label defaults of `LABEL_FAMILY`."""

    utility: str = "shares"

    def payoff_range(self, num_players: int) -> tuple[float, float]:
        """(lowest, highest) return of a seat: 0..1 for win shares."""
        return 0.0, 1.0

    def action_counts(self, num_players: int) -> tuple[int, int]:
        """(distinct actions, most chance outcomes at one node), read off the Game of `num_players`."""
        game = self.new_game(num_players)  # type: ignore[attr-defined]
        return game.num_distinct_actions(), game.max_chance_outcomes()

    def decision_label(self, state: Any, seat: int) -> str:
        """`phase_label` of `seat`'s view of `state` (`LABEL_FAMILY`)."""
        return self.phase_label(state.to_dict(seat))  # type: ignore[attr-defined]

    def phase_name(self, state: Any) -> str:
        """Deprecated (`LABEL_FAMILY`): `state.chance_kind_name()` at a chance node, else `state.phase_name()`."""
        warnings.warn("GameSpec.phase_name(state) is deprecated: use state.phase_name() (or, at a chance node, "
                      "state.chance_kind_name())", DeprecationWarning, stacklevel=2)
        return state.chance_kind_name() if state.is_chance_node() else state.phase_name()


def payoff_range_of(game: Any) -> tuple[float, float] | None:
    """(lowest, highest) return of a seat of `game` (a Game) when its utility model is "payoff", else None.

    A Game declares its model as `utility` (`core.history.HistoryGame`: its spec's); the compiled and
    reference Games of the games written before the declaration existed have no such attribute, and their
    model is "shares".
    """
    if getattr(game, "utility", "shares") != "payoff":
        return None
    return game.payoff_range()


def player_range_text(spec: GameSpec) -> str:
    """The spec's player counts as people read them in messages: "2, 3 or 4"."""
    counts = [str(n) for n in range(spec.min_players, spec.max_players + 1)]
    return counts[0] if len(counts) == 1 else f"{', '.join(counts[:-1])} or {counts[-1]}"


@runtime_checkable
class GameSpec(Protocol):
    """The declaration of one game: everything a service may ask of it besides a State.

    Attributes:
        key: the registry name (`burano`, `goofspiel`), also `--game` on the command line.
        title: the game's name for people.
        min_players, max_players: the game's player range (within 1..`seats.MAX_SEATS`).
        default_players: the player count when none is given.
        position_format: the `format` tag of its position files (`burano-position/1`).
        implementations: implementation name -> "module:attribute" of its Game class; "compiled"
            is the default, "reference" the readable oracle.
        capabilities: optional features the game has (see `CAPABILITIES`).
        game_options: the options a game takes besides its player count (`GameOption`; may be empty).
    """

    key: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    position_format: str
    implementations: dict[str, str]
    capabilities: frozenset[str]

    #: The game's options besides the player count, name -> `GameOption` (`core.people.PeopleSide`: none).
    game_options: Mapping[str, GameOption]
    #: The game's default search where it differs from `search.Params()`: Params keyword -> value, used
    #: by its `ismcts` bots and by `suggest` and `analyse` when no tunables are given
    #: (`core.people.PeopleSide`: none; Venice 2099: its search prior off, `prior_bias` 0).
    search_defaults: Mapping[str, Any]

    def game_class(self, implementation: str = "compiled") -> GameFactory: ...
    def new_game(self, num_players: int, implementation: str = "compiled", **options: Any) -> Game:
        """A Game of `implementation` for `num_players` players; `options` are `game_options` values
        (JSON values, as `core.options.parse_game_options` returns them), passed on to the Game class
        as keyword arguments of the same names.

        Raises:
            OptionError: a player count or an option out of range (one line, named).
        """
        ...

    # --- engine side: positions, records, bots, arena (engine, protocol, record, session, arena)
    #: What a seat's score counts, as a column name ("vp" for Burano's victory points).
    score_name: str
    #: The kinds of chance event a record may name (`Step.kind`).
    chance_kinds: tuple[str, ...]
    #: Move texts that stand for a step the position's seat cannot see, besides the generic "?".
    unseen_texts: frozenset[str]

    def load_position(self, data: Mapping[str, Any], game_factory: GameFactory | None = None
                      ) -> tuple[State, int | None]:
        """Check a position object of this game (`format` == `position_format`) and build its State with
        `game_factory` (default: the compiled Game); return (State, its view seat or None).

        Raises:
            PositionError: the position is malformed or impossible (the message names the field).
        """
        ...

    def decision_label(self, state: State, seat: int) -> str:
        """Where in the game a decision of `seat` stands, for people ("spring r1", "turn 3"): `phase_label`
        of the seat's view unless the game says otherwise (`LABEL_FAMILY`)."""
        ...

    def step_visibility(self, state: State, action: int) -> StepVisibility:
        """Who sees the step of applying `action` at `state` (the state is not modified)."""
        ...

    def hidden_in_export(self, steps: Sequence[Any], seat: int) -> set[int]:
        """The indices of the record `steps` (`record.Step`s) that a one-seat export for `seat` hides:
        the steps the seat does not see and that the game never reveals to it later."""
        ...

    def resample_for_record(self, state: State, seat: int, later: Sequence[Any], seed: int,
                            game_factory: GameFactory | None = None) -> State | None:
        """A world `seat` cannot tell from `state` in which the record steps `later` (`record.Step`s from
        `state` on; a hidden one has no move) can be played as far as the game can see from them, drawn with
        `seed`; None when the game has no such sampler or none fits. A one-seat export's replay asks it
        first when a step cannot be played in the world it holds, then tries `State.resample`
        (`record.GameRecord.positions`): a game whose hidden parts are shown much later (Venice 2099's
        hands, one card a turn) gives one here, so its replay needs no blind trials."""
        ...

    def narrate_step(self, step: Any, hidden: bool) -> str:
        """A record's `Step` in words; `hidden`: as a reader who does not see its outcome reads it."""
        ...

    def step_effects(self, before: State, after: State, action: int | None = None) -> list[StepEffect]:
        """What a step changed, in words: scores and other counts gained or paid and why, and at the end
        the result explained (`describe_result`). `before` and `after` are the full States around the
        step (not modified), `action` the step's action when known (else the game finds one leading from
        `before` to `after`). Each effect names who may read it: nothing a seat cannot see.
        `core.people.PeopleSide` gives a generic form (every seat's score change, from its own views)."""
        ...

    def describe_result(self, state: State) -> list[str]:
        """The final result in words, the tie-break named where it decided ("A and B tie on 17 VP; B
        wins on ..."); [] unless `state` is terminal."""
        ...

    def bots(self) -> Mapping[str, BotDeclaration]:
        """The game's own bots (its heuristics), besides the generic ones every game has."""
        ...

    # --- people side: terminal rendering, move entry, score columns (cli, play)
    # `core.people.PeopleSide` implements every one of these for any game; a spec overrides what it
    # knows better.

    def render(self, position: dict[str, Any], width: int | None = None) -> str:
        """A position as plain text for the terminal (`position` = `State.to_dict(seat)`: full or a view),
        laid out for a terminal `width` columns wide (None: the game's full layout)."""
        ...

    def render_styled(self, position: dict[str, Any], width: int | None = None) -> list[list[tuple[str, str]]]:
        """`render`'s lines as spans (text, style): a rich style name, "" for none (`burano play` shows
        the styles on a colour terminal; the texts joined are `render`'s lines)."""
        ...

    def render_legal_actions(self, state: State) -> str:
        """The legal moves of the seat to move (or the chance outcomes), as plain text."""
        ...

    def describe_move(self, state: State, action: int) -> str:
        """A legal move of `state` as people read it (Burano: ``roof the flat pink-white tile on
        e3-g3``); its record text (`State.action_to_string`) stays the canonical notation."""
        ...

    def describe_moves(self, state: State, actions: list[int]) -> list[str]:
        """`describe_move` of each of `actions` (the legal moves a page lists after every step: a game whose
        words read a view reads it once for all)."""
        ...

    def why_illegal(self, state: State, action: int) -> str | None:
        """Why `action` (a move of the game the player typed) is not legal at `state`, in words, or None
        when the game does not say (`core.people.PeopleSide`: None). `burano play` shows it instead of a
        guess at the move meant."""
        ...

    def move_notes(self, state: State) -> list[str]:
        """Lines shown with the legal moves: what the next move costs, and why moves people may expect
        are missing ("sail I3: needs 1 privilege, you have 0"); [] when there is nothing to say."""
        ...

    def phase_label(self, position: dict[str, Any]) -> str:
        """Where the game stands, in a few words ("spring r1"); "" when the game has no phases
        (`LABEL_FAMILY`)."""
        ...

    def turn_label(self, position: dict[str, Any]) -> str:
        """Where the game stands, for the heading of a person's turn ("spring round 1, rounds (turn)")
        (`LABEL_FAMILY`)."""
        ...

    def chance_label(self, position: dict[str, Any]) -> str:
        """What the pending chance event is ("fish"), for a position at a chance node."""
        ...

    def seat_label(self, seat: int) -> str:
        """A seat as a score table names it: its letter, and the game's colour if it has one ("A (blue)")."""
        ...

    def score_columns(self, state: State) -> list[tuple[str, list[str]]]:
        """The final score table's columns, (header, one cell per seat); the first is the score itself."""
        ...

    def describe_scores(self, scores: Sequence[float]) -> str:
        """Scores per seat in words ("A 34 VP, B 20 VP")."""
        ...

    def example_position(self) -> str:
        """The built-in position (JSON text) `burano suggest` searches when it is given no file."""
        ...

    def move_entry(self) -> MoveEntry | None:
        """The game's own shortcuts for typing moves at the terminal; None: numbers and move texts only."""
        ...

    # --- web side: the board module (web)
    # web_board: str -- with the `web_board` capability: the game's board module, a script under
    #     /static/, kept in the game's web/ folder ("games/burano/board.js": burano_ai/games/burano/web/) that registers itself in
    #     `window.BoardModules[key]` (renderBoard, moveTargets, ...); read only when the capability is
    #     declared, so a game without a board module leaves it out and gets the generic board (its view
    #     as structured text and a button per legal move).


@runtime_checkable
class OpenSpielSpec(Protocol):
    """What a spec with the capability "openspiel" adds: its OpenSpiel adapter, which the generic
    openspiel-* bots play through (`burano_ai.bots.openspiel_bots`)."""

    def openspiel_game(self, num_players: int, implementation: str = "compiled") -> Any:
        """A pyspiel Game of this game whose ``wrap(state)`` makes a pyspiel State of one of our States."""
        ...

    def openspiel_unwrap(self, wrapped: Any) -> State | None:
        """Our State inside a pyspiel State of `openspiel_game` (None where there is none yet)."""
        ...


@runtime_checkable
class MoveEntry(Protocol):
    """A game's shortcuts for typing moves at the terminal, besides a number and a move's text.

    Burano's: a whole pyramid in one line (`pyramid w w g b ...`, colour letters or names).

    Attributes:
        unit: what the moves of one line are, in the plural ("cubes"), for "A: pyramid W G (2 cubes)".
        help: lines for `burano play`'s help text, each "  <example>   <what it does>".
    """

    unit: str
    help: str

    def expand(self, text: str, legal: Sequence[str]) -> tuple[list[str], str | None] | None:
        """The moves one typed line stands for: None when the line is not in the game's short form,
        else (moves, None), or ([], an error message naming the bad part). `text` is lower case with
        single spaces; `legal` the legal move texts (a line that is one of them is never short form)."""
        ...

    def complete_word(self, line: str) -> list[str]:
        """Completions of the last word of `line` (lower case) in the game's short form; [] if none."""
        ...

    def one_line(self, moves: Sequence[str]) -> str | None:
        """Several moves written as one short-form line ("pyramid w w g"), or None if they are not one."""
        ...


#: Optional capabilities a spec may declare.
CAPABILITIES = frozenset({
    "native_search",    # its compiled State extends core._game.NativeState (the native tree can run it)
    "hidden_information",  # a seat's view hides something (resample is not the identity)
    "secret_moves",     # decisions in DecisionMode.SECRET
    "heuristic_playout",  # the compiled playout has a heuristic policy besides random
    "web_board",        # a board module of its own for the web page (`web_board`; else the generic board)
    "web_editor",       # its board module has position-editor tools (the web page's "Set up a position")
    "openspiel",        # an adapter to a pyspiel game (the spec is also an `OpenSpielSpec`)
    "placeholder_data",  # some component data is a stand-in for lost originals (say so everywhere)
})
