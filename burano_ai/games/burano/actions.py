"""The global action space: integer action ids and readable move text, both ways.

Every decision of the game is one integer from one fixed range `[0, NUM_ACTIONS)`. A family of
actions occupies a contiguous block; within a block the id encodes its arguments. The text of an action
does not depend on the position, so `parse_action(action_to_str(a)) == a` for every id; whether the move
is legal is the state's business.

Families (player decisions, then chance outcomes):

=================  =========================================  ===================================
family             arguments                                  text
=================  =========================================  ===================================
DONE               -                                          ``done``
TAKE               pyramid position                           ``take b5`` / ``take m2`` / ``take top``
BUILD              colour, hole                               ``build pink@e5``
ROOF               slot, roof line, orientation               ``roof 2 c3-e3`` (tile field 1 on c3)
PRIV_COIN          -                                          ``privilege coin``
PRIV_CUBE          colour, pyramid position                   ``privilege cube pink@b5``
PYRAMID            colour (for the next pyramid position)     ``pyramid pink``
SAIL               route node                                 ``sail I2`` / ``sail PortL``
GO                 - (sail on to the chosen island)           ``go``
SWAP_PICK          island, dock colour (first dock of a swap) ``swap I1:pink``
SWAP_WITH          island, dock colour (its partner)          ``with I3:blue``
DRAW_DECK          -                                          ``draw deck``
DRAW_DISPLAY       species                                    ``draw tuna``
SEND               1 or 2 workers                             ``send 2``
SELL               ship and the exact cards (one row)         ``sell triples tuna,squid``
LACE               workshop square                            ``lace r1c3``
LACE_PRIV          workshop square, spending 1 privilege      ``lace r1c3 +privilege``
RECALL_ISLAND      island                                     ``recall I3``
RECALL_SQUARE      workshop square                            ``recall r1c3``
BONUS_PRIVILEGE    -                                          ``bonus privilege``
BONUS_DISPLAY      building card (from the display)           ``bonus monument``
BONUS_DECK         -                                          ``bonus deck``
PAY               pyramid / privilege / discount / none       ``pay pyramid``
REPLENISH          colour (instead of an exhausted one)       ``replenish pink``
PRIV_RESERVE       colour                                     ``privilege reserve pink``
ROOF_DISCARD       roof slot                                  ``discard roof 2``
ROOF_KIND          roof kind                                  ``pick fountains``
CH_FISH            species (chance)                           ``fish: tuna``
CH_BUILDING        building card (chance)                     ``building: monument``
CH_ROOF            colour pair (chance)                       ``roof tile: blue-pink``
CH_MARKERS         colour -> action mapping (chance)          ``markers: PB/YG/OW``
=================  =========================================  ===================================

A fishing trip to an island with privilege dock swaps (§4.3) reads ``sail I5``, then any number of
``swap I1:pink`` / ``with I5:orange`` pairs (a dock, then its partner on a later island: one privilege
each), then ``go``; the boat sails on by itself when privilege runs out [RD-26, RD-37].
"""

from __future__ import annotations

from itertools import combinations, permutations

from burano_ai.games.burano import topology
from burano_ai.games.burano.data.buildings import BUILDING_CARDS, NUM_BUILDINGS
from burano_ai.games.burano.data.colours import COLOUR_LETTERS, COLOURS, NUM_COLOURS
from burano_ai.games.burano.data.fish import NUM_SPECIES, SPECIES
from burano_ai.games.burano.data.roofs import NUM_ROOF_KINDS, ROOF_KINDS, ROOF_PAIRS, ROOF_SLOTS
from burano_ai.games.burano.data.route import NUM_ISLANDS
from burano_ai.games.burano.data.ships import DIFFERENT, IDENTICAL, PAIRS, SHIP_ROW_VP, SHIPS, TRIPLES
from burano_ai.games.burano.data.turn import ACTIONS, PYRAMID_SIZE
from burano_ai.games.burano.data.workshops import NUM_SQUARES
from burano_ai.core.arguments import check_action_id, int_text
from burano_ai.core.errors import IllegalMoveError

#: Pyramid positions: b1..b9 (3x3 base, row-major), m1..m4 (2x2 middle), top.
PYRAMID_NAMES = tuple([f"b{i + 1}" for i in range(9)] + [f"m{i + 1}" for i in range(4)] + ["top"])
#: Base cells (row, col) for each middle cell, and the middle cells resting on each base cell.
MIDDLE_SUPPORT = tuple(tuple((r + dr) * 3 + (c + dc) for dr in (0, 1) for dc in (0, 1))
                       for r in range(2) for c in range(2))
TOP = 13
PAY_OPTIONS = ("pyramid", "privilege", "discount", "none")
PAY_PYRAMID, PAY_PRIVILEGE, PAY_DISCOUNT, PAY_NONE = range(4)


