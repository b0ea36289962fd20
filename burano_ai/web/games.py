"""Live games of the web board: one `GameSession` each, bots advanced in a thread, one snapshot per seat.

The full State stays in the session; everything a browser receives is built by `seat_payload`, which
reads only `session.view(seat)` (`state.to_dict(seat)`), the seat's legal move texts and the steps
narrated for that seat. Each human seat's payload is rebuilt after every step and kept with a version
number, so readers (HTTP and server-sent events) never touch a state while a bot is moving; a change wakes
the game's event streams (`updates`).

Each human seat has a token (`LiveGame.tokens`, given only to the game's creator; the game keeps only
its digest): the routes hand a seat's payload only to its holder. A game created without a seed deals from the session's secret, and
its payloads carry no seed (`setup.seeded` False); a seed is refused for a game with more than one human
seat (it would show each person the others' hidden cards), so a seed only ever reaches the one person
who typed it. The bots' specs are held to the operator's `ServerLimits`.

With a `GameStore` (`burano serve --store`, the default), every step is written to it before the move that
made it is answered, and a restarted server restores every kept game, each at its first request (`GameHub`,
`PendingGame`, `LiveGame.restore`).
"""

from __future__ import annotations

import contextlib
import copy
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from burano_ai.core.errors import IllegalMoveError, OptionError
from burano_ai.core.options import game_options_json, make_game, parse_game_options
from burano_ai.core.seats import CHANCE, SEAT_LETTERS, parse_seat
from burano_ai.engine import spec_for_position
from burano_ai.games import DEFAULT_GAME, all_specs, get_spec
from burano_ai.record import GameRecord
from burano_ai.session import GameSession, UndoRefused
from burano_ai.web.events import Changes
from burano_ai.web.guard import Busy, new_token, same_token
from burano_ai.web.limits import ServerLimits
from burano_ai.web.store import GameStore, KeptGame, SavedGame, StoreError, StoreReadError, token_digest


class NotNow(IllegalMoveError):
    """A request that is fine but cannot be done now: another seat is to move, a bot is thinking, nothing to undo."""


#: Largest seed a game may be created with.
MAX_SEED = 2**63 - 1
#: Seconds a move or an undo waits for the game's lock (held by a bot for one step) before a 409.
LOCK_WAIT = 5.0
#: The page's last-move marks: the changes of at least this many recent steps are sent (more when the
#: steps since the seat's last decision are more, up to MAX_MARKED_STEPS).
MARKED_STEPS = 30
MAX_MARKED_STEPS = 150


def payload_json(payload: Any) -> str:
    """A payload as its HTTP answer and event-stream data carry it (compact, UTF-8 text, no NaN: what
    Starlette's JSONResponse writes)."""
    return json.dumps(payload, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def view_changes(before: Any, after: Any, path: tuple = ()) -> list[list[Any]]:
    """What changed from one view dict to the next, as `[path, before, after]` leaves (game-agnostic).

    Dicts are compared key by key and lists of dicts of one length item by item (a view's seats); any
    other value is one leaf (a list of cells, a count). A key missing on one side reads None. Both views
    are one seat's, so the changes tell nothing that seat did not see.
    """
    if isinstance(before, dict) and isinstance(after, dict):
        out: list[list[Any]] = []
        for key in list(after) + [k for k in before if k not in after]:
            out += view_changes(before.get(key), after.get(key), path + (key,))
        return out
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after) and before \
            and all(isinstance(x, dict) for x in before + after):
        out = []
        for i, (b, a) in enumerate(zip(before, after)):
            out += view_changes(b, a, path + (i,))
        return out
    return [] if before == after else [[list(path), before, after]]


def web_board(spec: Any) -> str | None:
    """The URL of the game's own board module, or None: the page shows the generic board."""
    return f"/static/{spec.web_board}" if "web_board" in spec.capabilities else None


