"""The State-API fuzzing harness of every registered game (issue 35, G01/G09; issue 32), shared by
tests/test_state_fuzz.py (hypothesis, in CI) and scripts/fuzz_state.py (long campaigns, every case in a
child process). See docs/reliability.md.

A **case** is a deterministic function of `(game, players, corpus index, seed)`: a position from the
corpus (seeded random games of every game and player count, played in lockstep by the compiled core and
the reference model: the start, chance nodes, decisions of every phase met, the end), loaded as a pair
of States (one per implementation; one State for a game with a single implementation, such as the
Python-only poker games), then `calls` random calls of the States' public methods — every
public method of either class, found by introspection, so a method added later is fuzzed without
editing this file — with arguments drawn by parameter name from pools of legal, boundary and wrong
values (ids past the last action, ±2³¹, 2⁶⁴, 10³⁰, an int of 5,000 digits, seats out of range,
letters, bools, floats, NaN, strings, None, lists with bad items, duplicates or too many items ...).

The oracle (`run_case`) raises `Finding` for:

- ``exception``: an exception outside the documented family (`BuranoError` for a bad value, `TypeError`
  for a wrong type);
- ``invariant``: a refused or read-only call that changed the state (its C struct, or every field of the
  reference), an `apply_action`/`play` that applied something not legal, a state that fails `check()`
  after an accepted move;
- ``divergence`` (a game with two implementations): the two disagree on a method they both have (one accepts, the other
  refuses; different results for the same arguments; different states after the same move).

A crash (a signal) cannot be seen in-process: scripts/fuzz_state.py runs each batch of cases in a child
and records a child that dies. This module is test/tool code, not part of the burano_ai package.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
import math
import pickle
import random
from dataclasses import dataclass
from typing import Any

from fuzz_common import Finding

from burano_ai.core.errors import BuranoError
from burano_ai.games import all_specs, get_spec

#: What a State method may raise for bad arguments.
API_ERRORS: tuple[type[BaseException], ...] = (BuranoError, TypeError)
IMPLEMENTATIONS = ("compiled", "reference")
#: Seeded random games per (game, player count) that feed the corpus, and positions kept per game.
CORPUS_GAMES = 2
CORPUS_PER_GAME = 14
CALLS_PER_CASE = 40

#: Methods that change the State they are called on. apply_action and play are called on the live
#: pair (the case walks on); the others on copies (a playout plays to the end in place).
MUTATING = frozenset(("apply_action", "play"))
ON_A_COPY = frozenset(("playout", "set_from", "normalise_pool", "copy_fields_from"))
#: Results compared by a normal form rather than by ==: each implementation's own objects.
STATE_RESULTS = frozenset(("clone", "resample", "from_position", "rewind_secret"))
#: Results that are implementation-specific by design (compared by acceptance only): the reference's
#: information-state key of Burano is a string, the core's a 64-bit key; a Position object; key values.
OUTCOME_ONLY = frozenset(("information_state_key", "to_position", "key", "full_key", "sample_chance",
                          "playout", "set_from", "where", "config", "resample"))
#: Not compared across implementations at all: their `game` argument is a Game of one implementation,
#: which the other implementation rightly refuses.
NOT_COMPARED = frozenset(("from_position",))
#: The State API every game has (`burano_ai.core.game.State`), chosen more often than the rest.
PROTOCOL = ("legal_actions", "chance_outcomes", "apply_action", "clone", "scores", "returns", "action_to_string",
            "string_to_action", "play", "to_json", "to_dict", "information_state_key", "resample", "finishing_key",
            "estimated_scores", "decision_mode", "prior", "turn_id", "chance_kind_name", "phase_name",
            "current_player", "is_terminal", "is_chance_node")
#: Methods the campaign does not call: `check` raises AssertionError by design (an invariant checker,
#: called by the oracle itself after every accepted move); a Game's `state_class` is the class of its
#: States, an attribute (States come from `new_initial_state` and the loaders), not a method.
SKIPPED = frozenset(("check", "state_class"))


# ------------------------------------------------------------------------------------------------
# The corpus


@dataclass(frozen=True)
class Entry:
    """A corpus position: `game` with `players` seats after `plies` random steps of seeded game `seed`.
    `target` "game": the case calls the Game classes' methods instead, the position feeding their arguments."""

    game: str
    players: int
    seed: int
    plies: int
    target: str = "state"

    def states(self) -> tuple[Any, ...]:
        """The States at this position, one per implementation (`implementations_of`: the (compiled,
        reference) pair of a compared game), played afresh (deterministic)."""
        states = tuple(_new_state(self.game, self.players, self.seed, impl) for impl in implementations_of(self.game))
        rng = random.Random(f"corpus-{self.game}-{self.players}-{self.seed}")
        for _ in range(self.plies):
            action = random_offered(states[-1], rng)
            for state in states:
                state.apply_action(action)
        return states


