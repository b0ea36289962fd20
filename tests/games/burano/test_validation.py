"""Regression tests of issue 10, findings 1, 4, 5 and 8: a position is either rejected with a PositionError
naming the field, or it is a position the rules can reach.

Each test names the finding it repeats. "The example" is burano_ai/games/burano/data/examples/midgame-4p-C.json (C's view
at the start of C's turn in summer round 2); other repros mutate one field of a position dumped from a
seeded random game in the phase concerned. Loading goes through `burano_ai.engine.load_position` (the front
door the CLI uses) with both rules implementations where the rules take part.
"""

from __future__ import annotations

import copy
import json
import random
import time
from functools import lru_cache
from importlib import resources

import pytest

from burano_ai import Game as CoreGame
from burano_ai.games.burano import topology
from burano_ai.games.burano.data.colours import COLOURS
from burano_ai.engine import load_position
from burano_ai.core.errors import PositionError
from burano_ai.games.burano.notation import position_from_dict, position_from_json, position_to_dict
from burano_ai.games.burano.position import workshop_layout
from burano_ai.random_play import random_step
from burano_ai.games.burano.reference import Game as ReferenceGame

EXAMPLE_TEXT = resources.files("burano_ai.games.burano.data").joinpath("examples/midgame-4p-C.json").read_text("utf-8")
FACTORIES = {"core": CoreGame, "reference": ReferenceGame}


def example() -> dict:
    return json.loads(EXAMPLE_TEXT)


@lru_cache(maxsize=None)
def _dump_at(situation: str, num_players: int, seed: int) -> str:
    state = ReferenceGame(num_players).new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        d = state.to_dict()
        here = d["phase"] if d["phase"] != "chance" else "chance:" + d["context"]["chance"]
        if here == situation:
            return json.dumps(d)
        random_step(state, rng)
    if situation == "game-over":
        return json.dumps(state.to_dict())
    raise AssertionError(f"no {situation} in game {num_players}p seed {seed}")


def dump_at(situation: str, num_players: int = 4, seed: int = 1) -> dict:
    """The full position at the first `situation` (a phase, or 'chance:<kind>') of a seeded random game."""
    return json.loads(_dump_at(situation, num_players, seed))


def rejected(data, *fragments: str, factory=None) -> str:
    """Load through the engine's front door; it must raise PositionError whose message has `fragments`."""
    with pytest.raises(PositionError) as info:
        load_position(data, factory)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
    return message


# ------------------------------------------------------------------------------------------------
# Finding 1: impossible progress fields loaded, then the core read/wrote out of bounds


def test_f1_example_in_phase_pyramid_with_empty_context_is_rejected():
    """Loaded, then `burano suggest FILE --iterations 1` died with SIGSEGV (no legal move)."""
    data = example()
    data["phase"], data["context"] = "pyramid", {}
    rejected(data, "position.phase", "stage 'pyramid'")


def test_f1_example_in_phase_fish_draw_without_fish_island_is_rejected():
    """Loaded; after `draw deck` the core's building display held 6 cards (send wrote island_workers[-1])."""
    data = example()
    data["phase"], data["context"] = "fish-draw", {"draws_left": 1}
    rejected(data, "position.context")
    data["context"]["moves"] = 1
    rejected(data, "position.context.fish_island", "name the island")


def test_f1_fish_draw_needs_the_boat_at_the_island_and_the_real_matches():
    data = dump_at("fish-draw")
    island = data["context"]["fish_island"]
    bad = copy.deepcopy(data)
    bad["context"]["fish_island"] = next(i for i in ("I1", "I2", "I3", "I4", "I5", "I6") if i != island)
    rejected(bad, "position.context.fish_island", "boat")
    bad = copy.deepcopy(data)
    bad["context"]["fish_matches"] = data["context"]["fish_matches"] % 3 + 1
    rejected(bad, "position.context.fish_matches")
    load_position(data)   # the unmutated dump loads


def test_f1_lace_pay_with_an_empty_pay_queue_is_rejected():
    """Accepted and answered 'pay none' with exit 0."""
    data = dump_at("lace-pay")
    data["context"]["pay_queue"] = []
    rejected(data, "position.context.pay_queue", "non-empty")


