"""scripts/ladder.py and scripts/time_odds.py end to end at tiny budgets (arena tournaments underneath):
the table, the plot, the results files, and bad options."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
HAS_PYSPIEL = importlib.util.find_spec("pyspiel") is not None


def run(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPTS / script), *args], capture_output=True, text=True,
                          timeout=300)


def test_ladder_smoke(tmp_path):
    png, table = tmp_path / "ladder.png", tmp_path / "ladder.md"
    proc = run("ladder.py", "--start", "4", "--stop", "16", "--games", "2", "--plot", str(png), "--out", str(table),
               "--json-dir", str(tmp_path / "json"))
    assert proc.returncode == 0, proc.stderr
    assert "| 1 | 8 | 4 | 2 |" in proc.stdout and "| 2 | 16 | 8 | 2 |" in proc.stdout
    assert "of 2 steps score >= 55%" in table.read_text()
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    steps = json.loads((tmp_path / "json" / "ladder.json").read_text())["steps"]
    assert [(s["low"], s["high"]) for s in steps] == [(4, 8), (8, 16)]
    assert all(0.0 <= s["ci95"][0] <= s["score"] <= s["ci95"][1] <= 1.0 for s in steps)
    arena = json.loads((tmp_path / "json" / "ladder-4-8.json").read_text())
    assert arena["config"]["bots"] == ["ismcts:iterations=8", "ismcts:iterations=4"]


def test_ladder_plays_the_game_it_is_given(tmp_path):
    proc = run("ladder.py", "--game", "goofspiel", "--start", "2", "--stop", "4", "--games", "2",
               "--plot", str(tmp_path / "l.png"), "--json-dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / "ladder-2-4.json").read_text())["config"]["game"] == "goofspiel"
    assert "--game goofspiel" in json.loads((tmp_path / "ladder.json").read_text())["steps"][0]["command"]


def test_ladder_at_three_players(tmp_path):
    """One step at 3 players: the doubled bot in one seat and two seats at n, a deal once with the doubled
    bot in each seat (4 games round up to 2 deals of 3), the 3-player target and equal share everywhere."""
    png, table = tmp_path / "ladder.png", tmp_path / "ladder.md"
    proc = run("ladder.py", "--game", "goofspiel", "--players", "3", "--start", "2", "--stop", "4", "--games", "4",
               "--plot", str(png), "--out", str(table), "--json-dir", str(tmp_path / "json"))
    assert proc.returncode == 0, proc.stderr
    assert "| score (equal 33.3%) | 95% CI | Elo (95% CI) | >= 37.9% (+35 Elo) |" in proc.stdout
    assert "| 1 | 4 | 2 | 6 |" in proc.stdout
    assert ("of 1 steps score >= 37.9% (equal share 33.3%; the target is +34.9 Elo, 55% at 2 players; seed 2026, "
            "6 games a step)") in table.read_text()
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    ladder = json.loads((tmp_path / "json" / "ladder.json").read_text())
    assert ladder["players"] == 3 and ladder["target"] == pytest.approx(11 / 29)
    step = ladder["steps"][0]
    assert step["target_met"] == (step["score"] >= 11 / 29)
    assert "--players 3" in step["command"]
    arena = json.loads((tmp_path / "json" / "ladder-2-4.json").read_text())
    assert arena["config"]["bots"] == ["ismcts:iterations=4", "ismcts:iterations=2", "ismcts:iterations=2"]
    assert arena["config"]["players"] == 3 and len(arena["games"]) == 6
    doubled = next(e for e in arena["entries"] if e["spec"] == "ismcts:iterations=4")
    assert doubled["seats_played"] == 6 and doubled["win_rate"] == pytest.approx(step["score"])


def test_ladder_target_keeps_the_elo_of_55_percent_at_2_players():
    """The N-player target is the win share of a bot +34.9 Elo (55 % at 2 players) above each of N - 1
    equal opponents in the arena's Luce model: r / (r + N - 1) with r = 0.55 / 0.45."""
    spec = importlib.util.spec_from_file_location("ladder_script", SCRIPTS / "ladder.py")
    ladder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ladder)
    assert ladder.target(2) == 0.55
    assert ladder.TARGET_ELO == pytest.approx(34.86, abs=0.01)
    for players, share in [(3, 11 / 29), (4, 11 / 38), (5, 11 / 47)]:
        assert ladder.target(players) == pytest.approx(share)
        assert ladder.share_elo(ladder.target(players), players) == pytest.approx(ladder.TARGET_ELO)
        assert 1 / players < ladder.target(players) < ladder.target(players - 1)


