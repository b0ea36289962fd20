"""A Walking in Burano position's fields, their invariants, and the `walking-in-burano-position/1` JSON.

The fields are spec §15.9's: where each of the 72 cards is (market slot; the shuffled part of its
deck, kept as a set: its order is chance, §15.1; a place in the queue of returned cards under its
deck; a hand; a street slot; the 2-player discard pile), each seat's coins, tokens and street
(scaffolds, characters, houses awaiting a character this turn), the character stacks, the round, the
first player, the seat to move, the phase, the cards placed this turn and the last-round flag.

Hidden information (§14, decision WD-27 of docs/rules-decisions-walking-in-burano.md): every card
that enters a hand is public, so a seat knows the other hands exactly until a return in which the
owner held more cards of that level than it returned (or returned into an uncertain level). Then the
owner's cards of that level, in hand and under the deck, form its **pool** for that level: the others
know the pool's cards, how many of them are in the hand and which queue entries under the deck are
the owner's, not which card is where. A placement from the pool, or a pooled card drawn back into the
market, takes that card out of the pool. `public_returns` (§14 variant) never pools. A one-seat view
writes another seat's pooled hand card as `"L2?"` and its pooled queue entry as `{"card": null, ...}`;
loading a view fills them with a deterministic consistent sample (lowest pooled ids to the queue, in
queue order). So the view is everything the seat knows, and the State's `resample` draws from it.

`validate` is the one list of invariants: a loaded position that breaks one is refused with a
`PositionError` naming the field (`position.seats[1].street[2].floors: ...`), and `Position.check()`
raises the same message as an AssertionError (the random-game invariant test calls it at every ply).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from burano_ai.core.arguments import check_index, check_instance, check_range
from burano_ai.core.errors import OptionError
from burano_ai.core.fields import POSITION, assert_valid, parse_position_json, position_data
from burano_ai.core.seats import SEAT_LETTERS, parse_seat
from burano_ai.core.seeds import check_seed
from burano_ai.games.walking_in_burano import rules
from burano_ai.games.walking_in_burano.data import (
    BEGINNER_REMOVED, BONUS_TOKENS, BOY_SCORINGS, BUILD_COSTS, BUILD_COSTS_LITERAL, CARDS_PER_LEVEL, CHARACTER_COPIES,
    CHARACTER_NAMES, COIN_CAP, HAND_LIMIT,
    IS_TOURIST, LEVELS, MARKET_EXTRA_COLUMNS, MAX_COLUMNS, MAX_HOUSES, MAX_PLACEMENTS, MAX_PLAYERS, MIN_PLAYERS,
    NUM_CARDS, NUM_CHARACTERS, ROUND_GUARD, SCAFFOLDS, START_COINS, CardData, card_level, data_from_dict,
    default_data, load_data,
)
from burano_ai.games.walking_in_burano.rules import (
    PHASE_ACQUIRE, PHASE_BUILD, PHASE_DEAL, PHASE_FIRST, PHASE_NAMES, PHASE_OVER, PHASE_REFILL, PHASE_RETURN,
    PHASE_VISIT,
)

FORMAT = "walking-in-burano-position/1"
TOP_FIELDS = ("format", "view", "players", "options", "data", "phase", "round", "turn", "first_player", "to_move",
              "last_round", "market", "decks", "discard", "characters", "placed", "returned", "seats")
OPTION_FIELDS = ("fewer_characters", "no_window_penalty", "public_returns", "literal_cost", "first_player",
                 "boy_scoring")
#: Option fields a position may leave out (written by later versions; absent = the default).
OPTIONAL_OPTION_FIELDS = ("boy_scoring",)
SEAT_FIELDS = ("coins", "tokens", "hand", "pool", "street")
HOUSE_FIELDS = ("floors", "character", "pending")
DECK_FIELDS = ("shuffled", "under")
UNDER_FIELDS = ("card", "by", "round")
MAX_JSON_CHARS = 200_000
#: A slot of a street holding a scaffold (§6.4); -1 is an empty slot.
SCAFFOLD = -2
EMPTY = -1
#: Most coins during a turn: 6 at its start + 2 from taking one card (§6.1).
MAX_TURN_COINS = COIN_CAP + 2
#: Most cards in a hand during a turn: 3 kept + 3 taken (§8).
MAX_TURN_HAND = HAND_LIMIT + 3


@dataclass(frozen=True)
class Options:
    """The game options (spec §13 variants, §14 `public_returns`, WD-4's literal costs, WD-25).

    Attributes:
        fewer_characters: the beginner variant without shop owner, florist, gardener (§13, WD-26).
        no_window_penalty: the beginner variant without scoring step D (§13, RU:191).
        public_returns: returned cards are shown face up: perfect information apart from chance (§14).
        literal_cost: build costs 1/3/3 (totals 1/4/7), RU:108 read literally (WD-4 option).
        first_player: the seat that starts, or -1 for a chance draw (WD-25).
        boy_scoring: how the Boy scores (`data.BOY_SCORINGS`): "literal" (WD-11), "distinct" or "sets"
            (the spec's alternatives, WD-11, WD-32).
    """

    fewer_characters: bool = False
    no_window_penalty: bool = False
    public_returns: bool = False
    literal_cost: bool = False
    first_player: int = -1
    boy_scoring: str = "literal"

    def to_dict(self) -> dict[str, Any]:
        return {"fewer_characters": self.fewer_characters, "no_window_penalty": self.no_window_penalty,
                "public_returns": self.public_returns, "literal_cost": self.literal_cost,
                "first_player": None if self.first_player < 0 else SEAT_LETTERS[self.first_player],
                "boy_scoring": self.boy_scoring}


def check_config(num_players: object, options: object) -> tuple[int, Options]:
    """The validated game parameters.

    Raises:
        OptionError: a parameter out of range (named).
    """
    if isinstance(num_players, bool) or not isinstance(num_players, int) or \
            not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
        raise OptionError(f"walking-in-burano players must be an int in {MIN_PLAYERS}..{MAX_PLAYERS}, "
                          f"not {num_players!r}")
    if not isinstance(options, Options):
        raise OptionError(f"walking-in-burano options must be an Options, not {type(options).__name__}")
    for name in OPTION_FIELDS[:4]:
        if not isinstance(getattr(options, name), bool):
            raise OptionError(f"walking-in-burano {name} must be true or false, not {getattr(options, name)!r}")
    fp = options.first_player
    if isinstance(fp, bool) or not isinstance(fp, int) or not -1 <= fp < num_players:
        raise OptionError(f"walking-in-burano first_player must be a seat 0..{num_players - 1} "
                          f"(or none: drawn at random), not {fp!r}")
    if options.boy_scoring not in BOY_SCORINGS:
        raise OptionError(f"walking-in-burano boy_scoring must be one of {', '.join(BOY_SCORINGS)}, "
                          f"not {options.boy_scoring!r:.40}")
    return num_players, options


def columns_for(num_players: int) -> int:
    """N = P + 1 market columns (§3 step 2)."""
    return num_players + MARKET_EXTRA_COLUMNS


def stacks_for(num_players: int, options: Options) -> list[int]:
    """The character stacks at setup (§3 step 3; §13 fewer characters, WD-26)."""
    copies = list(CHARACTER_COPIES[num_players])
    if options.fewer_characters:
        for k in BEGINNER_REMOVED:
            copies[k] = 0
    return copies


class House:
    """One house of a street: `floors[0..2]` = a card id, SCAFFOLD or EMPTY for L1..L3; its character
    type (-1: none); `pending`: finished this turn and still waiting for its character (§7)."""

    __slots__ = ("floors", "character", "pending")

    def __init__(self) -> None:
        self.floors = [EMPTY, EMPTY, EMPTY]
        self.character = -1
        self.pending = False

    def copy(self) -> House:
        out = House.__new__(House)
        out.floors, out.character, out.pending = list(self.floors), self.character, self.pending
        return out

    def is_finished(self) -> bool:
        """Three real cards (§6.4, WD-7)."""
        return all(f >= 0 for f in self.floors)

    def real_cards(self) -> list[int]:
        return [f for f in self.floors if f >= 0]


class Seat:
    """One player's coins, tokens, hand (sorted card ids), street (houses left to right) and pool (§14)."""

    __slots__ = ("coins", "tokens", "hand", "street", "pool")

    def __init__(self) -> None:
        self.coins = START_COINS
        self.tokens = BONUS_TOKENS
        self.hand: list[int] = []
        self.street: list[House] = []
        self.pool: set[int] = set()

    def copy(self) -> Seat:
        out = Seat.__new__(Seat)
        out.coins, out.tokens, out.hand = self.coins, self.tokens, list(self.hand)
        out.street = [h.copy() for h in self.street]
        out.pool = set(self.pool)
        return out

    def scaffolds_in_street(self) -> int:
        return sum(f == SCAFFOLD for h in self.street for f in h.floors)

    def free_scaffolds(self) -> int:
        """Scaffolds off the street (WD-7: free ones are kept off it)."""
        return SCAFFOLDS - self.scaffolds_in_street()

    def finished_houses(self) -> int:
        return sum(h.is_finished() for h in self.street)

    def real_cards(self) -> list[int]:
        return [c for h in self.street for c in h.real_cards()]


class Position:
    """The fields of one position (see the module docstring; seats, levels and columns 0-based here).

    Attributes:
        phase: rules.PHASE_*; round: 0..29; turn: turns completed in the game (not part of the key).
        first_player: the holder of the first-player token (-1 before the draw); to_move: the seat
        deciding (-1 outside turns); last_round: the round being played is the last (§9 step 5, WD-18).
        market[level-1][column]: a card id or EMPTY (columns >= N always EMPTY).
        under[level-1]: the returned cards under that deck, drawn first to last: [card, owner, round]
            (§8, WD-22), `round` the 0-based round it was returned in (-1: not known, a position written
            without it). One seat returns once a round, so the entries of one owner and round are one
            return step's, ascending (§8); a resample keeps them so (§15.2).
        discard: the 2-player discard pile, in order (§9 step 2, WD-17).
        stacks[k]: character cards of type k left.
        placed: cards placed this turn (0..3); returned: the cards returned in this return step, in
        order (ascending: the canonical order of RETURN, §15.4); they are also the last entries of
        the seat's queues under the decks.
        seats: one `Seat` per player.
    """

    def __init__(self, num_players: int = 2, options: Options | None = None, data: CardData | None = None) -> None:
        options = options if options is not None else Options()
        check_config(num_players, options)
        self.num_players = num_players
        self.options = options
        self.data = data if data is not None else default_data()
        self.num_columns = columns_for(num_players)
        self.phase = PHASE_DEAL
        self.round = 0
        self.turn = 0
        self.first_player = -1
        self.to_move = -1
        self.last_round = False
        self.market = [[EMPTY] * MAX_COLUMNS for _ in range(LEVELS)]
        self.under: list[list[list[int]]] = [[] for _ in range(LEVELS)]
        self.discard: list[int] = []
        self.stacks = stacks_for(num_players, options)
        self.placed = 0
        self.returned: list[int] = []
        self.seats = [Seat() for _ in range(num_players)]

    def copy_fields_from(self, other: Position) -> None:
        check_instance(other, Position, "a Walking in Burano position")
        self.num_players, self.options, self.data = other.num_players, other.options, other.data
        self.num_columns = other.num_columns
        self.phase, self.round, self.turn = other.phase, other.round, other.turn
        self.first_player, self.to_move, self.last_round = other.first_player, other.to_move, other.last_round
        self.market = [list(row) for row in other.market]
        self.under = [[list(e) for e in q] for q in other.under]
        self.discard = list(other.discard)
        self.stacks = list(other.stacks)
        self.placed, self.returned = other.placed, list(other.returned)
        self.seats = [s.copy() for s in other.seats]

    def config(self) -> tuple:
        return self.num_players, self.options, self.data

    # --- derived facts

    def located_cards(self) -> list[int]:
        """Every card outside the shuffled parts of the decks (with repeats if the position is broken)."""
        out = [c for row in self.market for c in row if c >= 0]
        out += [e[0] for q in self.under for e in q]
        out += self.discard
        for s in self.seats:
            out += s.hand
            out += s.real_cards()
        return out

    def shuffled(self, level: int) -> list[int]:
        """The cards of the shuffled part of deck `level` (1..3), ascending (its order is chance, §15.1)."""
        if type(level) is not int or not 1 <= level <= LEVELS:      # the rules' own calls pass this test
            level = check_range(level, 1, LEVELS, "level")
        located = set(self.located_cards())
        base = CARDS_PER_LEVEL * (level - 1)
        return [c for c in range(base, base + CARDS_PER_LEVEL) if c not in located]

    def deck_size(self, level: int) -> int:
        """Cards in deck `level`: its shuffled part and the returned cards under it."""
        if type(level) is not int or not 1 <= level <= LEVELS:      # the rules' own calls pass this test
            level = check_range(level, 1, LEVELS, "level")
        return len(self.shuffled(level)) + len(self.under[level - 1])

    def refill_cursor(self) -> tuple[int, int] | None:
        """(level, column) of the next market slot a deal or refill fills (§9 step 4: L1 row, then L2,
        then L3; slot by slot left to right), or None when every row is full or its deck is empty."""
        for level in range(1, LEVELS + 1):
            if self.deck_size(level) == 0:
                continue
            for col in range(self.num_columns):
                if self.market[level - 1][col] < 0:
                    return level, col
        return None

    def builds_cost(self) -> tuple[int, ...]:
        """The cost of the 1st, 2nd, 3rd placement of a turn (§6.1, WD-4 or its literal option)."""
        return BUILD_COSTS_LITERAL if self.options.literal_cost else BUILD_COSTS

    def owner_of_pooled(self, card: int) -> int:
        """The seat whose pool holds `card` (0..NUM_CARDS-1), or -1."""
        card = check_index(card, NUM_CARDS, "card")
        for p, s in enumerate(self.seats):
            if card in s.pool:
                return p
        return -1

    def normalise_pool(self, p: int, level: int) -> None:
        """Drop seat p's pool of `level` when nothing about it is uncertain any more (WD-27): none of
        its cards is under the deck (they are all in the hand), or it holds a single card."""
        if type(p) is not int or not 0 <= p < self.num_players:
            p = parse_seat(p, self.num_players)
        if type(level) is not int or not 1 <= level <= LEVELS:      # the rules' own calls pass this test
            level = check_range(level, 1, LEVELS, "level")
        seat = self.seats[p]
        cards = [c for c in seat.pool if card_level(c) == level]
        if not cards:
            return
        queued = {e[0] for e in self.under[level - 1] if e[1] == p}
        if len(cards) == 1 or not any(c in queued for c in cards):
            seat.pool.difference_update(cards)

    def check(self) -> None:
        """Raise AssertionError naming the first broken invariant (the messages of `validate`)."""
        assert_valid(validate, self)


# --- invariants ----------------------------------------------------------------------------------

_fail, _int, _bool, _seat, _keys, _list = POSITION.fail, POSITION.int, POSITION.bool, POSITION.seat, POSITION.keys, POSITION.list


def validate(pos: Position) -> None:
    """Every invariant of a position (spec §15.9), in one place.

    Raises:
        PositionError: the first broken one, naming its field.
    """
    n, N = pos.num_players, pos.num_columns
    phase = pos.phase
    in_turn = phase in (PHASE_ACQUIRE, PHASE_BUILD, PHASE_VISIT, PHASE_RETURN)
    if not 0 <= pos.round < ROUND_GUARD:
        raise _fail("round", f"{pos.round + 1} is not a round 1..{ROUND_GUARD} (WD-20)")
    if in_turn != (pos.to_move >= 0):
        raise _fail("to_move", "a seat moves exactly in the acquire, build, visit and return phases")
    if pos.to_move >= n:
        raise _fail("to_move", "not a seat")
    if (pos.first_player < 0) != (phase in (PHASE_DEAL, PHASE_FIRST)):
        raise _fail("first_player", "the first player is drawn right after the setup deals (§3 step 6)")
    if pos.first_player >= n:
        raise _fail("first_player", "not a seat")
    if pos.options.first_player >= 0 and phase == PHASE_FIRST:
        raise _fail("phase", "no first-player draw when the options fix the first player")
    if phase in (PHASE_DEAL, PHASE_FIRST) and (pos.round or pos.turn or pos.last_round):
        raise _fail("phase", "setup happens before round 1")
    if pos.last_round and phase == PHASE_REFILL:
        raise _fail("last_round", "no refill after the last round (§9 step 5)")
    if not 0 <= pos.placed <= MAX_PLACEMENTS or (pos.placed and phase not in (PHASE_BUILD, PHASE_VISIT,
                                                                              PHASE_RETURN)):
        raise _fail("placed", f"0..{MAX_PLACEMENTS} cards placed, and only during a turn's build, visit or return")
    if pos.returned and phase != PHASE_RETURN:
        raise _fail("returned", "a card returned outside the return step")
    if pos.returned != sorted(set(pos.returned)):
        raise _fail("returned", "cards are returned in ascending order (§15.4)")
    for c in pos.returned:
        q = pos.under[card_level(c) - 1]
        tail = [e[0] for e in q if e[1] == pos.to_move][-sum(card_level(x) == card_level(c) for x in pos.returned):]
        if c not in tail:
            raise _fail("returned", f"card {c} returned in this step is not under its deck")
    # the market
    for r in range(LEVELS):
        for col in range(MAX_COLUMNS):
            c = pos.market[r][col]
            if c < 0:
                continue
            if col >= N:
                raise _fail(f"market.L{r + 1}", f"{N} columns for {n} players (§3 step 2)")
            if card_level(c) != r + 1:
                raise _fail(f"market.L{r + 1}", f"card {c} is an L{card_level(c)} card")
    if phase in (PHASE_DEAL, PHASE_REFILL):
        cursor = pos.refill_cursor()
        if cursor is None:
            raise _fail("phase", f"{PHASE_NAMES[phase]} with no slot left to fill")
        for r in range(LEVELS):
            row = pos.market[r][:N]
            if EMPTY in row and any(c >= 0 for c in row[row.index(EMPTY):]):
                raise _fail(f"market.L{r + 1}", "a row is filled left to right after the slide (§9 step 3)")
        if phase == PHASE_DEAL and (pos.discard or any(pos.under) or any(s.hand or s.street for s in pos.seats)):
            raise _fail("phase", "during the setup deals no card is in a hand, a street, the discard or under a deck")
    if pos.discard and n != 2:
        raise _fail("discard", "only 2-player games discard (§9 step 2)")
    # every card in exactly one place (§15.9)
    located = pos.located_cards()
    seen: set[int] = set()
    for c in located:
        if not 0 <= c < NUM_CARDS:
            raise _fail("seats", f"no card {c} (cards 0..{NUM_CARDS - 1})")
        if c in seen:
            raise _fail("seats", f"card {c} is in two places")
        seen.add(c)
    for r in range(LEVELS):
        latest = -1
        for i, (c, owner, when) in enumerate(pos.under[r]):
            if card_level(c) != r + 1:
                raise _fail(f"decks[{r}].under[{i}]", f"card {c} is an L{card_level(c)} card")
            if not 0 <= owner < n:
                raise _fail(f"decks[{r}].under[{i}].by", "not a seat")
            if not -1 <= when <= pos.round:
                raise _fail(f"decks[{r}].under[{i}].round", f"round {when + 1} is not a round played so far")
            if 0 <= when < latest:
                raise _fail(f"decks[{r}].under[{i}].round", f"returned in round {when + 1}, after a card returned "
                                                            f"in round {latest + 1} (first returned, first drawn)")
            latest = max(latest, when)
            if when >= 0 and any(o == owner and w == when and x > c for x, o, w in pos.under[r][:i]):
                raise _fail(f"decks[{r}].under[{i}]", f"card {c} after a higher card returned in the same step "
                                                      "(cards returned together go under in ascending order, §8)")
    # characters: stacks + owned = the cards in play (§3 step 3)
    start = stacks_for(n, pos.options)
    owned = [0] * NUM_CHARACTERS
    for p, s in enumerate(pos.seats):
        for h in s.street:
            if h.character >= 0:
                owned[h.character] += 1
    for k in range(NUM_CHARACTERS):
        if not 0 <= pos.stacks[k] <= start[k] or pos.stacks[k] + owned[k] != start[k]:
            raise _fail(f"characters.{CHARACTER_NAMES[k]}", f"{pos.stacks[k]} left and {owned[k]} in streets; "
                                                            f"{start[k]} are in play (§3 step 3)")
    for p, s in enumerate(pos.seats):
        seat = f"seats[{p}]"
        moving = p == pos.to_move
        if not 0 <= s.tokens <= BONUS_TOKENS:
            raise _fail(f"{seat}.tokens", f"{s.tokens} is not 0..{BONUS_TOKENS} (WD-5)")
        most = MAX_TURN_COINS if moving and phase != PHASE_ACQUIRE else COIN_CAP
        if not 0 <= s.coins <= most:
            raise _fail(f"{seat}.coins", f"{s.coins} is not 0..{most} (§8: at most {COIN_CAP} between turns)")
        if s.hand != sorted(s.hand):
            raise _fail(f"{seat}.hand", "cards are listed in ascending order")
        most = MAX_TURN_HAND if moving and phase != PHASE_ACQUIRE else HAND_LIMIT
        if len(s.hand) > most:
            raise _fail(f"{seat}.hand", f"{len(s.hand)} cards; at most {most} (§8: {HAND_LIMIT} between turns)")
        if moving and phase == PHASE_RETURN and len(s.hand) <= HAND_LIMIT:
            raise _fail(f"{seat}.hand", f"a return step with {len(s.hand)} cards in hand")
        if moving and phase == PHASE_RETURN and pos.returned:
            needed = len(s.hand) - HAND_LIMIT
            if sum(c > pos.returned[-1] for c in s.hand) < needed:
                raise _fail("returned", "the cards still to return must come after the ones returned (§15.4)")
        if len(s.street) > MAX_HOUSES:
            raise _fail(f"{seat}.street", f"{len(s.street)} houses; at most {MAX_HOUSES} (§6.2)")
        inhabitants: set[int] = set()
        for j, h in enumerate(s.street):
            field = f"{seat}.street[{j}]"
            f1, f2, f3 = h.floors
            for lv, f in enumerate(h.floors):
                if f >= 0 and card_level(f) != lv + 1:
                    raise _fail(f"{field}.floors", f"card {f} is an L{card_level(f)} card, not L{lv + 1}")
            if not h.real_cards():
                raise _fail(f"{field}.floors", "a house holds at least one real card (§6.4)")
            if f3 == SCAFFOLD:
                raise _fail(f"{field}.floors", "a scaffold is never at L3 (§6.2)")
            if (f2 != EMPTY and f1 == EMPTY) or (f3 != EMPTY and EMPTY in (f1, f2)):
                raise _fail(f"{field}.floors", "an upper floor without support (§6.2 rule 2)")
            if (f1 == SCAFFOLD and f2 < 0 and f3 < 0) or (f2 == SCAFFOLD and f3 < 0):
                raise _fail(f"{field}.floors", "a free scaffold in the street (§6.4: free scaffolds are off it)")
            if h.character >= 0 or h.pending:
                if not h.is_finished():
                    raise _fail(f"{field}.character", "only finished houses receive characters (RU:134)")
            if h.character >= 0 and h.pending:
                raise _fail(f"{field}.pending", "a house waiting for a character already has one")
            if h.pending and not (moving and phase in (PHASE_BUILD, PHASE_VISIT)):
                raise _fail(f"{field}.pending", "only the seat to move has houses waiting, before its returns")
            if h.character >= 0 and not IS_TOURIST[h.character]:
                if h.character in inhabitants:
                    raise _fail(f"{field}.character", f"two {CHARACTER_NAMES[h.character]}s in one street "
                                                      "(RU:132, RU:145)")
                inhabitants.add(h.character)
        if s.scaffolds_in_street() > SCAFFOLDS:
            raise _fail(f"{seat}.street", f"{s.scaffolds_in_street()} scaffolds; a player has {SCAFFOLDS}")
        if moving and phase == PHASE_VISIT and not any(h.pending for h in s.street):
            raise _fail("phase", "a visit step with no house waiting for a character")
        # the pool (WD-27)
        if s.pool and pos.options.public_returns:
            raise _fail(f"{seat}.pool", "no card is pooled when returns are public (§14)")
        queued = {e[0] for q in pos.under for e in q if e[1] == p}
        for c in sorted(s.pool):
            if c not in s.hand and c not in queued:
                raise _fail(f"{seat}.pool", f"card {c} is neither in the hand nor returned by this seat")
        for level in range(1, LEVELS + 1):
            cards = [c for c in s.pool if card_level(c) == level]
            if cards and (len(cards) == 1 or not any(c in queued for c in cards)):
                raise _fail(f"{seat}.pool", f"the L{level} pool holds nothing uncertain (WD-27)")
    if phase == PHASE_OVER and pos.to_move >= 0:
        raise _fail("to_move", "nobody moves after the end")


# --- a seeded new game -----------------------------------------------------------------------------

def new_position(num_players: int = 2, seed: int = 0, options: Options | None = None,
                 data: CardData | None = None) -> Position:
    """A dealt start position (§3) drawn from `seed`: each deck shuffled, N cards dealt into each row,
    the first player drawn uniformly unless `options` fix it (WD-25). The same distribution as the
    chance nodes of a game's setup (each deal uniform over the deck, WD-29's order); the first
    turn's acquire is pending.

    Raises:
        OptionError: a parameter out of range. TypeError: `seed` is not an int.
    """
    rng = random.Random(check_seed(seed))
    pos = Position(num_players, options, data)
    for level in range(1, LEVELS + 1):
        deck = list(range(CARDS_PER_LEVEL * (level - 1), CARDS_PER_LEVEL * level))
        rng.shuffle(deck)
        pos.market[level - 1][:pos.num_columns] = deck[:pos.num_columns]
    first = pos.options.first_player if pos.options.first_player >= 0 else rng.randrange(num_players)
    pos.first_player = pos.to_move = first
    pos.phase = PHASE_ACQUIRE
    validate(pos)
    return pos


# --- JSON out ------------------------------------------------------------------------------------

def _floor(f: int) -> Any:
    return None if f == EMPTY else "S" if f == SCAFFOLD else f


def hidden_to(pos: Position, seat: int | None, owner: int, card: int) -> bool:
    """True when `seat`'s view (None: the full position) cannot tell where `owner`'s pooled card is."""
    return seat is not None and seat != owner and card in pos.seats[owner].pool


def position_to_dict(pos: Position, seat: int | None = None) -> dict[str, Any]:
    """The position as a JSON-ready dict: full (`seat` None) or seat `seat`'s view (module docstring)."""
    seats = []
    for p, s in enumerate(pos.seats):
        hand: list[Any] = [c for c in s.hand if not hidden_to(pos, seat, p, c)]
        hand += [f"L{card_level(c)}?" for c in s.hand if hidden_to(pos, seat, p, c)]
        street = [{"floors": [_floor(f) for f in h.floors],
                   "character": None if h.character < 0 else CHARACTER_NAMES[h.character],
                   "pending": h.pending} for h in s.street]
        seats.append({"coins": s.coins, "tokens": s.tokens, "hand": hand, "pool": sorted(s.pool), "street": street})
    decks = []
    for r in range(LEVELS):
        under = [{"card": None if hidden_to(pos, seat, owner, c) else c, "by": SEAT_LETTERS[owner],
                  **({"round": when + 1} if when >= 0 else {})}
                 for c, owner, when in pos.under[r]]
        decks.append({"shuffled": len(pos.shuffled(r + 1)), "under": under})
    return {
        "format": FORMAT,
        "view": None if seat is None else SEAT_LETTERS[seat],
        "players": pos.num_players,
        "options": pos.options.to_dict(),
        "data": None if pos.data.is_default else pos.data.to_dict(),
        "phase": PHASE_NAMES[pos.phase],
        "round": pos.round + 1,
        "turn": pos.turn,
        "first_player": None if pos.first_player < 0 else SEAT_LETTERS[pos.first_player],
        "to_move": None if pos.to_move < 0 else SEAT_LETTERS[pos.to_move],
        "last_round": pos.last_round,
        "market": [[None if c < 0 else c for c in row[:pos.num_columns]] for row in pos.market],
        "decks": decks,
        "discard": list(pos.discard),
        "characters": {CHARACTER_NAMES[k]: pos.stacks[k] for k in range(NUM_CHARACTERS)},
        "placed": pos.placed,
        "returned": [f"L{card_level(c)}?" if hidden_to(pos, seat, pos.to_move, c) else c for c in pos.returned],
        "seats": seats,
    }


def position_to_json(pos: Position, seat: int | None = None, indent: int | None = None) -> str:
    return json.dumps(position_to_dict(pos, seat), indent=indent)


# --- JSON in -------------------------------------------------------------------------------------

def _card(value: object, field: str) -> int:
    return _int(value, field, 0, NUM_CARDS - 1)


def options_from_dict(value: object, n: int, field: str = "options") -> Options:
    """The `options` object of a position (every field present but `OPTIONAL_OPTION_FIELDS`)."""
    d = _keys(value, field, OPTION_FIELDS, OPTIONAL_OPTION_FIELDS)
    boy = d.get("boy_scoring", "literal")
    if boy not in BOY_SCORINGS:
        raise _fail(f"{field}.boy_scoring", f"expected one of {', '.join(BOY_SCORINGS)}, got {boy!r:.40}")
    return Options(*(_bool(d[k], f"{field}.{k}") for k in OPTION_FIELDS[:4]),
                   first_player=_seat(d["first_player"], f"{field}.first_player", n, allow_none=True),
                   boy_scoring=boy)


def position_from_json(text: object, expect: tuple | None = None) -> Position:
    """Parse and validate a position JSON text (full or one seat's view); return the `Position`.

    Args:
        expect: (players, options, data) the position must have (a Game's), or None.

    Raises:
        TypeError: `text` is not a str. PositionError: not JSON, too long, or a wrong field (named).
    """
    return position_from_dict(parse_position_json(text, MAX_JSON_CHARS), expect)


def position_from_dict(root: object, expect: tuple | None = None) -> Position:
    """Build a validated `Position` from a position dict (see `position_from_json`).

    A one-seat view's hidden entries (another seat's `"L2?"` hand cards and null queue cards) are
    filled with a deterministic sample consistent with the view: the owner's pooled cards of that
    level, lowest ids to its queue entries in queue order, the rest to its hand.
    """
    d = POSITION.head(root, FORMAT, TOP_FIELDS)
    n = _int(d["players"], "players", MIN_PLAYERS, MAX_PLAYERS)
    options = options_from_dict(d["options"], n)
    data = position_data(d["data"], default_data, data_from_dict)
    POSITION.same_config(("players", "options", "data"), (n, options, data), expect, {"data": "another data file"})
    view = _seat(d["view"], "view", n, allow_none=True)
    pos = Position(n, options, data)
    if d["phase"] not in PHASE_NAMES:
        raise _fail("phase", f"expected one of {', '.join(PHASE_NAMES)}, got {d['phase']!r:.40}")
    pos.phase = PHASE_NAMES.index(d["phase"])
    pos.round = _int(d["round"], "round", 1, ROUND_GUARD) - 1
    pos.turn = _int(d["turn"], "turn", 0, 10_000)
    pos.first_player = _seat(d["first_player"], "first_player", n, allow_none=True)
    pos.to_move = _seat(d["to_move"], "to_move", n, allow_none=True)
    pos.last_round = _bool(d["last_round"], "last_round")
    market = d["market"]
    if not isinstance(market, list) or len(market) != LEVELS:
        raise _fail("market", f"expected {LEVELS} rows (L1, L2, L3), got {market!r:.60}")
    N = pos.num_columns
    for r, row in enumerate(market):
        if not isinstance(row, list) or len(row) != N:
            raise _fail(f"market.L{r + 1}", f"expected {N} slots (a card id or null) for {n} players, got {row!r:.60}")
        for col, c in enumerate(row):
            pos.market[r][col] = EMPTY if c is None else _card(c, f"market.L{r + 1}[{col}]")
    decks = d["decks"]
    if not isinstance(decks, list) or len(decks) != LEVELS:
        raise _fail("decks", f"expected {LEVELS} decks (L1, L2, L3), got {decks!r:.60}")
    shuffled_counts = []
    hidden_under: list[tuple[int, int, int]] = []       # (level index, position, owner)
    for r, deck in enumerate(decks):
        _keys(deck, f"decks[{r}]", DECK_FIELDS)
        shuffled_counts.append(_int(deck["shuffled"], f"decks[{r}].shuffled", 0, CARDS_PER_LEVEL))
        for i, e in enumerate(_list(deck["under"], f"decks[{r}].under", CARDS_PER_LEVEL)):
            _keys(e, f"decks[{r}].under[{i}]", UNDER_FIELDS, optional=("round",))
            owner = _seat(e["by"], f"decks[{r}].under[{i}].by", n)
            when = _int(e["round"], f"decks[{r}].under[{i}].round", 1, ROUND_GUARD) - 1 if "round" in e else -1
            if e["card"] is None:
                if view < 0 or owner == view:
                    raise _fail(f"decks[{r}].under[{i}].card", "a hidden returned card is only allowed for another "
                                                               "seat in a one-seat view")
                hidden_under.append((r, i, owner))
                pos.under[r].append([EMPTY, owner, when])
            else:
                pos.under[r].append([_card(e["card"], f"decks[{r}].under[{i}].card"), owner, when])
    pos.discard = [_card(c, f"discard[{i}]") for i, c in enumerate(_list(d["discard"], "discard", NUM_CARDS))]
    chars = d["characters"]
    if not isinstance(chars, dict) or sorted(chars) != sorted(CHARACTER_NAMES):
        raise _fail("characters", f"expected a count for each character type {', '.join(CHARACTER_NAMES)}, "
                                  f"got {chars!r:.60}")
    pos.stacks = [_int(chars[name], f"characters.{name}", 0, 3) for name in CHARACTER_NAMES]
    pos.placed = _int(d["placed"], "placed", 0, MAX_PLACEMENTS)
    hidden_returned: list[tuple[int, int]] = []        # (position in `returned`, level)
    for i, c in enumerate(_list(d["returned"], "returned", MAX_TURN_HAND)):
        if isinstance(c, str) and len(c) == 3 and c[0] == "L" and c[2] == "?" and c[1] in "123":
            if view < 0 or view == pos.to_move:
                raise _fail(f"returned[{i}]", "a hidden card is only allowed for another seat in a one-seat view")
            hidden_returned.append((i, int(c[1])))
            pos.returned.append(EMPTY)
        else:
            pos.returned.append(_card(c, f"returned[{i}]"))
    hidden_hand: dict[tuple[int, int], int] = {}       # (seat, level) -> hidden hand cards
    for p, (field, entry) in enumerate(POSITION.seats(d["seats"], n, SEAT_FIELDS)):
        s = pos.seats[p]
        s.coins = _int(entry["coins"], f"{field}.coins", 0, MAX_TURN_COINS)
        s.tokens = _int(entry["tokens"], f"{field}.tokens", 0, BONUS_TOKENS)
        for i, c in enumerate(_list(entry["hand"], f"{field}.hand", MAX_TURN_HAND)):
            if isinstance(c, str) and len(c) == 3 and c[0] == "L" and c[2] == "?" and c[1] in "123":
                if view < 0 or view == p:
                    raise _fail(f"{field}.hand[{i}]", "a hidden card is only allowed for another seat in a "
                                                      "one-seat view")
                key = (p, int(c[1]))
                hidden_hand[key] = hidden_hand.get(key, 0) + 1
            else:
                s.hand.append(_card(c, f"{field}.hand[{i}]"))
        if s.hand != sorted(s.hand):
            raise _fail(f"{field}.hand", "cards are listed in ascending order")
        s.pool = {_card(c, f"{field}.pool[{i}]") for i, c in enumerate(_list(entry["pool"], f"{field}.pool",
                                                                                 NUM_CARDS))}
        if len(s.pool) != len(entry["pool"]):
            raise _fail(f"{field}.pool", "a card listed twice")
        for j, raw in enumerate(_list(entry["street"], f"{field}.street", MAX_HOUSES)):
            hf = f"{field}.street[{j}]"
            _keys(raw, hf, HOUSE_FIELDS)
            h = House()
            floors = raw["floors"]
            if not isinstance(floors, list) or len(floors) != LEVELS:
                raise _fail(f"{hf}.floors", f"expected [L1, L2, L3]: a card id, \"S\" (scaffold) or null each, "
                                            f"got {floors!r:.40}")
            for lv, f in enumerate(floors):
                h.floors[lv] = EMPTY if f is None else SCAFFOLD if f == "S" else _card(f, f"{hf}.floors[{lv}]")
            ch = raw["character"]
            if ch is not None and ch not in CHARACTER_NAMES:
                raise _fail(f"{hf}.character", f"expected null or one of {', '.join(CHARACTER_NAMES)}, got {ch!r:.40}")
            h.character = -1 if ch is None else CHARACTER_NAMES.index(ch)
            h.pending = _bool(raw["pending"], f"{hf}.pending")
            s.street.append(h)
    # fill a view's hidden entries with the owner's pooled cards (lowest ids to the queue)
    for p in range(n):
        s = pos.seats[p]
        for level in range(1, LEVELS + 1):
            slots = [(r, i) for r, i, o in hidden_under if o == p and r == level - 1]
            in_hand = hidden_hand.get((p, level), 0)
            if not slots and not in_hand:
                continue
            placed = set(pos.located_cards())
            free = sorted(c for c in s.pool if card_level(c) == level and c not in placed)
            if len(free) != len(slots) + in_hand:
                raise _fail(f"seats[{p}].pool", f"{len(free)} unplaced L{level} pool cards for {len(slots)} hidden "
                                                f"returned and {in_hand} hidden hand cards")
            for (r, i), c in zip(slots, free):
                pos.under[r][i][0] = c
            s.hand = sorted(s.hand + free[len(slots):])
    if hidden_returned:                   # the step's returns are the last entries of the mover's queues
        hidden_level = dict(hidden_returned)
        levels = [hidden_level[i] if c < 0 else card_level(c) for i, c in enumerate(pos.returned)]
        for level in set(hidden_level.values()):
            idx = [i for i, lv in enumerate(levels) if lv == level]
            mine = [e[0] for e in pos.under[level - 1] if e[1] == pos.to_move]
            if pos.to_move < 0 or len(mine) < len(idx):
                raise _fail("returned", f"more L{level} cards returned in this step than its queue holds")
            for i, c in zip(idx, mine[-len(idx):]):
                pos.returned[i] = c
    validate(pos)
    for r in range(LEVELS):
        if len(pos.shuffled(r + 1)) != shuffled_counts[r]:
            raise _fail(f"decks[{r}].shuffled", f"{shuffled_counts[r]}, but {len(pos.shuffled(r + 1))} L{r + 1} "
                                                "cards are nowhere else")
    return pos


__all__ = ["EMPTY", "FORMAT", "House", "Options", "Position", "SCAFFOLD", "Seat", "check_config", "columns_for",
           "load_data", "new_position", "options_from_dict", "position_from_dict", "position_from_json", "position_to_dict",
           "position_to_json", "stacks_for", "validate"]
