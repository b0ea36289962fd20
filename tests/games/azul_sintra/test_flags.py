"""The spec's optional rules (`rules.Flags`, game options): joker_choice (AD-13), indicator_to_tower (AD-9),
auto_keep (§11.4, side A) and random_first_player (AD-17), each on both implementations in lockstep and
each doing what the spec says; a position carries them in its `options` field.
"""

from __future__ import annotations

import random

import pytest

from burano_ai.core.errors import OptionError, PositionError
from burano_ai.games import get_spec
from burano_ai.games.azul_sintra import rules
from burano_ai.games.azul_sintra.reference import Game as ReferenceGame

core = pytest.importorskip("burano_ai.games.azul_sintra._core")
SPEC = get_spec("azul-sintra")
FLAGS = [{"joker_choice": True}, {"indicator_to_tower": False}, {"auto_keep": True}, {"random_first_player": True},
         {"joker_choice": True, "indicator_to_tower": False, "random_first_player": True}]


def lockstep(r, c, seed: int, plies: int = 10_000) -> dict[str, int]:
    """Play both States with the same seeded moves, comparing them at every step; count what was seen."""
    rng = random.Random(seed)
    seen = {"joker_drafts": 0, "keeps": 0, "first": 0}
    for _ in range(plies):
        if r.is_terminal():
            break
        assert c.current_player() == r.current_player()
        assert c.legal_actions() == r.legal_actions()
        assert c.chance_outcomes() == r.chance_outcomes()
        assert c.key() == r.key() == c.full_key()
        assert c.chance_kind == r.chance_kind
        if r.is_chance_node():
            outcomes = r.chance_outcomes()
            seen["first"] += r.chance_kind == rules.CHANCE_FIRST
            a = rng.choices([x for x, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            legal = r.legal_actions()
            seen["keeps"] += r.phase == rules.PHASE_KEEP
            jokers = [x for x in legal if x >= rules.JOKER_DRAFT0]
            a = rng.choice(jokers) if jokers and rng.random() < 0.5 else rng.choice(legal)
            seen["joker_drafts"] += a >= rules.JOKER_DRAFT0
            assert c.action_to_string(a) == r.action_to_string(a)
            assert r.string_to_action(r.action_to_string(a)) == a
        r.apply_action(a)
        c.apply_action(a)
        r.check()
    assert c.to_json() == r.to_json() and c.scores() == r.scores() and c.returns() == r.returns()
    return seen


@pytest.mark.parametrize("flags", FLAGS, ids=lambda f: "+".join(f))
@pytest.mark.parametrize("n", [2, 3, 4])
def test_each_flag_plays_the_same_on_both_implementations(flags, n):
    ref_game, c_game = ReferenceGame(n, "A", **flags), core.Game(n, "A", **flags)
    assert c_game.num_distinct_actions() == ref_game.num_distinct_actions() == \
        (856 if flags.get("joker_choice") else 456)
    for seed in range(3):
        seen = lockstep(ref_game.new_initial_state(), c_game.new_initial_state(), 100 * n + seed)
        assert (seen["keeps"] == 0) == bool(flags.get("auto_keep"))
        assert seen["first"] == (1 if flags.get("random_first_player") else 0)


def joker_position(flags: dict) -> dict:
    """Seat A's first decision of a seeded game, its glazier above the joker strip turned to the joker face
    (P O B J J) with a P placed, and factory 1 holding O O B Y."""
    state = SPEC.new_game(2, **flags).new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choices([x for x, _ in outcomes], [p for _, p in outcomes])[0])
    d = state.to_dict()
    data = SPEC.new_game(2).data
    seat = d["seats"][0]
    k = next(i for i, col in enumerate(seat["columns"]) if col["strip"] == data.joker_strip + 1)
    seat["columns"][k]["face"] = "ab"[data.joker_face]
    seat["columns"][k]["pieces"] = "P"
    seat["glazier"] = k + 1
    # factory 1 := O O B Y (the pieces swapped with the bag), one P from the bag onto the strip
    old = d["factories"][0]
    for ch in old:
        d["bag"][ch] += 1
    for ch in "OOBY":
        d["bag"][ch] -= 1
    d["factories"][0] = "OOBY"
    d["bag"]["P"] -= 1
    return d


def test_joker_choice_offers_jokers_first_where_the_order_matters():
    d = joker_position({"joker_choice": True})
    for implementation in ("compiled", "reference"):
        state, _ = SPEC.load_position(d, SPEC.game_class(implementation))
        k = d["seats"][0]["glazier"]
        legal = [state.action_to_string(a) for a in state.legal_actions()]
        assert f"F1 O>{k}j" in legal and f"F1 B>{k}j" in legal       # a free O (B) cell and free jokers
        assert f"F1 Y>{k}j" not in legal                             # no Y cell: jokers only, one order
        after = state.clone()
        after.play(f"F1 O>{k}")                                      # default: the O cell, then a joker
        col = after.to_dict()["seats"][0]["columns"][k - 1]
        assert (col["pieces"], col["jokers"]) == ("PO", "O")
        after = state.clone()
        after.play(f"F1 O>{k}j")                                     # jokers first: both O on the jokers
        col = after.to_dict()["seats"][0]["columns"][k - 1]
        assert (col["pieces"], col["jokers"]) == ("P", "OO")
        again = SPEC.load_position(after.to_dict(), SPEC.game_class(implementation))[0]
        assert again.key() == after.key()                            # a joker before a free O cell is valid here
    plain = dict(d)
    del plain["options"]
    state, _ = SPEC.load_position(plain)
    assert not any(a >= rules.JOKER_DRAFT0 for a in state.legal_actions())
    with pytest.raises(Exception, match="illegal move 'F1 O>"):
        state.play("F1 O>1j")


def test_joker_choice_from_a_joker_face_in_lockstep():
    d = joker_position({"joker_choice": True})
    played = 0
    for seed in range(6):
        r = SPEC.load_position(d, ReferenceGame)[0]
        c = SPEC.load_position(d, core.Game)[0]
        played += lockstep(r, c, seed)["joker_drafts"]
    assert played > 0


def test_indicator_to_tower_off_takes_the_used_piece_out_of_the_game():
    for flag in (True, False):
        game = SPEC.new_game(2, indicator_to_tower=flag)
        state = game.new_initial_state()
        rng = random.Random(1)
        while state.round == 0 or state.phase != rules.PHASE_REFILL:
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            if state.round == 0:
                before = state.clone()
        gone = before.to_dict()["indicator"][0]
        in_tower = state.to_dict()["tower"][gone] + state.to_dict()["bag"][gone]
        was = before.to_dict()["tower"][gone] + before.to_dict()["bag"][gone]
        assert in_tower - was == (1 if flag else 0)
        state.check()                                                # 20 of each colour, the removed one counted


def test_auto_keep_is_side_a_only_and_random_first_player_replaces_first_player():
    with pytest.raises(OptionError, match="auto_keep is a side-A option"):
        SPEC.new_game(2, side="B", auto_keep=True)
    with pytest.raises(OptionError, match="random_first_player draws the first player"):
        SPEC.new_game(3, first_player=1, random_first_player=True)
    with pytest.raises(OptionError, match="joker_choice must be true or false"):
        SPEC.new_game(2, joker_choice="yes")
    state = SPEC.new_game(3, random_first_player=True).new_initial_state()
    assert state.chance_kind == rules.CHANCE_FIRST and state.to_dict()["starter"] is None
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.play("first C")
    assert state.to_dict()["starter"] == "C" and state.chance_kind == rules.CHANCE_STRIP
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 2


def test_a_position_carries_its_options_and_a_default_game_writes_none():
    assert "options" not in SPEC.new_game(2).new_initial_state().to_dict()
    d = SPEC.new_game(2, auto_keep=True).new_initial_state().to_dict()
    assert d["options"] == {"joker_choice": False, "indicator_to_tower": True, "auto_keep": True,
                            "random_first_player": False}
    state, _ = SPEC.load_position(d)
    assert state.game.flags.auto_keep
    for bad, message in [("x", "options: expected an object"),
                         ({**d["options"], "auto_keep": "yes"}, "options.auto_keep: expected true or false"),
                         ({**d["options"], "extra": True}, "options.extra: unknown field")]:
        with pytest.raises(PositionError, match=message):
            SPEC.load_position({**d, "options": bad})
    with pytest.raises(PositionError, match="position.options"):
        SPEC.load_position({**d, "side": "B"})                     # auto_keep on side B
    other = SPEC.new_game(2).new_initial_state().to_json()
    with pytest.raises(PositionError, match="position.options"):
        SPEC.new_game(2, auto_keep=True).state_from_json(other)


def test_the_options_are_declared_game_options():
    assert {"joker_choice", "indicator_to_tower", "auto_keep", "random_first_player"} <= set(SPEC.game_options)
    assert SPEC.game_options["indicator_to_tower"].default is True and SPEC.game_options["auto_keep"].kind == "bool"


def test_openspiel_refuses_a_joker_choice_game_in_one_line():
    pytest.importorskip("pyspiel")
    from burano_ai.games.azul_sintra.openspiel import game_for
    game = game_for(2)
    game.wrap(SPEC.new_game(2, auto_keep=True).new_initial_state())          # other options: fine
    with pytest.raises(OptionError, match="joker_choice option .856 actions. cannot be played through OpenSpiel"):
        game.wrap(SPEC.new_game(2, joker_choice=True).new_initial_state())
