"""What a step of Burano changed, in words: every VP and coin gained or paid, and why (`step_effects`).

The compiled core only keeps totals; the readable reference model (`reference.State`) changes VP and
coins in one small method per rule. `_Ledger` is that model with each of those methods wrapped: on the
way in it names the reason (with what the rule reads: the roof's kind and majorities, the islands won,
the workers paid), on the way out it books the VP and coin changes since the last booking to that
reason, so a nested rule (a season's end inside the last `done`) books its own share. The step is
replayed on a ledger built from the full position before it; its result is checked against the
compiled state after it, and where they differ (never, in the tests) the effects fall back to the bare
VP and coin changes.

Everything told here is public in Burano (VP, coins, privilege, cubes, workers, sales and the cards in
a hand are counted openly; only which blind fish cards a seat holds and the pyramids being built are
hidden, rules spec §1), so every effect is readable by every seat. The step's own text (a blind draw
named or not) is `spec.narrate_step`'s.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable

from burano_ai.core.game import StepEffect
from burano_ai.core.people import ledger_entries
from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games.burano import actions, topology
from burano_ai.games.burano.data import buildings
from burano_ai.games.burano.data.fish import HAND_CARD_VP
from burano_ai.games.burano.data.ring import COIN, FOUNTAIN
from burano_ai.games.burano.data.roofs import (
    FLAT, FOUNTAINS, ISLAND_MAJORITY, ROOF_KINDS, ROOF_PAIRS, WORKSHOP_MAJORITY)
from burano_ai.games.burano.data.turn import COINS_PER_VP, LACE_PAID_VP, SEASONS, UNION_BONUS
from burano_ai.games.burano.position import Position
from burano_ai.games.burano.reference.game import Game as ReferenceGame
from burano_ai.games.burano.reference.state import State as ReferenceState

_ORDINALS = ("first", "second", "third", "fourth")


@dataclass
class Entry:
    """One booking: seat `seat` gained (or paid, negative) `vp` and `coins` because of `reason`.

    `group` is "final" for the end-of-game scoring (told one line per seat), else "". `category` is the
    scoring category of its VP, as the end's score table heads it (`CATEGORIES`).
    """

    seat: int
    vp: int
    coins: int
    reason: str
    group: str = ""
    category: str = "other"


def amounts(vp: int, coins: int) -> str:
    """`+5 VP, -3 coins`: the non-zero changes, signed."""
    parts = []
    if vp:
        parts.append(f"{vp:+d} VP")
    if coins:
        parts.append(f"{coins:+d} coin" + ("" if abs(coins) == 1 else "s"))
    return ", ".join(parts)


# -- the reasons, named on the way into each rule (state -> seat -> words)

Reason = Callable[[int], str]


def _actor_only(text: str) -> Callable[[Any], Reason]:
    return lambda s, *_: (lambda p: text)


def _move_cost(s, *_) -> Reason:
    nth = _ORDINALS[s.moves] if s.moves < len(_ORDINALS) else f"{s.moves + 1}th"
    return lambda p: f"{nth} move of the turn"


def _earning(s, *_) -> Reason:
    n = s.visible_symbols(s.actor, COIN)
    return lambda p: f"earning: {n} coin symbol{'s' if n != 1 else ''} on the ring"


def _bumped_island(s, *_) -> Reason:
    island = topology.ISLAND_NAMES[s.fish_island]
    return lambda p: f"worker bumped from {island}"


def _lace(s, sq: int) -> Reason:
    square = topology.SQUARE_NAMES[sq]
    actor = s.actor
    return lambda p: f"lace on the coin square {square}" if p == actor else f"worker bumped from {square}"


def _sale(s, sale: int) -> Reason:
    text = actions.action_to_str(actions.SELL + sale)
    return lambda p: f"sale: {text.removeprefix('sell ')}"


def _empty_draws(s, *_) -> Reason:
    n = s.draws_left
    return lambda p: f"the fish cards ran out: {n} draw{'s' if n != 1 else ''} scored"


def _roof(s, *_) -> Reason:
    p = s.actor
    _, _, kind, pair, _ = s.roofs[s.pending_roof]
    if kind == ISLAND_MAJORITY:
        n = s.island_majorities(p)
        why = f"{n} island majorit{'ies' if n != 1 else 'y'}"
    elif kind == WORKSHOP_MAJORITY:
        n = s.workshop_majorities(p)
        why = f"{n} workshop majorit{'ies' if n != 1 else 'y'}"
    elif kind == FOUNTAINS:
        n = s.visible_symbols(p, FOUNTAIN)
        why = f"{n} fountain{'s' if n != 1 else ''} on the ring"
    else:
        assert kind == FLAT
        why = ""
    cards = [buildings.BUILDING_CARDS[c][0] for c in s.players[p].buildings
             if buildings.BUILDING_CARDS[c][1] == buildings.ROOF_BONUS
             and any(f in buildings.BUILDING_CARDS[c][2] for f in ROOF_PAIRS[pair])]
    bonus = f", with {' and '.join(cards)}" if cards else ""
    return lambda q: f"{ROOF_KINDS[kind]} roof" + (f": {why}" if why else "") + bonus


def _leftovers(s, *_) -> Reason:
    left = [sum(pl.reserve) for pl in s.players]
    return lambda p: f"{left[p]} cube{'s' if left[p] != 1 else ''} left over from the pyramid"


def _island_majority(s, *_) -> Reason:
    season = _season_name(s)
    won: dict[int, list[str]] = {}
    for i, tied, scorers in s.island_majority_scorers():
        name = topology.ISLAND_NAMES[i]
        if len(scorers) == 1:
            won.setdefault(scorers[0], []).append(name + (" (tie won with island-ties)" if len(tied) > 1 else ""))
        else:
            for p in scorers:
                won.setdefault(p, []).append(f"{name} (shared)")
    return lambda p: f"end of {season}, island majority: {', '.join(won.get(p, []))}"


def _lace_scoring(s, *_) -> Reason:
    season = _season_name(s)
    paid = len(s.paid)
    union = sum(UNION_BONUS[size] for size in topology.union_sizes(s.layout, s.paid)) if s.paid else 0
    extra = f" ({paid * LACE_PAID_VP} VP) and {union} VP union bonus" if union else ""
    return lambda p: f"end of {season}, lace: {paid} worker{'s' if paid != 1 else ''} paid{extra}"


def _season_name(s) -> str:
    return SEASONS[s.season]


#: The scoring categories VP are booked to (the rows of the end's score table): ship sales (§6.2), fish cards
#: that ran out (§5.1), roofs (§7), island majority and lace at each season's clean-up (§8.1-8.2), and the
#: end (§10): coins, fish cards in hand, building cards; `other` for VP the ledger cannot name.
CATEGORIES = ("ships", "fish ran out", "roofs", "island majority", "lace", "coins at the end",
              "fish in hand", "building cards", "other")
#: The category of the VP each rule below books (the rest book coins only).
_RULE_CATEGORY = {"_do_sell": "ships", "_continue_draws": "fish ran out", "_score_roof": "roofs",
                  "_score_island_majority": "island majority", "_continue_lace_pay": "lace"}

#: The reference model's methods that change VP or coins, and how each names its reason.
_RULES: dict[str, Callable[..., Reason]] = {
    "_pay_move": _move_cost,
    "_end_turn": _actor_only("no move this turn"),
    "_do_build": _earning,
    "_recall": _actor_only("recall: a worker back to the ring"),
    "_do_priv_coin": _actor_only("1 privilege turned into a coin"),
    "_send": _bumped_island,
    "_place_lace": _lace,
    "_do_sell": _sale,
    "_continue_draws": _empty_draws,
    "_score_roof": _roof,
    "_next_pyramid_player": _leftovers,
    "_score_island_majority": _island_majority,
    "_continue_lace_pay": _lace_scoring,
}


class _Ledger(ReferenceState):
    """The reference State, booking every VP and coin change to the rule that made it (`entries`)."""

    entries: list[Entry]

    def start_books(self) -> None:
        self.entries = []
        self._reasons: list[tuple[str, Reason]] = []    # (the rule's name, its reason) of the rules running
        self._mark = [(pl.vp, pl.coins) for pl in self.players]

    def _book(self) -> None:
        """Book the changes since the last booking to the innermost rule running."""
        rule, reason = self._reasons[-1] if self._reasons else ("", lambda p: "")
        for p, pl in enumerate(self.players):
            vp, coins = pl.vp - self._mark[p][0], pl.coins - self._mark[p][1]
            if vp or coins:
                self.entries.append(Entry(p, vp, coins, reason(p), category=_RULE_CATEGORY.get(rule, "other")))
        self._mark = [(pl.vp, pl.coins) for pl in self.players]

    def _final_scoring(self) -> None:
        """The end of the game (§10), booked per category and card (the amounts as `_final_scoring`
        counts them; the total is checked against it)."""
        self._book()
        planned: list[Entry] = []
        for p, pl in enumerate(self.players):
            coins = pl.coins + pl.privilege
            parts = [(0, pl.privilege, f"{pl.privilege} privilege turned into coins", "coins at the end"),
                     (coins // COINS_PER_VP, 0, f"{coins} coin{'' if coins == 1 else 's'}", "coins at the end"),
                     (HAND_CARD_VP * (sum(pl.hand_known) + sum(pl.hand_blind)),
                      0, f"{sum(pl.hand_known) + sum(pl.hand_blind)} fish card"
                         f"{'' if sum(pl.hand_known) + sum(pl.hand_blind) == 1 else 's'} in hand", "fish in hand")]
            for c in pl.buildings:
                name, fam, arg = buildings.BUILDING_CARDS[c]
                vp = 0
                if fam == buildings.SOLD_FISH:
                    vp = buildings.SOLD_FISH_VP_PER_CARD * sum(pl.sold[s] for s in arg)
                elif fam == buildings.LACE_COLOURS:
                    vp = buildings.LACE_COLOURS_VP_PER_WORKER * sum(
                        1 for sq in self.workshop_workers(p) if self.layout.colour[sq] in arg)
                elif fam == buildings.LACE_DISCOUNT:
                    vp = buildings.LACE_DISCOUNT_END_VP
                elif fam == buildings.COLLECTOR:
                    vp = buildings.COLLECTOR_VP_PER_CARD * len(pl.buildings)
                elif fam == buildings.MONUMENT:
                    vp = buildings.MONUMENT_VP
                parts.append((vp, 0, name, "building cards"))
            planned += [Entry(p, vp, coins, why, "final", category) for vp, coins, why, category in parts if vp or coins]
        super()._final_scoring()
        for p, pl in enumerate(self.players):
            mine = [e for e in planned if e.seat == p]
            vp, coins = pl.vp - self._mark[p][0], pl.coins - self._mark[p][1]
            if (sum(e.vp for e in mine), sum(e.coins for e in mine)) != (vp, coins):
                mine = [Entry(p, vp, coins, "final scoring", "final")] if vp or coins else []
            self.entries += mine
        self._mark = [(pl.vp, pl.coins) for pl in self.players]


def _wrap(name: str, reason: Callable[..., Reason]) -> None:
    base = getattr(ReferenceState, name)

    def booked(self, *args):
        self._book()
        self._reasons.append((name, reason(self, *args)))
        try:
            return base(self, *args)
        finally:
            self._book()
            self._reasons.pop()

    booked.__name__ = name
    setattr(_Ledger, name, booked)


for _name, _reason in _RULES.items():
    _wrap(_name, _reason)


@functools.lru_cache(maxsize=16)
def _reference_game(num_players: int, rows: tuple[str, ...]) -> ReferenceGame:
    return ReferenceGame(num_players, rows)


def ledger(before, action: int) -> tuple[list[Entry], dict[str, Any]]:
    """The bookings of applying `action` at `before` (a full State of either implementation), and the
    full position after it as the reference model computes it."""
    position = before.to_position()   # a fresh copy: the ledger takes its fields as they are
    game = _reference_game(position.num_players, tuple(position.layout.rows))
    # made bare rather than by `_Ledger(game)`, whose deal every field below replaces (that deal and its copy
    # were half of a web move's narration)
    state = _Ledger.__new__(_Ledger)
    Position.__init__(state, game.num_players, game.layout)
    state.game = game
    for name in Position.FIELDS:
        setattr(state, name, getattr(position, name))
    state.start_books()
    state._apply_unchecked(actions.action_id(action))   # the result is checked against the real step
    return state.entries, state.to_dict()


def _bare(before, after) -> list[Entry]:
    """The VP and coin changes without their reasons."""
    old, new = before.to_dict()["seats"], after.to_dict()["seats"]
    return [Entry(p, n["vp"] - o["vp"], n["coins"] - o["coins"], "")
            for p, (o, n) in enumerate(zip(old, new)) if (n["vp"], n["coins"]) != (o["vp"], o["coins"])]


def step_entries(before, after, action: int | None = None) -> list[Entry]:
    """The bookings of the step from `before` to `after` (full States): the ledger's, checked against
    `after`; the bare changes where the ledger cannot replay it."""
    return ledger_entries(before, after, action, ledger, _bare)


def format_entries(entries: list[Entry], totals: list[int] | None = None) -> list[str]:
    """The bookings as lines: ``B +2 coins (worker bumped from I2)``, changes of one seat for one reason
    added up; the final scoring as one line per seat, with its VP in all (`totals`)."""
    return [text for text, _points in told_entries(entries, totals)]


def told_entries(entries: list[Entry], totals: list[int] | None = None
                 ) -> list[tuple[str, tuple[tuple[int, str, float], ...]]]:
    """`format_entries`' lines, each with the VP it tells as (seat, category, VP) (`StepEffect.points`)."""
    merged: list[Entry] = []
    for e in entries:
        key = (e.seat, e.reason, e.group, e.category)
        same = next((m for m in merged if (m.seat, m.reason, m.group, m.category) == key), None)
        if same is None:
            merged.append(Entry(e.seat, e.vp, e.coins, e.reason, e.group, e.category))
        else:
            same.vp += e.vp
            same.coins += e.coins
    told: list[tuple[str, tuple[tuple[int, str, float], ...]]] = []
    for e in merged:
        if e.group or not (e.vp or e.coins):
            continue
        told.append((f"{SEAT_LETTERS[e.seat]} {amounts(e.vp, e.coins)}" + (f" ({e.reason})" if e.reason else ""),
                     ((e.seat, e.category, e.vp),) if e.vp else ()))
    seats = sorted({e.seat for e in merged if e.group == "final"})
    for p in seats:
        mine = [e for e in merged if e.group == "final" and e.seat == p]
        parts = ", ".join(f"{amounts(e.vp, e.coins)} ({e.reason})" for e in mine)
        total = sum(e.vp for e in mine)
        end = f": {total:+d} VP" + (f", {totals[p]} VP in all" if totals is not None else "")
        told.append((f"final scoring {SEAT_LETTERS[p]}: {parts}{end}",
                     tuple((p, e.category, e.vp) for e in mine if e.vp)))
    return told


