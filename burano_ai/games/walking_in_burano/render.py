"""A Walking in Burano position as plain text for a terminal (fits 80 x 24 for 2-4 players).

Works from a position dict (`position_to_dict`: the full position or one seat's view), so it shows
exactly what its reader may see: another seat's pooled hand card is `L2?`. A card is written by its
id, colour letter and template (`48PR1`: card 48, pink, template R1 of the placeholder deck); `[S]`
is a scaffold, a house's character stands under it (`*` marks a house still waiting for one). A legend
follows the market: what each template on the board shows (`G2=W1P1F1C1$2/2`) and what the letters mean;
the moves' words and the narration say a card's symbols in words too. With 3-4 players the streets stand
two a row, and the board keeps to the 2-player board's 20 lines (80 x 24 leaves room for the last moves and
the choices): the legend comes first, headed by the placeholder mark (`PLACEHOLDER cards: G1=...`), and the
character stacks stand beside the market rows.
"""

from __future__ import annotations

from typing import Any

from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games.walking_in_burano.data import CardData, data_from_dict, default_data

PLACEHOLDER_LINE = "PLACEHOLDER deck PD-1: the real card faces are lost (spec §2.4, WD-1)"
SHORT_CHARACTER = {"woman": "Woman", "man": "Man", "girl": "Girl", "boy": "Boy", "mayor": "Mayor",
                   "police": "Police", "santa": "Santa", "shopowner": "Shops", "seamstress": "Seams",
                   "florist": "Flor", "gardener": "Gard"}
#: Still shorter, for the stacks line.
TINY_CHARACTER = {"woman": "Wom", "man": "Man", "girl": "Girl", "boy": "Boy", "mayor": "May", "police": "Pol",
                  "santa": "San", "shopowner": "Shop", "seamstress": "Seam", "florist": "Flor", "gardener": "Gard"}


def colour_letters(data: CardData) -> tuple[str, ...]:
    """One distinct upper-case letter per colour: the first letter of its name not taken before."""
    out: list[str] = []
    for name in data.colour_names:
        letter = next((ch.upper() for ch in name if ch.upper() not in out), "?")
        out.append(letter)
    return tuple(out)


def card_code(data: CardData, card: int) -> str:
    """`48PR1`: id, colour letter, template."""
    c = data.cards[card]
    return f"{card}{colour_letters(data)[c.colour]}{c.template}"


#: The symbols of a card in the legend (`symbols`), in the spec's letters (§2.1).
SYMBOLS_LEGEND = "W walker P plant F flower C cat K curtain L lantern H chimney X shut $ shop/VP"


def symbols(data: CardData, card: int) -> str:
    """What card `card` shows, in the legend's letters: `W1 P1 F1 C1 $2/2` (a shop of type 2 worth 2 VP)."""
    c = data.cards[card]
    parts = [f"{letter}{n}" for letter, n in (("W", c.passersby), ("P", c.plants), ("F", c.flowers), ("C", c.cats))
             if n]
    if c.curtains:
        parts.append("K" + "".join("ab"[k] if k < 2 else str(k) for k in c.curtains))
    parts += [f"{letter}{n}" for letter, n in (("L", c.lanterns), ("H", c.chimneys), ("X", c.closed_windows)) if n]
    if c.shop_type >= 0:
        parts.append(f"${c.shop_type}/{c.shop_vp}")
    return " ".join(parts) or "-"


def legend_lines(data: CardData, cards: list[int], width: int = 80, head: str = "cards:") -> list[str]:
    """What the cards on the board show, once per template (`G2 = W1 P1 F1 C1 $2/2`), after `head`, and the
    letters."""
    seen: dict[str, int] = {}
    for c in sorted(cards):
        seen.setdefault(data.cards[c].template or str(c), c)
    items = [f"{t}={symbols(data, c).replace(' ', '')}" for t, c in sorted(seen.items())]
    lines, line = [], head
    for item in items:
        if len(line) + 1 + len(item) > width:
            lines.append(line)
            line = "      " + item
        else:
            line += " " + item
    lines.append(line)
    return lines + [SYMBOLS_LEGEND]


def card_text(data: CardData, card: Any) -> str:
    if card is None:
        return "."
    if card == "S":
        return "[S]"
    if isinstance(card, str):
        return card
    return card_code(data, card)


def _data(pos: dict[str, Any]) -> CardData:
    return default_data() if pos.get("data") is None else data_from_dict(pos["data"])


def _character(house: dict[str, Any]) -> str:
    if house["character"]:
        return SHORT_CHARACTER[house["character"]]
    return "*" if house["pending"] else "-"


