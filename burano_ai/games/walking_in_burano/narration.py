"""Walking in Burano in people's words: what each step changed, the result, each move, the notes.

Everything is read from position dicts (`State.to_dict`), so it works on either implementation. A
step's effects name who may read them: every change is public (§14) except the identity of a card
returned under a deck, which only its returner reads (the others learn its level).
"""

from __future__ import annotations

from typing import Any

from burano_ai.core.game import StepEffect
from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games.walking_in_burano import rules, scoring
from burano_ai.games.walking_in_burano.data import (
    CHARACTER_NAMES, IS_TOURIST, MAX_PLACEMENTS, CardData, card_level,
)
from burano_ai.games.walking_in_burano.position import Position, position_from_dict
from burano_ai.games.walking_in_burano.render import card_code

ORDINAL = ("1st", "2nd", "3rd")
CATEGORY_WORDS = (("characters", "characters"), ("shops", "shops"), ("tokens", "tokens"), ("windows", "closed windows"))


#: A card's symbols in words (`card_words`), singular and plural.
SYMBOL_WORDS = (("passersby", "passer-by", "passers-by"), ("plants", "plant", "plants"),
                ("flowers", "flower", "flowers"), ("cats", "cat", "cats"), ("lanterns", "lantern", "lanterns"),
                ("chimneys", "chimney", "chimneys"), ("closed_windows", "closed window", "closed windows"))


def card_words(data: CardData, card: int) -> str:
    """`17 (orange L1: 1 passer-by, 1 plant, 1 flower, 1 cat, shop 2 of 2 VP)`: its colour, level and what it
    shows, so a player need not look the template up."""
    c = data.cards[card]
    shows = [f"{getattr(c, field)} {one if getattr(c, field) == 1 else many}" for field, one, many in SYMBOL_WORDS
             if getattr(c, field)]
    if c.curtains:
        shows.append(f"{len(c.curtains)} curtain{'s' if len(c.curtains) > 1 else ''} "
                     f"({', '.join('ab'[k] if k < 2 else str(k) for k in c.curtains)})")
    if c.shop_type >= 0:
        shows.append(f"shop {c.shop_type} of {c.shop_vp} VP")
    return f"{card} ({data.colour_names[c.colour]} L{c.level}{': ' + ', '.join(shows) if shows else ''})"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _position(state) -> Position:
    return position_from_dict(state.to_dict())


def describe_move(state, action: int) -> str:
    """The move in people's words (`take the L1 and L2 cards of column 3: card 12 (...), +1 coin`)."""
    if state.is_chance_node():
        if state.chance_kind == rules.CHANCE_FIRST:
            return f"seat {SEAT_LETTERS[action]} starts"
        return f"card {card_words(_position(state).data, action)} is dealt to the market"
    pos = _position(state)
    data = pos.data
    p = pos.to_move
    seat = pos.seats[p]
    kind = rules.action_kind(action)
    if kind == "acquire":
        j, lo, hi = rules.decode_acquire(action)
        cards = [pos.market[lv - 1][j] for lv in range(lo, hi + 1) if pos.market[lv - 1][j] >= 0]
        coins = 3 - len(cards)
        gain = f", +{_plural(coins, 'coin')}" if coins else ""
        return f"take {', '.join(card_words(data, c) for c in cards)} from column {j + 1}{gain}"
    if kind == "none":
        return "the market is empty: take nothing"
    if kind == "place":
        card, t = rules.decode_place(action)
        level = card_level(card)
        cost = pos.builds_cost()[pos.placed]
        if t == rules.TARGET_LEFT or t == rules.TARGET_RIGHT:
            where = "to start the street" if not seat.street else \
                f"as a new {'left' if t == rules.TARGET_LEFT else 'right'} house"
            if level > 1:
                where += f" +{_plural(level - 1, 'scaffold')}"
        else:
            floors = seat.street[t].floors
            where = f"on house {t + 1}"
            if floors[level - 1] == -2:
                where += " for its scaffold"
            elif level == 3 and floors[1] == -1:
                where += " +1 scaffold"
        token = ", 1 token" if _breaks(pos, p, card, t) else ""
        return f"place {card_words(data, card)} {where}: {_plural(cost, 'coin')}{token}"
    if kind == "end":
        return f"end the build ({_plural(pos.placed, 'card')} placed)"
    if kind == "character":
        k = action - rules.CHARACTER0
        j = next(i for i, h in enumerate(seat.street) if h.pending)
        vp = scoring.character_vp(data, seat, j, k, pos.options.boy_scoring)
        what = "its house" if IS_TOURIST[k] else "the whole street"
        return f"the {CHARACTER_NAMES[k]} comes to house {j + 1} (scores {what}: {vp} VP now)"
    if kind == "return":
        card = action - rules.RETURN0
        return f"return {card_words(data, card)} under the L{card_level(card)} deck"
    return state.action_to_string(action)