#: The order of finish's keys after VP (rules §10, `scoring.finishing_key`), as people name them.
_TIE_BREAKS = ("VP", "cubes in the preparation area", "coins")


def describe_result(state) -> list[str]:
    """The winner and, where seats tie on VP, the tie-break that decided (§10: cubes in the preparation
    area, then coins), with each tied seat's count; [] before the end."""
    if not state.is_terminal():
        return []
    n = state.num_players
    keys = [tuple(state.finishing_key(p)) for p in range(n)]
    best = max(keys)
    winners = [p for p in range(n) if keys[p] == best]
    names = " and ".join(SEAT_LETTERS[p] for p in winners)
    level = [p for p in range(n) if keys[p][0] == best[0]]
    if len(level) == 1:
        return [f"{names} wins with {best[0]} VP"]
    tied = " and ".join(SEAT_LETTERS[p] for p in level)
    head = f"{tied} tie on {best[0]} VP"
    if len(winners) > 1:
        return [f"{head}, {_TIE_BREAKS[1]} and {_TIE_BREAKS[2]} too ({best[1]} and {best[2]} each): "
                f"{names} share the win"]
    for k in (1, 2):
        still = [p for p in level if keys[p][:k] == best[:k]]
        if sum(1 for p in still if keys[p][k] == best[k]) == 1:
            counts = ", ".join(f"{SEAT_LETTERS[p]} {keys[p][k]}" for p in still)
            before = "" if k == 1 else f" and on {_TIE_BREAKS[1]} ({best[1]} each)"
            return [f"{head}{before}; {names} wins the tie-break on {_TIE_BREAKS[k]} ({counts})"]
    raise AssertionError("unreachable")


def step_effects(before, after, action: int | None = None) -> list[StepEffect]:
    """Every VP and coin change of the step from `before` to `after` with its reason, the final scoring
    per seat, and at the end the result with its tie-break: all public (see the module docstring). Each
    effect carries the VP it tells by scoring category (`StepEffect.points`), for the end's score table."""
    entries = step_entries(before, after, action)
    totals = [seat["vp"] for seat in after.to_dict()["seats"]] if after.is_terminal() else None
    return [StepEffect(text, points=points) for text, points in told_entries(entries, totals)] + \
        [StepEffect(line) for line in describe_result(after)]
