"""Games that survive a restart (issue 35): `burano serve --store` keeps every game in SQLite, each move
written before it is answered; a restarted server (in-process, or after a `kill -9`) restores every game
with its tokens, its record, whose turn, and its bots thinking again. The store holds no token and no
secret a client could use; a file that is not a store, a damaged one or a newer one is refused in one line
and left as it is."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import warnings
from pathlib import Path

import httpx
import pytest

from burano_ai.web.limits import ServerLimits
from burano_ai.web.store import APPLICATION_ID, GameStore, StoreError
from signal_helpers import terminal_signals

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def serve_store(tmp_path):
    """`start()` serves an app on the store file in tmp_path (the previous app, if any, stopped and its store
    closed first: a restart) and returns a TestClient."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from burano_ai.web.app import create_app
    path = tmp_path / "games.sqlite3"
    running = []

    def stop():
        while running:
            client, store = running.pop()
            client.__exit__(None, None, None)   # the app's end: its games let go, kept in the store
            store.close()

    def start(limits: ServerLimits | None = None):
        stop()
        store = GameStore(path)
        client = TestClient(create_app(limits=limits, store=store), raise_server_exceptions=False,
                            base_url="http://127.0.0.1")
        client.__enter__()
        running.append((client, store))
        return client
    start.path, start.stop = path, stop
    yield start
    stop()


def _seat(payload: dict) -> dict:
    return {"X-Burano-Token": payload["tokens"][payload["seat"]]}


def _wait_turn(client, game: str, token: dict, timeout: float = 20.0) -> dict:
    """The seat's payload once it is to move (or the game is over): its bots have moved."""
    deadline = time.monotonic() + timeout
    while True:
        payload = client.get(f"/api/games/{game}", headers=token).json()
        if payload["legal"] or payload["over"] or time.monotonic() > deadline:
            return payload
        time.sleep(0.01)


def _full_record(client, game: str) -> list[dict]:
    return [s.to_dict() for s in client.app.state.games.get(game).session.record.steps]


def test_a_restarted_server_restores_every_game_where_it_stood(serve_store):
    client = serve_store()
    created = client.post("/api/games", json={"kind": "goofspiel", "players": 2, "seats": ["human", "random"]}).json()
    game, token = created["game"], _seat(created)
    seeded = client.post("/api/games", json={"kind": "goofspiel", "players": 2, "seats": ["human", "random"],
                                             "seed": 11}).json()
    payload = created
    for _ in range(4):
        payload = client.post(f"/api/games/{game}/move", json={"move": payload["legal"][-1]}, headers=token).json()
        payload = _wait_turn(client, game, token)
    undone = client.post(f"/api/games/{game}/undo", json={}, headers=token)
    assert undone.status_code == 200, undone.text
    before = _wait_turn(client, game, token)
    steps = _full_record(client, game)
    seeded_before = _wait_turn(client, seeded["game"], _seat(seeded))

    client = serve_store()      # the restart
    after = _wait_turn(client, game, token)
    for key in ("ply", "view", "legal", "log", "marks", "to_move", "setup", "humans"):
        assert after[key] == before[key], key
    assert after["version"] > before["version"]    # an open page takes the restored game's payloads
    assert _full_record(client, game) == steps
    assert _wait_turn(client, seeded["game"], _seat(seeded))["view"] == seeded_before["view"]
    assert client.get(f"/api/games/{game}", headers={"X-Burano-Token": "nope"}).status_code == 403
    while not after["over"]:     # the game goes on to its end, the bot replying
        after = client.post(f"/api/games/{game}/move", json={"move": after["legal"][0]}, headers=token).json()
        after = _wait_turn(client, game, token)
    assert after["ply"] > before["ply"] and after["scores"]
    client = serve_store()      # a finished game comes back finished
    assert client.get(f"/api/games/{game}", headers=token).json()["result_text"] == after["result_text"]


