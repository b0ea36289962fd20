"""Every number of Walking in Burano, as data: the rulebook's and the placeholder deck's.

Two files, each item with its citation of ../shared/rules/walking-in-burano.md (the spec):

- `rules.json` (`walking-in-burano-rules/1`): what the rulebook fixes or a decision picks (player
  counts, N = P + 1 market columns, 4 coins, the 6-coin cap, the hand limit 3, build costs 1/2/2
  [WD-4], 4 tokens [WD-5], 2 scaffolds, 5 houses, the round-30 guard [WD-20], the 11 character types
  with their copies per player count, the scoring tables). Loaded once into the constants below.
- `placeholder.json` (`walking-in-burano-data/1`): the 72 floor cards. The real card faces are lost
  pictures, so this is the spec's **placeholder deck PD-1** (§2.4, WD-1, WD-3): the game says so
  wherever it is shown (`CardData.placeholder`), and a transcription of the real cards replaces it
  through the game's `data` option (`load_data`), validated with a one-line `OptionError` naming the item.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from burano_ai.core import fields
from burano_ai.core.errors import OptionError
from burano_ai.core.fields import DataObject, FieldReader, read_rules
from burano_ai.core.options import read_data_file

HERE = Path(__file__).resolve().parent
RULES_FORMAT = "walking-in-burano-rules/1"
DATA_FORMAT = "walking-in-burano-data/1"


_R = read_rules(HERE / "rules.json", RULES_FORMAT)
MIN_PLAYERS: int = _R["min_players"]                   # §1
MAX_PLAYERS: int = _R["max_players"]
LEVELS: int = _R["levels"]                             # §1: L1, L2, L3
NUM_COLOURS: int = _R["colours"]                       # §2.3 [WD-2]
COPIES_PER_LEVEL_COLOUR: int = _R["copies_per_level_colour"]
CARDS_PER_LEVEL: int = NUM_COLOURS * COPIES_PER_LEVEL_COLOUR          # 24
NUM_CARDS: int = LEVELS * CARDS_PER_LEVEL                             # 72
MARKET_EXTRA_COLUMNS: int = _R["market_extra_columns"]                # §3 step 2: N = P + 1
MAX_COLUMNS: int = MAX_PLAYERS + MARKET_EXTRA_COLUMNS                 # 5
START_COINS: int = _R["start_coins"]                   # §3 step 5
COIN_CAP: int = _R["coin_cap"]                         # §8 [RU:102]
HAND_LIMIT: int = _R["hand_limit"]                     # §8 [RU:96]
CARDS_PER_ACQUIRE: int = _R["cards_per_acquire"]       # §5: coins gained = 3 - cards taken
MAX_PLACEMENTS: int = _R["max_placements"]             # §6.1
BUILD_COSTS: tuple[int, ...] = tuple(_R["build_costs"])                 # §6.1 [WD-4]
BUILD_COSTS_LITERAL: tuple[int, ...] = tuple(_R["build_costs_literal"])  # option literal_cost
BONUS_TOKENS: int = _R["bonus_tokens"]                 # §3 step 5 [WD-5]
TOKEN_VP: int = _R["token_vp"]                         # §11.1 C
SCAFFOLDS: int = _R["scaffolds"]                       # §3 step 5
MAX_HOUSES: int = _R["max_houses"]                     # §6.2 rule 4
ROUND_GUARD: int = _R["round_guard"]                   # §10 [WD-20]
CHARACTER_NAMES: tuple[str, ...] = tuple(c["name"] for c in _R["characters"])       # §2.5
NUM_CHARACTERS: int = len(CHARACTER_NAMES)                                          # 11
IS_TOURIST: tuple[bool, ...] = tuple(c["kind"] == "tourist" for c in _R["characters"])
CHARACTER_COPIES: dict[int, tuple[int, ...]] = {
    p: tuple(c["copies"][str(p)] for c in _R["characters"]) for p in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
BEGINNER_REMOVED: tuple[int, ...] = tuple(_R["beginner_removed"])                   # §13 [WD-26]
(WOMAN, MAN, GIRL, BOY, MAYOR, POLICE, SANTA, SHOPOWNER, SEAMSTRESS, FLORIST, GARDENER) = range(NUM_CHARACTERS)
TOURIST_BASE: int = _R["tourist_base"]                 # §11.2
WOMAN_PER_FLOWER: int = _R["woman_per_flower"]
MAN_PER_PLANT: int = _R["man_per_plant"]
GIRL_PER_CAT: int = _R["girl_per_cat"]
BOY_PER_SYMBOL: int = _R["boy_per_symbol"]             # [WD-11]
#: How the Boy counts (option boy_scoring): "literal" +2 per cat, curtain, lantern or chimney [WD-11]; the
#: spec's two alternatives, "distinct" +2 per symbol type present and "sets" +2 per complete set [WD-11, WD-32].
BOY_SCORINGS: tuple[str, ...] = ("literal", "distinct", "sets")
MAYOR_PER_PASSERBY: int = _R["mayor_per_passerby"]
POLICE_TABLE: tuple[int, ...] = tuple(_R["police_table"])               # [WD-12]
SANTA_PER_CHIMNEY: int = _R["santa_per_chimney"]
SHOPOWNER_TABLE: tuple[int, ...] = tuple(_R["shopowner_table"])         # [WD-13]
SEAMSTRESS_PER_PAIR: int = _R["seamstress_per_pair"]   # [WD-14]
FLORIST_WINDOW: int = _R["florist_window"]             # [WD-15]
#: Bounds of a loadable card file (the compiled core's fixed-size tables use them too).
MAX_SHOP_TYPES = 16
MAX_CURTAIN_KINDS = 8
MAX_CURTAINS_PER_CARD = 4
MAX_SYMBOLS = 9
SHOP_VPS = (2, 3)                                       # §2.1 [RU:185]


@dataclass(frozen=True)
class Card:
    """One floor card (§2.1): its level 1..3, colour 0..5 and symbols."""

    id: int
    level: int
    colour: int
    template: str
    passersby: int
    plants: int
    flowers: int
    cats: int
    curtains: tuple[int, ...]      # one curtain kind per curtain
    lanterns: int
    chimneys: int
    closed_windows: int
    shop_type: int                 # -1: no shop
    shop_vp: int                   # 0: no shop


@dataclass(frozen=True)
class CardData(DataObject):
    """The replaceable card data (one `walking-in-burano-data/1` file), validated.

    Attributes:
        name: the file's name for people; placeholder: True when the data is a stand-in (say so everywhere).
        colour_names: colour i's name [WD-2]; curtain_names: curtain kind i's name [WD-3].
        cards: the 72 cards by id (ids 24(level-1) .. 24 level - 1 are the cards of a level).
        source: the validated object, as it would be written back (`to_dict`).
    """

    name: str
    placeholder: bool
    colour_names: tuple[str, ...]
    curtain_names: tuple[str, ...]
    cards: tuple[Card, ...]
    source: Mapping[str, Any]

    @property
    def is_default(self) -> bool:
        """True for the built-in placeholder file's data."""
        return self == default_data()


