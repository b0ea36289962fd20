"""The bot interface: `Bot` (one seat's player: ``step(state) -> action id``, ``restart()``), the seat's
view every bot that looks beyond the legal moves starts from (`seat_view`), and the chance resolution
the bots that look ahead share.

Every random choice derives from the bot's seed and a decision counter (`Bot.step`), so a bot with an
iteration budget plays the same moves for the same seed.
"""

from __future__ import annotations

import random
import time

from burano_ai.bots.spec import BotSpec
from burano_ai.core.errors import OptionError
from burano_ai.core.seeds import derive
from burano_ai.games import DEFAULT_GAME
from burano_ai.search.evaluators import sample_chance_cumulative


class Bot:
    """Base class: one seat's player. Subclasses implement `_choose`.

    Attributes:
        spec: the canonical spec string the bot was made from.
        seed: its seed.
        decisions: decisions taken since the last restart (forced moves included if asked).
        iterations: search iterations run since the last restart (0 for bots that do not search).
        game: the registry key of the game it plays (`burano_ai.games`).
    """

    name = "bot"
    #: A `threading.Event` its owner may set to end the current decision's search early (the best move so
    #: far is played): honoured by every searching bot (ismcts in one process, mcts-pkg, the OpenSpiel bots:
    #: at the next iteration or rollout), so a bot stops within one playout.
    stop_event = None
    #: Seconds one decision may take at most, whatever the spec's budget says (its owner's cap: the web
    #: server's `bot_seconds`); None: the spec's budget alone. A search cut by it plays its best move so far.
    max_seconds: float | None = None

    def __init__(self, spec: BotSpec, seed: int, game: str = DEFAULT_GAME) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError(f"a bot seed must be an integer, not {seed!r}")
        self.game = game
        self.spec = spec.canonical()
        self.options = dict(spec.options)
        self.seed = seed
        self.decisions = 0
        self.iterations = 0

    def check_game(self, rules_game) -> None:
        """Raise `OptionError` naming the problem if this bot cannot play games of `rules_game` (the Game the
        seats will play, made with its options); called when the bot is configured for one (`make_bot`).
        Every bot that plays through the State API can: this default accepts any."""

    def restart(self) -> None:
        """Forget everything of the previous game: back to the state the bot was made in."""
        self.decisions = 0
        self.iterations = 0

    def step(self, state) -> int:
        """Return the action id the seat to move at `state` plays (`state` is not modified)."""
        seat = state.current_player()
        if seat < 0:
            raise ValueError(f"{self.spec}: no decision to take (current player {seat})")
        decision_seed = derive(self.seed, self.decisions, 0xB07)
        self.decisions += 1
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self._choose(state, seat, legal, decision_seed)

    def _choose(self, state, seat: int, legal: list[int], seed: int) -> int:
        raise NotImplementedError

    def deadline(self, seconds: float | None = None) -> float | None:
        """The `time.perf_counter()` at which the decision starting now must stop: the sooner of the spec's
        `seconds` and the owner's `max_seconds`; None when neither bounds it."""
        budgets = [s for s in (seconds, self.max_seconds) if s is not None]
        return time.perf_counter() + min(budgets) if budgets else None

    def should_stop(self, deadline: float | None) -> bool:
        """Whether the decision under way must stop now: its owner asked (`stop_event`), or `deadline` passed."""
        event = self.stop_event
        return (event is not None and event.is_set()) or (deadline is not None and time.perf_counter() >= deadline)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec} seed={self.seed}>"


def seat_view(state, seat: int):
    """The seat's one-seat view of `state`, loaded back as a State by the state's own Game.

    Loading a view fills the hidden parts with a sample that depends on the view alone (as the search's
    `canonical_root` does), so positions the seat cannot tell apart give the same view, bit for bit.
    """
    return state.game.state_from_json(state.to_json(seat))


def chance_outcome(state, rng: random.Random) -> int:
    """A chance outcome of `state` drawn by the search's sampler: the one every bot uses (golden-pinned)."""
    return sample_chance_cumulative(state, rng)


def resolve_chance(state, rng: random.Random) -> None:
    """Sample chance outcomes (`chance_outcome`) until a decision or the end."""
    while state.is_chance_node():
        state.apply_action(chance_outcome(state, rng))