def random_offered(state, rng: random.Random) -> int:
    """A chance outcome drawn by its probability, or a uniformly random legal action."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    return rng.choice(state.legal_actions())


def game_keys() -> list[str]:
    """The games with a compiled core and a reference model (the campaign compares the two)."""
    return [spec.key for spec in all_specs() if {"compiled", "reference"} <= set(spec.implementations)]


def single_keys() -> list[str]:
    """The games with a single implementation (the poker games, Python-only): the campaign checks each
    call's outcome and the state's invariants, with no second implementation to compare."""
    return [spec.key for spec in all_specs() if len(spec.implementations) == 1]


def campaign_keys() -> list[str]:
    """Every game the campaign reaches: the compared ones, then the single-implementation ones."""
    return game_keys() + single_keys()


def implementations_of(game: str) -> tuple[str, ...]:
    """The implementations a case loads, in order: ("compiled", "reference") for a compared game, else
    the game's one implementation. The last one draws the arguments (`run_case`)."""
    return IMPLEMENTATIONS if game in game_keys() else tuple(get_spec(game).implementations)


def _new_state(game: str, players: int, seed: int, implementation: str | None = None) -> Any:
    """A new State of `game` in `implementation` (default: the last of `implementations_of`)."""
    spec = get_spec(game)
    return spec.new_game(players, implementation or implementations_of(game)[-1]).new_initial_state(seed)


