"""The reference model: Venice 2099's rules in readable Python, the executable specification.

Every rule cites ../shared/rules/venice-2099.md by section (§n) and decision id (VD-n). `State` extends
the position fields (`position.Position`) with the State API every service speaks
(`burano_ai.core.game.State`).

Chance happens only at setup (§9, §10.2): with 2 players the colour left out, then the tile of each
square in order, then each card of the deal (card j to seat j mod n); the cards never dealt are the
set-aside pile. After setup the game is deterministic: placement (round robin, VD-6), then turns of
MOVE -> BUY -> CARD (§4), a card's sinking possibly followed by the drowning figure's owner's RESCUE
decision (§5.6) — the one decision of a seat that is not the active one.

Hidden information: the hands and the set-aside pile (§9). `information_state_key(i)` hides every card
seat i cannot see; `resample(i, seed)` redraws them with §10.3's exact uniform sampler
(`rules.resample_hands`).
"""

from __future__ import annotations

from burano_ai.core.arguments import check_index, check_instance
from burano_ai.core.game import NO_TURN
from burano_ai.core.reference import ReferenceGame, ReferenceState
from burano_ai.core.seats import CHANCE, SEAT_LETTERS, TERMINAL, parse_seat
from burano_ai.core.seeds import SplitMix64
from burano_ai.games.venice_2099 import heuristic, rules
from burano_ai.games.venice_2099.data import (
    FIGURES_EACH, NUM_COLOURS, NUMERIC_VALUES, X_INDEX, X_MULTIPLIER, token_value,
)
from burano_ai.games.venice_2099.position import Position, check_land, position_from_json, position_to_dict
from burano_ai.games.venice_2099.render import render
from burano_ai.games.venice_2099.rules import (
    BOARD_WIDTH, BUY0, DECLINE_RESCUE, GONDOLA0, IN_WATER, LOST, MOVE0, PASS_BUY, PASS_MOVE, PHASE_BUY,
    PHASE_CARD, PHASE_MOVE, PHASE_OVER, PHASE_PLACE, PHASE_RESCUE, PHASE_SETUP, PLACE0, PLATFORM, PLAY0,
    RESCUE0,
)

class Game(ReferenceGame):
    """Rules and metadata of one configuration.

    Args:
        num_players: 2..5.
        options: the rule flags of §10.10 (`rules.Options`, or a mapping flag -> value; None = the
            spec's decisions).
        **flags: the same flags as keywords (the framework's game options: `forecast_values=...`);
            they override `options`.

    Raises:
        OptionError: a parameter out of range or an unknown flag (one line, named).
    """

    def __init__(self, num_players: int = 3, options: object = None, **flags: object) -> None:
        self.num_players = rules.check_players(num_players)
        if flags:
            base = rules.check_options(options).to_dict()
            base.update(flags)
            options = base
        self.options = rules.check_options(options)

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.to_dict().items() if getattr(rules.DEFAULT_OPTIONS, k) != v}
        return f"Game(num_players={self.num_players}{', options=' + repr(changed) if changed else ''})"

    def config(self) -> tuple[int, rules.Options]:
        """(num_players, options)."""
        return self.num_players, self.options

    def num_distinct_actions(self) -> int:
        return rules.NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return rules.MAX_CHANCE_OUTCOMES

    def max_game_length(self) -> int:
        """Most decisions (§10.8): placements + 3 per turn (4 with an extra gondola move) + 1 rescue per turn."""
        n = self.num_players
        turns = n * rules.config_counts(n)["cards_each"]
        per_turn = 4 if self.options.gondola_move_is_step1 else 5
        return n * FIGURES_EACH[n] + per_turn * turns

    # `new_initial_state`: the first chance node draws the colour (2 players) or lays a1 (§3, §10.2).

    def _position_from_json(self, text: str) -> Position:
        """A seat's view comes with the hidden hands filled consistently."""
        pos, _ = position_from_json(text, expect=self.config())
        return pos


