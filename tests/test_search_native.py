"""The native tree (`burano_ai.search._native.NativeSearcher`): the same search as `ismcts.Searcher`, in C.

Its random streams differ from the Python searcher's, so the two are compared the way two runs of one
search with different seeds are: on puzzles (the known best move), and on normal positions by the
moves they prefer and the win chances they estimate, within what the spread between seeds allows.
Everything else — reproducibility, honesty, the pyramid prior, the summary format, root-parallel
workers, the `Params.tree` option — is checked exactly.
"""

from __future__ import annotations

import math
import random
import re
import statistics
import time
from pathlib import Path

import pytest

from burano_ai.games.burano import actions as A
from burano_ai.core import seeds
from burano_ai.games.burano.data.colours import NUM_COLOURS
from burano_ai.engine import suggest
from burano_ai.games.burano.enums import ChanceKind
from burano_ai.core.errors import OptionError
from burano_ai.games.burano.reference import Game
from burano_ai.games.burano.reference.state import ST_PYRAMID, TURN
from burano_ai.search import (CorePlayout, HorizonEstimate, LeafEstimate, Limit, Params, PythonPlayout, Searcher,
                              make_searcher, random_playout)
from burano_ai.search import ismcts
from burano_ai.search.parallel import canonical_root, merge_summaries, run_search
from burano_ai.games.burano.pyramid import colour_prior
from burano_ai.games.burano import heuristics
from burano_ai.games.burano.enums import Phase
from burano_ai.core.game import NO_TURN
from burano_ai.search.tree import NO_CHANCE

from positions import play_random
from test_search import (comparable, earning_puzzle, fishing_puzzle, lace_puzzle, mid_game, pyramid_puzzle,
                         roof_puzzle, triples_puzzle)

core = pytest.importorskip("burano_ai.games.burano._core")
native = pytest.importorskip("burano_ai.search._native")
from burano_ai.core._game import NativeState  # noqa: E402 (after the skip: compiled)
CoreGame = core.Game
NATIVE = Params(tree="native")


def to_core(ref):
    """The reference position `ref` as a compiled State."""
    return CoreGame(ref.num_players).state_from_json(ref.to_json())


def root_for(state):
    """The canonical search root of the seat to move, and that seat."""
    seat = state.current_player()
    return canonical_root(state, seat), seat


def without_elapsed(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k != "elapsed"}


def native_summary(root, seat, iterations: int, seed: int, params: Params = NATIVE) -> dict:
    searcher = native.NativeSearcher(root, seat, params, seed)
    searcher.run(iterations=iterations)
    return searcher.summary()


def summary_of(searcher, iterations: int) -> dict:
    """The summary, without the wall clock, of `iterations` iterations of `searcher`."""
    searcher.run(iterations=iterations)
    return without_elapsed(searcher.summary())


def position(num_players: int, seed: int, season: int, round_: int):
    """A seeded random game's first turn start of (season, round), as a compiled State."""
    ref = Game(num_players).new_initial_state(seed)
    play_random(ref, random.Random(seed), until=lambda s: (s.season == season and s.round == round_
                                                           and s.phase == TURN and s.moves == 0
                                                           and s.current_player() >= 0))
    return to_core(ref)


@pytest.fixture(scope="module")
def mid3():
    return root_for(to_core(mid_game(3, 21)))


# ------------------------------------------------------------------------------------------------
# Reproducibility and the summary


def test_same_seed_and_budget_give_the_same_summary(mid3):
    root, seat = mid3
    first = native_summary(root, seat, 400, 7)
    assert without_elapsed(first) == without_elapsed(native_summary(root, seat, 400, 7))
    assert without_elapsed(first) != without_elapsed(native_summary(root, seat, 400, 8))
    # Two runs of 200 are one run of 400: iteration i always uses iteration_seed(seed, i).
    searcher = native.NativeSearcher(root, seat, NATIVE, 7)
    searcher.run(iterations=200)
    searcher.run(iterations=200)
    assert without_elapsed(searcher.summary()) == without_elapsed(first)