def _breaks(pos: Position, p: int, card: int, t: int) -> bool:
    """§6.3 [WD-8] read off a position (the reference State has it as a method)."""
    street = pos.seats[p].street
    colour = pos.data.cards[card].colour
    if t == rules.TARGET_LEFT:
        own, nb = [], street[:1]
    elif t == rules.TARGET_RIGHT:
        own, nb = [], street[-1:]
    else:
        own, nb = [street[t]], street[max(0, t - 1):t] + street[t + 1:t + 2]
    if any(pos.data.cards[c].colour != colour for h in own for c in h.real_cards()):
        return True
    return any(pos.data.cards[c].colour == colour for h in nb for c in h.real_cards())


def move_notes(state) -> list[str]:
    """What the next placement costs, and why moves are missing."""
    if state.is_terminal() or state.is_chance_node():
        return []
    pos = _position(state)
    p = pos.to_move
    seat = pos.seats[p]
    notes = []
    if pos.phase == rules.PHASE_BUILD:
        if pos.placed >= MAX_PLACEMENTS:
            notes.append("3 cards placed this turn: no more placements")
        else:
            cost = pos.builds_cost()[pos.placed]
            notes.append(f"the {ORDINAL[pos.placed]} placement costs {_plural(cost, 'coin')} "
                         f"({_plural(seat.coins, 'coin')} held)")
            if seat.coins < cost:
                notes.append("not enough coins for another placement")
        if seat.tokens == 0:
            notes.append("no bonus token left: placements that break a colour rule are not allowed")
        notes.append(f"{_plural(seat.free_scaffolds(), 'free scaffold')}")
    if pos.phase == rules.PHASE_RETURN:
        notes.append(f"hand limit 3: return {len(seat.hand) - 3} more (in ascending card order)")
    if pos.phase == rules.PHASE_VISIT:
        owned = [CHARACTER_NAMES[h.character] for h in seat.street if h.character >= 0 and not IS_TOURIST[h.character]]
        if owned:
            notes.append(f"inhabitants already in the street (not again): {', '.join(owned)}")
    if pos.last_round:
        notes.append("this is the last round")
    return notes


def step_effects(before, after, action: int | None = None) -> list[StepEffect]:
    """Every coin, token, card and character change of a step with its reason, the end of the round,
    the final scoring per seat and category, and the result with its tie-break."""
    old, new = _position(before), _position(after)
    n = old.num_players
    effects: list[StepEffect] = []
    mover = old.to_move
    for p in range(n):
        a, b = old.seats[p], new.seats[p]
        who = SEAT_LETTERS[p]
        dc = b.coins - a.coins
        if dc:
            if old.phase == rules.PHASE_ACQUIRE:
                why = "for taking fewer than 3 cards"
            elif old.phase == rules.PHASE_BUILD and len(b.real_cards()) > len(a.real_cards()):
                why = f"the {ORDINAL[old.placed]} placement of the turn"
            else:
                why = "above the cap of 6, back to the bank"
            effects.append(StepEffect(f"{who} {dc:+d} coin{'s' if abs(dc) != 1 else ''} ({why})"))
        if b.tokens != a.tokens:
            effects.append(StepEffect(f"{who} {b.tokens - a.tokens:+d} bonus token (a colour rule broken)"))
        for j, h in enumerate(b.street):
            if old.phase == rules.PHASE_VISIT and h.character >= 0 and a.street[j].character < 0:
                effects.append(StepEffect(f"{who}: the {CHARACTER_NAMES[h.character]} under house {j + 1}"))
        if b.finished_houses() > a.finished_houses():
            effects.append(StepEffect(f"{who} finishes a house ({_plural(b.finished_houses(), 'finished house')})"))
        if b.free_scaffolds() != a.free_scaffolds():
            verb = "takes" if b.free_scaffolds() < a.free_scaffolds() else "frees"
            effects.append(StepEffect(f"{who} {verb} a scaffold ({_plural(b.free_scaffolds(), 'free scaffold')})"))
    # a return is told by its step alone: its mover reads the card (`describe_move`), the others its level
    if old.first_player >= 0 and new.first_player != old.first_player and new.first_player >= 0:
        effects.append(StepEffect(f"the first-player token passes to {SEAT_LETTERS[new.first_player]}"))
    if len(new.discard) > len(old.discard):
        gone = new.discard[len(old.discard):]
        effects.append(StepEffect("rightmost cards discarded: " + ", ".join(card_words(new.data, c) for c in gone)))
    if before.is_chance_node():      # a card dealt to the market: what it is and where it lies
        for r in range(3):
            for j, c in enumerate(new.market[r]):
                if c >= 0 and old.market[r][j] != c:
                    effects.append(StepEffect(f"card {card_words(new.data, c)} to the market, L{r + 1} column {j + 1}"))
    if new.round > old.round and new.phase != rules.PHASE_OVER:
        effects.append(StepEffect(f"round {old.round + 1} ends; round {new.round + 1} begins"))
    if new.last_round and not old.last_round:
        effects.append(StepEffect("a deck is empty: the next round is the last"))
    if new.phase == rules.PHASE_OVER and old.phase != rules.PHASE_OVER:
        effects += [StepEffect(line) for line in final_lines(new)]
    return effects


