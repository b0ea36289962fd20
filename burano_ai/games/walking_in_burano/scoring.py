"""Final scoring (spec §11, §12) of a `position.Position`: every formula of §11.2 with its decision id.

Pure functions of a position's streets, coins and tokens, so the reference model, the narration and
the greedy bot share one definition (a compiled State is scored through its `to_dict` position).
"""

from __future__ import annotations

from burano_ai.games.walking_in_burano.data import (
    BOY, BOY_PER_SYMBOL, FLORIST, FLORIST_WINDOW, GARDENER, GIRL, GIRL_PER_CAT, LEVELS, MAN, MAN_PER_PLANT, MAYOR,
    MAYOR_PER_PASSERBY, POLICE, POLICE_TABLE, SANTA, SANTA_PER_CHIMNEY, SEAMSTRESS, SEAMSTRESS_PER_PAIR, SHOPOWNER,
    SHOPOWNER_TABLE, TOKEN_VP, TOURIST_BASE, WOMAN, WOMAN_PER_FLOWER, Card, CardData,
)
from burano_ai.games.walking_in_burano.position import Position, Seat


def _cards(data: CardData, ids: list[int]) -> list[Card]:
    return [data.cards[c] for c in ids]


def floor_card(data: CardData, seat: Seat, house: int, level: int) -> Card | None:
    """The real card at (house, level 1..3), if any."""
    f = seat.street[house].floors[level - 1]
    return data.cards[f] if f >= 0 else None


def boy_symbols(cards: list[Card], boy_scoring: str = "literal") -> int:
    """What the Boy counts in its house's cards, 2 VP each: "literal" every cat, curtain, lantern and
    chimney [WD-11, RU:143]; "distinct" each of those 4 symbol types present at least once; "sets" each
    complete set of one cat, one curtain (any kind), one lantern and one chimney [WD-11's alternatives,
    WD-32]."""
    counts = (sum(c.cats for c in cards), sum(len(c.curtains) for c in cards), sum(c.lanterns for c in cards),
              sum(c.chimneys for c in cards))
    if boy_scoring == "distinct":
        return sum(1 for n in counts if n > 0)
    if boy_scoring == "sets":
        return min(counts)
    return sum(counts)


#: The Boy's rule in words, per `data.BOY_SCORINGS` (the narration names the one in force).
BOY_RULE_WORDS = {"literal": "+2 per cat, curtain, lantern or chimney in its house",
                  "distinct": "+2 per symbol type (cat, curtain, lantern, chimney) present in its house "
                              "(option boy_scoring=distinct)",
                  "sets": "+2 per complete set of a cat, a curtain, a lantern and a chimney in its house "
                          "(option boy_scoring=sets)"}


def tourist_vp(data: CardData, seat: Seat, house: int, kind: int, boy_scoring: str = "literal") -> int:
    """§11.2: a tourist scores the symbols of its own house [WD-9]; the Boy by `boy_scoring` (`boy_symbols`)."""
    cards = _cards(data, seat.street[house].real_cards())
    if kind == WOMAN:
        return TOURIST_BASE + WOMAN_PER_FLOWER * sum(c.flowers for c in cards)
    if kind == MAN:
        return TOURIST_BASE + MAN_PER_PLANT * sum(c.plants for c in cards)
    if kind == GIRL:
        return TOURIST_BASE + GIRL_PER_CAT * sum(c.cats for c in cards)
    return TOURIST_BASE + BOY_PER_SYMBOL * boy_symbols(cards, boy_scoring)


def police_vp(data: CardData, seat: Seat) -> int:
    """[WD-12] L2 cards with a lantern; the largest set of them in no two adjacent houses, capped at 3."""
    m, last = 0, -2
    for j in range(len(seat.street)):
        c = floor_card(data, seat, j, 2)
        if c is not None and c.lanterns >= 1 and j > last + 1:      # greedy left to right
            m, last = m + 1, j
    return POLICE_TABLE[min(m, len(POLICE_TABLE) - 1)]


def shopowner_vp(data: CardData, seat: Seat) -> int:
    """[WD-13] distinct shop types on L1 cards; 4 or more -> the top of the table."""
    types = {c.shop_type for j in range(len(seat.street)) if (c := floor_card(data, seat, j, 1)) and c.shop_type >= 0}
    return SHOPOWNER_TABLE[min(len(types), len(SHOPOWNER_TABLE) - 1)]


