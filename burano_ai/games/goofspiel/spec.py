"""Goofspiel's entry in the game registry (`burano_ai.games`): what the services may know of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from burano_ai.core.errors import PositionError
from burano_ai.core.fields import position_dict, position_view
from burano_ai.core.options import check_player_count
from burano_ai.core.game import Declaration, GameOption, StepVisibility, import_game_class, unrevealed_moves
from burano_ai.core.people import plain_spans
from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games.goofspiel import rules
from burano_ai.games.goofspiel.position import FORMAT as POSITION_FORMAT
from burano_ai.games.goofspiel.position import position_from_dict, position_from_json
from burano_ai.games.goofspiel.render import render as _render

#: The game's options besides the player count (`core.game.GameOption`): keyword arguments of `new_game`
#: and of both Game classes.
GAME_OPTIONS: Mapping[str, GameOption] = MappingProxyType({
    "num_cards": GameOption("num_cards", "int", rules.DEFAULT_CARDS, "cards in each hand and in the prize deck",
                            low=rules.MIN_CARDS, high=rules.MAX_CARDS),
    "points_order": GameOption("points_order", "choice", "random", "the order the prizes are revealed in",
                               choices=rules.POINTS_ORDERS),
})


@dataclass(frozen=True)
class GoofspielSpec(Declaration):
    """The `core.game.GameSpec` of Goofspiel (OpenSpiel's `goofspiel`, played sequentially).

    A Game takes `num_cards` (2..16, default 13) and `points_order` ("random", "descending",
    "ascending") besides the player count; `new_game` passes them on.
    """

    key: str = "goofspiel"
    title: str = "Goofspiel"
    min_players: int = rules.MIN_PLAYERS
    max_players: int = rules.MAX_PLAYERS
    default_players: int = rules.DEFAULT_PLAYERS
    position_format: str = POSITION_FORMAT
    implementations: dict[str, str] = field(default_factory=lambda: {
        "compiled": "burano_ai.games.goofspiel._core:Game",
        "reference": "burano_ai.games.goofspiel.reference:Game",
    })
    capabilities: frozenset[str] = frozenset({
        "native_search", "hidden_information", "secret_moves", "heuristic_playout",
    })
    game_options = GAME_OPTIONS      # a class attribute, not a field (`core.game.GameOption`)
    # The learned evaluation (docs/learning.md): the shipped net of the player count where there is one
    # (nets/3p.json, 4p.json and 5p.json: each SPRT H1 at 0.05 s a decision against the playout alone,
    # docs/strength.md), blended half and half with the heuristic playout; the playout alone elsewhere. The other
    # seats' bids are chosen by their own bandits, drawing at random by Exp3 (`Params.secret` = "exp3"). UCB
    # bandits ("ucb", decoupled UCT) passed SPRT at 0.05 s a decision against the bids drawn from the prior at 2,
    # 3, 4 and 5 players, but their deterministic choices fell into step with the searching seat's own and
    # misvalued its bids; Exp3's values are right where the game's value is known, every seed split at `burano
    # suggest`'s default is reported as a tie, and against "ucb" it passed SPRT at 3 players and stood even at 2,
    # 4 and 5 (docs/strength.md, "Simultaneous bids" and "Exp3 bids"). The bids of the round made before the
    # searching seat's are taken back and made again by their seats' bandits (`State.rewind_secret`), not drawn
    # from the prior: +163 Elo at 2 players, +135 at 3 (the same page). The tie margin is 0.07, the smallest that
    # reported every split of 5 seeds as a tie with the UCB bandits (0.05 with the prior; bench/tie_calibration.py;
    # docs/strength.md, "A tie margin per game").
    search_defaults = MappingProxyType({"net": "auto", "net_weight": 0.5, "tie_margin": 0.07, "secret": "exp3"})

    def game_class(self, implementation: str = "compiled"):
        """The Game class of `implementation` ("compiled" or "reference")."""
        return import_game_class(self, implementation)

    def new_game(self, num_players: int, implementation: str = "compiled", *,
                 num_cards: int = rules.DEFAULT_CARDS, points_order: str = "random"):
        """A Game of `implementation` for `num_players` players (and `num_cards`, `points_order`)."""
        check_player_count(self, num_players)
        return self.game_class(implementation)(num_players, num_cards, points_order)

    # --- engine side: positions, records, bots, arena (engine, protocol, record, session, arena)
    #: The score column's name (a seat's points).
    score_name: str = "points"
    #: The kinds of chance event a record may name: the prize reveal.
    chance_kinds: tuple[str, ...] = rules.CHANCE_KIND_NAMES
    #: A hidden bid is written with the generic "?" only.
    unseen_texts: frozenset[str] = frozenset()

    def load_position(self, data: Mapping[str, Any], game_factory=None):
        """Validate a `goofspiel-position/1` object and build its State; return (State, view seat or None).

        `game_factory` (default: the compiled Game) is called with the position's (players, num_cards,
        points_order), the arguments of both Game classes.

        Raises:
            PositionError: a field is wrong (the message names it).
        """
        pos = position_from_dict(data)
        factory = game_factory or self.game_class("compiled")
        state = factory(pos.num_players, pos.num_cards, pos.points_order).state_from_position(pos)
        return state, position_view(data, pos.num_players)

    def load_position_text(self, text: str, implementation: str = "compiled"):
        """A State of a `goofspiel-position/1` JSON text (its own parameters pick the Game).

        Raises:
            PositionError: not JSON, or a field is wrong (named). TypeError: `text` is not a str.
        """
        pos = position_from_json(text)
        return self.game_class(implementation)(pos.num_players, pos.num_cards, pos.points_order) \
            .state_from_position(pos)

    def step_visibility(self, state, action: int):
        """A prize reveal is public; a bid is seen by its bidder only, but the round's last bid resolves
        the round and reveals every bid of it, so that step is public (and closes the secret ones)."""
        if state.is_chance_node():
            return StepVisibility(rules.CHANCE_KIND_NAMES[0], None, None)
        bidder = state.current_player()
        return StepVisibility(None, None, None if bidder == state.num_players - 1 else (bidder,))

    def hidden_in_export(self, steps: Sequence[Any], seat: int) -> set[int]:
        """The other seats' bids of the round still open when the record ends (the private steps after
        the last public one, prize reveals skipped): the bids of every finished round are public."""
        letter = SEAT_LETTERS[seat]
        return {i for i in unrevealed_moves(steps) if not steps[i].visible_to(letter)}

    def why_illegal(self, state, action: int) -> str | None:
        """None: a bid not in the hand is the only illegal one, and the list shows the hand."""
        return None

    def resample_for_record(self, state, seat: int, later: Sequence[Any], seed: int, game_factory=None):
        """None: an export hides only the bids of the round still open at its end, which nothing follows."""
        return None

    def narrate_step(self, step, hidden: bool) -> str:
        """``the prize is 7``, ``B: bid 5``, ``B bids (hidden)``."""
        if step.is_chance:
            what = "" if step.move is None else step.move.split()[-1]
            return f"the prize is {what}" if what else "a prize is revealed"
        if hidden:
            return f"{step.actor} bids (hidden)"
        return f"{step.actor}: {step.move}"

    def step_effects(self, before, after, action: int | None = None):
        """Each round the step resolves, in words: ``prize 7: A bid 9, B bid 5; A takes it (A +7 points)``
        or ``...; tied, nobody takes it``; the last round (played by itself) too; then the result. The
        bids of a round are told only when its last bid reveals them all (a public step). A prize taken
        carries its points (`StepEffect.points`: the category `prize 7`), for the end's score table."""
        from burano_ai.core.game import StepEffect
        from burano_ai.core.people import result_lines
        old, new = before.to_dict(), after.to_dict()
        n = before.num_players
        effects = []
        rounds = []
        if old["phase"] == "bid" and (new["round"] > old["round"] or new["phase"] == "over"):
            bids = [seat["bid"] for seat in old["seats"]]
            mover = before.current_player()
            if action is None:   # the bid that leads to `after`
                action = next(a for a in before.legal_actions() if _applied(before, a).to_dict() == new)
            bids[mover] = action + 1
            rounds.append((old["prize"], bids))
            left = [[c for c in seat["hand"] if c != bids[p]] for p, seat in enumerate(old["seats"])]
            if all(len(hand) == 1 for hand in left) and old["prizes_left"] and new["phase"] == "over":
                rounds.append((old["prizes_left"][0], [hand[0] for hand in left]))
        for prize, bids in rounds:
            told = ", ".join(f"{SEAT_LETTERS[p]} bid {bids[p]}" for p in range(n))
            best = max(bids)
            if bids.count(best) == 1:
                winner = SEAT_LETTERS[bids.index(best)]
                effects.append(StepEffect(f"prize {prize}: {told}; {winner} takes it ({winner} +{prize} point{'s' if prize != 1 else ''})",
                                          points=((bids.index(best), f"prize {prize}", prize),)))
            else:
                effects.append(StepEffect(f"prize {prize}: {told}; tied, nobody takes it"))
        return effects + [StepEffect(line) for line in result_lines(self, after)]

    def describe_result(self, state) -> list[str]:
        """The winners, and whether the order of finish decided a tie (`core.people.result_lines`)."""
        from burano_ai.core.people import result_lines
        return result_lines(self, state)

    def describe_move(self, state, action: int) -> str:
        """``bid 5``, ``prize 7``: the move texts are already people's words."""
        return state.action_to_string(action)

    def describe_moves(self, state, actions: list[int]) -> list[str]:
        return [self.describe_move(state, a) for a in actions]

    def move_notes(self, state) -> list[str]:
        """The prize bid for (`prize 7 is up for bids`)."""
        if state.is_terminal() or state.is_chance_node():
            return []
        return [f"prize {state.to_dict()['prize']} is up for bids"]

    def bots(self) -> Mapping[str, Any]:
        """No bots of its own: the generic ones play it."""
        return {}

    # --- people side: terminal rendering, move entry, score columns (cli, play)

    def render_styled(self, position: dict[str, Any], width: int | None = None) -> list[list[tuple[str, str]]]:
        """`render`'s lines, without styles."""
        return plain_spans(self.render(position, width))

    def render(self, position: dict[str, Any] | str, width: int | None = None) -> str:
        """Plain text of a position dict (`State.to_dict(seat)`, or its JSON text) for the terminal: one
        layout at any `width`, 70 columns at most (16 cards, 5 players: tests/games/burano/test_render.py)."""
        position = position_dict(position)
        return _render(position) + "\n"

    def render_legal_actions(self, state) -> str:
        """`bids for B: 1 2 5 9` or `prizes left (1/4 each): 3 6 7 8`."""
        if state.is_terminal():
            return "no legal moves: the game is over\n"
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            cards = " ".join(str(a + 1) for a, _ in outcomes)
            return f"prizes left (1/{len(outcomes)} each): {cards}\n"
        cards = " ".join(str(a + 1) for a in state.legal_actions())
        return f"bids for {SEAT_LETTERS[state.current_player()]}: {cards}\n"

    def phase_label(self, position: dict[str, Any]) -> str:
        """`round 3`, or `over`."""
        return "over" if position["phase"] == "over" else f"round {position['round'] + 1}"

    def turn_label(self, position: dict[str, Any]) -> str:
        """`round 3, prize 7`."""
        if position["phase"] == "over":
            return "game over"
        prize = position["prize"]
        return f"round {position['round'] + 1}, " + (f"prize {prize}" if prize else "prize to reveal")

    def chance_label(self, position: dict[str, Any]) -> str:
        """`prize`."""
        return rules.CHANCE_KIND_NAMES[0]

    def seat_label(self, seat: int) -> str:
        """The seat's letter."""
        return SEAT_LETTERS[seat]

    def score_columns(self, state) -> list[tuple[str, list[str]]]:
        """Points, and the prizes each seat took."""
        return [("points", [str(x) for x in state.scores()]),
                ("prizes won", [" ".join(str(c) for c in won) or "-" for won in state.won])]

    def describe_scores(self, scores: Sequence[float]) -> str:
        """`A 34 points, B 20 points`."""
        return ", ".join(f"{SEAT_LETTERS[p]} {x:g} points" for p, x in enumerate(scores))

    def example_position(self) -> str:
        """Seat B's view of a 2-player 13-card game in round 4, A has bid (`EXAMPLE_MOVES`)."""
        state = self.new_game(2, "reference").new_initial_state()
        for text in EXAMPLE_MOVES:
            state.play(text)
        return state.to_json(1)

    def move_entry(self):
        """None: a bid is typed as its number in the list or as `bid N`."""
        return None


def _applied(state, action: int):
    """A copy of `state` with `action` applied."""
    out = state.clone()
    out.apply_action(action)
    return out


#: The moves of `GoofspielSpec.example_position` (a prize, then A's and B's bids, each round).
EXAMPLE_MOVES = ("prize 7", "bid 8", "bid 6", "prize 13", "bid 1", "bid 13", "prize 2", "bid 3", "bid 2",
                 "prize 10", "bid 11")


SPEC = GoofspielSpec()
