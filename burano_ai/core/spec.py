"""A `GameSpec` from its declaration alone: the engine side and the people side with working defaults.

A spec that inherits `SpecBase` writes the required declaration (`core.game.DECLARATION`: key, title,
player range, position format, implementations, capabilities, options, utility model, payoff range and
action counts) and nothing else; every other `GameSpec` member has a default here that reads only the
State API and the default position format (`core.history`). A game overrides what it knows better.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping, Sequence

from burano_ai.core.errors import BuranoError
from burano_ai.core.game import BotDeclaration, Declaration, StepVisibility, import_game_class
from burano_ai.core.history import PUBLIC, load_history_position
from burano_ai.core.people import PeopleSide, amount_text
from burano_ai.core.seats import SEAT_LETTERS


class SpecBase(Declaration, PeopleSide):
    """The defaults of every `GameSpec` member besides the declaration (module docstring)."""

    # key, title, min_players, max_players, default_players, position_format, implementations: the game's.
    capabilities: frozenset[str] = frozenset()
    game_options = MappingProxyType({})
    # utility ("shares" or "payoff": `core.game.UTILITY_MODELS`) and payoff_range: `core.game.Declaration`'s.

    def action_counts(self, num_players: int) -> tuple[int, int]:
        """(distinct actions, most chance outcomes at one node) of a game of `num_players`: the Game reads
        them here, so a game declares them."""
        raise NotImplementedError(f"{type(self).__name__} must declare action_counts (core.game.DECLARATION)")

    # --- the Game

    def game_class(self, implementation: str = "compiled"):
        """The Game class of `implementation` ("compiled": the default one when there is no compiled one)."""
        return import_game_class(self, implementation)

    def new_game(self, num_players: int, implementation: str = "compiled", **options: Any):
        """A Game of `implementation` for `num_players` and `options` (OptionError: out of range, named)."""
        return self.game_class(implementation)(num_players, **options)

    # --- engine side
    score_name: str = "points"

    def score_columns(self, state) -> list[tuple[str, list[str]]]:
        """One column: `State.scores()`, headed by the game's score name ("chips")."""
        return [(self.score_name, [f"{score:g}" for score in state.scores()])]

    def describe_scores(self, scores: Sequence[float]) -> str:
        """"A +2 chips, B -2 chips" in a payoff game (what each seat won or lost), "A 3 points, B 5 points"."""
        payoff = self.utility == "payoff"
        return ", ".join(f"{letter} {amount_text(self, score, signed=payoff)}"
                         for letter, score in zip(SEAT_LETTERS, scores))
    unseen_texts: frozenset[str] = frozenset()

    @property
    def chance_kinds(self) -> tuple[str, ...]:
        """The names of its chance events (the State class's `CHANCE_KINDS`)."""
        return self.game_class().state_class.CHANCE_KINDS

    def load_position(self, data: Mapping[str, Any], game_factory=None):
        """Check a position object of the history format and build its State (`core.history`)."""
        return load_history_position(self, data, game_factory)

    def step_visibility(self, state, action: int) -> StepVisibility:
        """A step the game gives an owner (`HistoryState._owner`) is seen by that seat alone."""
        owner = state._owner(action)
        kind = state.chance_kind_name() if state.is_chance_node() else None
        if owner == PUBLIC:
            return StepVisibility(kind, None, None)
        return StepVisibility(kind, owner if state.is_chance_node() else None, (owner,))

    def hidden_in_export(self, steps: Sequence[Any], seat: int) -> set[int]:
        """The steps `seat` did not see, but for those of seats whose private steps the end shows to all
        (`HistoryState._revealed`: a poker showdown), read off the game the steps play."""
        letter = SEAT_LETTERS[seat]
        revealed = self._revealed_at_end(steps)
        return {i for i, step in enumerate(steps) if not step.visible_to(letter)
                and (step.seat if step.is_chance else step.actor) not in revealed}

    def _revealed_at_end(self, steps: Sequence[Any]) -> set[str]:
        """The letters of the seats `HistoryState._revealed` names after `steps` (the full record's), played
        in a game of the seats the steps name and the default options; none when they do not play there."""
        named = [s for step in steps for s in (step.actor, step.seat, *(step.seen_by or ()))
                 if isinstance(s, str) and len(s) == 1 and s in SEAT_LETTERS]
        if not named:
            return set()
        try:
            state = self.new_game(max(SEAT_LETTERS.index(s) for s in named) + 1).new_initial_state()
            for step in steps:
                state.play(step.move)
        except BuranoError:
            return set()
        return {SEAT_LETTERS[p] for p in state._revealed()}

    def narrate_step(self, step, hidden: bool) -> str:
        """``B: bet``, ``deal (hidden)``."""
        who = step.actor if not step.is_chance else (step.kind or "chance")
        return f"{who} (hidden)" if hidden or step.move is None else f"{who}: {step.move}"

    def bots(self) -> Mapping[str, BotDeclaration]:
        """No bots of its own: the generic ones play it."""
        return {}

    # --- people side
    def phase_label(self, position: dict[str, Any]) -> str:
        """`step 5`."""
        return f"step {len(position['history']) + 1}"
