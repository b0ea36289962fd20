"""`burano engine` (burano_ai/protocol.py) driven as a GUI drives it: a real subprocess over pipes.

Every line the engine writes is checked against the protocol's JSON Schema
(burano_ai/core/schemas/engine-protocol.schema.json), and every query must end with exactly one final
line (its final report, or an error line). No timed assertions: timeouts here only keep a broken engine
from hanging the suite (terminate latency is measured in bench/test_bench_protocol.py).
"""

from __future__ import annotations

import json
import os
import queue
import random
import subprocess
import sys
import threading
import time
from importlib import resources
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from burano_ai import Game
from burano_ai.protocol import MAX_LINE_BYTES
from burano_ai.random_play import sample_chance
from burano_ai.record import record_from_moves
from signal_helpers import terminal_signals

REPO = Path(__file__).resolve().parents[1]
POSITIONS = REPO / "tests" / "golden" / "positions"
EXAMPLE = resources.files("burano_ai.games.burano.data").joinpath("examples/midgame-4p-C.json")
SCHEMA = json.loads(resources.files("burano_ai.core").joinpath("schemas/engine-protocol.schema.json").read_text())
OUTPUT = Draft202012Validator({**SCHEMA, "$ref": "#/$defs/output"})
INPUT = Draft202012Validator({**SCHEMA, "$ref": "#/$defs/input"})
#: Longest wait for one line: only a guard against a hung engine, never a speed check.
WAIT = 60.0


def position(name: str) -> dict:
    return json.loads((POSITIONS / f"{name}.json").read_text())


