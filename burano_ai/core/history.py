"""The default position format and the State API written once, for games that are their action history.

A small game (Kuhn poker, Leduc poker) writes its rules only: a `HistoryState` subclass with the
OpenSpiel five (`current_player`, `_legal`, `chance_outcomes`, `_apply`, `returns`), the text of an
action (`_action_text`) and who alone sees a step (`_owner`). Everything else a service asks of a
State comes from here: the checked `apply_action` and `play`, `clone`, views, JSON in and out, the
information-state key, `resample`, and the engine hooks with defaults a Python-only game can use.

**The position format** (`<game>-position/1`) is the action history plus per-seat masking::

    {"format": "kuhn-poker-position/1", "players": 2, "options": {},
     "history": ["deal 2", "?", "bet"], "view": "A"}

`history` holds the steps' texts in order; in a one-seat view (`view`: a seat letter) every step the
seat does not see (another seat's card, a secret move) is "?". Loading a view fills each "?" with an
outcome that lets the rest of the history be played (`fill_history`: a depth-first search over the
hidden steps, candidates in a seeded order weighted by the chance probabilities), so a view loads into
one world the seat cannot tell from the true one and never reads the truth; `resample(seat, seed)` is
the same fill from the seat's own view with another seed. `info` (optional) holds derived fields for
people (the pot, a seat's card); on load it must equal what the history gives.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any, Mapping, Sequence

from burano_ai.core.arguments import check_action_id, check_indent, check_index, value_text
from burano_ai.core.errors import IllegalMoveError, OptionError, PositionError
from burano_ai.core.game import DECLARATION, NO_TURN, DecisionMode, check_prior_arguments
from burano_ai.core.jsonio import parse_json_text
from burano_ai.core.seats import CHANCE, SEAT_LETTERS, TERMINAL, parse_seat
from burano_ai.core.seeds import check_seed

#: A hidden step in a one-seat view's history.
UNSEEN = "?"
#: `HistoryState.owners` entry of a step every seat sees.
PUBLIC = -1
#: The fields of a position object; `info` is derived and optional.
FIELDS = ("format", "players", "options", "history", "view", "info")
#: Steps `fill_history` may play over all its tries before it gives up (a view whose "?"s no outcome fits).
MAX_FILL_NODES = 20000


def _fail(field: str, message: str) -> PositionError:
    return PositionError(f"position.{field}: {message}")


class HistoryGame:
    """A Game of a `HistoryState` game for one player count and its options (OpenSpiel's `Game`).

    A game makes its class with `HistoryGame.of(SPEC, State)`; the counts, `utility` and the payoff range
    come from the spec.

    Raises:
        OptionError: a player count or an option out of the spec's range (one line, named).
    """

    spec: Any
    state_class: type[HistoryState]

    @classmethod
    def of(cls, spec: Any, state_class: type[HistoryState]) -> type[HistoryGame]:
        """The Game class of `spec` whose States are `state_class`, named `Game` in the spec's module (its
        `implementations` entry, and where pickle finds it).

        Raises:
            TypeError: `spec` lacks a member of the declaration (`core.game.DECLARATION`), or `state_class`
                is not a `HistoryState` subclass.
        """
        missing = [name for name in DECLARATION if not hasattr(spec, name)]
        if missing:
            raise TypeError(f"a game's spec must declare {', '.join(DECLARATION)}; {value_text(spec)} lacks "
                            f"{', '.join(missing)}")
        if not (isinstance(state_class, type) and issubclass(state_class, HistoryState)):
            raise TypeError(f"state_class must be a HistoryState subclass, not {value_text(state_class)}")
        return type("Game", (cls,), {"spec": spec, "state_class": state_class, "__module__": type(spec).__module__,
                                     "__qualname__": "Game", "__doc__": f"{spec.title} for one player count."})

    def __init__(self, num_players: int, **options: Any) -> None:
        from burano_ai.core.people import check_player_count
        from burano_ai.core.options import parse_game_options
        self.num_players = check_player_count(num_players, self.spec, "players")
        declared = self.spec.game_options
        parse_game_options(self.spec, options)
        self.options = {name: options.get(name, option.default) for name, option in declared.items()}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.num_players}, **{self.options!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and (other.num_players, other.options) == (self.num_players, self.options)

    def __hash__(self) -> int:
        return hash((type(self), self.num_players, json.dumps(self.options, sort_keys=True)))

    def __reduce__(self):
        return _make_game, (type(self), self.num_players, self.options)

    @property
    def utility(self) -> str:
        """The spec's utility model ("shares" or "payoff": `core.game.UTILITY_MODELS`)."""
        return self.spec.utility

    def payoff_range(self) -> tuple[float, float]:
        """(lowest, highest) return of a seat (OpenSpiel's min/max utility)."""
        return self.spec.payoff_range(self.num_players)

    def num_distinct_actions(self) -> int:
        return self.spec.action_counts(self.num_players)[0]

    def max_chance_outcomes(self) -> int:
        return self.spec.action_counts(self.num_players)[1]

    def new_initial_state(self, seed: int = 0) -> HistoryState:
        """The empty history (the deal is chance steps, so `seed` is accepted and unused)."""
        check_seed(seed)
        return self.state_class(self)

    def state_from_json(self, text: str | bytes) -> HistoryState:
        """The State of a position's JSON text (full, or a one-seat view filled by `fill_history`).

        Raises:
            PositionError: not JSON, or a field is wrong (the message names it).
        """
        state, _view = load_history_position(self.spec, parse_json_text(text), lambda n, **o: self._same(n, o))
        return state

    def _same(self, num_players: int, options: Mapping[str, Any]) -> HistoryGame:
        if (num_players, {**self.options, **options}) != (self.num_players, self.options):
            raise _fail("players", f"the position is a {num_players}-player game with options {dict(options)}, "
                                   f"this Game is {self!r}")
        return self


