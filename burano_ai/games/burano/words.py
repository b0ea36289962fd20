"""Burano in people's words: what a move does, what the next move costs, where a decision stands.

The move texts of `actions.action_to_str` (``roof 2 e3-g3``, ``privilege cube yellow@top``, ``done``)
are the canonical notation: records, scripts and the engine protocol use them, and every tool accepts
them forever. This module adds the words people read beside them, like SAN beside UCI in chess:
`describe_move` (``roof flat pink-orange from slot 2: pink on e3, orange on g3``), `move_notes` (what the
next move costs, and why moves are missing: ``take, build, roof: the second move of the turn costs 3
coins, you have 1 coin``) and `status_words` (``fishing at I2: 2 matches, 2 cards left to draw``).

Everything here reads the position dict of the seat to move (`State.to_dict(actor)`), so it never says
more than that seat sees.
"""

from __future__ import annotations

from typing import Any

from burano_ai.games.burano import actions, topology
from burano_ai.games.burano.data.buildings import BUILDING_CARDS
from burano_ai.games.burano.data.roofs import ROOF_PRIVILEGE_BONUS
from burano_ai.games.burano.data.turn import BUMP_COINS, MAX_MOVES, MOVE_COSTS, NO_MOVE_COINS, PREP_SLOTS, RECALL_COINS

_ORDINALS = ("first", "second", "third", "fourth")

#: How `done` reads in each phase: ending a sub-action is not ending the turn.
DONE_WORDS = {
    "turn": "end the turn",
    "fish-sail": "skip fishing",
    "port-trade": "leave the port without selling",
    "lace": "stop placing lace workers",
    "recall": "stop recalling workers",
    "privilege-reserve": "keep the rest of your privilege",
    "roof-discard": "keep your roof tiles",
}


def _coins(n: int) -> str:
    return f"{n} coin{'s' if n != 1 else ''}"


def _a(word: str) -> str:
    """`word` with its indefinite article: `a pink`, `an orange`."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _layout_square(d: dict[str, Any], sq: int) -> tuple[str, bool]:
    """(colour letter or '.', has a coin) of workshop square `sq` from the position's layout rows."""
    row, col = divmod(sq, 7)
    token = d["workshop_layout"][row].split()[col]
    return token[0], token.endswith("$")


_COLOUR_OF_LETTER = {"P": "pink", "B": "blue", "Y": "yellow", "G": "green", "O": "orange", "W": "white"}


def _seat_of_square(d: dict[str, Any], name: str) -> str | None:
    for seat in d["seats"]:
        if name in seat["workshop"]:
            return seat["seat"]
    return None


def _tile(tile: dict[str, Any] | None) -> str:
    if not tile:
        return "an empty slot"
    return f"the {tile['kind']} {'-'.join(tile['fields'])} tile"


