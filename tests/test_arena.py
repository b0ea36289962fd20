"""The arena (burano_ai.arena and `burano arena`): seatings, seeds, determinism, statistics, output files."""

from __future__ import annotations

import csv
import importlib.util
import json
import math

import pytest

import cli
from burano_ai.arena import (RESULTS_SCHEMA, SCHEMA, SCHEMA_VERSION, ArenaConfig, elo_ratings, make_plan,
                             plackett_luce, run_arena, seatings_of, split_bot_list, wilson_interval)
from burano_ai.core.errors import OptionError

from burano_ai import Game

TINY = ArenaConfig(bots=("random", "greedy:samples=1"), players=2, games=4, seed=7, bootstrap=20)


def stable(result) -> dict:
    """The results without wall-clock measurements and the worker count."""
    d = json.loads(json.dumps(result.to_dict()))
    d.pop("elapsed")
    d["config"].pop("workers")
    d["config"].pop("backend")
    for g in d["games"]:
        g.pop("seconds")
        g.pop("think_seconds")
    for e in d["entries"]:
        for key in ("think_seconds", "seconds_per_decision", "iterations_per_second"):
            e.pop(key)
    return d


@pytest.fixture(scope="module")
def tiny_result():
    return run_arena(TINY, game_factory=Game)


# --- planning


@pytest.mark.parametrize("text, specs", [
    ("random,greedy", ["random", "greedy"]),
    ("ismcts:time=1.0,workers=2,greedy", ["ismcts:time=1.0,workers=2", "greedy"]),
    ("ismcts:iterations=5;mcts-pkg:iterations=3,c=1", ["ismcts:iterations=5", "mcts-pkg:iterations=3,c=1"]),
    ("openspiel-ismcts:iterations=9,evaluator=random, random", ["openspiel-ismcts:iterations=9,evaluator=random",
                                                                 "random"]),
])
def test_split_bot_list(text, specs):
    assert split_bot_list(text) == specs


@pytest.mark.parametrize("text", ["random,,greedy", "iterations=5,random", "random,c=1"])
def test_split_bot_list_errors(text):
    with pytest.raises(OptionError):
        split_bot_list(text)


def test_seatings():
    assert seatings_of((0, 1), "auto") == [(0, 1), (1, 0)]
    assert seatings_of((0, 1, 1, 1), "auto") == [(0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0)]
    assert len(seatings_of((0, 1, 2, 3), "all")) == 24
    assert seatings_of((0, 1, 2, 3), "auto") == [(0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)]
    assert len(seatings_of((0, 1, 0, 1), "auto")) == 6
    for lineup in [(0, 1, 2), (0, 0, 1, 2)]:
        for mode in ("auto", "all", "rotate"):
            seats = seatings_of(lineup, mode)
            # Every entry sits in every seat equally often.
            for e in set(lineup):
                counts = [sum(1 for s in seats if s[p] == e) for p in range(len(lineup))]
                assert len(set(counts)) == 1, (lineup, mode, counts)


def test_plan_entries_lineup_and_rounding():
    plan = make_plan(ArenaConfig(bots=("ismcts", "random"), players=4, games=7, time_per_move=0.5))
    assert plan.entries == ("ismcts:time=0.5", "random")
    assert plan.lineup == (0, 1, 0, 1)
    assert len(plan.seatings) == 6 and plan.deals == 2 and plan.games == 12


@pytest.mark.parametrize("kwargs, fragment", [
    (dict(bots=("random",), players=5), "players must be 2, 3 or 4"),
    (dict(bots=()), "no bots"),
    (dict(bots=("random", "greedy", "random"), players=2), "bot 'random' is listed twice"),
    (dict(bots=("random", "greedy"), players=3, gauntlet=True), "a gauntlet at 3 players needs"),
    (dict(bots=("random",), games=0), "games must be"),
    (dict(bots=("random",), workers=0), "workers must be"),
    (dict(bots=("random",), backend="spark"), "backend must be one of local, ray"),
    (dict(bots=("random",), seating="shuffle"), "seating must be"),
    (dict(bots=("random",), time_per_move=-1.0), "time per move"),
    (dict(bots=("random", "ismcts:iters=3")), "unknown key 'iters'"),
])
def test_bad_config(kwargs, fragment):
    with pytest.raises(OptionError) as info:
        run_arena(ArenaConfig(**kwargs))
    assert fragment in str(info.value)