def _make_game(cls: type, num_players: int, options: dict) -> HistoryGame:
    return cls(num_players, **options)


class HistoryState:
    """A position of a game held as its action history, with the whole State API (module docstring).

    A subclass sets up its fields in `_setup`, and implements `current_player`, `_legal`,
    `chance_outcomes`, `_apply`, `returns`, `_action_text` and `_owner`; it may override the
    engine hooks (`decision_mode`, `prior`, `turn_id`, `finishing_key`, `estimated_scores`) and
    `_revealed`, `_info`. The hooks take checked arguments (an id in range, a seat index or None): the
    public methods here check what a caller passes first, so a game never validates.
    """

    #: The names of its chance events (`chance_kind` indexes it; the spec's `chance_kinds`).
    CHANCE_KINDS: tuple[str, ...] = ("chance",)

    def __init__(self, game: HistoryGame) -> None:
        self.game = game
        self.history: list[int] = []
        #: Per step: the seat that alone sees it, or PUBLIC.
        self.owners: list[int] = []
        self._setup()

    # --- what a game writes

    def _setup(self) -> None:
        """Set the fields of the empty history."""

    def current_player(self) -> int:
        raise NotImplementedError

    def _legal(self) -> list[int]:
        """The sorted legal actions of the seat to move (never called at chance or the end)."""
        raise NotImplementedError

    def chance_outcomes(self) -> list[tuple[int, float]]:
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        """Apply an offered action (legal move or chance outcome) to the fields."""
        raise NotImplementedError

    def returns(self) -> list[float]:
        raise NotImplementedError

    def _action_text(self, action: int) -> str:
        """The text of `action` here (an id below the node's count: outcomes at chance, actions elsewhere)."""
        raise NotImplementedError

    def _owner(self, action: int) -> int:
        """The seat that alone sees the pending step (`action` about to be applied), or PUBLIC."""
        return PUBLIC

    def _revealed(self) -> frozenset[int]:
        """Seats whose private steps every seat now sees (a poker showdown); none by default."""
        return frozenset()

    def _info(self, seat: int | None) -> dict[str, Any]:
        """Derived fields for people, as `seat` (None: the umpire) sees them; none by default."""
        return {}

    # --- the State API

    @property
    def num_players(self) -> int:
        return self.game.num_players

    @property
    def game_name(self) -> str:
        """The registry key of the game (`GameSpec.key`)."""
        return self.game.spec.key

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def action_to_string(self, action: int) -> str:
        """The text of `action` here: a chance outcome at a chance node, a move elsewhere.

        Raises:
            TypeError: `action` is not an int. IllegalMoveError: no such id at this node.
        """
        action = check_action_id(action)
        count = self.game.max_chance_outcomes() if self.is_chance_node() else self.game.num_distinct_actions()
        return self._action_text(check_index(action, count, "action", IllegalMoveError))

    def info(self, seat: int | str | None = None) -> dict[str, Any]:
        """The position's derived fields for people (the pot, the cards `seat` sees; None: the umpire).

        Raises:
            TypeError / OptionError: `seat` is not a seat of this game.
        """
        return self._info(None if seat is None else parse_seat(seat, self.num_players))

    def legal_actions(self, player: int | str | None = None) -> list[int]:
        """The legal moves of the seat to move ([] at chance and at the end); with `player`, [] unless it
        is that seat's turn.

        Raises:
            TypeError / OptionError: `player` is not a seat of this game.
        """
        mover = self.current_player()
        if player is not None and parse_seat(player, self.num_players, "player") != mover:
            return []
        return self._legal() if mover >= 0 else []

    def _offered(self) -> list[int]:
        if self.is_chance_node():
            return [a for a, _ in self.chance_outcomes()]
        return self.legal_actions()

    def apply_action(self, action: int) -> None:
        """Apply a legal move or an offered chance outcome.

        Raises:
            TypeError: `action` is not an int. IllegalMoveError: it is not offered here (state untouched).
        """
        action = check_action_id(action)
        if action not in self._offered():
            raise IllegalMoveError(f"illegal move {action} {self._where()}: expected one of "
                                   f"{', '.join(self.action_to_string(a) for a in self._offered()) or 'nothing'}")
        self._step(action)

    def _step(self, action: int) -> None:
        self.owners.append(self._owner(action))
        self.history.append(action)
        self._apply(action)

    def string_to_action(self, text: str) -> int:
        """The offered action whose text is `text` (case and spacing ignored).

        Raises:
            TypeError: `text` is not a str. IllegalMoveError: no offered action has that text.
        """
        if not isinstance(text, str):
            raise TypeError(f"a move must be a str, not {type(text).__name__}")
        wanted = " ".join(text.split()).lower()
        for action in self._offered():
            if self.action_to_string(action).lower() == wanted:
                return action
        texts = [self.action_to_string(a) for a in self._offered()]
        raise IllegalMoveError(f"illegal move {value_text(text.strip())} {self._where()}: expected "
                               f"{' or '.join(texts) if texts else 'nothing (the game is over)'}")

    def play(self, text: str) -> int:
        """Parse a move text, check it and apply it; return its id (IllegalMoveError: state untouched)."""
        action = self.string_to_action(text)
        self._step(action)
        return action

    def _where(self) -> str:
        mover = self.current_player()
        who = "at a chance event" if mover == CHANCE else "after the end" if mover == TERMINAL \
            else f"for {SEAT_LETTERS[mover]}"
        return f"at step {len(self.history) + 1} {who}"

    def check(self) -> None:
        """Raise AssertionError naming the first broken invariant: the fields are those the history gives
        when replayed from the start (with every step offered where it was played), one owner a step."""
        assert len(self.owners) == len(self.history), "one owner per step"
        replay = type(self)(self.game)
        for i, action in enumerate(self.history):
            assert action in replay._offered(), f"step {i}: {action} was not offered there"
            replay._step(action)
        for name, value in self.__dict__.items():
            assert name == "game" or replay.__dict__[name] == value, f"{name}: not what the history gives"

    def clone(self) -> HistoryState:
        out = object.__new__(type(self))
        out.__dict__ = {k: _copied(v) for k, v in self.__dict__.items()}
        return out

    __copy__ = clone

    def __deepcopy__(self, memo: dict) -> HistoryState:
        return self.clone()

    def __reduce__(self):
        return self.game.state_from_json, (self.to_json(),)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.game == self.game and other.history == self.history

    def __hash__(self) -> int:
        return hash(tuple(self.history))

    def __str__(self) -> str:
        return self.game.spec.render(self.to_dict())

    def __repr__(self) -> str:
        return f"<{self.game.spec.key} State {' '.join(self.action_strings())}>"

    def action_strings(self, seat: int | str | None = None) -> list[str]:
        """The history's texts; for a `seat`, its view ("?" for a step it does not see).

        Raises:
            TypeError / OptionError: `seat` is not a seat of this game.
        """
        if seat is not None:
            seat = parse_seat(seat, self.num_players)
        out: list[str] = []
        replay = type(self)(self.game)
        revealed = self._revealed()
        for action, owner in zip(self.history, self.owners):
            hidden = seat is not None and owner not in (PUBLIC, seat) and owner not in revealed
            out.append(UNSEEN if hidden else replay._action_text(action))
            replay._step(action)
        return out

    # --- outcome and the engine's hooks (defaults a Python-only game can use)

    def scores(self) -> list[float]:
        """What each seat's score column shows: its returns (chips in a payoff game)."""
        return list(self.returns())

    def finishing_key(self, player: int | str) -> tuple:
        """The order of finish: the higher return the better (equal keys share the place)."""
        return (self.returns()[parse_seat(player, self.num_players, "player")],)

    def estimated_scores(self) -> list[float]:
        """The returns so far (a cut-off estimate for a game without a better one)."""
        return [float(x) for x in self.returns()]

    def decision_mode(self) -> int:
        """Every decision in the open (`DecisionMode.OPEN`)."""
        return int(DecisionMode.OPEN)

    def prior(self, player: int, legal: Sequence[int]) -> dict[int, float] | None:
        """None: no prior (after the common argument checks)."""
        check_prior_arguments(self, player, legal)
        return None

    def turn_id(self) -> int:
        """The step's index at a decision (every decision its own turn), NO_TURN elsewhere."""
        return len(self.history) if self.current_player() >= 0 else NO_TURN

    @property
    def chance_kind(self) -> int:
        return 0

    def chance_kind_name(self, kind: int | None = None) -> str:
        """The name of a chance kind (default: the pending one).

        Raises:
            TypeError: `kind` is not an int. OptionError: no such kind.
        """
        names = self.CHANCE_KINDS
        return names[self.chance_kind if kind is None else check_index(kind, len(names), "chance kind")]

    def phase_name(self) -> str:
        """"chance", "play" or "over"."""
        mover = self.current_player()
        return "over" if mover == TERMINAL else "chance" if mover == CHANCE else "play"

    # --- views, keys, resampling, JSON

    def information_state_key(self, seat: int | str) -> int:
        """A 64-bit key of `seat`'s view (equal for the states it cannot tell apart)."""
        seat = parse_seat(seat, self.num_players)
        text = json.dumps([seat, self.action_strings(seat)])
        return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")

    def resample(self, seat: int | str, seed: int) -> HistoryState:
        """A world `seat` cannot tell from this one, drawn with `seed` from its own view (`fill_history`)."""
        seat = parse_seat(seat, self.num_players)
        check_seed(seed)
        return fill_history(self.game, self.action_strings(seat), seat, random.Random(seed))

    def to_dict(self, seat: int | str | None = None) -> dict[str, Any]:
        """The position (module docstring), full or as `seat` sees it."""
        if seat is not None:
            seat = parse_seat(seat, self.num_players)
        out: dict[str, Any] = {"format": self.game.spec.position_format, "players": self.num_players,
                               "options": dict(self.game.options), "history": self.action_strings(seat),
                               "view": None if seat is None else SEAT_LETTERS[seat]}
        info = self._info(seat)
        if info:
            out["info"] = info
        return out

    def to_json(self, seat: int | str | None = None, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(seat), indent=check_indent(indent))


