"""The fuzzing harness shared by tests/test_fuzz.py (hypothesis, in CI) and scripts/fuzz.py (long
campaigns in child processes). See docs/reliability.md.

Every fuzz input is a deterministic function of a small description, so a finding can always be
regenerated, saved and replayed:

- a **loader input** is `loader_input(seed)`: a position from the corpus (seeded random games of 2, 3
  and 4 players, every stage/phase/chance kind they reach, the full position and one-seat views),
  mutated 1-4 times by `mutate` (a seeded structural mutator: valid-looking values, wrong types,
  out-of-range integers, deleted and unknown keys, other phase/stage/chance/actor/context values,
  spliced blocks of other positions, duplicated list items, deep nesting, hidden-view fields ...);
- a **text input** is `text_input(seed)`: the JSON text of a (possibly mutated) corpus position
  mangled by `mutate_text` (truncation, byte flips, huge number literals, deep nesting, invalid UTF-8,
  random bytes ...);
- an **API case** is `run_api_case(seed)`: a corpus position loaded in both implementations and
  `API_CALLS_PER_CASE` random State method calls with random argument types and values.

The oracles (`check_loader_input`, `run_api_case`) raise `Finding` for a property violation:

- ``exception``: an exception outside the documented family (`PositionError` from the loader;
  `BuranoError` or `TypeError` from a State method);
- ``invariant``: an accepted position whose state fails `check()`, has no legal action at a decision,
  no chance outcome at a chance node, does not load again from its own JSON, or a call that raised
  but changed the state, or applied an action that was not legal;
- ``divergence``: the compiled core and the reference model disagree (accept/reject, legal actions,
  chance outcomes, `to_dict`, for a few dozen random steps).

A crash (signal) or a hang can only be seen from outside: scripts/fuzz.py runs each input in a child.
This module is test/tool code: it is not part of the burano_ai package.
"""

from __future__ import annotations

import copy
import functools
import json
import math
import random
from dataclasses import dataclass
from typing import Any, Callable

from fuzz_common import Finding

from burano_ai import Game as CoreGame
from burano_ai.games.burano import _core
from burano_ai import engine
from burano_ai.games.burano.data.colours import COLOURS
from burano_ai.games.burano.enums import CHANCE_KIND_NAMES, PHASE_NAMES, STAGE_NAMES
from burano_ai.core.errors import BuranoError, PositionError
from burano_ai.random_play import random_step
from burano_ai.games.burano.reference import Game as RefGame
from burano_ai.search import Limit

#: What the loader may raise (besides returning a state).
LOADER_ERRORS: tuple[type[BaseException], ...] = (PositionError,)
#: What a State method may raise for bad arguments.
API_ERRORS: tuple[type[BaseException], ...] = (BuranoError, TypeError)

PLAYER_COUNTS = (2, 3, 4)
SEATS = "ABCD"
#: Random games per player count that feed the corpus, and positions kept per category.
CORPUS_GAMES = 14
CORPUS_PER_CATEGORY = 4
#: Random steps played in lockstep after a position loads; search iterations on it.
LOCKSTEP_STEPS = 30
SEARCH_ITERATIONS = 6
API_CALLS_PER_CASE = 25


# ------------------------------------------------------------------------------------------------
# The corpus: positions from seeded random games (reference model: pure Python, safe in any process)


@dataclass(frozen=True)
class Entry:
    players: int
    stage: str
    phase: str
    chance: str
    view: str | None          # None: the full position; else the seat whose one-seat view it is
    data_json: str            # the position (kept as text so every user gets a fresh copy)

    @property
    def category(self) -> str:
        chance = f"/{self.chance}" if self.chance != "none" else ""
        return f"{self.players}p {self.stage}/{self.phase}{chance}"

    def data(self) -> dict:
        return json.loads(self.data_json)


@functools.lru_cache(maxsize=None)
def corpus() -> tuple[Entry, ...]:
    """Positions of seeded random games: every (players, stage, phase, chance kind) reached, up to
    `CORPUS_PER_CATEGORY` at spread-out plies, each as the full position and as one seat's view."""
    entries: list[Entry] = []
    for n in PLAYER_COUNTS:
        kept: dict[tuple[int, int, int], int] = {}
        for seed in range(CORPUS_GAMES):
            state = RefGame(n).new_initial_state(seed)
            rng = random.Random(1000 * n + seed)
            while True:
                key = (state.stage, state.phase, state.chance_kind)
                have = kept.get(key, 0)
                # Keep the first of a category, then later ones with a falling probability.
                if have < CORPUS_PER_CATEGORY and (have == 0 or rng.random() < 0.08):
                    kept[key] = have + 1
                    labels = (n, STAGE_NAMES[state.stage], PHASE_NAMES[state.phase],
                              CHANCE_KIND_NAMES[state.chance_kind])
                    entries.append(Entry(*labels, None, json.dumps(state.to_dict())))
                    actor = state.actor if 0 <= state.actor < n else rng.randrange(n)
                    seat = actor if rng.random() < 0.6 else rng.randrange(n)
                    entries.append(Entry(*labels, SEATS[seat], json.dumps(state.to_dict(seat))))
                if state.is_terminal():
                    break
                random_step(state, rng)
    return tuple(entries)