def kind_info(spec: Any) -> dict[str, Any]:
    """What the page knows of a registered game (a "kind" of game: the game's key in the registry)."""
    return {"key": spec.key, "title": spec.title, "min_players": spec.min_players,
            "max_players": spec.max_players, "default_players": spec.default_players,
            "board": web_board(spec), "editor": "web_editor" in spec.capabilities,
            "bots": sorted(spec.bots()), "score_name": spec.score_name,
            "options": game_options_json(spec)}   # the new-game form's fields besides the player count


def registered_kinds(default: str = DEFAULT_GAME, kept: bool = False) -> dict[str, Any]:
    """Every registered game for the page's chooser (`GET /api/games/kinds`), the registry's default first;
    `default` is the one the chooser offers first (`burano serve --game`); `kept`: whether the server keeps
    its games in a store (they survive its restart; the page says so)."""
    return {"kinds": [kind_info(spec) for spec in all_specs()], "default": default,
            "seat_letters": SEAT_LETTERS, "games_kept": kept}


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


def check_setup(game: Any, players: Any, seed: Any, seats: Any,
                limits: ServerLimits | None = None, options: Any = None
                ) -> tuple[int, int | None, list[str], dict[str, Any]]:
    """Validate a setup of `game` (a GameSpec) from the page: players, seed (None: a secret deal), one spec per
    seat ("human" or a bot spec, within the server's `limits`) and the game's `options` (a JSON object of
    `GameSpec.game_options`, None for none); return them, the options without those at their defaults."""
    from burano_ai.bots.registry import check_bot_spec
    from burano_ai.bots.spec import parse_bot_spec
    limits = limits or ServerLimits()
    check_players(game, players)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED):
        raise OptionError(f"seed must be a whole number from 0 to {MAX_SEED} (or none: a secret deal), "
                          f"not {seed!r}")
    if not isinstance(seats, list) or len(seats) != players or not all(isinstance(s, str) for s in seats):
        raise OptionError(f"seats must list {players} players ('human' or a bot spec), not {seats!r}"[:300])
    options = parse_game_options(game, options)
    # the options together, named; the bots are checked against their Game (`Bot.check_game`)
    rules_game = make_game(game, players, options, where="options" if options else None)
    specs = []
    for i, spec in enumerate(seats):
        spec = spec.strip()
        if spec == "human":
            specs.append(spec)
            continue
        where = f"seats[{i}] ({SEAT_LETTERS[i]})"
        try:
            # A page chooses the shipped net or the playout; a net file path would read the server's files.
            if parse_bot_spec(spec, game.key).options.get("eval", "playout") not in ("playout", "net"):
                raise OptionError(f"{where}: a bot on the web evaluates with eval=playout or eval=net, not a file")
            parsed = check_bot_spec(spec, game.key, rules_game)
        except ValueError as exc:
            raise OptionError(f"{where}: {exc}") from None
        limits.check_bot(parsed, where, game.key)
        specs.append(parsed.canonical())
    if "human" not in specs:
        raise OptionError("seats: at least one seat must be 'human' (the board shows a human seat's view)")
    if seed is not None and specs.count("human") > 1:
        # Whoever knows the seed rebuilds the whole deal: every other seat's hidden cards and every draw to
        # come. The creator typed it and every page of the game would carry it (payloads, the URL), so a game
        # of several people has a secret deal, always.
        raise OptionError("seed: a seeded deal allows one human seat only (with several people, the seed "
                          "would show each of them the others' hidden cards); leave the seed empty for a "
                          "secret deal")
    return players, seed, specs, options


def can_stop(spec: str, game: str) -> bool:
    """Whether a bot of `spec` stops thinking when asked (its `stop_event`, within one playout): every bot
    but a search in worker processes (`workers` > 1, which the server's default `bot_workers` = 1 refuses;
    it ends with its budget, capped by the server). A game's own bots decide in one short step."""
    from burano_ai.bots.spec import parse_bot_spec
    parsed = parse_bot_spec(spec, game)
    return parsed.options.get("workers", 1) <= 1


