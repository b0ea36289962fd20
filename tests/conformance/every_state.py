"""Every state of seeded random games, checked (OpenSpiel's random-simulation test, made our own).

`check_game` plays seeded uniform-random games of one Game to the end and checks EVERY state on the
way, not a sample: a short game (a 4-move poker hand) is checked as fully as a 600-move Burano game.
How many games is per spec: as many as it takes to pass `STATE_BUDGET` states (at least `MIN_GAMES`,
at most `MAX_GAMES`), so a small game plays many hands and a large one a couple of games.

At every state:
  - the player is a seat, CHANCE or TERMINAL, and agrees with `is_chance_node` / `is_terminal`;
  - a decision offers legal actions sorted, unique and below `num_distinct_actions`; a chance node
    offers no legal action and outcomes with unique ids below `num_distinct_actions` whose
    probabilities are positive and sum to 1; the end offers neither and returns one value per seat;
  - `check()` (the game's own invariants) passes;
  - a checked `apply_action` refuses -1, `num_distinct_actions` and an id not offered, and leaves the
    state as it was;
  - a clone is the same position (and key), and applying an action to it leaves the original alone;
    after that apply a compiled state's incremental key equals its full recomputation;
  - the position's JSON loads back to the same JSON (and key), player and legal actions;
  - for each seat: its view loads back to a state that shows the seat the same view and has the same
    information-set key, and `resample(seat)` keeps both (and the player).

It fails loudly when a game gives it nothing to check (`NothingToCheck`): no decision with a choice
in any game, a game that never ends within `MAX_PLIES`, or no state at all.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from typing import Any

from burano_ai.core.errors import BuranoError
from burano_ai.core.seats import CHANCE, TERMINAL
from burano_ai.random_play import random_action

#: Checked states per case: games are played until they pass this many (see the module doc).
STATE_BUDGET = 200
MIN_GAMES = 1
MAX_GAMES = 100
#: A random game longer than this is taken for one that never ends.
MAX_PLIES = 20000


class NothingToCheck(AssertionError):
    """The suite found nothing to check in a game: it says so instead of passing."""


@dataclass
class Tally:
    """What `check_game` checked: counts per kind of state, and the decisions it met (for the search)."""
    games: int = 0
    states: int = 0
    decisions: int = 0          # a seat to move with two legal actions or more
    forced: int = 0             # a seat to move with exactly one
    chance: int = 0
    terminal: int = 0
    resamples_that_differ: int = 0
    decision_states: list[Any] = field(default_factory=list, repr=False)


def offered(state) -> list[int]:
    """The ids `apply_action` accepts here: the chance outcomes at a chance node, else the legal actions."""
    if state.is_chance_node():
        return [a for a, _ in state.chance_outcomes()]
    return state.legal_actions()


def check_state(game, state, *, position_format: str | None, keyed: bool, rng: random.Random,
                tally: Tally, where: str, win_shares: bool = True) -> None:
    """Every check of the module doc on one state (`where` names it in failures)."""
    n = game.num_players
    actions = game.num_distinct_actions()
    # chance outcome ids lie below max_chance_outcomes (OpenSpiel's convention: a deal's card ids are
    # their own range); the compiled games share one id range for both
    outcome_ids = max(actions, game.max_chance_outcomes()) if hasattr(game, "max_chance_outcomes") else actions
    player = state.current_player()
    legal, outcomes = state.legal_actions(), state.chance_outcomes()
    tally.states += 1
    if state.is_terminal():
        assert player == TERMINAL and not state.is_chance_node(), where
        assert legal == [] and outcomes == [], f"{where}: the end offers actions"
        returns = state.returns()
        assert len(returns) == n and all(math.isfinite(r) for r in returns), f"{where}: returns {returns}"
        if win_shares:
            assert math.isclose(sum(returns), 1.0), f"{where}: win shares {returns} do not sum to 1"
        assert len(state.scores()) == n
        tally.terminal += 1
    elif state.is_chance_node():
        assert player == CHANCE, f"{where}: a chance node with player {player}"
        assert legal == [], f"{where}: a chance node with legal actions"
        assert outcomes, f"{where}: a chance node without outcomes"
        ids = [a for a, _ in outcomes]
        assert len(set(ids)) == len(ids) and all(0 <= a < outcome_ids for a in ids), f"{where}: outcome ids {ids}"
        assert all(p > 0 for _, p in outcomes), f"{where}: a chance outcome of probability 0"
        assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9), f"{where}: probabilities"
        tally.chance += 1
    else:
        assert 0 <= player < n, f"{where}: player {player}"
        assert legal, f"{where}: no legal action before the end"
        assert legal == sorted(set(legal)), f"{where}: legal actions not sorted and unique"
        assert all(0 <= a < actions for a in legal), f"{where}: a legal action outside 0..{actions - 1}"
        if len(legal) > 1:
            tally.decisions += 1
            tally.decision_states.append(state.clone())
        else:
            tally.forced += 1
    state.check()

    text = state.to_json()
    assert json.loads(text)["format"] == position_format or position_format is None, f"{where}: format"
    # A refused action changes nothing.
    ids = set(offered(state))
    bound = outcome_ids if state.is_chance_node() else actions
    gap = next((a for a in range(bound) if a not in ids), None)
    for bad in (-1, max(actions, outcome_ids)) + ((gap,) if gap is not None else ()):
        try:
            state.apply_action(bad)
        except BuranoError:
            pass
        else:
            raise AssertionError(f"{where}: apply_action({bad}) was accepted")
        assert state.to_json() == text, f"{where}: a refused apply_action({bad}) changed the state"
    # Clones: the same position, independent of the original.
    copy = state.clone()
    assert copy.to_json() == text, f"{where}: a clone differs"
    if keyed:
        assert copy.key() == state.key() == state.full_key(), f"{where}: clone or incremental key"
    if not state.is_terminal():
        copy.apply_action(random_action(copy, rng))
        assert state.to_json() == text, f"{where}: applying to a clone changed the original"
        if keyed:
            assert copy.key() == copy.full_key(), f"{where}: the incremental key after an apply"
    # JSON round trip of the position.
    again = game.state_from_json(text)
    assert again.to_json() == text, f"{where}: the position's JSON does not load back the same"
    assert again.current_player() == player and again.legal_actions() == legal, where
    if keyed:
        assert again.key() == state.key(), f"{where}: a loaded position has another key"
    # Each seat's view, its information-set key and resampling.
    for seat in range(n):
        view = state.to_json(seat)
        key = state.information_state_key(seat)
        loaded = game.state_from_json(view)
        assert loaded.to_json(seat) == view, f"{where}: seat {seat}'s view does not load back the same"
        assert loaded.information_state_key(seat) == key, f"{where}: seat {seat}'s key of its loaded view"
        other = state.resample(seat, seed=rng.randrange(1 << 30))
        assert other.to_json(seat) == view, f"{where}: resample changed what seat {seat} sees"
        assert other.information_state_key(seat) == key, f"{where}: resample changed seat {seat}'s key"
        assert other.current_player() == player, f"{where}: resample changed the player"
        tally.resamples_that_differ += other.to_json() != text


def check_game(game, *, name: str, position_format: str | None = None, keyed: bool = False,
               seed: int = 0, win_shares: bool = True) -> Tally:
    """Play seeded random games of `game` and check every state (see the module doc); the tally.

    Raises:
        AssertionError: a check failed (the message names the game, seed and ply).
        NothingToCheck: no state, a game without end, or no decision with a choice in any game.
    """
    tally = Tally()
    while tally.games < MIN_GAMES or (tally.states < STATE_BUDGET and tally.games < MAX_GAMES):
        game_seed = seed + tally.games
        rng = random.Random(game_seed)
        state = game.new_initial_state(game_seed)
        for ply in range(MAX_PLIES + 1):
            check_state(game, state, position_format=position_format, keyed=keyed, rng=rng, tally=tally,
                        where=f"{name} seed {game_seed} ply {ply}", win_shares=win_shares)
            if state.is_terminal():
                break
            state.apply_action(random_action(state, rng))
        else:
            raise NothingToCheck(f"{name} seed {game_seed}: no end after {MAX_PLIES} plies")
        tally.games += 1
    if not tally.states:
        raise NothingToCheck(f"{name}: no state was checked")
    if not tally.decisions:
        raise NothingToCheck(f"{name}: {tally.games} random games ({tally.states} states) met no decision with "
                             f"two legal actions or more: nothing for a search or a seat's view to check")
    return tally
