"""Burano's answers to what a search asks of a game: the cut-off estimate, the pyramid prior, how a
decision is searched and which turn it belongs to (the `burano_ai.core.game.State` Protocol methods).

Both rules implementations delegate here (the compiled core answers `turn_id` and the C interface in
C, `_ops.pxi`, with the same values), so the framework's search imports nothing of Burano:

* `estimated_scores`: VP + (coins + privilege) / 5 + fish cards in hand, the VP final scoring would add
  now (§10; coins fractionally, so that every coin matters) and nothing of the future.
* `prior`: the pyramid prior (`burano_ai.games.burano.pyramid.colour_prior`) while a seat places
  pyramid cubes, else None.
* `decision_mode`: SECRET while a seat places pyramid cubes (the others cannot see them), else OPEN.
* `turn_id`: a turn of the rounds is (season, round, actor); a seat's pyramid is (season, actor);
  every other decision (setup and clean-up steps) belongs to no turn (`NO_TURN`). In the rounds only
  `done` at a turn's main decision changes the actor or the round, so the id changes across an edge
  exactly when the edge is `done` at a turn's main decision, or the last cube of a seat's pyramid.
"""

from __future__ import annotations

from burano_ai.core.game import NO_TURN, DecisionMode
from burano_ai.games.burano.data.turn import COINS_PER_VP
from burano_ai.games.burano.enums import Phase, Stage
from burano_ai.games.burano.pyramid import colour_prior


def estimated_scores(state) -> list[float]:
    """Cut-off estimate of each seat's final VP: VP + (coins + privilege) / 5 + fish cards in hand.

    It reads the State's `players` fields, or `to_dict()` where a State keeps them out of Python (slower).
    """
    # True division by the int COINS_PER_VP: the same float as dividing by 5.0.
    try:
        return [pl.vp + (pl.coins + pl.privilege) / COINS_PER_VP + sum(pl.hand_known) + sum(pl.hand_blind)
                for pl in state.players]
    except AttributeError:
        pass
    out = []
    for seat in state.to_dict()["seats"]:
        hand = seat["hand"]
        blind = hand["blind"]
        cards = sum(hand["known"].values()) + (blind if isinstance(blind, int) else sum(blind.values()))
        out.append(seat["vp"] + (seat["coins"] + seat["privilege"]) / COINS_PER_VP + cards)
    return out


def decision_mode(state) -> DecisionMode:
    """SECRET while a seat places pyramid cubes, else OPEN."""
    return DecisionMode.SECRET if state.phase == Phase.PYRAMID else DecisionMode.OPEN


def prior(state, player: int, legal) -> dict[int, float] | None:
    """The pyramid prior of `player` over `legal` while a seat places pyramid cubes, else None."""
    if state.phase != Phase.PYRAMID:
        return None
    return colour_prior(state, player, list(legal))


def turn_id(state) -> int:
    """The turn the pending decision belongs to, or NO_TURN (see the module docstring); the compiled
    core's `turn_id_c` gives the same numbers."""
    if state.phase == Phase.PYRAMID:
        return (2 << 32) | (state.season << 8) | state.actor
    if state.stage == Stage.ROUNDS and state.phase != Phase.GAME_OVER:
        return (1 << 32) | (state.season << 16) | (state.round << 8) | state.actor
    return NO_TURN


def is_turn_start(state) -> bool:
    """True at a turn's main decision before the turn's first move (a "position to analyse")."""
    if state.current_player() < 0 or state.phase != Phase.TURN:
        return False
    moves = getattr(state, "moves", None)
    if moves is None:
        moves = state.to_dict()["context"]["moves"]
    return moves == 0


def is_turn_decision(state) -> bool:
    """True at a turn's main decision (take / build / roof / privilege / done)."""
    return state.current_player() >= 0 and state.phase == Phase.TURN