class LiveGame:
    """One game on the server: the session, a lock, the bot thread, the per-seat snapshots and tokens.

    The bot thread holds the lock for one step at a time (a chance event, a bot's decision); requests take
    it for a move or an undo. An undo during a bot's decision stops the search (`Bot.stop_event`) and then
    takes the seat back; a bot that cannot stop (see `can_stop`) makes the undo wait: it is refused (409).
    """

    def __init__(self, game_id: str, spec: Any, players: int, seed: int | None, seats: list[str],
                 options: dict[str, Any] | None = None, bot_seconds: float | None = None, client: str = "",
                 store: GameStore | None = None, saved: SavedGame | None = None) -> None:
        self.id = game_id
        self.client = client                  # who created it (`limits.client_of`): its share counts it
        self.last_used = time.monotonic()     # the last request that read or played it
        self.spec = spec
        self.store = store
        if saved is None:
            self.session = GameSession(players, seed, seats, game=spec.key, options=options)
            # the seats' tokens, for the creator's answer only: the game compares digests
            self.tokens = {seat: new_token() for seat in self.session.humans()}
            self._token_digests = {seat: token_digest(token) for seat, token in self.tokens.items()}
        else:                                 # a kept game, restored: its record replayed (a new secret)
            self.session = GameSession.resume(GameRecord.from_dict(saved.record))
            self.tokens = {}
            self._token_digests = dict(saved.token_digests)
        self.seeded = self.session.seeded
        # the seed only when the game was created with one (a reproducible deal); a secret deal's never
        self.setup = {"kind": spec.key, "players": players, "seats": seats, "seeded": self.seeded}
        if options:     # public, as the rules are: every seat plays by them
            self.setup["options"] = options
        if self.seeded:
            self.setup["seed"] = seed
        self.lock = threading.RLock()
        self.updates = Changes()   # wakes the game's event streams
        # a page ignores a payload whose version is not above the one it shows; a restored game's pages saw
        # versions from the last run, so it counts on from the clock's milliseconds, past any of those
        self.version = 0 if saved is None else int(time.time() * 1000)
        self.snapshots: dict[int, dict[str, Any]] = {}
        self._texts: dict[int, tuple[dict[str, Any], str]] = {}   # seat -> (snapshot, its JSON), made on demand
        self._batching = False   # within `_one_refresh`: a refresh asked is made once, at the block's end
        self._stale = False
        self.logs: dict[int, list[str]] = {seat: [] for seat in self.session.humans()}
        self.thinking: int | None = None
        self.closed = False
        self._halt = threading.Event()         # the bot thread stops before its next step
        self._think_stop = threading.Event()   # the bot thinking now stops and plays its best so far
        self._stoppable = {seat: can_stop(s, spec.key) for seat, s in enumerate(seats) if s != "human"}
        for seat in self._stoppable:
            self.session.bot(seat).stop_event = self._think_stop
        for seat, spec_text in enumerate(seats):
            if spec_text != "human":
                self.session.bot(seat).max_seconds = bot_seconds   # the operator's cap, whatever the spec says
        self._running = False
        self.error: str | None = None
        # the last-move marks: per human seat, each step's changes to that seat's view (aligned with logs)
        self.changes: dict[int, list[list[list[Any]]]] = {seat: [] for seat in self.session.humans()}
        self._seen = {seat: self.session.view(seat) for seat in self.session.humans()}
        # what the store holds of the game: its row, its first `_kept` steps, the result of its header
        self._in_store = saved is not None
        self._kept = len(self.session.record.steps) if saved is not None else 0
        self._kept_result = copy.deepcopy(self.session.record.result)
        if saved is not None:
            self.changes = replayed_changes(self.session)
            self._rebuild_logs()
        with self.lock:
            self._advance_chance()
            self._save()
            self._refresh()
            self._start_bots()

    @classmethod
    def restore(cls, saved: SavedGame, store: GameStore | None, bot_seconds: float | None = None) -> LiveGame:
        """A kept game back on a restarted server, where it stood (its bots think again).

        Raises:
            StoreReadError: the kept game cannot be restored (naming it and why).
        """
        spec, players, seed, seats, options = kept_setup(saved, store)
        try:
            return cls(saved.id, spec, players, seed, seats, options, bot_seconds=bot_seconds, client=saved.client,
                       store=store, saved=saved)
        except (ValueError, KeyError, TypeError) as exc:
            where = store.path if store is not None else "the store"
            raise StoreReadError(f"game {saved.id[:8]}… cannot be restored from the store {where} ({exc}); the "
                                 f"store keeps it as it is") from None

    def is_over(self) -> bool:
        return self.session.is_over()

    # -- the store -------------------------------------------------------------------------------
    def _save(self) -> None:
        """Write what changed since the last save to the store, in one transaction (called with the lock held,
        before a move is answered): the steps past the last kept one, the header when the result changed. A
        forgotten or closed game is not written."""
        if self.store is None or self.closed:
            return
        record = self.session.record
        header = None
        if not self._in_store or record.result != self._kept_result:
            header = record.to_dict()
            del header["steps"]
        steps = record.steps
        if self.store.save(self.id, self.client, self.setup, header, self._token_digests,
                           [step.to_dict() for step in steps[self._kept:]], self._kept, new=not self._in_store):
            self._in_store = True
            self._kept = len(steps)
            self._kept_result = copy.deepcopy(record.result)

    # -- who is asking ---------------------------------------------------------------------------------
    def seat_of_token(self, token: str | None) -> int | None:
        """The human seat `token` opens, or None."""
        if token is None:
            return None
        digest = token_digest(token)
        found = None
        for seat, own in self._token_digests.items():   # every digest compared, in constant time
            if same_token(digest, own):
                found = seat
        return found

    # -- snapshots -------------------------------------------------------------------------------
    def _on_step(self, step: Any, ply: int) -> None:
        for seat in self.changes:
            view = self.session.view(seat)
            self.changes[seat].append(view_changes(self._seen[seat], view))
            self._seen[seat] = view
        for seat, log in self.logs.items():
            log.append(self.session.narrate(step, seat))
        self._refresh()

    def _bot_to_move(self) -> int | None:
        to_move = self.session.to_move()
        return to_move if to_move >= 0 and to_move not in self.session.humans() else None

    def _refresh(self) -> None:
        if self._batching:
            self._stale = True
            return
        snapshots = {seat: seat_payload(self, seat) for seat in self.session.humans()}
        self.snapshots = snapshots
        self.version += 1
        self.updates.notify()

    @contextlib.contextmanager
    def _one_refresh(self):
        """The refreshes asked within the block (one per step, one for a bot starting) are made once, at its
        end: a move that resolves chance and starts the bots builds each seat's payload once, not per step
        (called with the lock held)."""
        if self._batching:
            yield
            return
        self._batching, self._stale = True, False
        try:
            yield
        finally:
            self._batching = False
            if self._stale:
                self._refresh()

    def snapshot_json(self, seat: int, snapshot: dict[str, Any] | None = None) -> str:
        """`snapshot` (default: the seat's current one) as JSON text, encoded once however many requests and
        event streams send it (readers on any thread: a race encodes it twice, the same text)."""
        snapshot = self.snapshots[seat] if snapshot is None else snapshot
        cached = self._texts.get(seat)
        if cached is not None and cached[0] is snapshot:
            return cached[1]
        text = payload_json(snapshot)
        self._texts[seat] = (snapshot, text)
        return text

    def _rebuild_logs(self) -> None:
        for seat in self.logs:
            self.logs[seat] = [self.session.narrate(step, seat) for step in self.session.record.steps]
        # undo cuts the record: the changes of the steps kept stay right
        for seat in self.changes:
            del self.changes[seat][len(self.session.record.steps):]
            self._seen[seat] = self.session.view(seat)

    # -- advancing -----------------------------------------------------------------------------
    def _advance_chance(self) -> None:
        """Resolve chance events now (they are instant); stop where a bot or a human is to move."""
        self.session.advance(on_step=self._on_step, should_stop=lambda: self._bot_to_move() is not None)

    def _start_bots(self) -> None:
        """Start the bot thread if a bot is to move and none runs (called with the lock held)."""
        if self._bot_to_move() is None or self._running or self.closed:
            return
        self._running = True
        self.thinking = self._bot_to_move()
        self._refresh()
        threading.Thread(target=self._run_bots, name=f"bots-{self.id[:8]}", daemon=True).start()

    def _run_bots(self) -> None:
        """Bots' decisions and chance events, one step per hold of the lock, until a person is to move."""
        while True:
            with self.lock:
                self._think_stop.clear()   # before looking at the halt: an undo's stop from now on is seen
                seat = None if self._halt.is_set() or self.closed else self._bot_to_move()
                if seat is None:   # the end of the thread, decided with the lock held (see `_start_bots`)
                    self._running = False
                    self.thinking = None
                    self._refresh()
                    return
                if self.thinking != seat:
                    self.thinking = seat
                    self._refresh()
                try:
                    step = self.session.bot_move()
                    if self.closed:      # stopped for the server's end or a forgetting: not kept, not shown
                        continue
                    # the pages see the step, the chance after it and who is to think next in one refresh
                    with self._one_refresh():
                        if step is not None:
                            self._on_step(step, len(self.session.record.steps))
                        self._advance_chance()
                        self._save()
                        following = None if self._halt.is_set() or self.closed else self._bot_to_move()
                        self.thinking = following
                        if following is None:   # the thread's end, decided with the lock held
                            self._running = False
                            self._refresh()
                            return
                except Exception as exc:   # a bot failing is shown on the page, not lost in a thread
                    self.error = f"a bot failed: {type(exc).__name__}: {exc}"
                    self._running = False
                    self.thinking = None
                    self._refresh()
                    return

    def _take_lock(self) -> None:
        if not self.lock.acquire(timeout=LOCK_WAIT):
            raise NotNow("the game is busy (a bot is thinking): try again in a moment")

    def close(self) -> None:
        """Forget the game: its bot stops thinking (a bot that cannot stop ends with its budget) and its
        event streams end."""
        self.closed = True
        self._halt.set()
        self._think_stop.set()
        self.updates.notify()

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
        self._take_lock()
        try:
            if self.thinking is not None:
                raise NotNow(f"seat {SEAT_LETTERS[self.thinking]} (a bot) is thinking: wait for your turn")
            if self.session.to_move() != seat:
                raise NotNow(f"seat {SEAT_LETTERS[seat]} is not to move")
            with self._one_refresh():
                step = self.session.play(seat, move)
                self._on_step(step, len(self.session.record.steps))
                self._advance_chance()
                self._start_bots()
                self._save()            # kept before it is answered
            return self.snapshots[seat]
        finally:
            self.lock.release()

    def undo(self, seat: int) -> dict[str, Any]:
        """Back to the seat's previous decision; a bot thinking meanwhile is stopped first (its move undone)."""
        letter = SEAT_LETTERS[seat]
        if not any(step.actor == letter for step in list(self.session.record.steps)):
            raise NotNow(f"seat {letter} has no move to undo")
        thinking = self.thinking
        if thinking is not None:
            refusal = self.session.undo_refusal(seat)    # asked before the bot is stopped: a refused undo
            if refusal is not None:                      # leaves it thinking
                raise NotNow(refusal)
            if not self._stoppable.get(thinking, True):
                raise NotNow(f"seat {SEAT_LETTERS[thinking]} ({self.setup['seats'][thinking]}) is thinking and "
                             f"cannot be interrupted: undo once it has moved")
            self._halt.set()
            self._think_stop.set()
        try:
            self._take_lock()
        except NotNow:
            self._halt.clear()
            raise
        try:
            self._halt.clear()
            try:
                done = self.session.undo(seat)
            except UndoRefused as exc:      # it would show the seat something hidden from it (issue 35 G02)
                self._start_bots()          # a bot stopped for the undo thinks again
                raise NotNow(str(exc)) from None
            if not done:
                raise NotNow(f"seat {letter} has no move to undo")
            self._rebuild_logs()
            self.thinking = None   # a person is to move: the bot thread, if it still runs, ends at its next look
            self._kept = min(self._kept, len(self.session.record.steps))
            self._save()
            self._refresh()
            return self.snapshots[seat]
        finally:
            self.lock.release()

    def record_text(self, seat: int) -> str:
        """The game so far as `seat` may share it (a game record, other seats' private steps hidden).

        Read from a copy of the record as it stands, without the lock: a bot thinking holds the lock, and a
        download must not wait for its think (the steps change only between decisions)."""
        record = copy.copy(self.session.record)
        record.steps = list(record.steps)
        return record.for_seat(seat).to_json()


