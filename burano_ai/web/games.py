"""Live games of the web board: one `GameSession` each, bots advanced in a thread, one snapshot per seat.

The full State stays in the session; everything a browser receives is built by `seat_payload`, which
reads only `session.view(seat)` (`state.to_dict(seat)`), the seat's legal move texts and the steps
narrated for that seat. Each human seat's payload is rebuilt after every step and kept with a version
number, so readers (HTTP and server-sent events) never touch a state while a bot is moving.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections import OrderedDict
from typing import Any

from burano_ai.core.errors import IllegalMoveError, OptionError
from burano_ai.core.seats import CHANCE, SEAT_LETTERS, parse_seat
from burano_ai.engine import spec_for_position
from burano_ai.games import DEFAULT_GAME, all_specs, get_spec
from burano_ai.session import GameSession


class NotNow(IllegalMoveError):
    """A request that is fine but cannot be done now: another seat is to move, a bot is thinking, nothing to undo."""


#: Games kept in memory; the oldest is forgotten beyond this.
MAX_GAMES = 64
#: Largest seed a URL may carry.
MAX_SEED = 2**63 - 1


def web_board(spec: Any) -> str | None:
    """The URL of the game's own board module, or None: the page shows the generic board."""
    return f"/static/{spec.web_board}" if "web_board" in spec.capabilities else None


def kind_info(spec: Any) -> dict[str, Any]:
    """What the page knows of a registered game (a "kind" of game: the game's key in the registry)."""
    return {"key": spec.key, "title": spec.title, "min_players": spec.min_players,
            "max_players": spec.max_players, "default_players": spec.default_players,
            "board": web_board(spec), "editor": "web_editor" in spec.capabilities,
            "bots": sorted(spec.bots()), "score_name": spec.score_name}


def registered_kinds(default: str = DEFAULT_GAME) -> dict[str, Any]:
    """Every registered game for the page's chooser (`GET /api/games/kinds`), the registry's default first;
    `default` is the one the chooser offers first (`burano serve --game`)."""
    return {"kinds": [kind_info(spec) for spec in all_specs()], "default": default,
            "seat_letters": SEAT_LETTERS}


def kind_of_position(text: str) -> str:
    """The key of the game whose position format `text` declares (`engine.spec_for_position`: the default
    game if none matches; the loader then names what is wrong with it)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return DEFAULT_GAME
    return spec_for_position(data).key


def check_players(spec: Any, players: Any) -> int:
    """`players` if the game is played by that many, else an OptionError naming the game's range."""
    if isinstance(players, bool) or not isinstance(players, int) or \
            not spec.min_players <= players <= spec.max_players:
        raise OptionError(f"players must be {spec.min_players} to {spec.max_players} for {spec.title}, "
                          f"not {players!r}")
    return players


def check_setup(game: Any, players: Any, seed: Any, seats: Any) -> tuple[int, int, list[str]]:
    """Validate a setup of `game` (a GameSpec) from the page: players, seed, one spec per seat ("human" or a
    bot spec)."""
    from burano_ai.bots.registry import check_bot_spec
    check_players(game, players)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise OptionError(f"seed must be a whole number from 0 to {MAX_SEED}, not {seed!r}")
    if not isinstance(seats, list) or len(seats) != players or not all(isinstance(s, str) for s in seats):
        raise OptionError(f"seats must list {players} players ('human' or a bot spec), not {seats!r}")
    specs = []
    for i, spec in enumerate(seats):
        spec = spec.strip()
        if spec == "human":
            specs.append(spec)
            continue
        try:
            specs.append(check_bot_spec(spec, game.key).canonical())
        except ValueError as exc:
            raise OptionError(f"seats[{i}] ({SEAT_LETTERS[i]}): {exc}") from None
    if "human" not in specs:
        raise OptionError("seats: at least one seat must be 'human' (the board shows a human seat's view)")
    return players, seed, specs