def _sale_table() -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """Every sale a ship accepts: (ship, cards per species, VP), in a fixed order."""
    sales = []
    species = range(NUM_SPECIES)
    for size in range(1, 5):
        for subset in combinations(species, size):
            sales.append((DIFFERENT, tuple(1 if s in subset else 0 for s in species), SHIP_ROW_VP[DIFFERENT][size - 1]))
    for s in species:
        for n in range(1, 5):
            sales.append((IDENTICAL, tuple(n if t == s else 0 for t in species), SHIP_ROW_VP[IDENTICAL][n - 1]))
    for ship, per in ((PAIRS, 2), (TRIPLES, 3)):
        for size in range(1, len(SHIP_ROW_VP[ship]) + 1):
            for subset in combinations(species, size):
                sales.append((ship, tuple(per if s in subset else 0 for s in species), SHIP_ROW_VP[ship][size - 1]))
    return tuple(sales)


#: Sale id -> (ship, counts per species, VP).
SALES = _sale_table()
NUM_SALES = len(SALES)


def _marker_table() -> tuple[tuple[int, ...], ...]:
    """Every mapping colour -> action with two colours per action, in lexicographic order."""
    base = [a for a in range(len(ACTIONS)) for _ in range(2)]
    return tuple(sorted(set(permutations(base))))


#: Marker mapping id -> action of each colour.
MARKER_MAPPINGS = _marker_table()
NUM_MARKER_MAPPINGS = len(MARKER_MAPPINGS)
MARKER_MAPPING_ID = {m: i for i, m in enumerate(MARKER_MAPPINGS)}

# Block sizes, in id order.
_FAMILIES = (
    ("DONE", 1),
    ("TAKE", PYRAMID_SIZE),
    ("BUILD", NUM_COLOURS * topology.NUM_HOLES),
    ("ROOF", ROOF_SLOTS * topology.NUM_ROOF_LINES * 2),
    ("PRIV_COIN", 1),
    ("PRIV_CUBE", NUM_COLOURS * PYRAMID_SIZE),
    ("PYRAMID", NUM_COLOURS),
    ("SAIL", topology.NUM_ROUTE_NODES),
    ("GO", 1),
    ("SWAP_PICK", NUM_ISLANDS * NUM_COLOURS),
    ("SWAP_WITH", NUM_ISLANDS * NUM_COLOURS),
    ("DRAW_DECK", 1),
    ("DRAW_DISPLAY", NUM_SPECIES),
    ("SEND", 2),
    ("SELL", NUM_SALES),
    ("LACE", NUM_SQUARES),
    ("LACE_PRIV", NUM_SQUARES),
    ("RECALL_ISLAND", NUM_ISLANDS),
    ("RECALL_SQUARE", NUM_SQUARES),
    ("BONUS_PRIVILEGE", 1),
    ("BONUS_DISPLAY", NUM_BUILDINGS),
    ("BONUS_DECK", 1),
    ("PAY", len(PAY_OPTIONS)),
    ("REPLENISH", NUM_COLOURS),
    ("PRIV_RESERVE", NUM_COLOURS),
    ("ROOF_DISCARD", ROOF_SLOTS),
    ("ROOF_KIND", NUM_ROOF_KINDS),
    ("CH_FISH", NUM_SPECIES),
    ("CH_BUILDING", NUM_BUILDINGS),
    ("CH_ROOF", len(ROOF_PAIRS)),
    ("CH_MARKERS", NUM_MARKER_MAPPINGS),
)
OFFSET: dict[str, int] = {}
_next = 0
for _name, _size in _FAMILIES:
    OFFSET[_name] = _next
    _next += _size
NUM_ACTIONS = _next
SIZE = dict(_FAMILIES)

DONE = OFFSET["DONE"]
TAKE = OFFSET["TAKE"]
BUILD = OFFSET["BUILD"]
ROOF = OFFSET["ROOF"]
PRIV_COIN = OFFSET["PRIV_COIN"]
PRIV_CUBE = OFFSET["PRIV_CUBE"]
PYRAMID = OFFSET["PYRAMID"]
SAIL = OFFSET["SAIL"]
GO = OFFSET["GO"]
SWAP_PICK = OFFSET["SWAP_PICK"]
SWAP_WITH = OFFSET["SWAP_WITH"]
DRAW_DECK = OFFSET["DRAW_DECK"]
DRAW_DISPLAY = OFFSET["DRAW_DISPLAY"]
SEND = OFFSET["SEND"]
SELL = OFFSET["SELL"]
LACE = OFFSET["LACE"]
LACE_PRIV = OFFSET["LACE_PRIV"]
RECALL_ISLAND = OFFSET["RECALL_ISLAND"]
RECALL_SQUARE = OFFSET["RECALL_SQUARE"]
BONUS_PRIVILEGE = OFFSET["BONUS_PRIVILEGE"]
BONUS_DISPLAY = OFFSET["BONUS_DISPLAY"]
BONUS_DECK = OFFSET["BONUS_DECK"]
PAY = OFFSET["PAY"]
REPLENISH = OFFSET["REPLENISH"]
PRIV_RESERVE = OFFSET["PRIV_RESERVE"]
ROOF_DISCARD = OFFSET["ROOF_DISCARD"]
ROOF_KIND = OFFSET["ROOF_KIND"]
CH_FISH = OFFSET["CH_FISH"]
CH_BUILDING = OFFSET["CH_BUILDING"]
CH_ROOF = OFFSET["CH_ROOF"]
CH_MARKERS = OFFSET["CH_MARKERS"]
#: Chance outcomes are the ids from here on.
FIRST_CHANCE_ACTION = CH_FISH