def test_iteration_seeds_are_the_python_formula():
    for seed, i in ((12345, 7), (0, 0), (2**70, 3), (ismcts.worker_seed(9, 1), 10**6)):
        assert native.iteration_seed(seed, i) == ismcts.iteration_seed(seed, i)


def test_iteration_seeds_are_the_one_seed_scheme():
    """The C mixer repeats `burano_ai.core.seeds.derive` bit for bit (the one seed-derivation scheme)."""
    for seed, i in ((12345, 7), (0, 0), (2**64 - 1, 2**63), (2**70, 3), (1, 10**6), (0xB0A0_5EED, 42)):
        assert native.iteration_seed(seed, i) == seeds.derive(seed, i)


def test_summary_has_the_python_searchers_shape(mid3):
    root, seat = mid3
    python = Searcher(root, seat, Params(), 3)
    python.run(iterations=100)
    summary = native_summary(root, seat, 300, 3)
    assert set(summary) == set(python.summary())
    assert summary["iterations"] == 300 and summary["elapsed"] > 0
    plan, stats = summary["plan"], summary["root_stats"]
    assert set(plan) == set(stats) <= set(root.legal_actions())
    assert list(plan) == sorted(plan, key=lambda a: -plan[a][0])        # most visited first
    assert sum(v[0] for v in plan.values()) == 300
    assert summary["nodes"] > len(plan)

    def check(level):
        for action, (visits, value, avail, ends, player, chance, sub) in level.items():
            assert isinstance(visits, int) and isinstance(value, float) and isinstance(avail, int)
            assert isinstance(ends, bool) and isinstance(player, int) and isinstance(sub, dict)
            assert chance == NO_CHANCE or ChanceKind.NONE < chance <= max(ChanceKind)
            assert avail >= visits >= 1 and 0.0 <= value / visits <= 1.0
            assert not sub or (player == seat and not ends)
            check(sub)

    check(plan)
    assert all(plan[a][3] == (a == A.DONE) for a in plan)    # at a turn decision only `done` ends the turn
    for action, (share, vp, _margin, squares, _margin_squares) in stats.items():
        visits, value = plan[action][:2]
        assert 0.0 <= share <= visits and vp >= 0
        assert value * value / visits <= squares + 1e-9 <= visits + 1e-9   # Cauchy-Schwarz; rewards lie in 0..1
    assert native.NativeSearcher.node_bytes()[0] <= 32


def test_run_by_deadline_reports_progress_and_keeps_the_root(mid3):
    root, seat = mid3
    before = root.to_json()
    searcher = native.NativeSearcher(root, seat, NATIVE, 1)
    seen = []
    searcher.run(deadline=time.time() + 0.3, progress=lambda done, total: seen.append((done, total)),
                 progress_every=0.05)
    assert searcher.iterations > 0 and seen[-1] == (searcher.iterations, None) and len(seen) >= 2
    assert root.to_json() == before
    with pytest.raises(ValueError):
        searcher.run()
    with pytest.raises(ValueError):
        native.NativeSearcher(root, (seat + 1) % 3, NATIVE, 1)


# ------------------------------------------------------------------------------------------------
# The C game interface: the tree knows no game


def test_c_prior_equals_the_python_prior_on_random_games():
    """Burano's `GameOpsC.prior` (in C) is `State.prior` (Python): the pyramid prior in the pyramid
    phase, for every seat whatever it has built, and none elsewhere."""
    positions_seen = set()
    compared = 0
    every = [A.PYRAMID + c for c in range(NUM_COLOURS)]
    for num_players, seed in ((2, 1), (3, 2), (4, 3)):
        state = CoreGame(num_players).new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.current_player() >= 0 and state.phase == Phase.PYRAMID:
                legal = state.legal_actions()
                actor = state.current_player()
                assert native.prior(state, actor, legal) == colour_prior(state, actor, legal) \
                    == state.prior(actor, legal)
                compared += 1
                for p in range(num_players):
                    assert native.prior(state, p, every) == colour_prior(state, p, every)
                    positions_seen.add(state.pyramid_count(p))
                    compared += 1
            elif state.current_player() >= 0:
                assert native.prior(state, state.current_player(), every) is None
                # State.prior takes only the seat's legal ids (issue 35 G01): none outside the pyramids
                assert state.prior(state.current_player(), state.legal_actions()) is None
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert set(range(14)) <= positions_seen and compared > 500