@pytest.mark.parametrize("args, fragment", [
    (["--start", "100", "--stop", "150"], "--stop (150) must be at least twice --start (100)"),
    (["--bot", "ismcts:time=1"], "has a budget of its own"),
    (["--bot", "ismcts:cc=1", "--start", "2", "--stop", "4"], "unknown key 'cc'"),
    (["--players", "5"], "--players 5: burano is played by 2, 3 or 4 players"),
    (["--game", "azul-sintra", "--players", "1"], "--players 1: azul-sintra is played by 2, 3 or 4 players"),
])
def test_ladder_bad_options(args, fragment, tmp_path):
    proc = run("ladder.py", *args, "--json-dir", str(tmp_path))
    assert proc.returncode == 2 and fragment in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.skipif(not HAS_PYSPIEL, reason="pyspiel (open_spiel) is not installed")
def test_time_odds_smoke(tmp_path):
    table = tmp_path / "odds.md"
    proc = run("time_odds.py", "--time", "0.005", "--fractions", "1/2", "--games", "2", "--out", str(table),
               "--json-dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "| 1/2 | 0.0025 |" in proc.stdout
    assert "smallest fraction with score >= 50%" in table.read_text() or "no fraction scored" in table.read_text()
    arena = json.loads((tmp_path / "time-odds-1-2.json").read_text())
    assert arena["config"]["bots"] == ["ismcts:time=0.0025", "openspiel-ismcts:time=0.005"]


@pytest.mark.skipif(not HAS_PYSPIEL, reason="pyspiel (open_spiel) is not installed")
def test_time_odds_on_azul_against_openspiel_mcts(tmp_path):
    """Another game (--game) and OpenSpiel's MCTS as the peer: its time budget comes from the fraction's T."""
    proc = run("time_odds.py", "--game", "azul-sintra", "--peer", "openspiel-mcts", "--bot", "ismcts:threads=1",
               "--time", "0.004", "--fractions", "1/2", "--games", "2", "--json-dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    arena = json.loads((tmp_path / "time-odds-1-2.json").read_text())
    assert arena["config"]["game"] == "azul-sintra"
    assert arena["config"]["bots"] == ["ismcts:threads=1,time=0.002", "openspiel-mcts:time=0.004"]
    assert "burano arena --game azul-sintra --bots" in json.loads((tmp_path / "time-odds.json").read_text())[
        "rows"][0]["command"]


@pytest.mark.skipif(not HAS_PYSPIEL, reason="pyspiel (open_spiel) is not installed")
@pytest.mark.parametrize("args, fragment", [
    (["--fractions", "1/2,two"], "'two' is not a fraction"),
    (["--fractions", "3/2"], "must lie in (0, 1]"),
    (["--peer", "openspiel-ismcts:time=1"], "has a budget of its own"),
])
def test_time_odds_bad_options(args, fragment, tmp_path):
    proc = run("time_odds.py", *args, "--json-dir", str(tmp_path))
    assert proc.returncode == 2 and fragment in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.skipif(not HAS_PYSPIEL, reason="OpenSpiel is an optional extra")
def test_goofspiel_against_openspiel_smoke():
    """Two tiny games on pyspiel's own Goofspiel: our seat mirrors every action, and the script checks
    that both games end together with the same result (it raises if they disagree)."""
    proc = run("goofspiel_vs_openspiel.py", "--games", "2", "--seconds", "0.01", "--cards", "4")
    assert proc.returncode == 0, proc.stderr
    assert "game 1: ours seat A" in proc.stdout and "game 2: ours seat B" in proc.stdout
    assert "our win share over 2 games:" in proc.stdout


def test_azul_ladder_sums_chunks_per_step(tmp_path):
    """bench/azul_sintra_ladder.py: arena results of one step played in several runs add up per step."""
    def arena(low: int, seed: int, high_share: float) -> dict:
        entries = [{"spec": f"ismcts:iterations={2 * low},threads=1", "seats_played": 2, "win_share": high_share},
                   {"spec": f"ismcts:iterations={low},threads=1", "seats_played": 2, "win_share": 2 - high_share}]
        return {"config": {"seed": seed}, "entries": entries, "games": [{"seconds": 1.0}, {"seconds": 2.0}]}

    paths = []
    for low, seed, share in [(4, 1, 2.0), (4, 2, 0.5), (8, 1, 1.0)]:
        paths.append(tmp_path / f"l{low}-s{seed}.json")
        paths[-1].write_text(json.dumps(arena(low, seed, share)))
    png = tmp_path / "ladder.png"
    proc = subprocess.run([sys.executable, str(SCRIPTS.parent / "bench" / "azul_sintra_ladder.py"),
                           *map(str, paths), "--plot", str(png)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "| 1 | 8 | 4 | 4 | 0.625 | 0.219-0.908 | yes | 1, 2 |" in proc.stdout
    assert "| 2 | 16 | 8 | 2 | 0.500 |" in proc.stdout and "1 of 2 steps score >= 55% (2-4 games a step)" in proc.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_ladder_sum_pools_runs_step_by_step(tmp_path):
    """bench/ladder_sum.py: two runs of 4 games a step pool into 8 (3 + 2 wins = 5/8 at the first step)."""
    def ladder(path, scores):
        steps = [{"low": low, "high": 2 * low, "games": 4, "score": sc, "command": "burano arena --game venice-2099 x"}
                 for low, sc in zip((250, 500), scores)]
        path.write_text(json.dumps({"bot": "ismcts", "steps": steps}))
        return str(path)
    a, b = ladder(tmp_path / "a.json", (0.75, 0.25)), ladder(tmp_path / "b.json", (0.5, 0.5))
    proc = subprocess.run([sys.executable, str(SCRIPTS.parent / "bench" / "ladder_sum.py"), a, b,
                           "--plot", str(tmp_path / "p.png")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "| 1 | 500 | 250 | 8 | 0.625 |" in proc.stdout and "| 2 | 1000 | 500 | 8 | 0.375 |" in proc.stdout
    assert "1 of 2 steps score >= 55% (2 runs pooled)" in proc.stdout and "venice-2099" in proc.stdout
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"


def test_ladder_sum_pools_at_the_runs_player_count(tmp_path):
    """bench/ladder_sum.py on 3-player runs: the 3-player target (37.9 %: a pooled 40 % meets it), and runs at
    different player counts are refused."""
    def ladder(path, score, players):
        steps = [{"low": 250, "high": 500, "games": 6, "score": score, "command": "burano arena --game azul-sintra x"}]
        path.write_text(json.dumps({"bot": "ismcts", "players": players, "steps": steps}))
        return str(path)
    a, b = ladder(tmp_path / "a.json", 0.5, 3), ladder(tmp_path / "b.json", 0.3, 3)
    script = str(SCRIPTS.parent / "bench" / "ladder_sum.py")
    proc = subprocess.run([sys.executable, script, a, b], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "| 1 | 500 | 250 | 12 | 0.400 |" in proc.stdout and proc.stdout.count("| yes |") == 1
    assert "1 of 1 steps score >= 37.9% (equal share 33.3%;" in proc.stdout
    c = ladder(tmp_path / "c.json", 0.5, 4)
    proc = subprocess.run([sys.executable, script, a, c], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "different player counts (3, 4)" in proc.stderr


def test_default_agreement_runs_suggest_as_a_program_per_seed():
    """bench/default_agreement.py: `burano suggest FILE --seed S --json` per seed on the positions (here every one:
    --screen 0, and a small budget instead of the settling default), the split and whether it is said as a tie."""
    script = str(SCRIPTS.parent / "bench" / "default_agreement.py")
    proc = subprocess.run([sys.executable, script, "--game", "goofspiel", "--positions", "2", "--screen", "0",
                           "--seeds", "2", "--suggest-args", "--iterations 300"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 3 and all(line.startswith("game 1 decision ") for line in lines[:2])
    assert "300-300 iterations, 0 of 2 settled" in lines[0]
    assert lines[2].startswith("goofspiel 2p, 2 positions from game 1, 2 positions; the default suggest "
                               "--iterations 300, seeds 1-2: ")
    bad = subprocess.run([sys.executable, script, "--game", "goofspiel", "--seeds", "1"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "--seeds must be 2 or more" in bad.stderr
