"""Replays for the web board: a game record stepped through as one seat saw it.

The page gets, for a ply, that seat's view of the position before the step (`state.to_dict(seat)`),
the step as the seat may read it (a blind draw or a secret pyramid cube of another seat stays hidden)
and the step's engine annotations.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
import zlib
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Iterator

from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.core.seats import parse_seat
from burano_ai.core.errors import OptionError
from burano_ai.games import DEFAULT_GAME
from burano_ai.record import GameRecord, narrate_step, record_narration
from burano_ai.web.games import view_changes
from burano_ai.web.guard import Busy, new_token
from burano_ai.web.limits import ServerLimits



class Cancelled(Exception):
    """The client that asked for a replay went away before it was built."""


class TooLong(OptionError):
    """A replay that takes longer than the server's `replay_seconds` to build: the record is refused."""


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
    """A record and the seat's view before every step. Building it checks `cancelled` (a threading.Event)
    before every step, and before every state the filling of an export's hidden steps tries, and stops with
    `Cancelled` once it is set (the client went away), or with `TooLong` once `deadline`
    (`time.monotonic()`) has passed."""

    def __init__(self, replay_id: str, record: Any, seat: int, cancelled: threading.Event | None = None,
                 deadline: float | None = None, seconds: float | None = None) -> None:
        self.id = replay_id
        self.record = record
        self.seat = seat
        self.kind = record.game   # the record's game (a record without a `game` field is Burano's)
        # each view as compressed JSON (~1.4 KB instead of a ~20 KB dict in a 4-player Burano game): a replay
        # of the most plies a server allows stays under 10 MB
        self.views: list[bytes] = []

        def checkpoint() -> None:
            if cancelled is not None and cancelled.is_set():
                raise Cancelled("the client went away")
            if deadline is not None and time.monotonic() > deadline:
                raise TooLong(f"the record takes more than {seconds:g} s to replay on this server (its limit "
                              f"replay_seconds): it hides too much to be filled in quickly")
        for _ply, state in record.positions(checkpoint=checkpoint):
            checkpoint()
            self.views.append(zlib.compress(json.dumps(state.to_dict(seat)).encode(), 1))
        self.words, self.effects = record_narration(record)

    def view(self, ply: int) -> dict[str, Any]:
        """The seat's view before step `ply`."""
        return json.loads(zlib.decompress(self.views[ply]))

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
        seen = step is not None and step.move is not None and step.visible_to(SEAT_LETTERS[self.seat])
        view = self.view(ply)
        return {"ply": ply, "view": view,
                "next": None if step is None else step_text(step, self.seat, self.effects[ply], self.kind,
                                                            self.words[ply]),
                # the next step's move text when the seat saw it (the board marks where it is made)
                "move": step.move if seen else None,
                # what the last step changed in the seat's view (the board marks it)
                "changes": view_changes(self.view(ply - 1), view) if ply > 0 else [],
                "annotations": None if step is None else self._notes(step)}


class ReplayHub:
    """The replays this server holds (at most `limits.max_replays`), by unguessable id: the id is the
    capability (a replay holds only what its client uploaded)."""

    def __init__(self, limits: ServerLimits | None = None) -> None:
        self.limits = limits or ServerLimits()
        self.replays: OrderedDict[str, Replay] = OrderedDict()
        self._lock = threading.Lock()
        self.building: dict[str, int] = {}      # client -> replays it has being built
        # Replays are built on threads of their own, never the request pool that moves and undos use.
        self.pool = ThreadPoolExecutor(max_workers=self.limits.max_running_replays, thread_name_prefix="replay")

    @contextlib.contextmanager
    def slot(self, client: str) -> Iterator[None]:
        """Hold one of the server's `max_running_replays` build slots for `client` (at most
        `client_replays` of its own), or refuse at once (Busy, 429): a replay is never queued."""
        with self._lock:
            if self.building.get(client, 0) >= self.limits.client_replays:
                raise Busy(f"you have {self.limits.client_replays} replay being built on this server (its limit "
                           f"per client): wait for it")
            if sum(self.building.values()) >= self.limits.max_running_replays:
                raise Busy(f"{self.limits.max_running_replays} replays are being built on this server (its limit): "
                           f"try again in a moment")
            self.building[client] = self.building.get(client, 0) + 1
        try:
            yield
        finally:
            with self._lock:
                left = self.building[client] - 1
                if left:
                    self.building[client] = left
                else:
                    del self.building[client]

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)

    def open(self, record: Any, seat: Any, cancelled: threading.Event | None = None) -> Replay:
        if isinstance(record, str):
            rec = GameRecord.from_json(record)
        else:
            rec = GameRecord.from_dict(record)
        if len(rec.steps) > self.limits.max_replay_plies:
            raise OptionError(f"the record has {len(rec.steps)} steps: this server replays at most "
                              f"{self.limits.max_replay_plies}")
        if rec.view is not None:
            seat_index = parse_seat(rec.view, rec.players, what="record.view")
            if seat is not None and parse_seat(seat, rec.players, what="seat", error=OptionError) != seat_index:
                raise OptionError(f"the record is seat {rec.view}'s export: it can only be replayed as {rec.view}")
        else:
            seat_index = 0 if seat is None else parse_seat(seat, rec.players, what="seat", error=OptionError)
        seconds = self.limits.replay_seconds
        replay = Replay(new_token(), rec, seat_index, cancelled, time.monotonic() + seconds, seconds)
        with self._lock:
            self.replays[replay.id] = replay
            while len(self.replays) > self.limits.max_replays:
                self.replays.popitem(last=False)
        return replay

    def get(self, replay_id: str) -> Replay:
        with self._lock:
            replay = self.replays.get(replay_id)
        if replay is None:
            shown = replay_id if len(replay_id) <= 40 else replay_id[:40] + "…"
            raise LookupError(f"no replay {shown!r} on this server")
        return replay