def test_f1_lace_pay_queue_must_hold_the_actors_own_squares():
    data = dump_at("lace-pay")
    actor = "ABCD".index(data["actor"])
    other = next(s for p, seat in enumerate(data["seats"]) if p != actor for s in seat["workshop"])
    data["context"]["pay_queue"] = [other]
    rejected(data, "position.context.pay_queue")


def test_f1_example_in_lace_pay_is_rejected():
    data = example()
    data["phase"], data["context"] = "lace-pay", {}
    rejected(data, "position.phase")


def test_f1_roof_bonus_without_a_pending_roof_is_rejected():
    """Accepted and answered with exit 0."""
    data = dump_at("roof-bonus")
    data["context"]["pending_roof"] = None
    rejected(data, "position.context.pending_roof")
    data = example()
    data["phase"], data["context"] = "roof-bonus", {"moves": 1}
    rejected(data, "position.context.pending_roof")


def test_f1_roof_pick_with_full_roof_slots_is_rejected():
    """Accepted; the core's slot scan ran past the array."""
    data = dump_at("roof-discard")
    actor = "ABCD".index(data["actor"])
    assert all(t is not None for t in data["seats"][actor]["roof_slots"])
    data["phase"], data["context"]["picks_left"] = "roof-pick", 1
    rejected(data, "position.context.picks_left", "empty roof slots")
    data = example()
    data["phase"], data["context"] = "roof-pick", {"picks_left": 1}
    rejected(data, "position.phase")


def test_f1_chance_with_chance_none_is_rejected():
    """The core gave 90 marker outcomes while the reference asserted."""
    data = example()
    data["phase"], data["context"] = "chance", {}
    rejected(data, "position.context.chance", "needs the pending chance event")
    data["context"] = {"chance": "none", "moves": 1}
    rejected(data, "position.context.chance")


def test_f1_chance_kind_must_fit_the_stage_and_phase():
    data = example()
    data["phase"], data["context"] = "chance", {"chance": "markers"}
    rejected(data, "position.context.chance", "stage 'rounds'")
    data = example()
    data["context"] = {"chance": "fish-draw"}   # a turn decision with a pending chance event
    rejected(data, "position.context.chance", "only phase 'chance'")


def test_f1_a_decision_needs_an_actor_and_game_over_has_none():
    data = example()
    data["actor"] = None
    rejected(data, "position.actor")
    data = dump_at("game-over", 2, 1)
    data["actor"] = "A"
    rejected(data, "position.actor")


def test_f1_order_index_stays_within_its_loop():
    data = dump_at("pyramid")
    data["context"]["order_index"] = 4
    rejected(data, "position.context.order_index")
    data = dump_at("pyramid")
    data["context"]["order_index"] = (data["context"]["order_index"] + 1) % 4
    rejected(data, "position")


def test_f1_pyramid_target_must_be_what_the_builder_holds():
    data = dump_at("pyramid")
    data["context"]["pyramid_target"] = 0
    rejected(data, "position.context.pyramid_target")


def test_f1_stale_context_of_another_phase_is_rejected():
    data = example()
    data["context"] = {"pay_queue": ["r2c5"]}
    rejected(data, "position.context.pay_queue", "not used in phase 'turn'")


@pytest.mark.parametrize("implementation", sorted(FACTORIES))
def test_f1_a_decision_without_a_legal_move_is_rejected_by_the_rules_check(implementation):
    """A lace-pay decision for a worker nothing can pay for (the rules skip it [RD-24]): no legal move."""
    data = dump_at("lace-pay")
    actor = "ABCD".index(data["actor"])
    seat = data["seats"][actor]
    square = data["context"]["pay_queue"][0]
    layout = workshop_layout(4, data.get("workshop_layout"))
    colour = COLOURS[layout.colour[topology.parse_square(square)]]
    seat["pyramid"] = [None if c == colour else c for c in seat["pyramid"]]
    seat["privilege"] = 0
    seat["buildings"] = [b for b in seat["buildings"] if b != "lace-discount"]
    position_from_dict(copy.deepcopy(data))   # notation alone cannot tell: it needs the rules
    rejected(data, "seat " + data["actor"], "no legal move", "lace-pay", factory=FACTORIES[implementation])