def old_turn_rule(phase: int, player: int, action: int, after) -> bool:
    """Did `action`, chosen by `player` in `phase`, end its chooser's turn (`after`: the state it led
    to)? The rule the search hard-coded before the C game interface: `done` in the turn phase; in the
    pyramid phase, a change of phase or of the seat to move; never elsewhere."""
    if phase == Phase.TURN:
        return action == A.DONE
    if phase == Phase.PYRAMID:
        return after.phase != Phase.PYRAMID or after.current_player() != player
    return False


@pytest.mark.parametrize("implementation", ["compiled", "reference"])
def test_turn_ids_reproduce_the_old_turn_rule(implementation):
    """At every decision of seeded random games: `turn_id` before != after (and before != NO_TURN)
    exactly when the old rule says the edge ended its chooser's turn; a compiled twin played in
    lockstep has the same ids (the compiled `turn_id` is `turn_id_c`, the C interface's)."""
    game_class = CoreGame if implementation == "compiled" else Game
    ends_seen = {True: 0, False: 0}
    for num_players, seed in ((2, 11), (3, 12), (4, 13), (2, 14), (3, 15), (4, 16)):
        state = game_class(num_players).new_initial_state(seed)
        twin = CoreGame(num_players).state_from_json(state.to_json())
        rng = random.Random(seed)
        while not state.is_terminal():
            assert state.turn_id() == twin.turn_id() == heuristics.turn_id(state)
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rng.choice(state.legal_actions())
                before, phase, player = state.turn_id(), state.phase, state.current_player()
                assert state.decision_mode() == (1 if phase == Phase.PYRAMID else 0)
                state.apply_action(action)
                twin.apply_action(action)
                old = old_turn_rule(phase, player, action, state)
                assert (before != NO_TURN and state.turn_id() != before) == old, (phase, action)
                ends_seen[old] += 1
                continue
            state.apply_action(action)
            twin.apply_action(action)
    assert ends_seen[True] > 300 and ends_seen[False] > 1000


def test_the_tree_needs_a_native_state(mid3):
    root, seat = mid3
    reference_root = Game(3).state_from_json(root.to_json())
    with pytest.raises(TypeError, match="NativeState"):
        native.NativeSearcher(reference_root, seat, NATIVE, 1)
    with pytest.raises(TypeError, match="NativeState"):
        native.prior(reference_root, seat, reference_root.legal_actions())
    assert isinstance(root, NativeState) and root.abi_version == native.ABI_VERSION == 4
    assert root.native_num_actions == A.NUM_ACTIONS
    # make_searcher says why it keeps a reference root off the native tree
    assert "NativeState" in ismcts.native_tree_blocker(reference_root, Params())
    with pytest.raises(OptionError, match="NativeState"):
        make_searcher(reference_root, seat, NATIVE, 1)


