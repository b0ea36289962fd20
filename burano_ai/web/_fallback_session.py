"""A stand-in for `burano_ai.session.GameSession` until the lead's module lands (same API subset).

Removed once `burano_ai/session.py` is on main; only `games.py` imports it, and only when that import fails.
"""

from __future__ import annotations

import random

from ..bots.registry import make_bot
from ..data.colours import SEAT_LETTERS
from ..enums import CHANCE, TERMINAL, Stage
from ..errors import IllegalMoveError, OptionError
from ..random_play import sample_chance
from ..seeds import derive


class Step:
    def __init__(self, actor, move, kind=None, seen_by=None):
        self.actor, self.move, self.kind, self.seen_by, self.annotations = actor, move, kind, seen_by, None


class _Record:
    def __init__(self, players, seed, seats):
        self.players, self.seed, self.seats, self.steps, self.result = players, seed, seats, [], None

    def to_dict(self):
        return {"format": "burano-game/1", "players": self.players, "seed": self.seed,
                "seats": [{"name": s, "player": s} for s in self.seats],
                "steps": [{k: v for k, v in vars(st).items() if v is not None} for st in self.steps],
                "result": self.result}

    def for_seat(self, seat):
        return self


class GameSession:
    def __init__(self, players, seed, seats, game_factory=None, names=None, bot_seed=None, start=None):
        from .. import Game
        self.game = Game(players)
        self.seed = seed
        self.state = self.game.new_initial_state(seed=seed)
        self.seats = list(seats)
        self.bots = {i: make_bot(s, derive(bot_seed if bot_seed is not None else seed, i)) for i, s in enumerate(seats)
                     if s != "human"}
        self.record = _Record(players, seed, self.seats)
        self._history = []

    def humans(self):
        return [i for i, s in enumerate(self.seats) if s == "human"]

    def to_move(self):
        return TERMINAL if self.state.is_terminal() else self.state.current_player()

    def is_over(self):
        return self.state.is_terminal()

    def view(self, seat):
        return self.state.to_dict(seat)

    def legal_moves(self, seat):
        if self.to_move() != seat:
            return []
        return [self.state.action_to_string(a) for a in self.state.legal_actions()]

    def _describe(self, action):
        s = self.state
        actor = s.current_player()
        text = s.action_to_string(action)
        if actor == CHANCE:
            kind = s.to_dict()["context"]["chance"]
            seen = [SEAT_LETTERS[s.actor]] if kind == "fish-draw" else None
            return Step("chance", text, kind, seen)
        seen = [SEAT_LETTERS[actor]] if text.startswith("pyramid ") and s.stage == Stage.PYRAMID else None
        return Step(SEAT_LETTERS[actor], text, None, seen)

    def _apply(self, action):
        step = self._describe(action)
        self._history.append(self.state.clone())
        self.state.apply_action(action)
        self.record.steps.append(step)
        if self.state.is_terminal():
            self.record.result = {"scores": self.state.scores()}
        return step

    def advance(self, on_step=None, should_stop=None):
        while not self.state.is_terminal():
            if should_stop and should_stop():
                return
            p = self.state.current_player()
            if p == CHANCE:
                rng = random.Random(derive(self.seed, len(self.record.steps), 0xC4A))
                action = sample_chance(self.state, rng)
            elif p in self.bots:
                action = self.bots[p].step(self.state)
            else:
                return
            step = self._apply(action)
            if on_step:
                on_step(step, len(self.record.steps))

    def play(self, seat, move):
        if self.to_move() != seat:
            raise OptionError(f"seat {SEAT_LETTERS[seat]} is not to move")
        try:
            action = self.state.string_to_action(move) if isinstance(move, str) else int(move)
        except ValueError as exc:
            raise IllegalMoveError(str(exc)) from None
        if action not in self.state.legal_actions():
            raise IllegalMoveError(f"illegal move {move!r}")
        return self._apply(action)

    def undo(self, seat):
        idx = [i for i, st in enumerate(self.record.steps) if st.actor == SEAT_LETTERS[seat]]
        if not idx:
            return False
        i = idx[-1]
        self.state = self._history[i]
        del self._history[i:]
        del self.record.steps[i:]
        self.record.result = None
        return True

    def narrate(self, step, seat):
        letter = SEAT_LETTERS[seat]
        if step.seen_by is not None and letter not in step.seen_by:
            if step.kind == "fish-draw":
                return "a fish card was drawn blind (hidden)"
            return f"{step.actor} placed a pyramid cube (hidden)"
        who = "chance" if step.actor == "chance" else step.actor
        return f"{who}: {step.move}"