def test_check_playable_rejects_a_chance_node_without_outcomes():
    from burano_ai.validate import check_playable

    class NoOutcomes:
        def is_terminal(self):
            return False

        def is_chance_node(self):
            return True

        def chance_outcomes(self):
            return []

        def chance_kind_name(self):
            return "fish-draw"      # the State names its chance event (core.game.LABEL_FAMILY)

    with pytest.raises(PositionError, match="'fish-draw' has no outcome"):
        check_playable(NoOutcomes())


@pytest.mark.parametrize("implementation", sorted(FACTORIES))
def test_every_state_of_a_random_game_is_playable(implementation):
    from burano_ai.validate import check_playable
    state = FACTORIES[implementation](3).new_initial_state(5)
    rng = random.Random(5)
    while not state.is_terminal():
        check_playable(state)
        random_step(state, rng)
    check_playable(state)


# ------------------------------------------------------------------------------------------------
# Finding 4: other exception types escaped the loaders


@pytest.mark.parametrize("implementation", sorted(FACTORIES))
def test_f4_lace_allow_of_128_is_a_position_error_not_overflow(implementation):
    data = dump_at("lace")
    data["context"]["lace_allow"] = {"pink": 128}
    rejected(data, "position.context.lace_allow", "128", factory=FACTORIES[implementation])


def test_f4_islands_not_an_object_is_a_position_error():
    data = example()
    data["seats"][0]["islands"] = [1, 2]
    rejected(data, "position.seats[0].islands")


@pytest.mark.parametrize("field, value", [("cells", [1, 2]), ("cells", [None, "f4"]), ("fields", [1, "blue"]),
                                          ("kind", 3)])
def test_f4_non_string_roof_entries_are_position_errors(field, value):
    data = example()
    data["island"]["roofs"][0][field] = value
    rejected(data, f"position.island.roofs[0].{field}")


def test_f4_non_string_workshop_squares_are_position_errors():
    data = example()
    data["seats"][0]["workshop"] = [3, "r0c4"]
    rejected(data, "position.seats[0].workshop[0]", "square name")
    data = dump_at("lace-pay")
    data["context"]["pay_queue"] = [7]
    rejected(data, "position.context.pay_queue[0]")


def test_f4_non_string_keys_from_the_dict_api_are_position_errors():
    data = example()
    data["island"]["cubes"][5] = ["pink"]
    rejected(data, "position.island.cubes", "hole name")


def test_f4_deeply_nested_brackets_are_a_position_error_not_recursion():
    for text in ("[" * 100_000, '{"format": ' + "[" * 50 + "]" * 50 + "}"):
        with pytest.raises(PositionError, match="nested deeper"):
            position_from_json(text)
        rejected(text, "nested deeper")


def test_f4_an_integer_literal_of_5000_digits_is_a_position_error():
    text = EXAMPLE_TEXT.replace('"vp": 19', '"vp": ' + "9" * 5000)
    with pytest.raises(PositionError, match="malformed JSON"):
        position_from_json(text)
    rejected(text, "malformed JSON")


# ------------------------------------------------------------------------------------------------
# Finding 5: unbounded allocation before validation


@pytest.mark.parametrize("count", [10**12, 2**63])
def test_f5_huge_hidden_pyramid_counts_are_rejected_before_any_allocation(count):
    data = dump_at("pyramid")
    view = position_to_dict(position_from_dict(data), 0)
    builder = "ABCD".index(data["actor"])
    assert view["seats"][builder]["pyramid"] is None or builder == 0
    other = builder if builder != 0 else 1
    view["seats"][other].update(pyramid=None, reserve=None, cubes={"green": count}, placed=0)
    start = time.perf_counter()
    rejected(view, f"position.seats[{other}].cubes.green", "out of range")
    assert time.perf_counter() - start < 5


def test_f5_text_larger_than_the_limit_is_rejected_unparsed():
    from burano_ai.games.burano.notation import MAX_POSITION_BYTES
    text = EXAMPLE_TEXT + " " * MAX_POSITION_BYTES   # valid JSON, too big
    with pytest.raises(PositionError, match="larger than"):
        position_from_json(text)
    rejected(text, "larger than")
    rejected(text.encode(), "larger than")