def render_lines(pos: dict[str, Any], width: int | None = None) -> list[str]:
    """The lines of the board (see the module docstring)."""
    data = _data(pos)
    n = pos["players"]
    lines = []
    who = f", {pos['to_move']} to move" if pos["to_move"] else ""
    last = " (last round)" if pos["last_round"] else ""
    view = f"  [view of {pos['view']}]" if pos["view"] else ""
    lines.append(f"Walking in Burano: round {pos['round']}{last}, {pos['phase']}{who}{view}")
    side_by_side = n > 2 and (width is None or width >= 80)
    cols = len(pos["market"][0])
    decks = pos["decks"]
    market = [" L{}    {}  L{}: {}+{}".format(r + 1, "".join(f"{card_text(data, c):<7}" for c in pos["market"][r]),
                                             r + 1, decks[r]["shuffled"], len(decks[r]["under"])) for r in (2, 1, 0)]
    stacks = [f"{TINY_CHARACTER[k]}{v}" for k, v in pos["characters"].items() if v]
    disc = [f"discard {len(pos['discard'])}"] if pos["discard"] else []
    header = "Market " + "".join(f"{j + 1:<7}" for j in range(cols))
    beside = _beside(market, stacks + disc, min(width or 80, 80), len(header) + 12) if side_by_side else None
    # what the cards show (the templates' symbols) and what the letters mean
    shown = [c for row in pos["market"] for c in row if isinstance(c, int)]
    shown += [c for s in pos["seats"] for c in s["hand"] if isinstance(c, int)]
    shown += [f for s in pos["seats"] for h in s["street"] for f in h["floors"] if isinstance(f, int)]
    if beside is None:
        if data.placeholder:
            lines.append(PLACEHOLDER_LINE)
        lines.append(header + "  deck: shuffled+under")
        lines += market
        lines.append(f"Stacks: {' '.join(stacks)}" + "".join(f"  {d}" for d in disc))
        lines += legend_lines(data, shown, min(width or 80, 80))
    else:       # the legend, headed by the placeholder mark, then the market with the stacks beside its rows
        column, rows = beside
        lines += legend_lines(data, shown, min(width or 80, 80), "PLACEHOLDER cards:" if data.placeholder else "cards:")
        lines.append(f"{header + '  deck+under':<{column}}characters left")
        lines += rows
    blocks = []
    for p, s in enumerate(pos["seats"]):
        mark = "*" if pos["first_player"] == SEAT_LETTERS[p] else " "
        hand = " ".join(card_text(data, c) for c in s["hand"]) or "-"
        head = f"{SEAT_LETTERS[p]}{mark} coins {s['coins']} tokens {s['tokens']} houses {len(s['street'])}"
        # two streets a row have 39 columns each: six cards in hand fit without the word
        in_hand = f" hand {hand}" if len(hand) <= 33 else f" {hand}"
        block = [head, in_hand] if side_by_side else [f"{head}  hand {hand}"]
        street = s["street"]
        for r in (2, 1, 0):
            block.append(f" L{r + 1} " + "".join(f"{card_text(data, h['floors'][r]):<7}" for h in street))
        block.append(" ch " + "".join(f"{_character(h):<7}" for h in street))
        blocks.append(block)
    groups = [blocks[i:i + 2] for i in range(0, n, 2)] if side_by_side else [[b] for b in blocks]
    for group in groups:
        for i in range(len(group[0])):
            if len(group) == 1:
                lines.append(group[0][i])
            else:
                lines.append(f"{group[0][i][:39]:<40}{group[1][i][:39]}".rstrip())
    lines = [line.rstrip() for line in lines]
    if width is not None:
        lines = [line[:width] for line in lines]
    return lines


def _beside(market: list[str], stacks: list[str], width: int, least: int) -> tuple[int, list[str]] | None:
    """The market rows with the character stacks wrapped beside them, and the column the stacks start at (at
    least `least`, past the header's words); None when the stacks need more than the rows' room."""
    column = max(least, *(len(line) for line in market)) + 2
    room = width - column
    wrapped: list[str] = []
    for word in stacks:
        if wrapped and len(wrapped[-1]) + 1 + len(word) <= room:
            wrapped[-1] += " " + word
        elif len(word) <= room:
            wrapped.append(word)
        else:
            return None
    if len(wrapped) > len(market):
        return None
    return column, [f"{line:<{column}}{extra}".rstrip() for line, extra in
                    zip(market, wrapped + [""] * (len(market) - len(wrapped)))]


def render(pos: dict[str, Any], width: int | None = None) -> str:
    """The board as text (`render_lines` joined)."""
    return "\n".join(render_lines(pos, width))
