"""The compiled Venice 2099 core against the reference model, in lockstep.

Seeded random games are played on both implementations at once: at every step the same current player,
legal actions, chance outcomes with their probabilities and kinds, move texts, turn ids, Zobrist keys
(the compiled key kept incrementally, checked against its recomputation), every seat's
information-set key, JSON, scores and cut-off estimates, and every seat's resample (the same §10.3
draws, so the same hidden hands); at the end the same returns. Then the C interface on its own: a walk
through the function pointers only, playouts in C, pickling, the out-of-turn rescue as the native
search sees it, and five seats in the native tree.
"""

from __future__ import annotations

import pickle
import random
from collections import Counter

import pytest

from burano_ai.games.venice_2099 import rules
from burano_ai.games.venice_2099.reference import Game as ReferenceGame
from conformance.c_interface import check_playouts, mean_playout_score

core = pytest.importorskip("burano_ai.games.venice_2099._core")

GAMES_PER_COUNT = 4

#: Every rule flag of spec §10.10 away from its default at least once, and all at once.
VARIANTS = [
    {"forecast_values": "2-8"}, {"move_dirs": 4}, {"diagonal_squeeze": False}, {"gondola_move_is_step1": False},
    {"rescue_to_platform": True}, {"placement_round_robin": False}, {"treasure_supply": 0},
    {"treasure_supply": 1}, {"auto_apply_forced": True},
    {"forecast_values": "2-8", "move_dirs": 4, "diagonal_squeeze": False, "gondola_move_is_step1": False,
     "rescue_to_platform": True, "placement_round_robin": False, "treasure_supply": 2, "auto_apply_forced": True},
]


