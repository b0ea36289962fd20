"""Leduc poker's rules (OpenSpiel's `leduc_poker`, default parameters, 2-6 players).

A deck of n + 1 ranks in two suits (card c: rank c // 2, suit c % 2). Each seat antes 1 chip and is
dealt one private card by chance, seat A first. Two betting rounds, seat A (or the first seat still in)
opening each: call (or check), raise by 2 chips in the first round and 4 in the second (at most two
raises a round), or fold when facing a bet. A round ends when every seat still in has matched the
stakes and acted since the last raise (everyone, when nobody raised). Between the rounds chance deals
one public card. The last seat in takes the pot; at the showdown a pair with the public card beats no
pair, then the higher private card; tied hands split the pot. Returns are chips won or lost.
"""

from __future__ import annotations

from burano_ai.core.history import PUBLIC, HistoryState
from burano_ai.core.seats import CHANCE, SEAT_LETTERS, TERMINAL

FOLD, CALL, RAISE = 0, 1, 2
ACTION_TEXTS = ("fold", "call", "raise")
RAISE_AMOUNTS = (2, 4)
MAX_RAISES = 2
RANKS = "23456789TJQK"
SUITS = "sh"


def card_name(card: int, num_players: int) -> str:
    """`Js`: the rank (the top n + 1 of `RANKS`) and the suit."""
    return RANKS[-(num_players + 1):][card // 2] + SUITS[card % 2]


class State(HistoryState):
    """A Leduc poker position (`core.history.HistoryState`)."""

    CHANCE_KINDS = ("deal", "board")

    def _setup(self) -> None:
        n = self.num_players
        self.private: list[int] = []        # each seat's card so far, seat order
        self.public = -1                    # the public card, -1 before the second round
        self.round = 0                      # 0 or 1
        self.ante = [1] * n                 # chips in the pot per seat
        self.folded = [False] * n
        self.stakes = 1                     # what each seat still in must have put in
        self.raises = 0                     # raises this round
        self.calls = 0                      # calls since the last raise (or the round's start)
        self.mover = 0
        self.over = False

    def _in(self) -> list[int]:
        return [p for p in range(self.num_players) if not self.folded[p]]

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if len(self.private) < self.num_players or (self.round == 1 and self.public < 0):
            return CHANCE
        return self.mover

    def _legal(self) -> list[int]:
        actions = [FOLD] if self.stakes > self.ante[self.mover] else []
        return actions + [CALL] + ([RAISE] if self.raises < MAX_RAISES else [])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        left = [c for c in range(2 * (self.num_players + 1)) if c not in self.private]
        return [(c, 1.0 / len(left)) for c in left]

    @property
    def chance_kind(self) -> int:
        """0 for a private card, 1 for the public one."""
        return int(len(self.private) == self.num_players)

    def _apply(self, action: int) -> None:
        if self.is_chance_node():
            if len(self.private) < self.num_players:
                self.private.append(action)
            else:
                self.public = action
            return
        p = self.mover
        if action == FOLD:
            self.folded[p] = True
        elif action == CALL:
            self.ante[p] = self.stakes
            self.calls += 1
        else:
            self.stakes += RAISE_AMOUNTS[self.round]
            self.ante[p] = self.stakes
            self.raises += 1
            self.calls = 0
        left = len(self._in())
        if left == 1:
            self.over = True
        elif self.calls == (left if self.raises == 0 else left - 1):
            self.over = self.round == 1
            self.round, self.raises, self.calls = 1, 0, 0
            self.mover = self._in()[0]
        else:
            self.mover = next(q % self.num_players for q in range(p + 1, p + self.num_players + 1)
                              if not self.folded[q % self.num_players])

    def _owner(self, action: int) -> int:
        return len(self.private) if self.is_chance_node() and self.chance_kind == 0 else PUBLIC

    def _hand_rank(self, seat: int) -> int:
        """The strength of `seat`'s hand at the showdown: a pair above every private rank."""
        rank = self.private[seat] // 2
        return 100 + rank if rank == self.public // 2 else rank

    def _winners(self) -> list[int]:
        """The seats that share the pot (the game must be over)."""
        seats = self._in()
        best = max(self._hand_rank(p) for p in seats) if len(seats) > 1 else None
        return [p for p in seats if best is None or self._hand_rank(p) == best]

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * self.num_players
        win, pot = self._winners(), sum(self.ante)
        return [(pot / len(win) if p in win else 0.0) - a for p, a in enumerate(self.ante)]

    def _revealed(self) -> frozenset[int]:
        """At a showdown the cards of the seats still in are shown."""
        seats = self._in()
        return frozenset(seats if self.over and len(seats) > 1 else ())

    def _action_text(self, action: int) -> str:
        if self.is_chance_node():
            return f"{self.CHANCE_KINDS[self.chance_kind]} {card_name(action, self.num_players)}"
        return ACTION_TEXTS[action]

    def _info(self, seat: int | None) -> dict:
        """The round, pot, chips in per seat, who folded, the cards the reader sees, the seat to move."""
        n = self.num_players
        seen = self._revealed() | ({seat} if seat is not None else set(range(n)))
        mover = self.current_player()
        return {"round": self.round + 1, "pot": sum(self.ante), "chips_in": list(self.ante),
                "folded": [SEAT_LETTERS[p] for p in range(n) if self.folded[p]],
                "cards": ["?" if p not in seen else card_name(c, n) for p, c in enumerate(self.private)],
                "board": card_name(self.public, n) if self.public >= 0 else None,
                "to_move": SEAT_LETTERS[mover] if mover >= 0 else self.phase_name()}

