"""The reference model: Walking in Burano's rules in readable Python, the executable specification.

Every rule cites ../shared/rules/walking-in-burano.md by section (§n) and decision id (WD-n; WD-27
and up are ours, docs/rules-decisions-walking-in-burano.md). `State` extends the position fields
(`position.Position`) with the State API every service speaks (`burano_ai.core.game.State`).

Chance (§15.1): each setup deal and each refill draw from a deck whose shuffled part is not empty is
a chance node whose outcome is the card id (uniform over the shuffled part; the state holds the part
as a set, never an order, so a search cannot read future draws); the first player is drawn uniformly
unless the options fix it [WD-25]. A draw from a deck whose shuffled part is empty takes the first
returned card under it: a chance node with that one outcome (probability 1, WD-28), so a record shows
which card surfaced (the spec's §15.1 makes it no node; a record could then not tell). The only automatic moves are the spec's: END_BUILD after
the third placement, and a finished house with no legal character type is passed over (§7, WD-21).
"""

from __future__ import annotations

import random
from typing import Any

from burano_ai.core.arguments import check_index
from burano_ai.core.errors import OptionError
from burano_ai.core.game import NO_TURN
from burano_ai.core.reference import ReferenceGame, ReferenceState
from burano_ai.core.seats import CHANCE, SEAT_LETTERS, TERMINAL, parse_seat
from burano_ai.core.seeds import check_seed
from burano_ai.games.walking_in_burano import heuristic, rules, scoring
from burano_ai.games.walking_in_burano.data import (
    CARDS_PER_ACQUIRE, COIN_CAP, HAND_LIMIT, IS_TOURIST, LEVELS, MAX_HOUSES, MAX_PLACEMENTS, NUM_CHARACTERS,
    NUM_CARDS, ROUND_GUARD, CardData, card_level, load_data,
)
from burano_ai.games.walking_in_burano.position import (
    EMPTY, SCAFFOLD, House, Options, Position, Seat, check_config, position_from_json, position_to_dict,
)
from burano_ai.games.walking_in_burano.render import render
from burano_ai.games.walking_in_burano.rules import (
    ACQUIRE_NONE, CHARACTER0, END_BUILD, PHASE_ACQUIRE, PHASE_BUILD, PHASE_DEAL, PHASE_FIRST, PHASE_OVER,
    PHASE_REFILL, PHASE_RETURN, PHASE_VISIT, RETURN0, TARGET_LEFT, TARGET_RIGHT,
)


class Game(ReferenceGame):
    """Rules and metadata of one configuration.

    Args:
        num_players: 2..4.
        options: a `position.Options` (the §13 variants, `public_returns`, literal costs, a fixed first
            player); None = the defaults.
        data: the card data (`data.load_data`: None = the built-in PD-1 placeholder, a path, a dict).

    Raises:
        OptionError: a parameter out of range or wrong data (one line, named).
    """

    def __init__(self, num_players: int = 2, options: Options | None = None, data: object = None) -> None:
        options = options if options is not None else Options()
        check_config(num_players, options)
        self.num_players = num_players
        self.options = options
        self.data = load_data(data)

    def __repr__(self) -> str:
        return f"Game(num_players={self.num_players}, options={self.options!r})"

    def __hash__(self) -> int:
        return hash((self.num_players, self.options))

    def config(self) -> tuple:
        """(num_players, options, data)."""
        return self.num_players, self.options, self.data

    def num_distinct_actions(self) -> int:
        return rules.NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return rules.MAX_CHANCE_OUTCOMES

    def max_game_length(self) -> int:
        """Most decisions in a game: per turn 1 acquire + 3 places + 1 end + 3 characters + 3 returns,
        30 rounds at most [WD-20]."""
        return ROUND_GUARD * self.num_players * 11

    # `new_initial_state`: the position before the setup deals, every card in its deck (§3, §15.1).

    def _position_from_json(self, text: str) -> Position:
        return position_from_json(text, expect=self.config())