def card_level(card: int) -> int:
    """The level 1..3 of card id `card` (ids are grouped by level, §2.4 numbering)."""
    return card // CARDS_PER_LEVEL + 1


#: The data file's items are read by these ("walking-in-burano data.<item>: ...", an `OptionError`).
_DATA = FieldReader("walking-in-burano data.", OptionError)
_fail, _value, _int = _DATA.fail, _DATA.item, _DATA.int


def _names(value: object, item: str, low: int, high: int) -> tuple[str, ...]:
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise _fail(item, f"expected {low}..{high} names, got {value!r:.60}")
    for i, name in enumerate(value):
        if not isinstance(name, str) or not 1 <= len(name) <= 12 or not name.isalpha() or not name.islower():
            raise _fail(f"{item}[{i}]", f"expected a lower-case name of 1..12 letters, got {name!r:.40}")
    if len(set(value)) != len(value):
        raise _fail(item, "a name appears twice")
    return tuple(value)


DATA_FIELDS = ("format", "name", "placeholder", "about", "colours", "curtain_kinds", "cards")
CARD_FIELDS = ("id", "level", "colour", "template", "passersby", "plants", "flowers", "cats", "curtains",
               "lanterns", "chimneys", "closed_windows", "shop")


def _card(raw: object, i: int, kinds: int) -> Card:
    item = f"cards[{i}]"
    if not isinstance(raw, dict):
        raise _fail(item, f"expected a card object, got {raw!r:.40}")
    unknown = [k for k in raw if k not in CARD_FIELDS]
    if unknown:
        raise _fail(f"{item}.{str(unknown[0])[:30]}", f"unknown field (fields: {', '.join(CARD_FIELDS)})")
    missing = [k for k in CARD_FIELDS if k not in raw and k != "template"]
    if missing:
        raise _fail(f"{item}.{missing[0]}", "missing")
    if _int(raw["id"], f"{item}.id", 0, NUM_CARDS - 1) != i:
        raise _fail(f"{item}.id", f"cards are listed by id: expected {i}, got {raw['id']}")
    level = _int(raw["level"], f"{item}.level", 1, LEVELS)
    if level != card_level(i):
        raise _fail(f"{item}.level", f"ids {CARDS_PER_LEVEL * (level - 1)}..{CARDS_PER_LEVEL * level - 1} are the "
                                     f"L{level} cards (§2.4): card {i} is L{card_level(i)}")
    colour = _int(raw["colour"], f"{item}.colour", 0, NUM_COLOURS - 1)
    template = raw.get("template", "")
    if not isinstance(template, str) or len(template) > 8:
        raise _fail(f"{item}.template", f"expected a short text, got {template!r:.40}")
    counts = {k: _int(raw[k], f"{item}.{k}", 0, MAX_SYMBOLS)
              for k in ("passersby", "plants", "flowers", "cats", "lanterns", "chimneys", "closed_windows")}
    curtains = raw["curtains"]
    if not isinstance(curtains, list) or len(curtains) > MAX_CURTAINS_PER_CARD:
        raise _fail(f"{item}.curtains", f"expected a list of at most {MAX_CURTAINS_PER_CARD} curtain kinds, "
                                        f"got {curtains!r:.40}")
    kinds_of = tuple(_int(k, f"{item}.curtains[{j}]", 0, kinds - 1) for j, k in enumerate(curtains))
    shop = raw["shop"]
    shop_type, shop_vp = -1, 0
    if shop is not None:
        if not isinstance(shop, dict) or sorted(shop) != ["type", "vp"]:
            raise _fail(f"{item}.shop", f"expected null or {{\"type\": t, \"vp\": 2 or 3}}, got {shop!r:.40}")
        if level != 1:
            raise _fail(f"{item}.shop", "shops are only on L1 cards (RU:150, RU:185)")
        shop_type = _int(shop["type"], f"{item}.shop.type", 0, MAX_SHOP_TYPES - 1)
        shop_vp = shop["vp"]
        if shop_vp not in SHOP_VPS or isinstance(shop_vp, bool):
            raise _fail(f"{item}.shop.vp", f"a shop is worth 2 or 3 VP (RU:185), not {shop_vp!r:.20}")
    return Card(id=i, level=level, colour=colour, template=template, curtains=kinds_of,
                shop_type=shop_type, shop_vp=shop_vp, **counts)


