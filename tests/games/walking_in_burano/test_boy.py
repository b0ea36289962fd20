"""Walking in Burano's Boy scorings (option `boy_scoring`): the literal reading of RU:143 [WD-11] and the
spec's two alternatives, per distinct symbol type and per complete set [WD-11, WD-32], each with a
hand-computed example on PD-1 (spec §2.4), on both implementations; the option travels in positions,
records' narration and the spec's options."""

from __future__ import annotations

import json

import pytest

from burano_ai.core.errors import OptionError, PositionError
from burano_ai.games.walking_in_burano import scoring
from burano_ai.games.walking_in_burano.data import BOY, GIRL, MAN, POLICE, SHOPOWNER
from burano_ai.games.walking_in_burano.position import Options, position_from_dict
from burano_ai.games.walking_in_burano.reference import Game as ReferenceGame
from burano_ai.games.walking_in_burano.rules import PHASE_OVER
from .helpers import SPEC, dealt, set_street

core = pytest.importorskip("burano_ai.games.walking_in_burano._core")

#: Worked example 1 of §16.5 (player 1): its Boy is house 3, yellow {12 G1, 36 M1, 60 R1}: 0 cats,
#: 2 curtains (36 a, 60 b), 1 lantern (36), 1 chimney (60).
EXAMPLE_1 = ([(0, 24, 48), (5, 29, 53), (11, 34, 58), (12, 36, 60), (18, 43, 67)],
             [POLICE, GIRL, MAN, BOY, SHOPOWNER])
#: A Boy on a green house {5 G2, 28 M1, 52 R1}: 1 cat (5), 2 curtains (28 a, 52 b), 1 lantern (28),
#: 1 chimney (52): one complete set.
GREEN_SET = ([(5, 28, 52)], [BOY])

# (street, boy_scoring, the Boy's VP, worked out by hand)
CASES = [
    (EXAMPLE_1, "literal", 2 + 2 * (0 + 2 + 1 + 1)),      # 10, as §16.5 prints
    (EXAMPLE_1, "distinct", 2 + 2 * 3),                   # 8: curtain, lantern, chimney present; no cat
    (EXAMPLE_1, "sets", 2 + 2 * 0),                       # 2: no cat, so no complete set
    (GREEN_SET, "literal", 2 + 2 * (1 + 2 + 1 + 1)),      # 12
    (GREEN_SET, "distinct", 2 + 2 * 4),                   # 10: all four types
    (GREEN_SET, "sets", 2 + 2 * 1),                       # 4: min(1 cat, 2 curtains, 1 lantern, 1 chimney) = 1
]


def _boy_house(street) -> int:
    return street[1].index(BOY)


@pytest.mark.parametrize("street, rule, vp", CASES)
def test_the_boy_scores_by_the_rule_in_force_in_the_reference(street, rule, vp):
    state = dealt(2, boy_scoring=rule)
    set_street(state, 0, *street)
    assert scoring.character_vp(state.data, state.seats[0], _boy_house(street), BOY, rule) == vp
    assert scoring.breakdown(state, 0)["characters"] == \
        sum(scoring.character_vp(state.data, state.seats[0], j, k, rule) for j, k in enumerate(street[1]))


@pytest.mark.parametrize("street, rule, vp", CASES)
def test_the_compiled_core_scores_the_boy_like_the_reference(street, rule, vp):
    state = dealt(2, boy_scoring=rule)
    set_street(state, 0, *street)
    compiled = core.Game(2, state.options).state_from_position(state)
    assert compiled.final_breakdown(0) == scoring.breakdown(state, 0)
    assert compiled.scores() == state.scores()


def test_worked_example_1_under_each_boy_rule():
    # §16.5: A = 48 with the literal Boy (10); the other four characters are 9 + 11 + 9 + 9 = 38
    for rule, characters in (("literal", 48), ("distinct", 46), ("sets", 40)):
        state = dealt(2, boy_scoring=rule)
        set_street(state, 0, *EXAMPLE_1)
        assert scoring.breakdown(state, 0)["characters"] == characters, rule


def test_the_option_is_declared_checked_and_defaults_to_the_literal_reading():
    option = SPEC.game_options["boy_scoring"]
    assert option.kind == "choice" and option.default == "literal"
    assert option.choices == ("literal", "distinct", "sets")
    assert SPEC.new_game(2, "reference").options.boy_scoring == "literal"
    assert SPEC.new_game(2, boy_scoring="sets").options.boy_scoring == "sets"
    for implementation in ("reference", "compiled"):
        with pytest.raises(OptionError, match="boy_scoring") as e:
            SPEC.new_game(2, implementation, boy_scoring="pairs")
        assert "\n" not in str(e.value)
    with pytest.raises(OptionError, match="boy_scoring"):
        ReferenceGame(2, Options(boy_scoring="pairs"))
    with pytest.raises(OptionError, match="boy_scoring"):
        core.Game(2, Options(boy_scoring="pairs"))


def test_positions_carry_the_boy_rule_and_older_positions_read_as_literal():
    for implementation in ("reference", "compiled"):
        state = SPEC.new_game(2, implementation, boy_scoring="distinct").new_initial_state(3)
        d = state.to_dict()
        assert d["options"]["boy_scoring"] == "distinct"
        loaded, _ = SPEC.load_position(json.loads(json.dumps(d)))
        assert loaded.options.boy_scoring == "distinct"
        del d["options"]["boy_scoring"]
        assert position_from_dict(d).options.boy_scoring == "literal"
        d["options"]["boy_scoring"] = "pairs"
        with pytest.raises(PositionError, match=r"options\.boy_scoring") as e:
            position_from_dict(d)
        assert "\n" not in str(e.value)


@pytest.mark.parametrize("rule, words", [("literal", "+2 per cat, curtain, lantern or chimney"),
                                         ("distinct", "+2 per symbol type"),
                                         ("sets", "+2 per complete set")])
def test_the_final_scoring_names_the_boy_rule_in_force(rule, words):
    state = dealt(2, boy_scoring=rule)
    set_street(state, 0, *EXAMPLE_1)
    state.phase, state.to_move = PHASE_OVER, -1       # the game is over: score the streets as they stand
    lines = SPEC.describe_result(state)
    assert words in next(line for line in lines if line.startswith("Boy rule:"))
    vp = next(v for street, r, v in CASES if street is EXAMPLE_1 and r == rule)
    assert f"boy {vp}" in next(line for line in lines if line.startswith("A:")).lower()
