"""The compiled Walking in Burano core against the reference model, in lockstep.

Seeded random games are played on both implementations at once, for every player count and every
option: at every step the same current player, legal actions, chance outcomes with their probabilities
and kinds, move texts, Zobrist and information-set keys (the compiled key kept incrementally, checked
against its recomputation), turn ids and scores; the JSON of the full position and of every seat's view
at regular steps; at the end the same returns and finishing keys. Then what the reference cannot be
compared with draw for draw: the resample (its own generator) is checked for consistency with the
seat's view, and the C interface on its own: playouts in C finish with the game's invariants, and a
playout from a copy never touches the original.
"""

from __future__ import annotations

import pickle
import random

import pytest

from burano_ai.games.walking_in_burano.position import Options
from burano_ai.games.walking_in_burano.reference import Game as ReferenceGame
from burano_ai.random_play import random_action
from conformance.c_interface import check_playouts, mean_playout_score

core = pytest.importorskip("burano_ai.games.walking_in_burano._core")

GAMES_PER_CASE = 4

#: Option sets covered in lockstep: the defaults, each §13 variant, public returns, literal costs, a fixed
#: first player, each Boy scoring (WD-11, WD-32), and everything at once.
OPTION_CASES = [
    Options(),
    Options(fewer_characters=True),
    Options(no_window_penalty=True),
    Options(public_returns=True),
    Options(literal_cost=True, first_player=1),
    Options(boy_scoring="distinct"),
    Options(boy_scoring="sets", public_returns=True),
    Options(fewer_characters=True, no_window_penalty=True, public_returns=True, literal_cost=True, first_player=0,
            boy_scoring="sets"),
]


def _lockstep(n, options, seed, views_every=7):
    """Play one seeded random game on both implementations, comparing every node; return (ref, core, pools seen)."""
    ref_game, c_game = ReferenceGame(n, options), core.Game(n, options)
    rng = random.Random(seed)
    r, c = ref_game.new_initial_state(), c_game.new_initial_state()
    steps = pooled = 0
    while True:
        at = (n, options, seed, steps)
        assert c.current_player() == r.current_player(), at
        assert c.legal_actions() == r.legal_actions(), at
        assert c.chance_outcomes() == r.chance_outcomes(), at
        assert c.key() == r.key() == c.full_key(), at
        assert [c.information_state_key(s) for s in range(n)] == [r.information_state_key(s) for s in range(n)], at
        assert c.turn_id() == r.turn_id(), at
        assert c.scores() == r.scores(), at
        pooled += any(s.pool for s in r.seats)
        if steps % views_every == 0 or r.phase_name() == "return":
            assert c.to_json() == r.to_json(), at
            for s in range(n):
                assert c.to_json(s) == r.to_json(s), (at, s)
        if r.is_terminal():
            break
        if r.is_chance_node():
            assert c.chance_kind == r.chance_kind, at
        a = random_action(r, rng)
        assert c.action_to_string(a) == r.action_to_string(a), at
        r.apply_action(a)
        c.apply_action(a)
        steps += 1
    assert c.to_json() == r.to_json()
    assert c.returns() == r.returns()
    assert [c.finishing_key(p) for p in range(n)] == [r.finishing_key(p) for p in range(n)]
    assert [c.final_breakdown(p) for p in range(n)] == [r.final_breakdown(p) for p in range(n)]
    c.check()
    return r, c, pooled


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("case", range(len(OPTION_CASES)))
def test_the_core_plays_every_step_as_the_reference_does(n, case):
    pooled = 0
    for seed in range(GAMES_PER_CASE):
        _, _, seen = _lockstep(n, OPTION_CASES[case], 1000 * n + 100 * case + seed)
        pooled += seen
    if not OPTION_CASES[case].public_returns:
        assert pooled, "no hidden return happened: the pools went untested"


