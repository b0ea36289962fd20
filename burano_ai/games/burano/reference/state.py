"""The reference State: one Burano position and every rule that changes it, in plain Python.

Rules follow `shared/rules/burano.md` section by section; comments cite the spec (§n) and the rules
decisions ([RD-n]). A turn is broken into small decisions from the global action space of
`burano_ai.games.burano.actions`; chance (deck draws, roof tile colours, colour-marker shuffles) is a pseudo-player
`CHANCE` whose outcomes are listed by `chance_outcomes()`. The state holds no random generator: all
randomness is either done by `Game.new_initial_state(seed)` (the setup) or applied as chance outcomes.

The phase machine: `phase` says what kind of decision is pending and `actor` who makes it. After every
applied action, `_advance`-style helpers run the automatic steps until the next decision or chance node.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

from burano_ai.games.burano import actions, enums
from burano_ai.games.burano import topology
from burano_ai.games.burano.data import buildings
from burano_ai.games.burano.data.colours import NUM_COLOURS
from burano_ai.games.burano.data.fish import EMPTY_DRAW_VP, FISH_DISPLAY_SIZE, HAND_CARD_VP, NUM_SPECIES
from burano_ai.games.burano.data.island import MAX_LEVEL, MAX_ROOF_LEVEL
from burano_ai.games.burano.data.ring import COIN, FOUNTAIN, NUM_HOUSES
from burano_ai.games.burano.data.roofs import (
    FLAT,
    FLAT_ROOF_VP,
    FOUNTAIN_ROOF_VP,
    FOUNTAINS,
    ISLAND_MAJORITY,
    MAJORITY_ROOF_VP,
    NUM_ROOF_KINDS,
    ROOF_PAIRS,
    ROOF_PRIVILEGE_BONUS,
    ROOF_SLOTS,
    TILES_PER_KIND,
    WORKSHOP_MAJORITY,
)
from burano_ai.games.burano.data.route import NUM_ISLANDS
from burano_ai.games.burano.data.turn import (
    BUMP_COINS,
    COINS_PER_VP,
    EARNING,
    FISHING,
    ISLAND_MAJORITY_VP,
    LACE,
    LACE_PAID_VP,
    LEFTOVER_CUBE_COINS,
    MAX_MOVES,
    MOVE_COSTS,
    NO_MOVE_COINS,
    PREP_SLOTS,
    PYRAMID_SIZE,
    RECALL_COINS,
    SEASON_ROUNDS,
    UNION_BONUS,
)
from burano_ai.games.burano.enums import (
    CHANCE,
    CHANCE_KIND_NAMES,
    EMPTY,
    NO_PLAYER,
    PHASE_NAMES,
    STAGE_NAMES,
    TERMINAL,
    ChanceKind,
    Phase,
    Stage,
    parse_seat,
)
from burano_ai.core.arguments import as_int, check_index, check_instance
from burano_ai.core.errors import IllegalMoveError, PositionError
from burano_ai.core.reference import ReferenceState
from burano_ai.core.seats import parse_seat
from burano_ai.games.burano import heuristics
from burano_ai.games.burano.deal import deal
from burano_ai.games.burano.notation import position_to_dict
from burano_ai.games.burano.position import Position
from burano_ai.games.burano.render import render_state
from burano_ai.games.burano.scoring import finishing_key
from burano_ai.games.burano.views import resample_hidden

if TYPE_CHECKING:
    from burano_ai.games.burano.reference.game import Game

# The vocabulary (burano_ai.games.burano.enums), bound to short module names: the rules below read like the spec.
ROOF_PICK, PYRAMID, TURN, FISH_SAIL, FISH_SWAP, FISH_DRAW, FISH_SEND, PORT_TRADE, LACE_PLACE, RECALL, ROOF_BONUS, \
    LACE_PAY, REPLENISH, PRIV_RESERVE, ROOF_DISCARD, CHANCE_NODE, GAME_OVER = Phase
CK_NONE, CK_FISH_DRAW, CK_FISH_REFILL, CK_BUILDING_DRAW, CK_BUILDING_REFILL, CK_ROOF_TILE, CK_MARKERS = ChanceKind
ST_SETUP, ST_PYRAMID, ST_ROUNDS, ST_LACE_SCORING, ST_REPLENISH, ST_ROOF_REFILL, ST_END = Stage


def _matches(arrows: list[int], docks: list[int]) -> int:
    """Size of the multiset intersection of arrow colours and an island's docks [RD-7]."""
    left = list(docks)
    m = 0
    for c in arrows:
        if c in left:
            left.remove(c)
            m += 1
    return m


def _trip_possible(arrows: list[int], docks: list[list[int]], island: int, privilege: int) -> bool:
    """Can a trip to `island` be completed: m >= 1 now, or a swap can bring an arrow colour there (§4.3)?

    With m = 0 no arrow colour lies on the island, so swapping any of its docks with an arrow-coloured
    dock of another island makes m = 1: one privilege and one such dock suffice.
    """
    if _matches(arrows, docks[island]) >= 1:
        return True
    return privilege >= 1 and any(c in arrows for j, d in enumerate(docks) if j != island for c in d)