def lockstep(n, seed, options=None, resample_every=1):
    """Play one seeded random game on both implementations, comparing every node; return the phases seen."""
    r, c = ReferenceGame(n, options).new_initial_state(), core.Game(n, options).new_initial_state()
    rng = random.Random(seed)
    phases = Counter()
    steps = 0
    while True:
        where = (n, seed, options, steps)
        assert c.current_player() == r.current_player(), where
        assert c.legal_actions() == r.legal_actions(), where
        assert c.chance_outcomes() == r.chance_outcomes(), where
        assert c.chance_kind == r.chance_kind, where
        assert c.key() == c.full_key() == r.key(), where
        assert c.turn_id() == r.turn_id(), where
        assert [c.information_state_key(s) for s in range(n)] == [r.information_state_key(s) for s in range(n)]
        assert c.scores() == r.scores() and c.estimated_scores() == r.estimated_scores(), where
        if steps % 7 == 0 or r.phase == rules.PHASE_RESCUE:
            assert c.to_json() == r.to_json(), where
        if not r.is_chance_node() and not r.is_terminal() and steps % resample_every == 0:
            for s in range(n):
                a, b = c.resample(s, seed * 1000 + steps), r.resample(s, seed * 1000 + steps)
                assert a.to_json() == b.to_json() and a.key() == b.key() == a.full_key(), (where, s)
                assert a.information_state_key(s) == c.information_state_key(s), (where, s)
        phases[r.phase] += 1
        if r.is_terminal():
            break
        if r.is_chance_node():
            outcomes = r.chance_outcomes()
            a = rng.choices([x for x, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            a = rng.choice(r.legal_actions())
        assert c.action_to_string(a) == r.action_to_string(a), where
        r.apply_action(a)
        c.apply_action(a)
        steps += 1
    assert c.to_json() == r.to_json()
    assert c.returns() == r.returns() and c.winners() == r.winners()
    assert [c.final_breakdown(p) for p in range(n)] == [r.final_breakdown(p) for p in range(n)]
    c.check()
    return phases


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_core_plays_every_step_as_the_reference_does(n):
    phases = Counter()
    for seed in range(GAMES_PER_COUNT):
        phases += lockstep(n, 100 * n + seed)
    # the games reached every kind of node, the out-of-turn rescue included
    assert set(phases) == set(range(len(rules.PHASE_NAMES))), phases


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_every_rule_flag_plays_as_in_the_reference(options):
    for n, seed in ((2, 1), (3, 2), (5, 3)):
        lockstep(n, seed, options, resample_every=5)


def random_state(n, seed, stop, options=None):
    """A compiled State after a seeded random game stopped where `stop(state)` first holds (or at the end)."""
    state = core.Game(n, options).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and not stop(state):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([x for x, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def rescue_of_another_seat(n):
    """A compiled State whose pending decision is a rescue by a seat that is not the active one."""
    for seed in range(500):
        state = random_state(n, seed, lambda s: s.phase == rules.PHASE_RESCUE and s.current_player() != s.active())
        if not state.is_terminal():
            return state
    raise AssertionError("no out-of-turn rescue in 500 random games")


def test_the_c_game_interface_resamples_the_reference_s_world():
    """Draw for draw: the ops' resample deals the reference's world (the conformance suite holds it to the
    compiled State's; tests/conformance/c_interface.py)."""
    from conformance.c_interface import reference_world, walk_against_reference
    for n in (2, 5):
        walk_against_reference(core.Game(n), ReferenceGame(n), range(2), hidden=True, world=reference_world,
                               resample_every=10)


def _core_at(ref):
    return core.Game(ref.num_players, ref.options).state_from_json(ref.to_json())


def test_playouts_in_c_end_the_game_with_its_invariants_and_leave_the_original_alone():
    for n in (2, 3, 4, 5):
        state = random_state(n, n, lambda s: s.phase == rules.PHASE_MOVE)
        for copy in check_playouts(state, range(10), ("random", "heuristic"), games=30,
                                   min_steps=n * rules.config_counts(n)["cards_each"]):
            # §7 "the final board is fixed at the deal": the "2"s plus the set-aside cards' districts (T13)
            land = sorted(t for s, t in enumerate(copy.tiles) if copy.is_land(s))
            fixed = sorted([d for d in rules.districts_in_play(n, copy.removed_colour) if d % 8 == 0] +
                           [rules.card_district(k) for k in copy.set_aside()])
            assert land == fixed
    with pytest.raises(Exception, match="unknown playout policy"):
        state.clone().playout(1, "smart")


def test_the_heuristic_playout_keeps_figures_and_scores_more_than_random():
    """policy "heuristic" (the search's default): seeded, and its figures end on surviving districts far
    more often than uniform random play's, for a higher mean score (the same 60 seeds)."""
    state = random_state(3, 11, lambda s: s.phase == rules.PHASE_MOVE)
    means = {policy: mean_playout_score(state, range(60), policy) for policy in ("random", "heuristic")}
    assert means["heuristic"] > means["random"] + 5, means
    assert state.clone().playout(5, "heuristic") == state.clone().playout(5, "heuristic")


def test_a_state_pickles_and_a_json_round_trip_keeps_the_key():
    for n in (2, 5):
        state = random_state(n, 3, lambda s: s.turn() >= 4 and s.phase == rules.PHASE_BUY)
        again = pickle.loads(pickle.dumps(state))
        assert again.to_json() == state.to_json() and again.key() == state.key()
        loaded = state.game.state_from_json(state.to_json())
        assert loaded.key() == state.key() and loaded.legal_actions() == state.legal_actions()
        assert pickle.loads(pickle.dumps(state.game)) == state.game


def test_a_seat_s_view_loads_with_a_consistent_deal_and_the_same_information_key():
    for n in (2, 3, 4, 5):
        state = random_state(n, 9, lambda s: s.turn() >= n + 1 and s.phase == rules.PHASE_CARD)
        for seat in range(n):
            view = state.game.state_from_json(state.to_json(seat))
            assert view.information_state_key(seat) == state.information_state_key(seat)
            assert view.legal_actions() == state.legal_actions() if seat == state.current_player() else True
            view.check()


def test_resample_keeps_everything_the_seat_sees_and_draws_every_consistent_deal():
    """§10.3: hands keep their sizes, nobody holds a card below its last play, the seat's view is unchanged;
    at a late 2-player position every consistent deal comes up, about equally often."""
    state = random_state(2, 4, lambda s: s.turn() >= 16 and s.phase == rules.PHASE_MOVE)
    seat = state.current_player()
    other = 1 - seat
    deals = Counter()
    for seed in range(3000):
        world = state.resample(seat, seed)
        world.check()
        assert world.information_state_key(seat) == state.information_state_key(seat)
        assert world.hands[seat] == state.hands[seat] and len(world.hands[other]) == len(state.hands[other])
        deals[tuple(world.hands[other])] += 1
    bound = state.bound(other)
    unseen = [k for k in state.deck() if k not in state.hands[seat] and k not in [c for _, c in state.played]]
    eligible = [k for k in unseen if rules.card_vi(k) >= bound]
    from math import comb
    assert len(deals) == comb(len(eligible), len(state.hands[other]))
    mean = 3000 / len(deals)
    assert max(deals.values()) < 2 * mean + 20 and min(deals.values()) > mean / 3


def test_sample_chance_draws_tiles_and_cards_with_their_probabilities():
    """A layout draw is a platform with probability P / R (§10.2), in the C sampler too."""
    state = core.Game(3).new_initial_state()
    probs = dict(state.chance_outcomes())
    assert probs[rules.PLATFORM] == pytest.approx(16 / 64)
    trials = 4000
    platforms = sum(state.sample_chance(seed) == rules.PLATFORM for seed in range(trials))
    assert abs(platforms / trials - 0.25) < 5 * (0.25 * 0.75 / trials) ** 0.5
    two = core.Game(2).new_initial_state()
    assert {two.sample_chance(seed) for seed in range(200)} == set(range(6))


def test_the_rescue_is_the_owner_s_decision_and_a_turn_of_its_own():
    """§5.6: the owner of the drowning figure decides, out of turn; the rescue belongs to no turn (the card
    that sank the district ended the active seat's turn: turn_id changes across it), and the native search
    plays the rescue from the owner's view."""
    from burano_ai.games.goofspiel import _ops_check
    from burano_ai.search import Params, make_searcher
    from burano_ai.search.parallel import canonical_root

    state = rescue_of_another_seat(4)
    owner = state.current_player()
    assert owner != state.active() and owner >= 0
    assert _ops_check.walk(state, 0)[0][0]["player"] == owner
    legal = state.legal_actions()
    assert legal[-1] == rules.DECLINE_RESCUE and all(rules.RESCUE0 <= a < rules.DECLINE_RESCUE for a in legal[:-1])
    assert state.turn_id() == -1                       # NO_TURN: a decision outside turns
    root = canonical_root(state, owner)
    searcher = make_searcher(root, owner, Params(tree="native"), 5)
    assert type(searcher).__name__ == "NativeSearcher"
    searcher.run(iterations=300)
    summary = searcher.summary()
    assert summary["iterations"] == 300 and set(summary["root_stats"]) == set(legal)
    # every edge at the root is the owner's: its shares are the owner's view of the rescue
    assert all(len(shares) == 4 for shares in summary["seat_shares"].values())
    after = state.clone()
    after.apply_action(legal[0])
    assert after.turn_id() == len(after.placement_order()) + after.turn()
    assert after.figures_on_board(owner) == state.figures_on_board(owner) + 1


def test_the_native_search_runs_five_seats_from_a_seat_s_view():
    from burano_ai.search import Params, make_searcher
    from burano_ai.search.parallel import canonical_root

    state = random_state(5, 2, lambda s: s.turn() >= 6 and s.phase == rules.PHASE_MOVE)
    seat = state.current_player()
    searcher = make_searcher(canonical_root(state, seat), seat, Params(tree="native"), 1)
    searcher.run(iterations=200)
    summary = searcher.summary()
    assert summary["iterations"] == 200 and set(summary["root_stats"]) <= set(state.legal_actions())
    assert all(len(shares) == 5 for shares in summary["seat_shares"].values())
    # each iteration's win shares over the five seats add up to one
    assert sum(sum(s) for s in summary["seat_shares"].values()) == pytest.approx(200)


def test_the_core_s_game_takes_the_rule_flags_as_the_reference_s_does():
    """Game(players, options, **flags): the framework's game options arrive as keywords (one-line errors)."""
    from burano_ai.core.errors import OptionError
    assert core.Game(3, move_dirs=4).config() == ReferenceGame(3, move_dirs=4).config()
    assert core.Game(2, {"treasure_supply": 0}, rescue_to_platform=True).options == \
        ReferenceGame(2, {"treasure_supply": 0}, rescue_to_platform=True).options
    with pytest.raises(OptionError, match="move_dirs"):
        core.Game(3, move_dirs=6)
    with pytest.raises(OptionError, match="unknown"):
        core.Game(3, wind=True)