@functools.lru_cache(maxsize=None)
def _vocabulary() -> dict[str, list]:
    """Valid-looking values harvested from the corpus: every string leaf and every key, plus the names."""
    strings: set[str] = set(PHASE_NAMES) | set(STAGE_NAMES) | set(CHANCE_KIND_NAMES) | set(SEATS)
    keys: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                keys.add(k)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, str):
            strings.add(x)

    for e in corpus():
        walk(e.data())
    return {"strings": sorted(strings), "keys": sorted(keys)}


@functools.lru_cache(maxsize=None)
def _chance_outcome_pool() -> tuple[int, ...]:
    """Chance outcome ids of every chance family (to offer one family's outcome at another's node)."""
    ids: set[int] = set()
    for e in corpus():
        if e.view is None and e.phase == "chance":
            ids.update(a for a, _ in _load(e.data(), RefGame)[0].chance_outcomes())
    return tuple(sorted(ids))


@functools.lru_cache(maxsize=None)
def _action_text_pool() -> tuple[str, ...]:
    texts: set[str] = set()
    for e in corpus()[::3]:
        if e.view is None:
            s = _load(e.data(), RefGame)[0]
            acts = s.chance_outcome_actions() if s.is_chance_node() else s.legal_actions()
            texts.update(s.action_to_string(a) for a in acts[:8])
    return tuple(sorted(texts))


# ------------------------------------------------------------------------------------------------
# Structural mutations of a position dict

_PATH = tuple

BOUNDARY_INTS = (-1, -2, 5, 9, 10, 11, 12, 13, 14, 15, 20, 21, 100, 127, 128, 255, 256, 1000, 65535, 65536,
                 2**31 - 1, 2**31, 2**32, 2**53 + 1, 2**63 - 1, 2**63, 2**64, -2**63, -2**63 - 1, 10**12, 10**30,
                 10**400)
WRONG_TYPES: tuple[Callable[[], Any], ...] = (
    lambda: None, lambda: True, lambda: False, lambda: 0, lambda: 1, lambda: 1.0, lambda: 2.5, lambda: -0.0,
    lambda: float("nan"), lambda: float("inf"), lambda: "", lambda: "x", lambda: "A", lambda: "1", lambda: "true",
    lambda: "null", lambda: [], lambda: {}, lambda: [1], lambda: ["pink"], lambda: {"pink": 1}, lambda: [[[]]],
    lambda: {"": None}, lambda: "\u00e9\u0000\ud800"[:2], lambda: "a" * 10000,
)
CONTEXT_FIELDS = ("moves", "order_index", "chance", "chance_arg", "sail_target", "swap_pick", "fish_island",
                  "fish_matches", "draws_left", "lace_allow", "pending_roof", "pay_queue", "paid", "discount_used",
                  "shortfall", "picks_left", "kinds_picked", "pyramid_target")
PROGRESS_FIELDS = ("phase", "stage", "actor", "season", "round", "first_player", "context")


def _paths(x: Any, prefix: _PATH = ()) -> list[_PATH]:
    """Every path (tuple of keys/indexes) inside `x` down to depth 12, the root excluded."""
    out: list[_PATH] = []
    if len(prefix) >= 12:
        return out
    if isinstance(x, dict):
        for k, v in x.items():
            out.append(prefix + (k,))
            out.extend(_paths(v, prefix + (k,)))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out.append(prefix + (i,))
            out.extend(_paths(v, prefix + (i,)))
    return out


def _get(x: Any, path: _PATH) -> Any:
    for k in path:
        x = x[k]
    return x


def _set(x: Any, path: _PATH, value: Any) -> None:
    _get(x, path[:-1])[path[-1]] = value


def _nested(depth: int, leaf: Any, rng: random.Random) -> Any:
    as_list = rng.random() < 0.5
    for _ in range(depth):
        leaf = [leaf] if as_list else {"a": leaf}
    return leaf