def _end_reason(pos: Position) -> str:
    from burano_ai.games.walking_in_burano.data import MAX_HOUSES, ROUND_GUARD
    if any(s.finished_houses() >= MAX_HOUSES for s in pos.seats):
        return "a street has 5 finished houses"
    if pos.last_round:
        return "the last round after a deck ran out is over"
    if pos.round == ROUND_GUARD - 1:
        return f"round {ROUND_GUARD} is over (the engine ends a game there)"
    return "the game is over"


def final_lines(pos: Position) -> list[str]:
    """The final scoring per seat and category, the Boy's rule in force (option boy_scoring, WD-11), then the
    result with the tie-break that decided it."""
    lines = [f"game over: {_end_reason(pos)}"]
    for p in range(pos.num_players):
        b = scoring.breakdown(pos, p)
        seat = pos.seats[p]
        chars = [f"{CHARACTER_NAMES[h.character]} "
                 f"{scoring.character_vp(pos.data, seat, j, h.character, pos.options.boy_scoring)}"
                 for j, h in enumerate(seat.street) if h.character >= 0]
        detail = f" ({', '.join(chars)})" if chars else ""
        parts = [f"characters {b['characters']}{detail}", f"shops {b['shops']}", f"tokens {b['tokens']}"]
        if not pos.options.no_window_penalty:
            parts.append(f"closed windows {b['windows']} ({_plural(scoring.closed_windows(pos.data, seat), 'window')})")
        lines.append(f"{SEAT_LETTERS[p]}: {' + '.join(parts)} = {sum(b.values())} VP")
    lines.append(f"Boy rule: 2 {scoring.BOY_RULE_WORDS[pos.options.boy_scoring]}")
    return lines + result_lines(pos)


def result_lines(pos: Position) -> list[str]:
    """The winners and the tie-break that decided (§12: coins, then cats; then a shared win, WD-24)."""
    keys = scoring.finishing_keys(pos)
    best = max(keys)
    winners = [p for p in range(pos.num_players) if keys[p] == best]
    names = " and ".join(SEAT_LETTERS[p] for p in winners)
    level = [p for p in range(pos.num_players) if keys[p][0] == best[0]]
    if len(winners) > 1:
        return [f"{names} share the win ({best[0]} VP, {_plural(best[1], 'coin')}, {_plural(best[2], 'cat')} each)"]
    if len(level) == 1:
        return [f"{names} wins with {best[0]} VP"]
    tied = " and ".join(SEAT_LETTERS[p] for p in level)
    same_coins = [p for p in level if keys[p][1] == best[1]]
    if len(same_coins) == 1:
        return [f"{tied} tie on {best[0]} VP; {names} wins on the first tie-break: more coins ({best[1]})"]
    return [f"{tied} tie on {best[0]} VP; {names} wins on the second tie-break: more cats in the street "
            f"({best[2]}; coins were equal)"]


def describe_result(state) -> list[str]:
    """The final scoring broken down and the result (nothing before the end)."""
    if not state.is_terminal():
        return []
    return final_lines(_position(state))