def _copied(value: Any) -> Any:
    if isinstance(value, list):
        return [_copied(v) for v in value]
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    return value


def fill_history(game: HistoryGame, texts: Sequence[str], seat: int | None, rng: random.Random) -> HistoryState:
    """A State of `game` that plays `texts` (a history, "?" for each step `seat` does not see).

    Rejection sampling: each try plays the history from the start, drawing every hidden step by its
    chance probability (uniformly among the legal moves for a hidden move), and is kept when every later
    text can be played and the world shows `seat` exactly `texts`; else the next try starts over. A kept
    world is a draw from the worlds `seat` cannot tell apart, in proportion to their chance (no search
    order skews it, and a conflict found late costs one try, not a backtrack through every earlier choice).

    Raises:
        PositionError: a text no world can play (named by its index), or no world found in MAX_FILL_NODES
            steps played.
    """
    budget = MAX_FILL_NODES
    deepest: list[Any] = [-1, "no world fits the hidden steps"]

    def note(i: int, message: str) -> None:
        if i > deepest[0]:
            deepest[0], deepest[1] = i, message

    while budget > 0:
        state = game.state_class(game)
        for i, text in enumerate(texts):
            budget -= 1
            if text != UNSEEN:
                try:
                    action = state.string_to_action(text)
                except IllegalMoveError as exc:
                    note(i, f"[{i}]: {exc}")
                    break
                state._step(action)
                continue
            if seat is None:
                raise _fail(f"history[{i}]", f"{UNSEEN!r} only in a one-seat view (set view)")
            if state.is_terminal():
                note(i, f"[{i}]: the game is already over")
                break
            outcomes = state.chance_outcomes() if state.is_chance_node() else \
                [(a, 1.0) for a in state.legal_actions()]
            action = _weighted_order(outcomes, rng)[0]
            if state._owner(action) in (PUBLIC, seat):
                raise _fail(f"history[{i}]", f"{SEAT_LETTERS[seat]} sees this step: write its text, not {UNSEEN!r}")
            state._step(action)
        else:
            if seat is None or state.action_strings(seat) == list(texts):
                return state
            note(len(texts), f"the steps hidden from {SEAT_LETTERS[seat]} do not match the history")
        if UNSEEN not in texts:
            break                       # nothing is drawn: another try would fail the same way
    message = deepest[1]
    tried = f" (no world found in {MAX_FILL_NODES} steps played)" if UNSEEN in texts else ""
    raise PositionError(f"position.history{message if message.startswith('[') else ': ' + message}{tried}")


