"""The people side of a game for any game: the `GameSpec` hooks of the terminal, read off the State API.

`burano play` and the `burano` commands show a position, list the moves, label the phases and total
the scores through the spec of the game they play (`core.game.GameSpec`, "people side"). A spec that
inherits `PeopleSide` has all of these at once, in a plain form that needs nothing but `State` and the
position dict, so a new game is playable at the terminal as soon as it is registered; it overrides
what its game shows better (Burano: its board, phases, colours, score columns, its pyramid line).
"""

from __future__ import annotations

import json
import textwrap
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from burano_ai.core.arguments import int_text
from burano_ai.core.errors import OptionError
from burano_ai.core.game import GameOption, MoveEntry, State, StepEffect
from burano_ai.core.seats import SEAT_LETTERS


def offered_actions(state: State) -> list[int]:
    """The ids `state` takes next: the chance outcomes at a chance node, else the legal actions."""
    if state.is_chance_node():
        return [a for a, _ in state.chance_outcomes()]
    return list(state.legal_actions())


def find_action(before: State, after: State) -> int | None:
    """An action (or chance outcome) leading from `before` to `after` (same positions), None if none does."""
    target = after.to_dict()
    for a in offered_actions(before):
        trial = before.clone()
        trial.apply_action(a)
        if trial.to_dict() == target:
            return a
    return None


def ledger_entries(before: State, after: State, action: int | None, ledger: Any, bare: Any) -> list:
    """The bookings of the step from `before` to `after` (full States) for a game's narration: its
    `ledger(before, action)` entries when the ledger's position is `after`'s (`action` found by
    `find_action` when not given), else `bare(before, after)` (the changes without their reasons)."""
    if before.is_terminal():
        return []
    if action is None:
        action = find_action(before, after)
    if action is not None:
        entries, position = ledger(before, action)
        if position == after.to_dict():
            return entries
    return bare(before, after)


def game_keyword(spec, default_game: str) -> dict[str, str]:
    """The `game=` keyword of the services (session, record, arena, protocol, web) for `spec`'s game.

    They play `default_game` (the registry's `DEFAULT_GAME`) when none is named, so it needs none.
    """
    return {} if spec.key == default_game else {"game": spec.key}


def player_counts(spec) -> str:
    """`2, 3 or 4`: the player counts of a game, in words."""
    counts = [str(n) for n in range(spec.min_players, spec.max_players + 1)]
    return counts[0] if len(counts) == 1 else f"{', '.join(counts[:-1])} or {counts[-1]}"


def check_player_count(players: object, spec, what: str = "--players") -> int:
    """`players` if the game is played by that many, else an `OptionError` naming `what` and the range."""
    if isinstance(players, bool) or not isinstance(players, int) or \
            not spec.min_players <= players <= spec.max_players:
        raise OptionError(f"{what} must be {player_counts(spec)} ({spec.title}), not {int_text(players) if isinstance(players, int) else players}")
    return players


def plain_spans(text: str) -> list[list[tuple[str, str]]]:
    """A rendering's lines as unstyled spans (`GameSpec.render_styled` for a game without styles)."""
    return [[(line, "")] for line in text.rstrip("\n").split("\n")]


def _signed(x: float) -> str:
    return f"{x:+g}"


def amount_text(spec, value: float, signed: bool = False) -> str:
    """A score as a message writes it: `12 VP`; in a payoff game, chips counted (`1 chip`, `+3 chips`)."""
    number = f"{value:+g}" if signed else f"{value:g}"
    unit = spec.score_name
    if spec.utility == "payoff" and abs(value) == 1 and unit.endswith("s"):
        unit = unit[:-1]
    return f"{number} {unit}"


def score_effects(spec, before: State, after: State) -> list[StepEffect]:
    """The generic `GameSpec.step_effects`: each seat's score change, read from every reader's own views
    (the view before and after, loaded back with `spec.load_position`), so a score a seat cannot see is
    never told to it; the result (`result_lines`) after the last step."""
    n = before.num_players
    told: dict[str, list[int]] = {}
    for reader in range(n):
        old = spec.load_position(before.to_dict(reader))[0].scores()
        new = spec.load_position(after.to_dict(reader))[0].scores()
        parts = [f"{SEAT_LETTERS[p]} {amount_text(spec, new[p] - old[p], signed=True)}"
                 for p in range(n) if new[p] != old[p]]
        if parts:
            told.setdefault(", ".join(parts), []).append(reader)
    effects = [StepEffect(text, None if len(readers) == n else tuple(readers)) for text, readers in told.items()]
    return effects + [StepEffect(line) for line in result_lines(spec, after)]


def result_lines(spec, state: State) -> list[str]:
    """The generic `GameSpec.describe_result`: the winners and, when they share their score with a seat
    that lost (or win together), that the order of finish (`State.finishing_key`) decided it."""
    if not state.is_terminal():
        return []
    n = state.num_players
    scores = list(state.scores())
    keys = [tuple(state.finishing_key(p)) for p in range(n)]
    best = max(keys)
    winners = [p for p in range(n) if keys[p] == best]
    names = " and ".join(SEAT_LETTERS[p] for p in winners)
    level = [p for p in range(n) if scores[p] == scores[winners[0]]]
    if spec.utility == "payoff":            # chips won or lost, not a score reached
        if len(winners) > 1:
            return [f"{names} split the pot ({amount_text(spec, scores[winners[0]], signed=True)} each)"]
        return [f"{names} wins {amount_text(spec, scores[winners[0]])}"]
    if len(winners) > 1:
        return [f"{names} share the win ({scores[winners[0]]:g} {spec.score_name} each, equal on every tie-break)"]
    if len(level) > 1:
        tied = " and ".join(SEAT_LETTERS[p] for p in level)
        return [f"{tied} tie on {scores[winners[0]]:g} {spec.score_name}; {names} wins on the game's tie-break"]
    return [f"{names} wins with {scores[winners[0]]:g} {spec.score_name}"]


