"""The engine protocol's bounds and its `?` (issue 20), each a regression test that failed before its fix:

- the query queue is bounded (`--max-queue`): one query over it is answered at once, with its id;
- a line nested deeper than the limit is answered with its id when the line's start shows it;
- the moves form's `?` is filled so that every later named move stays legal (it was the first option
  offered, which made another seat's later public move "illegal"), and a step the seat saw later (a
  finished pyramid) may be named;
- the engine keeps reading while a position loads: `query_version` and `quit` are answered while a
  pathological record replays (the input thread used to load positions itself).
"""

from __future__ import annotations

import io
import json
import random
import threading

import pytest

from burano_ai import Game
from burano_ai.protocol import (MAX_LINE_NESTING, EngineServer, QueryError, apply_view_moves, parse_line,
                                scan_id)
from burano_ai.random_play import random_action
from burano_ai.record import GameRecord

from test_protocol import REPO, EngineProcess, finals, is_final, position  # noqa: F401  (the engine process)


def lines_of(out: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


# ------------------------------------------------------------------------------------------------
# The queue


def test_a_query_over_the_queue_bound_is_answered_with_its_id():
    out = io.StringIO()
    server = EngineServer(out, threads=1, max_queue=2)     # not serving: nothing leaves the queue
    pos = position("spring-2p-view")
    for qid in ("a", "b", "c", "d"):
        server.handle_line(json.dumps({"id": qid, "position": pos, "maxIterations": 10}))
    server.handle_line(json.dumps({"id": "v", "action": "query_version"}))
    answers = lines_of(out)
    assert [a["id"] for a in answers] == ["c", "d", "v"]
    assert all("queue is full (2 queries wait" in a["error"] and "--max-queue" in a["error"] for a in answers[:2])
    assert answers[2]["action"] == "query_version"


def test_a_flood_of_queries_is_refused_beyond_the_bound_while_a_search_runs():
    engine = EngineProcess("--threads", "1", "--max-queue", "5")
    try:
        pos = position("spring-2p-view")
        engine.send({"id": "long", "position": pos, "maxTime": 600, "reportDuringSearchEvery": 0.05})
        assert engine.next()["isDuringSearch"] is True          # "long" searches: it no longer waits
        flood = [f"q{i}" for i in range(200)]
        for qid in flood:
            engine.send({"id": qid, "position": {"players": 2, "seed": 1, "moves": []}, "maxIterations": 5})
        engine.send({"id": "v1", "action": "query_version"})
        engine.until_final("q199")
        engine.send({"id": "q", "action": "quit"})
        assert engine.close() == 0
        done = finals(engine.seen)
        refused = [qid for qid in flood if "queue is full" in done[qid][0].get("error", "")]
        searched = [qid for qid in flood if "isDuringSearch" in done[qid][0]]
        assert len(refused) == 195 and len(searched) == 5          # each query: exactly one final line
        assert all(len(done[qid]) == 1 for qid in flood)
        assert done["long"][0]["terminated"] is True
    finally:
        if engine.proc.poll() is None:
            engine.proc.kill()


@pytest.mark.parametrize("bad", ["0", "100001", "-3"])
def test_a_bad_max_queue_is_one_error_line(bad):
    import subprocess
    import sys
    proc = subprocess.run([sys.executable, "-m", "cli", "engine", "--max-queue", bad], cwd=REPO, input=b"",
                          capture_output=True, timeout=60, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 2
    assert proc.stderr.decode().strip().splitlines() == [
        f"error: --max-queue must be from 1 to 100000, not {bad}"]


# ------------------------------------------------------------------------------------------------
# Deep lines keep their id


@pytest.mark.parametrize("depth", [MAX_LINE_NESTING + 1, 500, 200_000])
def test_a_line_nested_too_deep_is_answered_with_its_id(depth):
    out = io.StringIO()
    server = EngineServer(out, threads=1)
    line = '{"id": "deep", "maxIterations": 5, "position": ' + "[" * depth + "]" * depth + "}"
    server.handle_line(line.encode())
    server.handle_line(b'{"maxIterations": 5, "id": 7, "position": ' + b"{\"a\":" * depth + b"1" + b"}" * depth + b"}")
    answers = lines_of(out)
    assert [a["id"] for a in answers] == ["deep", 7]
    assert all("nested deeper than" in a["error"] for a in answers)


@pytest.mark.parametrize("line, expected", [
    ('{"id": "x", "position": [[[', "x"),
    ('  {"position": {"id": "inner"}, "id": 12, "z": [', 12),
    ('{"position": {"id": "inner"}} ', None),            # an inner id is not the line's
    ('{"note": "\\"id\\": \\"fake\\"", "id": "real", ', "real"),
    ('["id", "x"]', None),
    ('{"id": ["x"]}', None),
    ('{"id": "' + "x" * 300 + '"', None),                 # too long to be an id
    ('{"id": "x}', None),
    ("", None),
])
def test_scan_id_reads_only_a_top_level_id(line, expected):
    assert scan_id(line) == expected


def test_parse_line_still_refuses_deep_lines():
    with pytest.raises(QueryError, match="nested deeper"):
        parse_line("[" * (MAX_LINE_NESTING + 1) + "]" * (MAX_LINE_NESTING + 1))


# ------------------------------------------------------------------------------------------------
# The moves form's `?`


def _random_game(players: int, seed: int) -> tuple[GameRecord, list]:
    state = Game(players).new_initial_state(seed)
    rng = random.Random(seed)
    record = GameRecord.new(players, seed)
    states = [state.clone()]
    while not state.is_terminal():
        action = random_action(state, rng)
        record.add(state, action)
        state.apply_action(action)
        states.append(state.clone())
    return record, states


# (players, seed, steps): a `?` of another seat's pyramid or blind draw followed by its public moves.
CUTS = [(2, 0, 100), (2, 1, 257), (3, 0, 160), (3, 1, 160), (4, 0, 60), (4, 1, 641), (2, 2, 100)]


@pytest.mark.parametrize("players, seed, cut", CUTS)
def test_question_marks_are_filled_so_later_moves_stay_legal(players, seed, cut):
    record, states = _random_game(players, seed)
    cut = min(cut, len(record.steps) - 1)
    export = GameRecord(players=players, seats=record.seats, seed=seed, steps=record.steps[:cut]).for_seat("A")
    moves = [s.move if s.move is not None else "?" for s in export.steps]
    assert "?" in moves
    state = apply_view_moves(Game(players).new_initial_state(seed), moves, 0)
    truth = states[cut]
    assert state.to_json(0) == truth.to_json(0)              # seat A cannot tell the fill from the game
    assert state.information_state_key(0) == truth.information_state_key(0)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_question_marks_of_a_venice_deal_are_filled_so_every_later_play_stays_legal(players):
    """Issue 34: the other seats' cards of a 3-5 player Venice 2099 deal written `?`, then their plays: the
    depth-first fill ran out of its 20,000 steps; the fill now redraws the hands where a play needs it."""
    from burano_ai.games import get_spec
    from burano_ai.session import GameSession
    session = GameSession(players, 4, ["random"] * players, game="venice-2099")
    session.advance()
    record = session.record
    game = get_spec("venice-2099").new_game(players)
    for cut in (len(record.steps) // 2, len(record.steps)):
        export = GameRecord(players=players, seats=record.seats, seed=4, steps=record.steps[:cut],
                            game="venice-2099").for_seat("A")
        moves = [s.move if s.move is not None else "?" for s in export.steps]
        state = apply_view_moves(game.new_initial_state(4), moves, 0, game="venice-2099")
        truth = GameRecord(players=players, seats=record.seats, seed=4, steps=record.steps[:cut],
                           game="venice-2099").replay()
        assert state.to_json(0) == truth.to_json(0)


def test_the_engine_answers_a_moves_form_whose_question_marks_precede_public_moves():
    record, states = _random_game(2, 1)
    export = record.for_seat("A")
    cut = max(i for i in range(len(export.steps)) if not states[i].is_terminal() and not states[i].is_chance_node()
              and states[i].current_player() == 0)
    moves = [s.move if s.move is not None else "?" for s in export.steps[:cut]]
    out = io.StringIO()
    server = EngineServer(out, threads=1)
    server.handle_line(json.dumps({"id": "late", "maxIterations": 20,
                                   "position": {"players": 2, "seed": 1, "moves": moves, "view": "A"}}))
    server.handle_line(b"")
    stream = io.BytesIO(b"")
    server.serve(stream)
    answers = lines_of(out)
    assert len(answers) == 1 and answers[0]["id"] == "late"
    assert answers[0].get("isDuringSearch") is False, answers[0]


def test_a_question_mark_where_the_seat_sees_the_step_is_refused():
    with pytest.raises(QueryError, match="sees this step: name it"):
        apply_view_moves(Game(2).new_initial_state(1), ["?"], 0)


def test_a_move_illegal_whatever_the_fills_names_the_move():
    record, _ = _random_game(2, 0)
    export = record.for_seat("A")
    moves = [s.move if s.move is not None else "?" for s in export.steps[:100]] + ["sail to Torcello"]
    with pytest.raises(QueryError, match=r"position.moves\[100\] 'sail to Torcello'"):
        apply_view_moves(Game(2).new_initial_state(0), moves, 0)


# ------------------------------------------------------------------------------------------------
# Reading while a position loads


class BlockingGame:
    """A Game factory whose deals wait for `release`: a position that takes as long as the test likes."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.entered = threading.Event()

    def __call__(self, num_players: int):
        self.entered.set()
        assert self.release.wait(60), "never released"
        return Game(num_players)


def test_control_lines_are_answered_while_a_position_loads():
    factory = BlockingGame()
    read_w, write_w = __import__("os").pipe()
    out = io.StringIO()
    server = EngineServer(out, threads=1, game_factory=factory)
    serving = threading.Thread(target=server.serve, args=(open(read_w, "rb"),), daemon=True)
    serving.start()
    writer = open(write_w, "wb", buffering=0)
    writer.write(b'{"id": "slow", "maxIterations": 5, "position": {"players": 2, "seed": 1, "moves": []}}\n')
    assert factory.entered.wait(30)
    writer.write(b'{"id": "v", "action": "query_version"}\n')
    writer.write(b'{"id": "t", "action": "terminate", "terminateId": "slow"}\n')
    deadline = __import__("time").monotonic() + 30
    while len(lines_of(out)) < 3 and __import__("time").monotonic() < deadline:
        __import__("time").sleep(0.01)
    answers = lines_of(out)
    assert [a["id"] for a in answers] == ["v", "t", "slow"], answers
    assert answers[1]["found"] is True
    assert answers[2]["error"] == "terminated before its position was loaded"
    factory.release.set()                                    # the load ends; its result is dropped
    writer.write(b'{"id": "q", "action": "quit"}\n')
    serving.join(30)
    assert not serving.is_alive()
    assert [a["id"] for a in lines_of(out)] == ["v", "t", "slow", "q"]     # "slow" answered once


def test_the_engine_answers_version_and_quit_during_a_pathological_replay(tmp_path):
    # A one-seat export whose other seat's steps are all nulled: its hidden-step fill was exponential, and the
    # input thread that ran it answered nothing more (not even quit).
    record, _ = _random_game(2, 5)
    export = record.for_seat("A").to_dict()
    for step in export["steps"]:
        if step["actor"] != "A":
            step["move"] = None
    engine = EngineProcess("--threads", "1")
    try:
        engine.send({"id": "slow", "position": export, "maxIterations": 10})
        engine.send({"id": "v", "action": "query_version"})
        while engine.next()["id"] != "v":      # the record may also be refused at once (then "slow" comes first)
            pass
        engine.send({"id": "q", "action": "quit"})
        assert engine.close() == 0
        ids = [line["id"] for line in engine.seen]
        assert sorted(ids) == ["q", "slow", "v"], engine.seen
        assert is_final(next(line for line in engine.seen if line["id"] == "slow"))
        assert b"Traceback" not in engine.stderr
    finally:
        if engine.proc.poll() is None:
            engine.proc.kill()