def test_f5_dev_zero_is_read_only_up_to_the_limit(tmp_path):
    from pathlib import Path
    rejected(Path("/dev/zero"), "larger than")


# ------------------------------------------------------------------------------------------------
# Finding 8: silently accepted


def test_f8_unknown_context_key_is_rejected_with_a_suggestion():
    """`"contxt": {"moves": 2}` meant moves 0."""
    data = example()
    data["contxt"] = {"moves": 2}
    rejected(data, "unknown field 'contxt'", "did you mean 'context'?")


def test_f8_a_seats_prep_typo_is_rejected_with_a_suggestion():
    """A seat's "Prep" typo dropped those cubes."""
    data = example()
    data["seats"][0]["Prep"] = data["seats"][0].pop("prep")
    rejected(data, "position.seats[0]", "unknown field 'Prep'", "did you mean 'prep'?")


@pytest.mark.parametrize("where", ["context", "ring", "hand", "roof", "tile", "island"])
def test_f8_unknown_keys_are_rejected_at_every_level(where):
    data = example()
    target = {"context": data.setdefault("context", {}), "ring": data["seats"][1]["ring"],
              "hand": data["seats"][1]["hand"], "roof": data["island"]["roofs"][0],
              "tile": data["seats"][1]["roof_slots"][0], "island": data["island"]}[where]
    target["extra_field"] = 1
    rejected(data, "unknown field 'extra_field'")


def test_f8_seat_letters_must_follow_the_list_order():
    data = example()
    data["seats"][0]["seat"], data["seats"][1]["seat"] = "B", "A"
    rejected(data, "position.seats[0].seat", "seat A")


def test_f8_round_4_in_autumn_is_rejected():
    """Shown as "round 3 of 3"."""
    data = example()
    data["season"], data["round"] = "autumn", 4
    rejected(data, "position.round", "autumn has 3 rounds")


def test_f8_round_after_the_last_only_in_clean_up():
    data = dump_at("lace-pay")
    rounds = {"spring": 4, "summer": 4, "autumn": 3, "winter": 3}[data["season"]]
    assert data["round"] == rounds + 1
    load_position(copy.deepcopy(data))
    data["round"] = rounds
    rejected(data, "position.round")


def test_f8_hidden_pyramid_in_stage_rounds_is_rejected():
    data = example()
    data["seats"][0].update(pyramid=None, reserve=None, cubes={"green": 3}, placed=2)
    rejected(data, "position.seats[0].pyramid", "stage 'pyramid'")


def test_f8_a_view_may_not_state_another_seats_blind_cards():
    data = example()
    data["seats"][0]["hand"]["blind"] = {"tuna": 1}
    rejected(data, "position.seats[0].hand.blind", "cannot know")


def test_f8_a_view_may_not_show_another_seats_pyramid_during_construction():
    data = dump_at("pyramid")
    view = position_to_dict(position_from_dict(data), 0)
    hidden = next(p for p in range(1, 4) if view["seats"][p]["pyramid"] is None)
    full = position_to_dict(position_from_dict(data))
    seat = view["seats"][hidden]
    seat["pyramid"], seat["reserve"] = full["seats"][hidden]["pyramid"], full["seats"][hidden]["reserve"]
    del seat["cubes"], seat["placed"]
    rejected(view, f"position.seats[{hidden}].pyramid", "cannot see")


@pytest.mark.parametrize("value", ["no", "false", 0, 1, None])
def test_f8_discount_used_must_be_a_bool(value):
    """`"discount_used": "no"` was read as true."""
    data = example()
    data["context"] = {"discount_used": value}
    rejected(data, "position.context.discount_used", "true or false")


def test_f8_duplicate_kinds_picked_are_rejected():
    """Later an IndexError in to_json."""
    data = dump_at("roof-pick")
    data["context"]["kinds_picked"] = ["flat", "flat"]
    rejected(data, "position.context.kinds_picked", "twice")