class EngineProcess:
    """`python -m cli engine` with pipes; a thread collects stdout lines, each checked against the schema."""

    def __init__(self, *args: str) -> None:
        env = {k: v for k, v in os.environ.items() if k != "BURANO_DEBUG_TRACEBACK"}
        env["PYTHONPATH"] = str(REPO)
        self.proc = subprocess.Popen([sys.executable, "-m", "cli", "engine", *args], cwd=REPO, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     preexec_fn=terminal_signals)
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[dict] = []
        self.stderr = b""
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.proc.stdout:
                self.lines.put(raw)
        except (OSError, ValueError):        # the test closed the pipe
            pass
        self.lines.put(None)

    def _read_err(self) -> None:
        self.stderr = self.proc.stderr.read()

    def send(self, obj) -> None:
        data = obj if isinstance(obj, bytes) else (json.dumps(obj) + "\n").encode()
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def next(self) -> dict | None:
        raw = self.lines.get(timeout=WAIT)
        if raw is None:
            return None
        line = json.loads(raw)          # nothing but JSON lines on stdout
        errors = sorted(OUTPUT.iter_errors(line), key=str)
        assert not errors, f"{line} does not match the schema: {errors[0]}"
        self.seen.append(line)
        return line

    def until_final(self, qid) -> list[dict]:
        """Lines up to the final line (report or error) of query `qid` (lines of other ids included)."""
        out = []
        while True:
            line = self.next()
            assert line is not None, f"the engine ended before query {qid!r} was answered"
            out.append(line)
            if line.get("id") == qid and is_final(line):
                return out

    def close(self) -> int:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        try:
            code = self.proc.wait(timeout=WAIT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
        while self.next() is not None:
            pass
        return code


def is_final(line: dict) -> bool:
    return "error" in line or line.get("isDuringSearch") is False


def finals(lines: list[dict]) -> dict:
    out: dict = {}
    for line in lines:
        if is_final(line) and line.get("id") is not None:
            out.setdefault(line["id"], []).append(line)
    return out


@pytest.fixture
def engine():
    proc = EngineProcess("--threads", "1")
    yield proc
    if proc.proc.poll() is None:
        proc.proc.kill()
        proc.proc.wait()


def game_moves(players: int, seed: int, plies: int) -> list[str]:
    """Move and chance-outcome texts of a seeded random game's first `plies` steps, ending at a decision."""
    state = Game(players).new_initial_state(seed)
    rng = random.Random(seed)
    moves = []
    while len(moves) < plies or state.is_chance_node():
        action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    return moves


def strip_timing(line: dict) -> dict:
    root = {k: v for k, v in line["rootInfo"].items() if k not in ("time", "iterationsPerSecond")}
    return {**line, "rootInfo": root}


# ------------------------------------------------------------------------------------------------
# A session


def test_the_schema_is_a_valid_json_schema():
    Draft202012Validator.check_schema(SCHEMA)
    assert not list(INPUT.iter_errors({"id": "x", "position": {"players": 2, "seed": 1, "moves": []}}))
    assert list(INPUT.iter_errors({"id": "x", "position": {"players": 7, "moves": []}}))   # no game seats 7
    assert list(INPUT.iter_errors({"id": "x", "action": "terminate"}))
    assert list(OUTPUT.iter_errors({"id": "x", "isDuringSearch": True, "move": "done", "moveInfos": [],
                                    "rootInfo": {}, "terminated": False}))


def test_a_session_of_queries_over_every_input_form(engine):
    moves3 = game_moves(3, 7, 40)
    record, _state = record_from_moves(2, 11, game_moves(2, 11, 30))
    step = max(i for i in range(len(record.steps)) if not record.replay(i).is_chance_node()
               and not record.replay(i).is_terminal())
    queries = [
        {"id": "version", "action": "query_version"},
        {"id": "view-2p", "position": position("spring-2p-view"), "maxIterations": 200},
        {"id": "view-3p", "position": position("summer-3p-view"), "maxIterations": 200, "top": 3,
         "includePlans": True},
        {"id": "full-4p", "position": position("spring-4p-full"), "maxIterations": 200, "seat": "A"
         if position("spring-4p-full")["actor"] == "A" else position("spring-4p-full")["actor"]},
        {"id": "game-3p", "position": {"players": 3, "seed": 7, "moves": moves3}, "maxIterations": 150},
        {"id": 42, "position": record.to_dict(), "step": step, "maxIterations": 150, "seed": 5},
        {"id": "view-4p", "position": position("winter-pyramid-4p-view"), "maxIterations": 100},
    ]
    for q in queries:
        assert not list(INPUT.iter_errors(q)), q
        engine.send(q)
    lines = engine.until_final("view-4p")
    done = finals(lines)
    assert {q["id"] for q in queries[1:]} <= set(done), done.keys()
    assert all(len(v) == 1 for v in done.values())
    version = next(line for line in lines if line.get("action") == "query_version")
    assert version["protocolVersion"] == 1 and version["name"] == "burano"
    for q in queries[1:]:
        final = done[q["id"]][0]
        assert "error" not in final, final
        assert final["terminated"] is False
        assert final["rootInfo"]["iterations"] in (0, q["maxIterations"])   # 0: a forced move
        assert final["move"] == final["moveInfos"][0]["move"]
        assert [m["order"] for m in final["moveInfos"]] == list(range(len(final["moveInfos"])))
        seat = final["rootInfo"]["seat"]
        for info in final["moveInfos"]:
            if info["winrates"] is not None:      # null only for a forced move (no search)
                assert seat in info["winrates"] and abs(info["winrates"][seat] - info["winrate"]) < 1e-6
                assert abs(sum(info["winrates"].values()) - 1.0) < 1e-4      # the win shares of one game sum to 1
    assert len(done["full-4p"][0]["moveInfos"][0]["winrates"]) == 4
    assert len(done["game-3p"][0]["moveInfos"][0]["winrates"]) == 3
    three = done["view-3p"][0]
    assert len(three["moveInfos"]) <= 3 and all("plan" in m for m in three["moveInfos"])
    assert all("plan" not in m for m in done["view-2p"][0]["moveInfos"])
    assert engine.close() == 0
    assert b"Traceback" not in engine.stderr


def test_the_record_form_searches_the_position_after_step(engine):
    moves = game_moves(2, 3, 25)
    record, state = record_from_moves(2, 3, moves)
    engine.send({"id": "r", "position": record.to_dict(), "maxIterations": 50})
    engine.send({"id": "g", "position": {"players": 2, "seed": 3, "moves": moves}, "maxIterations": 50})
    engine.send({"id": "p", "position": json.loads(state.to_json(state.current_player())), "maxIterations": 50})
    lines = engine.until_final("p")
    done = finals(lines)
    keys = {qid: done[qid][0]["rootInfo"]["positionKey"] for qid in "rgp"}
    assert len(set(keys.values())) == 1, keys
    assert strip_timing(done["r"][0]) | {"id": 0} == strip_timing(done["g"][0]) | {"id": 0}


# ------------------------------------------------------------------------------------------------
# Streaming and terminate


def test_partial_reports_arrive_while_searching(engine):
    engine.send({"id": "s", "position": position("spring-2p-view"), "maxTime": 1.0,
                 "reportDuringSearchEvery": 0.1})
    lines = engine.until_final("s")
    partial = [line for line in lines if line.get("isDuringSearch")]
    assert 3 <= len(partial) <= 10, len(partial)       # one every 0.1 s of a 1 s search, none after it
    iterations = [line["rootInfo"]["iterations"] for line in lines if line.get("id") == "s"]
    assert iterations == sorted(iterations) and iterations[-1] > iterations[0]
    # The engine reports no more often than asked (by construction: the next report is due
    # reportDuringSearchEvery seconds after the previous one); search time is what rootInfo.time says.
    times = [line["rootInfo"]["time"] for line in partial]
    assert all(b - a >= 0.1 - 0.002 for a, b in zip(times, times[1:])), times
    assert all("terminated" not in line for line in partial)


def test_terminate_ends_a_search_with_one_final_report(engine):
    engine.send({"id": "long", "position": position("summer-3p-view"), "maxTime": 600,
                 "reportDuringSearchEvery": 0.05})
    first = engine.next()
    assert first["id"] == "long" and first["isDuringSearch"] is True
    engine.send({"id": "t", "action": "terminate", "terminateId": "long"})
    lines = engine.until_final("long")
    final = lines[-1]
    assert final["terminated"] is True and final["rootInfo"]["iterations"] >= 1
    assert any("stopped" in note for note in final["notes"])
    acks = [line for line in engine.seen if line.get("action") == "terminate"]
    assert acks == [{"id": "t", "action": "terminate", "terminateId": "long", "found": True}]
    engine.send({"id": "after", "position": position("spring-2p-view"), "maxIterations": 30})
    assert engine.until_final("after")[-1]["terminated"] is False
    assert engine.close() == 0
    assert len(finals(engine.seen)["long"]) == 1


def test_queued_queries_and_terminate_all(engine):
    for qid in ("a", "b", "c"):
        engine.send({"id": qid, "position": position("spring-2p-view"), "maxTime": 600,
                     "reportDuringSearchEvery": 0.05})
    assert engine.next()["id"] == "a"           # a runs; b and c wait in the queue
    engine.send({"id": "tb", "action": "terminate", "terminateId": "b"})
    engine.send({"id": "all", "action": "terminate_all"})
    engine.send({"id": "gone", "action": "terminate", "terminateId": "never-sent"})
    engine.until_final("c")
    done = finals(engine.seen)
    assert all(len(done[q]) == 1 and done[q][0]["terminated"] for q in "abc")
    gone = next(line for line in engine.seen if line.get("id") == "gone")
    assert gone["found"] is False


def test_quit_terminates_the_search_and_exits(engine):
    engine.send({"id": "q", "position": position("spring-2p-view"), "maxTime": 600,
                 "reportDuringSearchEvery": 0.05})
    engine.send({"id": "queued", "position": position("spring-2p-view"), "maxTime": 600})
    assert engine.next()["id"] == "q"
    engine.send({"id": "bye", "action": "quit"})
    assert engine.proc.wait(timeout=WAIT) == 0
    engine.close()
    done = finals(engine.seen)
    assert len(done["q"]) == 1 and done["q"][0]["terminated"] is True
    assert len(done["queued"]) == 1 and done["queued"][0]["terminated"] is True


def test_end_of_input_finishes_the_queued_queries(engine):
    engine.send({"id": 1, "position": position("spring-2p-view"), "maxIterations": 100})
    engine.send({"id": 2, "position": position("summer-3p-view"), "maxIterations": 100})
    assert engine.close() == 0
    done = finals(engine.seen)
    assert sorted(done) == [1, 2]
    assert all(len(v) == 1 and not v[0]["terminated"] and v[0]["rootInfo"]["iterations"] == 100
               for v in done.values())


# ------------------------------------------------------------------------------------------------
# allowMoves, avoidMoves, determinism


def test_allow_and_avoid_moves_are_honoured(engine):
    pos = json.loads(EXAMPLE.read_text())
    engine.send({"id": "all", "position": pos, "maxIterations": 300, "top": 100})
    moves = [m["move"] for m in engine.until_final("all")[-1]["moveInfos"]]
    assert len(moves) >= 3
    allowed = moves[-2:]
    engine.send({"id": "allow", "position": pos, "maxIterations": 200, "allowMoves": allowed, "top": 100})
    engine.send({"id": "avoid", "position": pos, "maxIterations": 200, "avoidMoves": moves[:1], "top": 100})
    engine.send({"id": "one", "position": pos, "maxIterations": 50, "allowMoves": moves[1:2]})
    engine.until_final("one")
    done = finals(engine.seen)
    assert {m["move"] for m in done["allow"][0]["moveInfos"]} == set(allowed)
    assert moves[0] not in {m["move"] for m in done["avoid"][0]["moveInfos"]}
    assert [m["move"] for m in done["one"][0]["moveInfos"]] == moves[1:2]
    assert done["one"][0]["moveInfos"][0]["visits"] == 50


def test_same_seed_and_budget_on_one_thread_give_identical_final_reports(engine):
    pos = position("summer-3p-view")
    query = {"position": pos, "maxIterations": 400, "seed": 9, "threads": 1, "includePlans": True, "top": 50}
    engine.send({"id": "x", **query})
    engine.send({"id": "y", **query, "reportDuringSearchEvery": 0.01})     # pauses to report: same search
    engine.until_final("y")
    other = EngineProcess("--threads", "1")
    try:
        other.send({"id": "x", **query})
        again = other.until_final("x")[-1]
    finally:
        other.close()
    done = finals(engine.seen)
    x, y = strip_timing(done["x"][0]), strip_timing(done["y"][0])
    assert x == {**y, "id": "x"} == strip_timing(again)


# ------------------------------------------------------------------------------------------------
# Errors: exactly one error line per bad query, and the engine keeps serving


BAD_QUERIES = [
    ({"id": "e1", "position": {"players": 2, "seed": 1, "moves": ["pick castle"]}}, "position"),
    ({"id": "e2", "position": {"format": "burano-position/1"}}, "position"),
    ({"id": "e3", "position": position("spring-2p-view"), "maxVisits": 10}, "maxVisits"),
    ({"id": "e4", "position": position("spring-2p-view"), "allowMoves": ["fly to the moon"]}, "allowMoves"),
    ({"id": "e5", "position": position("spring-2p-view"), "maxIterations": 0}, "maxIterations"),
    ({"id": "e6", "position": position("spring-2p-view"), "maxTime": "soon"}, "maxTime"),
    ({"id": "e7", "position": position("spring-2p-view"), "seat": "D"}, "seat"),
    ({"id": "e8", "position": {"players": 3, "seed": 4, "moves": ["pick workshop"]}}, "position"),   # chance
    ({"id": "e9", "position": position("spring-2p-view"), "includePlans": "yes"}, "includePlans"),
    ({"id": "e10", "position": position("spring-2p-view"), "step": 3}, "step"),
    ({"id": "e11", "position": position("spring-2p-view"), "threads": 0}, "threads"),
    ({"id": "e12", "action": "terminate"}, "terminateId"),
    ({"id": "e13", "action": "launch"}, "action"),
    ({"id": "e14", "position": position("spring-2p-view"), "avoidMoves": "done"}, "avoidMoves"),
    ({"id": "e15", "position": position("spring-2p-view"), "top": True}, "top"),
    ({"id": "e16", "game": "chess", "position": position("spring-2p-view")}, "game"),
    ({"id": "e17", "game": 3, "position": position("spring-2p-view")}, "game"),
    ({"id": "e18", "position": {"players": 5, "seed": 1, "moves": []}}, "position.players"),   # Burano: 2-4
]


def test_every_bad_query_gets_one_error_line_naming_the_field(engine):
    for query, _field in BAD_QUERIES:
        engine.send(query)
    engine.send({"id": "ok", "position": position("spring-2p-view"), "maxIterations": 20})
    engine.until_final("ok")
    done = finals(engine.seen)
    for query, field in BAD_QUERIES:
        lines = done.get(query["id"], [])
        assert len(lines) == 1 and "error" in lines[0], (query["id"], lines)
        assert lines[0].get("field") == field, (query["id"], lines[0])
    assert "pick castle" in done["e1"][0]["error"]
    assert "maxVisits" in done["e3"][0]["error"]


def test_a_garbage_stream_never_stops_the_engine(engine):
    rng = random.Random(13)
    pos = position("spring-2p-view")
    garbage: list[bytes] = [
        bytes(rng.randrange(256) for _ in range(300)) + b"\n",
        b"\xff\xfe\x00\x00not utf-8\n",
        b'{"id": "half", "position": {"format": "burano-po',          # half a line, finished below
        b'sition/1"}\n',
        b"\n", b"   \n", b"\r\n",
        b"[" * 200_000 + b"\n",                                         # deep nesting
        b'{"id": "deep", "position": ' + b'{"a":' * 50 + b"1" + b"}" * 50 + b"}\n",
        b"x" * (MAX_LINE_BYTES + 10) + b"\n",                           # a huge line
        b'{"id": "big", "position": "' + b"y" * 3_000_000 + b'"}\n',
        b'{"id": ' + b"9" * 5000 + b"}\n",                              # an integer literal too long
        b'{"id": "nan", "position": {}, "maxTime": NaN}\n',
        b'{"id": "inf", "maxTime": 1e999, "position": {}}\n',
        b'{"id": "\\ud800", "position": 3}\n',                          # a lone surrogate in the id
        b'{"id": "dup", "id": "dup2"}\n',
        b"null\n", b"true\n", b'"text"\n', b"12\n", b"{}\n",
        b'{"id": [1], "action": "quit"}\n',                              # no quit: a bad id is no id
        b'{"id": 1.5, "action": "quit"}\n',
        b'{"id": "", "action": "quit"}\n',
        b'{"id": "types", "position": [], "maxIterations": "many", "seed": -1}\n',
    ]
    wrong_types = []
    for i, wrong in enumerate(([], {}, "x", -1, 1.5, None, True, 10**30)):
        for key in ("maxIterations", "maxTime", "reportDuringSearchEvery", "top", "seed", "threads", "seat",
                    "allowMoves", "includePlans", "step"):
            wrong_types.append(f"w-{key}-{i}")
            query = {"id": wrong_types[-1], "position": pos, "maxIterations": 10, key: wrong}
            garbage.append(json.dumps(query).encode() + b"\n")
    for chunk in garbage:
        engine.send(chunk)
    engine.send({"id": "alive", "position": pos, "maxIterations": 20})
    engine.until_final("alive")
    assert engine.proc.poll() is None
    errors = [line for line in engine.seen if "error" in line]
    done = finals(engine.seen)
    assert all(len(done[qid]) == 1 for qid in wrong_types)
    accepted = [qid for qid in wrong_types if "error" not in done[qid][0]]
    # 1.5 s is a fine time and report interval, and includePlans: true is no wrong type
    assert accepted == ["w-maxTime-4", "w-reportDuringSearchEvery-4", "w-includePlans-6"]
    assert len(errors) >= len(garbage) - 4 - len(accepted)     # blank lines are skipped; a half line is one
    assert any("longer than" in e["error"] for e in errors)
    assert any("nested deeper" in e["error"] for e in errors)
    assert any(e["id"] == "\ud800" for e in errors)
    assert finals(engine.seen)["alive"][0]["rootInfo"]["iterations"] == 20
    assert engine.close() == 0
    assert b"Traceback" not in engine.stderr, engine.stderr.decode(errors="replace")[-2000:]


def test_the_engine_writes_nothing_but_protocol_lines(engine):
    """A library printing to stdout cannot corrupt the stream: fd 1 points at stderr while serving."""
    code = ("import sys; sys.argv[0] = 'burano'; import cli, burano_ai.protocol as p\n"
            "old = p.parse_query\n"
            "def noisy(*a, **k):\n"
            "    print('stray print'); import os; os.write(1, b'stray write\\n')\n"
            "    return old(*a, **k)\n"
            "p.parse_query = noisy\n"
            "cli.app()\n")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    query = json.dumps({"id": 1, "position": position("spring-2p-view"), "maxIterations": 10}) + "\n"
    result = subprocess.run([sys.executable, "-c", code, "engine"], input=query.encode(), capture_output=True,
                            cwd=REPO, env=env, timeout=WAIT)
    assert result.returncode == 0
    lines = result.stdout.decode().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["id"] == 1
    assert b"stray print" in result.stderr and b"stray write" in result.stderr


def test_bad_engine_option_is_one_error_line():
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run([sys.executable, "-m", "cli", "engine", "--threads", "0"], capture_output=True,
                            cwd=REPO, env=env, timeout=WAIT, stdin=subprocess.DEVNULL)
    assert result.returncode == 2
    assert result.stderr.decode().strip().startswith("error: --threads") and result.stdout == b""


def test_a_reader_that_goes_away_ends_the_engine_quietly():
    proc = EngineProcess("--threads", "1")
    try:
        proc.send({"id": 1, "position": position("spring-2p-view"), "maxTime": 600, "reportDuringSearchEvery": 0.05})
        assert proc.next()["id"] == 1
        proc.proc.stdout.close()             # the GUI went away; the engine's next write fails
        assert proc.proc.wait(timeout=WAIT) == 141
        time.sleep(0.2)                      # let the stderr reader finish
        assert b"Traceback" not in proc.stderr and b"Fatal" not in proc.stderr, proc.stderr
    finally:
        if proc.proc.poll() is None:
            proc.proc.kill()
            proc.proc.wait()


@pytest.mark.parametrize("searching", [True, False])
def test_ctrl_c_ends_the_engine_with_130_quietly(searching):
    import signal
    proc = EngineProcess("--threads", "1")
    try:
        if searching:
            proc.send({"id": 1, "position": position("spring-2p-view"), "maxTime": 600,
                       "reportDuringSearchEvery": 0.05})
            assert proc.next()["id"] == 1
        else:
            proc.send({"id": "v", "action": "query_version"})
            assert proc.next()["id"] == "v"          # the engine is up and waits for input
        proc.proc.send_signal(signal.SIGINT)
        assert proc.proc.wait(timeout=WAIT) == 130
        proc.close()
        assert b"Traceback" not in proc.stderr and b"Fatal" not in proc.stderr, proc.stderr
    finally:
        if proc.proc.poll() is None:
            proc.proc.kill()
            proc.proc.wait()


def test_the_documented_session_matches_the_schema():
    """docs/engine-protocol.md shows a real session: every engine line in it must still be valid output."""
    text = (REPO / "docs" / "engine-protocol.md").read_text()
    session = text[text.index("## A session"):]
    session = session[session.index("```text"):session.index("```", session.index("```text") + 7)]
    out = [json.loads(line[2:]) for line in session.splitlines() if line.startswith("← ")]
    sent = [line[2:] for line in session.splitlines() if line.startswith("→ ") and "elided" not in line]
    assert len(out) >= 10
    for line in out:
        assert not list(OUTPUT.iter_errors(line)), line
    for line in sent:
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            continue                              # the session's garbage line
        if "maxVisits" not in data:               # the session's unknown-field line
            assert not list(INPUT.iter_errors(data)), data
    assert any(line.get("isDuringSearch") for line in out)
    assert any(line.get("terminated") for line in out)


def test_the_deal_form_without_seed_or_moves():
    """Regression (issue 21 item 7): `{"players": 2}` answered `position.format: missing`. The deal form
    needs only `players`: `seed` defaults to 0 and `moves` to none; a position's fields still ask for a
    format tag."""
    from burano_ai.protocol import QueryError, load_query_position

    def key(position):
        state, view, _root = load_query_position({"position": position})
        return view, state.to_dict()
    assert key({"players": 2}) == key({"players": 2, "seed": 0, "moves": []})
    assert not list(INPUT.iter_errors({"id": "d", "position": {"players": 2}}))   # the schema says so too
    assert key({"players": 3, "seed": 7}) == key({"players": 3, "seed": 7, "moves": []})
    assert key({"players": 2, "seed": 0}) != key({"players": 2, "seed": 1})
    view, _ = key({"players": 2, "view": "B"})
    assert view == 1
    with pytest.raises(QueryError, match="format"):
        load_query_position({"position": {"players": 2, "season": "spring"}})