def kept_setup(game: KeptGame | SavedGame, store: GameStore | None) -> tuple[Any, int, int | None, list[str],
                                                                        dict[str, Any] | None]:
    """A kept game's setup, checked as far as it can be without its record (a restart checks every game's so,
    before it listens): (spec, players, seed, seats, options).

    Raises:
        StoreError: naming the game and what is wrong.
    """
    setup = game.setup
    try:
        spec = get_spec(setup["kind"])
        players, seats, options = setup["players"], list(setup["seats"]), setup.get("options")
        check_players(spec, players)
        if len(seats) != players or not all(isinstance(s, str) for s in seats) or "human" not in seats:
            raise ValueError(f"seats {seats!r} for {players} players")
        if not (options is None or isinstance(options, dict)) or not isinstance(game.token_digests, dict):
            raise ValueError("options or tokens are not JSON objects")
        return spec, players, setup.get("seed"), seats, options
    except (ValueError, KeyError, TypeError) as exc:
        where = store.path if store is not None else "the store"
        raise StoreError(f"--store {where}: game {game.id[:8]}… cannot be restored ({exc}); the store was left "
                         f"as it is") from None


class PendingGame:
    """A kept game a restarted server has not replayed yet: its row only (`KeptGame`), enough to count it in the
    shares and to forget it; `GameHub.get` restores it at its first request."""

    def __init__(self, kept: KeptGame) -> None:
        self.id = kept.id
        self.client = kept.client
        self.kept = kept
        self.last_used = time.monotonic()
        self.failure: str | None = None       # why it could not be restored, once tried

    def is_over(self) -> bool:
        return self.kept.header.get("result") is not None

    def close(self) -> None:
        """Nothing runs for a game not restored."""


