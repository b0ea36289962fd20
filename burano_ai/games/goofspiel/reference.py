"""The reference model: Goofspiel's rules (`rules`) in readable Python, the oracle of the compiled core.

`Game(num_players, num_cards, points_order)` holds the parameters; `State` extends the position
fields (`position.Position`) with the State API every service speaks (`burano_ai.core.game.State`),
the same method names and behaviour as Burano's. A round is one chance node (the prize, only in
"random" order) and then one secret bid per seat, A first; the round resolves after the last bid
(`_resolve`), and the last round plays itself. The state holds no random generator: randomness is
applied as chance outcomes, and `resample(seat, seed)` draws from its own seeded `core.seeds.SplitMix64`,
the compiled core's generator, so both implementations give the same sample.
"""

from __future__ import annotations

from burano_ai.core.errors import IllegalMoveError
from burano_ai.core.game import NO_TURN, DecisionMode
from burano_ai.core.reference import ReferenceGame, ReferenceState
from burano_ai.core.seeds import SplitMix64, check_seed
from burano_ai.core.seats import CHANCE, TERMINAL, parse_seat
from burano_ai.games.goofspiel import rules
from burano_ai.games.goofspiel.position import Position, position_from_json, position_to_dict
from burano_ai.games.goofspiel.render import render
from burano_ai.games.goofspiel.rules import PHASE_BID, PHASE_CHANCE, PHASE_OVER


class Game(ReferenceGame):
    """Rules and metadata of one Goofspiel configuration (OpenSpiel's parameter names).

    Args:
        num_players: 2..5 (`rules.MAX_PLAYERS`).
        num_cards: cards per hand and prizes, 2..16 (default 13).
        points_order: "random" (a chance node reveals each prize), "descending" or "ascending".

    Raises:
        OptionError: a parameter out of range (named).
    """

    def __init__(self, num_players: int = rules.DEFAULT_PLAYERS, num_cards: int = rules.DEFAULT_CARDS,
                 points_order: str = "random") -> None:
        rules.check_config(num_players, num_cards, points_order)
        self.num_players = num_players
        self.num_cards = num_cards
        self.points_order = points_order

    def __repr__(self) -> str:
        return f"Game(num_players={self.num_players}, num_cards={self.num_cards}, points_order={self.points_order!r})"

    def config(self) -> tuple[int, int, str]:
        """(num_players, num_cards, points_order)."""
        return self.num_players, self.num_cards, self.points_order

    # Metadata (OpenSpiel names and values).
    def num_distinct_actions(self) -> int:
        return self.num_cards

    def max_chance_outcomes(self) -> int:
        return self.num_cards

    def max_game_length(self) -> int:
        """Most actions in a game: a prize and a bid per seat for each round but the last."""
        chance = 1 if self.points_order == "random" else 0
        return (self.num_cards - 1) * (self.num_players + chance)

    def new_initial_state(self, seed: int = 0) -> State:
        """The starting position (Goofspiel has no seeded setup: `seed` is accepted and unused).

        Raises:
            TypeError: `seed` is not an int.
        """
        check_seed(seed)
        state = State(self)
        state._start_round()
        return state

    def _position_from_json(self, text: str) -> Position:
        return position_from_json(text, expect=self.config())