# ------------------------------------------------------------------------------------------------
# Encoders (the rules code uses these instead of offset arithmetic)


def build_action(colour: int, hole: int) -> int:
    return BUILD + colour * topology.NUM_HOLES + hole


def roof_action(slot: int, line: int, flipped: bool) -> int:
    return ROOF + (slot * topology.NUM_ROOF_LINES + line) * 2 + int(flipped)


def priv_cube_action(colour: int, position: int) -> int:
    return PRIV_CUBE + colour * PYRAMID_SIZE + position


def dock_index(island: int, colour: int) -> int:
    """A dock as one int, island * NUM_COLOURS + colour: the index of its SWAP_PICK / SWAP_WITH action
    and the position format's pending pick (`Position.swap_pick`)."""
    return island * NUM_COLOURS + colour


def action_id(action: object) -> int:
    """Return `action` as an action id: an int, or an integer type such as numpy's (`operator.index`).

    Raises:
        TypeError: `action` is a bool, a float, a str or anything else that is not an integer.
        IllegalMoveError: an int so large that no game has such an id (`core.arguments.check_action_id`).
    """
    return check_action_id(action)


def illegal_action_error(action: int, text: str | None, phase: str, chance_kind: str | None, where: str,
                         offered: list[int] | None) -> IllegalMoveError:
    """The error for an action that cannot be applied here (both implementations word it alike).

    Args:
        action: the action id.
        text: the move as the caller wrote it (`play`), or None for its canonical text.
        phase: the phase name (`enums.PHASE_NAMES`).
        chance_kind: the chance kind name at a chance node, else None.
        where: the round or stage (``spring round 2``).
        offered: the legal actions or chance outcomes here; None when the game is over.
    """
    if chance_kind is not None:
        phase = f"{phase} ({chance_kind})"
    if not 0 <= action < NUM_ACTIONS:
        return IllegalMoveError(f"illegal action id {int_text(action)} in phase {phase}: ids are 0..{NUM_ACTIONS - 1}")
    if text is None:
        text = action_to_str(action)
    head = f"illegal move '{text}' in phase {phase}"
    if offered is None:
        return IllegalMoveError(f"{head}: the game is over")
    if chance_kind is not None:
        listed = "offered"
        reason = ("not an outcome offered here" if action >= FIRST_CHANCE_ACTION
                  else "a player's move, but this is a chance node")
    else:
        listed = "legal here"
        reason = ("a chance outcome, but this is a player's decision" if action >= FIRST_CHANCE_ACTION
                  else "not legal here")
    return IllegalMoveError(f"{head} ({where}): {reason}; {listed}: "
                            + (", ".join(action_to_str(a) for a in offered[:12]) or "nothing")
                            + (" ..." if len(offered) > 12 else ""))


def family(action: int) -> str:
    """Return the family name of an action id.

    Raises:
        TypeError: `action` is not an int (`action_id`).
        IllegalMoveError: `action` is outside ``0..NUM_ACTIONS - 1``.
    """
    action = action_id(action)
    if not 0 <= action < NUM_ACTIONS:
        raise IllegalMoveError(f"action id {action} is outside 0..{NUM_ACTIONS - 1}")
    best = "DONE"
    for name, _ in _FAMILIES:
        if OFFSET[name] <= action:
            best = name
    return best


def decode(action: int) -> tuple[str, int]:
    """Return (family, index within the family) of an action id."""
    name = family(action)
    return name, action - OFFSET[name]


# ------------------------------------------------------------------------------------------------
# Text


def _sale_to_str(sale: int) -> str:
    ship, counts, _ = SALES[sale]
    names = [SPECIES[s] for s in range(NUM_SPECIES) if counts[s]]
    if ship == IDENTICAL:
        return f"sell identical {names[0]} x{max(counts)}"
    return f"sell {SHIPS[ship]} {','.join(names)}"


_SALE_ID = {_sale_to_str(i): i for i in range(NUM_SALES)}