def _valid_looking(value: Any, rng: random.Random, path: _PATH) -> Any:
    """Another value of the same kind: a nearby or boundary int, another name, a flipped bool."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rng.choice((value + 1, value - 1, 0, 1, 2, 3, 4, rng.randrange(0, 25)))
    if isinstance(value, str):
        return rng.choice(_vocabulary()["strings"])
    if value is None:
        return rng.choice((0, 1, "A", rng.choice(_vocabulary()["strings"]), [], {}))
    if isinstance(value, list):
        if value and rng.random() < 0.5:
            return [_valid_looking(v, rng, path) for v in value]
        return rng.choice(([], [rng.choice(_vocabulary()["strings"])], value + value))
    if isinstance(value, dict):
        if value and rng.random() < 0.5:
            k = rng.choice(list(value))
            out = dict(value)
            out[k] = _valid_looking(value[k], rng, path + (k,))
            return out
        return rng.choice(({}, {rng.choice(_vocabulary()["strings"]): rng.randrange(0, 5)}))
    return None


def _pick_path(data: dict, rng: random.Random) -> _PATH:
    paths = _paths(data)
    # Bias towards the progress fields, where the findings of issue 10 were.
    if rng.random() < 0.3:
        prog = [p for p in paths if p[0] in PROGRESS_FIELDS]
        if prog:
            return rng.choice(prog)
    return rng.choice(paths)


def _other_entry(data: dict, rng: random.Random, same_players: bool = True) -> dict:
    pool = [e for e in corpus() if not same_players or e.players == data.get("players")] or list(corpus())
    return rng.choice(pool).data()


def m_valid_value(data, rng):
    p = _pick_path(data, rng)
    _set(data, p, _valid_looking(_get(data, p), rng, p))


def m_wrong_type(data, rng):
    p = _pick_path(data, rng)
    _set(data, p, rng.choice(WRONG_TYPES)())


def m_out_of_range(data, rng):
    ints = [p for p in _paths(data) if isinstance(_get(data, p), int) and not isinstance(_get(data, p), bool)]
    p = rng.choice(ints) if ints and rng.random() < 0.8 else _pick_path(data, rng)
    _set(data, p, rng.choice(BOUNDARY_INTS) * rng.choice((1, 1, 1, -1)))


def m_delete_key(data, rng):
    paths = [p for p in _paths(data) if isinstance(_get(data, p[:-1]), dict)]
    p = rng.choice(paths)
    del _get(data, p[:-1])[p[-1]]


def m_unknown_key(data, rng):
    dicts = [()] + [p for p in _paths(data) if isinstance(_get(data, p), dict)]
    d = _get(data, rng.choice(dicts))
    keys = list(d) or _vocabulary()["keys"]
    k = rng.choice(keys)
    r = rng.random()
    if r < 0.3 and len(k) > 1:
        i = rng.randrange(len(k))
        new = k[:i] + k[i + 1:]                       # a dropped letter
    elif r < 0.5:
        new = k.capitalize() if k != k.capitalize() else k.upper()
    elif r < 0.7:
        new = rng.choice(_vocabulary()["keys"])       # a real key in the wrong place
    elif r < 0.85:
        new = rng.choice(("x", "", " ", "__proto__", "contxt", "Prep", "k" * 300, "view ", "1"))
    else:                                             # rename: a hole, island, colour ... to another
        if k in d:
            d[rng.choice(_vocabulary()["strings"])] = d.pop(k)
        return
    d[new] = copy.deepcopy(d[k]) if k in d and rng.random() < 0.7 else rng.choice(WRONG_TYPES)()


def m_progress(data, rng):
    """Rename the phase, stage, chance kind, actor or a context field to another legal value."""
    n = data.get("players") if data.get("players") in PLAYER_COUNTS else 4
    ctx = data.get("context")
    if not isinstance(ctx, dict):
        ctx = data["context"] = {}
    r = rng.randrange(12)
    if r == 0:
        data["phase"] = rng.choice(PHASE_NAMES)
    elif r == 1:
        data["stage"] = rng.choice(STAGE_NAMES)
    elif r == 2:
        ctx["chance"] = rng.choice(CHANCE_KIND_NAMES)
        if rng.random() < 0.5:
            data["phase"] = "chance"
    elif r == 3:
        data["actor"] = rng.choice(list(SEATS[:n]) + [None, "D"])
    elif r == 4:
        data["phase"], data["stage"] = rng.choice(PHASE_NAMES), rng.choice(STAGE_NAMES)
        if rng.random() < 0.5:
            data["context"] = {}
    elif r == 5:
        data["context"] = rng.choice(({}, None, {"moves": rng.randrange(5)}))
    elif r == 6:
        data["season"] = rng.choice(("spring", "summer", "autumn", "winter"))
        data["round"] = rng.randrange(0, 7)
    elif r == 7:
        data["first_player"] = rng.choice(SEATS)
    elif r == 8:   # splice the whole progress block of another position of the same player count
        other = _other_entry(data, rng)
        for f in ("stage", "phase", "actor", "context") + (("season", "round") if rng.random() < 0.3 else ()):
            if f in other:
                data[f] = other[f]
    else:          # one context field to a plausible value
        f = rng.choice(CONTEXT_FIELDS)
        roofs = data.get("island", {}).get("roofs", []) if isinstance(data.get("island"), dict) else []
        squares = [sq for seat in data.get("seats", []) if isinstance(seat, dict)
                   for sq in (seat.get("workshop") or []) if isinstance(sq, str)] or ["r0c0", "r1c2"]
        kinds = ["island", "workshop", "fountains", "flat"]
        value = {
            "moves": lambda: rng.randrange(0, 6), "order_index": lambda: rng.randrange(0, 6),
            "chance": lambda: rng.choice(CHANCE_KIND_NAMES), "chance_arg": lambda: rng.choice(kinds + [None, 0, 7]),
            "sail_target": lambda: rng.choice(["I1", "I2", "I3", "I4", "I5", "I6", None, "PortL", "PortR", 3]),
            "swap_pick": lambda: rng.choice([f"I{rng.randrange(0, 8)}:{rng.choice(COLOURS)}", None, "I1", "pink",
                                             "I1:pink:blue", 5]),
            "fish_island": lambda: rng.choice(["I1", "I2", "I3", "I4", "I5", "I6", None, "PortL"]),
            "fish_matches": lambda: rng.randrange(0, 5), "draws_left": lambda: rng.randrange(0, 5),
            "lace_allow": lambda: rng.choice(({}, {"pink": 1}, {"white": 2, "blue": 1}, {"green": 3})),
            "pending_roof": lambda: rng.choice([None, 0, len(roofs) - 1, len(roofs), len(roofs) + 1]),
            "pay_queue": lambda: rng.sample(squares, rng.randrange(0, len(squares) + 1)) + (squares[:1] if rng.random() < 0.2 else []),
            "paid": lambda: rng.sample(squares, rng.randrange(0, len(squares) + 1)),
            "discount_used": lambda: rng.choice((True, False, "no", 1)),
            "shortfall": lambda: rng.randrange(0, 5), "picks_left": lambda: rng.randrange(0, 5),
            "kinds_picked": lambda: [rng.choice(kinds) for _ in range(rng.randrange(0, 5))],
            "pyramid_target": lambda: rng.randrange(0, 16),
        }[f]()
        ctx[f] = value
        if rng.random() < 0.4:
            data["phase"] = rng.choice(PHASE_NAMES)


def m_splice(data, rng):
    """A block copied from another corpus position (sometimes of another player count)."""
    other = _other_entry(data, rng, same_players=rng.random() < 0.8)
    paths = [p for p in _paths(data) if _has(other, p)]
    if not paths:
        return
    p = rng.choice(paths)
    _set(data, p, copy.deepcopy(_get(other, p)))


def _has(x: Any, path: _PATH) -> bool:
    try:
        _get(x, path)
        return True
    except (KeyError, IndexError, TypeError):
        return False


def m_list_edit(data, rng):
    lists = [p for p in _paths(data) if isinstance(_get(data, p), list)]
    if not lists:
        return
    lst = _get(data, rng.choice(lists))
    r = rng.randrange(5)
    if r == 0 and lst:
        lst.append(copy.deepcopy(rng.choice(lst)))              # duplicate an item
    elif r == 1 and lst:
        lst.pop(rng.randrange(len(lst)))
    elif r == 2:
        rng.shuffle(lst)
    elif r == 3 and lst:
        i, j = rng.randrange(len(lst)), rng.randrange(len(lst))
        lst[i] = copy.deepcopy(lst[j])
    else:
        lst.extend(copy.deepcopy(lst) * rng.choice((1, 3, 20)))


def m_deep_nest(data, rng):
    p = _pick_path(data, rng)
    depth = rng.choice((2, 5, 30, 200, 1000, 5000))
    _set(data, p, _nested(depth, _get(data, p), rng))


def m_hidden_view(data, rng):
    """View-only fields (a blind-card count, a hidden pyramid) in places they may or may not belong."""
    seats = data.get("seats")
    if not isinstance(seats, list) or not seats:
        return
    seat = rng.choice(seats)
    if not isinstance(seat, dict):
        return
    r = rng.randrange(5)
    if r == 0:
        hand = seat.get("hand") if isinstance(seat.get("hand"), dict) else {}
        hand["blind"] = rng.choice((0, 1, 3, 48, 49, -1, 10**12))
        seat["hand"] = hand
    elif r == 1:
        seat["pyramid"], seat["reserve"] = None, None
        seat["cubes"] = rng.choice(({"green": 3, "pink": 2}, {"green": rng.choice(BOUNDARY_INTS)},
                                    {"white": 14}, {}, {"blue": 21}))
        seat["placed"] = rng.choice((0, 3, 14, 15, -1))
    elif r == 2:
        data["view"] = rng.choice(list(SEATS) + [None, "E", 0, 1])
    elif r == 3:
        data["stage"] = "pyramid"
        if rng.random() < 0.5:
            data["phase"] = "pyramid"
    else:
        seat["seat"] = rng.choice(SEATS)


def m_players(data, rng):
    data["players"] = rng.choice((1, 2, 3, 4, 5, 0, -1, "4", 4.0, True))
    if rng.random() < 0.3:
        data["seats"] = data.get("seats", [])[: rng.randrange(0, 5)]


MUTATIONS: dict[str, Callable[[dict, random.Random], None]] = {
    "valid-value": m_valid_value, "wrong-type": m_wrong_type, "out-of-range": m_out_of_range,
    "delete-key": m_delete_key, "unknown-key": m_unknown_key, "progress": m_progress, "splice": m_splice,
    "list-edit": m_list_edit, "deep-nest": m_deep_nest, "hidden-view": m_hidden_view, "players": m_players,
}
_MUTATION_WEIGHTS = {"valid-value": 4, "wrong-type": 2, "out-of-range": 2, "delete-key": 2, "unknown-key": 1,
                     "progress": 6, "splice": 3, "list-edit": 2, "deep-nest": 0.3, "hidden-view": 1.5, "players": 0.5}


def mutate(data: dict, rng: random.Random, count: int, deep: bool = True) -> list[str]:
    """Apply `count` random mutations to `data` in place; return their kinds (deep nesting comes last)."""
    kinds = []
    names = [k for k in _MUTATION_WEIGHTS if k != "deep-nest"]
    weights = [_MUTATION_WEIGHTS[k] for k in names]
    for _ in range(count):
        kind = rng.choices(names, weights)[0]
        if not isinstance(data, dict) or not data:
            break
        try:
            MUTATIONS[kind](data, rng)
        except (IndexError, KeyError, TypeError, ValueError, AttributeError, RecursionError):
            continue       # the mutation did not fit this (already mutated) position
        kinds.append(kind)
    if deep and isinstance(data, dict) and data and rng.random() < 0.03:
        m_deep_nest(data, rng)
        kinds.append("deep-nest")
    return kinds


@dataclass
class LoaderInput:
    data: Any               # a dict (structural) or str/bytes (text)
    entry: Entry
    kinds: list[str]        # mutation kinds applied

    def labels(self) -> dict[str, Any]:
        return {"players": self.entry.players, "category": self.entry.category,
                "view": "view" if self.entry.view else "full", "kinds": self.kinds}


def apply_plan(data: Any, plan: list[tuple[str, int]]) -> list[str]:
    """Apply an explicit list of (mutation kind, seed) to `data` in place (hypothesis draws such plans,
    so a failing example shrinks to fewer and simpler mutations); return the kinds that applied."""
    kinds = []
    for kind, seed in plan:
        if not isinstance(data, dict) or not data:
            break
        try:
            MUTATIONS[kind](data, random.Random(seed))
        except (IndexError, KeyError, TypeError, ValueError, AttributeError, RecursionError):
            continue
        kinds.append(kind)
    return kinds


def apply_text_plan(text: bytes, plan: list[tuple[str, int]]) -> bytes:
    for kind, seed in plan:
        text = TEXT_MUTATIONS[kind](text, random.Random(seed))
    return text


def loader_input(seed: int) -> LoaderInput:
    """The structurally mutated position number `seed` (deterministic)."""
    rng = random.Random(f"loader-{seed}")
    entry = rng.choice(corpus())
    data = entry.data()
    kinds = mutate(data, rng, rng.choice((1, 1, 1, 2, 2, 3, 4)))
    return LoaderInput(data, entry, kinds)


# ------------------------------------------------------------------------------------------------
# Raw-text mutations of the JSON loader's input


def _t_truncate(b: bytes, rng):
    return b[: rng.randrange(len(b) + 1)]


def _t_flip(b: bytes, rng):
    out = bytearray(b)
    for _ in range(rng.choice((1, 1, 2, 8))):
        if out:
            out[rng.randrange(len(out))] = rng.randrange(256)
    return bytes(out)


def _t_insert(b: bytes, rng):
    i = rng.randrange(len(b) + 1)
    piece = rng.choice((b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\", b"null", b"-", b"1e999", b"NaN",
                        b"Infinity", b"\xef\xbb\xbf", b"\xff", b"\xc3", b"\x00", b"\\ud800", b"true,",
                        bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9)))))
    return b[:i] + piece + b[i:]


def _t_huge_number(b: bytes, rng):
    digits = rng.choice((19, 20, 40, 309, 4300, 4301, 10000, 100000))
    lit = rng.choice((b"", b"-")) + b"9" * digits + rng.choice((b"", b"", b".5", b"e5", b"e-999", b"e999"))
    nums = [i for i in range(len(b)) if b[i:i + 1].isdigit() and (i == 0 or not b[i - 1:i].isdigit())]
    if not nums:
        return lit
    i = rng.choice(nums)
    j = i
    while j < len(b) and b[j:j + 1].isdigit():
        j += 1
    return b[:i] + lit + b[j:]


def _t_deep_nesting(b: bytes, rng):
    depth = rng.choice((100, 990, 1000, 5000, 100000, 1000000))
    opener, closer = rng.choice(((b"[", b"]"), (b'{"a":', b"}")))
    inner = opener * depth + b"1" + (closer * depth if rng.random() < 0.7 else b"")
    if rng.random() < 0.5 or not b:
        return inner
    i = b.find(b'"context": ')
    if i < 0:
        return inner
    i += len(b'"context": ')
    return b[:i] + inner + b"," + b[i:]


def _t_random_bytes(b: bytes, rng):
    return bytes(rng.randrange(256) for _ in range(rng.choice((0, 1, 2, 10, 100, 2000))))


def _t_splice_text(b: bytes, rng):
    other = json.dumps(rng.choice(corpus()).data()).encode()
    i, j = rng.randrange(len(b) + 1), rng.randrange(len(other) + 1)
    return b[:i] + other[j:]


def _t_duplicate_key(b: bytes, rng):
    # JSON objects with a repeated key: the last one wins in Python's json; it must still be validated.
    i = b.find(b'"phase": ')
    if i < 0:
        return b
    return b[:i] + b'"phase": "' + rng.choice(PHASE_NAMES).encode() + b'", ' + b[i:]


def _t_whitespace(b: bytes, rng):
    return rng.choice((b"\xef\xbb\xbf", b"  \n\t", b"\xef\xbb\xbf\xef\xbb\xbf", b"")) + b + rng.choice(
        (b"", b"\n", b" x", b"{}", b"\x00"))


def _t_big(b: bytes, rng):
    return b[:-1] + b', "pad": "' + b"x" * rng.choice((10**5, 2 * 10**6)) + b'"}'


TEXT_MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "truncate": _t_truncate, "byte-flip": _t_flip, "insert": _t_insert, "huge-number": _t_huge_number,
    "deep-nesting": _t_deep_nesting, "random-bytes": _t_random_bytes, "splice": _t_splice_text,
    "duplicate-key": _t_duplicate_key, "bom-whitespace": _t_whitespace, "oversize": _t_big,
}
_TEXT_WEIGHTS = {"truncate": 3, "byte-flip": 4, "insert": 3, "huge-number": 2, "deep-nesting": 1,
                 "random-bytes": 1, "splice": 1, "duplicate-key": 1.5, "bom-whitespace": 1, "oversize": 0.2}


def text_input(seed: int) -> LoaderInput:
    """The mangled JSON text number `seed` (bytes or str, deterministic)."""
    rng = random.Random(f"text-{seed}")
    entry = rng.choice(corpus())
    data = entry.data()
    kinds = mutate(data, rng, 1, deep=False) if rng.random() < 0.3 else []
    text = json.dumps(data, indent=rng.choice((None, 1))).encode()
    names = list(_TEXT_WEIGHTS)
    for _ in range(rng.choice((1, 1, 2))):
        kind = rng.choices(names, [_TEXT_WEIGHTS[k] for k in names])[0]
        text = TEXT_MUTATIONS[kind](text, rng)
        kinds.append("text:" + kind)
    as_str = rng.random() < 0.5
    return LoaderInput(text.decode("utf-8", "surrogateescape") if as_str else text, entry, kinds)


# ------------------------------------------------------------------------------------------------
# The loader oracle


def _load(data: Any, game_class) -> tuple[Any, int | None]:
    return engine.load_position(data, game_factory=game_class)


def _short(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) < 400 else text[:400] + "..."


def _try_load(data: Any, game_class, who: str) -> tuple[Any, int | None] | PositionError:
    try:
        return _load(data, game_class)
    except LOADER_ERRORS as exc:
        return exc
    except Exception as exc:  # noqa: BLE001 - anything else is the finding
        raise Finding("exception", f"{who} loader raised {_short(exc)}") from exc


def _check_state(state, who: str, where: str) -> None:
    try:
        state.check()
    except AssertionError as exc:
        raise Finding("invariant", f"{who}.check() fails {where}: {_short(exc)}") from exc
    except Exception as exc:  # noqa: BLE001
        raise Finding("exception", f"{who}.check() raised {where}: {_short(exc)}") from exc


def _node_sane(state, n: int, who: str, where: str) -> None:
    if state.is_terminal():
        if state.legal_actions() or state.chance_outcomes():
            raise Finding("invariant", f"{who}: moves or outcomes at a terminal state {where}")
        return
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        if not outcomes:
            raise Finding("invariant", f"{who}: a chance node without outcomes {where}")
        total = sum(p for _, p in outcomes)
        if any(not (p > 0) for _, p in outcomes) or not math.isclose(total, 1.0, abs_tol=1e-9):
            raise Finding("invariant", f"{who}: chance probabilities {total} {where}")
        if state.legal_actions():
            raise Finding("invariant", f"{who}: legal actions at a chance node {where}")
        return
    if not 0 <= state.current_player() < n:
        raise Finding("invariant", f"{who}: current player {state.current_player()} {where}")
    if not state.legal_actions():
        raise Finding("invariant", f"{who}: no legal action at a decision of seat "
                                   f"{SEATS[state.current_player()]} {where}")


def _same(core, ref, where: str, full_dict: bool = True) -> None:
    for name in ("is_terminal", "is_chance_node", "current_player", "legal_actions", "chance_outcomes", "scores"):
        a, b = getattr(core, name)(), getattr(ref, name)()
        if a != b:
            raise Finding("divergence", f"{name}() differs {where}: core {str(a)[:200]} reference {str(b)[:200]}")
    if full_dict and core.to_dict() != ref.to_dict():
        raise Finding("divergence", f"to_dict() differs {where}")


def _round_trip(state, game_class, who: str, where: str) -> None:
    """A state the rules reached (or accepted) must load again from its own JSON, unchanged."""
    d = state.to_dict()
    try:
        again, _ = _load(json.loads(json.dumps(d)), game_class)
    except PositionError as exc:
        raise Finding("invariant", f"{who}: its own JSON is rejected {where}: {_short(exc)}") from exc
    except Exception as exc:  # noqa: BLE001
        raise Finding("exception", f"{who}: loading its own JSON raised {where}: {_short(exc)}") from exc
    if again.to_dict() != d:
        raise Finding("invariant", f"{who}: its own JSON loads as a different position {where}")


def _uncaught(exc: BaseException) -> Finding:
    """Any other exception raised by either implementation while the oracle used it."""
    import traceback
    frames = traceback.extract_tb(exc.__traceback__)
    inner = [f for f in frames if "burano_ai" in f.filename] or frames
    at = f" at {inner[-1].filename.rsplit('burano_ai', 1)[-1].lstrip('/')}:{inner[-1].lineno} ({inner[-1].name})" \
        if inner else ""
    finding = Finding("exception", f"{_short(exc)}{at}")
    finding.__cause__ = exc
    return finding


def _debug_errors() -> str | None:
    """Debug builds count states whose key or maintained counts went wrong inside C (the native search's
    playouts too) and report them only at the next checked call; take them now. None if there were none."""
    take = getattr(_core, "_take_debug_errors", None)
    if take is None:
        return None
    try:
        take()
    except AssertionError as exc:
        return str(exc)
    return None


def check_loader_input(data: Any, seed: int = 0, steps: int = LOCKSTEP_STEPS,
                       search_iterations: int = SEARCH_ITERATIONS) -> str:
    """Run the loader properties on one input; return 'rejected', 'accepted-searched' (a decision with a
    choice for the seat whose view it is, or any seat of a full position: searched too), 'accepted'
    (a chance node, a single legal move or another seat's view: not searched) or 'accepted-terminal'.

    Raises:
        Finding: a property violation (see the module docstring).
    """
    _debug_errors()        # a clean slate: what an earlier input left is not this input's
    try:
        outcome = _check_loader_input(data, seed, steps, search_iterations)
        problem = _debug_errors()
        if problem:
            raise Finding("invariant", f"inside C (search playouts) after an accepted position: {problem}")
        return outcome
    except Finding:
        raise
    except Exception as exc:  # noqa: BLE001 - e.g. an assertion of the reference at an impossible node
        raise _uncaught(exc) from exc


def _check_loader_input(data: Any, seed: int, steps: int, search_iterations: int) -> str:
    core_r = _try_load(data, CoreGame, "core")
    ref_r = _try_load(data, RefGame, "reference")
    if isinstance(core_r, PositionError) or isinstance(ref_r, PositionError):
        if not (isinstance(core_r, PositionError) and isinstance(ref_r, PositionError)):
            who = "core" if isinstance(core_r, PositionError) else "reference"
            raise Finding("divergence", f"only the {who} rejects the position: "
                                        f"{_short(core_r if who == 'core' else ref_r)}")
        return "rejected"
    (core, core_view), (ref, ref_view) = core_r, ref_r
    n = core.num_players
    if core_view != ref_view:
        raise Finding("divergence", f"view seat {core_view} vs {ref_view}")
    root = core.clone()
    try:
        _play_and_compare(core, ref, n, seed, steps)
    except Exception:
        # Keep going where a crash would hide: search the accepted position anyway (a position with no
        # legal move must be refused by the search, not crash it), then report the first finding.
        _search_anyway(root, core_view, seed, search_iterations)
        raise
    if root.is_terminal():
        return "accepted-terminal"
    if search_iterations and not root.is_chance_node() and len(root.legal_actions()) > 1 and \
            (core_view is None or core_view == root.current_player()):
        try:
            result = engine.suggest(root, limit=Limit(iterations=search_iterations), seed=seed, workers=1, threads=1,
                                    view=core_view)
        except Exception as exc:  # noqa: BLE001
            raise Finding("exception", f"suggest raised {_short(exc)}") from exc
        if result.action not in root.legal_actions():
            raise Finding("invariant", f"suggest returned {result.move!r}, not a legal move")
        return "accepted-searched"
    return "accepted"


def _search_anyway(root, view, seed: int, iterations: int) -> None:
    if not iterations or root.is_terminal() or root.is_chance_node():
        return
    try:
        engine.suggest(root, limit=Limit(iterations=iterations), seed=seed, workers=1, threads=1, view=view)
    except Exception:  # noqa: BLE001 - only a crash matters here; the first finding is reported
        pass


def _play_and_compare(core, ref, n: int, seed: int, steps: int) -> None:
    _check_state(core, "core", "after loading")
    _check_state(ref, "reference", "after loading")
    _same(core, ref, "after loading")
    _node_sane(core, n, "core", "after loading")
    _round_trip(core, CoreGame, "core", "after loading")
    rng = random.Random(seed)
    step = 0
    for step in range(steps):
        where = f"after {step} random steps"
        if ref.is_terminal():
            break
        action = ref.chance_outcome_actions() if ref.is_chance_node() else ref.legal_actions()
        if ref.is_chance_node():
            outcomes = ref.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(action)
        text = ref.action_to_string(action)
        if core.action_to_string(action) != text:
            raise Finding("divergence", f"action_to_string({action}) {where}")
        for who, st in (("core", core), ("reference", ref)):
            try:
                st.apply_action(action)
            except Exception as exc:  # noqa: BLE001 - a legal action must apply
                raise Finding("exception", f"{who}.apply_action({action} {text!r}) {where}: {_short(exc)}") from exc
        where = f"after {step + 1} random steps (last {text!r})"
        _same(core, ref, where, full_dict=True)
        _node_sane(core, n, "core", where)
        if step % 10 == 9:
            _check_state(core, "core", where)
    _check_state(core, "core", f"after {step + 1} random steps")
    _check_state(ref, "reference", f"after {step + 1} random steps")
    _round_trip(core, CoreGame, "core", f"after {step + 1} random steps")


# ------------------------------------------------------------------------------------------------
# API misuse


def _random_value(rng: random.Random, state=None) -> Any:
    r = rng.random()
    if r < 0.25 and state is not None:
        acts = state.chance_outcome_actions() if state.is_chance_node() else state.legal_actions()
        if acts:
            a = rng.choice(acts)
            return rng.choice((a, a, float(a), a + 0.5, str(a), -a, a is not None and bool(a)))
    if r < 0.45:
        return rng.randrange(-3, 1880)
    if r < 0.55:
        return rng.choice(_chance_outcome_pool())
    if r < 0.65:
        return rng.choice(BOUNDARY_INTS) * rng.choice((1, -1))
    if r < 0.8:
        return rng.choice(_action_text_pool() + ("", "done", "A", "a", "take", "pay none", "draw deck", "\x00"))
    return rng.choice(WRONG_TYPES)()


def api_entry(seed: int) -> Entry:
    """The corpus position that API case `seed` starts from."""
    return random.Random(f"api-{seed}").choice(corpus())


#: The State API a caller may misuse: (method, number of random arguments, mutates the state). The
#: first group is compared call for call with the reference; the derived-count helpers (pyramid_count,
#: workers_off_ring, roof_stack) and the core-only methods are checked for the error family and for
#: leaving the state untouched only.
API_METHODS: tuple[tuple[str, int, bool], ...] = (
    ("apply_action", 1, True), ("apply_action", 1, True), ("apply_action", 1, True), ("apply_action", 1, True),
    ("play", 1, True), ("play", 1, True), ("legal_actions", 1, False), ("action_to_string", 1, False),
    ("string_to_action", 1, False), ("to_dict", 1, False), ("to_json", 2, False),
    ("information_state_key", 1, False), ("resample", 2, False), ("chance_outcomes", 0, False),
    ("legal_actions", 0, False), ("returns", 0, False), ("winners", 0, False), ("clone", 0, False),
    ("pyramid_count", 1, False), ("workers_off_ring", 1, False), ("roof_stack", 1, False),
    ("playout", 2, False), ("key", 0, False),
)
COMPARED = frozenset(("apply_action", "play", "legal_actions", "action_to_string", "string_to_action", "to_dict",
                      "to_json", "information_state_key", "resample", "chance_outcomes", "returns", "winners"))
#: Compared by outcome (accepted or refused) only: the results are objects or keys of each implementation.
OUTCOME_ONLY = frozenset(("to_json", "information_state_key", "resample", "clone"))


def _call(state, method: str, args: tuple) -> tuple[str, Any]:
    """('ok', result) or ('error', exception); an exception outside the family is a Finding."""
    try:
        return "ok", getattr(state, method)(*args)
    except API_ERRORS as exc:
        return "error", exc
    except Exception as exc:  # noqa: BLE001
        raise Finding("exception", f"{type(state).__module__}.{method}{_args_repr(args)} raised "
                                   f"{_short(exc)}") from exc


def _args_repr(args: tuple) -> str:
    text = repr(args)
    return text if len(text) < 120 else text[:117] + "..."


def run_api_case(seed: int, calls: int = API_CALLS_PER_CASE,
                 methods: tuple[tuple[str, int, bool], ...] | None = None) -> dict[str, int]:
    """`calls` random State method calls on a corpus position in both implementations; return the
    calls made per method. An accepted call must give both the same answer and leave both in the same
    (checked) state; a refused call must raise inside the family and change nothing."""
    _debug_errors()
    rng = random.Random(f"api-{seed}")
    entry = api_entry(seed)
    data = entry.data()
    core, _ = _load(data, CoreGame)
    ref, _ = _load(data, RefGame)
    made: dict[str, int] = {}
    try:
        _api_calls(core, ref, rng, calls, made, methods or API_METHODS)
    except Finding as exc:
        exc.calls = made
        raise
    except Exception as exc:  # noqa: BLE001
        finding = _uncaught(exc)
        finding.calls = made
        raise finding from exc
    return made


def _api_calls(core, ref, rng: random.Random, calls: int, made: dict[str, int], methods) -> None:
    for i in range(calls):
        method, nargs, mutates = rng.choice(methods)
        if method == "playout":       # on a copy: a playout plays to the end in place
            args = (rng.choice((0, 1, -1, 2**64, 1.5, "x", None)), rng.choice(("random", "heuristic", "x", 1, None)))
        elif method == "to_json":
            args = (_random_value(rng, ref), rng.choice((None, 0, 1, 2, -1, "  ", "x", 1.5, True)))
        else:
            args = tuple(_random_value(rng, ref) for _ in range(nargs))
        where = f"call {i}: {method}{_args_repr(args)}"
        legal_before = set(ref.chance_outcome_actions() if ref.is_chance_node() else ref.legal_actions())
        before_core, before_ref = core.to_dict(), ref.to_dict()
        key_before = core.key()
        target_core = core.clone() if method == "playout" else core
        c_status, c_res = _call(target_core, method, args)
        made[method] = made.get(method, 0) + 1
        if method in COMPARED:
            r_status, r_res = _call(ref, method, args)
            if c_status != r_status:
                raise Finding("divergence", f"{where}: core {c_status} ({_short(c_res) if c_status == 'error' else ''})"
                                            f", reference {r_status} ({_short(r_res) if r_status == 'error' else ''})")
            if c_status == "ok" and not mutates and method not in OUTCOME_ONLY and c_res != r_res:
                raise Finding("divergence", f"{where}: core {str(c_res)[:100]} reference {str(r_res)[:100]}")
        if c_status == "error" or not mutates:
            if core.to_dict() != before_core or core.key() != key_before:
                raise Finding("invariant", f"{where}: changed the core state ({'refused' if c_status == 'error' else 'read-only'})")
            if ref.to_dict() != before_ref:
                raise Finding("invariant", f"{where}: changed the reference state")
        else:
            applied = c_res if method == "play" else args[0]
            if applied not in legal_before or isinstance(args[0], bool) or \
                    (method == "apply_action" and not isinstance(args[0], int)):
                raise Finding("invariant", f"{where}: accepted {args[0]!r}, not a legal action id "
                                           f"(legal: {sorted(legal_before)[:20]})")
            if core.to_dict() != ref.to_dict():
                raise Finding("divergence", f"{where}: to_dict() differs after the call")
            _check_state(core, "core", where)
        if method == "clone" and c_status == "ok":
            _check_state(c_res, "core clone", where)