def test_a_bot_to_move_when_the_server_stopped_thinks_again(serve_store):
    client = serve_store()
    created = client.post("/api/games", json={"kind": "burano", "players": 2,
                                              "seats": ["human", "ismcts:iterations=200000,threads=1"]}).json()
    game, token = created["game"], _seat(created)
    payload = created
    while payload["thinking"] is None:     # A's picks, until B (a long search) is to move
        payload = client.post(f"/api/games/{game}/move", json={"move": payload["legal"][0]}, headers=token).json()
    assert payload["thinking"] == "B"
    kept = len(_full_record(client, game))

    client = serve_store(ServerLimits(bot_seconds=0.2))    # the bot stopped mid-think: nothing of it was kept
    restored = client.app.state.games.get(game)
    assert len(restored.session.record.steps) == kept
    payload = _wait_turn(client, game, token)
    assert payload["legal"] and any(step.actor == "B" for step in restored.session.record.steps[kept:])


def _goofspiel_with_moves(client, moves: int = 2) -> tuple[str, dict]:
    created = client.post("/api/games", json={"kind": "goofspiel", "players": 2, "seats": ["human", "random"]}).json()
    game, token = created["game"], _seat(created)
    payload = created
    for _ in range(moves):
        client.post(f"/api/games/{game}/move", json={"move": payload["legal"][0]}, headers=token)
        payload = _wait_turn(client, game, token)
    return game, token


def test_a_restart_replays_no_game_before_its_first_request(serve_store, monkeypatch):
    """A restart reads the games' rows only, so it listens at once however many games are kept; a game is
    replayed at its first request (a move's included: off the event loop), the others stay as they were."""
    from burano_ai.session import GameSession
    from burano_ai.web.games import LiveGame, PendingGame
    client = serve_store()
    made = [_goofspiel_with_moves(client) for _ in range(3)]
    before = [_wait_turn(client, game, token) for game, token in made]
    replays = []
    resume = GameSession.resume.__func__
    monkeypatch.setattr(GameSession, "resume", classmethod(lambda cls, record, *a, **k: replays.append(record)
                                                            or resume(cls, record, *a, **k)))
    client = serve_store()
    hub = client.app.state.games
    assert replays == [] and [type(g) for g in hub.games.values()] == [PendingGame] * 3
    (first, token), (second, second_token) = made[0], made[1]
    assert _wait_turn(client, first, token)["log"] == before[0]["log"]
    assert len(replays) == 1 and isinstance(hub.games[first], LiveGame) and hub.is_pending(second)
    moved = client.post(f"/api/games/{second}/move", json={"move": before[1]["legal"][0]}, headers=second_token)
    assert moved.status_code == 200 and moved.json()["ply"] > before[1]["ply"]
    assert len(replays) == 2 and hub.is_pending(made[2][0])
    assert client.get(f"/api/games/{made[2][0]}", headers={"X-Burano-Token": "nope"}).status_code == 403


def test_a_kept_game_that_cannot_be_replayed_answers_503_and_stays_in_the_store(serve_store):
    client = serve_store()
    (bad, bad_token), (good, good_token) = _goofspiel_with_moves(client), _goofspiel_with_moves(client)
    serve_store.stop()
    _sqlite(serve_store.path, f"UPDATE steps SET step = '{{\"actor\": \"A\", \"move\": \"bid 99\"}}' "
                              f"WHERE game = '{bad}' AND ply = 1")
    client = serve_store()                         # it listens: the damage shows at the game's first request
    for _ in range(2):
        answer = client.get(f"/api/games/{bad}", headers=bad_token)
        assert answer.status_code == 503 and f"game {bad[:8]}… cannot be restored" in answer.json()["error"], \
            answer.text
    assert client.post(f"/api/games/{bad}/move", json={"move": "bid 1"}, headers=bad_token).status_code == 503
    assert client.get(f"/api/games/{good}", headers=good_token).status_code == 200
    serve_store.stop()
    assert bad in [row[0] for row in _rows(serve_store.path, "SELECT id FROM games")]