class State(ReferenceState, Position, game=Game, names=rules, view=position_to_dict, render=render,
            noun="a Goofspiel position",
            differs_in="players, num_cards or points_order"):
    """A Goofspiel position with the State API (see the module docstring)."""

    # ------------------------------------------------------------------------------------------
    # The State API

    def current_player(self) -> int:
        phase = self.phase
        if phase == PHASE_OVER:
            return TERMINAL
        if phase == PHASE_CHANCE:
            return CHANCE
        return self.bidder

    def legal_actions(self, player: int | str | None = None) -> list[int]:
        """The bids of the seat to move, as action ids (card - 1), sorted; empty at chance and at the end.

        With `player` (a 0-based int or a seat letter), the ids if that seat is to bid, else [].

        Raises:
            TypeError / OptionError: `player` is not a seat of this game (`parse_seat`).
        """
        if player is not None and parse_seat(player, self.num_players, "player") != self.current_player():
            return []
        if self.phase != PHASE_BID:
            return []
        return [card - 1 for card in self.hands[self.bidder]]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability) of each prize that may be revealed (uniform); empty off chance nodes."""
        if self.phase != PHASE_CHANCE:
            return []
        k = len(self.prizes_left)
        return [(card - 1, 1.0 / k) for card in self.prizes_left]

    @property
    def chance_kind(self) -> int:
        """The kind of the pending chance event: always 0, the prize reveal (`rules.CHANCE_KIND_NAMES`)."""
        return 0

    def action_to_string(self, action: int) -> str:
        """"prize N" at a chance node, "bid N" otherwise (TypeError if `action` is not an int)."""
        return rules.action_to_str(action, self.phase == PHASE_CHANCE)

    def string_to_action(self, text: str) -> int:
        """The action id of "bid N" or "prize N" (the kind must fit the node: a prize only at chance).

        Raises:
            TypeError: `text` is not a str. IllegalMoveError: it names no move of this node.
        """
        kind, action = rules.parse_action(text, self.num_cards)
        want = "prize" if self.phase == PHASE_CHANCE else "bid"
        if kind != want:
            raise IllegalMoveError(f"illegal move {text.strip()!r} {self._where()}: expected '{want} N'")
        return action

    def _illegal_move_error(self, action: int, text: str | None, offered: list[int] | None) -> IllegalMoveError:
        return rules.illegal_move_error(action, text, self.phase, self._where(), offered)

    def _where(self) -> str:
        return rules.where(self.phase, self.round, self.bidder, self.prize)

    # --- the rules

    def _apply_unchecked(self, action: int) -> None:
        if self.phase == PHASE_CHANCE:
            self.prizes_left.remove(action + 1)
            self.prize = action + 1
            return
        self.bids[self.bidder] = action + 1
        if all(self.bids):
            self._resolve()
            self._start_round()

    def _resolve(self) -> None:
        """The single highest bid takes the prize; a tied highest bid: nobody. The bids leave the hands."""
        best = max(self.bids)
        if self.bids.count(best) == 1:
            winner = self.bids.index(best)
            self.won[winner] = sorted(self.won[winner] + [self.prize])
        for p in range(self.num_players):
            self.hands[p].remove(self.bids[p])
            self.bids[p] = 0
        self.prize = 0

    def _start_round(self) -> None:
        """Reveal a fixed-order prize; play the last round by itself (one card left in every hand)."""
        if len(self.hands[0]) == 1:
            self.prize = self.prizes_left.pop()
            self.bids = [hand[0] for hand in self.hands]
            self._resolve()
        elif self.hands[0] and self.points_order != "random":
            self.prize = self.prizes_left.pop(-1 if self.points_order == "descending" else 0)

    # --- outcome

    def scores(self) -> list[int]:
        """Each seat's points (final once the game is over)."""
        return self.points

    def finishing_key(self, player: int | str) -> tuple[int]:
        """The order of finish: the more points the better (equal keys share the place)."""
        return (sum(self.won[parse_seat(player, self.num_players, "player")]),)

    def estimated_scores(self) -> list[float]:
        """Points plus a fair share (1/n) of the prizes still unresolved (current prize included)."""
        left = sum(self.prizes_left) + self.prize
        return [sum(w) + left / self.num_players for w in self.won]

    # --- how a search treats the pending decision

    def decision_mode(self) -> int:
        """DecisionMode.SECRET for every bid (a secret simultaneous choice), OPEN elsewhere."""
        return int(DecisionMode.SECRET if self.phase == PHASE_BID else DecisionMode.OPEN)

    def _prior(self, player: int, legal: list[int]) -> dict[int, float] | None:
        """Bid near the prize's value: weight 1 / (1 + |card - prize|), normalised over `legal`."""
        if self.phase != PHASE_BID:
            return None
        weights = [rules.bid_weight(a + 1, self.prize) for a in legal]
        total = 0.0
        for w in weights:
            total += w
        return {a: w / total for a, w in zip(legal, weights)}

    def turn_id(self) -> int:
        """round * 8 + the bidder during the bidding (each bid its own turn); NO_TURN elsewhere."""
        if self.phase != PHASE_BID:
            return NO_TURN
        return self.round * rules.TURN_STRIDE + self.bidder

    # ------------------------------------------------------------------------------------------
    # Copies, keys, views, resampling, JSON

    def key(self) -> int:
        """The 64-bit Zobrist key of the position (`rules.zobrist`; the compiled core's, bit for bit)."""
        z = rules.zobrist
        k = 0
        for p in range(self.num_players):
            for c in self.hands[p]:
                k ^= z(rules.Z_HAND, p, c)
            for c in self.won[p]:
                k ^= z(rules.Z_WON, p, c)
            if self.bids[p]:
                k ^= z(rules.Z_BID, p, self.bids[p])
        for c in self.prizes_left:
            k ^= z(rules.Z_LEFT, c)
        if self.prize:
            k ^= z(rules.Z_PRIZE, self.prize)
        return k

    def information_state_key(self, seat: int | str) -> int:
        """A 64-bit key equal for all states `seat` cannot tell apart (the other seats' bids of this round hidden).

        Raises:
            TypeError / OptionError: `seat` is not a seat of this game (`parse_seat`).
        """
        seat = parse_seat(seat, self.num_players)
        k = self.key() ^ rules.zobrist(rules.Z_VIEWER, seat)
        for p in range(self.num_players):
            if p != seat and self.bids[p]:
                k ^= rules.zobrist(rules.Z_BID, p, self.bids[p]) ^ rules.zobrist(rules.Z_HIDDEN_BID, p)
        return k

    def resample(self, seat: int | str, seed: int) -> State:
        """A copy with each other seat's bid of this round redrawn from that seat's hand by the prior,
        weight 1 / (1 + |card - prize|) (the model the search samples a later seat's secret bid by).

        Consistent with `seat`'s view: it saw that those seats bid, not what.

        Raises:
            TypeError / OptionError: `seat` is not a seat of this game (`parse_seat`); TypeError: bad `seed`.
        """
        seat = parse_seat(seat, self.num_players)
        rng = SplitMix64(seed)
        out = self.clone()
        for p in range(self.num_players):
            if p != seat and out.bids[p]:
                hand = sorted(out.hands[p])
                u = rng.uniform() * sum(rules.bid_weight(c, out.prize) for c in hand)
                for card in hand:
                    u -= rules.bid_weight(card, out.prize)
                    if u < 0.0:
                        break
                out.bids[p] = card
        return out

    def rewind_secret(self, seat: int | str) -> State | None:
        """A copy with the bids of this round made before `seat`'s taken back (seats bid in order 0, 1, ...),
        when `seat` is to bid, so that the round starts again from seat 0; else None. `seat` saw that those
        seats bid, not what (the search chooses them again by their bandits: `Params.secret`).

        Raises:
            TypeError / OptionError: `seat` is not a seat of this game (`parse_seat`).
        """
        seat = parse_seat(seat, self.num_players)
        if self.phase != rules.PHASE_BID or self.bidder != seat or seat == 0:
            return None
        out = self.clone()
        for p in range(seat):
            out.bids[p] = 0
        return out

    def __repr__(self) -> str:
        return f"<goofspiel State round {self.round} {rules.PHASE_NAMES[self.phase]} key {self.key():016x}>"
