"""A game between people and bots: the full position stays here, each player gets only its seat's view.

`GameSession` is the shared core of `burano play` (the terminal) and `burano serve` (the web board), for
any registered game (`game`, default Burano; reached through `burano_ai.games.get_spec`): it holds the
State and the `GameRecord`, plays chance events and bot moves (`advance`), takes the people's moves
(`play`), takes them back (`undo`), asks the engine for a hint from a seat's view (`hint`) and narrates
every step as a given seat may read it (`narrate`).

    session = GameSession(players=2, seats=["human", "random"])   # secret chance
    session.advance()                     # bots and chance until a person is to move
    session.play(0, "pick workshop")
    session.save("game.json")

Two kinds of chance (docs/game-format.md, "Secret chance and seeds"):

- **Secret** (``seed=None``, the default, for every game people play): the session draws a 256-bit secret
  with `secrets` and keeps it to itself. The deal, every chance outcome and every bot's seed derive from
  it through a keyed hash (BLAKE2b, `secret_seed`), so nothing a seat's client receives -- its view, its
  one-seat export, the record -- predicts a hidden draw or a bot's next choice. **Undo redraws**: chance
  outcomes derive from (secret, step number, undos so far) and the bots are reseeded from (secret, seat,
  undos so far), so after `undo` the same move meets a fresh draw and a fresh bot reply. A redraw cannot
  hide what already was hidden when the seat moved, though (a card dealt face down, a bot's hand, a card
  returned face down that the next draw must take): what the seat saw since came from it. So **undo
  previews nothing** (`undo_refusal`): it takes a move back only when the seat saw nothing hidden from it
  then -- nothing was hidden (every later draw and bot reply is drawn afresh), or the seat has seen no
  step since but its own -- and otherwise refuses in one line (`UndoRefused`). The secret is never written anywhere: the record has no seed, its `start` is
  the dealt position and its steps say every draw, which is all a replay needs; `resume` of such a record
  draws a new secret, so reloading a save does not replay the draws seen before.
- **Seeded** (an explicit `seed`: tests, the arena, reproducible practice games): chance outcomes derive
  from the seed and the step number, and a bot's decision from its seed (`bot_seed`, default the seed)
  and how many decisions it has taken, so the same seed and moves give the same game, and after `undo`
  the bots and the dice replay the same (bots with a time budget may search differently: their thinking is
  cut by the clock). Whoever holds the seed can compute every draw: it belongs in the full record only,
  never in a view or a one-seat export.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from typing import Any, Callable

from burano_ai.bots.registry import make_bot
from burano_ai.bots.spec import parse_bot_spec
from burano_ai.core.errors import IllegalMoveError, OptionError
from burano_ai.core.game import player_range_text
from burano_ai.core.options import game_for, make_game, parse_game_options
from burano_ai.core.seats import CHANCE, SEAT_LETTERS, TERMINAL, parse_seat
from burano_ai.core.seeds import SEED_MASK, derive
from burano_ai.engine import suggest
from burano_ai.games import DEFAULT_GAME, get_spec
from burano_ai.random_play import sample_chance
from burano_ai.record import (EFFECTS_SEPARATOR, HUMAN, GameRecord, RecordError, SeatInfo, Step, narrate_parts,
                              record_narration, step_effects, step_words)
from burano_ai.search.limits import Limit

#: Seed-derivation tags of the session's random choices.
_CHANCE_TAG = 0xC4A1
_BOT_TAG = 0xB075
_HINT_TAG = 0x4147
_DEAL_TAG = 0xDEA1
#: Bytes of a secret game's secret (`secrets.token_bytes`).
SECRET_BYTES = 32


def secret_seed(secret: bytes, *keys: int) -> int:
    """A 63-bit seed from the session's `secret` and integer `keys` (tag, step, undos, seat, ...).

    A keyed BLAKE2b (a pseudorandom function): seeds for different keys are unrelated to anyone without the
    secret, so what a seat sees of some draws says nothing about the others (`core.seeds.derive`, a fast
    mixer for reproducible runs, makes no such promise).
    """
    data = b"".join(k.to_bytes(16, "little", signed=True) for k in keys)
    return int.from_bytes(hashlib.blake2b(data, key=secret, digest_size=8).digest(), "little") >> 1


#: Worlds drawn from a seat's view to decide whether anything is hidden from it (`hides_anything`).
HIDDEN_PROBES = 24


def hides_anything(state: Any, seat: int, probes: int = HIDDEN_PROBES) -> bool:
    """Whether `state` hides anything from `seat`: some world the seat cannot tell from it differs.

    Game-agnostic: `State.resample(seat, seed)` draws worlds of the seat's information set, and a view's
    dict cannot say it (Burano writes another seat's empty blind hand as a count in a view). With one
    world only (nothing hidden) every draw is `state` itself; with two or more, all `probes` draws are
    `state` with probability at most 2**-probes under a uniform draw."""
    full = state.to_dict()
    return any(state.resample(seat, i).to_dict() != full for i in range(probes))


class UndoRefused(IllegalMoveError):
    """An undo that would show the seat something it could not see without it (`GameSession.undo_refusal`)."""


class GameSession:
    """One game between people ("human" seats) and bots (a bot spec per seat).

    Attributes:
        state: the full position. It never leaves the server: give clients `view(seat)`.
        record: the game so far (`burano-game/1`): the umpire's, never a client's (`record.for_seat`).
        seed: the caller's seed of a seeded game; None for secret chance (the module docstring).
        seeded: True when the caller gave a seed (chance and bots reproducible from it).
        undos: how many times `undo` took steps back (a secret game redraws from it).
        game: the game's registry key (`burano_ai.games`).
    """

    def __init__(self, players: int, seed: int | None = None, seats: list[str] | None = None,
                 game_factory: Callable[[int], Any] | None = None,
                 names: list[str] | None = None, bot_seed: int | None = None, start: dict[str, Any] | None = None,
                 event: str | None = None, game: str = DEFAULT_GAME,
                 options: dict[str, Any] | None = None) -> None:
        spec = get_spec(game)
        if isinstance(players, bool) or not isinstance(players, int) or \
                not spec.min_players <= players <= spec.max_players:
            raise OptionError(f"players must be {player_range_text(spec)}, not {players!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63):
            raise OptionError(f"seed must be a whole number from 0 to 2^63-1, not {seed!r}")
        if seed is None and bot_seed is not None:
            raise OptionError("bot_seed needs a seed: a game with secret chance seeds its bots from the secret")
        if seats is None or isinstance(seats, str) or len(seats) != players:
            count = "none" if seats is None else (1 if isinstance(seats, str) else len(seats))
            raise OptionError(f"{players} players need {players} seats (human or a bot spec), not {count}")
        options = parse_game_options(spec, options)
        if options:
            make_game(spec, players, options, where="options")    # the options together, named
        specs = [HUMAN if s == HUMAN else parse_bot_spec(s, game).canonical() for s in seats]
        if names is None:
            names = [("You" if specs.count(HUMAN) == 1 else f"Player {SEAT_LETTERS[i]}") if s == HUMAN else s
                     for i, s in enumerate(specs)]
        if len(names) != players:
            raise OptionError(f"{players} players need {players} names, not {len(names)}")
        self.game = game
        self.seed = seed
        self.seeded = seed is not None
        self.undos = 0
        # A secret game's secret: only ever used through `secret_seed`, never stored or sent.
        self._secret = None if self.seeded else secrets.token_bytes(SECRET_BYTES)
        self.bot_seed = (seed if bot_seed is None else bot_seed) if self.seeded else None
        self.game_factory = game_factory
        if start is None and not self.seeded:    # the deal, written out: no seed in the record
            start = game_for(spec, players, options, game_factory).new_initial_state(
                secret_seed(self._secret, _DEAL_TAG)).to_dict()
        self.record = GameRecord.new(players, seed, [SeatInfo(n, s) for n, s in zip(names, specs)],
                                     start=start, event=event, game=game, options=options)
        self.state = self.record.initial_state(game_factory)
        # Made for the Game of the options, so a bot that cannot play it is refused now (`Bot.check_game`).
        self._bots = {i: make_bot(s, self._bot_seed(i), game, self.state.game) for i, s in enumerate(specs)
                      if s != HUMAN}
        #: per step of the record: what it changed (`record.step_effects`) and its move in people's words
        #: (`record.step_words`), told with its narration.
        self.effects: list[list] = []
        self.words: list[str | None] = []

    def _bot_seed(self, seat: int) -> int:
        """The seed of the bot at `seat`: from `bot_seed` (seeded), else from the secret and the undos so far."""
        if self.seeded:
            return derive(self.bot_seed, _BOT_TAG, seat)
        return secret_seed(self._secret, _BOT_TAG, seat, self.undos)

    def _seed_for(self, tag: int, ply: int) -> int:
        """The seed of a random choice at step `ply`: from the seed (seeded), else the secret and the undos."""
        if self.seeded:
            return derive(self.seed, tag, ply)
        return secret_seed(self._secret, tag, ply, self.undos)

    @property
    def revealed_seed(self) -> int | None:
        """The seed of a seeded game once it is over (None before, and always for secret chance: the
        secret is never revealed, the record's steps already say every draw)."""
        return self.seed if self.seeded and self.is_over() else None

    @classmethod
    def resume(cls, record: GameRecord, game_factory: Callable[[int], Any] | None = None,
               bot_seed: int | None = None) -> GameSession:
        """Continue the game of `record` (replayed and checked step by step).

        A seeded record (`record.seed`) continues seeded: the same game goes on the same way. A record without
        a seed (a game of secret chance, or one started from a position) continues with a new secret, so a
        reloaded save never replays the draws seen before it was saved.
        """
        if record.view is not None:
            raise RecordError(f"record: exported for seat {record.view} only; a game resumes from the full record")
        if record.seed is None and bot_seed is not None:
            bot_seed = None      # secret chance seeds its bots from the secret
        session = cls(record.players, record.seed,
                      [s.player for s in record.seats], game_factory=game_factory, names=[s.name for s in record.seats],
                      bot_seed=bot_seed, start=record.start, event=record.event, game=record.game,
                      options=record.options)
        session.record.date = record.date
        state = record.replay(game_factory=game_factory)   # raises RecordError naming a bad step
        session.record.steps = list(record.steps)
        session.words, session.effects = record_narration(session.record, game_factory)
        session.state = state
        session._sync_bots()
        if state.is_terminal():
            session.record.finish(state)
        return session

    # -- what a player may know ----------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.record.players

    @property
    def ply(self) -> int:
        return len(self.record.steps)

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.record.seats) if s.is_human]

    def is_bot(self, seat: int) -> bool:
        return seat in self._bots

    def bot(self, seat: int) -> Any:
        """The bot playing `seat` (None for a person): its owner may set its `stop_event`."""
        return self._bots.get(seat)

    def to_move(self) -> int:
        """The seat to move, or `CHANCE` / `TERMINAL`."""
        return self.state.current_player()

    def is_over(self) -> bool:
        return self.state.is_terminal()

    def seat(self, seat: int | str) -> int:
        return parse_seat(seat, self.players)

    def view(self, seat: int | str) -> dict[str, Any]:
        """Everything the seat's client may ever see of the position (its one-seat view)."""
        return self.state.to_dict(self.seat(seat))

    def legal_moves(self, seat: int | str) -> list[str]:
        """The seat's legal move texts ([] unless it is to move)."""
        p = self.seat(seat)
        if self.state.current_player() != p:
            return []
        return [self.state.action_to_string(a) for a in self.state.legal_actions()]

    def describe_legal(self, seat: int | str) -> list[str]:
        """The seat's legal moves in people's words (`GameSpec.describe_move`), in the order of
        `legal_moves` ([] unless it is to move)."""
        p = self.seat(seat)
        if self.state.current_player() != p:
            return []
        return get_spec(self.game).describe_moves(self.state, self.state.legal_actions())

    def move_notes(self, seat: int | str) -> list[str]:
        """What the seat's next move costs and why moves are missing (`GameSpec.move_notes`); [] unless
        it is to move."""
        p = self.seat(seat)
        if self.state.current_player() != p:
            return []
        return list(get_spec(self.game).move_notes(self.state))

    def narrate(self, step: Step, seat: int | str | None) -> str:
        """The step as `seat` may read it (None: the umpire, who sees everything), with what it changed
        that the seat may read (VP and coins and why, in Burano): `record.narrate_step`."""
        text, told = self.narrate_parts(step, seat)
        return text + (EFFECTS_SEPARATOR + "; ".join(told) if told else "")

    def narrate_parts(self, step: Step, seat: int | str | None) -> tuple[str, list[str]]:
        """`narrate` in parts: (the step's text, the effects the seat may read)."""
        steps = self.record.steps
        ply = next((i for i in range(len(steps) - 1, -1, -1) if steps[i] is step), None)
        known = ply is not None and ply < len(self.effects)
        return narrate_parts(step, None if seat is None else self.seat(seat), self.game,
                             self.effects[ply] if known else None, self.words[ply] if known else None)

    # -- playing -----------------------------------------------------------------------------------------

    def _step(self, action: int) -> Step:
        before = self.state.clone()
        self.words.append(step_words(self.state, action, self.game))
        step = self.record.add(self.state, action)
        self.state.apply_action(action)
        self.effects.append(step_effects(before, self.state, action, self.game))
        if self.state.is_terminal():
            self.record.finish(self.state)
        return step

    def chance_action(self) -> int:
        """The chance outcome of this step: drawn from the seed and the step number (seeded), or from the
        secret, the step number and the undos so far (secret chance)."""
        return sample_chance(self.state, random.Random(self._seed_for(_CHANCE_TAG, self.ply)))

    def advance(self, on_step: Callable[[Step, int], None] | None = None,
                should_stop: Callable[[], bool] | None = None,
                on_think: Callable[[int], None] | None = None) -> None:
        """Play chance events and bot moves until a person is to move or the game ends.

        Args:
            on_step: called with (step, ply) after each step.
            should_stop: checked before each step; True ends `advance` early.
            on_think: called with the bot's seat before it thinks.
        """
        while not self.state.is_terminal():
            if should_stop is not None and should_stop():
                return
            p = self.state.current_player()
            if p == CHANCE:
                action = self.chance_action()
            elif p in self._bots:
                if on_think is not None:
                    on_think(p)
                action = self._bots[p].step(self.state)
            else:
                return
            step = self._step(action)
            if on_step is not None:
                on_step(step, self.ply - 1)

    def bot_move(self) -> Step | None:
        """Play one step if it is a chance event or a bot's move (None when a person is to move)."""
        p = self.state.current_player()
        if p == TERMINAL:
            return None
        if p == CHANCE:
            return self._step(self.chance_action())
        if p in self._bots:
            return self._step(self._bots[p].step(self.state))
        return None

    def play(self, seat: int | str, move: str | int) -> Step:
        """A person's move: text (exact, as `legal_moves` lists it) or an action id.

        Raises:
            OptionError: the seat is a bot's, or not to move. IllegalMoveError: not a legal move (the state
            is untouched).
        """
        p = self.seat(seat)
        if self.state.is_terminal():
            raise IllegalMoveError("the game is over")
        if p in self._bots:
            raise OptionError(f"seat {SEAT_LETTERS[p]} is played by {self.record.seats[p].player}")
        if self.state.current_player() != p:
            raise OptionError(f"seat {SEAT_LETTERS[p]} is not to move")
        if isinstance(move, str):
            action = self.state.string_to_action(move)
        elif isinstance(move, int) and not isinstance(move, bool):
            action = move
        else:
            raise IllegalMoveError(f"a move is a text or an action id, not {move!r}")
        if action not in self.state.legal_actions():
            raise IllegalMoveError(f"{self.state.action_to_string(action)!r} is not legal here "
                                   f"(legal: {', '.join(self.legal_moves(p))})")
        return self._step(action)

    def play_many(self, seat: int | str, moves: list[str]) -> list[Step]:
        """Several moves of `seat` in a row (a pyramid in one line), all or nothing.

        Every move is tried on a copy first; if one cannot be played, nothing is applied.

        Raises:
            OptionError: the seat is a bot's, or not to move. IllegalMoveError: naming the first move that
            cannot be played (`move 3 of 5 'pyramid white': ...`).
        """
        p = self.seat(seat)
        if not moves:
            raise IllegalMoveError("no moves given")
        if self.state.is_terminal():
            raise IllegalMoveError("the game is over")
        if p in self._bots:
            raise OptionError(f"seat {SEAT_LETTERS[p]} is played by {self.record.seats[p].player}")
        trial = self.state.clone()
        for i, text in enumerate(moves):
            where = f"move {i + 1} of {len(moves)} {text!r}"
            if trial.is_terminal() or trial.current_player() != p:
                raise IllegalMoveError(f"{where}: seat {SEAT_LETTERS[p]} is no longer to move")
            try:
                action = trial.string_to_action(text)
            except IllegalMoveError as exc:
                raise IllegalMoveError(f"{where}: {exc}") from None
            if action not in trial.legal_actions():
                raise IllegalMoveError(f"{where}: not legal here")
            trial.apply_action(action)
        return [self.play(p, text) for text in moves]

    def undo(self, seat: int | str) -> bool:
        """Go back to the seat's previous decision: the one it is at now if it is to move, else its last one.

        The record is cut there and the state replayed. A seeded game's bot counters rewind, so chance and
        bots replay the same; a secret game counts the undo (`undos`) and redraws: the chance outcomes and the
        bots' choices after the cut are drawn afresh, so an undo never previews a hidden draw or a bot reply.
        Returns False (nothing changed) when the seat has no earlier decision.

        Raises:
            UndoRefused: in a secret game, the seat has seen since that decision something that came from
                what was hidden from it there (`undo_refusal`); nothing changes.
        """
        letter = SEAT_LETTERS[self.seat(seat)]
        steps = self.record.steps
        mine = [i for i, s in enumerate(steps) if s.actor == letter]
        if not mine:
            return False
        refusal = self.undo_refusal(seat)
        if refusal is not None:
            raise UndoRefused(refusal)
        self.record.truncate(mine[-1])
        del self.effects[mine[-1]:]
        del self.words[mine[-1]:]
        self.state = self.record.replay(game_factory=self.game_factory)
        self.undos += 1
        self._sync_bots()
        return True

    def undo_refusal(self, seat: int | str) -> str | None:
        """Why an undo by `seat` would preview something hidden from it, or None when it may undo.

        Undo goes back to the seat's last decision D. Whatever the seat saw after D was drawn from the world
        of D; a secret game's undo redraws the chance and the bots after D, but the parts of D hidden from
        the seat (another seat's cards, a card returned face down, a deck's make-up) stay, so a step it saw
        may have shown them (a draw forced with probability 1, a bot's reply from its hand). The undo is
        allowed when (1) nothing of D was hidden from the seat (its view of D is the whole position: every
        later draw and reply then comes from public facts and fresh chance), or (2) the seat has seen no
        step since D (its own move aside). A seeded game is exempt: its seed's holder can compute every
        draw anyway, and undo replays them by design.
        """
        p = self.seat(seat)
        letter = SEAT_LETTERS[p]
        steps = self.record.steps
        mine = [i for i, s in enumerate(steps) if s.actor == letter]
        if not mine or self.seeded:
            return None
        cut = mine[-1]
        seen = [s for s in steps[cut + 1:] if s.actor != letter and s.visible_to(letter)]
        if not seen:
            return None
        decision = self.record.replay(cut, game_factory=self.game_factory)
        if not hides_anything(decision, p):
            return None
        first = seen[0]
        what = (f"the draw {first.move!r}" if first.is_chance else f"{first.actor}'s move {first.move!r}")
        more = f" and {len(seen) - 1} more step{'s' if len(seen) > 2 else ''}" if len(seen) > 1 else ""
        return (f"cannot undo: since your move you have seen {what}{more}, which came from what was hidden "
                f"from you then; taking the move back would let you choose again knowing it")

    def _sync_bots(self) -> None:
        for p, bot in self._bots.items():
            bot.restart()
            bot.seed = self._bot_seed(p)
            bot.decisions = sum(1 for s in self.record.steps if s.actor == SEAT_LETTERS[p])

    def hint(self, seat: int | str, seconds: float | None = 1.0, iterations: int | None = None,
             threads: int | None = None, **options: Any):
        """The engine's suggestion for `seat`, searched from its one-seat view only (a `SearchResult`)."""
        p = self.seat(seat)
        if self.state.current_player() != p:
            raise OptionError(f"seat {SEAT_LETTERS[p]} is not to move")
        limit = Limit(iterations=iterations, seconds=seconds)
        return suggest(self.state.to_json(p), seat=p, limit=limit, seed=self._seed_for(_HINT_TAG, self.ply) & SEED_MASK,
                       threads=threads, game=self.game, **options)

    def save(self, path) -> None:
        self.record.save(path)