def _states_with_pools(n, seeds, want=40):
    """(core state, seat) pairs at nodes where another seat has pooled cards (hidden information)."""
    out = []
    game = core.Game(n)
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal() and len(out) < want:
            d = state.to_dict()
            owners = [p for p in range(n) if d["seats"][p]["pool"]]
            for seat in range(n):
                if any(o != seat for o in owners):
                    out.append((state.clone(), seat))
            state.apply_action(random_action(state, rng))
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_resample_is_consistent_with_the_seat_s_view_and_redraws_the_pools(n):
    """What `seat` sees is unchanged (its view, its information-set key); the state stays valid (the
    reference loads it); the other seats' pooled cards move between hands and decks across seeds."""
    samples = _states_with_pools(n, range(60 * n, 60 * n + 30))
    assert len(samples) >= 20
    ref_game = ReferenceGame(n)
    changed = 0
    for state, seat in samples:
        view, info = state.to_json(seat), state.information_state_key(seat)
        seen = set()
        for seed in range(12):
            out = state.resample(seat, seed)
            assert out.to_json(seat) == view
            assert out.information_state_key(seat) == info
            assert out.key() == out.full_key()
            out.check()
            assert out.legal_actions() == state.legal_actions() or state.current_player() != seat
            assert ref_game.state_from_json(out.to_json()).key() == out.key()
            seen.add(out.to_json())
        assert state.resample(seat, 5).to_json() == state.resample(seat, 5).to_json()     # seeded
        changed += len(seen) > 1
    assert changed >= len(samples) // 2


def test_the_resample_deals_a_pool_uniformly():
    """Over many seeds each pooled card of an opponent lies under the deck about equally often."""
    samples = _states_with_pools(2, range(500, 560), want=200)
    for state, seat in samples:
        d = state.to_dict()
        o = 1 - seat
        pool = d["seats"][o]["pool"]
        hidden = sum(1 for q in d["decks"] for e in q["under"] if e["by"] == "AB"[o] and e["card"] in pool)
        if len(pool) >= 3 and 0 < hidden < len(pool):
            break
    else:
        pytest.skip("no pool of three or more cards with a choice in these games")
    trials = 3000
    under = {c: 0 for c in pool}
    for seed in range(trials):
        out = state.resample(seat, seed).to_dict()
        for q in out["decks"]:
            for e in q["under"]:
                if e["card"] in under and e["by"] == "AB"[o]:
                    under[e["card"]] += 1
    p = hidden / len(pool)
    for c, k in under.items():
        assert abs(k / trials - p) < 5 * (p * (1 - p) / trials) ** 0.5, (c, under, p)


