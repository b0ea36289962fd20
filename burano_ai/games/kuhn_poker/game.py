"""Kuhn poker's rules (OpenSpiel's `kuhn_poker`, any player count from 2 to 6).

A deck of n + 1 cards (n players); each seat antes 1 chip and is dealt one card by chance (seat A
first; outcome = the card, 0 the lowest). Then each seat in turn passes or bets 1 chip. With no bet,
the game ends when every seat has passed; after the first bet, when every other seat has acted once
more (a bet is a call, a pass a fold). The highest card among the seats that bet (or among all, when
nobody bet) takes the pot; returns are chips won or lost (utility "payoff").
"""

from __future__ import annotations

from burano_ai.core.history import PUBLIC, HistoryState
from burano_ai.core.seats import CHANCE, SEAT_LETTERS, TERMINAL

PASS, BET = 0, 1
ACTION_TEXTS = ("pass", "bet")
#: Card names, highest last: a game of n players uses the top n + 1.
RANKS = "23456789TJQK"


def card_names(num_players: int) -> str:
    """The names of the deck's cards, lowest first ("JQK" for 2 players)."""
    return RANKS[-(num_players + 1):]


class State(HistoryState):
    """A Kuhn poker position (`core.history.HistoryState`)."""

    CHANCE_KINDS = ("deal",)

    def _setup(self) -> None:
        n = self.num_players
        self.cards: list[int] = []          # the card dealt to each seat so far, seat order
        self.bets: list[int] = []           # the betting actions so far
        self.ante = [1] * n
        self.first_bettor = -1

    def current_player(self) -> int:
        n = self.num_players
        if len(self.cards) < n:
            return CHANCE
        done = len(self.bets) == (n if self.first_bettor < 0 else n + self.first_bettor)
        return TERMINAL if done else len(self.bets) % n

    def _legal(self) -> list[int]:
        return [PASS, BET]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if len(self.cards) >= self.num_players:
            return []
        left = [c for c in range(self.num_players + 1) if c not in self.cards]
        return [(c, 1.0 / len(left)) for c in left]

    def _apply(self, action: int) -> None:
        if len(self.cards) < self.num_players:
            self.cards.append(action)
            return
        seat = len(self.bets) % self.num_players
        if action == BET:
            self.ante[seat] += 1
            if self.first_bettor < 0:
                self.first_bettor = seat
        self.bets.append(action)

    def _owner(self, action: int) -> int:
        return len(self.cards) if self.is_chance_node() else PUBLIC

    def _in_showdown(self) -> list[int]:
        """The seats that contest the pot: those that bet, or all when nobody did."""
        return [p for p in range(self.num_players) if self.first_bettor < 0 or self.ante[p] == 2]

    def _winner(self) -> int:
        """The seat with the highest card among `_in_showdown` (the game must be over)."""
        return max(self._in_showdown(), key=lambda p: self.cards[p])

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.num_players
        win, pot = self._winner(), sum(self.ante)
        return [float(pot - a if p == win else -a) for p, a in enumerate(self.ante)]

    def _revealed(self) -> frozenset[int]:
        """At the end, the cards of the seats in the showdown are shown (when more than one is in it)."""
        shown = self._in_showdown() if self.is_terminal() else []
        return frozenset(shown if len(shown) > 1 else ())

    def _action_text(self, action: int) -> str:
        if self.is_chance_node():
            return f"deal {card_names(self.num_players)[action]}"
        return ACTION_TEXTS[action]

    def _info(self, seat: int | None) -> dict:
        """The pot, every seat's chips in it, the cards the reader sees, the seat to move."""
        names = card_names(self.num_players)
        seen = self._revealed() | ({seat} if seat is not None else set(range(self.num_players)))
        mover = self.current_player()
        return {"pot": sum(self.ante), "chips_in": list(self.ante),
                "cards": ["?" if p not in seen else names[c] for p, c in enumerate(self.cards)],
                "to_move": SEAT_LETTERS[mover] if mover >= 0 else self.phase_name()}