def markers_to_str(mapping: tuple[int, ...]) -> str:
    """Return a marker mapping as `PB/YG/OW`: the colours on fishing / lace / earning."""
    return "/".join("".join(COLOUR_LETTERS[c] for c in range(NUM_COLOURS) if mapping[c] == a)
                    for a in range(len(ACTIONS)))


def action_to_str(action: int) -> str:
    """Return the readable text of an action id."""
    name, i = decode(action)
    holes, lines = topology.NUM_HOLES, topology.NUM_ROOF_LINES
    if name == "DONE":
        return "done"
    if name == "TAKE":
        return f"take {PYRAMID_NAMES[i]}"
    if name == "BUILD":
        return f"build {COLOURS[i // holes]}@{topology.HOLE_NAMES[i % holes]}"
    if name == "ROOF":
        slot, rest = divmod(i, lines * 2)
        line, flipped = divmod(rest, 2)
        a, b, _ = topology.ROOF_LINES[line]
        if flipped:
            a, b = b, a
        return f"roof {slot + 1} {topology.HOLE_NAMES[a]}-{topology.HOLE_NAMES[b]}"
    if name == "PRIV_COIN":
        return "privilege coin"
    if name == "PRIV_CUBE":
        return f"privilege cube {COLOURS[i // PYRAMID_SIZE]}@{PYRAMID_NAMES[i % PYRAMID_SIZE]}"
    if name == "PYRAMID":
        return f"pyramid {COLOURS[i]}"
    if name == "SAIL":
        return f"sail {topology.ROUTE_NODE_NAMES[i]}"
    if name == "GO":
        return "go"
    if name in ("SWAP_PICK", "SWAP_WITH"):
        island, colour = divmod(i, NUM_COLOURS)
        verb = "swap" if name == "SWAP_PICK" else "with"
        return f"{verb} {topology.ISLAND_NAMES[island]}:{COLOURS[colour]}"
    if name == "DRAW_DECK":
        return "draw deck"
    if name == "DRAW_DISPLAY":
        return f"draw {SPECIES[i]}"
    if name == "SEND":
        return f"send {i + 1}"
    if name == "SELL":
        return _sale_to_str(i)
    if name == "LACE":
        return f"lace {topology.SQUARE_NAMES[i]}"
    if name == "LACE_PRIV":
        return f"lace {topology.SQUARE_NAMES[i]} +privilege"
    if name == "RECALL_ISLAND":
        return f"recall {topology.ISLAND_NAMES[i]}"
    if name == "RECALL_SQUARE":
        return f"recall {topology.SQUARE_NAMES[i]}"
    if name == "BONUS_PRIVILEGE":
        return "bonus privilege"
    if name == "BONUS_DISPLAY":
        return f"bonus {BUILDING_CARDS[i][0]}"
    if name == "BONUS_DECK":
        return "bonus deck"
    if name == "PAY":
        return f"pay {PAY_OPTIONS[i]}"
    if name == "REPLENISH":
        return f"replenish {COLOURS[i]}"
    if name == "PRIV_RESERVE":
        return f"privilege reserve {COLOURS[i]}"
    if name == "ROOF_DISCARD":
        return f"discard roof {i + 1}"
    if name == "ROOF_KIND":
        return f"pick {ROOF_KINDS[i]}"
    if name == "CH_FISH":
        return f"fish: {SPECIES[i]}"
    if name == "CH_BUILDING":
        return f"building: {BUILDING_CARDS[i][0]}"
    if name == "CH_ROOF":
        a, b = ROOF_PAIRS[i]
        return f"roof tile: {COLOURS[a]}-{COLOURS[b]}"
    assert name == "CH_MARKERS"
    return f"markers: {markers_to_str(MARKER_MAPPINGS[i])}"


def _build_text_table() -> dict[str, int]:
    table = {}
    for a in range(NUM_ACTIONS):
        text = action_to_str(a).lower()
        assert text not in table, f"duplicate action text {text!r}"
        table[text] = a
    return table


_TEXT_TO_ACTION = _build_text_table()


def _normalise(text: str) -> str:
    return " ".join(text.strip().lower().replace(" @ ", "@").split())


def parse_action(text: str) -> int:
    """Return the action id for a move text (case and spacing are forgiven).

    Raises:
        TypeError: `text` is not a str.
        IllegalMoveError: the text names no action.
    """
    if not isinstance(text, str):
        raise TypeError(f"move text must be a str, not {type(text).__name__} ({text!r}); "
                        f"apply_action takes action ids")
    key = _normalise(text)
    if key in _TEXT_TO_ACTION:
        return _TEXT_TO_ACTION[key]
    raise IllegalMoveError(f"cannot parse move '{text.strip()}' (examples: 'take top', 'build pink@e5', "
                           f"'sail I2', 'draw deck', 'lace r1c3', 'roof 2 c3-e3', 'done')")
