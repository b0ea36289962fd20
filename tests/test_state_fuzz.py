"""The State-API campaign in CI (issue 35): every public method of every game's State, every implementation.

Hypothesis draws cases (tests/state_fuzzing.py): a corpus position of any registered game and player
count, loaded in the compiled core and the reference model (or in the one implementation of a
Python-only game: the poker games), then random calls of every public method of the State classes with
arguments drawn by parameter name (legal, boundary and wrong values); and calls of the Game classes and
of `GameSpec.new_game` with hostile arguments (`state_fuzzing.run_game_case`). A call must return or
raise a `BuranoError`/`TypeError`, change nothing when it refuses or only reads, apply only offered
actions, leave a state that passes `check()`, and (a game with two implementations) agree with the
other one. Derandomized, no example database: CI
sees the same cases every time. About ten seconds; the long campaign, every batch in a child process
so that a crash is caught too, is `python scripts/fuzz_state.py --calls N` (docs/reliability.md).
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import state_fuzzing as F
from burano_ai.games import all_specs
from state_fuzzing import campaign_keys, game_keys, single_keys

FUZZ = settings(deadline=None, derandomize=True, database=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _run(entry, seed, calls=F.CALLS_PER_CASE):
    try:
        return F.run_case(entry, seed, calls)
    except F.Finding as exc:
        failure = str(exc)
    pytest.fail(failure, pytrace=False)


def test_the_campaign_reaches_every_game_and_both_implementations():
    """The corpus holds positions of every game and player count, chance nodes, decisions and ends; the
    method tables list the State API in every implementation; every registered game is in the campaign,
    the Python-only poker games among the single-implementation ones."""
    assert sorted(campaign_keys()) == sorted(spec.key for spec in all_specs())
    assert {"kuhn-poker", "leduc-poker"} <= set(single_keys())
    for key in campaign_keys():
        entries = F.corpus(key)
        tables = F.methods_of(key)
        assert len(tables) == (2 if key in game_keys() else 1)
        for name in ("apply_action", "prior", "finishing_key", "legal_actions", "resample", "to_json",
                     "action_to_string", "chance_kind_name", "information_state_key", "string_to_action"):
            assert all(name in table for table in tables), (key, name)
        kinds = set()
        for entry in entries:
            states = entry.states()
            assert all(s.to_dict() == states[0].to_dict() for s in states)
            kinds.add("chance" if states[0].is_chance_node() else "end" if states[0].is_terminal() else "decision")
        assert kinds == {"chance", "decision", "end"}, (key, kinds)


@pytest.mark.parametrize("key", campaign_keys())
@settings(FUZZ, max_examples=60)
@given(data=st.data())
def test_random_calls_of_every_public_method(key, data):
    entry = data.draw(st.sampled_from(F.corpus(key)), label="position")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    stats = _run(entry, seed)
    assert stats.total > 0


@pytest.mark.parametrize("key", campaign_keys())
@settings(FUZZ, max_examples=12)
@given(data=st.data())
def test_random_calls_of_every_game_method_and_of_new_game(key, data):
    """The Game classes (new_initial_state, state_from_json with mutated, foreign and junk texts,
    state_from_position, num_distinct_actions, ...) and `GameSpec.new_game` with hostile player counts
    and options, every implementation: the same acceptance and results in both (a game with two), Games
    unchanged, States returned sound (the Python-only poker games too)."""
    entry = data.draw(st.sampled_from(F.corpus(key)), label="position")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    stats = _run(dataclasses.replace(entry, target="game"), seed)
    assert any(".Game." in call for call in stats.calls), stats.calls


def test_game_methods_are_found_in_both_implementations():
    from burano_ai.games import get_spec
    for key in game_keys():
        spec = get_spec(key)
        for impl in F.IMPLEMENTATIONS:
            methods = F.public_methods(spec.new_game(spec.default_players, impl))
            assert {"new_initial_state", "state_from_json", "state_from_position", "num_distinct_actions",
                    "max_chance_outcomes"} <= set(methods), (key, impl, methods)


@pytest.mark.parametrize("key", game_keys())
@pytest.mark.parametrize("impl", F.IMPLEMENTATIONS)
def test_game_campaign_repros_a_huge_player_count_is_an_option_error(key, impl):
    """The Game campaign's first findings: a player count (or Goofspiel's num_cards, Venice 2099's move_dirs
    and treasure_supply, Azul's first_player) of 5,000 digits escaped as Python's ValueError from the error
    message itself."""
    from burano_ai.core.errors import OptionError
    from burano_ai.games import get_spec
    spec = get_spec(key)
    with pytest.raises(OptionError, match="about 5,001 digits"):
        spec.new_game(F.HUGE, impl)
    hostile = {"goofspiel": ["num_cards"], "venice-2099": ["move_dirs", "treasure_supply"],
               "azul-sintra": ["first_player"]}.get(key, [])
    for option in hostile:
        with pytest.raises(OptionError, match=f"{option}.*about 5,001 digits"):
            spec.new_game(spec.default_players, impl, **{option: F.HUGE})


@pytest.mark.parametrize("impl", F.IMPLEMENTATIONS)
def test_game_campaign_repro_burano_refuses_a_seed_that_is_not_an_int(impl):
    """Burano dealt from the OS's entropy for `new_initial_state(None)` (two calls, two deals; the other
    games refuse it) and took floats and strings as seeds."""
    from burano_ai.games import get_spec
    game = get_spec("burano").new_game(2, impl)
    for seed in (None, 1.5, "3", True):
        with pytest.raises(TypeError, match="seed must be an int"):
            game.new_initial_state(seed)
    assert game.new_initial_state(7).to_dict() == game.new_initial_state(7).to_dict()


def test_the_oracle_reports_an_exception_outside_the_family():
    """The oracle is not vacuous: a method that raises IndexError is a finding, and so is a refused call
    that changed the state."""
    entry = F.corpus("goofspiel")[0]
    core, ref = entry.states()
    methods = ({"finishing_key": ("player",)}, {"finishing_key": ("player",)})
    poker = F.corpus("kuhn-poker")[0]
    (alone,) = poker.states()

    class Broken:
        def __init__(self, state):
            self.state = state

        def __reduce__(self):
            return self.state.__reduce__()

        def __getattr__(self, name):
            return getattr(self.state, name)

        def finishing_key(self, player):
            raise IndexError("list index out of range")

    stats = F.Stats({})
    with pytest.raises(F.Finding, match="exception: .*IndexError"):
        F._one_call(entry, 0, (Broken(core), ref), "finishing_key", (9,), False, methods, stats)
    with pytest.raises(F.Finding, match="exception: .*IndexError"):        # a game checked alone, too
        F._one_call(poker, 0, (Broken(alone),), "finishing_key", (9,), False, methods[:1], stats)

    class Mutating(Broken):
        def finishing_key(self, player):
            self.state.apply_action(self.state.chance_outcomes()[0][0])
            raise F.API_ERRORS[0]("refused")

    with pytest.raises(F.Finding, match="invariant: .*refused call changed the state"):
        F._one_call(entry, 0, (Mutating(core), ref), "finishing_key", (9,), False, methods, stats)
    with pytest.raises(F.Finding, match="invariant: .*refused call changed the state"):
        F._one_call(poker, 0, (Mutating(alone),), "finishing_key", (9,), False, methods[:1], stats)


def test_campaign_repro_walking_in_burano_breaks_soft_rule_of_a_house_the_street_lacks():
    """Seed 37, case 9200: the reference's `breaks_soft_rule(1, 21, 3)` at the start (an empty street) raised
    IndexError; a house the street lacks is an OptionError naming the targets there are."""
    from burano_ai.core.errors import OptionError
    from burano_ai.games import get_spec
    state = get_spec("walking-in-burano").new_game(2, "reference").new_initial_state(0)
    with pytest.raises(OptionError, match="target 3: seat B's street has 0 houses"):
        state.breaks_soft_rule(1, 21, 3)
    assert state.breaks_soft_rule(1, 21, 5) in (True, False)        # a new house on the left is a target
