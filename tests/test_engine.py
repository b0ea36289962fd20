"""The engine facade `suggest`: input checking, input forms, results, workers and progress."""

from __future__ import annotations

import json
import random

import pytest

from burano_ai.engine import load_position, parse_seat, suggest
from burano_ai.core.errors import BuranoError, OptionError, PositionError
from burano_ai.games.burano.reference import Game
from burano_ai.games.burano.reference.state import TURN
from burano_ai.search import Limit, Params, SearchResult
from burano_ai.search.evaluators import HorizonEstimate

from positions import play_random, rounds_state


def comparable(result: SearchResult) -> dict:
    d = result.to_dict()
    for key in ("elapsed", "iterations_per_second"):
        d.pop(key)
    return d


@pytest.fixture(scope="module")
def start():
    return rounds_state(2, 3)


@pytest.fixture(scope="module")
def later():
    """A 3-player turn start in summer."""
    s = Game(3).new_initial_state(4)
    play_random(s, random.Random(4), until=lambda x: x.season == 1 and x.phase == TURN and x.moves == 0)
    return s


# --- results


def test_result_ranks_candidates_and_renders_a_plan(start):
    r = suggest(start, limit=Limit(iterations=80), seed=3)
    assert isinstance(r, SearchResult)
    assert r.seat == start.actor and r.iterations == 80 and r.iterations_per_second > 0
    assert r.move == r.candidates[0].move and r.action == r.candidates[0].action
    assert r.move in {start.action_to_string(a) for a in start.legal_actions()}
    visits = [c.visits for c in r.candidates]
    assert visits == sorted(visits, reverse=True) and sum(visits) == 80
    for c in r.candidates:
        assert 0.0 <= c.win_prob <= 1.0 and 0.0 <= c.value <= 1.0
    assert r.pv[0].move == r.move
    assert r.plan == " → ".join(step.move for step in r.pv)
    d = json.loads(json.dumps(r.to_dict()))
    assert d["seat"] == "AB"[start.actor] and d["plan"] == r.plan and len(d["candidates"]) == len(r.candidates)
    assert "visits" in str(r)


def test_plan_stops_at_the_end_of_the_turn(later):
    r = suggest(later, limit=Limit(iterations=60), seed=2, params=Params(evaluator=HorizonEstimate(1)))
    moves = [step.move for step in r.pv]
    assert "done" not in moves[:-1]


def test_json_text_dict_and_state_give_the_same_search(later):
    limit = Limit(iterations=30)
    by_state = comparable(suggest(later, limit=limit, seed=8))
    # JSON loads into the compiled core by default; name the reference Game to compare like with like.
    assert comparable(suggest(later.to_json(), limit=limit, seed=8, game_factory=Game)) == by_state
    assert comparable(suggest(json.loads(later.to_json()), limit=limit, seed=8, game_factory=Game)) == by_state
    assert comparable(suggest(later, seat="abc"[later.actor].upper(), limit=limit, seed=8)) == by_state


def test_single_legal_move_is_returned_at_once():
    s = rounds_state(2, 1)
    s.play("take top")
    s.moves = 4                                  # all four moves made and no privilege: only "done"
    s.players[s.actor].privilege = 0
    assert len(s.legal_actions()) == 1
    r = suggest(s, limit=Limit(iterations=1000), seed=0)
    assert r.iterations == 0 and r.move == "done" and r.plan == "done"
    assert any("only one legal move" in note for note in r.notes)


def test_progress_is_reported(start):
    seen = []
    suggest(start, limit=Limit(iterations=25), seed=1, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1] == (25, 25)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_time_limit_cuts_a_large_iteration_budget(start):
    r = suggest(start, limit=Limit(iterations=10**7, seconds=0.2), seed=1)
    assert 0 < r.iterations < 10**7
    assert any("time limit" in note for note in r.notes)


