"""`burano bench` (burano_ai.bench): the signature's stability, the JSON round trip, --compare, bad input.

No timed assertions: the speed rows are checked for presence and sign only, with the measuring time cut
to a few milliseconds (`SECONDS`, `QUICK_SECONDS` patched) so that the tests stay quick.
"""

from __future__ import annotations

import json
import sys

import pytest

import cli
from burano_ai import bench
from burano_ai.games import all_specs, game_keys, get_spec
from burano_ai.search import Params
from burano_ai.search.ismcts import make_searcher, native_tree_blocker
from burano_ai.search.parallel import canonical_root

#: A signature budget of the size `--quick` tests can afford (the command uses SIGNATURE_ITERATIONS).
ITERATIONS = 40


def invoke(runner, *args):
    return runner.invoke(cli.app, ["bench", *[str(a) for a in args]])


def assert_user_error(result, *fragments: str) -> str:
    """Exit code 2, exactly one line on stderr starting `error:`, no traceback anywhere."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.output + result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def short(monkeypatch):
    """Speed measurements of a few milliseconds and a small signature budget."""
    monkeypatch.setattr(bench, "SECONDS", 0.01)
    monkeypatch.setattr(bench, "QUICK_SECONDS", 0.01)
    monkeypatch.setattr(bench, "SIGNATURE_ITERATIONS", ITERATIONS)


@pytest.fixture(scope="module")
def goofspiel_result():
    """One quick bench result of goofspiel (measured for a few milliseconds per row)."""
    saved = bench.QUICK_SECONDS
    bench.QUICK_SECONDS = 0.01
    try:
        return bench.run_bench(game="goofspiel", quick=True, threads=2, signature_iterations=ITERATIONS)
    finally:
        bench.QUICK_SECONDS = saved


# ------------------------------------------------------------------------------------------------
# Positions and signature


@pytest.mark.parametrize("key", game_keys())
def test_bench_positions_are_real_decisions_in_game_order(key):
    spec = get_spec(key)
    for players in range(spec.min_players, spec.max_players + 1):
        positions = bench.bench_positions(spec, players)
        # a short game may have fewer distinct decision positions (a 2-player Kuhn poker hand: two)
        wanted = list(bench.POSITIONS) if "web_board" in spec.capabilities else list(bench.POSITIONS)[:len(positions)]
        assert positions and list(positions) == wanted
        for state in positions.values():
            assert not state.is_terminal() and not state.is_chance_node()
            assert len(state.legal_actions()) >= 2
        texts = [s.to_json() for s in positions.values()]
        assert len(set(texts)) == len(texts), "start, middle and late are different positions"
        # The same seed gives the same positions.
        assert [s.to_json() for s in bench.bench_positions(spec, players).values()] == texts


def test_signature_is_stable_across_runs_and_covers_every_game():
    first = bench.signature(all_specs(), ITERATIONS)
    second = bench.signature(all_specs(), ITERATIONS)
    assert first == second
    assert list(first["games"]) == game_keys()
    for key, game in first["games"].items():
        spec = get_spec(key)
        assert list(game["players"]) == [str(n) for n in range(spec.min_players, spec.max_players + 1)]
        for part in game["players"].values():
            named = [s["position"] for s in part["searches"]]
            assert named and named == list(bench.POSITIONS)[:len(named)]
            assert len(named) == len(bench.POSITIONS) or "web_board" not in spec.capabilities
            assert all(s["iterations"] == ITERATIONS for s in part["searches"])
            assert part["random_game_steps"] > 0
            # a game whose "compiled" entry is still the reference (no native_search) has no C playouts
            native = "native_search" in spec.capabilities
            assert set(part["playouts"]) == (set(bench._policies(spec)) if native else set())
    assert first["nodes"] == sum(g["nodes"] for g in first["games"].values()) > 0


def test_signature_changes_with_the_seed_and_the_budget():
    """The comparison above can fail: another seed or budget gives another signature."""
    spec = get_spec("goofspiel")
    base = bench.game_signature(spec, ITERATIONS)
    assert bench.game_signature(spec, ITERATIONS, seed=bench.SEED + 1)["digest"] != base["digest"]
    assert bench.game_signature(spec, ITERATIONS + 10)["digest"] != base["digest"]


def test_signature_does_not_depend_on_threads_or_quick(short):
    one = bench.run_bench(game="goofspiel", quick=True, threads=1)
    two = bench.run_bench(game="goofspiel", quick=False, threads=2)
    assert one["signature"] == two["signature"]
    assert one["signature"]["games"]["goofspiel"] == bench.game_signature(get_spec("goofspiel"), ITERATIONS)
    assert "search_n_threads" not in one["speed"]["goofspiel"]
    assert two["speed"]["goofspiel"]["search_n_threads"] > 0


@pytest.mark.parametrize("key", game_keys())
def test_shared_tree_search_runs_exactly_its_budget_at_every_bench_position(key):
    """What does not change with threads: N threads on one tree still run exactly the budget."""
    spec = get_spec(key)
    for state in bench.bench_positions(spec, spec.default_players).values():
        seat = state.current_player()
        root = canonical_root(state, seat)
        if native_tree_blocker(root, Params()) is not None:
            continue
        searcher = make_searcher(root, seat, Params(), bench.SEED)
        searcher.run(iterations=64, threads=2)
        assert searcher.iterations == 64


def test_speed_rows_are_measured_for_every_game(short):
    result = bench.run_bench(quick=True, threads=2)
    assert list(result["speed"]) == game_keys()
    for key, column in result["speed"].items():
        spec = get_spec(key)
        assert column["players"] == spec.default_players
        native = "native_search" in spec.capabilities     # else "compiled" is the reference: no C playouts
        for metric in ("random_playouts",) * native + ("api_random_games", "clone_ns", "legal_actions_ns",
                                                       "search_1_thread"):
            assert column[metric] > 0, (key, metric)
        assert ("heuristic_playouts" in column) == ("heuristic_playout" in spec.capabilities)
        assert set(column) <= set(bench.METRICS) | {"players"}
    lines = bench.format_table(result)
    assert any(line.startswith(f"signature {result['signature']['digest']}") for line in lines)


# ------------------------------------------------------------------------------------------------
# The command


def test_bench_prints_the_signature_and_the_table_and_writes_json(runner, tmp_path, short):
    path = tmp_path / "a.json"
    result = invoke(runner, "--game", "goofspiel", "--quick", "--threads", "2", "--json", path)
    assert result.exit_code == 0, (result.output, result.stderr)
    data = bench.load_result(str(path))
    assert data["format"] == bench.FORMAT
    assert f"signature {data['signature']['digest']}" in result.stdout
    assert "random playouts (C)" in result.stdout and "search, 2 threads, one tree" in result.stdout
    assert f"result written to {path}" in result.stdout
    assert result.stderr and all(line.startswith("bench: ") for line in result.stderr.splitlines())
    # Round trip: what was written is what the run measured, read back unchanged.
    assert json.loads(path.read_text()) == data
    assert list(data["speed"]) == ["goofspiel"]


def test_bench_json_to_stdout_is_only_json(runner, short):
    result = invoke(runner, "--game", "goofspiel", "--quick", "--json", "-")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["format"] == bench.FORMAT and "goofspiel" in data["signature"]["games"]


def test_compare_prints_ratios_and_whether_the_signature_agrees(runner, tmp_path, goofspiel_result):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(bench.to_json(goofspiel_result))
    changed = json.loads(bench.to_json(goofspiel_result))
    changed["speed"]["goofspiel"]["random_playouts"] *= 2
    changed["speed"]["goofspiel"]["clone_ns"] *= 2
    changed["signature"]["digest"] = "0" * 16
    changed["signature"]["games"]["goofspiel"]["digest"] = "1" * 16
    b.write_text(json.dumps(changed))
    same = invoke(runner, "--compare", a, a)
    assert same.exit_code == 0, same.stderr
    assert same.stdout.startswith(f"signature: same ({goofspiel_result['signature']['digest']})")
    assert all(line.rstrip().endswith("1.000") for line in same.stdout.splitlines()[2:])
    diff = invoke(runner, "--compare", a, b)
    assert diff.exit_code == 0, diff.stderr
    lines = diff.stdout.splitlines()
    assert lines[0].startswith("signature: differs")
    assert "goofspiel: differs" in lines[1]
    playouts = next(line for line in lines if "random playouts (C)" in line)
    assert playouts.endswith("2.000 (faster)")
    clone = next(line for line in lines if "goofspiel: clone" in line)
    assert clone.endswith("2.000 (slower)")


@pytest.mark.parametrize("content, fragment", [
    (None, "no such file"),
    ("not json", "is not JSON"),
    ('{"format": "burano-game/1"}', "is not a burano bench result"),
    ('[1, 2]', "is not a burano bench result"),
    ('{"format": "burano-bench/1", "signature": {"digest": "x"}, "speed": {"g": {"a": "fast"}}}',
     "a \"speed\" object of numbers"),
    ('{"format": "burano-bench/1", "speed": {}}', "needs a \"signature\""),
])
def test_compare_refuses_a_bad_file_in_one_line(runner, tmp_path, goofspiel_result, content, fragment):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(bench.to_json(goofspiel_result))
    if content is not None:
        bad.write_text(content)
    assert_user_error(invoke(runner, "--compare", good, bad), fragment, str(bad))


@pytest.mark.parametrize("args, fragment", [
    (["--game", "chess"], "unknown game 'chess'"),
    (["--threads", "0"], "--threads must be"),
    (["--threads", "many"], "--threads"),
    (["--peer", "stockfish"], "unknown peer 'stockfish'"),
    (["--json", "/no/such/dir/out.json"], "no such directory"),
    (["--compare", "a.json"], "--compare"),
    (["--compare", "a.json", "b.json", "--quick"], "takes no other option"),
    (["--quick", "--nonsense"], "--nonsense"),
])
def test_bad_options_are_one_line_and_exit_2_before_any_work(runner, args, fragment):
    result = invoke(runner, *args)
    assert_user_error(result, fragment)
    assert "bench:" not in result.stderr


def test_peer_openspiel_without_pyspiel_says_so_in_one_line(runner, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)   # import pyspiel now raises ImportError
    assert_user_error(invoke(runner, "--peer", "openspiel", "--quick"), "needs pyspiel", "not installed")


def test_peer_openspiel_times_openspiel_games(short):
    pytest.importorskip("pyspiel")
    peer = bench.openspiel_peer(["goofspiel"], 0.01)
    assert "goofspiel" in peer
    assert all(row["random_games"] > 0 and row["us_per_step"] > 0 for row in peer.values())
