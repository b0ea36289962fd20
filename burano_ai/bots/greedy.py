"""`GreedyBot`: one move ahead with a fixed heuristic (`greedy_value`), the cheap baseline."""

from __future__ import annotations

import math
import random

from burano_ai.games.burano.data.turn import COINS_PER_VP
from burano_ai.games.burano.enums import ACTION_STEP_PHASES
from burano_ai.bots.base import Bot, _resolve_chance, seat_view
from burano_ai.bots.spec import BotSpec

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
    workers_off = state.workers_off_ring(seat) if hasattr(state, "workers_off_ring") else 0
    # True division by the int COINS_PER_VP: the same float as dividing by 5.0.
    return (pl.vp + (pl.coins + pl.privilege) / COINS_PER_VP + sum(pl.hand_known) + sum(pl.hand_blind)
            + PREP_CUBE_VALUE * sum(pl.prep) + WORKER_OFF_RING_VALUE * workers_off)


class GreedyBot(Bot):
    """One move ahead with `greedy_value`.

    For each legal action: apply it to a copy of the seat's view, resolve chance by sampling, then, while
    the same move asks the seat for a follow-up (sail, draw, send, trade, lace, recall, roof bonus; at most
    `depth` of them), take the follow-up with the best immediate value; score the result with
    `greedy_value`. An action followed by chance or follow-ups is scored as the mean of `samples` such
    completions. The best action wins; ties go to a seeded random pick. It never reads what its seat
    cannot see: it works on the seat's view (`seat_view`), whose hidden parts are a sample.
    """

    name = "greedy"

    def __init__(self, spec: BotSpec, seed: int) -> None:
        super().__init__(spec, seed)
        self.samples = self.options.get("samples", 3)
        self.depth = self.options.get("depth", 4)

    def _choose(self, state, seat: int, legal: list[int], seed: int) -> int:
        world = seat_view(state, seat)
        rng = random.Random(seed)
        best: list[int] = []
        best_value = -math.inf
        for action in legal:
            value = self._action_value(world, seat, action, rng)
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif value > best_value - 1e-9:
                best.append(action)
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]

    def _action_value(self, world, seat: int, action: int, rng: random.Random) -> float:
        after = world.clone()
        after.apply_action(action)
        if not after.is_chance_node() and not self._is_follow_up(after, seat):
            return greedy_value(after, seat)
        total = 0.0
        for _ in range(self.samples):
            s = after.clone()
            _resolve_chance(s, rng)
            total += self._finish_move(s, seat, rng)
        return total / self.samples

    def _is_follow_up(self, state, seat: int) -> bool:
        return state.current_player() == seat and state.phase in ACTION_STEP_PHASES

    def _finish_move(self, state, seat: int, rng: random.Random) -> float:
        steps = 0
        while steps < self.depth and self._is_follow_up(state, seat):
            best_state, best_value = None, -math.inf
            for b in state.legal_actions():
                s = state.clone()
                s.apply_action(b)
                _resolve_chance(s, rng)
                v = greedy_value(s, seat)
                if v > best_value:
                    best_state, best_value = s, v
            state = best_state
            steps += 1
        return greedy_value(state, seat)