def test_seconds_only_budget(start):
    r = suggest(start, limit=Limit(seconds=0.2), seed=1, params=Params(evaluator=HorizonEstimate(1)))
    assert r.iterations > 0 and r.candidates


# --- workers


def test_two_workers_are_reproducible(later):
    limit = Limit(iterations=40)
    params = Params(evaluator=HorizonEstimate(1))
    first = suggest(later, limit=limit, seed=6, workers=2, params=params)
    second = suggest(later, limit=limit, seed=6, workers=2, params=params)
    assert comparable(first) == comparable(second)
    assert first.iterations == 40 and first.workers == 2
    assert sum(c.visits for c in first.candidates) == 40


def test_workers_report_progress(later):
    seen = []
    suggest(later, limit=Limit(iterations=30), seed=6, workers=2, params=Params(evaluator=HorizonEstimate(1)),
            progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1][1] == 30 and seen[-1][0] <= 30


@pytest.mark.slow
def test_two_spawned_workers_match_two_forked_workers(later):
    limit = Limit(iterations=30)
    forked = suggest(later, limit=limit, seed=2, workers=2, params=Params(evaluator=HorizonEstimate(1), start_method="fork"))
    spawned = suggest(later, limit=limit, seed=2, workers=2, params=Params(evaluator=HorizonEstimate(1), start_method="spawn"))
    assert comparable(forked) == comparable(spawned)


def test_more_workers_than_iterations(start):
    r = suggest(start, limit=Limit(iterations=2), seed=1, workers=3, params=Params(evaluator=HorizonEstimate(1)))
    assert r.iterations == 2


# --- bad input


def test_unknown_seat(start):
    for seat in ("E", "C", 2, -1, "north", 1.0, True):
        with pytest.raises((OptionError, TypeError), match="seat"):
            suggest(start, seat=seat, limit=Limit(iterations=5))


def test_seat_not_to_move(start):
    other = 1 - start.actor
    with pytest.raises(OptionError, match="not to move"):
        suggest(start, seat=other, limit=Limit(iterations=5))


def test_terminal_position():
    s = rounds_state(2, 2)
    play_random(s, random.Random(2))
    assert s.is_terminal()
    with pytest.raises(PositionError, match="game is over"):
        suggest(s, limit=Limit(iterations=5))


def test_chance_node():
    s = rounds_state(2, 2)
    play_random(s, random.Random(7), until=lambda x: x.is_chance_node())
    with pytest.raises(PositionError, match="chance"):
        suggest(s, limit=Limit(iterations=5))


def test_bad_budgets_and_options(start):
    with pytest.raises(OptionError, match="at least 1"):
        suggest(start, limit=Limit(iterations=0))
    with pytest.raises(OptionError, match="positive"):
        Limit(seconds=0)
    for workers in (0, -1, 65, 1.5, "2"):
        with pytest.raises(OptionError, match="workers"):
            suggest(start, limit=Limit(iterations=5), workers=workers)
    with pytest.raises(OptionError, match="seed"):
        suggest(start, limit=Limit(iterations=5), seed="x")
    with pytest.raises(OptionError, match="limit"):
        suggest(start, limit=100)
    with pytest.raises(OptionError, match="params"):
        suggest(start, limit=Limit(iterations=5), params={"exploration": 1})


def test_bad_positions():
    with pytest.raises(PositionError, match="malformed JSON"):
        suggest("{not json", limit=Limit(iterations=5))
    with pytest.raises(PositionError, match="players"):
        suggest({"format": "burano-position/1", "players": 7}, limit=Limit(iterations=5))
    with pytest.raises(PositionError):
        suggest(42, limit=Limit(iterations=5))
    with pytest.raises(PositionError):
        suggest('{"format": "burano-position/1", "players": 2}', limit=Limit(iterations=5))


def test_a_view_is_searched_only_for_its_own_seat(later):
    seat = later.actor
    other = (seat + 1) % 3
    view = later.to_json(other)
    with pytest.raises(OptionError, match="view"):
        suggest(view, limit=Limit(iterations=5))
    state, view_seat = load_position(later.to_json(seat))
    assert view_seat == seat and state.current_player() == seat