def replayed_changes(session: GameSession) -> dict[int, list[list[list[Any]]]]:
    """The last-move marks of a resumed game: each step's changes to each human seat's view, from a replay of
    its record (what `LiveGame._on_step` gathered as the game went)."""
    humans = session.humans()
    changes: dict[int, list[list[list[Any]]]] = {seat: [] for seat in humans}
    seen = None
    for _, state in session.record.positions(session.game_factory):
        views = {seat: state.to_dict(seat) for seat in humans}
        if seen is not None:
            for seat in humans:
                changes[seat].append(view_changes(seen[seat], views[seat]))
        seen = views
    return changes


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
        "marks": seat_marks(game, seat),
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
        payload["score_table"] = score_table(game.spec, session.state, session.record.result, session.effects)
    return payload


def score_table(spec, state, result: dict[str, Any] | None, effects: Sequence[Sequence[Any]] = ()) -> dict[str, Any]:
    """The end of a game as a table, as the terminal and the narration tell it: a row per seat in the order of
    finish (place, seat, each scoring category, the total, then the game's tie-break columns), for the web
    page's result. The categories are those the game's narration scored points to (the public `effects` of
    every step, `StepEffect.points`: Burano's ships, roofs, majorities, lace and final scoring, Goofspiel's
    prizes), else the final scoring's (`State.final_breakdown`: Azul, Walking in Burano, Venice 2099); points
    scored otherwise (Azul's windows and bonuses before its final scoring) are a column of their own, so every
    row adds up to its total."""
    n = state.num_players
    scores = list(state.scores())
    columns = spec.score_columns(state)
    total_name, totals = columns[0]
    parts: list[dict[str, float]] = [{} for _ in range(n)]
    for step in effects:
        for effect in step:
            if effect.seen_by is None:     # public: the table is every seat's
                for seat, category, points in effect.points:
                    parts[seat][category] = parts[seat].get(category, 0) + points
    breakdown = getattr(state, "final_breakdown", None)
    if not any(parts) and callable(breakdown):
        parts = [dict(breakdown(p)) for p in range(n)]
    categories: list[str] = []
    for part in parts:
        categories += [k for k in part if k not in categories]
    before = [scores[p] - sum(parts[p].values()) for p in range(n)]
    header = (["during the game"] if categories and any(before) else []) + categories
    order = (result or {}).get("order") or [SEAT_LETTERS[p] for p in sorted(range(n), key=lambda p: -scores[p])]
    rows = []
    for place, letter in enumerate(order, start=1):
        p = SEAT_LETTERS.index(letter)
        cells = ([_number(before[p])] if "during the game" in header else []) + \
            [_number(parts[p].get(k, 0)) for k in categories]
        rows.append({"place": place, "seat": letter, "cells": cells, "total": totals[p],
                     "extra": [values[p] for _, values in columns[1:]]})
    return {"categories": header, "total": total_name, "extra": [name for name, _ in columns[1:]], "rows": rows,
            "winners": list((result or {}).get("winners", []))}


