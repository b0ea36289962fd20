"""Burano's own bot ``greedy``: one move ahead with a fixed heuristic (`greedy_value`), the cheap
baseline. The spec declares it (`BuranoSpec.bots`: `choose_greedy` and its options); the framework's
`burano_ai.bots.heuristic.HeuristicBot` plays it, so this module imports nothing of the framework."""

from __future__ import annotations

import math
import random
from typing import Callable

from burano_ai.games.burano.data.turn import COINS_PER_VP
from burano_ai.games.burano.enums import ACTION_STEP_PHASES

#: Heuristic weights of `greedy_value` (VP-equivalents).
PREP_CUBE_VALUE = 0.3
WORKER_OFF_RING_VALUE = 0.4


def greedy_value(state, seat: int) -> float:
    """The greedy heuristic: what `seat` holds now, in VP.

    ``VP + (coins + privilege) / 5 + fish cards in hand (1 VP each at the end)
    + 0.3 per cube in the preparation area + 0.4 per worker off the ring`` (on an island or in the
    workshop: majorities and lace scoring to come). Only the seat's own holdings are read.
    """
    pl = state.players[seat]
    workers_off = state.workers_off_ring(seat)
    # True division by the int COINS_PER_VP: the same float as dividing by 5.0.
    return (pl.vp + (pl.coins + pl.privilege) / COINS_PER_VP + sum(pl.hand_known) + sum(pl.hand_blind)
            + PREP_CUBE_VALUE * sum(pl.prep) + WORKER_OFF_RING_VALUE * workers_off)


def choose_greedy(world, seat: int, legal: list[int], rng: random.Random, options: dict,
                  sample_chance: Callable[[object, random.Random], int]) -> int:
    """The greedy bot's choice (`core.game.BotDeclaration.choose`): one move ahead with `greedy_value`.

    For each legal action: apply it to a copy of the seat's view `world`, resolve chance by sampling
    (`sample_chance`, the framework's sampler), then, while the same move asks the seat for a follow-up
    (sail, draw, send, trade, lace, recall, roof bonus; at most ``options["depth"]`` of them), take the
    follow-up with the best immediate value; score the result with `greedy_value`. An action followed by
    chance or follow-ups is scored as the mean of ``options["samples"]`` such completions. The best
    action wins; ties go to a pick by `rng`. It never reads what its seat cannot see: `world` is the
    seat's view loaded back (`burano_ai.bots.seat_view`), whose hidden parts are a sample.
    """
    greedy = _Greedy(options["samples"], options["depth"], sample_chance)
    best: list[int] = []
    best_value = -math.inf
    for action in legal:
        value = greedy.action_value(world, seat, action, rng)
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif value > best_value - 1e-9:
            best.append(action)
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


class _Greedy:
    """One greedy decision's lookahead: `samples` chance completions, at most `depth` follow-ups."""

    def __init__(self, samples: int, depth: int, sample_chance: Callable[[object, random.Random], int]) -> None:
        self.samples = samples
        self.depth = depth
        self.sample_chance = sample_chance

    def resolve_chance(self, state, rng: random.Random) -> None:
        while state.is_chance_node():
            state.apply_action(self.sample_chance(state, rng))

    def action_value(self, world, seat: int, action: int, rng: random.Random) -> float:
        after = world.clone()
        after.apply_action(action)
        if not after.is_chance_node() and not self.is_follow_up(after, seat):
            return greedy_value(after, seat)
        total = 0.0
        for _ in range(self.samples):
            s = after.clone()
            self.resolve_chance(s, rng)
            total += self.finish_move(s, seat, rng)
        return total / self.samples

    def is_follow_up(self, state, seat: int) -> bool:
        return state.current_player() == seat and state.phase in ACTION_STEP_PHASES

    def finish_move(self, state, seat: int, rng: random.Random) -> float:
        steps = 0
        while steps < self.depth and self.is_follow_up(state, seat):
            best_state, best_value = None, -math.inf
            for b in state.legal_actions():
                s = state.clone()
                s.apply_action(b)
                self.resolve_chance(s, rng)
                v = greedy_value(s, seat)
                if v > best_value:
                    best_state, best_value = s, v
            state = best_state
            steps += 1
        return greedy_value(state, seat)
