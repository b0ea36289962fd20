"""scripts/suite.py end to end at tiny budgets: generate a 3-position suite, a reference analysis, and an
evaluation of two bots (stability, regret); the regret rule; errors."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from burano_ai.engine import load_position

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "suite.py"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("suite")
    proc = run("generate", "--out", str(out), "--count", "3", "--games", "1", "--bot", "greedy:samples=1",
               "--seed", "4")
    assert proc.returncode == 0, proc.stderr
    return out


def test_generate_writes_positions_and_a_manifest(suite, tmp_path):
    manifest = json.loads((suite / "manifest.json").read_text())
    entries = manifest["positions"]
    assert len(entries) == 3 and sorted(e["players"] for e in entries) == [2, 3, 4]
    assert "scripts/suite.py generate" in manifest["command"] and manifest["seed"] == 4
    for e in entries:
        assert {"id", "file", "players", "seat", "tags", "why"} <= set(e) and e["why"]
        state, view = load_position(suite / e["file"])
        assert view is None and state.num_players == e["players"]
        assert "ABCD"[state.current_player()] == e["seat"] and len(state.legal_actions()) >= 2
        assert f"{e['players']}p" in e["tags"]
    again = tmp_path / "again"
    assert run("generate", "--out", str(again), "--count", "3", "--games", "1", "--bot", "greedy:samples=1",
               "--seed", "4").returncode == 0
    assert json.loads((again / "manifest.json").read_text())["positions"] == entries
    for e in entries:
        assert (again / e["file"]).read_text() == (suite / e["file"]).read_text()


@pytest.fixture(scope="module")
def referenced(suite) -> Path:
    proc = run("reference", "--suite", str(suite), "--time", "0.05", "--threads", "1")
    assert proc.returncode == 0, proc.stderr
    return suite


def test_reference_stores_every_candidate(referenced):
    ref = json.loads((referenced / "reference.json").read_text())
    manifest = json.loads((referenced / "manifest.json").read_text())
    assert ref["settings"]["time"] == 0.05 and "burano_ai_version" in ref and ref["date"]
    assert set(ref["positions"]) == {e["id"] for e in manifest["positions"]}
    for analysis in ref["positions"].values():
        moves = [c["move"] for c in analysis["candidates"]]
        assert analysis["best"] == moves[0] and analysis["iterations"] >= 1
        for c in analysis["candidates"]:
            assert {"visits", "win_prob", "value", "expected_vp"} <= set(c) and 0.0 <= c["win_prob"] <= 1.0


def test_evaluate_two_bots_side_by_side(referenced, tmp_path):
    out = tmp_path / "eval.json"
    proc = run("evaluate", "--suite", str(referenced), "--bot", "ismcts", "--compare", "ismcts:preset=v0.1",
               "--time", "0.02", "--seeds", "2", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "stability" in proc.stdout and "regret" in proc.stdout
    result = json.loads(out.read_text())
    assert [b["spec"] for b in result["bots"]] == ["ismcts:time=0.02", "ismcts:preset=v0.1,time=0.02"]
    for bot in result["bots"]:
        assert 0.0 <= bot["stability"] <= 1.0 and bot["regret"] >= 0.0 and len(bot["positions"]) == 3
        for row in bot["positions"]:
            assert len(row["moves"]) == 2 and row["stable"] == (len(set(row["moves"])) == 1)
            assert row["equivalent"] or not row["stable"]          # the same move is always equivalent
        assert bot["stability"] <= bot["equivalent_stability"] <= 1.0


def test_evaluate_without_a_reference_is_one_line_exit_2(suite, tmp_path):
    proc = run("evaluate", "--suite", str(suite), "--reference", str(tmp_path / "none.json"), "--seeds", "1")
    assert proc.returncode == 2 and proc.stderr.strip().startswith("error: no such file")
    assert len(proc.stderr.strip().splitlines()) == 1


def test_regret_counts_untried_moves_at_the_lowest_win_probability():
    spec = importlib.util.spec_from_file_location("suite_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    ref = {"best": "a", "candidates": [{"move": "a", "win_prob": 0.6}, {"move": "b", "win_prob": 0.7},
                                       {"move": "c", "win_prob": 0.45}]}
    assert module.regret_points(ref, "a") == (0.0, True)
    assert module.regret_points(ref, "b") == (0.0, True)          # rated above the best on fewer visits
    assert module.regret_points(ref, "c") == (pytest.approx(15.0), True)
    assert module.regret_points(ref, "z") == (pytest.approx(15.0), False)
    assert module.equivalent(ref, ["a", "a"]) and not module.equivalent(ref, ["a", "b"])
    near = {"best": "a", "candidates": [{"move": "a", "win_prob": 0.600}, {"move": "b", "win_prob": 0.595}]}
    assert module.equivalent(near, ["a", "b"])