class State(ReferenceState, Position, names=enums, view=position_to_dict):
    """A Burano position with the OpenSpiel-style State API (see `burano_ai.games.burano.reference`).

    Its own: the seeded deal (`__init__`), a Game from `reference.game` (loaded with the package),
    copies by `Position.clone` and information keys that are the seat's JSON view (no 64-bit key).
    """

    # `Position.clone` deep-copies through the default copy protocol (sharing the layout).
    clone = Position.clone
    __copy__ = __deepcopy__ = full_key = None

    def __init__(self, game: Game, seed: int = 0) -> None:
        """The deal of `seed` in `game` (what `game.new_initial_state(seed)` gives): a State is always a position
        that passes `check()`, never an empty board (which could be played to the end)."""
        Position.__init__(self, game.num_players, game.layout)
        self.game = game
        self.copy_fields_from(deal(game.num_players, seed, game.layout))

    @classmethod
    def from_position(cls, position: Position, game: Game) -> State:
        """A State of `game` holding a copy of `position` (same player count and workshop layout)."""
        check_instance(position, Position, "a Burano position")
        game_class = sys.modules["burano_ai.games.burano.reference.game"].Game    # loaded with the package
        check_instance(game, game_class, "game")
        if position.num_players != game.num_players or position.layout != game.layout:
            raise PositionError("the position does not belong to this game (player count or workshop layout)")
        state = cls.__new__(cls)
        Position.__init__(state, game.num_players, game.layout)
        state.game = game
        state.copy_fields_from(position)
        return state

    # ------------------------------------------------------------------------------------------
    # Small derived quantities

    def is_free(self, player: int, pos: int) -> bool:
        """A pyramid cube is free when no cube rests on it (§4.2 take)."""
        pyr, pos = self._pyramid_cell(player, pos)
        if pyr[pos] == EMPTY:
            return False
        if pos < 9:
            return all(pyr[9 + m] == EMPTY for m in range(4) if pos in actions.MIDDLE_SUPPORT[m])
        if pos < actions.TOP:
            return pyr[actions.TOP] == EMPTY
        return True

    def top_level(self, hole: int) -> int:
        """The level (1-3) of the topmost cube in a hole, or 0."""
        if type(hole) is not int or not 0 <= hole < topology.NUM_HOLES:
            hole = check_index(hole, topology.NUM_HOLES, "hole")
        for level in (3, 2, 1):
            if self.cubes[level - 1][hole] != EMPTY:
                return level
        return 0

    def build_level(self, hole: int) -> int:
        """The level a new cube in `hole` would take, or 0 if the hole takes no cube now (§4.2 build)."""
        if type(hole) is not int or not 0 <= hole < topology.NUM_HOLES:
            hole = check_index(hole, topology.NUM_HOLES, "hole")
        level = self.top_level(hole) + 1
        if level == 1:
            has_neighbour = any(self.cubes[0][n] != EMPTY for n in topology.HOLE_NEIGHBOURS[hole])
            return 1 if has_neighbour else 0
        if level <= MAX_LEVEL and self.roof_at[level - 2][hole] != EMPTY:
            return level
        return 0

    def matches(self, player: int, island: int) -> int:
        """Size of the multiset intersection of arrow colours and the island's docks [RD-7]."""
        if type(player) is not int or not 0 <= player < self.num_players:     # the rules' own calls pass these tests
            player = parse_seat(player, self.num_players, "player")
        if type(island) is not int or not 0 <= island < NUM_ISLANDS:
            island = check_index(island, NUM_ISLANDS, "island")
        return _matches(self.arrows(player), self.docks[island])

    def sail_destinations(self, player: int) -> list[int]:
        """Route nodes the boat may end on: 1 step, or also 2 with the Long voyage card (§5.1, §9)."""
        if type(player) is not int or not 0 <= player < self.num_players:     # the rules' own calls pass these tests
            player = parse_seat(player, self.num_players, "player")
        boat = self.players[player].boat
        dests = set(topology.ROUTE_STEP1[boat])
        if self.has_card(player, buildings.LONG_VOYAGE):
            dests.update(topology.ROUTE_STEP2[boat])
        return sorted(dests)

    def can_sail(self, player: int, node: int) -> bool:
        """May the boat sail to `node`: a port with a ship, or an island the trip can match (§5.1, §4.3)."""
        if type(player) is not int or not 0 <= player < self.num_players:     # the rules' own calls pass these tests
            player = parse_seat(player, self.num_players, "player")
        if type(node) is not int or not 0 <= node < topology.NUM_ROUTE_NODES:
            node = check_index(node, topology.NUM_ROUTE_NODES, "route node")
        island = topology.NODE_ISLAND[node]
        if island >= 0:
            return _trip_possible(self.arrows(player), self.docks, island, self.players[player].privilege)
        return len(self.ports[topology.NODE_PORT[node]]) > 0

    def _swap_free(self, player: int, node: int) -> bool:
        """Is the trip to `node` possible without a dock swap: a port, or an island that matches [RD-26]."""
        island = topology.NODE_ISLAND[node]
        return island < 0 or self.matches(player, island) >= 1

    def swap_partners(self, player: int, island: int, pick: int) -> list[int]:
        """Docks (`actions.dock_index`) the picked dock may swap with on the way to `island` [RD-37].

        A partner lies on a later island than the pick (each swap has one spelling) and has another
        colour; the swap must leave the trip possible with the privilege left after paying for it, so
        no sequence of swaps ends where the boat can neither match the island nor swap again.
        """
        if type(player) is not int or not 0 <= player < self.num_players:     # the rules' own calls pass these tests
            player = parse_seat(player, self.num_players, "player")
        if type(island) is not int or not 0 <= island < NUM_ISLANDS:
            island = check_index(island, NUM_ISLANDS, "island")
        pick = as_int(pick, "pick")
        if not 0 <= pick < NUM_ISLANDS * NUM_COLOURS or pick % NUM_COLOURS not in self.docks[pick // NUM_COLOURS]:
            return []
        pick_island, pick_colour = divmod(pick, NUM_COLOURS)
        arrows = self.arrows(player)
        left = self.players[player].privilege - 1
        out = []
        for j in range(pick_island + 1, NUM_ISLANDS):
            for colour in sorted(set(self.docks[j])):
                if colour == pick_colour:
                    continue
                docks = [list(d) for d in self.docks]
                docks[pick_island].remove(pick_colour)
                docks[pick_island].append(colour)
                docks[j].remove(colour)
                docks[j].append(pick_colour)
                if _trip_possible(arrows, docks, island, left):
                    out.append(actions.dock_index(j, colour))
        return out

    def swap_picks(self, player: int, island: int) -> list[int]:
        """Docks (`actions.dock_index`) that may start a swap on the way to `island`: those with a partner."""
        if type(player) is not int or not 0 <= player < self.num_players:     # the rules' own calls pass these tests
            player = parse_seat(player, self.num_players, "player")
        if type(island) is not int or not 0 <= island < NUM_ISLANDS:
            island = check_index(island, NUM_ISLANDS, "island")
        return [actions.dock_index(i, c) for i in range(NUM_ISLANDS) for c in sorted(set(self.docks[i]))
                if self.swap_partners(player, island, actions.dock_index(i, c))]

    # ------------------------------------------------------------------------------------------
    # The State API

    def current_player(self) -> int:
        if self.phase == GAME_OVER:
            return TERMINAL
        if self.phase == CHANCE_NODE:
            return CHANCE
        return self.actor

    def scores(self) -> list[int]:
        """Victory points of each seat (final once the game is over)."""
        return [pl.vp for pl in self.players]

    def finishing_key(self, player: int) -> tuple[int, int, int]:
        """The order of finish's key of `player` (`scoring.finishing_key`: VP, prep-area cubes, coins)."""
        return finishing_key(self, parse_seat(player, self.num_players, "player"))

    def estimated_scores(self) -> list[float]:
        """Cut-off estimate of each seat's final VP (`heuristics.estimated_scores`)."""
        return heuristics.estimated_scores(self)

    def decision_mode(self) -> int:
        """DecisionMode.SECRET while a seat places pyramid cubes, else DecisionMode.OPEN."""
        return heuristics.decision_mode(self)

    def _prior(self, player: int, legal: list[int]) -> dict[int, float] | None:
        """The pyramid prior of `player` over `legal` (`pyramid.colour_prior`), or None outside the pyramids."""
        return heuristics.prior(self, player, legal)

    def turn_id(self) -> int:
        """The turn the pending decision belongs to, or NO_TURN (`heuristics.turn_id`)."""
        return heuristics.turn_id(self)

    def action_to_string(self, action: int) -> str:
        """The text of an action id (TypeError if `action` is not an int)."""
        return actions.action_to_str(action)

    def string_to_action(self, text: str) -> int:
        """The action id of a move text (TypeError if `text` is not a str; IllegalMoveError if it names none)."""
        return actions.parse_action(text)

    def _illegal_move_error(self, action: int, text: str | None, offered: list[int] | None) -> IllegalMoveError:
        kind = CHANCE_KIND_NAMES[self.chance_kind] if self.phase == CHANCE_NODE else None
        return actions.illegal_action_error(action, text, PHASE_NAMES[self.phase], kind, self._where(), offered)

    def _where(self) -> str:
        if self.stage == ST_ROUNDS:
            return f"{('spring', 'summer', 'autumn', 'winter')[self.season]} round {self.round}"
        return STAGE_NAMES[self.stage]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(action, probability) of each chance outcome; empty when this is not a chance node."""
        if self.phase != CHANCE_NODE:
            return []
        kind = self.chance_kind
        if kind in (CK_FISH_DRAW, CK_FISH_REFILL):
            deck = self.fish_deck()
            total = sum(deck)
            return [(actions.CH_FISH + s, deck[s] / total) for s in range(NUM_SPECIES) if deck[s] > 0]
        if kind in (CK_BUILDING_DRAW, CK_BUILDING_REFILL):
            deck = self.building_deck()
            return [(actions.CH_BUILDING + c, 1.0 / len(deck)) for c in deck]
        if kind == CK_ROOF_TILE:
            stack = self.roof_stack(self.chance_arg)
            total = sum(stack)
            return [(actions.CH_ROOF + p, stack[p] / total) for p in range(TILES_PER_KIND) if stack[p] > 0]
        assert kind == CK_MARKERS
        n = actions.NUM_MARKER_MAPPINGS
        return [(actions.CH_MARKERS + i, 1.0 / n) for i in range(n)]

    # ------------------------------------------------------------------------------------------
    # Legal actions

    def legal_actions(self, player: int | str | None = None) -> list[int]:
        """Sorted legal action ids of the player to move (empty at chance nodes and at the end).

        With `player` (a 0-based int or a seat letter), the ids if that seat is to move, else [].

        Raises:
            TypeError / OptionError: `player` is not a seat of this game (`enums.parse_seat`).
        """
        if player is not None and parse_seat(player, self.num_players, "player") != self.actor:
            return []
        if self.phase in (CHANCE_NODE, GAME_OVER):
            return []
        p = self.actor
        pl = self.players[p]
        phase = self.phase
        out: list[int] = []
        if phase == TURN:
            out.append(actions.DONE)
            can_move = self.moves < MAX_MOVES and pl.coins + MOVE_COSTS[self.moves] >= 0
            if can_move:
                if sum(pl.prep) < PREP_SLOTS:
                    out += [actions.TAKE + pos for pos in range(PYRAMID_SIZE) if self.is_free(p, pos)]
                for c in range(NUM_COLOURS):
                    if pl.prep[c] > 0:
                        out += [actions.build_action(c, h) for h in range(topology.NUM_HOLES) if self.build_level(h)]
                out += self._legal_roofs(p)
            if pl.privilege > 0:
                out.append(actions.PRIV_COIN)
                supply = self.supply()
                for pos in range(PYRAMID_SIZE):
                    if pl.pyramid[pos] == EMPTY and self.is_supported(p, pos):
                        out += [actions.priv_cube_action(c, pos) for c in range(NUM_COLOURS) if supply[c] > 0]
        elif phase == PYRAMID:
            out = [actions.PYRAMID + c for c in range(NUM_COLOURS) if pl.reserve[c] > 0]
        elif phase == FISH_SAIL:
            out = [actions.SAIL + node for node in self.sail_destinations(p) if self.can_sail(p, node)]
            if not any(self._swap_free(p, action - actions.SAIL) for action in out):
                # [RD-5, RD-26]: `done` (skip the action) when every legal trip needs a swap: spending
                # privilege is optional ("вы можете потратить", RU p. 19), a swap-free trip is not
                out.insert(0, actions.DONE)
        elif phase == FISH_SWAP:
            if not 0 <= self.sail_target < topology.NUM_ROUTE_NODES or topology.NODE_ISLAND[self.sail_target] < 0:
                return []   # a malformed position (notation rejects it), as in the compiled core
            island = topology.NODE_ISLAND[self.sail_target]
            if self.swap_pick == EMPTY:
                if self.matches(p, island) >= 1:
                    out.append(actions.GO)
                out += [actions.SWAP_PICK + d for d in self.swap_picks(p, island)]
            else:
                out = [actions.SWAP_WITH + d for d in self.swap_partners(p, island, self.swap_pick)]
        elif phase == FISH_DRAW:
            if sum(self.fish_deck()) > 0:
                out.append(actions.DRAW_DECK)
            out += [actions.DRAW_DISPLAY + s for s in range(NUM_SPECIES) if self.fish_display[s] > 0]
        elif phase == FISH_SEND:
            out = [actions.SEND + 0, actions.SEND + 1]
        elif phase == PORT_TRADE:
            out.append(actions.DONE)
            ships = self.ports[topology.NODE_PORT[pl.boat]]
            hand = [pl.hand_known[s] + pl.hand_blind[s] for s in range(NUM_SPECIES)]
            for sale, (ship, counts, _) in enumerate(actions.SALES):
                if ship in ships and all(hand[s] >= counts[s] for s in range(NUM_SPECIES)):
                    out.append(actions.SELL + sale)
        elif phase == LACE_PLACE:
            out.append(actions.DONE)
            plain = [sq for sq in range(len(self.workshop)) if self._can_lace(p, sq, False)]
            out += [actions.LACE + sq for sq in plain]
            if pl.privilege > 0:
                out += [actions.LACE_PRIV + sq for sq in range(len(self.workshop))
                        if sq not in plain and self._can_lace(p, sq, True)]
        elif phase == RECALL:
            out.append(actions.DONE)
            out += [actions.RECALL_ISLAND + i for i in range(NUM_ISLANDS) if self.island_workers[i][p] > 0]
            out += [actions.RECALL_SQUARE + sq for sq in self.workshop_workers(p)]
        elif phase == ROOF_BONUS:
            out.append(actions.BONUS_PRIVILEGE)
            out += [actions.BONUS_DISPLAY + c for c in self.building_display]
            if self.building_deck():
                out.append(actions.BONUS_DECK)
        elif phase == LACE_PAY:
            out = [actions.PAY + opt for opt in self._pay_options(p, self.pay_queue[0])]
        elif phase == REPLENISH:
            supply = self.supply()
            out = [actions.REPLENISH + c for c in range(NUM_COLOURS) if supply[c] > 0]
        elif phase == PRIV_RESERVE:
            supply = self.supply()
            out = [actions.DONE] + [actions.PRIV_RESERVE + c for c in range(NUM_COLOURS) if supply[c] > 0]
        elif phase == ROOF_DISCARD:
            out = [actions.DONE] + [actions.ROOF_DISCARD + i for i in range(ROOF_SLOTS) if pl.roof_slots[i] is not None]
        elif phase == ROOF_PICK:
            out = [actions.ROOF_KIND + k for k in range(NUM_ROOF_KINDS)
                   if k not in self.kinds_picked and sum(self.roof_stack(k)) > 0]
        return sorted(out)

    def _legal_roofs(self, p: int) -> list[int]:
        """Roof placements (§7): matching colours (or wildcards), same level 1-2, unroofed, no shared midpoint."""
        pl = self.players[p]
        wild = set()
        for c in pl.buildings:
            if buildings.BUILDING_CARDS[c][1] == buildings.ROOF_WILDCARD:
                wild.update(buildings.BUILDING_CARDS[c][2])
        out = []
        for line, (a, b, mid) in enumerate(topology.ROOF_LINES):
            level = self.top_level(a)
            if level == 0 or level > MAX_ROOF_LEVEL or self.top_level(b) != level:
                continue
            if self.roof_at[level - 1][a] != EMPTY or self.roof_at[level - 1][b] != EMPTY:
                continue
            if any(lv == level and topology.ROOF_LINES[ln][2] == mid for (lv, ln, _, _, _) in self.roofs):
                continue
            ca, cb = self.cubes[level - 1][a], self.cubes[level - 1][b]
            for slot, tile in enumerate(pl.roof_slots):
                if tile is None:
                    continue
                f0, f1 = ROOF_PAIRS[tile[1]]
                for flipped, (fa, fb) in ((False, (f0, f1)), (True, (f1, f0))):
                    if (fa == ca or fa in wild) and (fb == cb or fb in wild):
                        out.append(actions.roof_action(slot, line, flipped))
        return out

    def _can_lace(self, p: int, sq: int, with_privilege: bool) -> bool:
        """May `p` place a lace worker on `sq` now (§5.2)?"""
        colour = self.layout.colour[sq]
        if colour < 0 or self.lace_allow[colour] == 0 or self.players[p].ring_workers <= 1:
            return False
        occ = self.workshop[sq]
        if occ == p:
            return False
        if with_privilege:
            return True
        if occ != NO_PLAYER and not self.has_card(p, buildings.LACE_BUMPING):
            return False
        mine = self.workshop_workers(p)
        return not mine or any(self.workshop[n] == p for n in self.layout.neighbours[sq])

    def _pay_options(self, p: int, sq: int) -> list[int]:
        pl = self.players[p]
        colour = self.layout.colour[sq]
        opts = []
        if colour in pl.pyramid:
            opts.append(actions.PAY_PYRAMID)
        if pl.privilege > 0 and self.supply()[colour] > 0:
            opts.append(actions.PAY_PRIVILEGE)
        if not self.discount_used and self.has_card(p, buildings.LACE_DISCOUNT):
            opts.append(actions.PAY_DISCOUNT)
        if opts:
            opts.append(actions.PAY_NONE)
        return opts

    # ------------------------------------------------------------------------------------------
    # Applying actions

    def _apply_unchecked(self, action: int) -> None:
        name, i = actions.decode(action)
        if self.phase == CHANCE_NODE:
            self._apply_chance(name, i)
            return
        handler = getattr(self, "_do_" + name.lower())
        handler(i)

    # --- turn moves

    def _pay_move(self) -> None:
        pl = self.players[self.actor]
        pl.coins += MOVE_COSTS[self.moves]
        self.moves += 1

    def _do_done(self, _: int) -> None:
        phase = self.phase
        if phase == TURN:
            self._end_turn()
        elif phase in (FISH_SAIL, PORT_TRADE, LACE_PLACE, RECALL):
            self._end_action()
        elif phase == PRIV_RESERVE:
            self._next_replenish_player()
        elif phase == ROOF_DISCARD:
            self._enter_roof_pick(self.actor, self._empty_slots(self.actor))

    def _do_take(self, pos: int) -> None:
        self._pay_move()
        pl = self.players[self.actor]
        pl.prep[pl.pyramid[pos]] += 1
        pl.pyramid[pos] = EMPTY

    def _do_build(self, i: int) -> None:
        colour, hole = divmod(i, topology.NUM_HOLES)
        p = self.actor
        pl = self.players[p]
        self._pay_move()
        level = self.build_level(hole)
        pl.prep[colour] -= 1
        self.cubes[level - 1][hole] = colour
        if level >= 2 and self.roof_field[level - 2][hole] == colour:
            pl.privilege += 1
        action = self.markers[colour]
        if action == FISHING:
            self.phase = FISH_SAIL
        elif action == LACE:
            self.lace_allow = [0] * NUM_COLOURS
            for c in self.arrows(p):
                self.lace_allow[c] += 1
            self._continue_lace()
        else:
            assert action == EARNING
            pl.coins += self.visible_symbols(p, COIN)
            self._continue_recall()

    def _do_roof(self, i: int) -> None:
        slot, rest = divmod(i, topology.NUM_ROOF_LINES * 2)
        line, flipped = divmod(rest, 2)
        pl = self.players[self.actor]
        self._pay_move()
        kind, pair = pl.roof_slots[slot]
        pl.roof_slots[slot] = None
        a, b, _ = topology.ROOF_LINES[line]
        level = self.top_level(a)
        f0, f1 = ROOF_PAIRS[pair]
        fa, fb = (f1, f0) if flipped else (f0, f1)
        roof_id = len(self.roofs)
        self.roofs.append((level, line, kind, pair, bool(flipped)))
        self.roof_at[level - 1][a] = self.roof_at[level - 1][b] = roof_id
        self.roof_field[level - 1][a], self.roof_field[level - 1][b] = fa, fb
        self.pending_roof = roof_id
        self.phase = ROOF_BONUS

    def _do_priv_coin(self, _: int) -> None:
        pl = self.players[self.actor]
        pl.privilege -= 1
        pl.coins += 1

    def _do_priv_cube(self, i: int) -> None:
        colour, pos = divmod(i, PYRAMID_SIZE)
        pl = self.players[self.actor]
        pl.privilege -= 1
        pl.pyramid[pos] = colour

    def _end_action(self) -> None:
        """Back to the turn's main decision after a move's action is complete."""
        self.phase = TURN
        self.fish_island = EMPTY
        self.fish_matches = 0
        self.lace_allow = [0] * NUM_COLOURS

    def _end_turn(self) -> None:
        pl = self.players[self.actor]
        if self.moves == 0:
            pl.coins += NO_MOVE_COINS
        self.moves = 0
        nxt = (self.actor + 1) % self.num_players
        if nxt == self.first_player:
            self.round += 1
            if self.round > SEASON_ROUNDS[self.season]:
                self._start_cleanup()
                return
        self.actor = nxt
        self.phase = TURN

    # --- fishing (§5.1)

    def _do_sail(self, node: int) -> None:
        """Sail to a port, or choose an island: its dock swaps come first if privilege allows any (§4.3)."""
        p = self.actor
        island = topology.NODE_ISLAND[node]
        if island < 0:
            self.players[p].boat = node
            self.phase = PORT_TRADE
        elif self.players[p].privilege > 0 and self.swap_picks(p, island):
            self.sail_target = node
            self.phase = FISH_SWAP
        else:
            self._fish(node)

    def _do_go(self, _: int) -> None:
        node = self.sail_target
        self.sail_target = EMPTY
        self._fish(node)

    def _do_swap_pick(self, dock: int) -> None:
        self.swap_pick = dock

    def _do_swap_with(self, dock: int) -> None:
        """Swap the picked dock with this one for 1 privilege; more swaps if privilege allows, else sail on."""
        p = self.actor
        (ia, ca), (ib, cb) = divmod(self.swap_pick, NUM_COLOURS), divmod(dock, NUM_COLOURS)
        self.swap_pick = EMPTY
        self.players[p].privilege -= 1
        self.docks[ia].remove(ca)
        self.docks[ia].append(cb)
        self.docks[ia].sort()
        self.docks[ib].remove(cb)
        self.docks[ib].append(ca)
        self.docks[ib].sort()
        if self.players[p].privilege == 0 or not self.swap_picks(p, topology.NODE_ISLAND[self.sail_target]):
            self._do_go(0)

    def _fish(self, node: int) -> None:
        """The boat reaches the island at `node`: count the matches and start the draws (§5.1)."""
        p = self.actor
        self.players[p].boat = node
        island = topology.NODE_ISLAND[node]
        self.fish_island = island
        self.fish_matches = self.draws_left = self.matches(p, island)
        self.phase = FISH_DRAW
        self._continue_draws()

    def _continue_draws(self) -> None:
        if self.draws_left > 0 and sum(self.fish_deck()) == 0 and sum(self.fish_display) == 0:
            self.players[self.actor].vp += EMPTY_DRAW_VP * self.draws_left
            self.draws_left = 0
        if self.draws_left > 0:
            self.phase = FISH_DRAW
            return
        self._refill_fish_display()

    def _refill_fish_display(self) -> None:
        if sum(self.fish_display) < FISH_DISPLAY_SIZE and sum(self.fish_deck()) > 0:
            self.phase = CHANCE_NODE
            self.chance_kind = CK_FISH_REFILL
            return
        self.chance_kind = CK_NONE
        self._before_send()

    def _do_draw_deck(self, _: int) -> None:
        self.phase = CHANCE_NODE
        self.chance_kind = CK_FISH_DRAW

    def _do_draw_display(self, species: int) -> None:
        self.fish_display[species] -= 1
        self.players[self.actor].hand_known[species] += 1
        self.draws_left -= 1
        self._continue_draws()

    def _before_send(self) -> None:
        ring = self.players[self.actor].ring_workers
        if self.fish_matches == 3 and ring >= 3:
            self.phase = FISH_SEND
            return
        self._send(1 if ring >= 2 else 0)

    def _do_send(self, i: int) -> None:
        self._send(i + 1)

    def _send(self, k: int) -> None:
        """Send k ring workers to the fished island; bump one worker of each other player there [RD-8]."""
        p, island = self.actor, self.fish_island
        pl = self.players[p]
        pl.ring_workers -= k
        pl.ring_offset = (pl.ring_offset + k) % NUM_HOUSES
        self.island_workers[island][p] += k
        if k > 0:
            for q in range(self.num_players):
                if q != p and self.island_workers[island][q] > 0:
                    self.island_workers[island][q] -= 1
                    self.players[q].ring_workers += 1
                    self.players[q].coins += BUMP_COINS
        self._end_action()

    def _do_sell(self, sale: int) -> None:
        ship, counts, vp = actions.SALES[sale]
        pl = self.players[self.actor]
        pl.vp += vp
        for s in range(NUM_SPECIES):
            from_known = min(counts[s], pl.hand_known[s])
            pl.hand_known[s] -= from_known
            pl.hand_blind[s] -= counts[s] - from_known
            pl.sold[s] += counts[s]
        port = topology.NODE_PORT[pl.boat]
        self.ports[port].remove(ship)
        self.ports[1 - port].append(ship)
        self.ports[1 - port].sort()
        self._end_action()

    # --- lace (§5.2)

    def _continue_lace(self) -> None:
        if sum(self.lace_allow) == 0 or self.players[self.actor].ring_workers <= 1:
            self._end_action()
        else:
            self.phase = LACE_PLACE

    def _do_lace(self, sq: int) -> None:
        self._place_lace(sq)

    def _do_lace_priv(self, sq: int) -> None:
        self.players[self.actor].privilege -= 1
        self._place_lace(sq)

    def _place_lace(self, sq: int) -> None:
        p = self.actor
        pl = self.players[p]
        occ = self.workshop[sq]
        if occ != NO_PLAYER:
            self.players[occ].ring_workers += 1
            self.players[occ].coins += BUMP_COINS
        self.workshop[sq] = p
        pl.ring_workers -= 1
        pl.ring_offset = (pl.ring_offset + 1) % NUM_HOUSES
        if self.layout.coin[sq]:
            pl.coins += 1
        self.lace_allow[self.layout.colour[sq]] -= 1
        self._continue_lace()

    # --- earning (§5.3)

    def _continue_recall(self) -> None:
        if self.workers_off_ring(self.actor) == 0:
            self._end_action()
        else:
            self.phase = RECALL

    def _recall(self) -> None:
        pl = self.players[self.actor]
        pl.ring_workers += 1
        pl.coins += RECALL_COINS
        self._continue_recall()

    def _do_recall_island(self, island: int) -> None:
        self.island_workers[island][self.actor] -= 1
        self._recall()

    def _do_recall_square(self, sq: int) -> None:
        self.workshop[sq] = NO_PLAYER
        self._recall()

    # --- roof bonus and scoring (§7)

    def _do_bonus_privilege(self, _: int) -> None:
        self.players[self.actor].privilege += ROOF_PRIVILEGE_BONUS
        self._score_roof()

    def _do_bonus_display(self, card: int) -> None:
        self.building_display.remove(card)
        self.players[self.actor].buildings.append(card)
        self._refill_building_display()

    def _do_bonus_deck(self, _: int) -> None:
        self.phase = CHANCE_NODE
        self.chance_kind = CK_BUILDING_DRAW

    def _refill_building_display(self) -> None:
        if len(self.building_display) < buildings.BUILDING_DISPLAY_SIZE and self.building_deck():
            self.phase = CHANCE_NODE
            self.chance_kind = CK_BUILDING_REFILL
            return
        self.chance_kind = CK_NONE
        self._score_roof()

    def _score_roof(self) -> None:
        """Score the pending roof's kind and colour bonus cards; cards taken just now count [RD-15]."""
        p = self.actor
        pl = self.players[p]
        _, _, kind, pair, _ = self.roofs[self.pending_roof]
        self.pending_roof = EMPTY
        if kind == ISLAND_MAJORITY:
            pl.vp += MAJORITY_ROOF_VP[min(3, self.island_majorities(p))]
        elif kind == WORKSHOP_MAJORITY:
            pl.vp += MAJORITY_ROOF_VP[min(3, self.workshop_majorities(p))]
        elif kind == FOUNTAINS:
            pl.vp += FOUNTAIN_ROOF_VP[self.visible_symbols(p, FOUNTAIN)]
        else:
            assert kind == FLAT
            pl.vp += FLAT_ROOF_VP
        for c in pl.buildings:
            name, fam, colours = buildings.BUILDING_CARDS[c]
            if fam == buildings.ROOF_BONUS:
                pl.vp += buildings.ROOF_BONUS_VP_PER_FIELD * sum(1 for f in ROOF_PAIRS[pair] if f in colours)
        self._end_action()

    def island_majorities(self, p: int) -> int:
        """Islands where `p` has strictly the most workers (ties won with the Island ties card)."""
        if type(p) is not int or not 0 <= p < self.num_players:     # the rules' own calls pass these tests
            p = parse_seat(p, self.num_players, "player")
        ties = self.has_card(p, buildings.ISLAND_TIES)
        count = 0
        for i in range(NUM_ISLANDS):
            mine = self.island_workers[i][p]
            best_other = max(self.island_workers[i][q] for q in range(self.num_players) if q != p)
            if mine > 0 and (mine > best_other or (ties and mine == best_other)):
                count += 1
        return count

    def workshop_majorities(self, p: int) -> int:
        """Workshop tiles where `p` has strictly the most workers."""
        if type(p) is not int or not 0 <= p < self.num_players:     # the rules' own calls pass these tests
            p = parse_seat(p, self.num_players, "player")
        count = 0
        for squares in self.layout.tiles:
            per = [0] * self.num_players
            for sq in squares:
                if self.workshop[sq] != NO_PLAYER:
                    per[self.workshop[sq]] += 1
            if per[p] > 0 and all(per[p] > per[q] for q in range(self.num_players) if q != p):
                count += 1
        return count

    # --- chance

    def _apply_chance(self, name: str, i: int) -> None:
        kind = self.chance_kind
        self.chance_kind = CK_NONE
        p = self.actor
        if kind == CK_FISH_DRAW:
            self.players[p].hand_blind[i] += 1
            self.draws_left -= 1
            self._continue_draws()
        elif kind == CK_FISH_REFILL:
            self.fish_display[i] += 1
            self._refill_fish_display()
        elif kind == CK_BUILDING_DRAW:
            self.players[p].buildings.append(i)
            self._refill_building_display()
        elif kind == CK_BUILDING_REFILL:
            self.building_display.append(i)
            self.building_display.sort()
            self._refill_building_display()
        elif kind == CK_ROOF_TILE:
            slots = self.players[p].roof_slots
            slots[slots.index(None)] = (self.chance_arg, i)
            self.picks_left -= 1
            self._continue_roof_pick()
        else:
            assert kind == CK_MARKERS
            self.markers = list(actions.MARKER_MAPPINGS[i])
            self.stage = ST_REPLENISH
            self.order_index = 0
            self._next_replenish_player()

    # --- roof picks (setup §3.10 and clean-up §8.5)

    def _empty_slots(self, p: int) -> int:
        return sum(1 for t in self.players[p].roof_slots if t is None)

    def _enter_roof_pick(self, p: int, picks: int) -> None:
        self.actor = p
        self.picks_left = picks
        self.kinds_picked = []
        self._continue_roof_pick()

    def _continue_roof_pick(self) -> None:
        available = [k for k in range(NUM_ROOF_KINDS) if k not in self.kinds_picked and sum(self.roof_stack(k)) > 0]
        if self.picks_left > 0 and available:
            self.phase = ROOF_PICK
            return
        self.picks_left = 0
        self.kinds_picked = []
        self.order_index += 1
        if self.stage == ST_SETUP:
            self._next_setup_player()
        else:
            self._next_roof_refill_player()

    def _do_roof_kind(self, kind: int) -> None:
        self.kinds_picked.append(kind)
        self.phase = CHANCE_NODE
        self.chance_kind = CK_ROOF_TILE
        self.chance_arg = kind

    def _next_setup_player(self) -> None:
        if self.order_index < self.num_players:
            self._enter_roof_pick(self.order_index, ROOF_SLOTS)
        else:
            self._start_pyramids()

    # --- pyramid construction (§4.1)

    def _start_pyramids(self) -> None:
        self.stage = ST_PYRAMID
        self.order_index = 0
        self._next_pyramid_player()

    def _next_pyramid_player(self) -> None:
        order = self.turn_order()
        while self.order_index < self.num_players:
            p = order[self.order_index]
            self.pyramid_target = min(PYRAMID_SIZE, sum(self.players[p].reserve))
            if self.pyramid_count(p) < self.pyramid_target:
                self.actor = p
                self.phase = PYRAMID
                return
            self.order_index += 1
        # Everyone has built: the pyramids become public; leftovers go back for 1 coin each.
        for pl in self.players:
            left = sum(pl.reserve)
            pl.coins += LEFTOVER_CUBE_COINS * left
            pl.reserve = [0] * NUM_COLOURS
        self.pyramid_target = 0
        self.stage = ST_ROUNDS
        self.round = 1
        self.moves = 0
        self.actor = self.first_player
        self.phase = TURN

    def _do_pyramid(self, colour: int) -> None:
        pl = self.players[self.actor]
        pos = self.pyramid_count(self.actor)   # positions fill in the fixed order b1..b9, m1..m4, top [RD-19]
        pl.reserve[colour] -= 1
        pl.pyramid[pos] = colour
        if pos + 1 >= self.pyramid_target:
            self.order_index += 1
            self._next_pyramid_player()

    # --- clean-up (§8)

    def _start_cleanup(self) -> None:
        self._score_island_majority()
        self.stage = ST_LACE_SCORING
        self.order_index = 0
        self._next_lace_player()

    def _score_island_majority(self) -> None:
        vp = ISLAND_MAJORITY_VP[self.num_players]
        for _island, tied, scorers in self.island_majority_scorers():
            for p in scorers:
                self.players[p].vp += vp if len(scorers) == 1 else vp // len(tied)

    def _next_lace_player(self) -> None:
        order = self.turn_order()
        while self.order_index < self.num_players:
            p = order[self.order_index]
            workers = self.workshop_workers(p)
            if workers:
                self.actor = p
                self.pay_queue = workers
                self.paid = []
                self.discount_used = False
                self._continue_lace_pay()
                return
            self.order_index += 1
        if self.season == len(SEASON_ROUNDS) - 1:
            self._final_scoring()
            return
        self.phase = CHANCE_NODE
        self.chance_kind = CK_MARKERS

    def _continue_lace_pay(self) -> None:
        p = self.actor
        while self.pay_queue and not self._pay_options(p, self.pay_queue[0]):
            self.pay_queue.pop(0)   # nothing to pay with: the worker stays unpaid
        if self.pay_queue:
            self.phase = LACE_PAY
            return
        pl = self.players[p]
        pl.vp += LACE_PAID_VP * len(self.paid)
        for size in topology.union_sizes(self.layout, self.paid):
            pl.vp += UNION_BONUS[size]
        self.paid = []
        self.discount_used = False
        self.order_index += 1
        self._next_lace_player()

    def _do_pay(self, option: int) -> None:
        p = self.actor
        pl = self.players[p]
        sq = self.pay_queue.pop(0)
        colour = self.layout.colour[sq]
        if option == actions.PAY_PYRAMID:
            # Any position may pay, even a covered one; take the highest such position.
            pos = max(i for i in range(PYRAMID_SIZE) if pl.pyramid[i] == colour)
            pl.pyramid[pos] = EMPTY
        elif option == actions.PAY_PRIVILEGE:
            pl.privilege -= 1   # the cube bought from the supply goes straight back as payment
        elif option == actions.PAY_DISCOUNT:
            self.discount_used = True
        if option != actions.PAY_NONE:
            self.paid.append(sq)
        self._continue_lace_pay()

    def _next_replenish_player(self) -> None:
        order = self.turn_order()
        if self.phase in (REPLENISH, PRIV_RESERVE):
            self.order_index += 1
        while self.order_index < self.num_players:
            p = order[self.order_index]
            pl = self.players[p]
            self.actor = p
            for pos in range(PYRAMID_SIZE):
                if pl.pyramid[pos] != EMPTY:
                    pl.reserve[pl.pyramid[pos]] += 1
                    pl.pyramid[pos] = EMPTY
            need = self.covered_colours(p)
            supply = self.supply()
            self.shortfall = 0
            for c in range(NUM_COLOURS):
                got = min(need[c], supply[c])
                pl.reserve[c] += got
                self.shortfall += need[c] - got
            if self._continue_replenish():
                return
            self.order_index += 1
        self.stage = ST_ROOF_REFILL
        self.order_index = 0
        self.phase = ROOF_DISCARD
        self._next_roof_refill_player()

    def _continue_replenish(self) -> bool:
        """Set the next replenishment decision of the actor; False when the actor has none left."""
        has_supply = sum(self.supply()) > 0
        if self.shortfall > 0 and has_supply:
            self.phase = REPLENISH
            return True
        self.shortfall = 0
        if self.players[self.actor].privilege > 0 and has_supply:
            self.phase = PRIV_RESERVE
            return True
        return False

    def _do_replenish(self, colour: int) -> None:
        self.players[self.actor].reserve[colour] += 1
        self.shortfall -= 1
        if not self._continue_replenish():
            self._next_replenish_player()

    def _do_priv_reserve(self, colour: int) -> None:
        pl = self.players[self.actor]
        pl.privilege -= 1
        pl.reserve[colour] += 1
        if not self._continue_replenish():
            self._next_replenish_player()

    def _next_roof_refill_player(self) -> None:
        order = self.turn_order()
        if self.order_index < self.num_players:
            p = order[self.order_index]
            self.actor = p
            if any(t is not None for t in self.players[p].roof_slots):
                self.phase = ROOF_DISCARD
            else:
                self._enter_roof_pick(p, ROOF_SLOTS)
            return
        # Step 6: the first-player marker passes; the next season begins.
        self.first_player = (self.first_player + 1) % self.num_players
        self.season += 1
        self.round = 1
        self._start_pyramids()

    def _do_roof_discard(self, slot: int) -> None:
        pl = self.players[self.actor]
        self.roofs_removed.append(pl.roof_slots[slot])
        pl.roof_slots[slot] = None
        if all(t is None for t in pl.roof_slots):
            self._enter_roof_pick(self.actor, ROOF_SLOTS)

    # --- end of the game (§10)

    def _final_scoring(self) -> None:
        for p, pl in enumerate(self.players):
            pl.coins += pl.privilege
            pl.privilege = 0
            pl.vp += pl.coins // COINS_PER_VP
            pl.vp += HAND_CARD_VP * (sum(pl.hand_known) + sum(pl.hand_blind))
            for c in pl.buildings:
                _, fam, arg = buildings.BUILDING_CARDS[c]
                if fam == buildings.SOLD_FISH:
                    pl.vp += buildings.SOLD_FISH_VP_PER_CARD * sum(pl.sold[s] for s in arg)
                elif fam == buildings.LACE_COLOURS:
                    pl.vp += buildings.LACE_COLOURS_VP_PER_WORKER * sum(
                        1 for sq in self.workshop_workers(p) if self.layout.colour[sq] in arg)
                elif fam == buildings.LACE_DISCOUNT:
                    pl.vp += buildings.LACE_DISCOUNT_END_VP
                elif fam == buildings.COLLECTOR:
                    pl.vp += buildings.COLLECTOR_VP_PER_CARD * len(pl.buildings)
                elif fam == buildings.MONUMENT:
                    pl.vp += buildings.MONUMENT_VP
        self.stage = ST_END
        self.phase = GAME_OVER
        self.actor = NO_PLAYER

    # ------------------------------------------------------------------------------------------
    # Invariants

    # ------------------------------------------------------------------------------------------
    # Information sets, resampling and JSON (format: docs/position-format.md)

    def information_state_key(self, seat: int | str) -> str:
        """A key equal for all states that `seat` cannot tell apart: its canonical view.

        Raises:
            TypeError / OptionError: `seat` is not a seat of this game (an int or a letter, `parse_seat`).
        """
        return json.dumps(self.to_dict(parse_seat(seat, self.num_players)), sort_keys=True, separators=(",", ":"))

    def resample(self, seat: int | str, seed: int) -> State:
        """Return a copy with everything `seat` cannot know replaced by a consistent random sample.

        Raises:
            TypeError / OptionError: `seat` is not a seat of this game (an int or a letter, `parse_seat`).
        """
        return resample_hidden(self, parse_seat(seat, self.num_players), seed)

    def __str__(self) -> str:
        return render_state(self)