class State(ReferenceState, Position, game=Game, names=rules, view=position_to_dict, render=render,
            noun="a Walking in Burano position",
            differs_in="players, options or data"):
    """A position with the State API (see the module docstring)."""

    # ------------------------------------------------------------------------------------------
    # Node kinds

    def current_player(self) -> int:
        if self.phase == PHASE_OVER:
            return TERMINAL
        if self.phase in (PHASE_DEAL, PHASE_FIRST, PHASE_REFILL):
            return CHANCE
        return self.to_move

    @property
    def chance_kind(self) -> int:
        """The pending chance event (`rules.CHANCE_*`); 0 off chance nodes."""
        return rules.CHANCE_FIRST if self.phase == PHASE_FIRST else rules.CHANCE_DRAW

    # ------------------------------------------------------------------------------------------
    # Legal moves

    def column_levels(self, j: int) -> list[int]:
        """pres(j): the levels 1..3 with a card in market column j (§5, WD-16: gaps are not cards)."""
        if type(j) is not int or not 0 <= j < self.num_columns:
            j = check_index(j, self.num_columns, "market column")
        return [lv for lv in range(1, LEVELS + 1) if self.market[lv - 1][j] >= 0]

    def acquire_actions(self) -> list[int]:
        """§5: levels [a..b] of column j are a legal take iff a and b are present cards and the range
        touches an end of the column's present cards (RU:88-92); 2k - 1 takes for k present cards."""
        out = []
        for j in range(self.num_columns):
            pres = self.column_levels(j)
            if not pres:
                continue
            for s, (lo, hi) in enumerate(rules.RANGES):
                if lo in pres and hi in pres and (lo == pres[0] or hi == pres[-1]):
                    out.append(j * rules.NUM_RANGES + s)
        return out

    def place_cost(self) -> int | None:
        """The cost of the next placement of this turn (§6.1, WD-4); None once the turn's placements are
        used up (no next placement)."""
        costs = self.builds_cost()
        return costs[self.placed] if 0 <= self.placed < len(costs) else None

    def _seat_card_target(self, p: Any, card: Any, target: Any) -> tuple[int, int, int]:
        """(p, card, target) checked: a seat, a card id and a target (the rules' own calls pass at once)."""
        if type(p) is not int or not 0 <= p < self.num_players:
            p = parse_seat(p, self.num_players)
        if type(card) is not int or not 0 <= card < NUM_CARDS:
            card = check_index(card, NUM_CARDS, "card")
        if type(target) is not int or not 0 <= target < rules.NUM_TARGETS:
            target = check_index(target, rules.NUM_TARGETS, "target")
        return p, card, target

    def target_ok(self, p: int, card: int, target: int) -> bool:
        """§6.2 hard rules and §6.4's table of legal targets (`target_ok`)."""
        p, card, target = self._seat_card_target(p, card, target)
        return target_ok(self.seats[p], card, target)

    def breaks_soft_rule(self, p: int, card: int, target: int) -> bool:
        """§6.3 [WD-8] (`breaks_soft_rule`).

        Raises:
            OptionError: `target` names a house the seat's street does not have (nor new left or right).
        """
        p, card, target = self._seat_card_target(p, card, target)
        houses = len(self.seats[p].street)
        if target not in (TARGET_LEFT, TARGET_RIGHT) and target >= houses:
            raise OptionError(f"target {target}: seat {SEAT_LETTERS[p]}'s street has {houses} house"
                              f"{'' if houses == 1 else 's'} (targets: 0..{houses - 1}, {TARGET_LEFT} new left, "
                              f"{TARGET_RIGHT} new right)")
        return breaks_soft_rule(self.data, self.seats[p], card, target)

    def place_actions(self) -> list[int]:
        """§6: PLACE(c, t) iff fewer than 3 placed, the cost is paid in full, t is a legal target and,
        if the card breaks a soft rule, a token is left (RU:124)."""
        p = self.to_move
        seat = self.seats[p]
        if self.placed >= MAX_PLACEMENTS or seat.coins < self.place_cost():
            return []
        out = []
        for card in seat.hand:
            for t in range(rules.NUM_TARGETS):
                if self.target_ok(p, card, t) and (seat.tokens > 0 or not self.breaks_soft_rule(p, card, t)):
                    out.append(rules.place_action(card, t))
        return out

    def pending_house(self) -> int:
        """The leftmost house of the seat to move still waiting for its character (§7, WD-21), or -1."""
        for j, h in enumerate(self.seats[self.to_move].street):
            if h.pending:
                return j
        return -1

    def character_types(self, p: int) -> list[int]:
        """§7: types with a card left, never a second inhabitant of a type the seat owns (RU:132, RU:145)."""
        if type(p) is not int or not 0 <= p < self.num_players:     # the rules' own calls pass these tests
            p = parse_seat(p, self.num_players)
        owned = {h.character for h in self.seats[p].street if h.character >= 0}
        return [k for k in range(NUM_CHARACTERS) if self.stacks[k] and (IS_TOURIST[k] or k not in owned)]

    def return_actions(self) -> list[int]:
        """§8, §15.4: RETURN(c) in canonical order: c above every card returned in this step, and
        enough larger cards left for the returns still needed after it."""
        hand = self.seats[self.to_move].hand
        needed = len(hand) - HAND_LIMIT
        floor = self.returned[-1] if self.returned else -1
        return [RETURN0 + c for c in hand if c > floor and sum(x > c for x in hand) >= needed - 1]

    def legal_actions(self, player: int | str | None = None) -> list[int]:
        """The legal moves of the seat to move, sorted; empty at chance nodes and at the end (§15.4, §15.5)."""
        if player is not None and parse_seat(player, self.num_players, "player") != self.current_player():
            return []
        if self.phase == PHASE_ACQUIRE:
            return self.acquire_actions() or [ACQUIRE_NONE]          # WD-19
        if self.phase == PHASE_BUILD:
            return self.place_actions() + [END_BUILD]
        if self.phase == PHASE_VISIT:
            return [CHARACTER0 + k for k in self.character_types(self.to_move)]
        if self.phase == PHASE_RETURN:
            return self.return_actions()
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability) of the pending chance event (§15.1); empty off chance nodes."""
        if self.phase == PHASE_FIRST:
            return [(p, 1.0 / self.num_players) for p in range(self.num_players)]
        if self.phase in (PHASE_DEAL, PHASE_REFILL):
            cursor = self.refill_cursor()
            assert cursor is not None
            cards = self.shuffled(cursor[0])
            if not cards:                                # WD-28: the first returned card, surely
                return [(self.under[cursor[0] - 1][0][0], 1.0)]
            return [(c, 1.0 / len(cards)) for c in cards]
        return []

    # ------------------------------------------------------------------------------------------
    # Applying moves

    def _text_kind(self) -> int | None:
        return self.chance_kind if self.is_chance_node() else None

    def action_to_string(self, action: int) -> str:
        return rules.action_to_str(action, self._text_kind())

    def string_to_action(self, text: str) -> int:
        return rules.parse_action(text, self._text_kind())

    def where(self) -> str:
        """Where the game stands, for messages ("in round 2, seat B to move")."""
        if self.phase == PHASE_OVER:
            return "after the end of the game"
        if self.phase in (PHASE_DEAL, PHASE_FIRST):
            return "during setup"
        if self.phase == PHASE_REFILL:
            return f"in the refill before round {self.round + 2}"
        return f"in round {self.round + 1}, seat {SEAT_LETTERS[self.to_move]} to move ({rules.PHASE_NAMES[self.phase]})"

    def _apply_unchecked(self, action: int) -> None:
        phase = self.phase
        if phase in (PHASE_DEAL, PHASE_REFILL):
            self._draw(action)
        elif phase == PHASE_FIRST:
            self._start_round(action)
        elif phase == PHASE_ACQUIRE:
            self._acquire(action)
        elif phase == PHASE_BUILD:
            if action == END_BUILD:
                self._end_build()
            else:
                self._place(*rules.decode_place(action))
        elif phase == PHASE_VISIT:
            self._visit(action - CHARACTER0)
        else:
            self._return(action - RETURN0)

    # --- setup and refills (§3, §9)

    def _draw(self, card: int) -> None:
        """One deal or refill draw into the pending slot (§9 step 4): from the shuffled part, or when it
        is empty the first returned card under the deck (WD-22: first returned, first drawn)."""
        level, col = self.refill_cursor()
        if not self.shuffled(level):
            _, owner, _when = self.under[level - 1].pop(0)
            if card in self.seats[owner].pool:           # it surfaces face up: no longer uncertain (WD-27)
                self.seats[owner].pool.discard(card)
                self.normalise_pool(owner, level)
        self.market[level - 1][col] = card
        self._continue_refill()

    def _continue_refill(self) -> None:
        """Stop at the next slot to fill (a chance node), or end the deal or the refill."""
        if self.refill_cursor() is not None:
            return
        if self.phase == PHASE_DEAL:
            if self.options.first_player >= 0:
                self._start_round(self.options.first_player)
            else:
                self.phase = PHASE_FIRST                 # WD-25: a chance node
            return
        # §9 step 5 [WD-18]: a deck empty after the refill makes the next round the last
        if any(self.deck_size(level) == 0 for level in range(1, LEVELS + 1)):
            self.last_round = True
        self.round += 1
        self._start_round(self.first_player)

    def _start_round(self, first: int) -> None:
        """§4: the holder of the first-player token takes the first turn of the round."""
        self.first_player = first
        self.to_move = first
        self.phase = PHASE_ACQUIRE

    # --- a turn (§4-§8)

    def _acquire(self, action: int) -> None:
        """§5: take the cards of the level range from column j; gain 3 - cards taken coins (RU:78-81)."""
        seat = self.seats[self.to_move]
        if action != ACQUIRE_NONE:                       # WD-19: nothing taken, nothing gained
            j, lo, hi = rules.decode_acquire(action)
            taken = []
            for lv in range(lo, hi + 1):
                if self.market[lv - 1][j] >= 0:
                    taken.append(self.market[lv - 1][j])
                    self.market[lv - 1][j] = EMPTY
            seat.hand = sorted(seat.hand + taken)
            seat.coins += CARDS_PER_ACQUIRE - len(taken)
        self.placed = 0
        self.phase = PHASE_BUILD

    def _place(self, card: int, target: int) -> None:
        """§6: pay, check the soft rules (a token, WD-8), put the card up with the scaffolds it needs
        (§6.4, WD-7), and note a house finished this turn (§7)."""
        p = self.to_move
        seat = self.seats[p]
        level = card_level(card)
        seat.coins -= self.place_cost()
        if self.breaks_soft_rule(p, card, target):
            seat.tokens -= 1
        if target in (TARGET_LEFT, TARGET_RIGHT):
            house = House()
            for lv in range(level - 1):                  # scaffolds below a new L2 or L3 card
                house.floors[lv] = SCAFFOLD
            if target == TARGET_LEFT:
                seat.street.insert(0, house)
            else:
                seat.street.append(house)
        else:
            house = seat.street[target]
            if level == 3 and house.floors[1] == EMPTY:
                house.floors[1] = SCAFFOLD               # a free scaffold supports the roof
        house.floors[level - 1] = card                   # a scaffold in the slot is replaced (freed)
        seat.hand.remove(card)
        if card in seat.pool:                            # it was in the hand after all (WD-27)
            seat.pool.discard(card)
            self.normalise_pool(p, level)
        if house.is_finished():
            house.pending = True
        self.placed += 1
        if self.placed == MAX_PLACEMENTS:                # §15.4: END_BUILD is automatic after the 3rd
            self._end_build()

    def _end_build(self) -> None:
        self.phase = PHASE_VISIT
        self._next_visit()

    def _next_visit(self) -> None:
        """§7 [WD-21]: serve the waiting houses left to right; a house with no legal type gets none."""
        p = self.to_move
        while (j := self.pending_house()) >= 0:
            if self.character_types(p):
                return                                   # a decision
            self.seats[p].street[j].pending = False
        self._start_returns()

    def _visit(self, kind: int) -> None:
        house = self.seats[self.to_move].street[self.pending_house()]
        house.character = kind
        house.pending = False
        self.stacks[kind] -= 1
        self._next_visit()

    def _start_returns(self) -> None:
        """§8: the hand limit; the returns are decisions, one card each."""
        self.returned = []
        if len(self.seats[self.to_move].hand) > HAND_LIMIT:
            self.phase = PHASE_RETURN
        else:
            self._end_turn()

    def _return(self, card: int) -> None:
        """§8 [WD-22]: the card goes face down under its level's deck (after the returns already there).

        WD-27: if the seat keeps other cards of that level, or that level is already uncertain, the
        card and the seat's cards of that level join its pool (the others cannot tell them apart)."""
        p = self.to_move
        seat = self.seats[p]
        level = card_level(card)
        seat.hand.remove(card)
        self.under[level - 1].append([card, p, self.round])
        self.returned.append(card)
        if not self.options.public_returns:
            kept = [c for c in seat.hand if card_level(c) == level]
            if kept or any(card_level(c) == level for c in seat.pool):
                seat.pool.update(kept)
                seat.pool.add(card)
        if len(seat.hand) > HAND_LIMIT:
            return
        # the step is over: returning every card of a level that held nothing uncertain reveals them
        for lv in range(1, LEVELS + 1):
            mine = {c for c in self.returned if card_level(c) == lv}
            pooled = {c for c in seat.pool if card_level(c) == lv}
            if mine and pooled == mine and not any(card_level(c) == lv for c in seat.hand):
                seat.pool -= mine
            self.normalise_pool(p, lv)
        self.returned = []
        self._end_turn()

    def _end_turn(self) -> None:
        """§8: coins above 6 go back to the bank (RU:102); then the next seat, or the end of the round."""
        seat = self.seats[self.to_move]
        seat.coins = min(seat.coins, COIN_CAP)
        self.placed = 0
        self.turn += 1
        nxt = (self.to_move + 1) % self.num_players
        if nxt != self.first_player:
            self.to_move = nxt
            self.phase = PHASE_ACQUIRE
            return
        self._end_round()

    # --- end of a round and of the game (§9, §10)

    def _end_round(self) -> None:
        self.to_move = -1
        if (any(s.finished_houses() >= MAX_HOUSES for s in self.seats)   # §10.1 (RU:84, RU:179)
                or self.last_round                                        # §10.2 [WD-18]
                or self.round == ROUND_GUARD - 1):                        # §10.3 [WD-20]
            self.phase = PHASE_OVER
            return
        self.first_player = (self.first_player + 1) % self.num_players   # §9 step 1 (RU:161)
        for r in range(LEVELS):
            row = self.market[r]
            if self.num_players == 2:                    # §9 step 2 [WD-17]: the rightmost card leaves
                for col in range(self.num_columns - 1, -1, -1):
                    if row[col] >= 0:
                        self.discard.append(row[col])
                        row[col] = EMPTY
                        break
            cards = [c for c in row if c >= 0]           # §9 step 3: slide left, keeping the order
            self.market[r] = cards + [EMPTY] * (len(row) - len(cards))
        self.phase = PHASE_REFILL
        self._continue_refill()                          # §9 step 4: chance draws, returned cards at once

    # --- outcome (§11, §12)

    def final_breakdown(self, p: int) -> dict[str, int]:
        """§11.1: seat p's characters (A), shops (B), tokens (C) and windows (-D) as the street stands."""
        return scoring.breakdown(self, parse_seat(p, self.num_players))

    def scores(self) -> list[int]:
        """Each seat's total A + B + C - D (§11.1): the final score at the end, the score if the game
        ended now before it."""
        return scoring.totals(self)

    def finishing_key(self, player: int | str) -> tuple[int, int, int]:
        """§12: the higher total; tied, more coins; still tied, more cats in the street (WD-10)."""
        p = parse_seat(player, self.num_players, "player")
        return scoring.finishing_keys(self)[p]

    def winners(self) -> list[int]:
        keys = scoring.finishing_keys(self)
        return [p for p in range(self.num_players) if keys[p] == max(keys)]

    def estimated_scores(self) -> list[float]:
        """A cut-off evaluation: the final scoring of the streets as they stand (unfinished houses'
        characters not yet counted)."""
        return [float(x) for x in self.scores()]

    def _prior(self, player: int, legal: list[int]) -> dict[int, float] | None:
        """`heuristic.prior` while `heuristic.SEARCH_PRIOR` is on (off by default: measured, it did not pay)."""
        return heuristic.prior(self, player, legal) if heuristic.SEARCH_PRIOR else None

    def turn_id(self) -> int:
        """The turn counter during a turn (its acquire, placements, visits and returns); NO_TURN elsewhere."""
        return self.turn if self.to_move >= 0 else NO_TURN

    # ------------------------------------------------------------------------------------------
    # Copies, keys, views, resampling, JSON

    def to_position(self) -> Position:
        """The fields as a plain `position.Position` (a copy), as the compiled State gives them."""
        out = Position.__new__(Position)
        out.copy_fields_from(self)
        return out

    def _key(self, viewer: int | None) -> int:
        """The Zobrist key; with `viewer`, another seat's pooled cards sit at LOC_POOLED + owner."""
        z = rules.zobrist
        k = z(rules.Z_PHASE, 0, self.phase) ^ z(rules.Z_ROUND, 0, self.round) ^ z(rules.Z_TO_MOVE, 0, self.to_move)
        k ^= z(rules.Z_FIRST, 0, self.first_player) ^ z(rules.Z_LAST_ROUND, 0, int(self.last_round))
        k ^= z(rules.Z_PLACED, 0, self.placed)
        for i, c in enumerate(self.returned):           # public: how many, of which levels
            k ^= z(rules.Z_RETURNED, i, card_level(c))
        for kind in range(NUM_CHARACTERS):
            k ^= z(rules.Z_STACK, kind, self.stacks[kind])
        hidden = {c: o for o, s in enumerate(self.seats) if o != viewer for c in s.pool} if viewer is not None else {}

        def card(c: int, loc: int) -> int:
            return z(rules.Z_CARD, c, rules.LOC_POOLED + hidden[c] if c in hidden else loc)

        for r in range(LEVELS):
            for col in range(self.num_columns):
                if self.market[r][col] >= 0:
                    k ^= card(self.market[r][col], rules.LOC_MARKET + 5 * r + col)
            for i, (c, owner, _when) in enumerate(self.under[r]):   # the round is public, not in the key
                k ^= card(c, rules.LOC_UNDER + i) ^ z(rules.Z_UNDER_OWNER, 32 * r + i, owner)
        for c in self.discard:
            k ^= card(c, rules.LOC_DISCARD)
        for p, s in enumerate(self.seats):
            k ^= z(rules.Z_COINS, p, s.coins) ^ z(rules.Z_TOKENS, p, s.tokens)
            k ^= z(rules.Z_HAND_SIZE, p, len(s.hand)) ^ z(rules.Z_STREET_LEN, p, len(s.street))
            for c in s.hand:
                k ^= card(c, rules.LOC_HAND + p)
            for c in s.pool:
                k ^= z(rules.Z_POOLED, c, 1)
            for j, h in enumerate(s.street):
                w = p * MAX_HOUSES + j
                for lv, f in enumerate(h.floors):
                    if f >= 0:
                        k ^= card(f, rules.LOC_STREET + 3 * w + lv)
                    elif f == SCAFFOLD:
                        k ^= z(rules.Z_SCAFFOLD, 3 * w + lv, 1)
                if h.character >= 0:
                    k ^= z(rules.Z_CHARACTER, w, h.character)
                if h.pending:
                    k ^= z(rules.Z_PENDING, w, 1)
        return k

    def key(self) -> int:
        """The 64-bit Zobrist key: every field a `rules.zobrist` cell (module rules' docstring)."""
        return self._key(None)

    def information_state_key(self, seat: int | str) -> int:
        """Equal for states `seat` cannot tell apart (§14, WD-27): the others' pooled cards unplaced."""
        seat = parse_seat(seat, self.num_players)
        return self._key(seat) ^ rules.zobrist(rules.Z_VIEWER, 0, seat)

    def resample(self, seat: int | str, seed: int) -> State:
        """A copy with everything `seat` cannot know redrawn consistently with its view (§15.2, WD-27):
        each other seat's pooled cards of a level are dealt uniformly to that seat's pooled places (its
        hidden hand cards and its hidden queue entries under the deck, ascending within the cards
        returned in one step, this one or a past one: WD-22, §15.2). The deck orders are not state (chance
        draws them)."""
        seat = parse_seat(seat, self.num_players)
        rng = random.Random(check_seed(seed))
        out = self.clone()
        for o, s in enumerate(out.seats):
            if o == seat or not s.pool:
                continue
            for level in range(1, LEVELS + 1):
                cards = sorted(c for c in s.pool if card_level(c) == level)
                if not cards:
                    continue
                for _ in range(64):                      # rejection: keep the return step's canonical order
                    trial = out.clone()
                    if trial._redeal_pool(o, level, cards, rng):
                        out = trial
                        break
        return out

    def _redeal_pool(self, o: int, level: int, cards: list[int], rng: random.Random) -> bool:
        seat = self.seats[o]
        queue = self.under[level - 1]
        slots = [i for i, (c, owner, _when) in enumerate(queue) if owner == o and c in seat.pool]
        in_hand = [c for c in seat.hand if c in seat.pool and card_level(c) == level]
        step = [c for c in self.returned if card_level(c) == level] if o == self.to_move else []
        deal = list(cards)
        rng.shuffle(deal)
        for i, c in zip(slots, deal):
            queue[i][0] = c
        # the cards of one return step (one owner, one round) lie under the deck in ascending order (WD-22)
        for n, i in enumerate(slots):
            for j in slots[n + 1:]:
                if queue[i][2] >= 0 and queue[j][2] == queue[i][2] and queue[j][0] < queue[i][0]:
                    queue[i][0], queue[j][0] = queue[j][0], queue[i][0]
        seat.hand = sorted([c for c in seat.hand if c not in in_hand] + deal[len(slots):])
        if step:
            # the cards of this step are the last entries of the seat's queue, returned in ascending order
            mine = [i for i, (c, owner, _when) in enumerate(queue) if owner == o][-len(step):]
            now = sorted(queue[i][0] for i in mine)
            for i, c in zip(mine, now):
                queue[i][0] = c
            self.returned = sorted([c for c in self.returned if card_level(c) != level] + now)
            hand = seat.hand
            needed = len(hand) - HAND_LIMIT
            if sum(x > self.returned[-1] for x in hand) < needed:
                return False
        return True

    def __repr__(self) -> str:
        return f"<walking-in-burano State round {self.round + 1} {rules.PHASE_NAMES[self.phase]} key {self.key():016x}>"