def _a_pooled_step_of_two_returns(implementation: str, players: int = 3, seeds=range(40)):
    """(state, owner, level, cards): the first state of a seeded random game, between decisions, where
    `owner`'s cards `cards` (two or more of `level`, returned in one step, so under the deck in ascending
    order) are still under the deck and pooled (another seat cannot tell them from the owner's hand cards).
    The step is found from the moves played, not from the position."""
    from burano_ai.games import get_spec
    from burano_ai.games.walking_in_burano import rules
    spec = get_spec("walking-in-burano")
    for seed in seeds:
        state = spec.new_game(players, implementation).new_initial_state()
        rng = random.Random(seed)
        steps: list[tuple[int, list[int]]] = []
        current = None
        while not state.is_terminal():
            action = random_action(state, rng)
            if not state.is_chance_node() and rules.action_kind(action) == "return":
                if current is None:
                    current = (state.current_player(), [])
                    steps.append(current)
                current[1].append(action - rules.RETURN0)
            elif not state.is_chance_node():
                current = None
            state.apply_action(action)
            if state.is_chance_node() or state.phase == rules.PHASE_RETURN:
                continue
            position = state.to_dict()
            for owner, cards in steps:
                for level in range(3):
                    together = [c for c in cards if c // 24 == level]
                    queue = [e["card"] for e in position["decks"][level]["under"]]
                    pool = position["seats"][owner]["pool"]
                    if len(together) >= 2 and all(c in queue and c in pool for c in together):
                        return state, owner, level, together
    raise AssertionError("no pooled return of two cards of one level in these games")


@pytest.mark.parametrize("implementation", ["reference", "compiled"])
def test_a_resample_keeps_the_cards_returned_together_in_ascending_order(implementation):
    """Issue 34, item 12 (an independent rules check): cards returned in one step go under their deck in
    ascending id order (WD-22) and a resample keeps that order (§15.2). Both implementations dealt a pool's
    cards to its queue entries in any order: in a 3-player game C returned 48 and 51 together, and B's
    resamples put (51, 48) under the deck in about half the worlds, worlds that cannot happen."""
    state, owner, level, cards = _a_pooled_step_of_two_returns(implementation)
    position = state.to_dict()
    places = [i for i, e in enumerate(position["decks"][level]["under"]) if e["card"] in cards]
    assert sorted(position["decks"][level]["under"][i]["card"] for i in places) == sorted(cards)
    seat = (owner + 1) % state.num_players
    moved = set()
    for seed in range(200):
        world = state.resample(seat, seed).to_dict()
        got = [world["decks"][level]["under"][i]["card"] for i in places]
        assert got == sorted(got), (seed, got)
        moved.add(tuple(got))
    assert len(moved) > 1          # the pool is still redrawn: other cards of the pool take those places


def test_nothing_is_hidden_with_public_returns():
    game = core.Game(3, Options(public_returns=True))
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            d = state.to_dict()
            assert not any(s["pool"] for s in d["seats"])
            if state.current_player() >= 0:
                assert state.resample(0, seed).to_json() == state.to_json()
            state.apply_action(random_action(state, rng))


def test_playouts_in_c_end_the_game_with_its_invariants_and_leave_the_original_alone():
    for n in (2, 3, 4):
        check_playouts(core.Game(n).new_initial_state(), range(15), ("random", "heuristic"), games=40, min_steps=50)


def test_the_heuristic_playout_scores_more_than_random():
    """The heuristic policy builds and visits on purpose: its mean total over the same seeds is higher."""
    state = core.Game(2).new_initial_state()
    means = {policy: mean_playout_score(state, range(150), policy) for policy in ("random", "heuristic")}
    assert means["heuristic"] > means["random"] + 5, means     # a seat's mean: 10 more points a game


@pytest.mark.parametrize("n, case", [(2, 0), (3, 1), (4, 4), (2, 5), (2, 6), (4, 7)])
def test_the_prior_is_the_softmax_of_the_move_preference_in_c_and_in_python(n, case):
    """The move prior (C `prior_c` through `State.move_prior`, and `heuristic.prior`) agree at every take,
    placement and visit of seeded games (half of the moves the prior's favourite, so that houses get
    finished and visited), sum to 1, favour a best `heuristic.action_value`, and say nothing at a return
    or for a seat not to move. The search gets none while `heuristic.SEARCH_PRIOR` is off (the default)."""
    from burano_ai.core.errors import OptionError
    from burano_ai.games.walking_in_burano import heuristic
    ref_game, c_game = ReferenceGame(n, OPTION_CASES[case]), core.Game(n, OPTION_CASES[case])
    seen = {"acquire": 0, "build": 0, "visit": 0, "return": 0}
    for seed in range(3):
        rng = random.Random(seed)
        r, c = ref_game.new_initial_state(seed), c_game.new_initial_state(seed)
        while not r.is_terminal():
            if r.is_chance_node():
                a = random_action(r, rng)
            else:
                legal, phase, other = r.legal_actions(), r.phase_name(), (r.to_move + 1) % n
                p, q = heuristic.prior(r, r.to_move, legal), c.move_prior(c.to_move, legal)
                assert heuristic.prior(r, other, legal) is None and c.move_prior(other, legal) is None
                if not heuristic.SEARCH_PRIOR:
                    assert r.prior(r.to_move, legal) is None and c.prior(c.to_move, legal) is None
                seen[phase] += 1
                if phase == "return":
                    assert p is None and q is None
                    a = rng.choice(legal)
                else:
                    assert q == pytest.approx(p, rel=1e-12, abs=1e-300) and sum(p.values()) == pytest.approx(1.0)
                    values = {x: heuristic.action_value(r, x) for x in legal}
                    assert values[max(p, key=p.get)] == max(values.values())
                    a = max(p, key=p.get) if rng.random() < 0.5 else rng.choice(legal)
            r.apply_action(a)
            c.apply_action(a)
    assert min(seen.values()) > 5, seen
    state = c_game.new_initial_state(0)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(OptionError, match="not a legal move"):
        state.move_prior(state.current_player(), [state.legal_actions()[0], 600])


def test_the_search_prior_switch_gives_the_prior_to_the_c_interface():
    """With `heuristic.SEARCH_PRIOR` on before the core is imported (a fresh interpreter), `State.prior`
    and the C interface's `prior` (what the native searcher reads) give the move prior; off, neither does."""
    import subprocess
    import sys
    script = (
        "import sys\n"
        "from burano_ai.games.walking_in_burano import heuristic\n"
        "heuristic.SEARCH_PRIOR = sys.argv[1] == 'on'\n"
        "from burano_ai.games.walking_in_burano import _core\n"
        "from burano_ai.search import _native\n"
        "s = _core.Game(2).new_initial_state(3)\n"
        "while s.is_chance_node():\n"
        "    s.apply_action(s.chance_outcomes()[0][0])\n"
        "legal = s.legal_actions()\n"
        "print(s.prior(s.to_move, legal) == _native.prior(s, s.to_move, legal) == "
        "(s.move_prior(s.to_move, legal) if sys.argv[1] == 'on' else None))\n")
    for flag in ("on", "off"):
        out = subprocess.run([sys.executable, "-c", script, flag], capture_output=True, text=True, timeout=120)
        assert out.stdout.strip() == "True", (flag, out.stdout, out.stderr)


def test_a_state_pickles_and_a_json_round_trip_keeps_the_key():
    game = core.Game(3)
    rng = random.Random(2)
    state = game.new_initial_state()
    for _ in range(220):
        state.apply_action(random_action(state, rng))
    again = pickle.loads(pickle.dumps(state))
    assert again.to_json() == state.to_json() and again.key() == state.key()
    loaded = game.state_from_json(state.to_json())
    assert loaded.key() == state.key() and loaded.legal_actions() == state.legal_actions()
    for seat in range(3):                   # a seat's view loads to a state of the same information set
        view = game.state_from_json(state.to_json(seat))
        assert view.information_state_key(seat) == state.information_state_key(seat)


def test_custom_data_reaches_the_core():
    from burano_ai.games.walking_in_burano.data import default_data
    d = default_data().to_dict()
    for card in d["cards"]["value"]:
        card["closed_windows"] = 0
        card["cats"] = 2
    d["placeholder"] = False
    r, c = ReferenceGame(2, data=d), core.Game(2, data=d)
    rng = random.Random(5)
    rs, cs = r.new_initial_state(), c.new_initial_state()
    while not rs.is_terminal():
        a = random_action(rs, rng)
        rs.apply_action(a)
        cs.apply_action(a)
        assert cs.scores() == rs.scores()
    assert cs.to_json() == rs.to_json() and '"data": {' in rs.to_json()
    assert c.state_from_json(rs.to_json()).key() == cs.key()


def test_an_illegal_move_is_refused_and_leaves_the_state_alone():
    from burano_ai.core.errors import IllegalMoveError
    state = core.Game(2).new_initial_state()
    before = state.to_json()
    with pytest.raises(IllegalMoveError, match="illegal move"):
        state.apply_action(30)
    with pytest.raises(IllegalMoveError):
        state.play("take 1 L1")
    assert state.to_json() == before





def test_sample_chance_draws_each_card_of_the_shuffled_part_alike():
    state = core.Game(2).new_initial_state()
    offered = {a for a, _ in state.chance_outcomes()}
    assert len(offered) == 24
    trials = 4800
    counts = {c: 0 for c in offered}
    for seed in range(trials):
        counts[state.sample_chance(seed)] += 1
    p = 1 / 24
    for c, k in counts.items():
        assert abs(k / trials - p) < 5 * (p * (1 - p) / trials) ** 0.5, (c, counts)
