"""Answers that settle honestly (issue 33's starved root, issue 34 item 11): independent trees in one
process (`suggest(trees=K)`), their disagreement reported as a tie, and the runner-ups that `burano
suggest` checks on their own once its search settled (`engine.with_runner_ups_checked`).

Why: on the README's example both roofs reach a value of 0.58 when searched deeply, but the one a tree
locked onto first keeps the visits and the other stays at 0.39-0.41 from a few thousand; a search could
report either as settled. A runner-up searched on its own as deep as the suggestion shows its real value.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from burano_ai.core.errors import OptionError
from burano_ai.engine import suggest, with_runner_ups_checked
from burano_ai.games import get_spec
from burano_ai.search import Limit, Params
from burano_ai.search.result import LCB_Z, Candidate, SearchResult, tie_text, tied_candidates

ROOT = Path(__file__).resolve().parents[1]


def _cli(*args, timeout=120):
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True,
                          timeout=timeout,
                          env={**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")})


def candidate(action: int, visits: int, value: float, stderr: float = 0.005) -> Candidate:
    return Candidate(action=action, move=f"m{action}", visits=visits, value=value, win_prob=value,
                     expected_vp=0.0, expected_margin=0.0, lcb=value - LCB_Z * stderr)


def result_of(candidates, **kw) -> SearchResult:
    first = candidates[0]
    return SearchResult(seat=0, action=first.action, move=first.move, candidates=tuple(candidates), pv=(),
                        iterations=sum(c.visits for c in candidates), elapsed=1.0, iterations_per_second=1.0,
                        seed=1, **kw)


@pytest.fixture(scope="module")
def goofspiel_example() -> str:
    return get_spec("goofspiel").example_position()


# --- independent trees in one process


def test_trees_are_the_root_parallel_workers_search_in_threads(goofspiel_example):
    """The same seeds and shares as `workers`: with an iteration budget the same answer, reproducibly."""
    limit = Limit(iterations=1200)
    trees = suggest(goofspiel_example, limit=limit, seed=7, trees=2)
    again = suggest(goofspiel_example, limit=limit, seed=7, trees=2)
    workers = suggest(goofspiel_example, limit=limit, seed=7, workers=2)
    assert trees.iterations == 1200 and trees.trees == 2 and trees.threads == 1
    assert trees.mode == "2 trees, a thread each" and trees.deterministic
    assert len(trees.tree_moves) == 2
    strip = lambda r: [(c.action, c.visits, round(c.value, 12)) for c in r.candidates]   # noqa: E731
    assert strip(trees) == strip(again) == strip(workers)
    assert trees.tree_moves == workers.tree_moves
    data = trees.to_dict()
    assert data["trees"] == 2 and len(data["tree_moves"]) == 2


def test_trees_stream_reports_and_stop(goofspiel_example):
    import threading
    stop = threading.Event()
    seen = []

    def on_report(partial):
        seen.append(partial)
        stop.set()

    result = suggest(goofspiel_example, limit=Limit(seconds=30), seed=1, trees=2, on_report=on_report,
                     report_every=0.05, stop=stop)
    assert seen and all(p.partial and p.trees == 2 for p in seen)
    assert result.stopped and result.iterations >= 2 and result.elapsed < 20


@pytest.mark.parametrize("options", [dict(trees=0), dict(trees=True), dict(trees=2, threads=2),
                                     dict(trees=2, workers=2), dict(trees=65)])
def test_bad_tree_options_are_refused(goofspiel_example, options):
    with pytest.raises(OptionError, match="trees"):
        suggest(goofspiel_example, limit=Limit(iterations=10), **options)


def test_bad_tree_options_on_the_command_line_are_one_line_and_exit_2():
    out = _cli("suggest", "--game", "goofspiel", "--trees", "2", "--threads", "2", "--iterations", "100")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "trees" in out.stderr, out.stderr


# --- disagreement is a tie


def test_a_move_another_tree_chose_is_tied_whatever_its_statistics():
    best, starved, other = candidate(1, 10_000, 0.60), candidate(2, 500, 0.40), candidate(3, 400, 0.35)
    assert tied_candidates([best, starved, other]) == ()
    assert tied_candidates([best, starved, other], (1, 2)) == (best, starved)
    agreed = result_of([best, starved, other], tree_moves=(1, 1), trees=2)
    assert not agreed.tied and not agreed.trees_disagree
    split = result_of([best, starved, other], tree_moves=(1, 2), trees=2)
    assert split.tied == (best, starved) and split.trees_disagree
    assert "independent trees chose different moves" in split.tie_text
    assert "independent trees" not in tie_text((best, starved))


# --- runner-ups checked on their own


def test_a_starved_runner_up_checked_on_its_own_is_ranked_by_its_own_search():
    best, starved, far = candidate(1, 30_000, 0.50), candidate(2, 6_000, 0.41), candidate(3, 3_000, 0.37)
    result = result_of([best, starved, far])
    assert not result.tied
    deep = result_of([candidate(2, 30_000, 0.47)])            # its own search: as deep as the suggestion
    checked = with_runner_ups_checked(result, [deep])
    assert checked.move == "m1" and [c.move for c in checked.tied] == ["m1", "m2"]
    assert checked.candidates[1].visits == 30_000
    assert checked.iterations == result.iterations + deep.iterations
    assert any(n.startswith("checked m2 on its own: 30,000 iterations, value 0.470 (it had 0.410 from 6,000 "
                            "visits beside m1, 0.500)") for n in checked.notes), checked.notes
    better = with_runner_ups_checked(result, [result_of([candidate(2, 30_000, 0.58)])])
    assert better.move == "m2" and better.action == 2 and not better.tied      # 0.08 clear: it is the answer
    assert with_runner_ups_checked(result, []) is result


def test_the_readme_example_no_longer_settles_on_a_starved_roof():
    """Regression (issue 34's must-show, the README's 5 seeds): seed 4 at 120,000 iterations, two trees —
    both trees lock onto `roof 1 c5-c3` (0.50) and leave `roof 3 e5-e7` 6,274 visits at 0.41, with no tie:
    the suggestion looked settled. Searched on its own as deep, e5-e7 is as good, and the answer says so."""
    from burano_ai.engine import check_runner_ups
    from burano_ai.engine import suggest as engine_suggest
    state = get_spec("burano").example_position()
    # the heuristic playout alone (the default before Burano's 4-player net): the search that starved the roof
    options = dict(limit=Limit(iterations=120_000), seed=4, trees=2, threads=1, params=Params())
    result = engine_suggest(state, **options)
    assert result.move == "roof 1 c5-c3" and not result.tied and not result.trees_disagree    # before the fix
    checked = check_runner_ups(state, result, 2, **options)
    assert checked.tied and {c.move for c in checked.tied} >= {"roof 1 c5-c3", "roof 3 e5-e7"}, checked.notes
    assert any(n.startswith("checked roof 3 e5-e7 on its own: ") for n in checked.notes), checked.notes


def test_check_runner_ups_searches_the_runner_ups_of_highest_value_each_on_its_own():
    import threading

    from burano_ai.engine import check_runner_ups
    state = get_spec("goofspiel").new_game(2).new_initial_state(3)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    # the bids drawn from the prior: with Goofspiel's bandit bids (its default) no runner-up is searched alone
    # (tests/test_simultaneous.py)
    options = dict(seed=7, threads=1, game="goofspiel",
                   params=Params(**{**get_spec("goofspiel").search_defaults, "secret": "prior"}))
    result = suggest(state, limit=Limit(iterations=600), **options)
    seen = []
    checked = check_runner_ups(state, result, 2, on_check=lambda k, n, c: seen.append((k, n, c.action)), **options)
    by_value = sorted(result.candidates[1:], key=lambda c: (-c.value, -c.visits, c.action))[:2]
    assert [(k, n, a) for k, n, a in seen] == [(0, 2, by_value[0].action), (1, 2, by_value[1].action)]
    assert sum(n.startswith("checked ") for n in checked.notes) == 2
    assert checked.iterations == result.iterations + 2 * result.best.visits      # each as deep as the best move
    again = check_runner_ups(state, result, 2, **options)
    assert again.candidates == checked.candidates                                 # seeds derive from the result's
    assert check_runner_ups(state, result, 0, **options) is result
    stopped = threading.Event()
    stopped.set()
    assert check_runner_ups(state, result, 2, stop=stopped, **options) is result
    with pytest.raises(OptionError, match="runner-ups to check must be 0 or more"):
        check_runner_ups(state, result, -1, **options)