class PeopleSide:
    """The people-side hooks of `GameSpec` for any game, from the State API alone.

    A spec inherits it and overrides what its game shows better (Burano: its board, its phases, its
    colours, its score columns, its pyramid line). Everything here reads only `State` methods and the
    position dict, so a new game is playable at the terminal as soon as it is registered.
    """

    title: str
    default_players: int
    #: No options besides the player count (`core.game.GameOption`); a game with some declares its own.
    game_options: Mapping[str, GameOption] = MappingProxyType({})
    #: The default search is `search.Params()`'s (`GameSpec.search_defaults`); a game that differs declares it.
    search_defaults: Mapping[str, Any] = MappingProxyType({})

    def render(self, position: dict[str, Any], width: int | None = None) -> str:
        """Every field of the position, one `key: value` line each (nested values as compact JSON), a
        line longer than `width` columns wrapped with its continuation indented (None: never wrapped)."""
        lines = [f"{key}: {value if isinstance(value, str) else json.dumps(value, separators=(', ', ': '))}"
                 for key, value in position.items() if key != "format"]
        if width is not None:
            lines = [part for line in lines for part in
                     textwrap.wrap(line, max(width, 20), subsequent_indent="  ", break_on_hyphens=False) or [""]]
        return "\n".join(lines) + "\n"

    def render_styled(self, position: dict[str, Any], width: int | None = None) -> list[list[tuple[str, str]]]:
        """`render`'s lines, without styles."""
        return plain_spans(self.render(position, width))

    def render_legal_actions(self, state: State) -> str:
        """The move texts of the seat to move, one per line (chance outcomes with their probabilities)."""
        if state.is_terminal():
            return "no legal moves: the game is over\n"
        if state.is_chance_node():
            items = [f"{state.action_to_string(a)} ({p:.3g})" for a, p in state.chance_outcomes()]
            return "\n".join([f"chance outcomes ({len(items)}):"] + [f"  {item}" for item in items]) + "\n"
        texts = [state.action_to_string(a) for a in state.legal_actions()]
        header = f"legal moves for {SEAT_LETTERS[state.current_player()]} ({len(texts)}):"
        return "\n".join([header] + [f"  {text}" for text in texts]) + "\n"

    def phase_label(self, position: dict[str, Any]) -> str:
        """"" (a game without named phases)."""
        return ""

    def turn_label(self, position: dict[str, Any]) -> str:
        """`phase_label`, or the game's title when that is empty."""
        return self.phase_label(position) or self.title

    def chance_label(self, position: dict[str, Any]) -> str:
        """"chance"."""
        return "chance"

    def seat_label(self, seat: int) -> str:
        """The seat's letter."""
        return SEAT_LETTERS[seat]

    def score_columns(self, state: State) -> list[tuple[str, list[str]]]:
        """One column: `State.scores()`."""
        return [("score", [f"{score:g}" for score in state.scores()])]

    def describe_scores(self, scores: Sequence[float]) -> str:
        """"A 3 points, B 5 points"."""
        return ", ".join(f"{letter} {score:g} points" for letter, score in zip(SEAT_LETTERS, scores))

    def example_position(self) -> str:
        """A new game of the default player count (seed 0), its chance events up to the first decision
        each taken as their first outcome: the full state as JSON."""
        state = self.new_game(self.default_players).new_initial_state(0)  # type: ignore[attr-defined]
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        return state.to_json()

    def resample_for_record(self, state: State, seat: int, later: Sequence[Any], seed: int,
                            game_factory: Any = None) -> State | None:
        """None: the game's `State.resample` is enough for a one-seat export's replay."""
        return None

    def move_entry(self) -> MoveEntry | None:
        """None: moves are typed as numbers or move texts."""
        return None

    def step_effects(self, before: State, after: State, action: int | None = None) -> list[StepEffect]:
        """Every seat's score change as each reader's views show it (`score_effects`), and the result."""
        return score_effects(self, before, after)

    def describe_result(self, state: State) -> list[str]:
        """The winners, and whether the tie-break decided (`result_lines`)."""
        return result_lines(self, state)

    def describe_move(self, state: State, action: int) -> str:
        """The move's text (`State.action_to_string`): the game has no other words for it."""
        return state.action_to_string(action)

    def describe_moves(self, state: State, actions: list[int]) -> list[str]:
        """`describe_move` of each of `actions`."""
        return [self.describe_move(state, a) for a in actions]

    def why_illegal(self, state: State, action: int) -> str | None:
        """None: the game does not say why a move is not legal."""
        return None

    def move_notes(self, state: State) -> list[str]:
        """Nothing: what the moves cost and why some are missing is the game's to say."""
        return []