def seamstress_vp(data: CardData, seat: Seat) -> int:
    """[WD-14] the most disjoint pairs of two different curtain kinds, on all floors."""
    counts: dict[int, int] = {}
    for c in _cards(data, seat.real_cards()):
        for k in c.curtains:
            counts[k] = counts.get(k, 0) + 1
    total = sum(counts.values())
    most = max(counts.values(), default=0)
    return SEAMSTRESS_PER_PAIR * min(total // 2, total - most)


def window_vp(data: CardData, seat: Seat, symbol: str) -> int:
    """[WD-15] Florist (flowers) / Gardener (plants): the best 3 consecutive houses of one level;
    with fewer than 3 houses the whole row; empty slots count 0."""
    n = len(seat.street)
    best = 0
    for level in range(1, LEVELS + 1):
        row = [getattr(c, symbol) if (c := floor_card(data, seat, j, level)) else 0 for j in range(n)]
        for s in range(max(0, n - FLORIST_WINDOW) + 1):
            best = max(best, sum(row[s:s + FLORIST_WINDOW]))
    return best


def inhabitant_vp(data: CardData, seat: Seat, kind: int) -> int:
    """§11.2: an inhabitant scores the whole street [WD-9], unfinished houses included [WD-10]."""
    if kind == MAYOR:
        return MAYOR_PER_PASSERBY * sum(c.passersby for j in range(len(seat.street))
                                        if (c := floor_card(data, seat, j, 1)))
    if kind == POLICE:
        return police_vp(data, seat)
    if kind == SANTA:
        return SANTA_PER_CHIMNEY * sum(c.chimneys for j in range(len(seat.street))
                                       if (c := floor_card(data, seat, j, 3)))
    if kind == SHOPOWNER:
        return shopowner_vp(data, seat)
    if kind == SEAMSTRESS:
        return seamstress_vp(data, seat)
    if kind == FLORIST:
        return window_vp(data, seat, "flowers")
    assert kind == GARDENER
    return window_vp(data, seat, "plants")


def character_vp(data: CardData, seat: Seat, house: int, kind: int, boy_scoring: str = "literal") -> int:
    """The VP of a character of type `kind` under `house` (§11.2; the Boy by `boy_scoring`)."""
    return tourist_vp(data, seat, house, kind, boy_scoring) if kind <= BOY else inhabitant_vp(data, seat, kind)


def closed_windows(data: CardData, seat: Seat) -> int:
    """X_p: closed windows on all real cards of the street [WD-10]."""
    return sum(c.closed_windows for c in _cards(data, seat.real_cards()))


def cats(data: CardData, seat: Seat) -> int:
    """Cats on all real cards of the street: the second tie-break (§12, WD-10)."""
    return sum(c.cats for c in _cards(data, seat.real_cards()))


def breakdown(pos: Position, p: int) -> dict[str, int]:
    """Seat p's final scoring as the street stands (§11.1): characters (A), shops (B), tokens (C),
    closed windows (-D: only the players with the most lose, none without windows, none in the
    no-window-penalty variant)."""
    data, seat = pos.data, pos.seats[p]
    a = sum(character_vp(data, seat, j, h.character, pos.options.boy_scoring)
            for j, h in enumerate(seat.street) if h.character >= 0)
    b = sum(c.shop_vp for j in range(len(seat.street)) if (c := floor_card(data, seat, j, 1)))
    c = TOKEN_VP * seat.tokens
    d = 0
    if not pos.options.no_window_penalty:
        xs = [closed_windows(data, s) for s in pos.seats]
        if xs[p] and xs[p] == max(xs):
            d = xs[p]
    return {"characters": a, "shops": b, "tokens": c, "windows": -d}


def totals(pos: Position) -> list[int]:
    """Each seat's A + B + C - D (§11.1)."""
    return [sum(breakdown(pos, p).values()) for p in range(pos.num_players)]


def finishing_keys(pos: Position) -> list[tuple[int, int, int]]:
    """§12: total, then coins (value), then cats on the street; equal keys share the win [WD-24]."""
    t = totals(pos)
    return [(t[p], pos.seats[p].coins, cats(pos.data, pos.seats[p])) for p in range(pos.num_players)]
