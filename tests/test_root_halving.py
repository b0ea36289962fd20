"""Sequential halving at the root (`Params.root` = "halving", issue 33): the schedule (the same in Python
and C), the visits it gives the root's moves in both trees, and its options.

Why: UCB at the root can starve a move whose value shows only deeper: once another move is ahead, the
starved one never gets the visits that would show it. Halving brings every alive move to the same
visits before it drops the worse half by mean, and the last two share the rest of the search.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from burano_ai.bots import make_bot
from burano_ai.core.errors import OptionError
from burano_ai.engine import suggest
from burano_ai.games import get_spec
from burano_ai.search import Limit, Params
from burano_ai.search.ismcts import make_searcher
from burano_ai.search.params import halving_schedule

_native = pytest.importorskip("burano_ai.search._native")

ROOT = Path(__file__).resolve().parents[1]
V0 = 4          # small first-phase visits: a few hundred iterations reach the last two moves


@pytest.fixture(scope="module")
def azul_root():
    """Azul 2p's first decision (25 legal moves), after its deal."""
    state = get_spec("azul-sintra").new_game(2).new_initial_state(3)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert len(state.legal_actions()) == 25
    return state


def expected_visits(m0: int, v0: int, budget: int) -> list[int]:
    """The root moves' visits, sorted, after `budget` iterations on one thread once the last two share the
    search: the moves dropped after phase k keep exactly t_k, the last two split the rest within one."""
    out, phase, spent = [], 0, 0
    while True:
        alive, target = halving_schedule(v0, m0, phase)
        if alive <= 2:
            break
        keep = halving_schedule(v0, m0, phase + 1)[0]
        out += [target] * (alive - keep)
        spent += (alive - keep) * target
        phase += 1
    rest = budget - spent
    return sorted(out + [rest // 2, rest - rest // 2])


def root_visits(searcher) -> dict[int, int]:
    return {a: edge[0] for a, edge in searcher.summary()["plan"].items()}


# --- the schedule


def test_the_c_schedule_is_the_python_schedule():
    for v0 in (1, 2, 3, 16, 32, 64):
        for m0 in range(1, 60):
            for phase in range(10):
                assert _native.halving_schedule(v0, m0, phase) == halving_schedule(v0, m0, phase), (v0, m0, phase)


def test_every_phase_halves_the_moves_and_costs_about_the_first_phase():
    for v0 in (1, 16, 32):
        for m0 in range(3, 60):
            alive, target = halving_schedule(v0, m0, 0)
            assert (alive, target) == (m0, v0)
            for phase in range(1, 8):
                m, t = halving_schedule(v0, m0, phase)
                if alive <= 2:
                    assert (m, t) == (alive, target)        # no phase after the last two
                    continue
                assert m == max(2, -(-alive // 2))
                assert v0 * m0 <= m * (t - target) < v0 * m0 + m      # each alive move gets ceil(v0*m0/m) more
                alive, target = m, t
    assert halving_schedule(32, 2, 5) == (2, 32) and halving_schedule(32, 1, 3) == (1, 32)


# --- the search


@pytest.mark.parametrize("tree", ["native", "python"])
def test_halving_gives_the_alive_moves_equal_visits_and_the_last_two_the_rest(azul_root, tree):
    params = Params(tree=tree, root="halving", halving_visits=V0)
    seat = azul_root.current_player()
    searcher = make_searcher(azul_root, seat, params, seed=5)
    searcher.run(iterations=1000)
    first = searcher.summary()["plan"]
    visits = root_visits(searcher)
    assert len(visits) == 25
    assert sorted(visits.values()) == expected_visits(25, V0, 1000)
    last_two = sorted(visits, key=visits.get)[-2:]
    dropped = {a: v for a, v in visits.items() if a not in last_two}
    searcher.run(iterations=400)
    more = root_visits(searcher)
    assert {a: more[a] for a in dropped} == dropped                 # a dropped move gets no more visits
    assert abs(more[last_two[0]] - more[last_two[1]]) <= 1 and sum(more.values()) == 1400
    # The same seed and budget, the same search.
    again = make_searcher(azul_root, seat, params, seed=5)
    again.run(iterations=1000)
    assert again.summary()["plan"] == first


@pytest.mark.parametrize("tree", ["native", "python"])
def test_halving_keeps_the_best_half_by_mean(azul_root, tree):
    """At the first phase's end the 13 moves kept are the best by mean value: every move dropped there (it
    stays at the first phase's visits) had a mean at most that of every move kept."""
    params = Params(tree=tree, root="halving", halving_visits=V0)
    searcher = make_searcher(azul_root, azul_root.current_player(), params, seed=2)
    searcher.run(iterations=25 * V0)      # the first phase, complete
    plan = searcher.summary()["plan"]
    assert all(edge[0] == V0 for edge in plan.values())
    searcher.run(iterations=300)
    after = root_visits(searcher)
    kept = {a for a, v in after.items() if v > V0}
    assert len(kept) == 13
    means = {a: edge[1] / edge[0] for a, edge in plan.items()}
    assert max(means[a] for a in plan if a not in kept) <= min(means[a] for a in kept)
    if tree == "python":
        assert searcher.halving_phase >= 1 and searcher.halving_alive <= kept


def test_threads_spread_over_the_alive_moves(azul_root):
    params = Params(tree="native", root="halving", halving_visits=V0)
    searcher = make_searcher(azul_root, azul_root.current_player(), params, seed=5)
    searcher.run(iterations=1000, threads=2, min_iteration_us=0)
    got = sorted(root_visits(searcher).values())
    want = expected_visits(25, V0, 1000)
    # A move can pass its target by the iterations in flight elsewhere (one per other thread); which moves
    # are dropped may differ, their visits hardly.
    assert len(got) == 25 and sum(got) == 1000
    assert all(abs(g - w) <= 2 for g, w in zip(got[:-2], want[:-2])), (got, want)
    assert abs(got[-1] - got[-2]) <= 2, got


def test_ucb_stays_the_default_and_a_one_move_root_is_searched_as_before(azul_root):
    assert Params().root == "ucb"
    seat = azul_root.current_player()
    only = azul_root.legal_actions()[7]
    for tree in ("native", "python"):
        plans = []
        for root in ("ucb", "halving"):
            searcher = make_searcher(azul_root, seat, Params(tree=tree, root=root), seed=3, root_actions=[only])
            searcher.run(iterations=300)
            plans.append(searcher.summary()["plan"])
        assert plans[0] == plans[1] and list(plans[0]) == [only]


# --- options


@pytest.mark.parametrize("changes", [dict(root="halve"), dict(root=None), dict(halving_visits=0),
                                     dict(halving_visits=2.5), dict(halving_visits=True)])
def test_bad_root_options_are_refused(changes):
    with pytest.raises(OptionError, match="root|halving_visits"):
        Params(**changes)


def test_bot_spec_root_options():
    bot = make_bot("ismcts:iterations=100,root=halving,halving_visits=8", seed=1, game="azul-sintra")
    assert bot.params.root == "halving" and bot.params.halving_visits == 8
    for spec in ("ismcts:root=bad", "ismcts:halving_visits=0"):
        with pytest.raises(OptionError, match="root|halving_visits"):
            make_bot(spec, seed=1, game="azul-sintra")


def test_a_bad_root_on_the_command_line_is_one_line_and_exit_2():
    out = subprocess.run([sys.executable, str(ROOT / "cli.py"), "suggest", "--game", "goofspiel", "--iterations", "100",
                          "--root", "halve"], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")})
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "root must be one of ucb, halving" in out.stderr, \
        out.stderr


def test_halving_does_not_starve_a_move_whose_value_shows_deeper():
    """Walking in Burano, decision 49 of seed_agreement's game 1 (tests/data/wib-starved-return.json):
    `return 55` looks 0.79 at ~1,300 visits, below `return 42`, and UCB stops visiting it after ~8,000
    iterations; searched deeper it is worth as much as `return 42` (0.87). Halving gives the two of them
    the same visits, and the answer names them tied."""
    state = (ROOT / "tests" / "data" / "wib-starved-return.json").read_text()
    spec = get_spec("walking-in-burano")
    results = {root: suggest(state, limit=Limit(iterations=20_000), params=Params(**{**spec.search_defaults,
                                                                                      "root": root}),
                             seed=1, threads=1) for root in ("ucb", "halving")}
    ucb = {c.move: c for c in results["ucb"].candidates}
    assert results["ucb"].move == "return 42" and not results["ucb"].tied
    assert ucb["return 55"].visits * 5 < ucb["return 42"].visits                      # starved
    assert ucb["return 55"].value < ucb["return 42"].value - 0.05
    halving = {c.move: c for c in results["halving"].candidates}
    assert abs(halving["return 55"].visits - halving["return 42"].visits) <= 1
    assert abs(halving["return 55"].value - halving["return 42"].value) < 0.02      # as good, once searched
    assert {c.move for c in results["halving"].tied} == {"return 42", "return 55"}