def test_every_error_is_a_value_error():
    assert issubclass(OptionError, BuranoError) and issubclass(PositionError, BuranoError)
    assert issubclass(BuranoError, ValueError)
    assert parse_seat("b", 3) == 1 and parse_seat(2, 3) == 2


# --- edge cases of the search (issue 10)


class NoLegalMove:
    """A State whose seat to move has no legal move (the core once read legal[0] of an empty list)."""

    def __init__(self, state) -> None:
        self._state = state

    def legal_actions(self):
        return []

    def __getattr__(self, name):
        return getattr(self._state, name)


def test_a_seat_without_a_legal_move_is_a_position_error(later):
    with pytest.raises(PositionError, match="no legal move"):
        suggest(NoLegalMove(later.clone()), limit=Limit(iterations=5))


def test_run_search_refuses_a_root_without_a_legal_move(later):
    from burano_ai.search.parallel import run_search
    for workers in (1, 2):
        with pytest.raises(PositionError, match="no legal move"):
            run_search(NoLegalMove(later.clone()), later.actor, Limit(iterations=5), Params(), workers=workers)


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("tree", ["native", "python"])
def test_every_search_runs_at_least_one_iteration(workers, tree):
    import burano_ai
    state = burano_ai.Game(3).new_initial_state(4) if tree == "native" else Game(3).new_initial_state(4)
    play_random(state, random.Random(4), until=lambda x: not x.is_chance_node() and len(x.legal_actions()) > 1)
    result = suggest(state, limit=Limit(seconds=1e-9), params=Params(tree=tree), workers=workers)
    assert result.iterations >= workers
    assert result.move and result.action in state.legal_actions()


def test_a_first_iteration_apart_keeps_an_iteration_budget_reproducible(later):
    alone = suggest(later, limit=Limit(iterations=60), seed=3, workers=2)
    timed = suggest(later, limit=Limit(iterations=60, seconds=3600), seed=3, workers=2)
    assert comparable(alone) == comparable(timed)


@pytest.mark.parametrize("limit, fragment", [
    (dict(iterations=2**63), "at most"),
    (dict(iterations=10**9 + 1), "at most"),
    (dict(seconds=86_401), "at most"),
    (dict(seconds=1e300), "at most"),
    (dict(seconds=float("inf")), "positive"),
    (dict(iterations=-1), "at least 1"),
])
def test_budgets_have_documented_ranges(limit, fragment):
    with pytest.raises(OptionError, match=fragment):
        Limit(**limit)
    Limit(iterations=10**9, seconds=86_400)     # the maxima themselves are fine


def test_bot_budgets_go_through_the_same_ranges():
    from burano_ai.bots import make_bot
    for spec in ("ismcts:iterations=2000000000", "ismcts:time=100000"):
        with pytest.raises(OptionError, match="at most"):
            make_bot(spec, 0)


# --- streaming: on_report, stop, allow_moves / avoid_moves (the API of the engine protocol and the web board)



def example():
    from importlib import resources
    return resources.files("burano_ai.games.burano.data").joinpath("examples/midgame-4p-C.json").read_text()


def test_reports_while_searching_do_not_change_a_one_thread_search():
    reports = []
    plain = suggest(example(), limit=Limit(iterations=1500), seed=4, threads=1)
    streamed = suggest(example(), limit=Limit(iterations=1500), seed=4, threads=1, on_report=reports.append,
                       report_every=0.01, stop=__import__("threading").Event())
    assert comparable(plain) == comparable(streamed)
    assert reports and all(r.partial and not r.stopped for r in reports)
    assert [r.iterations for r in reports] == sorted(r.iterations for r in reports)
    assert all(0 < r.iterations < 1500 for r in reports)
    assert not streamed.partial


