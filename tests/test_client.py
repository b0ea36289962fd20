"""burano_ai.client: the Python client of `burano engine`, against a real engine process."""

from __future__ import annotations

import json
import os
import signal
import sys
from importlib import resources
from pathlib import Path

import pytest

from burano_ai.client import AnalysisResult, Engine, EngineError, EngineTerminatedError
from burano_ai.engine import load_position
from burano_ai.record import record_from_moves
from burano_ai.search import Limit

from test_protocol import game_moves

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = Path(str(resources.files("burano_ai.games.burano.data").joinpath("examples/midgame-4p-C.json")))
POSITIONS = REPO / "tests" / "golden" / "positions"


@pytest.fixture(scope="module")
def engine():
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with Engine.popen(threads=1, env=env, stderr=open(os.devnull, "w")) as eng:
        yield eng
    assert eng.process.returncode == 0


def test_version(engine):
    info = engine.version()
    assert info["name"] == "burano" and info["protocolVersion"] == 1


def test_analyse_returns_the_final_report(engine):
    result = engine.analyse(EXAMPLE, Limit(iterations=300), seed=2, top=4, include_plans=True)
    assert isinstance(result, AnalysisResult) and not result.during_search and not result.terminated
    assert result.iterations == 300 and len(result.moves) == 4
    assert result.move == result.moves[0].move and result.plan[0] == result.move
    assert all(m.plan and m.plan[0].move == m.move for m in result.moves)
    assert 0.0 <= result.winrate <= 1.0 and result.root["seat"] == "C"


def test_every_position_form(engine):
    moves = game_moves(2, 4, 20)
    record, state = record_from_moves(2, 4, moves)
    view = json.loads(state.to_json(state.current_player()))
    forms = [view, json.dumps(view), state, record, {"players": 2, "seed": 4, "moves": moves},
             POSITIONS / "spring-2p-view.json"]
    keys = set()
    for form in forms[:5]:
        keys.add(engine.analyse(form, Limit(iterations=20)).root["positionKey"])
    assert len(keys) == 1
    assert engine.analyse(forms[5], Limit(iterations=20)).iterations in (0, 20)
    assert engine.analyse(str(forms[5]), Limit(iterations=20)).iterations in (0, 20)    # a file name


def test_a_missing_file_is_an_engine_error(engine, tmp_path):
    with pytest.raises(EngineError, match="cannot read"):
        engine.analyse(str(tmp_path / "nope.json"), Limit(iterations=5))


def test_analysis_streams_and_stops(engine):
    with engine.analysis(EXAMPLE, Limit(seconds=600), report_every=0.05) as search:
        seen = []
        for report in search:
            assert report.during_search
            seen.append(report.iterations)
            if len(seen) == 3:
                search.stop()
    assert len(seen) >= 3 and seen == sorted(seen)
    assert search.result.terminated and search.result.iterations >= seen[2]
    assert search.wait() is search.result


def test_leaving_the_analysis_early_stops_the_search(engine):
    with engine.analysis(EXAMPLE, Limit(seconds=600), report_every=0.05) as search:
        next(iter(search))
    assert search.result is not None and search.result.terminated
    assert engine.analyse(EXAMPLE, Limit(iterations=10)).iterations == 10     # the engine is free again


def test_play_and_allowed_moves(engine):
    state, _ = load_position(EXAMPLE)
    moves = [state.action_to_string(a) for a in state.legal_actions()]
    played = engine.play(EXAMPLE, Limit(iterations=100), allow_moves=moves[3:5])
    assert played.move in moves[3:5] and played.analysis.move == played.move
    avoided = engine.analyse(EXAMPLE, Limit(iterations=100), avoid_moves=[played.move], top=100)
    assert played.move not in {m.move for m in avoided.moves}


def test_errors_name_the_field(engine):
    with pytest.raises(EngineError, match="not a legal move") as info:
        engine.analyse(EXAMPLE, Limit(iterations=10), allow_moves=["sail to Murano"])
    assert info.value.field == "allowMoves"
    with pytest.raises(EngineError, match="seat"):
        engine.analyse(EXAMPLE, Limit(iterations=10), seat="A")
    with pytest.raises(EngineError):
        engine.analyse(12, Limit(iterations=10))
    assert engine.analyse(EXAMPLE, Limit(iterations=5)).iterations == 5


def test_a_dead_engine_raises_engine_terminated():
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    eng = Engine.popen(env=env, stderr=open(os.devnull, "w"))
    try:
        search = eng.analysis(EXAMPLE, Limit(seconds=600), threads=1, report_every=0.05)
        next(iter(search))
        os.kill(eng.process.pid, signal.SIGKILL)
        with pytest.raises(EngineTerminatedError):
            search.wait()
        with pytest.raises(EngineTerminatedError):
            eng.analyse(EXAMPLE, Limit(iterations=5))
    finally:
        eng.close()
    assert eng.process.returncode == -signal.SIGKILL


def test_the_cli_command_works_as_the_client_engine():
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with Engine.popen([sys.executable, "-m", "cli", "engine"], threads=1, env=env, cwd=str(REPO),
                      stderr=open(os.devnull, "w")) as eng:
        assert eng.analyse(EXAMPLE, Limit(iterations=50), seed=1).iterations == 50
    assert eng.process.returncode == 0


def test_the_engines_ready_line_stays_off_the_callers_stderr(tmp_path):
    """Regression (issue 21 item 7): `Engine.popen` without `stderr` let the child's "burano engine: ready
    ..." line through to the caller's terminal. It is logged (DEBUG) on burano_ai.client.engine instead."""
    import subprocess
    script = tmp_path / "use_engine.py"
    script.write_text(
        "import logging\n"
        "from burano_ai.client import Engine\n"
        "with Engine.popen(threads=1) as eng:\n"
        "    print(eng.version()['name'])\n"
        "logging.basicConfig(level=logging.DEBUG, format='%(name)s %(levelname)s %(message)s',\n"
        f"                    filename={str(tmp_path / 'log.txt')!r})\n"
        "with Engine.popen(threads=1) as eng:\n"
        "    eng.version()\n")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "burano\n"
    assert done.stderr == ""
    logged = (tmp_path / "log.txt").read_text()
    assert "burano_ai.client.engine DEBUG burano engine: ready" in logged
