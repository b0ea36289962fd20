"""The search side of the conformance suite: the searcher never reads what its seat cannot know.

For decisions along seeded random games of every compiled game, two positions that differ only in
what the searching seat cannot see (the real one and a resample of it for that seat) must give the
identical search on one thread: the same tree statistics from the raw searcher (native or Python
tree, given the full state, with no view reduction in front of it) and the same answer from
`engine.suggest`. And every game x implementation x player count runs its default search with a tiny
budget at its first, middle and last decision (`cases.decisions` takes every decision of a game, and
fails loudly when there is none).
"""

from __future__ import annotations

import pytest

from burano_ai import engine
from burano_ai.games import all_specs
from burano_ai.search import Limit
from burano_ai.search.ismcts import make_searcher
from burano_ai.search.params import Params

from .cases import CASES, COMPILED, decisions, spread

ITERATIONS = 120


@pytest.mark.parametrize("tree", ["native", "python"])
@pytest.mark.parametrize("spec, implementation, num_players", COMPILED)
def test_the_searcher_does_not_peek(spec, implementation, num_players, tree):
    if tree == "native" and "native_search" not in spec.capabilities:
        pytest.skip(f"{spec.key} has no compiled core for the native tree yet")
    game = spec.new_game(num_players, implementation)
    params = Params(tree=tree)
    checked = 0
    for i, state in enumerate(spread(decisions(game, 21, spec.key), 40)):
        seat = state.current_player()
        other = state.resample(seat, seed=1000 + i)
        if other.to_json() == state.to_json():
            continue            # nothing hidden from this seat here
        results = []
        for root in (state, other):
            searcher = make_searcher(root, seat, params, seed=5)
            searcher.run(iterations=ITERATIONS // (4 if tree == "python" else 1))
            summary = searcher.summary()
            results.append((summary["root_stats"], summary["plan"], summary["seat_shares"]))
        assert results[0] == results[1], f"{spec.key}: the search of seat {seat} read hidden information"
        checked += 1
        if checked == 3:
            break
    assert checked or "hidden_information" not in spec.capabilities


@pytest.mark.parametrize("spec, implementation, num_players", COMPILED)
def test_suggest_answers_the_same_for_every_hidden_state(spec, implementation, num_players):
    game = spec.new_game(num_players, implementation)
    state = other = None
    for i, candidate in enumerate(spread(decisions(game, 8, spec.key), 40)):
        state, other = candidate, candidate.resample(candidate.current_player(), seed=99 + i)
        if other.to_json() != state.to_json():
            break
    assert other.to_json() != state.to_json() or "hidden_information" not in spec.capabilities, \
        f"{spec.key}: no decision of its seeded game hides anything from the seat to move"
    answers = [engine.suggest(root, limit=Limit(iterations=ITERATIONS), seed=3, threads=1).to_dict()
               for root in (state, other)]
    for answer in answers:
        answer.pop("elapsed", None)
        answer.pop("iterations_per_second", None)
    assert answers[0] == answers[1]


@pytest.mark.parametrize("spec, implementation, num_players", CASES)
def test_a_tiny_search_runs_at_the_first_middle_and_last_decision(spec, implementation, num_players):
    """The game's default search, a tiny budget, from the seat's own view at three decisions of a seeded
    game (every decision counts: a 4-move game has some): exactly the budget, a legal move."""
    game = spec.new_game(num_players, implementation)
    for state in spread(decisions(game, 4, spec.key), 3):
        result = engine.suggest(state, limit=Limit(iterations=12), params=Params(**spec.search_defaults), seed=2,
                                threads=1)
        assert result.iterations == 12
        assert state.string_to_action(result.move) in state.legal_actions()


@pytest.mark.parametrize("spec", all_specs(), ids=lambda spec: spec.key)
def test_the_game_s_default_search_is_a_valid_set_of_tunables(spec):
    """`GameSpec.search_defaults` names `Params` keywords with valid values (the bots and `suggest` start there)."""
    Params(**spec.search_defaults).validate()