# --- running


def test_deterministic_for_a_seed_and_any_worker_count(tiny_result):
    again = run_arena(TINY, game_factory=Game)
    assert stable(again) == stable(tiny_result)
    two = run_arena(ArenaConfig(**{**TINY.__dict__, "workers": 2}), game_factory=Game)
    assert stable(two) == stable(tiny_result)
    other = run_arena(ArenaConfig(**{**TINY.__dict__, "seed": 8}), game_factory=Game)
    assert [g["scores"] for g in other.games] != [g["scores"] for g in tiny_result.games]


def test_duplicate_deals(tiny_result):
    games = tiny_result.games
    assert [g["deal"] for g in games] == [0, 0, 1, 1]
    assert [g["seating"] for g in games] == [[0, 1], [1, 0], [0, 1], [1, 0]]
    for a, b in [(games[0], games[1]), (games[2], games[3])]:
        assert a["deal_seed"] == b["deal_seed"] and a["chance_seed"] == b["chance_seed"]
    assert games[0]["deal_seed"] != games[2]["deal_seed"]
    assert len({s for g in games for s in g["bot_seeds"]}) == 8


def test_results_json_schema(tiny_result, tmp_path):
    path = tmp_path / "results.json"
    tiny_result.write_json(str(path))
    d = json.loads(path.read_text())
    assert d["schema"] == SCHEMA and d["version"] == SCHEMA_VERSION == 1
    assert set(RESULTS_SCHEMA) <= set(d)
    assert isinstance(d["config"]["bots"], list) and d["config"]["players"] == 2 and d["config"]["seed"] == 7
    assert d["games_played"] == len(d["games"]) == 4 and d["deals"] == 2
    entry_types = {"index": int, "spec": str, "seats_played": int, "win_rate": float, "win_rate_ci95": list,
                   "wins": int, "mean_vp": float, "mean_rank": float, "mean_margin": float, "decisions": int,
                   "think_seconds": float, "iterations": int, "rating": float, "rating_ci95": list}
    assert [e["spec"] for e in d["entries"]] == ["random", "greedy:samples=1"]
    for e in d["entries"]:
        for key, typ in entry_types.items():
            assert isinstance(e[key], (int, float) if typ is float else typ), (key, e[key])
        lo, hi = e["win_rate_ci95"]
        assert 0.0 <= lo <= e["win_rate"] <= hi <= 1.0
        assert e["seats_played"] == 4
    assert math.isclose(sum(e["win_share"] for e in d["entries"]), 4.0)
    assert abs(sum(e["rating"] for e in d["entries"])) < 1e-6
    game_keys = {"index", "deal", "seating", "deal_seed", "chance_seed", "bot_seeds", "scores", "ranks", "returns",
                 "winners", "decisions", "forced", "think_seconds", "iterations", "seconds", "length"}
    for g in d["games"]:
        assert game_keys <= set(g)
        assert len(g["scores"]) == len(g["ranks"]) == len(g["returns"]) == 2
        assert math.isclose(sum(g["returns"]), 1.0)
        assert sorted(g["ranks"]) in ([1.0, 2.0], [1.5, 1.5])


def test_csv_rows(tiny_result, tmp_path):
    path = tmp_path / "results.csv"
    tiny_result.write_csv(str(path))
    rows = list(csv.DictReader(path.open()))
    assert len(rows) == 8
    assert {r["spec"] for r in rows} == {"random", "greedy:samples=1"}
    assert sum(float(r["win_share"]) for r in rows) == pytest.approx(4.0)