@functools.lru_cache(maxsize=None)
def corpus(game: str) -> tuple[Entry, ...]:
    """Up to `CORPUS_PER_GAME` positions of `game` per player count: the start, the end, and positions
    spread along `CORPUS_GAMES` seeded random games (chance nodes and decisions alike)."""
    spec = get_spec(game)
    entries: list[Entry] = []
    for players in range(spec.min_players, spec.max_players + 1):
        for seed in range(CORPUS_GAMES):
            ref = _new_state(game, players, seed)
            rng = random.Random(f"corpus-{game}-{players}-{seed}")
            length = 0
            while not ref.is_terminal():
                ref.apply_action(random_offered(ref, rng))
                length += 1
            keep = CORPUS_PER_GAME // CORPUS_GAMES
            plies = sorted({0, length} | {length * i // keep for i in range(1, keep)}
                           | {random.Random(f"{game}{players}{seed}{i}").randrange(length + 1) for i in range(3)})
            entries.extend(Entry(game, players, seed, p) for p in plies)
    return tuple(entries)


# ------------------------------------------------------------------------------------------------
# Arguments, drawn by parameter name

HUGE = 10 ** 5000        # str() of it raises ValueError (Python's 4,300-digit limit)
BOUNDARY_INTS = (2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 2**32, 2**63 - 1, 2**63, -(2**63), 2**64, 10**9,
                 10**30, -(10**30), HUGE, -HUGE)


def _wrong_types() -> tuple[Any, ...]:
    return (None, True, False, 1.0, 1.5, -0.0, float("nan"), float("inf"), "", "x", b"1", [], [1], (1,), {},
            {"a": 1}, object(), 1j, "1", " 0 ", "A" * 10_000, "\x00", "é")


def _offered(state) -> list[int]:
    try:
        if state.is_chance_node():
            return [a for a, _ in state.chance_outcomes()]
        return state.legal_actions()
    except API_ERRORS:
        return []


def action_value(rng: random.Random, state, num_actions: int) -> Any:
    r = rng.random()
    offered = _offered(state)
    if r < 0.35 and offered:
        return rng.choice(offered)
    if r < 0.55:
        return rng.randrange(-3, num_actions + 5)
    if r < 0.7:
        return rng.choice((num_actions, num_actions + 1, 689, 5000, -1, -2) + BOUNDARY_INTS)
    if r < 0.8 and offered:
        a = rng.choice(offered)
        return rng.choice((float(a), a + 0.5, str(a), a is not None and bool(a % 2), -a - 1))
    return rng.choice(_wrong_types())


def seat_value(rng: random.Random, n: int) -> Any:
    r = rng.random()
    if r < 0.45:
        return rng.randrange(n)
    if r < 0.65:
        return rng.choice((n, n + 1, -1, -n, 5, 6, 7, 63, 64, 255, 256) + BOUNDARY_INTS)
    if r < 0.85:
        return rng.choice(("A", "B", "C", "D", "E", "F", "G", "a", " b ", "Z", "", "AB", "@", "-1", "0"))
    return rng.choice(_wrong_types())


def seed_value(rng: random.Random) -> Any:
    r = rng.random()
    if r < 0.5:
        return rng.randrange(-5, 2**20)
    if r < 0.8:
        return rng.choice(BOUNDARY_INTS)
    return rng.choice(_wrong_types())


def text_value(rng: random.Random, state, num_actions: int) -> Any:
    r = rng.random()
    offered = _offered(state)
    if r < 0.4 and offered:
        try:
            text = state.action_to_string(rng.choice(offered))
        except API_ERRORS:
            text = "done"
        return rng.choice((text, text.upper(), f"  {text} ", text[: max(1, len(text) // 2)], text + " x"))
    if r < 0.7:
        return rng.choice(("", "done", "pass", "pay none", "draw deck", "take", "bid 1", "bid 0", "bid 99",
                           "A", "?", "1", str(num_actions), "-1", "9" * 5000, "-" + "9" * 4400, "\x00", "\n",
                           "play " + "9" * 40, "remove x", "move a1 b2", "é", "done done"))
    return rng.choice(_wrong_types())


def legal_list_value(rng: random.Random, state, num_actions: int) -> Any:
    offered = _offered(state)
    r = rng.random()
    if r < 0.35:
        subset = list(offered)
        rng.shuffle(subset)
        return subset[: rng.randrange(len(subset) + 1)] if subset else []
    if r < 0.45:
        return list(offered)
    choices = (
        lambda: [], lambda: [num_actions], lambda: [10**9], lambda: [2**31], lambda: [-(2**31)], lambda: [-1],
        lambda: [5000], lambda: [689], lambda: [HUGE], lambda: [2**64], lambda: list(offered) + [num_actions],
        lambda: list(offered) * 2, lambda: list(range(num_actions + 5)), lambda: list(range(num_actions)),
        lambda: tuple(offered), lambda: [1.5], lambda: ["x"], lambda: [None], lambda: [True],
        lambda: [float(a) for a in offered], lambda: None, lambda: 5, lambda: "abc", lambda: {1: 2},
        lambda: set(offered), lambda: iter(offered), lambda: [[1]], lambda: [rng.randrange(num_actions)] * 3,
    )
    return rng.choice(choices)()


def small_int_value(rng: random.Random) -> Any:
    r = rng.random()
    if r < 0.55:
        return rng.randrange(-3, 120)
    if r < 0.8:
        return rng.choice((255, 256, 1000, 10**6) + BOUNDARY_INTS)
    return rng.choice(_wrong_types())


def position_value(rng: random.Random, state) -> Any:
    r = rng.random()
    if r < 0.3:
        return _position_of(state)
    if r < 0.5:
        return state.to_dict()
    other = get_spec(rng.choice(campaign_keys()))
    if r < 0.7:
        return _position_of(_new_state(other.key, other.default_players, 0))
    return rng.choice(_wrong_types())


def _position_of(state) -> Any:
    """A state's plain position object (the reference State of some games is its own Position)."""
    return state.to_position() if hasattr(state, "to_position") else state.clone()


def argument(rng: random.Random, name: str, state, n: int, num_actions: int) -> Any:
    """A value for parameter `name` of a State method at `state` (n seats, `num_actions` ids)."""
    if rng.random() < 0.06:
        return rng.choice(_wrong_types())
    if name == "action":
        return action_value(rng, state, num_actions)
    if name in ("player", "seat", "p"):
        return seat_value(rng, n)
    if name in ("seed", "count"):
        return seed_value(rng)
    if name == "text":
        return text_value(rng, state, num_actions)
    if name == "legal":
        return legal_list_value(rng, state, num_actions)
    if name == "indent":
        return rng.choice((None, None, 0, 1, 2, 4, -1, 10**9, "  ", "x", 1.5, True))
    if name == "policy":
        return rng.choice(("random", "heuristic", "Random", "x", "", None, 1))
    if name == "kind":
        return rng.choice((None, 0, 1, 2, 3, 4, 5, 6, 7, 8, -1, 100, 2**31, 2**64, HUGE, 1.5, "0", True))
    if name in ("pos", "position", "other", "ref"):
        return position_value(rng, state)
    if name == "game":
        other = get_spec(rng.choice(campaign_keys()))
        return rng.choice((state.game, None, 5, "x") + tuple(other.new_game(other.default_players, impl)
                                                             for impl in implementations_of(other.key)))
    if name == "land":
        size = rng.choice((0, 1, 16, 25, 36, 49, 64))
        return rng.choice((None, [True] * size, [False] * size, [1] * size, "x", 5, [None] * size))
    if name == "taken":
        return rng.choice((None, {}, {0: 1}, {-1: 0}, {2**64: 1}, [], "x", 5))
    return small_int_value(rng)


# ------------------------------------------------------------------------------------------------
# The oracle


def public_methods(state) -> dict[str, tuple[str, ...]]:
    """Method name -> its parameter names (without self), for every public method of `state`'s class."""
    out = {}
    for name in dir(type(state)):
        if name.startswith("_") or name in SKIPPED:
            continue
        attribute = inspect.getattr_static(type(state), name)
        if isinstance(attribute, property) or not callable(getattr(type(state), name)):
            continue
        try:
            params = inspect.signature(getattr(type(state), name)).parameters
        except (TypeError, ValueError):
            continue
        names = tuple(p for p in params if p != "self")
        if isinstance(attribute, staticmethod):
            out[name] = ("@static",) + names
        else:
            out[name] = names
    return out


@functools.lru_cache(maxsize=None)
def methods_of(game: str) -> tuple[dict[str, tuple[str, ...]], ...]:
    """The public methods of `game`'s State classes, one table per implementation (`implementations_of`)."""
    spec = get_spec(game)
    return tuple(public_methods(_new_state(game, spec.default_players, 0, impl)) for impl in implementations_of(game))


def snapshot(state) -> bytes:
    """Everything a State holds: the compiled State's C struct, or the reference's fields."""
    reduced = state.__reduce__()
    if reduced and len(reduced) > 1 and isinstance(reduced[1], tuple) and isinstance(reduced[1][-1], bytes):
        return reduced[1][-1]
    return pickle.dumps({k: v for k, v in vars(state).items() if k != "game"})


def _short(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) < 240 else text[:237] + "..."


def _args_repr(args: tuple) -> str:
    parts = []
    for a in args:
        try:
            text = repr(a)
        except ValueError:          # holds an int past Python's 4,300-digit str() limit
            text = "<int of over 4,300 digits>" if isinstance(a, int) else f"<{type(a).__name__} holding such an int>"
        parts.append(text if len(text) < 60 else text[:57] + "...")
    return "(" + ", ".join(parts) + ")"


def _call(state, method: str, args: tuple, static: bool) -> tuple[str, Any]:
    """('ok', result) or ('error', exception); an exception outside the family is a Finding."""
    target = type(state) if static else state
    try:
        return "ok", getattr(target, method)(*args)
    except API_ERRORS as exc:
        return "error", exc
    except Exception as exc:  # noqa: BLE001 - the property: nothing else escapes
        raise Finding("exception", f"{type(state).__module__}.{method}{_args_repr(args)} raised "
                                   f"{_short(exc)}") from exc


def _normal(method: str, result: Any) -> Any:
    """A comparable form of a result: States by their full dict, JSON by its value, floats rounded."""
    if method in STATE_RESULTS:
        return None if result is None else result.to_dict()     # rewind_secret: None when nothing is taken back
    if method == "to_json":
        return json.loads(result)
    if isinstance(result, dict):
        return {k: _normal("", v) for k, v in result.items()}
    if isinstance(result, (list, tuple)):
        return type(result)(_normal("", v) for v in result)
    if isinstance(result, float):
        return round(result, 9) if math.isfinite(result) else repr(result)
    return result


@dataclass
class Stats:
    """What a case did: calls per (implementation, method), and refusals."""

    calls: dict[str, int]
    refused: int = 0
    moves: int = 0

    def add(self, key: str) -> None:
        self.calls[key] = self.calls.get(key, 0) + 1

    @property
    def total(self) -> int:
        return sum(self.calls.values())


def run_case(entry: Entry, seed: int, calls: int = CALLS_PER_CASE, stats: Stats | None = None) -> Stats:
    """`calls` random public-method calls on the States at `entry` (the (compiled, reference) pair, or the
    one State of a single-implementation game), or on its Games when `entry.target` is "game"
    (`run_game_case`).

    Raises:
        Finding: a property violation (see the module docstring).
    """
    stats = stats or Stats({})
    if entry.target == "game":
        return run_game_case(entry, seed, calls, stats)
    rng = random.Random(f"case-{entry.game}-{entry.players}-{entry.seed}-{entry.plies}-{seed}")
    states = entry.states()
    tables = methods_of(entry.game)
    ref = states[-1]                        # draws the arguments
    names = sorted(set().union(*tables))
    n, num_actions = ref.num_players, ref.game.num_distinct_actions()
    for i in range(calls):
        # A move a sixth of the time (the case walks on), the State API proper (`core.game.State`, where
        # the crashes were) a third, any public method of either class otherwise.
        r = rng.random()
        method = "apply_action" if r < 0.16 else rng.choice(PROTOCOL) if r < 0.5 else rng.choice(names)
        params = next(table[method] for table in tables if method in table)
        static = params[:1] == ("@static",)
        params = params[1:] if static else params
        arity = len(params)
        if rng.random() < 0.05 and arity:
            arity = rng.randrange(arity)          # an optional argument left out (or a missing one)
        args = tuple(argument(rng, p, ref, n, num_actions) for p in params[:arity])
        _one_call(entry, i, states, method, args, static, tables, stats)
        if ref.is_terminal() and rng.random() < 0.1:
            break
    return stats


def _one_call(entry, i, states, method, args, static, tables, stats) -> None:
    """One call of `method` on each State of `states` that has it (`tables`: their method tables); raises
    Finding. Two States (compiled, reference) are compared; one is checked alone."""
    where = f"{entry.game} {entry.players}p seed {entry.seed} ply {entry.plies}, call {i}: {method}{_args_repr(args)}"
    offered = set(_offered(states[-1]))
    results = {}
    for impl, state, methods in zip(implementations_of(entry.game), states, tables):
        if method not in methods:
            continue
        target = state.clone() if method in ON_A_COPY else state
        before = snapshot(target)
        try:
            status, result = _call(target, method, args, static)
        except Finding as finding:
            raise Finding(finding.kind, f"{where}: {finding.message}") from finding
        stats.add(f"{impl}.{method}")
        results[impl] = (status, result)
        if status == "error":
            stats.refused += 1
        elif method == "resample" and result.information_state_key(args[0]) != state.information_state_key(args[0]):
            raise Finding("invariant", f"{where}: {impl} resample changed what seat {args[0]!r} knows")
        if status == "error" or method not in MUTATING:
            if target is state and snapshot(state) != before:
                raise Finding("invariant", f"{where}: {impl} {'refused' if status == 'error' else 'read-only'} "
                                           f"call changed the state")
        else:
            applied = result if method == "play" else args[0]
            if isinstance(applied, bool) or not isinstance(applied, int) or applied not in offered:
                raise Finding("invariant", f"{where}: {impl} accepted {args[0]!r}, not an offered action "
                                           f"(offered: {sorted(offered)[:20]})")
    if method in MUTATING and all(status == "ok" for status, _ in results.values()):
        stats.moves += 1
        if len(states) == 2 and states[0].to_dict() != states[1].to_dict():
            raise Finding("divergence", f"{where}: to_dict() differs after the move")
        for impl, state in zip(implementations_of(entry.game), states):
            try:
                state.check()
            except AssertionError as exc:
                raise Finding("invariant", f"{where}: {impl} check() after the move: {exc}") from exc
    if len(results) == 2 and method not in NOT_COMPARED:
        c_res, r_res = results["compiled"][1], results["reference"][1]
        if not _both_refused(where, results) and method not in OUTCOME_ONLY and method not in MUTATING:
            try:
                same = _normal(method, c_res) == _normal(method, r_res)
            except Exception as exc:  # noqa: BLE001 - a result that cannot be compared is a finding
                raise Finding("divergence", f"{where}: results not comparable ({_short(exc)})") from exc
            if not same:
                raise Finding("divergence", f"{where}: compiled {str(_normal(method, c_res))[:120]}, "
                                            f"reference {str(_normal(method, r_res))[:120]}")


def case_for(index: int, base_seed: int = 0) -> tuple[Entry, int]:
    """Case `index` of a campaign: a game, a corpus position and a call seed, all from the index; one case in
    `1 / GAME_CASE_SHARE` calls the Game classes (the State cases are the ones these indices always gave)."""
    rng = random.Random(f"campaign-{base_seed}-{index}")
    game = rng.choice(campaign_keys())
    entry, seed = rng.choice(corpus(game)), rng.randrange(2**32)
    if random.Random(f"target-{base_seed}-{index}").random() < GAME_CASE_SHARE:
        entry = dataclasses.replace(entry, target="game")
    return entry, seed


# ------------------------------------------------------------------------------------------------
# The Game classes: their methods and their constructor (`GameSpec.new_game`) with hostile arguments

#: Share of a campaign's cases that call the Game classes rather than the States.
GAME_CASE_SHARE = 0.125
#: Game methods that return a State of their implementation: compared by their dict, checked, reloaded.
GAME_STATE_RESULTS = frozenset(("new_initial_state", "state_from_json", "state_from_position"))
#: A Game call is a constructor call (`spec.new_game` with hostile players and options) this often.
NEW_GAME_SHARE = 0.25


def json_text_value(rng: random.Random, state, n: int) -> Any:
    """A position text for `state_from_json`: the state's own JSON or a seat's view of it, mutated, another
    game's, structural junk, bytes, or a wrong type."""
    r = rng.random()
    if r < 0.2:
        return state.to_json()
    if r < 0.3:
        return state.to_json(rng.randrange(n))
    if r < 0.55:
        return _mutated_json(rng, state.to_json(rng.choice((None, rng.randrange(n)))))
    if r < 0.65:
        other = get_spec(rng.choice(game_keys()))
        return other.new_game(other.default_players, "reference").new_initial_state(rng.randrange(3)).to_json()
    if r < 0.75:
        text = state.to_json()
        return rng.choice((text[: rng.randrange(len(text))], "\ufeff" + text, text + "x", text.replace(":", "=", 1),
                           text.encode(), bytearray(text.encode())))
    if r < 0.9:
        return rng.choice(("", " ", "null", "[]", "{}", "1e999", "NaN", '"x"', "[" * 100_000, "{\"a\":" * 2_000,
                           "9" * 5_000, '{"game": 5}', "\x00", "\ud800"))
    return rng.choice(_wrong_types())


def _mutated_json(rng: random.Random, text: str) -> str:
    """`text` (a JSON object) with 1-3 values somewhere inside it replaced, deleted or given company."""
    data = json.loads(text)
    for _ in range(rng.randrange(1, 4)):
        node, key = data, None          # the value changed is node[key]
        for _depth in range(rng.randrange(1, 6)):
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            if not keys:
                break
            key = rng.choice(keys)
            if not isinstance(node[key], (dict, list)) or not node[key] or rng.random() < 0.3:
                break
            node, key = node[key], None
        if key is None:
            continue
        r = rng.random()
        if r < 0.15 and isinstance(node, dict):
            del node[key]
        elif r < 0.25 and isinstance(node, dict):
            node[key + "_" if isinstance(key, str) else key] = 1
        else:
            node[key] = rng.choice((-1, 0, 1, 2, 7, 99, 255, 2**31, -(2**31), 2**63, 2**64, 10**30, None, True, False,
                                    1.5, float("inf"), "", "x", "A", [], [None], {}, {"a": 1}))
    return json.dumps(data)


def game_argument(rng: random.Random, name: str, state, n: int, num_actions: int) -> Any:
    """A value for parameter `name` of a Game method (`state`: a position of that game, n seats)."""
    if name == "text":
        return json_text_value(rng, state, n)
    return argument(rng, name, state, n, num_actions)


def option_value(rng: random.Random, option: Any) -> Any:
    """A value for a game option (`core.game.GameOption`): one it takes, a boundary, or a wrong one."""
    junk = (None, "", "x", 1.5, float("nan"), [], {}, 2**64, -1)
    if option.kind == "choice":
        good = list(option.choices)
        return rng.choice(good * 3 + [c.upper() for c in good] + [c.lower() for c in good] + list(junk) + [True, 1])
    if option.kind == "int":
        low, high = option.low, option.high
        good = list(option.values) or [low, high, (low + high) // 2]
        return rng.choice(good * 3 + [low - 1, high + 1, 0, 2**31, -(2**31), HUGE, True, "1"] + list(junk))
    if option.kind == "bool":
        return rng.choice((True, False, True, False, 0, 1, 2, "true", "false", "yes") + junk)
    return rng.choice((None, {}) + junk)         # "data": the built-in data, or a wrong value


def players_value(rng: random.Random, spec: Any) -> Any:
    r = rng.random()
    if r < 0.6:
        return rng.randrange(spec.min_players, spec.max_players + 1)
    if r < 0.85:
        return rng.choice((spec.min_players - 1, spec.max_players + 1, 0, -1, 7, 64, 2**31, 2**64, HUGE))
    return rng.choice((True, 2.0, "2", None, [2], float("nan")))


def game_fingerprint(game) -> tuple:
    """What a Game says of itself without arguments (its zero-argument methods, in order)."""
    out = []
    for name, params in sorted(public_methods(game).items()):
        if not params:
            out.append((name, _normal(name, getattr(game, name)())))
    return tuple(out)


def _new_game_call(rng: random.Random, spec: Any, stats: Stats, where: str) -> None:
    """`spec.new_game` in both implementations with hostile players and options: the same acceptance, and
    accepted Games that say the same of themselves and deal the same first position."""
    players = players_value(rng, spec)
    options = {name: option_value(rng, option) for name, option in spec.game_options.items() if rng.random() < 0.5}
    if rng.random() < 0.05:
        options[rng.choice(("nope", "Side", "seed", "players"))] = 1      # an option the game does not have
    call = f"{where}: new_game{_args_repr((players,))} options {_args_repr(tuple(options.items()))}"
    made = {}
    for impl in implementations_of(spec.key):
        try:
            made[impl] = ("ok", spec.new_game(players, impl, **options))
        except API_ERRORS as exc:
            made[impl] = ("error", exc)
        except Exception as exc:  # noqa: BLE001 - the property: nothing else escapes
            raise Finding("exception", f"{call}: {impl} raised {_short(exc)}") from exc
        stats.add(f"{impl}.new_game")
    if len(made) == 1:                  # a single implementation: an accepted Game deals a sound position
        ((status, game),) = made.values()
        if status == "error":
            stats.refused += 1
        else:
            _checked(game.new_initial_state(0), f"{call}: its first position")
        return
    if _both_refused(call, made):
        stats.refused += 2
        return
    c_game, r_game = made["compiled"][1], made["reference"][1]
    if game_fingerprint(c_game) != game_fingerprint(r_game):
        raise Finding("divergence", f"{call}: compiled {game_fingerprint(c_game)}, "
                                    f"reference {game_fingerprint(r_game)}")
    if c_game.new_initial_state(0).to_dict() != r_game.new_initial_state(0).to_dict():
        raise Finding("divergence", f"{call}: the first positions of seed 0 differ")


def _both_refused(where: str, results: dict) -> bool:
    """True when both implementations refused the call; Finding('divergence') when only one did."""
    (c_status, c_res), (r_status, r_res) = results["compiled"], results["reference"]
    if c_status != r_status:
        detail = _short(c_res) if c_status == "error" else _short(r_res)
        raise Finding("divergence", f"{where}: compiled {c_status}, reference {r_status} ({detail})")
    return c_status == "error"


def _checked(state, what: str) -> None:
    """Finding('invariant') unless `state` passes its `check()`."""
    try:
        state.check()
    except AssertionError as exc:
        raise Finding("invariant", f"{what} failing check(): {exc}") from exc


def run_game_case(entry: Entry, seed: int, calls: int = CALLS_PER_CASE, stats: Stats | None = None) -> Stats:
    """`calls` random calls of the Game classes of `entry.game` with `entry.players` seats (the position at
    `entry` feeds their arguments), and of `spec.new_game` itself.

    Each call must return or raise a `BuranoError`/`TypeError` (in both implementations alike, for a game
    with two), leave the Game as it was (`game_fingerprint`), and agree on the result; a State returned passes `check()`, and its JSON
    loads in the other implementation as the same position.

    Raises:
        Finding: a property violation.
    """
    stats = stats or Stats({})
    rng = random.Random(f"game-case-{entry.game}-{entry.players}-{entry.seed}-{entry.plies}-{seed}")
    spec = get_spec(entry.game)
    state = entry.states()[-1]
    games = {impl: spec.new_game(entry.players, impl) for impl in implementations_of(entry.game)}
    fingerprints = {impl: game_fingerprint(g) for impl, g in games.items()}
    methods = {impl: public_methods(g) for impl, g in games.items()}
    names = sorted(set().union(*methods.values()))
    n, num_actions = entry.players, state.game.num_distinct_actions()
    for i in range(calls):
        where = f"{entry.game} {entry.players}p seed {entry.seed} ply {entry.plies}, Game call {i}"
        if rng.random() < NEW_GAME_SHARE:
            _new_game_call(rng, spec, stats, where)
            continue
        method = rng.choice(names)
        params = next(table[method] for table in methods.values() if method in table)
        static = params[:1] == ("@static",)
        params = params[1:] if static else params
        arity = len(params) - (1 if params and rng.random() < 0.05 else 0)   # an argument left out
        args = tuple(game_argument(rng, p, state, n, num_actions) for p in params[:arity])
        where = f"{where}: {method}{_args_repr(args)}"
        results = {}
        for impl, game in games.items():
            if method not in methods[impl]:
                continue
            try:
                status, result = _call(game, method, args, static)
            except Finding as finding:
                raise Finding(finding.kind, f"{where}: {finding.message}") from finding
            stats.add(f"{impl}.Game.{method}")
            if status == "error":
                stats.refused += 1
            if game_fingerprint(game) != fingerprints[impl]:
                raise Finding("invariant", f"{where}: {impl} Game changed")
            if status == "ok" and method in GAME_STATE_RESULTS:
                _checked(result, f"{where}: {impl} returned a State")
            results[impl] = (status, result)
        if len(results) < 2:
            continue
        if _both_refused(where, results):
            continue
        c_res, r_res = results["compiled"][1], results["reference"][1]
        kind = "clone" if method in GAME_STATE_RESULTS else method
        if _normal(kind, c_res) != _normal(kind, r_res):
            raise Finding("divergence", f"{where}: compiled {str(_normal(kind, c_res))[:120]}, "
                                        f"reference {str(_normal(kind, r_res))[:120]}")
        if method in GAME_STATE_RESULTS:
            for impl, other in (("compiled", "reference"), ("reference", "compiled")):
                text = results[impl][1].to_json()
                try:
                    back = games[other].state_from_json(text).to_dict()
                except API_ERRORS as exc:
                    raise Finding("divergence", f"{where}: {impl}'s State's JSON refused by {other}: "
                                                f"{_short(exc)}") from exc
                if back != results[impl][1].to_dict():
                    raise Finding("divergence", f"{where}: {impl}'s State's JSON loads in {other} as another position")
    return stats
