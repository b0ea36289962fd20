"""Venice 2099 test helpers: build a valid position from a few named squares, figures and cards."""

from __future__ import annotations

from burano_ai.games.venice_2099 import rules
from burano_ai.games.venice_2099.data import COINS_EACH, COLOUR_LETTERS, VALUE_TEXTS
from burano_ai.games.venice_2099.reference import Game
from burano_ai.games.venice_2099.rules import LOST, PHASE_BUY, PHASE_CARD, PHASE_MOVE, PLATFORM

PHASES = {"move": PHASE_MOVE, "buy": PHASE_BUY, "card": PHASE_CARD}


def d(text: str) -> int:
    """A district id from its text ("K5")."""
    return rules.district(COLOUR_LETTERS.index(text[0]), VALUE_TEXTS.index(text[1]))


def card(text: str, options=rules.DEFAULT_OPTIONS) -> int:
    return rules.card_of_district(d(text), options)


def sq(state, text: str) -> int:
    return rules.parse_square(text.upper(), state.n, text)


def build(n: int, cells: dict[str, str], figures: dict[int, list[str]], played: list[str] = (),
          hands: dict[int, list[str]] | None = None, phase: str = "move", coins_on: dict[str, int] | None = None,
          gondolas: dict[int, int] | None = None, coins: dict[int, int] | None = None, options=None,
          removed_colour: int = 5, check: bool = True):
    """A valid position after the placement: `cells` square -> "K5" or "==" (the other tiles in id
    order), `played` the cards played so far (seat i % n plays the i-th), `hands` some cards a seat
    holds (the rest of each hand: the highest unused cards), `figures` the squares of each seat's
    figures (other slots lost)."""
    game = Game(n, options)
    s = game.new_initial_state()
    if n == 2:
        s.removed_colour = removed_colour
        if s.options.treasure_supply:
            s.supply[removed_colour] = 0
    N = s.n
    used = set()
    for name, text in cells.items():
        t = PLATFORM if text == "==" else d(text)
        s.tiles[sq(s, name)] = t
        if t != PLATFORM:
            used.add(t)
    rest = [t for t in rules.districts_in_play(n, s.removed_colour) if t not in used]
    rest += [PLATFORM] * (s.platforms - sum(1 for t in s.tiles if t == PLATFORM))
    for i in range(N * N):
        if s.tiles[i] < 0:
            s.tiles[i] = rest.pop(0)
    for i, text in enumerate(played):
        k = card(text, s.options)
        s.played.append((i % n, k))
        s.water[s.tiles.index(rules.card_district(k, s.options))] = True
    taken = {k for _, k in s.played}
    hands = hands or {}
    for p in range(n):
        s.hands[p] = [card(t, s.options) for t in hands.get(p, [])]
        taken |= set(s.hands[p])
    for p in range(n):
        want = s.cards_each - sum(1 for q, _ in s.played if q == p)
        free = sorted((k for k in s.deck() if k not in taken), key=lambda k: -rules.card_vi(k, s.options))
        extra = free[:want - len(s.hands[p])]
        taken |= set(extra)
        s.hands[p] = sorted(s.hands[p] + extra)
    for p in range(n):
        squares = figures.get(p, [])
        s.figures[p] = [sq(s, x) for x in squares] + [LOST] * (s.figures_each - len(squares))
    for name, x in (coins_on or {}).items():
        s.coins_on[sq(s, name)] = x
    for p, g in (gondolas or {}).items():
        s.gondolas[p] = g
    for p, x in (coins or {}).items():
        s.coins[p] = x
    deficit = sum(s.coins) + sum(s.coins_on) - n * COINS_EACH[n]
    for p in reversed(range(n)):                            # the piles were paid by the unnamed seats
        if deficit > 0 and p not in (coins or {}):
            paid = min(deficit, s.coins[p])
            s.coins[p] -= paid
            deficit -= paid
    s.coins_sunk = -deficit
    s.phase = PHASES[phase]
    if check:
        s.check()
    return s