def test_the_native_tree_runs_where_the_spec_declares_native_search(mid3, monkeypatch):
    """Issue 32: the search reads the root's capability from the registry (`games.implementation_of`),
    not the root's type. The same compiled root runs the native tree, then, with the capability taken
    off the spec (the registry's answer for its Game class), the Python tree (and tree="native" says why); the core playout follows the declaration."""
    from burano_ai.games import get_spec, has_native_interface, implementation_of
    root, seat = mid3
    spec, implementation = implementation_of(root.game)
    assert (spec.key, implementation) == ("burano", "compiled") and has_native_interface(root)
    assert type(make_searcher(root, seat, Params(), 1)).__name__ == "NativeSearcher"
    import dataclasses
    import burano_ai.games as registry
    undeclared = dataclasses.replace(spec, capabilities=spec.capabilities - {"native_search"})
    monkeypatch.setitem(registry._implementations, type(root.game), (undeclared, "compiled"))
    assert not has_native_interface(root)
    blocker = ismcts.native_tree_blocker(root, Params())
    assert "does not declare the native_search capability" in blocker, blocker
    assert isinstance(make_searcher(root, seat, Params(), 1), Searcher)
    with pytest.raises(OptionError, match="native_search"):
        make_searcher(root, seat, NATIVE, 1)
    from burano_ai.search.evaluators import random_playout

    def ends(play) -> dict:
        state = root.clone()
        play(state)
        assert state.is_terminal()
        return state.to_dict()

    generic, in_c = ends(lambda s: random_playout(s, 5)), ends(lambda s: s.playout(5, "random"))
    assert generic != in_c                      # the two playouts tell apart which one ran
    assert ends(lambda s: CorePlayout("random").play(s, 5)) == generic        # not declared: Python's
    monkeypatch.undo()
    assert ismcts.native_tree_blocker(root, Params()) is None
    assert ends(lambda s: CorePlayout("random").play(s, 5)) == in_c           # declared: the core's
    kuhn = get_spec("kuhn-poker").new_game(2).new_initial_state(0)
    assert implementation_of(kuhn.game) == (get_spec("kuhn-poker"), "python") and not has_native_interface(kuhn)

    class OwnGame:                              # a user's own Game, in no registry entry
        num_players = 2
    assert implementation_of(OwnGame()) is None


def test_the_native_tree_cimports_no_game():
    """`_native.pyx` reaches a game only through `burano_ai.core._game`: no cimport or import of a
    game module (`burano_ai.games...`), nor of a game's C vocabulary."""
    source = (Path(__file__).resolve().parent.parent / "src_cython" / "burano_ai" / "search" / "_native.pyx").read_text(
        encoding="utf-8")
    imports = re.findall(r"^\s*(?:from\s+(\S+)\s+c?import|c?import\s+(\S+))", source, re.M)
    modules = {a or b for a, b in imports}
    assert "burano_ai.core._game" in modules
    assert not [m for m in modules if m.startswith("burano_ai.games")], modules
    assert not re.search(r"\b(StateC|GameC|PH_PYRAMID|MAX_ACTIONS|MAX_PLAYERS|NUM_COLOURS|A_PYRAMID|A_DONE)\b",
                         source)


def test_node_and_slot_sizes():
    """A node record stays 32 bytes with int32 action ids (the prior lives outside it), a slot 12."""
    assert native.NativeSearcher.node_bytes() == (32, 12)


# ------------------------------------------------------------------------------------------------
# Agreement with the Python searcher


@pytest.mark.parametrize("build, iterations, good", [
    (triples_puzzle, 300, lambda r: r.move.startswith("build green@") and "sell triples tuna,squid" in r.plan),
    (roof_puzzle, 200, lambda r: r.move == "roof 1 c3-e3"),
    (fishing_puzzle, 200, lambda r: r.move == "sail I3"),
    (lace_puzzle, 200, lambda r: r.move in ("lace r2c6", "lace r3c5")),
    (earning_puzzle, 200, lambda r: r.move.startswith("build pink@") and r.plan.count("recall") == 3),
    (pyramid_puzzle, 400, lambda r: r.move == "pyramid green"),   # the Python test uses a horizon here
])
def test_native_tree_solves_the_puzzles(build, iterations, good):
    for seed in (0, 1):
        r = suggest(to_core(build()), limit=Limit(iterations=iterations), seed=seed, params=NATIVE, threads=1)
        assert good(r), (seed, r.move, r.plan)