def test_a_game_forgotten_before_its_first_request_leaves_the_store_unreplayed(serve_store):
    client = serve_store()
    kept, _ = _goofspiel_with_moves(client)
    client = serve_store(ServerLimits(client_games=1))
    _goofspiel_with_moves(client, moves=0)        # the client's share: its kept game makes room
    assert kept not in client.app.state.games.games
    serve_store.stop()
    assert kept not in [row[0] for row in _rows(serve_store.path, "SELECT id FROM games")]


def test_the_store_keeps_no_token_and_no_secret(serve_store):
    client = serve_store()
    created = client.post("/api/games", json={"kind": "goofspiel", "players": 2, "seats": ["human", "human"]}).json()
    tokens = list(created["tokens"].values())
    serve_store.stop()
    data = b"".join(p.read_bytes() for p in serve_store.path.parent.iterdir())   # the file, its WAL
    assert all(t.encode() not in data for t in tokens)
    row = _rows(serve_store.path, "SELECT setup, header FROM games")[0]
    setup, header = json.loads(row[0]), json.loads(row[1])
    assert setup["seeded"] is False and "seed" not in setup and header["seed"] is None
    client = serve_store()
    for seat, token in created["tokens"].items():   # and every token still opens its seat
        assert client.get(f"/api/games/{created['game']}", headers={"X-Burano-Token": token}).json()["seat"] == seat


def test_a_forgotten_game_leaves_the_store(serve_store):
    client = serve_store(ServerLimits(client_games=1))
    first = client.post("/api/games", json={"kind": "goofspiel", "players": 2, "seats": ["human", "random"]}).json()
    client.post("/api/games", json={"kind": "goofspiel", "players": 2, "seats": ["human", "random"]})
    serve_store.stop()
    ids = [row[0] for row in _rows(serve_store.path, "SELECT id FROM games")]
    assert len(ids) == 1 and first["game"] not in ids
    assert not _rows(serve_store.path, f"SELECT 1 FROM steps WHERE game = '{first['game']}'")


def _rows(path: Path, query: str) -> list[tuple]:
    db = sqlite3.connect(path)
    try:
        return db.execute(query).fetchall()
    finally:
        db.close()


def _free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_serve(port: int, store: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(port), "--store", str(store)],
                            cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=terminal_signals)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"burano serve did not start: {proc.communicate(timeout=10)}")


def test_kill_9_then_restart_loses_no_answered_move(tmp_path):
    """A real `burano serve`, killed with SIGKILL right after answering moves: restarted on the same store,
    every game is back at its last answered move (or past it: a bot's reply), its tokens open it, and it
    plays on."""
    port, store = _free_port(), tmp_path / "games.sqlite3"
    url = f"http://127.0.0.1:{port}"
    proc = _start_serve(port, store)
    answered = {}
    try:
        with httpx.Client(base_url=url, timeout=30) as http:
            for kind, seats in (("goofspiel", ["human", "random"]), ("burano", ["human", "random"])):
                payload = http.post("/api/games", json={"kind": kind, "players": 2, "seats": seats}).json()
                game, token = payload["game"], _seat(payload)
                for _ in range(3):
                    payload = _wait_turn(http, game, token)
                    payload = http.post(f"/api/games/{game}/move", json={"move": payload["legal"][0]},
                                        headers=token).json()
                answered[game] = (token, payload["ply"], payload["log"][:payload["ply"]])
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    proc = _start_serve(port, store)
    try:
        assert "2 games restored" in proc.stdout.readline() + proc.stdout.readline()
        with httpx.Client(base_url=url, timeout=30) as http:
            for game, (token, ply, log) in answered.items():
                payload = _wait_turn(http, game, token)
                assert payload["ply"] >= ply and payload["log"][:ply] == log
                moved = http.post(f"/api/games/{game}/move", json={"move": payload["legal"][0]}, headers=token)
                assert moved.status_code == 200 and moved.json()["ply"] > payload["ply"]
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)


