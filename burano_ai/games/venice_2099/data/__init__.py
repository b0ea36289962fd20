"""Every number of Venice 2099, as data (`rules.json`, `venice-2099-rules/1`), each item with its citation.

The component data of Venice 2099 is not lost: 48 districts (6 colours x {2..8, X}), 16 platforms and
42 forecast cards are fixed by the rulebook and the reviews (spec §1). What the spec fixes by decision
rather than by reading (VD-1, VD-8, VD-11) carries its decision id in `rules.json`, and the flags that
pick the other readings are game options (`rules.Options`, spec §10.10). Nothing here is a
placeholder, so there is no replaceable data file: a correction to a number is a change to
`rules.json`.
"""

from __future__ import annotations

from pathlib import Path

from burano_ai.core.fields import read_rules

HERE = Path(__file__).resolve().parent
RULES_FORMAT = "venice-2099-rules/1"


_R = read_rules(HERE / "rules.json", RULES_FORMAT)
MIN_PLAYERS: int = _R["min_players"]                                   # 2
MAX_PLAYERS: int = _R["max_players"]                                   # 5
COLOUR_LETTERS: tuple[str, ...] = tuple(pair[0] for pair in _R["colours"])    # §1: K P G T R B
COLOUR_NAMES: tuple[str, ...] = tuple(pair[1] for pair in _R["colours"])
NUM_COLOURS: int = len(COLOUR_LETTERS)                                 # 6
VALUE_TEXTS: tuple[str, ...] = tuple(_R["values"])                     # "2" .. "8", "X"
NUM_VALUES: int = len(VALUE_TEXTS)                                     # 8 (value index vi 0..7)
NUMERIC_VALUES: tuple[int, ...] = tuple(_R["numeric_values"])          # X adds 0 [VD-9]
X_INDEX: int = VALUE_TEXTS.index("X")                                  # 7
NUM_DISTRICTS: int = NUM_COLOURS * NUM_VALUES                          # 48
GRID: dict[int, int] = {int(k): v for k, v in _R["grid"].items()}      # N per player count
PLATFORMS: dict[int, int] = {int(k): v for k, v in _R["platforms"].items()}
CARDS_EACH: dict[int, int] = {int(k): v for k, v in _R["cards_each"].items()}
FIGURES_EACH: dict[int, int] = {int(k): v for k, v in _R["figures_each"].items()}
COINS_EACH: dict[int, int] = {n: h + _R["coins_over_cards"] for n, h in CARDS_EACH.items()}   # 11/13/10/8
GONDOLAS_EACH: int = _R["gondolas_each"]                               # 2
TOKENS_PER_COLOUR: int = _R["tokens_per_colour"]                       # 10
TWO_PLAYER_REMOVED_VALUES: tuple[int, ...] = tuple(VALUE_TEXTS.index(v) for v in _R["two_player_removed_values"])
TOKEN_VALUES: tuple[int, ...] = tuple(_R["token_values"])              # V(1), V(2), V(3), V(>=4)
X_MULTIPLIER: int = _R["x_multiplier"]                                 # 2
MAX_GRID: int = max(GRID.values())                                     # 8
MAX_FIGURES: int = max(FIGURES_EACH.values())                          # 4

assert sorted(GRID) == list(range(MIN_PLAYERS, MAX_PLAYERS + 1))
for _n in GRID:
    assert FIGURES_EACH[_n] <= MAX_FIGURES and GRID[_n] <= MAX_GRID


def token_value(surviving: int) -> int:
    """§7 item 1: the points of one token of a colour with `surviving` (>= 1) districts left."""
    return TOKEN_VALUES[min(surviving, len(TOKEN_VALUES)) - 1]
