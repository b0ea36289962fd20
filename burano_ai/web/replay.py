"""Replays for the web board: a game record stepped through as one seat saw it.

The page gets, for a ply, that seat's view of the position before the step (`state.to_dict(seat)`),
the step as the seat may read it (a blind draw or a secret pyramid cube of another seat stays hidden)
and the step's engine annotations.
"""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict
from typing import Any

from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.core.seats import parse_seat
from burano_ai.core.errors import OptionError
from burano_ai.games import DEFAULT_GAME
from burano_ai.record import GameRecord, narrate_step, record_narration

#: Replays kept in memory.
MAX_REPLAYS = 8


def step_text(step: Any, seat: int, effects: list | None = None, game: str = DEFAULT_GAME,
              words: str | None = None) -> str:
    """The step of a `game` record as `seat` may read it, the move in people's `words`, with what it
    changed that the seat may read (`effects`)."""
    return narrate_step(step, seat, game, effects, words)


def _win(actor: str, notes: dict | None) -> list[Any] | None:
    """[actor, win probability of the move played] from a step's annotations, for the evaluation graph."""
    notes = notes or {}
    win = notes.get("played_win", notes.get("win"))
    if isinstance(win, bool) or not isinstance(win, (int, float)):
        return None
    return [actor, max(0.0, min(1.0, float(win)))]


class Replay:
    def __init__(self, replay_id: str, record: Any, seat: int) -> None:
        self.id = replay_id
        self.record = record
        self.seat = seat
        self.kind = record.game   # the record's game (a record without a `game` field is Burano's)
        self.views: list[dict[str, Any]] = []
        for _ply, state in record.positions():
            self.views.append(state.to_dict(seat))
        self.words, self.effects = record_narration(record)

    def summary(self) -> dict[str, Any]:
        rec = self.record
        return {"id": self.id, "kind": self.kind, "players": rec.players, "seat": SEAT_LETTERS[self.seat],
                "plies": len(rec.steps),
                "seats": [{"name": s.name, "player": s.player} for s in rec.seats],
                "result": rec.result, "steps": [step_text(s, self.seat, e, self.kind, w)
                                                   for s, e, w in zip(rec.steps, self.effects, self.words)],
                "flags": [(self._notes(s) or {}).get("flag") for s in rec.steps],
                "wins": [_win(s.actor, self._notes(s)) for s in rec.steps],
                **self.at(0)}

    def _notes(self, step: Any) -> dict | None:
        """The step's annotations if the seat saw the step (they may name the hidden move), else None."""
        if step.move is None or not step.visible_to(SEAT_LETTERS[self.seat]):
            return None
        return step.annotations or None

    def at(self, ply: Any) -> dict[str, Any]:
        plies = len(self.record.steps)
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= plies:
            raise OptionError(f"ply must be 0 to {plies}, not {ply!r}")
        step = self.record.steps[ply] if ply < plies else None
        return {"ply": ply, "view": self.views[ply],
                "next": None if step is None else step_text(step, self.seat, self.effects[ply], self.kind, self.words[ply]),
                "annotations": None if step is None else self._notes(step)}


class ReplayHub:
    def __init__(self) -> None:
        self.replays: OrderedDict[str, Replay] = OrderedDict()
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def open(self, record: Any, seat: Any) -> Replay:
        if isinstance(record, str):
            rec = GameRecord.from_json(record)
        else:
            rec = GameRecord.from_dict(record)
        if rec.view is not None:
            seat_index = parse_seat(rec.view, rec.players, what="record.view")
            if seat is not None and parse_seat(seat, rec.players, what="seat", error=OptionError) != seat_index:
                raise OptionError(f"the record is seat {rec.view}'s export: it can only be replayed as {rec.view}")
        else:
            seat_index = 0 if seat is None else parse_seat(seat, rec.players, what="seat", error=OptionError)
        with self._lock:
            replay_id = f"r{next(self._ids)}"
        replay = Replay(replay_id, rec, seat_index)
        with self._lock:
            self.replays[replay_id] = replay
            while len(self.replays) > MAX_REPLAYS:
                self.replays.popitem(last=False)
        return replay

    def get(self, replay_id: str) -> Replay:
        replay = self.replays.get(replay_id)
        if replay is None:
            raise LookupError(f"no replay {replay_id!r} on this server")
        return replay