def test_a_stop_event_ends_the_search_with_the_best_so_far():
    import threading
    stop = threading.Event()
    seen = []

    def on_report(partial):
        seen.append(partial.iterations)
        if len(seen) == 2:
            stop.set()

    result = suggest(example(), limit=Limit(seconds=600), threads=2, stop=stop, on_report=on_report,
                     report_every=0.05)
    assert result.stopped and result.to_dict()["stopped"] is True
    assert result.iterations >= seen[-1] and result.move == result.candidates[0].move
    assert any("stopped after" in note for note in result.notes)


def test_a_stop_set_before_the_search_still_answers():
    import threading
    stop = threading.Event()
    stop.set()
    result = suggest(example(), limit=Limit(iterations=10_000), threads=1, stop=stop)
    assert result.stopped and result.iterations == 1
    assert "stopped" not in suggest(example(), limit=Limit(iterations=5), threads=1).to_dict()


def test_allow_and_avoid_moves_restrict_the_root():
    state, view = load_position(example())
    moves = [state.action_to_string(a) for a in state.legal_actions()]
    allowed = suggest(state, view=view, limit=Limit(iterations=300), threads=1, allow_moves=moves[5:8])
    assert {c.move for c in allowed.candidates} == set(moves[5:8])
    by_id = suggest(state, view=view, limit=Limit(iterations=300), threads=1,
                    allow_moves=state.legal_actions()[5:8])
    assert comparable(by_id) == comparable(allowed)
    avoided = suggest(state, view=view, limit=Limit(iterations=300), threads=2, avoid_moves=moves[1:])
    assert [c.move for c in avoided.candidates] == moves[:1] and avoided.candidates[0].visits == 300


def test_allowed_moves_may_be_spelled_as_the_rules_parser_reads_them():
    result = suggest(example(), limit=Limit(iterations=50), threads=1, allow_moves=["TAKE  M2", "Done"])
    assert {c.move for c in result.candidates} == {"take m2", "done"}


def test_allow_and_avoid_moves_on_the_python_tree(start):
    moves = [start.action_to_string(a) for a in start.legal_actions()]
    result = suggest(start, limit=Limit(iterations=60), params=Params(tree="python"), allow_moves=moves[:2])
    assert {c.move for c in result.candidates} <= set(moves[:2])


@pytest.mark.parametrize("kwargs, message", [
    (dict(allow_moves=["fly"]), "allow_moves: 'fly' is not a legal move here"),
    (dict(avoid_moves=[99999]), "avoid_moves: action 99999 is not a legal move"),
    (dict(allow_moves="done"), "must be a list of moves"),
    (dict(allow_moves=[1.5]), "a move is a text or an action id"),
    (dict(allow_moves=["done"], avoid_moves=["done"]), "leave no move"),
    (dict(on_report=3), "on_report must be callable"),
    (dict(stop="now"), "stop must be a threading.Event"),
    (dict(on_report=print, report_every=0), "report_every must be a number"),
    (dict(on_report=print, workers=2, threads=1), "worker processes cannot report"),
    (dict(stop=__import__("threading").Event(), workers=2, threads=1), "worker processes"),
])
def test_streaming_options_are_checked(kwargs, message):
    with pytest.raises(OptionError, match=message):
        suggest(example(), limit=Limit(iterations=10), **kwargs)


def test_margin_spread_is_reported_per_candidate():
    result = suggest(example(), limit=Limit(iterations=500), threads=1)
    assert all(c.margin_stdev is not None and c.margin_stdev >= 0 for c in result.candidates)
    assert "margin_stdev" not in result.candidates[0].to_dict()


def test_the_python_tree_stops_and_reports_too(start):
    import threading
    stop = threading.Event()
    seen = []

    def on_report(partial):
        seen.append(partial.iterations)
        stop.set()

    result = suggest(start, limit=Limit(seconds=600), params=Params(tree="python"), stop=stop,
                     on_report=on_report, report_every=0.05)
    assert result.stopped and seen and result.iterations >= seen[0] and result.elapsed > 0