def target_ok(seat: Seat, card: int, target: int) -> bool:
    """§6.2 hard rules and §6.4's table of legal targets for `card` in `seat`'s street (scaffolds taken
    automatically)."""
    n, free = len(seat.street), seat.free_scaffolds()
    level = card_level(card)
    if target in (TARGET_LEFT, TARGET_RIGHT):
        if n >= MAX_HOUSES or (n == 0 and target == TARGET_LEFT):     # one new position in an empty street
            return False
        return free >= level - 1                     # L2 needs 1 scaffold below, L3 needs 2
    if target >= n:
        return False
    floors = seat.street[target].floors
    if level == 1:
        return floors[0] == SCAFFOLD
    if level == 2:
        return floors[1] in (EMPTY, SCAFFOLD)
    return floors[2] == EMPTY and (floors[1] != EMPTY or free >= 1)


def breaks_soft_rule(data: CardData, seat: Seat, card: int, target: int) -> bool:
    """§6.3 [WD-8]: the placed card's colour against the real cards already in the street: rule 1
    (its own house holds another colour) or rule 2 (a neighbouring house holds its colour)."""
    street = seat.street
    colour = data.cards[card].colour
    if target == TARGET_LEFT:
        own, neighbours = [], street[:1]
    elif target == TARGET_RIGHT:
        own, neighbours = [], street[-1:]
    else:
        own, neighbours = [street[target]], street[max(0, target - 1):target] + street[target + 1:target + 2]
    if any(data.cards[c].colour != colour for h in own for c in h.real_cards()):
        return True
    return any(data.cards[c].colour == colour for h in neighbours for c in h.real_cards())
