"""Privilege dock swaps (§4.3) only as part of a trip to an island [RD-26, RD-37], in both implementations.

The move structure: `sail <island>` first; then, while privilege lasts, `swap Ii:c` (pick a dock) and
`with Ij:d` (its partner, 1 privilege) any number of times, and `go` (sail on, once the island matches).
Regression tests from issue 11's repro (a swap followed by a port trip), the m = 0 island reachable only
with a swap, several swaps, the last privilege, and an exhaustive check that the reachable outcomes are
exactly the ones the rules allow.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter

import pytest

from burano_ai.games.burano import actions as A
from burano_ai import engine
from burano_ai.games.burano import topology
from burano_ai.games.burano.data.colours import BLUE, COLOURS, GREEN, ORANGE, PINK, WHITE, YELLOW
from burano_ai.games.burano.data.turn import FISHING
from burano_ai.games.burano.enums import Phase
from burano_ai.core.errors import IllegalMoveError, PositionError
from burano_ai.random_play import random_step
from implementations import IMPLEMENTATIONS
from positions import blank_turn, give_prep, map_colour, set_ring

R1, R2, R3, R4 = range(4)
I1, I2, I3, I4, I5, I6 = range(6)
#: A legal dock layout (three docks of each colour): I5 matches none of the arrows pink, yellow, blue.
DOCKS = [[PINK, PINK, BLUE], [PINK, BLUE, ORANGE], [BLUE, YELLOW, GREEN], [YELLOW, ORANGE, WHITE],
         [GREEN, ORANGE, WHITE], [YELLOW, GREEN, WHITE]]
SWAP_FAMILIES = ("SWAP_PICK", "SWAP_WITH")


def fishing_state(impl: str, privilege: int, docks=DOCKS, boat: int = I4):
    """Seat A has built a fishing cube (pink) with its boat on `boat`; arrows pink, yellow, blue."""
    s = blank_turn()
    set_ring(s, 0, (R1, R2, R3, R4), arrows_on_house=0, workers=10)
    assert sorted(s.arrows(0)) == sorted([PINK, YELLOW, BLUE])
    s.players[0].boat = topology.ISLAND_NODE[boat]
    s.players[0].privilege = privilege
    s.docks = [sorted(d) for d in docks]
    map_colour(s, PINK, FISHING)
    give_prep(s, 0, PINK)
    s.play("build pink@d4")
    assert s.phase == Phase.FISH_SAIL
    return IMPLEMENTATIONS[impl](s.num_players).state_from_position(s.to_position())


def docks_of(state) -> tuple[tuple[int, ...], ...]:
    """The dock colours per island, each sorted (both implementations: through `to_position`)."""
    return tuple(tuple(sorted(d)) for d in state.to_position().docks)


def texts(state) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def families(state) -> set[str]:
    return {A.family(a) for a in state.legal_actions()}


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def impl(request):
    return request.param


# --- issue 11's repro

def test_no_swap_in_the_sail_step_and_the_port_trip_stays_swap_free(impl):
    s = fishing_state(impl, privilege=1)
    assert texts(s) == {"sail PortR", "sail I5"}      # I5 (m = 0) only because a swap can make it match
    with pytest.raises(IllegalMoveError):
        s.play("swap I5:orange")                    # no swap before the destination is chosen
    with pytest.raises(IllegalMoveError):
        s.play("swap I5:orange I6:yellow")          # the old single-action swap no longer exists
    s.play("sail PortR")
    assert s.phase == Phase.PORT_TRADE and s.players[0].privilege == 1
    assert docks_of(s) == tuple(tuple(sorted(d)) for d in DOCKS)


def test_after_a_swap_neither_a_port_nor_done(impl):
    # three docks of each colour (a compiled State refuses any other layout, as a position file is)
    s = fishing_state(impl, privilege=3, docks=[[PINK, WHITE, BLUE], [PINK, BLUE, ORANGE], [BLUE, YELLOW, GREEN],
                                                [YELLOW, ORANGE, WHITE], [PINK, ORANGE, WHITE],
                                                [YELLOW, GREEN, GREEN]])
    s.play("sail I5")
    assert s.phase == Phase.FISH_SWAP
    s.play("swap I5:orange")
    assert families(s) == {"SWAP_WITH"}
    s.play("with I6:yellow")
    assert s.players[0].privilege == 2 and s.phase == Phase.FISH_SWAP
    assert families(s) <= {"GO", "SWAP_PICK"} and "GO" in families(s)
    for move in ("sail PortR", "done", "sail I5"):
        with pytest.raises(IllegalMoveError):
            s.play(move)


# --- an island reachable only with a swap

def test_an_island_without_a_match_needs_privilege(impl):
    s = fishing_state(impl, privilege=0)
    assert texts(s) == {"sail PortR"}


def test_no_trip_at_all_offers_done_only(impl):
    s = fishing_state(impl, privilege=0)
    s = _without_ships(s, impl)
    assert texts(s) == {"done"}                     # [RD-5]


def test_every_trip_needing_a_swap_offers_done_and_the_spend_stays_legal(impl):
    """Issue 21 item 9 [RD-26]: privilege left, no island matching, no port trip: the spend is optional."""
    s = _without_ships(fishing_state(impl, privilege=1), impl)
    assert texts(s) == {"done", "sail I5"}          # before issue 21: {"sail I5"}, the swap was forced
    skipped = s.clone()
    skipped.play("done")                            # the action is skipped, the privilege kept
    assert skipped.phase == Phase.TURN and skipped.players[0].privilege == 1
    assert docks_of(skipped) == tuple(tuple(sorted(d)) for d in DOCKS)
    s.play("sail I5")                               # spending is still legal
    s.play("swap I5:orange")
    s.play("with I6:yellow")
    assert s.players[0].privilege == 0 and topology.NODE_ISLAND[s.players[0].boat] == I5


def test_a_swap_free_trip_keeps_done_off(impl):
    """[RD-26]: `done` only when every legal trip needs a swap: a port trip (or a matching island) is swap-free."""
    assert "done" not in texts(fishing_state(impl, privilege=1))           # PortR is swap-free
    matching = [list(d) for d in DOCKS]
    matching[I1], matching[I5] = [PINK, BLUE, GREEN], [PINK, ORANGE, WHITE]  # I5 now matches the pink arrow
    s = _without_ships(fishing_state(impl, privilege=1, docks=matching), impl)
    assert texts(s) == {"sail I5"}


def _without_ships(state, impl):
    position = state.to_position()
    position.ports = [[0, 1, 2, 3], []]              # every ship in PortL: PortR is empty
    return IMPLEMENTATIONS[impl](position.num_players).state_from_position(position)


def test_the_last_privilege_offers_only_swaps_that_make_the_island_match(impl):
    s = fishing_state(impl, privilege=1)
    s.play("sail I5")
    assert s.phase == Phase.FISH_SWAP and "go" not in texts(s)
    arrows = {PINK, YELLOW, BLUE}
    picks = sorted(texts(s))
    # Arrow-coloured docks of I1..I4 (their partner: a dock of I5), and I5's docks (partner: I6's yellow).
    assert picks == sorted(["swap I1:pink", "swap I1:blue", "swap I2:pink", "swap I2:blue", "swap I3:blue",
                            "swap I3:yellow", "swap I4:yellow", "swap I5:green", "swap I5:orange",
                            "swap I5:white"])
    for pick in picks:
        state = s.clone()
        state.play(pick)
        partners = texts(state)
        assert partners and all(t.startswith("with ") for t in partners)
        for partner in partners:
            after = state.clone()
            after.play(partner)
            island = topology.NODE_ISLAND[after.players[0].boat]
            assert island == I5 and after.phase != Phase.FISH_SWAP
            assert sum(1 for c in docks_of(after)[I5] if c in arrows) >= 1
    assert not any(A.family(a) in SWAP_FAMILIES and A.action_to_str(a) == "swap I6:yellow"
                   for a in s.legal_actions())       # I6 is the last island: it is always the partner


def test_a_swap_that_brings_one_match_gives_one_draw(impl):
    s = fishing_state(impl, privilege=1)
    s.play("sail I5")
    s.play("swap I5:orange")
    assert texts(s) == {"with I6:yellow"}
    s.play("with I6:yellow")
    assert s.players[0].privilege == 0
    assert s.players[0].boat == topology.ISLAND_NODE[I5]
    assert s.phase == Phase.FISH_DRAW
    d = s.to_dict()["context"]
    assert d["fish_island"] == "I5" and d["fish_matches"] == 1 and d["draws_left"] == 1
    assert sorted(s.to_dict()["docks"]["I5"]) == sorted(["green", "white", "yellow"])
    assert sorted(s.to_dict()["docks"]["I6"]) == sorted(["green", "orange", "white"])


def test_swaps_raise_the_number_of_draws_and_sail_on_when_privilege_runs_out(impl):
    s = fishing_state(impl, privilege=2)
    s.play("sail I5")
    s.play("swap I5:orange")
    s.play("with I6:yellow")                         # m = 1, one privilege left: swap again or go
    assert s.phase == Phase.FISH_SWAP and "go" in texts(s)
    s.play("swap I3:blue")
    s.play("with I5:green")                          # m = 2, no privilege left: the boat sails on
    assert s.players[0].privilege == 0 and s.phase == Phase.FISH_DRAW
    ctx = s.to_dict()["context"]
    assert ctx["fish_matches"] == 2 and ctx["draws_left"] == 2
    draws = 0
    rng = random.Random(0)
    while s.phase in (Phase.FISH_DRAW, Phase.CHANCE_NODE) and s.to_dict()["context"].get("draws_left", 0):
        if s.phase == Phase.FISH_DRAW:
            s.apply_action(A.DRAW_DECK)
            draws += 1
        else:
            random_step(s, rng)
    assert draws == 2 and sum(s.players[0].hand_blind) == 2


def test_several_swaps_then_go(impl):
    s = fishing_state(impl, privilege=3)
    s.play("sail I5")
    s.play("swap I5:orange")
    s.play("with I6:yellow")
    s.play("swap I1:pink")
    s.play("with I4:white")                          # a swap away from the trip's island is allowed too
    assert s.players[0].privilege == 1 and s.phase == Phase.FISH_SWAP
    s.play("go")
    assert s.players[0].privilege == 1 and s.phase == Phase.FISH_DRAW
    assert s.to_dict()["context"]["fish_matches"] == 1
    docks = s.to_dict()["docks"]
    assert sorted(docks["I1"]) == ["blue", "pink", "white"] and sorted(docks["I4"]) == ["orange", "pink", "yellow"]


def test_with_two_privilege_a_first_swap_may_leave_the_island_unmatched(impl):
    s = fishing_state(impl, privilege=2)
    s.play("sail I5")
    s.play("swap I1:pink")
    assert "with I4:white" in texts(s)               # m stays 0, but the last privilege can still fix it
    one = fishing_state(impl, privilege=1)
    one.play("sail I5")
    one.play("swap I1:pink")
    assert texts(one) == {"with I5:green", "with I5:orange", "with I5:white"}


def test_each_swap_has_one_spelling(impl):
    s = fishing_state(impl, privilege=2)
    s.play("sail I5")
    for pick in list(s.legal_actions()):
        if A.family(pick) != "SWAP_PICK":
            continue
        state = s.clone()
        state.apply_action(pick)
        island = (pick - A.SWAP_PICK) // len(COLOURS)
        assert all((a - A.SWAP_WITH) // len(COLOURS) > island for a in state.legal_actions())


# --- the reachable outcomes are exactly the rules'

def _outcomes(state, seat: int = 0) -> set[tuple]:
    """Every (docks, privilege, boat) the fishing trip can reach before its first draw (depth-first)."""
    out: set[tuple] = set()
    stack = [state]
    while stack:
        s = stack.pop()
        if s.phase not in (Phase.FISH_SAIL, Phase.FISH_SWAP):
            out.add((docks_of(s), s.players[seat].privilege, s.players[seat].boat))
            continue
        for a in s.legal_actions():
            child = s.clone()
            child.apply_action(a)
            stack.append(child)
    return out


def _rules_outcomes(docks, privilege: int, arrows: list[int], target: int, node: int) -> set[tuple]:
    """§4.3 by brute force: any number of swaps of two docks of two islands (1 privilege each), then m >= 1."""
    def matches(d):   # the multiset intersection's size, counted independently of the reference's loop
        return sum((Counter(arrows) & Counter(d)).values())

    out = set()
    level = {tuple(tuple(sorted(d)) for d in docks)}
    for spent in range(privilege + 1):
        for layout in level:
            if matches(layout[target]) >= 1:
                out.add((layout, privilege - spent, node))
        nxt = set()
        for layout in level:
            for i, j in itertools.combinations(range(len(layout)), 2):
                for ci in set(layout[i]):
                    for cj in set(layout[j]):
                        if ci != cj:
                            a, b = list(layout[i]), list(layout[j])
                            a.remove(ci)
                            a.append(cj)
                            b.remove(cj)
                            b.append(ci)
                            new = list(layout)
                            new[i], new[j] = tuple(sorted(a)), tuple(sorted(b))
                            nxt.add(tuple(new))
        level = nxt
    return out


@pytest.mark.parametrize("impl, privilege", [("core", 1), ("reference", 1), ("core", 2)])   # 2: ~58,000 paths
def test_reachable_outcomes_are_exactly_the_rules(impl, privilege):
    s = fishing_state(impl, privilege=privilege)
    got = _outcomes(s)
    node = topology.ISLAND_NODE[I5]
    want = _rules_outcomes(DOCKS, privilege, [PINK, YELLOW, BLUE], I5, node)
    islands = {o for o in got if o[2] == node}
    assert islands == want
    assert {o[2] for o in got} == {node, topology.parse_route_node("PortR")}
    assert all(o[0] == tuple(tuple(sorted(d)) for d in DOCKS) and o[1] == privilege
               for o in got if o[2] != node)         # a port trip changes no dock and spends nothing


# --- random games: swaps happen, and never around a port trip

@pytest.mark.parametrize("num_players", [3, 4])
def test_random_games_swap_only_on_island_trips(impl, num_players):
    """Privilege is rare in random play: 40 games of 3 or 4 players make a few dozen swaps."""
    game = IMPLEMENTATIONS[impl](num_players)
    swaps = 0
    for seed in range(40):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.phase == Phase.FISH_SAIL:
                assert not families(state) & {"GO", *SWAP_FAMILIES}
            elif state.phase == Phase.FISH_SWAP:
                assert families(state) <= {"GO", *SWAP_FAMILIES} and state.legal_actions()
            action = random_step(state, rng)
            if A.family(action) == "SWAP_WITH":
                swaps += 1
                assert state.phase in (Phase.FISH_SWAP, Phase.FISH_DRAW, Phase.CHANCE_NODE, Phase.TURN,
                                       Phase.FISH_SEND)
                if state.phase != Phase.FISH_SWAP:         # the boat sailed on: to the island, never a port
                    assert topology.NODE_ISLAND[state.players[state.actor].boat] >= 0
    assert swaps > 0


# --- the swap phase in position JSON

def _swap_phase(impl: str, pick: bool):
    s = fishing_state(impl, privilege=2)
    s.play("sail I5")
    if pick:
        s.play("swap I1:pink")
    return s


@pytest.mark.parametrize("pick", [False, True], ids=["pick", "partner"])
def test_swap_phase_positions_round_trip(impl, pick):
    s = _swap_phase(impl, pick)
    d = s.to_dict()
    assert d["phase"] == "fish-swap" and d["context"]["sail_target"] == "I5"
    assert d["context"]["swap_pick"] == ("I1:pink" if pick else None)
    state, _ = engine.load_position(s.to_json(), game_factory=IMPLEMENTATIONS[impl])
    assert state.to_json() == s.to_json() and state.legal_actions() == s.legal_actions()
    for seat in range(s.num_players):      # every seat sees the pending trip and pick
        view, _ = engine.load_position(s.to_json(seat), game_factory=IMPLEMENTATIONS[impl])
        assert view.legal_actions() == s.legal_actions()


BAD_SWAP_PHASES = {
    "no target": (lambda c: c.pop("sail_target"), "context.sail_target: phase 'fish-swap' needs"),
    "a port": (lambda c: c.update(sail_target="PortR"), "PortR, a port"),
    "not a destination": (lambda c: c.update(sail_target="I1"), "I1 is not a destination"),
    "no such dock": (lambda c: c.update(swap_pick="I1:white"), "I1:white is not a dock"),
    "a malformed dock": (lambda c: c.update(swap_pick="I1-pink"), "context.swap_pick: expected a dock"),
    "an unknown island": (lambda c: c.update(swap_pick="I9:pink"), "context.swap_pick: unknown value 'I9'"),
    "a pick outside the phase": (lambda c: c.update(sail_target=None, swap_pick="I1:pink"), "context.sail_target"),
}


@pytest.mark.parametrize("name", sorted(BAD_SWAP_PHASES))
def test_inconsistent_swap_phases_are_rejected(impl, name):
    data = _swap_phase(impl, pick=False).to_dict()
    change, message = BAD_SWAP_PHASES[name]
    change(data["context"])
    with pytest.raises(PositionError, match=re.escape(message)):
        engine.load_position(data, game_factory=IMPLEMENTATIONS[impl])


def test_swap_phase_outside_it_and_without_privilege_are_rejected(impl):
    data = _swap_phase(impl, pick=False).to_dict()
    data["phase"] = "fish-sail"
    with pytest.raises(PositionError, match="context.sail_target: is not used in phase 'fish-sail'"):
        engine.load_position(data, game_factory=IMPLEMENTATIONS[impl])
    data = _swap_phase(impl, pick=False).to_dict()
    data["seats"][0]["privilege"] = 0
    with pytest.raises(PositionError, match=r"seats\[0\].privilege: seat A swaps docks but has no privilege"):
        engine.load_position(data, game_factory=IMPLEMENTATIONS[impl])


def test_a_swap_phase_with_no_way_to_finish_the_trip_is_not_playable(impl):
    """One privilege and a pick whose every partner leaves I5 unmatched: no legal move (check_playable)."""
    data = _swap_phase(impl, pick=False).to_dict()
    data["seats"][0]["privilege"] = 1
    data["context"]["swap_pick"] = "I5:green"
    data["docks"]["I4"] = ["white", "yellow", "yellow"]
    data["docks"]["I6"] = ["green", "orange", "white"]     # I6, the only later island, has no arrow colour
    with pytest.raises(PositionError, match="no legal move in phase 'fish-swap'"):
        engine.load_position(data, game_factory=IMPLEMENTATIONS[impl])