def test_f8_a_level_1_cube_needs_a_diagonal_path_to_the_fountain():
    data = example()
    data["island"]["cubes"]["a9"] = ["pink"]
    data["seats"][2]["prep"] = {"yellow": 1}   # keep the cube count as it was
    rejected(data, "position.island.cubes.a9", "diagonal")


def test_f8_roof_fields_must_match_the_cubes_beneath():
    data = example()
    data["island"]["roofs"][0]["fields"] = ["blue", "pink"]   # d4 is pink, f4 blue
    rejected(data, "position.island.roofs[0].fields", "wildcard")


def test_f8_a_roof_wildcard_owner_explains_a_mismatched_field():
    """§9: a field in a Roof wildcard card's colours may sit on a cube of any colour."""
    data = example()
    data["island"]["cubes"]["f4"] = ["green"]        # the roof's blue field now lies on a green cube
    rejected(copy.deepcopy(data), "position.island.roofs[0].fields")
    data["seats"][0]["buildings"].append("wildcard-A")  # blue/green, from the deck: A could have laid it
    load_position(data)


def test_bools_are_not_integers():
    data = example()
    data["seats"][1]["coins"] = True
    rejected(data, "position.seats[1].coins", "integer")


def test_duplicate_json_keys_are_rejected():
    text = EXAMPLE_TEXT.replace('"round": 2,', '"round": 2, "round": 3,')
    with pytest.raises(PositionError, match="'round' appears twice"):
        position_from_json(text)


def test_the_example_and_every_dump_still_load():
    load_position(example())
    load_position(EXAMPLE_TEXT)
    for situation in ("lace-pay", "roof-bonus", "roof-discard", "lace", "pyramid", "fish-draw", "replenish",
                      "chance:markers", "chance:fish-refill", "port-trade"):
        data = dump_at(situation)
        for factory in FACTORIES.values():
            load_position(copy.deepcopy(data), factory)


def test_setup_positions_have_empty_pyramids_and_picks_in_seat_order():
    """Found by the fuzz campaign: a pyramid cube or a later seat's roof tile during the setup picks."""
    data = dump_at("roof-pick")
    assert data["stage"] == "setup"
    bad = copy.deepcopy(data)
    bad["seats"][0]["pyramid"][8] = "white"
    rejected(bad, "position.seats[0].pyramid", "stage 'setup'")
    bad = copy.deepcopy(data)
    bad["seats"][3]["roof_slots"][1] = {"kind": "island", "fields": ["pink", "orange"]}
    rejected(bad, "position.seats[3].roof_slots")


# ------------------------------------------------------------------------------------------------
# Found by the fuzz tests after the first round of validation: a pyramid left standing into the roof
# refill loaded, and the next season's pyramid building overwrote its cubes (the core's incremental
# supply then disagreed with its recomputation: `check()` failed after 'pyramid green').


def test_a_pyramid_left_standing_in_the_roof_refill_is_rejected():
    data = dump_at("roof-discard")
    assert data["stage"] == "roof-refill"
    seat = data["seats"][0]
    colour = next(c for c, n in seat["reserve"].items() if n)
    seat["reserve"][colour] -= 1
    seat["pyramid"][11] = colour                    # m3, over an empty base: no real game gets here
    rejected(data, "seats[0].pyramid", "§8.4")


def test_seats_that_replenished_have_empty_pyramids():
    data = dump_at("replenish")
    order_index = data["context"]["order_index"]
    first = "ABCD".index(data["first_player"])
    done = data["seats"][(first + order_index) % data["players"]]    # the seat replenishing now
    colour = next(c for c, n in done["reserve"].items() if n)
    done["reserve"][colour] -= 1
    done["pyramid"][0] = colour
    rejected(data, "pyramid", "§8.4")


def test_every_dump_of_a_real_game_still_loads():
    """The clean-up pyramid rules reject no position a real game reaches (full and the mover's view)."""
    for num_players in (2, 3, 4):
        for seed in range(3):
            state = CoreGame(num_players).new_initial_state(seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                if state.to_dict()["stage"] in ("lace-scoring", "replenish", "roof-refill"):
                    load_position(state.to_dict())
                    if not state.is_chance_node():
                        load_position(state.to_dict(state.current_player()))
                random_step(state, rng)