def describe_move(state, action: int, position: dict[str, Any] | None = None) -> str:
    """The legal move `action` of `state` in people's words (chance outcomes keep their text).

    `position` is `state.to_dict(actor)` when the caller has it (describing many moves at once)."""
    text = actions.action_to_str(action)
    if state.is_chance_node() or state.is_terminal():
        return text
    d = position if position is not None else state.to_dict(state.current_player())
    me = d["seats"][SEAT_INDEX[d["actor"]]]
    ctx = d["context"]
    name, i = actions.decode(action)
    if name == "DONE":
        if d["phase"] == "turn" and ctx["moves"] == 0:
            return f"end the turn without a move: +{_coins(NO_MOVE_COINS)}"
        return DONE_WORDS.get(d["phase"], "done")
    if name == "TAKE":
        colour = me["pyramid"][i]
        return f"take the {colour} cube from pyramid {actions.PYRAMID_NAMES[i]}"
    if name == "BUILD":
        colour, hole = divmod(i, topology.NUM_HOLES)
        colour_name = actions.COLOURS[colour]
        hole_name = topology.HOLE_NAMES[hole]
        level = len(d["island"]["cubes"].get(hole_name, [])) + 1
        action_name = next((a for a, cols in d["markers"].items() if colour_name in cols), "?")
        return f"build {colour_name}@{hole_name}: level {level}, {action_name}"
    if name == "ROOF":
        slot = i // (topology.NUM_ROOF_LINES * 2)
        tile = me["roof_slots"][slot]
        a, b = text.split()[2].split("-")
        if not tile:
            return text
        f0, f1 = tile["fields"]
        return f"roof {tile['kind']} {f0}-{f1} from slot {slot + 1}: {f0} on {a}, {f1} on {b}"
    if name == "PRIV_COIN":
        return "spend 1 privilege for 1 coin"
    if name == "PRIV_CUBE":
        colour, pos = divmod(i, actions.PYRAMID_SIZE)
        return f"spend 1 privilege: {_a(actions.COLOURS[colour])} supply cube onto pyramid {actions.PYRAMID_NAMES[pos]}"
    if name == "PYRAMID":
        placed = sum(1 for c in me["pyramid"] if c is not None)
        where = actions.PYRAMID_NAMES[placed] if placed < len(actions.PYRAMID_NAMES) else "?"
        colour = actions.COLOURS[i]
        return f"place {'an' if colour[0] in 'aeiou' else 'a'} {colour} cube on pyramid {where}"
    if name == "SAIL":
        node = topology.ROUTE_NODE_NAMES[i]
        return f"sail to {node} and fish" if topology.NODE_ISLAND[i] >= 0 else f"sail to {node} and sell fish"
    if name == "GO":
        return f"fish at {ctx['sail_target']} now (no more dock swaps)"
    if name in ("SWAP_PICK", "SWAP_WITH"):
        island, colour = divmod(i, actions.NUM_COLOURS)
        dock = f"the {actions.COLOURS[colour]} dock of {topology.ISLAND_NAMES[island]}"
        return f"swap {dock} (1 privilege)..." if name == "SWAP_PICK" else f"...with {dock}"
    if name == "DRAW_DECK":
        return "draw a blind card from the fish deck"
    if name == "DRAW_DISPLAY":
        return f"take the {actions.SPECIES[i]} from the fish display"
    if name == "SEND":
        return f"send {i + 1} worker{'s' if i else ''} to {ctx['fish_island']}"
    if name == "SELL":
        vp = actions.SALES[i][2]
        return f"{text} for {vp} VP"
    if name in ("LACE", "LACE_PRIV"):
        sq = topology.SQUARE_NAMES[i]
        letter, coin = _layout_square(d, i)
        parts = [_COLOUR_OF_LETTER.get(letter, "?")]
        if coin:
            parts.append("+1 coin")
        other = _seat_of_square(d, sq)
        if other is not None:
            parts.append(f"bumps {other}: {other} +{_coins(BUMP_COINS)}")
        return f"{text}: {', '.join(parts)}" + (", spending 1 privilege" if name == "LACE_PRIV" else "")
    if name in ("RECALL_ISLAND", "RECALL_SQUARE"):
        where = topology.ISLAND_NAMES[i] if name == "RECALL_ISLAND" else topology.SQUARE_NAMES[i]
        return f"bring a worker home from {where} (+{_coins(RECALL_COINS)})"
    if name == "BONUS_PRIVILEGE":
        return f"roof bonus: {ROOF_PRIVILEGE_BONUS} privilege"
    if name == "BONUS_DISPLAY":
        return f"roof bonus: the building card {BUILDING_CARDS[i][0]}"
    if name == "BONUS_DECK":
        return "roof bonus: draw a building card from the deck"
    if name == "PAY":
        sq = ctx["pay_queue"][0] if ctx.get("pay_queue") else "?"
        option = actions.PAY_OPTIONS[i]
        return {"pyramid": f"pay for the lace on {sq} with a pyramid cube of its colour",
                "privilege": f"pay for the lace on {sq} with 1 privilege",
                "discount": f"pay for the lace on {sq} with the lace-discount card",
                "none": f"leave the lace on {sq} unpaid"}[option]
    if name == "REPLENISH":
        return f"take {_a(actions.COLOURS[i])} cube from the supply"
    if name == "PRIV_RESERVE":
        return f"spend 1 privilege: {_a(actions.COLOURS[i])} supply cube into your reserve"
    if name == "ROOF_DISCARD":
        return f"discard {_tile(me['roof_slots'][i])} (slot {i + 1})"
    if name == "ROOF_KIND":
        kind = text.split()[1]
        return f"draw {'an' if kind[0] in 'aeiou' else 'a'} {kind} roof tile"
    return text


SEAT_INDEX = {letter: i for i, letter in enumerate("ABCDEF")}


def describe_moves(state, legal: list[int]) -> list[str]:
    """`describe_move` of each of `legal` (one view read for all)."""
    if state.is_chance_node() or state.is_terminal():
        return [state.action_to_string(a) for a in legal]
    d = state.to_dict(state.current_player())
    return [describe_move(state, a, d) for a in legal]


