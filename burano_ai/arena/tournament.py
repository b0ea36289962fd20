"""Playing a tournament: one task per game (`GameTask`, `game_tasks`: seeds derived from the config's seed),
one game (`play_game`: the arena samples chance, bots decide), and `run_arena` (plan, play on a backend,
summarise, report; with ``sprt``, the sequential test `_SprtRun` decides when to stop; with ``records``,
every game's `GameRecord` is written as it ends, `RecordWriter`).

Duplicate deals and seeds are described in `burano_ai.arena`.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass, replace
from typing import Any, Callable

from burano_ai.bots import make_bot
from burano_ai.core.errors import OptionError
from burano_ai.core.game import payoff_range_of
from burano_ai.core.options import game_for
from burano_ai.core.seeds import derive
from burano_ai.games import DEFAULT_GAME, get_spec
from burano_ai.record import GameRecord, RecordError, SeatInfo
from burano_ai.search.evaluators import sample_chance_cumulative
from burano_ai.arena.backends import Progress, run_local, run_ray
from burano_ai.arena.plan import ArenaConfig, Plan, make_plan
from burano_ai.arena.report import ArenaResult
from burano_ai.arena.sprt import GroupSprtTest, SprtTest
from burano_ai.arena.stats import summarise

_DEAL, _CHANCE, _BOT = 0xDEA1, 0xC4A5CE, 0xB07


# ------------------------------------------------------------------------------------------------
# One game


@dataclass(frozen=True)
class GameTask:
    """Everything one game needs (picklable: it travels to worker processes and Ray tasks)."""

    index: int
    deal: int
    seating: tuple[int, ...]
    specs: tuple[str, ...]          # spec per seat
    players: int
    deal_seed: int
    chance_seed: int
    bot_seeds: tuple[int, ...]
    game_factory: Any
    record: bool = False            # return the game's record (burano-game/1) under "record"
    event: str | None = None        # the record's event line
    game: str = DEFAULT_GAME        # the game's registry key
    options: dict[str, Any] | None = None   # the game's options (`ArenaConfig.options`)


def game_tasks(config: ArenaConfig, plan: Plan, game_factory: Any, record: bool = False) -> list[GameTask]:
    """The tasks of every game of the plan, in game order (`record`: each game returns its record)."""
    tasks = []
    per_deal = len(plan.seatings)
    for g in range(plan.games):
        deal, k = divmod(g, per_deal)
        seating = plan.seatings[k]
        tasks.append(GameTask(
            index=g, deal=deal, seating=seating, specs=tuple(plan.entries[e] for e in seating),
            players=config.players,
            deal_seed=derive(config.seed, deal, _DEAL),
            chance_seed=derive(config.seed, deal, _CHANCE),
            bot_seeds=tuple(derive(config.seed, g, seat, _BOT) for seat in range(config.players)),
            game_factory=game_factory, record=record,
            event=f"{config.game} arena: seed {config.seed}, game {g}, deal {deal}" if record else None,
            game=config.game, options=dict(config.options) if config.options else None))
    return tasks


def win_shares(state, keys: list[tuple]) -> list[float]:
    """The game's win shares at the end: `returns()` in a game of shares; in a game of payoffs (chips),
    1/k to each of the k seats first in the order of finish (`keys`: `State.finishing_key`)."""
    if payoff_range_of(state.game) is None:
        return [float(r) for r in state.returns()]
    best = max(keys)
    winners = [p for p in range(len(keys)) if keys[p] == best]
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(len(keys))]


def play_game(task: GameTask) -> dict[str, Any]:
    """Play one game of the tournament; return its results (see `RESULTS_SCHEMA` ``games``), with
    ``task.record`` also its game record as a dict under "record" (the deal's seed and every step)."""
    start = time.perf_counter()
    n = task.players
    state = game_for(get_spec(task.game), n, task.options, task.game_factory).new_initial_state(task.deal_seed)
    record = GameRecord.new(n, task.deal_seed, [SeatInfo(spec, spec) for spec in task.specs],
                            event=task.event, game=task.game, options=task.options) if task.record else None
    bots = [make_bot(spec, seed, task.game) for spec, seed in zip(task.specs, task.bot_seeds)]
    for bot in bots:
        bot.restart()
    chance_rng = random.Random(task.chance_seed)
    decisions, forced = [0] * n, [0] * n
    think = [0.0] * n
    length = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance_cumulative(state, chance_rng)
            if record is not None:
                record.add(state, action)
            state.apply_action(action)
            length += 1
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
            forced[seat] += 1
        else:
            t0 = time.perf_counter()
            try:
                action = bots[seat].step(state.clone())
            except Exception as exc:
                raise RuntimeError(f"game {task.index}: bot {task.specs[seat]!r} (seat {seat}) failed: "
                                   f"{type(exc).__name__}: {exc}") from exc
            think[seat] += time.perf_counter() - t0
            decisions[seat] += 1
            if action not in legal:
                raise RuntimeError(f"game {task.index}: bot {task.specs[seat]!r} (seat {seat}) chose the "
                                   f"illegal action {action} ({state.action_to_string(action)})")
        if record is not None:
            record.add(state, action)
        state.apply_action(action)
        length += 1
    keys = [tuple(state.finishing_key(p)) for p in range(n)]     # the game's one order of finish
    best = max(keys)
    ranks = [1 + sum(1 for q in range(n) if keys[q] > keys[p]) + (sum(1 for q in range(n) if keys[q] == keys[p]) - 1) / 2
             for p in range(n)]
    out: dict[str, Any] = {
        "index": task.index, "deal": task.deal, "seating": list(task.seating),
        "deal_seed": task.deal_seed, "chance_seed": task.chance_seed, "bot_seeds": list(task.bot_seeds),
        "scores": [int(v) if float(v).is_integer() else float(v) for v in state.scores()], "ranks": ranks,
        "tiebreak": [list(k) for k in keys],
        "returns": win_shares(state, keys), "winners": [p for p in range(n) if keys[p] == best],
        "decisions": decisions, "forced": forced, "think_seconds": [round(t, 6) for t in think],
        "iterations": [b.iterations for b in bots],
        "seconds": round(time.perf_counter() - start, 6), "length": length,
    }
    if record is not None:
        record.finish(state)
        out["record"] = record.to_dict()
    return out


#: File name of game `index`'s record in the ``records`` directory.
RECORD_NAME = "game-{index:05d}.json"


def check_records_dir(path: str | os.PathLike) -> str:
    """The records directory, created if missing (its parent must exist); OptionError if it cannot be used."""
    path = os.fspath(path)
    if os.path.exists(path) and not os.path.isdir(path):
        raise OptionError(f"--records {path}: not a directory")
    if not os.path.isdir(path):
        parent = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(parent):
            raise OptionError(f"--records {path}: no such directory: {parent}")
        try:
            os.mkdir(path)
        except OSError as exc:
            raise OptionError(f"--records {path}: cannot create it: {exc.strerror or exc}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise OptionError(f"--records {path}: permission denied")
    return path


class RecordWriter:
    """Writes each game's record into the records directory as the game ends (in the parent process), and
    replaces it in the game's results by its file name."""

    def __init__(self, directory: str) -> None:
        self.directory = directory

    def __call__(self, game: dict[str, Any]) -> None:
        data = game.pop("record", None)
        if data is None:
            return
        name = RECORD_NAME.format(index=game["index"])
        try:
            GameRecord.from_dict(data).save(os.path.join(self.directory, name))
        except RecordError as exc:
            raise OptionError(f"--records: {exc}") from None
        game["record"] = name


# ------------------------------------------------------------------------------------------------
# Entry point


def default_game_factory(game: str = DEFAULT_GAME):
    """The compiled Game of `game` (Burano's: `burano_ai.Game`)."""
    return get_spec(game).game_class("compiled")


class _SprtRun:
    """The sequential test of a two-bot match, fed by the backend as games end.

    Pairs (the two seatings of a deal) are counted in deal order, whatever order their games end in:
    pair d counts once pairs 0..d-1 have, so the sequence of LLRs, and with an iteration budget the
    verdict and the pair it came at, do not depend on the number of workers. Once the test has decided
    no new deal starts (`admit`); the second game of a deal already started still does, and pairs that
    were running when the test stopped are counted too (`SprtTest` keeps the state at the stop).
    """

    def __init__(self, test: SprtTest, on_pair: Callable[[SprtTest], None] | None, group: int = 2) -> None:
        self.test = test
        self.on_pair = on_pair
        self.group = group          # the games of one deal: its seatings
        self.started: set[int] = set()
        self.games: dict[int, list[dict[str, Any]]] = {}
        self.next_deal = 0

    def admit(self, task: GameTask) -> bool:
        if self.test.verdict is None or task.deal in self.started:
            self.started.add(task.deal)
            return True
        return False

    def on_record(self, record: dict[str, Any]) -> None:
        self.games.setdefault(record["deal"], []).append(record)
        while len(self.games.get(self.next_deal, ())) == self.group:
            pair = self.games.pop(self.next_deal)
            # Entry 0 is bot A: its seat in each game is where the seating puts entry 0.
            self.test.add_pair(sum(rec["returns"][rec["seating"].index(0)] for rec in pair))
            self.next_deal += 1
            if self.on_pair:
                self.on_pair(self.test)


def run_arena(config: ArenaConfig, progress: Progress | None = None, game_factory: Any = None,
              on_sprt: Callable[[SprtTest], None] | None = None,
              records: str | os.PathLike | None = None) -> ArenaResult:
    """Play the tournament and return its results.

    Args:
        config: what to play.
        progress: called as ``progress(games done, games total)`` after each game (with ``config.sprt``
            the total is the most games the test may play).
        game_factory: ``num_players -> Game`` (a Game class; picklable); default: the compiled Game of
            ``config.game`` (Burano's `burano_ai.Game`); `burano_ai.games.burano.reference.Game` plays the
            same Burano games, slowly.
        on_sprt: with ``config.sprt``, called with the running `SprtTest` after each counted pair.
        records: a directory (created if missing) to write every game's record into as it ends
            (`RECORD_NAME`: game-00000.json, ...); each game's results then name its file under "record".

    Raises:
        OptionError: a bad option or bot spec, a backend/bot whose package is missing, or a records
            directory that cannot be written.
    """
    start = time.perf_counter()
    plan = make_plan(config)
    factory = game_factory or default_game_factory(config.game)
    writer = RecordWriter(check_records_dir(records)) if records is not None else None
    tasks = game_tasks(config, plan, factory, record=writer is not None)
    run = None
    if config.sprt is not None:
        test = SprtTest(config.sprt) if config.players == 2 else GroupSprtTest(config.sprt, config.players)
        run = _SprtRun(test, on_sprt, group=len(plan.seatings))
    hooks: dict[str, Any] = {"admit": run.admit, "on_record": run.on_record} if run else {}
    if writer is not None:
        sprt_hook = hooks.get("on_record")

        def on_game(game: dict[str, Any]) -> None:
            writer(game)
            if sprt_hook is not None:
                sprt_hook(game)

        hooks["on_record"] = on_game
    if config.backend == "ray":
        records = run_ray(play_game, tasks, config.workers, progress, **hooks)
    else:
        records = run_local(play_game, tasks, config.workers, progress, **hooks)
    records.sort(key=lambda r: r["index"])
    notes = []
    if run is not None:
        plan = replace(plan, deals=len({r["deal"] for r in records}))
        test = run.test
        if test.verdict is None:
            notes.append(f"SPRT inconclusive after {test.pairs} pairs: the most games allowed "
                         f"({len(tasks)}) were played")
        else:
            extra = test.pairs - test.stopped_at["pairs"]
            notes.append(f"SPRT accepted {test.verdict} after {test.stopped_at['pairs']} pairs"
                         + (f"; {extra} pair(s) already running then are counted too" if extra else ""))
    elif plan.games != config.games:
        notes.append(f"{config.games} games asked, {plan.games} played: whole deals of {len(plan.seatings)} "
                     f"seatings each")
    entries, seat_rates = summarise(records, plan, config.players, config.bootstrap, config.seed,
                                    get_spec(config.game).score_name)
    if any("time=" in s for s in plan.entries):
        notes.append("bots with a time budget make results depend on the machine (not reproducible bit for bit)")
    engine = f"{factory.__module__}.{factory.__qualname__}"
    return ArenaResult(config, plan, engine, entries, seat_rates, records, time.perf_counter() - start, notes,
                       sprt=run.test.to_dict() if run else None)
