"""The reference model: Azul: Stained Glass of Sintra's rules in readable Python, the executable specification.

Every rule cites ../shared/rules/azul-sintra.md by section (§n) and decision id (AD-n). `State` extends
the position fields (`position.Position`) with the State API every service speaks
(`burano_ai.core.game.State`). Chance (§11.2) is sequential: setup lays each seat's strips column by
column (a strip, then its face), then the round indicator (II..VI, then I from the bag), then each
refill draws the factories' pieces one by one (`draw c` with probability bag[c] / bag total). The state
holds counts, never a bag order (§11.1): a search cannot read future draws, and there is nothing to
resample (`resample` is a copy: perfect information).
"""

from __future__ import annotations

from typing import Any

from burano_ai.core.arguments import check_index
from burano_ai.core.game import NO_TURN
from burano_ai.core.reference import ReferenceGame, ReferenceState
from burano_ai.core.seats import CHANCE, SEAT_LETTERS, TERMINAL, parse_seat
from burano_ai.core.seeds import check_seed
from burano_ai.games.azul_sintra import heuristic, rules
from burano_ai.games.azul_sintra.data import (
    COLUMNS, FACTORIES, LEFTOVER_PER_POINT, NUM_COLOURS, ORNAMENT_POINTS, PIECES_PER_FACTORY, ROUNDS, STRIP_CELLS,
    TOKEN_STEPS, TRACK_BOTTOM_LOSS, TRACK_SPACES, load_data,
)
from burano_ai.games.azul_sintra.position import (
    Position, check_config, make_flags, position_from_json, position_to_dict,
)
from burano_ai.games.azul_sintra.render import render
from burano_ai.games.azul_sintra.rules import (
    BREAK, CENTRE, KEEP0, PHASE_DRAFT, PHASE_KEEP, PHASE_OVER, PHASE_REFILL, PHASE_SETUP, RESET, Flags,
)


class Game(ReferenceGame):
    """Rules and metadata of one configuration.

    Args:
        num_players: 2..4.
        side: "A" (ornaments) or "B" (windows x colour) of the palace boards [RU:46, §9.1].
        first_player: the seat that starts (AD-17; default seat 0).
        data: the component data (`data.load_data`: None = the built-in placeholder, a path, a dict).
        joker_choice, indicator_to_tower, auto_keep, random_first_player: the spec's optional rules
            (`rules.Flags`; the defaults are the spec's rules). A `rules.Flags` may be given as `flags`.

    Raises:
        OptionError: a parameter out of range or wrong data (one line, named).
    """

    def __init__(self, num_players: int = 2, side: str = "A", first_player: int = 0, data: object = None,
                 flags: Flags | None = None, *, joker_choice: bool = False, indicator_to_tower: bool = True,
                 auto_keep: bool = False, random_first_player: bool = False) -> None:
        if flags is None:
            flags = make_flags(joker_choice=joker_choice, indicator_to_tower=indicator_to_tower, auto_keep=auto_keep,
                               random_first_player=random_first_player)
        check_config(num_players, side, first_player, flags)
        self.num_players = num_players
        self.side = side
        self.first_player = first_player
        self.data = load_data(data)
        self.flags = flags

    def __repr__(self) -> str:
        extra = "" if self.flags.is_default else f", {self.flags}"
        return f"Game(num_players={self.num_players}, side={self.side!r}, first_player={self.first_player}{extra})"

    def __hash__(self) -> int:
        return hash((self.num_players, self.side, self.first_player, self.flags))

    def config(self) -> tuple:
        """(num_players, side, first_player, data, flags)."""
        return self.num_players, self.side, self.first_player, self.data, self.flags

    def num_distinct_actions(self) -> int:
        """456, or 856 with `joker_choice` (§11.4: the jokers-first drafts after the others, AD-23)."""
        return rules.NUM_ACTIONS_JOKER_CHOICE if self.flags.joker_choice else rules.NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return rules.MAX_CHANCE_OUTCOMES

    def max_game_length(self) -> int:
        """Most decisions in a game (§11.5): drafts <= 24F, resets <= drafts, keeps <= 16N."""
        return 48 * FACTORIES[self.num_players] + 16 * self.num_players

    # `new_initial_state`: everything is in the bag, the first chance node lays a strip (§3, §11.2).

    def _position_from_json(self, text: str) -> Position:
        return position_from_json(text, expect=self.config())