def move_notes(state) -> list[str]:
    """What the next move costs, and why moves people may look for are missing, for the seat to move."""
    if state.is_chance_node() or state.is_terminal():
        return []
    d = state.to_dict(state.current_player())
    me = d["seats"][SEAT_INDEX[d["actor"]]]
    ctx = d["context"]
    notes = []
    if d["phase"] == "turn":
        moves, coins = ctx["moves"], me["coins"]
        if moves >= MAX_MOVES:
            notes.append(f"take, build, roof: no more moves this turn ({MAX_MOVES} at most)")
        else:
            cost = MOVE_COSTS[moves]
            nth = _ORDINALS[moves]
            if cost >= 0:
                notes.append(f"the {nth} move of the turn (take, build or roof) earns {_coins(cost)}; "
                             f"you have {_coins(coins)}")
            elif coins + cost < 0:
                notes.append(f"take, build, roof: the {nth} move of the turn needs {_coins(-cost)}, "
                             f"you have {_coins(coins)}")
            else:
                notes.append(f"the {nth} move of the turn (take, build or roof) costs {_coins(-cost)}; "
                             f"you have {_coins(coins)}")
            if sum(me["prep"].values()) >= PREP_SLOTS:
                notes.append(f"take: the preparation area is full ({PREP_SLOTS} cubes)")
        if me["privilege"] == 0:
            notes.append("privilege coin, privilege cube: you have no privilege")
    elif d["phase"] == "fish-sail":
        legal = {actions.action_to_str(a) for a in state.legal_actions()}
        boat = topology.ROUTE_NODE_NAMES.index(me["boat"]) if me["boat"] in topology.ROUTE_NODE_NAMES else None
        if boat is not None:
            reach = set(topology.ROUTE_STEP1[boat])
            if "long-voyage" in me["buildings"]:
                reach |= set(topology.ROUTE_STEP2[boat])
            for node in sorted(reach):
                name = topology.ROUTE_NODE_NAMES[node]
                if f"sail {name}" in legal:
                    continue
                if topology.NODE_ISLAND[node] < 0:
                    notes.append(f"sail {name}: no ship waits there")
                elif me["privilege"] == 0:
                    notes.append(f"sail {name}: none of its docks matches your arrows, and you have no "
                                 "privilege to swap one")
                else:
                    notes.append(f"sail {name}: none of its docks matches your arrows, even with "
                                 f"{me['privilege']} privilege of swaps")
    return notes


def status_words(d: dict[str, Any]) -> list[str]:
    """Where the pending decision stands, in words (the position's `context`): ``fishing at I2: 2
    matches, 2 cards left to draw``; [] when there is nothing pending."""
    ctx = d.get("context") or {}
    phase = d["phase"]
    out = []
    if ctx.get("sail_target"):
        out.append(f"sailing to {ctx['sail_target']}: dock swaps first (1 privilege each)"
                   + (f", swapping the dock {ctx['swap_pick']}" if ctx.get("swap_pick") else ""))
    if ctx.get("fish_island"):
        matches = ctx.get("fish_matches", 0)
        left = ctx.get("draws_left", 0)
        text = f"fishing at {ctx['fish_island']}: {matches} match{'es' if matches != 1 else ''}"
        if left:
            text += f", {left} card{'s' if left != 1 else ''} left to draw"
        out.append(text)
    if ctx.get("lace_allow"):
        allowed = ", ".join(f"{n} {c}" for c, n in ctx["lace_allow"].items())
        out.append(f"lace: may still place {allowed}")
    if ctx.get("pending_roof") is not None and phase == "roof-bonus":
        out.append("a roof was just placed: choose its bonus, then it scores")
    if ctx.get("pay_queue"):
        out.append(f"lace scoring: workers to pay for on {', '.join(ctx['pay_queue'])}"
                   + (f" (paid: {', '.join(ctx['paid'])})" if ctx.get("paid") else ""))
    if ctx.get("shortfall"):
        out.append(f"replenishing: {ctx['shortfall']} cube{'s' if ctx['shortfall'] != 1 else ''} short "
                   "of the covered colours: take others from the supply")
    if ctx.get("picks_left"):
        picked = ctx.get("kinds_picked") or []
        out.append(f"roof tiles: {ctx['picks_left']} left to draw"
                   + (f" (drawn: {', '.join(picked)})" if picked else ""))
    return out