def test_table_lists_every_entry(tiny_result):
    text = tiny_result.table()
    assert "random" in text and "greedy:samples=1" in text and "95% CI" in text


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="matplotlib is not installed")
def test_plot_writes_a_png(tiny_result, tmp_path):
    path = tmp_path / "ladder.png"
    tiny_result.plot(str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed")
def test_ray_backend_matches_local(tiny_result, monkeypatch):
    """Games as Ray tasks on a local Ray cluster (Ray 2.x has no `local_mode` any more) give the same results."""
    import ray
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")     # no usage report (CI has no network)
    config = ArenaConfig(**{**TINY.__dict__, "backend": "ray", "workers": 2})
    # A small object store: the games' results are tiny, and CI containers may have a small /dev/shm.
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, object_store_memory=100 * 1024 ** 2)
    try:
        result = run_arena(config, game_factory=Game)
    finally:
        ray.shutdown()
    assert stable(result) == stable(tiny_result)


# --- statistics


def test_wilson_interval():
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_plackett_luce():
    # Symmetric results: equal strengths.
    assert elo_ratings(plackett_luce([[0, 1], [1, 0]], 2)) == pytest.approx([0.0, 0.0], abs=1e-6)
    # Entry 0 beats 1 three times in four: stronger, but the prior pulls the ratio below 3.
    s = plackett_luce([[0, 1]] * 3 + [[1, 0]], 2)
    assert 1.0 < s[0] / s[1] < 3.0
    # A 4-player order: the winner rates above the others, the last below.
    r = elo_ratings(plackett_luce([[2, 0, 1, 1]] * 5, 3))
    assert r[2] > r[0] > r[1]
    # An entry that always wins stays finite.
    assert all(math.isfinite(x) for x in elo_ratings(plackett_luce([[0, 1]] * 50, 2)))


# --- command line


def test_cli_arena_writes_results(runner, tmp_path):
    out, table = tmp_path / "r.json", tmp_path / "r.csv"
    result = runner.invoke(cli.app, ["arena", "--bots", "random,random", "--games", "2", "--seed", "3",
                                     "--bootstrap", "0", "--out", str(out), "--csv", str(table)])
    assert result.exit_code == 0, result.output
    assert "2 games" in result.stdout and "random" in result.stdout
    d = json.loads(out.read_text())
    assert d["schema"] == SCHEMA and d["games_played"] == 2 and len(d["entries"]) == 1
    assert len(table.read_text().splitlines()) == 1 + 2 * 2


@pytest.mark.parametrize("args, fragment", [
    (["--bots", "random,alphazero"], "unknown bot 'alphazero'"),
    (["--bots", "ismcts:iters=5"], "unknown key 'iters' for ismcts"),
    (["--bots", "ismcts:time=0"], "time must be > 0"),
    (["--bots", "random", "--players", "5"], "--players must be 2, 3 or 4"),
    (["--bots", "random", "--backend", "spark"], "backend must be one of"),
    (["--bots", "random,random,greedy"], "bot 'random' is listed twice: a round-robin needs distinct bots"),
    (["--bots", "random", "--gauntlet"], "a gauntlet at 2 players needs at least 2 bots"),
])
def test_cli_arena_bad_options_one_line_exit_2(runner, args, fragment):
    result = runner.invoke(cli.app, ["arena", *args])
    assert result.exit_code == 2, (result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], result.stderr
    assert "Traceback" not in result.output


def test_a_five_seat_table_names_seat_e():
    """Five seats (Venice 2099): the table's seat win rates go up to seat E (they stopped at D)."""
    result = run_arena(ArenaConfig(bots=("random",) * 5, players=5, games=5, seed=3, bootstrap=0, seating="rotate",
                                   game="venice-2099"))
    last = result.table().splitlines()[-1]
    assert last.startswith("seat win rate: A ") and ", E " in last and len(result.seat_win_rate) == 5