def _number(x: float) -> str:
    return f"{x:g}"


def seat_marks(game: LiveGame, seat: int) -> dict[str, Any]:
    """The last-move marks of `seat`'s page: `since` (the first step after the seat's last decision: its
    changes and all later ones are marked) and `steps`, the changes of recent steps to the seat's view
    (`view_changes`), the first of them step `first` (0-based, as the log's lines)."""
    steps = game.session.record.steps
    letter = SEAT_LETTERS[seat]
    since = next((i + 1 for i in range(len(steps) - 1, -1, -1) if steps[i].actor == letter), 0)
    changes = game.changes.get(seat, [])
    first = max(0, min(since, len(changes) - MARKED_STEPS), len(changes) - MAX_MARKED_STEPS)
    return {"since": since, "first": first, "steps": changes[first:]}


class GameHub:
    """The games this server holds, by id (unguessable): at most `limits.max_games`, and at most
    `limits.client_games` created by one client. A client at its share makes room by forgetting its own
    least recently used game; a full server forgets the least recently used game that is over or untouched
    for `limits.game_idle_seconds`, never another client's game in play, and refuses (429) when there is none
    (a forgotten game's bot stops, its streams end).

    With a `store`, the games kept there are taken back first (least recently changed first), every game is
    written to it as it goes, and a forgotten game is dropped from it; the server's end (`close`) leaves them
    there for the next start. A kept game is read as its row only (a `PendingGame`: its setup checked, counted
    in the shares) and replayed at its first request (`get`), so a restart listens at once: replaying and
    narrating every game first took 18 s for 75 games on a loaded machine.

    Raises:
        StoreError: a kept game's row cannot be read back or its setup is not one this server plays (the
        store is left as it is).
    """

    def __init__(self, limits: ServerLimits | None = None, store: GameStore | None = None) -> None:
        self.limits = limits or ServerLimits()
        self.store = store
        self.games: OrderedDict[str, LiveGame | PendingGame] = OrderedDict()
        self._lock = threading.Lock()
        self._restoring = threading.Lock()    # one replay at a time: they share the GIL anyway
        if store is not None:
            for kept in store.kept():
                kept_setup(kept, store)
                self.games[kept.id] = PendingGame(kept)

    def is_pending(self, game_id: str) -> bool:
        """Whether `game_id` is a kept game not replayed yet (its first request replays it: `get`)."""
        return isinstance(self.games.get(game_id), PendingGame)

    def _restore(self, pending: PendingGame) -> LiveGame:
        """The kept game replayed and put in its place (the first request for it since the restart).

        Raises:
            StoreReadError: it cannot be read back or replayed (every request for it says so; the store keeps
            it). LookupError: it was forgotten meanwhile.
        """
        with self._restoring:
            current = self.games.get(pending.id)
            if isinstance(current, LiveGame):
                return current               # restored by the request this one waited for
            if current is not pending:
                raise LookupError(f"no game {_shown(pending.id)} on this server (it was forgotten: start a new one)")
            if pending.failure is not None:
                raise StoreReadError(pending.failure)
            try:
                game = LiveGame.restore(self.store.load(pending.kept), self.store, self.limits.bot_seconds)
            except (StoreReadError, StoreError) as exc:
                pending.failure = str(exc)
                raise StoreReadError(pending.failure) from None
            with self._lock:
                if self.games.get(pending.id) is pending:
                    game.last_used = pending.last_used
                    self.games[pending.id] = game    # in its place in the order of use
                    return game
            game.close()                     # forgotten while it was replayed
            raise LookupError(f"no game {_shown(pending.id)} on this server (it was forgotten: start a new one)")

    def _forget(self, game: LiveGame | PendingGame) -> None:
        """The game's bot stops, its streams end, and the store drops it."""
        game.close()
        if self.store is not None:
            self.store.forget(game.id)

    def _room_for(self, client: str) -> LiveGame | PendingGame | None:
        """The game to forget so that `client` may create one (called with the lock held), or None when there
        is room already.

        Raises:
            Busy: the server is full of other clients' games in play.
        """
        mine = [g for g in self.games.values() if g.client == client]     # least recently used first
        if len(mine) >= self.limits.client_games:
            return mine[0]
        if len(self.games) < self.limits.max_games:
            return None
        if mine:                         # a full server: the client's own game first
            return mine[0]
        now = time.monotonic()
        for game in self.games.values():
            if game.is_over() or now - game.last_used >= self.limits.game_idle_seconds:
                return game
        raise Busy(f"this server holds {self.limits.max_games} games, all in play (its limit): try again later")

    def create(self, kind: Any, players: Any, seed: Any, seats: Any, options: Any = None,
               client: str = "") -> LiveGame:
        """A new game of `kind` (a registered game key) with `players`, `seed` (None: a secret deal), one
        spec per seat and the game's `options` (a JSON object, None for none)."""
        spec = get_spec(kind)   # OptionError naming the known games
        players, seed, seats, options = check_setup(spec, players, seed, seats, self.limits, options)
        with self._lock:
            self._room_for(client)       # refused before any game is made (and any bot starts)
        game = LiveGame(new_token(), spec, players, seed, seats, options, bot_seconds=self.limits.bot_seconds,
                        client=client, store=self.store)
        forgotten = []
        try:
            with self._lock:             # again: other requests may have made games meanwhile
                while (old := self._room_for(client)) is not None:
                    forgotten.append(self.games.pop(old.id))
                self.games[game.id] = game
        except Busy:
            self._forget(game)
            raise
        finally:
            for old in forgotten:
                self._forget(old)
        return game

    def get(self, game_id: str) -> LiveGame:
        """The game `game_id` (a kept game not replayed since the restart is replayed now: `_restore`).

        Raises:
            LookupError: no such game. StoreReadError: a kept game that cannot be restored.
        """
        with self._lock:
            game = self.games.get(game_id)
            if game is not None:
                self.games.move_to_end(game_id)
                game.last_used = time.monotonic()
        if game is None:
            raise LookupError(f"no game {_shown(game_id)} on this server (it may have been forgotten: "
                              f"start a new one)")
        if isinstance(game, PendingGame):
            return self._restore(game)
        return game

    def close(self) -> None:
        """Let go of every game (the server stops): their bots stop; a store keeps them for the next start."""
        with self._lock:
            games, self.games = list(self.games.values()), OrderedDict()
        for game in games:
            game.close()


def _shown(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"