class State(ReferenceState, Position, game=Game, names=rules, view=position_to_dict, render=render,
            noun="an Azul: Stained Glass of Sintra position",
            differs_in="players, side, first_player, data or options"):
    """A position with the State API (see the module docstring)."""

    # ------------------------------------------------------------------------------------------
    # Node kinds

    def current_player(self) -> int:
        if self.phase == PHASE_OVER:
            return TERMINAL
        if self.phase in (PHASE_SETUP, PHASE_REFILL):
            return CHANCE
        return self.to_move

    @property
    def chance_kind(self) -> int:
        """The pending chance event (`rules.CHANCE_*`); 0 off chance nodes."""
        if self.phase == PHASE_SETUP:
            return self.setup_cursor()[0]
        return rules.CHANCE_DRAW if self.phase == PHASE_REFILL else 0

    # ------------------------------------------------------------------------------------------
    # Legal moves (§5, §11.4)

    def _seat_column_colour(self, p: Any, k: Any, c: Any) -> tuple[int, int, int]:
        """(p, k, c) checked: a seat, a column and a colour (the rules' own calls pass at once)."""
        if type(p) is not int or not 0 <= p < self.num_players:
            p = parse_seat(p, self.num_players)
        if type(k) is not int or not 0 <= k < COLUMNS:
            k = check_index(k, COLUMNS, "column")
        if type(c) is not int or not 0 <= c < NUM_COLOURS:
            c = check_index(c, NUM_COLOURS, "colour")
        return p, k, c

    def accepts(self, p: int, k: int, c: int) -> bool:
        """Column k of seat p holds a present strip with an empty cell printed c or a free joker [RU:124, RU:132]."""
        p, k, c = self._seat_column_colour(p, k, c)
        b = self.boards[p]
        if not b.present(k):
            return False
        face = self.data.face_counts[b.strips[k]][b.faces[k]]
        return b.filled[k][c] < face[c] or sum(b.jokers[k]) < face[NUM_COLOURS]

    def candidates(self, p: int, c: int) -> list[int]:
        """§5.2: the reachable strips (at the glazier's column or right of it, RU:127) accepting c."""
        if type(p) is not int or not 0 <= p < self.num_players:     # the rules' own calls pass these tests
            p = parse_seat(p, self.num_players)
        if type(c) is not int or not 0 <= c < NUM_COLOURS:
            c = check_index(c, NUM_COLOURS, "colour")
        return [k for k in range(self.boards[p].glazier, COLUMNS) if self.accepts(p, k, c)]

    def can_reset(self, p: int) -> bool:
        """§5.4, AD-11: Reset is legal iff a present strip lies strictly left of the glazier."""
        if type(p) is not int or not 0 <= p < self.num_players:     # the rules' own calls pass these tests
            p = parse_seat(p, self.num_players)
        b = self.boards[p]
        return any(b.present(k) for k in range(b.glazier))

    def sources(self) -> list[tuple[int, list[int]]]:
        """(source, counts) of every factory in use and the centre (sources >= F are never legal)."""
        return [(f, self.factories[f]) for f in range(self.num_factories)] + [(CENTRE, self.centre)]

    def legal_actions(self, player: int | str | None = None) -> list[int]:
        """The legal moves of the seat to move, sorted; empty at chance nodes and at the end.

        DRAFT(src, c, t) iff src holds c and t is a candidate, or t = break-all and there is none
        (§5.2 rule 2: breaking everything on purpose is not allowed, RU:130); RESET per AD-11; in the
        keep phase, KEEP(c) for each colour among the 5 pieces (§5.3 3b).
        """
        if player is not None and parse_seat(player, self.num_players, "player") != self.current_player():
            return []
        p = self.to_move
        if self.phase == PHASE_KEEP:
            return [KEEP0 + c for c in range(NUM_COLOURS) if self.keep_pieces[c]]
        if self.phase != PHASE_DRAFT:
            return []
        out = []
        for src, counts in self.sources():
            for c in range(NUM_COLOURS):
                if counts[c]:
                    targets = self.candidates(p, c) or [BREAK]
                    out.extend(rules.draft_action(src, c, t) for t in targets)
        if self.can_reset(p):
            out.append(RESET)
        if self.flags.joker_choice:                # AD-13, AD-23: where the order of filling differs
            for src, counts in self.sources():
                for c in range(NUM_COLOURS):
                    if counts[c]:
                        out.extend(rules.joker_draft_action(src, c, k) for k in self.candidates(p, c)
                                   if self.joker_order_matters(p, k, c))
        return out

    def joker_order_matters(self, p: int, k: int, c: int) -> bool:
        """Column k of seat p has both a free cell printed c and a free joker: "jokers first" places
        differently from the default order (AD-13)."""
        p, k, c = self._seat_column_colour(p, k, c)
        b = self.boards[p]
        face = self.data.face_counts[b.strips[k]][b.faces[k]]
        return b.filled[k][c] < face[c] and sum(b.jokers[k]) < face[NUM_COLOURS]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability) of the pending chance event (§11.2); empty off chance nodes."""
        if self.phase == PHASE_REFILL:
            return self._bag_draw()
        if self.phase != PHASE_SETUP:
            return []
        kind, who, k = self.setup_cursor()
        if kind == rules.CHANCE_FIRST:       # AD-17 flag: the first player, uniform over the seats
            return [(p, 1.0 / self.num_players) for p in range(self.num_players)]
        if kind == rules.CHANCE_STRIP:       # §3 step 4: a uniformly random order of the 8 strips
            left = [s for s in range(COLUMNS) if s not in self.boards[who].strips]
            return [(s, 1.0 / len(left)) for s in left]
        if kind == rules.CHANCE_FACE:        # AD-18: 1/2 each; the joker face always starts down [RU:48]
            if self.boards[who].strips[k] == self.data.joker_strip:
                return [(1 - self.data.joker_face, 1.0)]
            return [(0, 0.5), (1, 0.5)]
        if who != 0:                         # §3 step 8: one piece of each colour on II..VI, in random order
            used = set(self.indicator)
            left = [c for c in range(NUM_COLOURS) if c not in used]
            return [(c, 1.0 / len(left)) for c in left]
        return self._bag_draw()              # round I: drawn from the bag (19/95 each)

    def _bag_draw(self) -> list[tuple[int, float]]:
        total = sum(self.bag)
        return [(c, self.bag[c] / total) for c in range(NUM_COLOURS) if self.bag[c]]

    # ------------------------------------------------------------------------------------------
    # Applying moves

    def _node_text_context(self) -> tuple[int | None, int, int]:
        if self.phase == PHASE_SETUP:
            kind, who, k = self.setup_cursor()
            return kind, k, who
        if self.phase == PHASE_REFILL:
            return rules.CHANCE_DRAW, 0, 0
        return None, 0, 0

    def action_to_string(self, action: int) -> str:
        kind, column, slot = self._node_text_context()
        return rules.action_to_str(action, self.data.letters, kind, column, slot)

    def string_to_action(self, text: str) -> int:
        kind, column, slot = self._node_text_context()
        return rules.parse_action(text, self.data.letters, kind, column, slot)

    def where(self) -> str:
        """Where the game stands, for messages ("in round 2, seat B to move")."""
        if self.phase == PHASE_OVER:
            return "after the end of the game"
        if self.phase == PHASE_SETUP:
            return "during setup"
        if self.phase == PHASE_REFILL:
            return f"in the refill before round {self.round + 1}"
        return f"in round {self.round + 1}, seat {SEAT_LETTERS[self.to_move]} to move"

    def _apply_unchecked(self, action: int) -> None:
        if self.phase == PHASE_SETUP:
            self._setup_step(action)
        elif self.phase == PHASE_REFILL:
            self._draw(action)
        elif self.phase == PHASE_KEEP:
            self._keep(action - KEEP0)
        elif action == RESET:
            self._reset()
        elif action >= rules.JOKER_DRAFT0:
            self._draft(*rules.decode_joker_draft(action), jokers_first=True)
        else:
            self._draft(*rules.decode_draft(action))

    # --- setup (§3)

    def _setup_step(self, outcome: int) -> None:
        kind, who, k = self.setup_cursor()
        if kind == rules.CHANCE_FIRST:
            self.starter = outcome
        elif kind == rules.CHANCE_STRIP:
            self.boards[who].strips[k] = outcome
        elif kind == rules.CHANCE_FACE:
            self.boards[who].faces[k] = outcome
        else:
            self.indicator[who] = outcome
            self.bag[outcome] -= 1
            if who == 0:                      # the last setup step: the first refill (§3 step 9)
                self.phase = PHASE_REFILL
                self._continue_refill()

    # --- refill (§7 step 3, AD-15)

    def _draw(self, c: int) -> None:
        f = sum(sum(x) for x in self.factories) // PIECES_PER_FACTORY
        self.factories[f][c] += 1
        self.bag[c] -= 1
        self._continue_refill()

    def _continue_refill(self) -> None:
        """Pour the tower into an empty bag when a piece is still needed [RU:198]; end the refill when
        the factories are full, or the bag and the tower are both empty [RU:200]."""
        while True:
            if sum(sum(x) for x in self.factories) == PIECES_PER_FACTORY * self.num_factories:
                break
            if sum(self.bag):
                return
            if not sum(self.tower):
                break
            for c in range(NUM_COLOURS):
                self.bag[c] += self.tower[c]
                self.tower[c] = 0
        self._start_round()

    def _start_round(self) -> None:
        """§4: the token holder puts the token in the centre and takes the first turn."""
        self.phase = PHASE_DRAFT
        self.token = -1
        self.to_move = self.starter
        if not any(any(f) for f in self.factories):     # nothing could be drawn at all: the round is empty
            self._end_round()

    # --- a turn (§5)

    def _steps(self, p: int, steps: int) -> None:
        """§6, AD-8: one space down per step; reaching the bottom loses 18 at once and restarts at the top."""
        b = self.boards[p]
        for _ in range(steps):
            b.track += 1
            if b.track == TRACK_SPACES - 1:
                b.score -= TRACK_BOTTOM_LOSS
                b.hits += 1
                b.track = 0

    def _draft(self, src: int, c: int, target: int, jokers_first: bool = False) -> None:
        p = self.to_move
        b = self.boards[p]
        steps = 0
        if src == CENTRE:                                 # §5.1(b)
            n = self.centre[c]
            self.centre[c] = 0
            if self.token < 0:                            # the first centre draft of the round [RU:104]
                self.token = p
                steps += TOKEN_STEPS
        else:                                             # §5.1(a): the rest to the centre [RU:98]
            n = self.factories[src][c]
            for x in range(NUM_COLOURS):
                if x != c:
                    self.centre[x] += self.factories[src][x]
                self.factories[src][x] = 0
        if target == BREAK:                               # §5.2 rule 5, AD-12: the glazier stays
            broken = n
        else:
            if target > b.glazier:                        # §5.2 rule 3 [RU:128]
                b.glazier = target
            face = self.data.face_counts[b.strips[target]][b.faces[target]]
            free_colour, free_joker = face[c] - b.filled[target][c], face[NUM_COLOURS] - sum(b.jokers[target])
            if jokers_first:                              # the joker_choice flag's other order
                on_joker = min(n, free_joker)
                on_colour = min(n - on_joker, free_colour)
            else:                                         # AD-13: coloured cells first
                on_colour = min(n, free_colour)
                on_joker = min(n - on_colour, free_joker)
            b.filled[target][c] += on_colour
            b.jokers[target][c] += on_joker
            broken = n - on_colour - on_joker             # §5.2 rule 4 [RU:129]
        self.tower[c] += broken
        self._steps(p, steps + broken)
        if target != BREAK and b.strip_pieces(target) == STRIP_CELLS:
            self._complete(p, target)
        else:
            self._end_turn()

    def _complete(self, p: int, k: int) -> None:
        """§5.3 3a: the round bonus, then the keep choice (3b, 3c follow in `_keep`)."""
        b = self.boards[p]
        bonus_colour = self.indicator[self.round]
        b.score += b.filled[k][bonus_colour] + b.jokers[k][bonus_colour]     # RU:140, RU:156
        for c in range(NUM_COLOURS):
            self.keep_pieces[c] = b.filled[k][c] + b.jokers[k][c]
            b.filled[k][c] = b.jokers[k][c] = 0
        self.keep_column = k
        self.phase = PHASE_KEEP
        if self.flags.auto_keep:                          # AD-24: side A, the first colour among the pieces
            self._keep(next(x for x in range(NUM_COLOURS) if self.keep_pieces[x]))

    def _keep(self, c: int) -> None:
        """§5.3 3b: one piece to the window, the other 4 to the tower; 3c: score the window and every
        occupied window right of it [RU:174]. The glazier stays [RU:166, RU:170]."""
        p, k = self.to_move, self.keep_column
        b = self.boards[p]
        self.keep_pieces[c] -= 1
        for x in range(NUM_COLOURS):
            self.tower[x] += self.keep_pieces[x]
            self.keep_pieces[x] = 0
        if b.top[k] < 0:
            b.top[k] = c
            b.faces[k] ^= 1                              # flip to the other (empty) face [RU:166]
        else:
            b.bottom[k] = c                              # the window is complete; the strip goes to the box [RU:170]
        values = self.data.window_values
        b.score += values[k] + sum(values[j] for j in range(k + 1, COLUMNS) if b.top[j] >= 0 or b.bottom[j] >= 0)
        self.keep_column = -1
        self.phase = PHASE_DRAFT
        self._end_turn()

    def _reset(self) -> None:
        """§5.4: the glazier back above the leftmost present strip [RU:188]."""
        b = self.boards[self.to_move]
        b.glazier = next(k for k in range(COLUMNS) if b.present(k))
        self._end_turn()

    def _end_turn(self) -> None:
        self.turn += 1
        if any(self.centre) or any(any(f) for f in self.factories):
            self.to_move = (self.to_move + 1) % self.num_players       # clockwise [RU:76]
        else:
            self._end_round()

    # --- end of a round and of the game (§7, §8)

    def _end_round(self) -> None:
        if self.flags.indicator_to_tower:                 # AD-9: the used indicator piece to the tower
            self.tower[self.indicator[self.round]] += 1   # (off: it leaves the game, the RU:160 note)
        if self.token >= 0:                               # AD-10: unclaimed, the previous starter again
            self.starter = self.token
        self.token = -1
        self.to_move = -1
        if self.round == ROUNDS - 1:
            self.phase = PHASE_OVER
            for p in range(self.num_players):
                self.boards[p].score += sum(self.final_breakdown(p).values())
            return
        self.round += 1
        self.phase = PHASE_REFILL
        self._continue_refill()

    def final_breakdown(self, p: int) -> dict[str, int]:
        """§8: the final scoring of seat p as it stands: leftover pieces, broken glass, board side."""
        p = parse_seat(p, self.num_players)
        b = self.boards[p]
        leftover = sum(b.strip_pieces(k) for k in range(COLUMNS) if b.present(k)) // LEFTOVER_PER_POINT
        track = self.data.track[b.track]
        return {"leftover": leftover, "broken glass": track, f"side {self.side}": self.side_score(p)}

    def side_score(self, p: int) -> int:
        """§8 step 3. Side A: each ornament's filled cells -> 0/0/3/6/10 [RU:224-227]; side B: complete
        windows x the best colour's pieces on all window cells [RU:231-233]."""
        if type(p) is not int or not 0 <= p < self.num_players:     # the rules' own calls pass these tests
            p = parse_seat(p, self.num_players)
        b = self.boards[p]
        if self.side == "A":
            return sum(ORNAMENT_POINTS[sum((b.top[k] >= 0) + (b.bottom[k] >= 0) for k in group)]
                       for group in self.data.ornaments)
        complete = sum(1 for k in range(COLUMNS) if b.bottom[k] >= 0)
        best = max(sum((b.top[k] == c) + (b.bottom[k] == c) for k in range(COLUMNS)) for c in range(NUM_COLOURS))
        return complete * best

    def track_loss(self, p: int) -> int:
        """AD-14: the points the broken-glass track took from seat p: 18 per hit plus the marker's value."""
        p = parse_seat(p, self.num_players)
        b = self.boards[p]
        return TRACK_BOTTOM_LOSS * b.hits - self.data.track[b.track]

    # --- outcome

    def scores(self) -> list[int]:
        """Each seat's points (final scoring included once the game is over)."""
        return [b.score for b in self.boards]

    def finishing_key(self, player: int | str) -> tuple[int, int]:
        """§8: the higher score; tied, the one who lost fewer points to the track (AD-14)."""
        p = parse_seat(player, self.num_players, "player")
        return self.boards[p].score, -self.track_loss(p)

    def estimated_scores(self) -> list[float]:
        """The score with the final scoring as it stands now (a cut-off evaluation)."""
        if self.is_terminal():
            return [float(s) for s in self.scores()]
        return [float(b.score + sum(self.final_breakdown(p).values())) for p, b in enumerate(self.boards)]

    def _prior(self, player: int, legal: list[int]) -> dict[int, float] | None:
        """The search prior (`heuristic.prior`): a softmax of the cheap move preference in a draft; None elsewhere."""
        return heuristic.prior(self, player, legal)

    def turn_id(self) -> int:
        """The turn counter during a turn (a completing draft and its keep are one turn); NO_TURN elsewhere."""
        return self.turn if self.phase in (PHASE_DRAFT, PHASE_KEEP) else NO_TURN

    # ------------------------------------------------------------------------------------------
    # Copies, keys, views, JSON

    def key(self) -> int:
        """The 64-bit Zobrist key: every field a `rules.zobrist` cell (the compiled core's, bit for bit)."""
        z = rules.zobrist
        k = z(rules.Z_PHASE, 0, self.phase) ^ z(rules.Z_ROUND, 0, self.round) ^ z(rules.Z_TO_MOVE, 0, self.to_move)
        k ^= z(rules.Z_STARTER, 0, self.starter) ^ z(rules.Z_TOKEN, 0, self.token)
        k ^= z(rules.Z_KEEP_COLUMN, 0, self.keep_column)
        for i in range(ROUNDS):
            k ^= z(rules.Z_INDICATOR, i, self.indicator[i])
        for c in range(NUM_COLOURS):
            k ^= z(rules.Z_BAG, c, self.bag[c]) ^ z(rules.Z_TOWER, c, self.tower[c])
            k ^= z(rules.Z_CENTRE, c, self.centre[c]) ^ z(rules.Z_KEEP, c, self.keep_pieces[c])
            for f in range(self.num_factories):
                k ^= z(rules.Z_FACTORY, f * NUM_COLOURS + c, self.factories[f][c])
        for p, b in enumerate(self.boards):
            k ^= z(rules.Z_SCORE, p, b.score) ^ z(rules.Z_TRACK, p, b.track)
            k ^= z(rules.Z_HITS, p, b.hits) ^ z(rules.Z_GLAZIER, p, b.glazier)
            for col in range(COLUMNS):
                w = p * COLUMNS + col
                k ^= z(rules.Z_STRIP, w, b.strips[col]) ^ z(rules.Z_FACE, w, b.faces[col])
                k ^= z(rules.Z_WINDOW_TOP, w, b.top[col]) ^ z(rules.Z_WINDOW_BOTTOM, w, b.bottom[col])
                for c in range(NUM_COLOURS):
                    k ^= z(rules.Z_FILLED, w * NUM_COLOURS + c, b.filled[col][c])
                    k ^= z(rules.Z_JOKER, w * NUM_COLOURS + c, b.jokers[col][c])
        return k

    def information_state_key(self, seat: int | str) -> int:
        """Perfect information (§11.1): the whole position, marked with the viewer."""
        seat = parse_seat(seat, self.num_players)
        return self.key() ^ rules.zobrist(rules.Z_VIEWER, 0, seat)

    def resample(self, seat: int | str, seed: int) -> State:
        """A copy: nothing is hidden from any seat (§11.1; the C interface's resample is NULL)."""
        parse_seat(seat, self.num_players)
        check_seed(seed)
        return self.clone()

    def __repr__(self) -> str:
        return f"<azul-sintra State round {self.round + 1} {rules.PHASE_NAMES[self.phase]} key {self.key():016x}>"