def data_from_dict(d: object) -> CardData:
    """Validate a `walking-in-burano-data/1` object and return its `CardData`.

    Raises:
        OptionError: one line naming the first wrong item (`walking-in-burano data.cards[7].shop: ...`).
    """
    name, placeholder = _DATA.data_head(d, DATA_FORMAT, DATA_FIELDS)
    colours = _names(_value(d, "colours"), "colours", NUM_COLOURS, NUM_COLOURS)
    kinds = _names(_value(d, "curtain_kinds"), "curtain_kinds", 1, MAX_CURTAIN_KINDS)
    raw_cards = _value(d, "cards")
    if not isinstance(raw_cards, list) or len(raw_cards) != NUM_CARDS:
        raise _fail("cards", f"expected the {NUM_CARDS} floor cards (§1), got "
                             f"{len(raw_cards) if isinstance(raw_cards, list) else type(raw_cards).__name__}")
    cards = tuple(_card(raw, i, len(kinds)) for i, raw in enumerate(raw_cards))
    for level in range(1, LEVELS + 1):
        for colour in range(NUM_COLOURS):
            n = sum(1 for c in cards if c.level == level and c.colour == colour)
            if n != COPIES_PER_LEVEL_COLOUR:
                raise _fail("cards", f"{n} L{level} {colours[colour]} cards; there are {COPIES_PER_LEVEL_COLOUR} "
                                     "of each level and colour (§1, RU:21-24)")
    return CardData(name=name, placeholder=placeholder, colour_names=colours, curtain_names=kinds,
                    cards=cards, source=json.loads(json.dumps(d)))


@functools.cache
def default_data() -> CardData:
    """The built-in placeholder deck PD-1 (`placeholder.json`)."""
    return data_from_dict(read_data_file(HERE / "placeholder.json", "walking-in-burano data placeholder.json"))


def load_data(source: object = None) -> CardData:
    """The card data of a game's `data` option: None (the built-in PD-1), a path to a
    `walking-in-burano-data/1` file, a data object (dict), or a `CardData` already validated.

    Raises:
        OptionError: the data is wrong (one line naming the file or the item).
    """
    return fields.load_data(source, CardData, "walking-in-burano data", default_data, data_from_dict)