class State(ReferenceState, Position, game=Game, names=rules, view=position_to_dict, render=render,
            noun="a Venice 2099 position",
            differs_in="players or rule options"):
    """A position with the State API (see the module docstring)."""

    # ------------------------------------------------------------------------------------------
    # Node kinds

    def current_player(self) -> int:
        if self.phase == PHASE_OVER:
            return TERMINAL
        if self.phase == PHASE_SETUP:
            return CHANCE
        return self.to_move()

    @property
    def chance_kind(self) -> int:
        """The pending chance event (`rules.CHANCE_*`); 0 off chance nodes."""
        return self.setup_cursor()[0] if self.phase == PHASE_SETUP else 0

    # ------------------------------------------------------------------------------------------
    # Chance (§3, §10.2)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability) of the pending setup step; empty off chance nodes."""
        if self.phase != PHASE_SETUP:
            return []
        kind, _ = self.setup_cursor()
        if kind == rules.CHANCE_COLOUR:               # §3.2 step 1, VD-11: one colour uniformly
            return [(c, 1.0 / NUM_COLOURS) for c in range(NUM_COLOURS)]
        if kind == rules.CHANCE_LAYOUT:               # §3.1 step 1 [RB:56]: a uniformly random order
            laid = set(self.tiles)
            districts = [d for d in rules.districts_in_play(self.num_players, self.removed_colour) if d not in laid]
            platforms = self.platforms - self.tiles.count(PLATFORM)
            left = len(districts) + platforms
            out = [(d, 1.0 / left) for d in districts]
            if platforms:
                out.append((PLATFORM, platforms / left))
            return out
        held = {k for h in self.hands for k in h}     # §3.1 step 3: each undealt card alike
        undealt = [k for k in self.deck() if k not in held]
        return [(k, 1.0 / len(undealt)) for k in undealt]

    def _setup_step(self, outcome: int) -> None:
        kind, where = self.setup_cursor()
        if kind == rules.CHANCE_COLOUR:
            self.removed_colour = outcome
            if self.options.treasure_supply:
                self.supply[outcome] = 0               # §3.2 step 3: its tokens leave the game
        elif kind == rules.CHANCE_LAYOUT:
            self.tiles[where] = outcome
        else:
            p = where % self.num_players               # card j to seat j mod n
            self.hands[p] = sorted(self.hands[p] + [outcome])
            if where + 1 == self.dealt_total():        # the rest stays set aside, unseen (RB:64)
                self.phase = PHASE_PLACE

    # ------------------------------------------------------------------------------------------
    # Legal moves (§5, §10.7)

    def legal_actions(self, player: int | str | None = None) -> list[int]:
        """The legal moves of the seat to move, sorted; empty at chance nodes and at the end."""
        if player is not None and parse_seat(player, self.num_players, "player") != self.current_player():
            return []
        phase = self.phase
        if phase == PHASE_PLACE:
            return [PLACE0 + s for s in self.placements()]
        if phase == PHASE_MOVE:
            return sorted(self.normal_moves() + self.gondola_moves() + [PASS_MOVE])
        if phase == PHASE_BUY:
            return [BUY0 + f for f in self.buys()] + [PASS_BUY]
        if phase == PHASE_CARD:
            return [PLAY0 + k for k in self.playable_cards(self.active())]
        if phase == PHASE_RESCUE:
            return [RESCUE0 + s for s in self.rescue_squares()] + [DECLINE_RESCUE]
        return []

    def placements(self) -> list[int]:
        """§3.1 step 7 [RB:72-74, VD-7]: a free square; on a district, a value none of the placer's
        figures on districts has (X is a value of its own); platforms always."""
        p = self.to_move()
        taken = self.occupant()
        own_values = {rules.district_vi(self.tiles[x]) for x in self.figures[p] if x >= 0 and self.tiles[x] != PLATFORM}
        return [s for s in range(self.n * self.n) if s not in taken and
                (self.tiles[s] == PLATFORM or rules.district_vi(self.tiles[s]) not in own_values)]

    def _blocked(self, s: int, taken: dict) -> bool:
        """RB:93-95: water and every figure block a normal move."""
        return self.water[s] or s in taken

    def normal_moves(self) -> list[int]:
        """§5.1 [VD-2, VD-3]: a straight line in one of 8 (or 4) directions, stopping anywhere before the
        first blocker; none after a normal move this turn (only possible with `gondola_move_is_step1` false)."""
        p, N = self.active(), self.n
        if self.moved & 1:
            return []
        taken = self.occupant()
        out = []
        directions = rules.DIRECTIONS[:self.options.move_dirs]
        for f in self.alive_figures(p):
            start = self.figures[p][f]
            for dr, dc in directions:
                r, c = divmod(start, N)
                while True:
                    nr, nc = r + dr, c + dc
                    if not (0 <= nr < N and 0 <= nc < N) or self._blocked(nr * N + nc, taken):
                        break
                    if dr and dc and not self.options.diagonal_squeeze and \
                            self._blocked(nr * N + c, taken) and self._blocked(r * N + nc, taken):
                        break                          # VD-3's alternative: no squeezing past a corner
                    r, c = nr, nc
                    out.append(rules.move_action(f, r * N + c))
        return out

    def gondola_moves(self) -> list[int]:
        """§5.2 [VD-4]: with a gondola card, a figure to any square that is not water and holds no figure."""
        p = self.active()
        if not self.gondolas[p] or self.moved & 2:
            return []
        taken = self.occupant()
        free = [s for s in range(self.n * self.n) if not self.water[s] and s not in taken]
        return [rules.gondola_action(f, s) for f in self.alive_figures(p) for s in free]

    def price(self, s: int) -> int:
        """§5.3 [RB:109]: the coins on the square + 1."""
        if type(s) is not int or not 0 <= s < len(self.coins_on):
            s = check_index(s, len(self.coins_on), "square")
        return self.coins_on[s] + 1

    def buys(self) -> list[int]:
        """§5.3 [RB:103-115, VD-8]: the slots of the active seat's figures on unsunk districts whose colour
        the supply still has and whose price the seat can pay."""
        p = self.active()
        out = []
        for f in self.alive_figures(p):
            s = self.figures[p][f]
            if not self.is_land(s):
                continue                               # a platform never allows buying (RB:111)
            c = rules.district_colour(self.tiles[s])
            if self.supply[c] != 0 and self.coins[p] >= self.price(s):
                out.append(f)
        return out

    def playable_cards(self, p: int) -> list[int]:
        """§5.4 [RB:121-123]: the cards of the lowest rank in p's hand."""
        hand = self.hands[parse_seat(p, self.num_players)]
        if not hand:
            return []
        low = min(rules.card_vi(k, self.options) for k in hand)
        return [k for k in hand if rules.card_vi(k, self.options) == low]

    def rescue_squares(self, taken: dict | None = None) -> list[int]:
        """§5.6 [VD-5]: every free unsunk district (and free platform with `rescue_to_platform`)."""
        taken = self.occupant() if taken is None else check_instance(taken, dict, "taken (square -> figure)")
        return [s for s in range(self.n * self.n) if s not in taken and not self.water[s] and
                (self.is_land(s) or (self.tiles[s] == PLATFORM and self.options.rescue_to_platform))]

    # ------------------------------------------------------------------------------------------
    # Applying moves

    def _text_context(self) -> dict:
        if self.phase == PHASE_SETUP:
            kind, where = self.setup_cursor()
            return {"chance_kind": kind, "square": where if kind == rules.CHANCE_LAYOUT else 0}
        p = self.to_move()
        return {"figure_squares": tuple(self.figures[p]) if p >= 0 else (), "phase": self.phase}

    def action_to_string(self, action: int) -> str:
        return rules.action_to_str(action, self.n, options=self.options, **self._text_context())

    def string_to_action(self, text: str) -> int:
        return rules.parse_action(text, self.n, options=self.options, **self._text_context())

    def where(self) -> str:
        """Where the game stands, for messages ("in turn 5, seat B to move")."""
        if self.phase == PHASE_OVER:
            return "after the end of the game"
        if self.phase == PHASE_SETUP:
            return "during setup"
        if self.phase == PHASE_PLACE:
            return f"during the placement, seat {SEAT_LETTERS[self.to_move()]} to place"
        who = SEAT_LETTERS[self.to_move()]
        return f"in turn {self.turn() + 1} ({rules.PHASE_NAMES[self.phase]}), seat {who} to move"

    def _apply_unchecked(self, action: int) -> None:
        if self.phase == PHASE_SETUP:
            self._setup_step(action)
        else:
            self._step(action)
        self._settle()

    def _step(self, action: int) -> None:
        """One decision, applied (checked by the caller)."""
        phase = self.phase
        if phase == PHASE_PLACE:
            self._place(action - PLACE0)
        elif phase == PHASE_MOVE:
            if action == PASS_MOVE:
                self.moved = 0
                self.phase = PHASE_BUY                 # passing is allowed (§5.1)
            elif action < GONDOLA0:
                f, s = divmod(action - MOVE0, BOARD_WIDTH)
                self._move(f, s, 1)
            else:
                f, s = divmod(action - GONDOLA0, BOARD_WIDTH)
                self.gondolas[self.active()] -= 1      # discarded for good (RB:151)
                self._move(f, s, 2)
        elif phase == PHASE_BUY:
            if action != PASS_BUY:
                self._buy(action - BUY0)
            self.phase = PHASE_CARD
        elif phase == PHASE_CARD:
            self._play_card(action - PLAY0)
        elif phase == PHASE_RESCUE:
            owner, f = self.rescue_pending()
            if action == DECLINE_RESCUE:               # the owner may decline (RB:145): removed for good
                self.figures[owner][f] = LOST
            else:
                self.gondolas[owner] -= 1              # §5.6: discard a gondola card (RB:151)
                self.figures[owner][f] = action - RESCUE0
            self._start_turn()                         # after the rescue decision the turn ends (§5.6)

    def _place(self, s: int) -> None:
        p, f = self.placement_order()[self.placed_count()]
        self.figures[p][f] = s
        if self.placed_count() == len(self.figures) * self.figures_each:
            self._start_turn()

    def _move(self, f: int, s: int, bit: int) -> None:
        """§5.1 / §5.2: the figure goes to s. The move step ends, unless VD-4's alternative allows the
        other kind of move still (a normal and a gondola move, each at most once, before buying)."""
        self.figures[self.active()][f] = s
        self.moved |= bit
        if self.options.gondola_move_is_step1 or self.moved == 3:
            self.moved = 0
            self.phase = PHASE_BUY

    def _buy(self, f: int) -> None:
        """§5.3: pay pile + 1 onto the square, take a token of its colour (RB:109-113)."""
        p = self.active()
        s = self.figures[p][f]
        c = rules.district_colour(self.tiles[s])
        price = self.price(s)
        self.coins[p] -= price
        self.coins_on[s] += price
        self.tokens[p][c] += 1
        if self.supply[c] > 0:
            self.supply[c] -= 1

    def _play_card(self, k: int) -> None:
        """§5.4-§5.5: play the card face up; its district sinks with its coins and any figure on it."""
        p = self.active()
        self.hands[p].remove(k)
        self.played.append((p, k))
        d = rules.card_district(k, self.options)
        s = self.tiles.index(d)
        self.water[s] = True                           # RB:129: the tile is flipped
        self.coins_sunk += self.coins_on[s]            # the coins leave the game (RB:129)
        self.coins_on[s] = 0
        taken = self.occupant()
        if s in taken:
            owner, f = taken.pop(s)                    # whoever owns it, the active player too [S-6]
            if self.gondolas[owner] and self.rescue_squares(taken):
                self.figures[owner][f] = IN_WATER      # §5.6: its owner decides, out of turn
                self.phase = PHASE_RESCUE
                return
            self.figures[owner][f] = LOST              # no gondola or nowhere to go: the card is kept
        self._start_turn()

    def _start_turn(self) -> None:
        """§4: the next seat clockwise; §6: the game ends after the last card; §5.7: a seat without
        figures neither moves nor buys, it only plays its card."""
        self.moved = 0
        if len(self.played) == self.dealt_total():
            self.phase = PHASE_OVER
            return
        self.phase = PHASE_MOVE if self.alive_figures(self.active_of_next()) else PHASE_CARD

    def active_of_next(self) -> int:
        return len(self.played) % self.num_players

    def _settle(self) -> None:
        """§10.5's `auto_apply_forced`: apply every decision with one legal action at once."""
        if not self.options.auto_apply_forced:
            return
        while self.phase not in (PHASE_SETUP, PHASE_OVER):
            legal = self.legal_actions()
            if len(legal) != 1:
                return
            self._step(legal[0])

    # ------------------------------------------------------------------------------------------
    # Scoring (§7)

    def surviving(self) -> list[int]:
        """Per colour, the unsunk districts on the board now (k_c at the end)."""
        k = [0] * NUM_COLOURS
        for s in range(self.n * self.n):
            if self.is_land(s):
                k[rules.district_colour(self.tiles[s])] += 1
        return k

    def final_breakdown(self, p: int, land: list[bool] | None = None) -> dict[str, int]:
        """§7 for seat p on the board as it stands (at the end: the final scoring), by category.

        `land[s]`: which squares count as surviving districts (default: the unsunk ones; a list of n*n
        bools, True only on unsunk districts: `position.check_land`).
        """
        p = parse_seat(p, self.num_players)
        land = [self.is_land(s) for s in range(self.n * self.n)] if land is None else check_land(self, land)
        k = [0] * NUM_COLOURS
        numbers = [0] * NUM_COLOURS
        for s, alive in enumerate(land):
            if alive:
                c, vi = rules.district_colour(self.tiles[s]), rules.district_vi(self.tiles[s])
                k[c] += 1
                numbers[c] += NUMERIC_VALUES[vi]
        treasures = sum(self.tokens[p][c] * token_value(k[c]) for c in range(NUM_COLOURS) if self.tokens[p][c])
        figures = x_bonus = 0
        for x in self.figures[p]:
            if x >= 0 and land[x]:
                c, vi = rules.district_colour(self.tiles[x]), rules.district_vi(self.tiles[x])
                if vi == X_INDEX:
                    x_bonus += X_MULTIPLIER * numbers[c]          # VD-9: X adds 0, nothing else
                else:
                    figures += NUMERIC_VALUES[vi]
        return {"treasures": treasures, "figures": figures, "X districts": x_bonus, "coins": self.coins[p]}

    def scores(self) -> list[int]:
        """Each seat's points by §7 on the board as it stands (the final scores at the end)."""
        return [sum(self.final_breakdown(p).values()) for p in range(self.num_players)]

    def figures_on_board(self, p: int) -> int:
        """VD-10's tie-break: figures on districts and platforms."""
        return len(self.alive_figures(parse_seat(p, self.num_players)))

    def finishing_key(self, player: int | str) -> tuple[int, int]:
        """§7 [RB:182, VD-10]: the higher score; tied, more figures still on the board."""
        p = parse_seat(player, self.num_players, "player")
        return sum(self.final_breakdown(p).values()), self.figures_on_board(p)

    def estimated_scores(self) -> list[float]:
        """A cut-off evaluation: §7 on the final board this state's deal fixes (§10.9 item 1: every card
        in a hand sinks its district), a figure counting where it stands now."""
        if self.is_terminal() or self.phase == PHASE_SETUP:
            return [float(x) for x in self.scores()]
        doomed = {rules.card_district(k, self.options) for h in self.hands for k in h}
        land = [self.is_land(s) and self.tiles[s] not in doomed for s in range(self.n * self.n)]
        return [float(sum(self.final_breakdown(p, land).values())) for p in range(self.num_players)]

    def _prior(self, player: int, legal: list[int]) -> dict[int, float] | None:
        """The search prior (`heuristic.prior`): a softmax of the playout's move preference as `player`
        sees it, in a place, move, buy or rescue; None elsewhere."""
        return heuristic.prior(self, player, legal)

    def turn_id(self) -> int:
        """Each placement is a turn of its own (its index k); a turn's move, buy and card share
        `placements + turn`; a rescue belongs to no turn (NO_TURN: its owner may not be the active
        seat, and the card before it ended the active seat's turn); NO_TURN at setup and at the end."""
        if self.phase == PHASE_PLACE:
            return self.placed_count()
        if self.phase in (PHASE_MOVE, PHASE_BUY, PHASE_CARD):
            return len(self.placement_order()) + self.turn()
        return NO_TURN

    # ------------------------------------------------------------------------------------------
    # Copies, keys, views, JSON

    def _card_cells(self) -> dict[int, int]:
        """card -> its Z_CARD value: the seat holding it, PLAYED_CODE + the seat that played it, or undealt."""
        where = {k: rules.CARD_UNDEALT for k in range(rules.NUM_CARDS)}
        for p, h in enumerate(self.hands):
            for k in h:
                where[k] = p
        for p, k in self.played:
            where[k] = rules.PLAYED_CODE + p
        return where

    def _public_key(self) -> int:
        z = rules.zobrist
        k = z(rules.Z_PHASE, 0, self.phase) ^ z(rules.Z_REMOVED, 0, self.removed_colour)
        k ^= z(rules.Z_MOVED, 0, self.moved) ^ z(rules.Z_COINS_SUNK, 0, self.coins_sunk)
        for s in range(self.n * self.n):
            t = self.tiles[s]
            k ^= z(rules.Z_SQUARE, s, rules.WATER_CODE + t if self.water[s] else t)
            k ^= z(rules.Z_COINS_ON, s, self.coins_on[s])
        for c in range(NUM_COLOURS):
            k ^= z(rules.Z_SUPPLY, c, self.supply[c])
        for p in range(self.num_players):
            k ^= z(rules.Z_SEAT_COINS, p, self.coins[p]) ^ z(rules.Z_GONDOLAS, p, self.gondolas[p])
            k ^= z(rules.Z_HAND_SIZE, p, len(self.hands[p]))
            for f, x in enumerate(self.figures[p]):
                k ^= z(rules.Z_FIGURE, p * rules.MAX_FIGURES + f, x)
            for c in range(NUM_COLOURS):
                k ^= z(rules.Z_TOKENS, p * NUM_COLOURS + c, self.tokens[p][c])
        return k

    def key(self) -> int:
        """The 64-bit Zobrist key: every field a `rules.zobrist` cell (the compiled core's, bit for bit).

        Each of the 42 card ids has a Z_CARD cell (its holder, who played it, or undealt)."""
        k = self._public_key()
        for card, where in self._card_cells().items():
            k ^= rules.zobrist(rules.Z_CARD, card, where)
        return k

    def information_state_key(self, seat: int | str) -> int:
        """Equal for states `seat` cannot tell apart: a card in another hand or not dealt/set aside is
        written CARD_HIDDEN (§9); everything else is public, plus the viewer."""
        seat = parse_seat(seat, self.num_players)
        k = self._public_key() ^ rules.zobrist(rules.Z_VIEWER, 0, seat)
        for card, where in self._card_cells().items():
            visible = where == seat or rules.PLAYED_CODE <= where < rules.CARD_UNDEALT
            k ^= rules.zobrist(rules.Z_CARD, card, where if visible else rules.CARD_HIDDEN)
        return k

    def resample(self, seat: int | str, seed: int) -> State:
        """A copy with the other hands redrawn by §10.3's exact uniform sampler (`rules.resample_hands`):
        each opponent keeps its hand size and holds nothing below its last play; the rest is set aside.

        Raises:
            TypeError / OptionError: `seat` is not a seat of this game; TypeError: bad `seed`.
        """
        seat = parse_seat(seat, self.num_players)
        rng = SplitMix64(seed)
        out = self.clone()
        if self.phase == PHASE_SETUP and not self.dealt_count():
            return out
        known = set(self.hands[seat]) | {k for _, k in self.played}
        unseen = [k for k in self.deck() if k not in known]
        opponents = [(p, len(self.hands[p]), self.bound(p)) for p in range(self.num_players) if p != seat]
        for p, hand in rules.resample_hands(unseen, opponents, self.options, rng).items():
            out.hands[p] = hand
        return out

    def __repr__(self) -> str:
        return f"<venice-2099 State turn {self.turn() + 1} {rules.PHASE_NAMES[self.phase]} key {self.key():016x}>"