@pytest.mark.parametrize("num_players, seed, season, round_", [(3, 1, 2, 2), (3, 7, 3, 1)])
def test_native_and_python_trees_agree_on_normal_positions(num_players, seed, season, round_):
    """Same top move (or overlapping top two) summed over 4 seeds; the top move's win chance within
    4 standard errors, from the spread between seeds (and no less than the binomial error)."""
    root, seat = root_for(position(num_players, seed, season, round_))
    runs = 4
    results = {}
    for tree in ("python", "native"):
        params = Params(tree=tree)
        summaries = []
        for k in range(runs):
            searcher = make_searcher(root, seat, params, ismcts.worker_seed(k, 0))
            searcher.run(iterations=2000)
            summaries.append(searcher.summary())
        results[tree] = summaries
    total = {tree: merge_summaries(s)["plan"] for tree, s in results.items()}
    top = {tree: sorted(plan, key=lambda a: -plan[a][0])[:2] for tree, plan in total.items()}
    assert top["python"][0] == top["native"][0] or set(top["python"]) & set(top["native"]), top
    best = top["python"][0]

    def estimate(summaries):
        per_run = [s["root_stats"][best][0] / s["plan"][best][0] for s in summaries if best in s["plan"]]
        visits = sum(s["plan"][best][0] for s in summaries if best in s["plan"])
        p = sum(s["root_stats"][best][0] for s in summaries if best in s["plan"]) / visits
        error = max(statistics.stdev(per_run) / math.sqrt(len(per_run)), math.sqrt(p * (1 - p) / visits))
        return p, error

    (p_py, e_py), (p_nat, e_nat) = estimate(results["python"]), estimate(results["native"])
    assert abs(p_py - p_nat) <= 4 * math.hypot(e_py, e_nat), (p_py, e_py, p_nat, e_nat)


# ------------------------------------------------------------------------------------------------
# Honesty: the search reads only what the seat knows


def test_no_peeking_at_blind_cards_and_the_fish_deck():
    state = to_core(mid_game(3, 21))
    seat = state.current_player()
    other = next(c for c in (state.resample(seat, k) for k in range(50)) if c.to_json() != state.to_json())
    assert other.to_json(seat) == state.to_json(seat)
    limit = Limit(iterations=300)
    assert comparable(suggest(other, limit=limit, seed=5, params=NATIVE, threads=1)) == \
        comparable(suggest(state, limit=limit, seed=5, params=NATIVE, threads=1))


def test_no_peeking_at_pyramids_being_built():
    ref = Game(3).new_initial_state(9)
    play_random(ref, random.Random(9), until=lambda s: s.stage == ST_PYRAMID and s.order_index == 1)
    state = to_core(ref)
    seat = state.current_player()
    earlier = ref.turn_order()[0]
    assert state.pyramid_count(earlier) > 0 and state.pyramid_count(seat) == 0
    other = next(c for c in (state.resample(seat, k) for k in range(50))
                 if c.players[earlier].pyramid != state.players[earlier].pyramid)
    assert other.to_json(seat) == state.to_json(seat)
    limit = Limit(iterations=60)
    first = suggest(state, limit=limit, seed=2, params=NATIVE, threads=1)
    assert comparable(suggest(other, limit=limit, seed=2, params=NATIVE, threads=1)) == comparable(first)
    assert all(A.family(c.action) == "PYRAMID" for c in first.candidates)


# ------------------------------------------------------------------------------------------------
# Root-parallel workers and the tree option


def test_two_workers_run_the_native_tree_reproducibly(mid3):
    root, seat = mid3
    limit = Limit(iterations=400)
    merged = run_search(root, seat, limit, Params(), seed=11, workers=2)
    in_process = merge_summaries([native_summary(root, seat, share, ismcts.worker_seed(11, w), Params())
                                  for w, share in enumerate(limit.split(2))])
    assert without_elapsed(merged) == {**without_elapsed(in_process), "threads": 1, "notes": []}
    state = to_core(mid_game(3, 21))
    assert comparable(suggest(state, limit=limit, seed=11, workers=2)) == \
        comparable(suggest(state, limit=limit, seed=11, workers=2))
    python = suggest(state, limit=limit, seed=11, workers=2, params=Params(tree="python"))
    assert comparable(python) != comparable(suggest(state, limit=limit, seed=11, workers=2))