# -- stores that are refused ---------------------------------------------------------------------------

def _serve_refuses(runner, monkeypatch, path: Path, *words: str) -> None:
    import uvicorn
    from cli import app
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: pytest.fail("served on a bad store"))
    before = path.read_bytes()
    result = runner.invoke(app, ["serve", "--port", "0", "--store", str(path)])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: --store {path}"), lines
    for word in words:
        assert word in lines[0], (word, lines)
    assert path.read_bytes() == before      # nothing overwritten


def _sqlite(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


def test_a_file_that_is_not_a_store_is_refused_and_left_as_it_is(runner, monkeypatch, tmp_path):
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not a database at all, but somebody's notes\n" * 100)
    _serve_refuses(runner, monkeypatch, garbage, "not a burano serve store or damaged")
    other = tmp_path / "other.sqlite3"
    _sqlite(other, "CREATE TABLE notes (text)", "INSERT INTO notes VALUES ('mine')")
    _serve_refuses(runner, monkeypatch, other, "another program's SQLite database")


def test_a_newer_or_damaged_store_is_refused_and_left_as_it_is(runner, monkeypatch, tmp_path):
    newer = tmp_path / "newer.sqlite3"
    _sqlite(newer, f"PRAGMA application_id={APPLICATION_ID}", "PRAGMA user_version=99", "CREATE TABLE games (x)")
    _serve_refuses(runner, monkeypatch, newer, "written by a newer burano (store version 99")
    damaged = tmp_path / "damaged.sqlite3"
    GameStore(damaged).close()
    _sqlite(damaged, "INSERT INTO games VALUES ('g0123456789', 'x', '{}', '{\"format\": 1}', '{}', 0)")
    _serve_refuses(runner, monkeypatch, damaged, "game g0123456…", "cannot be restored")
    truncated = tmp_path / "truncated.sqlite3"
    store = GameStore(truncated)
    store.save("g1", "c", {"kind": "goofspiel"}, {"format": "burano-game/1"}, {}, [{"actor": "A"}] * 300, 0, new=True)
    store.close()
    truncated.write_bytes(truncated.read_bytes()[:6000])
    _serve_refuses(runner, monkeypatch, truncated, "damaged")


def test_a_store_in_use_by_another_server_is_refused(runner, monkeypatch, tmp_path):
    path = tmp_path / "games.sqlite3"
    held = GameStore(path)
    try:
        with pytest.raises(StoreError, match="in use by another burano serve"):
            GameStore(path)
    finally:
        held.close()
    GameStore(path).close()     # free again once the first one closed


def test_serve_says_where_games_are_kept_and_memory_keeps_none(runner, monkeypatch, tmp_path):
    import uvicorn
    from cli import app
    served = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: served.append(app))
    path = tmp_path / "deep" / "games.sqlite3"
    result = runner.invoke(app, ["serve", "--port", "0", "--store", str(path)])
    assert result.exit_code == 0, result.output
    assert f"games are kept in {path} and survive a restart" in result.stdout and path.exists()
    result = runner.invoke(app, ["serve", "--port", "0", "--store", ":memory:"])
    assert result.exit_code == 0 and "games are kept in memory only" in result.stdout
    assert not (tmp_path / ":memory:").exists() and not Path(":memory:").exists()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    kinds = [TestClient(a, base_url="http://127.0.0.1").get("/api/games/kinds").json()["games_kept"] for a in served]
    assert kinds == [True, False]
    result = runner.invoke(app, ["serve", "--port", "0"])      # the default: under $XDG_STATE_HOME
    assert f"games are kept in {os.environ['XDG_STATE_HOME']}/burano/games.sqlite3" in result.stdout