class LiveGame:
    """One game on the server: the session, a lock, the bot thread and the per-seat snapshots."""

    def __init__(self, game_id: str, spec: Any, players: int, seed: int, seats: list[str]) -> None:
        self.id = game_id
        self.spec = spec
        self.setup = {"kind": spec.key, "players": players, "seed": seed, "seats": seats}
        self.session = GameSession(players, seed, seats, game=spec.key)
        self.lock = threading.RLock()
        self.version = 0
        self.snapshots: dict[int, dict[str, Any]] = {}
        self.logs: dict[int, list[str]] = {seat: [] for seat in self.session.humans()}
        self.thinking: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._running = False
        self.error: str | None = None
        with self.lock:
            self._advance_chance()
            self._refresh()
            self._start_bots()

    # -- snapshots -------------------------------------------------------------------------------
    def _on_step(self, step: Any, ply: int) -> None:
        for seat, log in self.logs.items():
            log.append(self.session.narrate(step, seat))
        self.thinking = self._bot_to_move()
        self._refresh()

    def _bot_to_move(self) -> int | None:
        to_move = self.session.to_move()
        return to_move if to_move >= 0 and to_move not in self.session.humans() else None

    def _refresh(self) -> None:
        snapshots = {seat: seat_payload(self, seat) for seat in self.session.humans()}
        self.snapshots = snapshots
        self.version += 1

    def _rebuild_logs(self) -> None:
        for seat in self.logs:
            self.logs[seat] = [self.session.narrate(step, seat) for step in self.session.record.steps]

    # -- advancing -----------------------------------------------------------------------------
    def _advance_chance(self) -> None:
        """Resolve chance events now (they are instant); stop where a bot or a human is to move."""
        self.session.advance(on_step=self._on_step, should_stop=lambda: self._bot_to_move() is not None)

    def _start_bots(self) -> None:
        """Start the bot thread if a bot is to move (called with the lock held)."""
        if self._bot_to_move() is None or self._running:
            return
        self._running = True
        self._stop.clear()
        self.thinking = self._bot_to_move()
        self._refresh()
        self._thread = threading.Thread(target=self._run_bots, name=f"bots-{self.id}", daemon=True)
        self._thread.start()

    def _run_bots(self) -> None:
        # Everything under the lock: once a request holds the lock, the bots are either done or not begun.
        with self.lock:
            try:
                self.session.advance(on_step=self._on_step, should_stop=self._stop.is_set)
            except Exception as exc:   # a bot failing is shown on the page, not lost in a thread
                self.error = f"a bot failed: {type(exc).__name__}: {exc}"
            finally:
                self._running = False
                self.thinking = None
                self._refresh()

    def stop_bots(self) -> None:
        self._stop.set()
        thread = self._thread
        if thread is not None:
            thread.join()

    # -- human actions ---------------------------------------------------------------------------
    def check_seat(self, seat: Any) -> int:
        try:
            index = parse_seat(seat, self.setup["players"], what="seat")
        except ValueError as exc:
            raise OptionError(str(exc)) from None
        if index not in self.session.humans():
            raise OptionError(f"seat {SEAT_LETTERS[index]} is not a human seat of this game: "
                              f"the board shows only its players' views")
        return index

    def play(self, seat: int, move: Any) -> dict[str, Any]:
        if not isinstance(move, (str, int)) or isinstance(move, bool):
            raise OptionError(f"move must be a move text, not {move!r}")
        if self.thinking is not None:
            raise NotNow(f"seat {SEAT_LETTERS[self.thinking]} (a bot) is thinking: wait for your turn")
        with self.lock:
            if self.session.to_move() != seat:
                raise NotNow(f"seat {SEAT_LETTERS[seat]} is not to move")
            step = self.session.play(seat, move)
            self._on_step(step, len(self.session.record.steps))
            self._advance_chance()
            self._start_bots()
            return self.snapshots[seat]

    def undo(self, seat: int) -> dict[str, Any]:
        self.stop_bots()
        with self.lock:
            done = self.session.undo(seat)
            if not done:
                raise NotNow(f"seat {SEAT_LETTERS[seat]} has no move to undo")
            self._rebuild_logs()
            self.thinking = None
            self._refresh()
            return self.snapshots[seat]

    def record_text(self, seat: int) -> str:
        """The game so far as `seat` may share it (a game record, other seats' private steps hidden)."""
        with self.lock:
            return self.session.record.for_seat(seat).to_json()


def seat_payload(game: LiveGame, seat: int) -> dict[str, Any]:
    """Everything the page of `seat` gets: its view, its legal moves, its log, the game's public facts."""
    session = game.session
    to_move = session.to_move()
    over = session.is_over()
    payload = {
        "game": game.id,
        "kind": game.spec.key,
        "seat": SEAT_LETTERS[seat],
        "setup": game.setup,
        "humans": [SEAT_LETTERS[i] for i in session.humans()],
        "view": session.view(seat),
        "legal": session.legal_moves(seat),
        "legal_words": session.describe_legal(seat),   # the same moves in people's words
        "notes": session.move_notes(seat),              # the next move's cost, why moves are missing
        "to_move": "over" if over else ("chance" if to_move == CHANCE else SEAT_LETTERS[to_move]),
        "thinking": None if game.thinking is None else SEAT_LETTERS[game.thinking],
        "log": list(game.logs.get(seat, [])),
        "ply": len(session.record.steps),
        "over": over,
        "error": game.error,
        "version": game.version + 1,
    }
    if over:
        payload["scores"] = list(session.state.scores())
        returns = session.state.returns()   # the winners share the best return (the game's order of finish)
        payload["winners"] = [SEAT_LETTERS[i] for i, r in enumerate(returns) if r == max(returns)]
        payload["result_text"] = game.spec.describe_result(session.state)   # the tie-break named
    return payload


class GameHub:
    """The games this server holds, by id."""

    def __init__(self) -> None:
        self.games: OrderedDict[str, LiveGame] = OrderedDict()
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def create(self, kind: Any, players: Any, seed: Any, seats: Any) -> LiveGame:
        """A new game of `kind` (a registered game key) with `players`, `seed` and one spec per seat."""
        spec = get_spec(kind)   # OptionError naming the known games
        players, seed, seats = check_setup(spec, players, seed, seats)
        with self._lock:
            game_id = f"g{next(self._ids)}-{int(time.time() * 1000) % 100000}"
        game = LiveGame(game_id, spec, players, seed, seats)
        with self._lock:
            self.games[game_id] = game
            while len(self.games) > MAX_GAMES:
                _, old = self.games.popitem(last=False)
                old._stop.set()
        return game

    def get(self, game_id: str) -> LiveGame:
        game = self.games.get(game_id)
        if game is None:
            raise LookupError(f"no game {game_id!r} on this server (it may have been forgotten: reload the page)")
        return game