def _weighted_order(outcomes: list[tuple[int, float]], rng: random.Random) -> list[int]:
    """The actions of `outcomes` in a random order, each next one drawn with its probability."""
    left = list(outcomes)
    order = []
    while left:
        total = sum(p for _, p in left)
        x = rng.random() * total
        k = 0
        while k < len(left) - 1 and x >= left[k][1]:
            x -= left[k][1]
            k += 1
        order.append(left.pop(k)[0])
    return order


def load_history_position(spec, data: Any, game_factory=None) -> tuple[HistoryState, int | None]:
    """Check a position object of `spec`'s history format and build its State; (State, view seat or None).

    `game_factory(players, **options)` makes the Game (default: the spec's `new_game` of its first
    implementation).

    Raises:
        PositionError: a field is wrong (the message names it).
    """
    if not isinstance(data, dict):
        raise PositionError(f"position: expected a JSON object, not {type(data).__name__}")
    for key in data:
        if key not in FIELDS:
            raise _fail(str(key)[:40], f"unknown field (expected {', '.join(FIELDS)})")
    for key in ("format", "players", "history"):
        if key not in data:
            raise _fail(key, "missing")
    if data["format"] != spec.position_format:
        raise _fail("format", f"expected {spec.position_format!r}, not {value_text(data['format'])}")
    players = data["players"]
    try:
        from burano_ai.core.people import check_player_count
        check_player_count(players, spec, "players")
        from burano_ai.core.options import parse_game_options
        options = parse_game_options(spec, data.get("options"), "options")
    except OptionError as exc:
        raise PositionError(f"position.{exc}") from None
    history = data["history"]
    if not isinstance(history, list) or not all(isinstance(t, str) for t in history):
        raise _fail("history", "expected a list of move texts")
    view = data.get("view")
    seat = None if view is None else parse_seat(view, players, "position.view", PositionError)
    if game_factory is None:
        implementation = next(iter(spec.implementations))
        game = spec.new_game(players, implementation, **options)
    else:
        game = game_factory(players, **options)
    state = fill_history(game, history, seat, random.Random(0))
    if "info" in data and data["info"] != state._info(seat):
        raise _fail("info", "does not match the history (it is derived: leave it out)")
    return state, seat