def test_tree_option_is_validated_and_chooses_the_implementation(mid3):
    root, seat = mid3
    for bad in (dict(tree="c"), dict(tree=None), dict(tree="native", evaluator=HorizonEstimate(1)),
                dict(tree="native", evaluator=LeafEstimate())):
        with pytest.raises(OptionError):
            Params(**bad)
    assert isinstance(make_searcher(root, seat, Params(), 1), native.NativeSearcher)
    assert isinstance(make_searcher(root, seat, Params(evaluator=CorePlayout("heuristic")), 1),
                      native.NativeSearcher)
    for params in (Params(tree="python"), Params(evaluator=HorizonEstimate(1)), Params(evaluator=LeafEstimate()),
                   Params(evaluator=PythonPlayout(random_playout))):
        assert type(make_searcher(root, seat, params, 1)) is Searcher
    reference_root = canonical_root(mid_game(3, 21), seat, Game)
    assert type(make_searcher(reference_root, seat, Params(), 1)) is Searcher
    with pytest.raises(OptionError, match="compiled"):
        make_searcher(reference_root, seat, NATIVE, 1)
    with pytest.raises(OptionError, match="Python playout"):
        make_searcher(root, seat, Params(tree="native", evaluator=PythonPlayout(random_playout)), 1)
    with pytest.raises(OptionError, match="compiled"):
        suggest(mid_game(3, 21), limit=Limit(iterations=10), workers=2, params=NATIVE)


def test_playout_option_chooses_the_core_policy(mid3):
    root, seat = mid3
    heuristic = Params(tree="native", playout_policy="heuristic")
    first = summary_of(make_searcher(root, seat, heuristic, 4), 200)
    assert first == summary_of(make_searcher(root, seat, heuristic, 4), 200)
    same = Params(tree="native", evaluator=CorePlayout("heuristic"))
    assert first == summary_of(make_searcher(root, seat, same, 4), 200)
    uniform = Params(tree="native", playout_policy="random")
    assert first != summary_of(make_searcher(root, seat, uniform, 4), 200)
    assert Params().playout_policy == "heuristic"
    # The Python tree plays out with the same core policy; the reference model has only uniform playouts.
    assert Searcher(root, seat, Params(tree="python"), 1).evaluator == CorePlayout("heuristic")
    assert Searcher(root, seat, Params(tree="python", playout_policy="random"), 1).evaluator == CorePlayout("random")
    with pytest.raises(OptionError, match="playout must be one of heuristic, random"):
        Params(playout_policy="smart")


def python_edges(searcher: Searcher) -> list[tuple[int, int, int, float, int]]:
    """`NativeSearcher.edges()` of a Python search tree."""
    out, stack = [], [searcher.root]
    while stack:
        node = stack.pop()
        for action, child in (node.children or {}).items():
            out.append((node.player, action, child.visits, child.value, child.avail))
            stack.append(child)
    return out


def test_every_edge_is_scored_for_the_seat_that_chose_it():
    """Over the whole tree, the mean value of the edges each seat chose agrees between the trees (and
    the winning seat's edges score higher than its opponent's): rewards go to the chooser."""
    root, seat = root_for(to_core(mid_game(2, 13, blind=False)))
    python = Searcher(root, seat, Params(), 5)
    python.run(iterations=1500)
    searcher = native.NativeSearcher(root, seat, NATIVE, 5)
    searcher.run(iterations=1500)
    means = {}
    for name, edges in (("python", python_edges(python)), ("native", searcher.edges())):
        assert all(avail >= visits >= 0 for _, _, visits, _, avail in edges)
        assert len(edges) + 1 == (python.root.count() if name == "python" else searcher.nodes)
        means[name] = {}
        for chooser in (seat, 1 - seat):
            visits = sum(v for c, _, v, _, _ in edges if c == chooser)
            means[name][chooser] = sum(value for c, _, _, value, _ in edges if c == chooser) / visits
    for chooser in (seat, 1 - seat):
        assert abs(means["python"][chooser] - means["native"][chooser]) < 0.1, means
    assert means["native"][seat] > 0.5 > means["native"][1 - seat], means


@pytest.mark.slow
def test_spawned_workers_match_forked_workers_on_the_native_tree():
    state = to_core(mid_game(3, 21))
    limit = Limit(iterations=200)
    forked = suggest(state, limit=limit, seed=2, workers=2, params=Params(tree="native", start_method="fork"))
    spawned = suggest(state, limit=limit, seed=2, workers=2, params=Params(tree="native", start_method="spawn"))
    assert comparable(forked) == comparable(spawned)
