"""The web board's HTTP API as the page uses it, and every route given bad input: one JSON error naming
the problem with a 4xx status, never a 500 or a traceback. Plus `burano serve` started as a command."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from burano_ai.games import game_keys, get_spec
from signal_helpers import terminal_signals

REPO = Path(__file__).resolve().parents[2]


def _assert_error(response, status: int, *words: str) -> dict:
    assert response.status_code == status, (response.status_code, response.text)
    body = response.json()
    assert set(body) <= {"error", "field"} and body["error"], body
    assert "\n" not in body["error"] and "Traceback" not in body["error"], body
    for word in words:
        assert word in body["error"], (word, body)
    return body


def _new_game(client, seats=("human", "random"), seed=3):
    """A new game; the client then holds its first human seat's token (sent with every request)."""
    body = {"players": len(seats), "seats": list(seats)}
    if seed is not None:
        body["seed"] = seed
    response = client.post("/api/games", json=body)
    assert response.status_code == 200, response.text
    return _hold(client, response.json())


def _hold(client, payload, seat=None):
    """The client sends `seat`'s token (default: the payload's seat) from now on; returns the payload."""
    client.headers["X-Burano-Token"] = payload["tokens"][seat or payload["seat"]]
    return payload


def _with(token):
    return {"X-Burano-Token": token}


def test_the_page_and_its_static_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and '<div id="board"></div>' in page.text and "generic-board.js" in page.text
    assert "games/burano" not in page.text   # the page knows no game: board modules come from /api/games/kinds
    for name in ("app.js", "generic-board.js", "games/burano/board.js", "style.css"):   # the last from burano_ai/games/burano/web/
        assert client.get(f"/static/{name}").status_code == 200
    _assert_error(client.get("/static/nothing.js"), 404)
    _assert_error(client.get("/no/such/route"), 404)
    _assert_error(client.get("/api/games"), 405)


def test_the_registered_games_are_listed_for_the_chooser(client):
    from burano_ai.games import DEFAULT_GAME, all_specs
    body = client.get("/api/games/kinds").json()
    assert body["default"] == DEFAULT_GAME == "burano" and body["seat_letters"] == "ABCDEF"
    assert [k["key"] for k in body["kinds"]] == [spec.key for spec in all_specs()]
    burano = body["kinds"][0]
    assert burano == {"key": "burano", "title": "Burano", "min_players": 2, "max_players": 4, "default_players": 4,
                      "board": "/static/games/burano/board.js", "editor": True, "bots": ["greedy"],
                      "score_name": "vp", "options": []}
    goofspiel = next(k for k in body["kinds"] if k["key"] == "goofspiel")   # the generic board, no editor
    assert goofspiel == {"key": "goofspiel", "title": "Goofspiel", "min_players": 2, "max_players": 5,
                         "default_players": 2, "board": None, "editor": False, "bots": [], "score_name": "points",
                         "options": goofspiel["options"]}
    assert [o["name"] for o in goofspiel["options"]] == ["num_cards", "points_order"]
    for kind in body["kinds"]:   # every board module is served; a game without one has none (the generic board)
        spec = next(s for s in all_specs() if s.key == kind["key"])
        assert (kind["board"] is not None) == ("web_board" in spec.capabilities)
        assert kind["board"] is None or client.get(kind["board"]).status_code == 200
        assert kind["min_players"] <= kind["default_players"] <= kind["max_players"]


def test_a_game_without_a_board_module_or_editor_is_told_apart(client, monkeypatch):
    """The server reads the spec's capabilities only: a game declaring no board module gets none (the
    page's generic board), a game without the editor capability gets no deal for the editor."""
    import dataclasses

    from burano_ai import games
    from burano_ai.web.games import kind_info
    plain = dataclasses.replace(games.get_spec("burano"), capabilities=frozenset({"native_search"}))
    assert kind_info(plain)["board"] is None and kind_info(plain)["editor"] is False
    monkeypatch.setitem(games._loaded, "burano", plain)
    _assert_error(client.get("/api/deal", params={"kind": "burano", "players": 2}), 400, "no position editor")
    assert client.get("/api/games/kinds").json()["kinds"][0]["board"] is None


def _await_turn(client, payload):
    """The seat's payload once the bots have moved (a bot moves in a thread after the answer)."""
    for _ in range(2000):
        if payload["over"] or payload["legal"]:
            return payload
        time.sleep(0.005)
        payload = client.get(f"/api/games/{payload['game']}", params={"seat": payload["seat"]}).json()
    raise AssertionError(f"no turn for {payload['seat']} after the bots: {payload['to_move']}")


@pytest.mark.parametrize("key", game_keys())
def test_every_registered_game_plays_to_the_end_through_the_api(client, key):
    """The web smoke of every game: its smallest table, seat A by random legal moves, the rest random bots,
    to the end; every payload says the game and shows seat A's view only."""
    spec = get_spec(key)
    players = spec.min_players
    seats = ["human"] + ["random"] * (players - 1)
    payload = _hold(client, client.post("/api/games", json={"kind": key, "players": players, "seed": 5,
                                                            "seats": seats}).json())
    rng = random.Random(2)
    moves = 0
    while not payload["over"]:
        payload = _await_turn(client, payload)
        if payload["over"]:
            break
        assert payload["kind"] == key and payload["seat"] == "A" and payload["to_move"] == "A"
        assert payload["view"].get("view", "A") == "A"
        legal = payload["legal"]
        move = "done" if "done" in legal and rng.random() < 0.5 else rng.choice(legal)   # Burano's turns end sooner
        payload = client.post(f"/api/games/{payload['game']}/move", json={"move": move}).json()
        moves += 1
        assert moves < 5000, "the game does not end"
    assert payload["kind"] == key and len(payload["scores"]) == players and payload["winners"], payload
    print(f"{key}: {moves} moves of seat A, scores {payload['scores']}")
    assert set(payload["winners"]) <= set("ABCDEF"[:players])


def test_a_goofspiel_game_names_its_game_everywhere(client):
    """The second game through every route: 5 players (beyond Burano's range), its record, replay,
    position check and analysis all say `goofspiel`; it has no editor deal."""
    seats = ["human", "random", "random", "ismcts:iterations=50,threads=1", "random"]
    payload = _await_turn(client, _hold(client, client.post("/api/games", json={"kind": "goofspiel", "players": 5,
                                                                                "seed": 2, "seats": seats}).json()))
    assert payload["kind"] == "goofspiel" and payload["setup"]["players"] == 5
    assert payload["view"]["format"] == "goofspiel-position/1" and payload["view"]["view"] == "A"
    assert payload["legal"] == [f"bid {card}" for card in payload["view"]["seats"][0]["hand"]]
    game = payload["game"]
    payload = _await_turn(client, client.post(f"/api/games/{game}/move", json={"move": payload["legal"][-1]}).json())
    assert payload["log"][1] == f"A: {payload['log'][1][3:]}" and "bids (hidden)" in payload["log"][2]
    record = client.get(f"/api/games/{game}/record", params={"seat": "A"})
    assert f'filename="goofspiel-{game[:8]}.json"' in record.headers["content-disposition"]
    assert json.loads(record.text)["game"] == "goofspiel"
    replay = client.post("/api/replays", json={"record": record.text}).json()
    assert replay["kind"] == "goofspiel" and replay["seat"] == "A" and replay["plies"] == payload["ply"]
    checked = client.post("/api/position", json={"position": payload["view"]}).json()
    assert checked["kind"] == "goofspiel" and checked["to_move"] == "A" and checked["legal"] == payload["legal"]
    analysis = client.post(f"/api/games/{game}/analysis", json={}).json()
    assert analysis["kind"] == "goofspiel"
    client.post(f"/api/analysis/{analysis['id']}/stop", headers=_with(analysis["token"]))
    _assert_error(client.get("/api/deal", params={"kind": "goofspiel", "players": 2}), 400, "Goofspiel has no position editor")
    _assert_error(client.post("/api/games", json={"kind": "goofspiel", "players": 6, "seats": ["human"] * 6}), 400,
                  "players must be 2 to 5 for Goofspiel")
    _assert_error(client.post("/api/games", json={"kind": "goofspiel", "players": 2, "seats": ["human", "greedy"]}),
                  400, "seats[1] (B)")


def test_a_new_game_gives_the_human_seat_its_view_and_its_moves(client):
    payload = _new_game(client)
    assert payload["seat"] == "A" and payload["view"]["view"] == "A"
    assert payload["legal"] == ["pick island", "pick workshop", "pick fountains", "pick flat"]
    assert payload["setup"] == {"kind": "burano", "players": 2, "seed": 3, "seats": ["human", "random"],
                                "seeded": True}
    assert payload["kind"] == "burano"
    again = client.get(f"/api/games/{payload['game']}", params={"seat": "A"}).json()
    assert again["view"] == payload["view"]


@pytest.mark.parametrize("body, words", [
    (None, ["empty"]),
    (b"{not json", ["not JSON"]),
    (b"[1, 2]", ["JSON object"]),
    ({"seed": 1, "seats": ["human", "random"]}, ["missing field 'players'"]),
    ({"players": "2", "seats": ["human", "random"]}, ["players"]),
    ({"players": True, "seats": ["human", "random"]}, ["players"]),
    ({"players": 5, "seats": ["human"] * 5}, ["players must be 2 to 4 for Burano"]),
    ({"players": 1, "seats": ["human"]}, ["players must be 2 to 4 for Burano"]),
    ({"kind": "chess", "players": 2, "seats": ["human", "random"]}, ["unknown game 'chess'", "burano"]),
    ({"kind": 3, "players": 2, "seats": ["human", "random"]}, ["'kind' must be str"]),
    ({"kind": "burano", "players": 7, "seats": ["human"] * 7}, ["players must be 2 to 4"]),
    ({"players": 2, "seed": -1, "seats": ["human", "random"]}, ["seed"]),
    ({"players": 2, "seed": 2**70, "seats": ["human", "random"]}, ["seed"]),
    ({"players": 2, "seats": ["human"]}, ["seats must list 2"]),
    ({"players": 2, "seats": "human,random"}, ["seats"]),
    ({"players": 2, "seats": ["human", "nobot"]}, ["seats[1] (B)", "unknown bot"]),
    ({"players": 2, "seats": ["human", "ismcts:time=-1"]}, ["seats[1] (B)"]),
    ({"players": 2, "seats": ["random", "random"]}, ["human"]),
])
def test_new_game_refuses_bad_setups(client, body, words):
    if body is None:
        response = client.post("/api/games", headers={"Content-Type": "application/json"})
    elif isinstance(body, bytes):
        response = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    else:
        response = client.post("/api/games", json=body)
    _assert_error(response, 400, *words)


def test_game_routes_refuse_unknown_games_and_seats(client):
    game = _new_game(client)["game"]
    for method, url in (("get", "/api/games/nope"), ("get", "/api/games/nope/events"),
                        ("get", "/api/games/nope/record"), ("post", "/api/games/nope/move"),
                        ("post", "/api/games/nope/undo"), ("post", "/api/games/nope/analysis")):
        kwargs = {"json": {"move": "done"}} if method == "post" else {}
        _assert_error(getattr(client, method)(url, **kwargs), 404, "no game")
    _assert_error(client.get(f"/api/games/{game}", params={"seat": "B"}), 400, "not a human seat")
    _assert_error(client.get(f"/api/games/{game}", params={"seat": "Q"}), 400, "not a seat")
    _assert_error(client.get(f"/api/games/{game}/events", params={"seat": "B"}), 400, "not a human seat")
    _assert_error(client.get(f"/api/games/{game}/record", params={"seat": "C"}), 400, "not a seat")
    _assert_error(client.post(f"/api/games/{game}/move", json={"seat": "B", "move": "done"}), 400, "not a human seat")
    _assert_error(client.post(f"/api/games/{game}/move", json={"seat": 7, "move": "done"}), 400, "not a seat")
    _assert_error(client.post(f"/api/games/{game}/analysis", json={"seat": "B"}), 400, "not a human seat")


def test_moves_refuse_bad_and_illegal_text_and_leave_the_game_as_it_was(client):
    payload = _new_game(client)
    game = payload["game"]
    _assert_error(client.post(f"/api/games/{game}/move", json={}), 400, "missing field 'move'")
    _assert_error(client.post(f"/api/games/{game}/move", json={"move": 3}), 400, "'move' must be str")
    _assert_error(client.post(f"/api/games/{game}/move", json={"move": "fly away"}), 400, "cannot parse move")
    _assert_error(client.post(f"/api/games/{game}/move", json={"move": "take b5"}), 400, "take b5")
    _assert_error(client.post(f"/api/games/{game}/undo", json={}), 409, "no move to undo")
    assert client.get(f"/api/games/{game}").json()["view"] == payload["view"]


def test_a_seat_that_is_not_to_move_is_told_so(client):
    payload = _new_game(client, seats=("human", "human"), seed=None)    # two people: a secret deal
    game = payload["game"]
    b = _with(payload["tokens"]["B"])
    _assert_error(client.post(f"/api/games/{game}/move", json={"seat": "B", "move": "pick flat"}, headers=b), 409,
                  "not to move")
    _assert_error(client.post(f"/api/games/{game}/analysis", json={"seat": "B"}, headers=b), 400)


def test_move_undo_and_the_record(client):
    game = _new_game(client)["game"]
    after = client.post(f"/api/games/{game}/move", json={"move": "pick flat"}).json()
    assert after["log"][0].startswith("A: pick flat") and "pick flat" not in after["legal"]
    undone = client.post(f"/api/games/{game}/undo", json={"seat": "A"}).json()
    assert undone["log"] == [] and "pick flat" in undone["legal"]
    client.post(f"/api/games/{game}/move", json={"move": "pick island"})
    record = client.get(f"/api/games/{game}/record", params={"seat": "A"})
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    data = json.loads(record.text)
    assert data["format"] == "burano-game/1" and data["steps"][0]["move"] == "pick island"
    assert f'filename="burano-{game[:8]}.json"' in record.headers["content-disposition"]
    replay = client.post("/api/replays", json={"record": record.text, "seat": "A"}).json()
    assert replay["kind"] == "burano" and replay["plies"] == len(data["steps"])


def test_the_event_stream_sends_the_seats_payload(client):
    game = _new_game(client)["game"]
    with client.stream("GET", f"/api/games/{game}/events", params={"seat": "A"}) as stream:
        for line in stream.iter_lines():
            if line.startswith("data: "):
                payload = json.loads(line[6:])
                break
    assert payload["game"] == game and payload["view"]["view"] == "A"


def test_analysis_routes(client):
    _assert_error(client.get("/api/analysis/nope"), 404, "no analysis")
    _assert_error(client.get("/api/analysis/nope/events"), 404, "no analysis")
    _assert_error(client.post("/api/analysis/nope/stop"), 404, "no analysis")
    _assert_error(client.post("/api/analysis", json={}), 400, "missing field 'position'")
    _assert_error(client.post("/api/analysis", json={"position": 5}), 400, "position")
    _assert_error(client.post("/api/analysis", json={"position": "{"}), 400, "malformed JSON")
    from burano_ai.games.burano.deal import deal
    from burano_ai.games.burano.notation import position_to_dict
    start = position_to_dict(deal(2, 1))
    started = client.post("/api/analysis", json={"position": start})
    assert started.status_code == 200, started.text
    assert started.json()["kind"] == "burano"   # from the position's format tag
    analysis, own = started.json()["id"], _with(started.json()["token"])
    stopped = client.post(f"/api/analysis/{analysis}/stop", headers=own).json()
    assert stopped["id"] == analysis
    for _ in range(200):
        if client.get(f"/api/analysis/{analysis}", headers=own).json()["done"]:
            break
        time.sleep(0.05)
    final = client.get(f"/api/analysis/{analysis}", headers=own).json()
    assert final["done"] and final["result"]["candidates"], final


def test_the_editor_validates_with_the_loader_and_names_the_field(client):
    from burano_ai.games.burano.deal import deal
    from burano_ai.games.burano.notation import position_to_dict
    start = position_to_dict(deal(3, 2))
    ok = client.post("/api/position", json={"position": start}).json()
    assert ok["kind"] == "burano"
    assert ok["ok"] and ok["players"] == 3 and ok["to_move"] == "A" and ok["legal"]
    bad = dict(start, seats=[dict(start["seats"][0], coins=-1), *start["seats"][1:]])
    body = _assert_error(client.post("/api/position", json={"position": bad}), 400, "coins")
    assert body["field"] == "position.seats[0].coins"
    body = _assert_error(client.post("/api/position", json={"position": dict(start, contxt={})}), 400, "contxt")
    assert body["field"] == "position"
    _assert_error(client.post("/api/position", json={"position": "[1"}), 400)
    _assert_error(client.post("/api/position", json={"position": ["x"]}), 400, "'position' must be")
    assert client.get("/api/deal", params={"players": 2, "seed": 9}).json()["players"] == 2
    _assert_error(client.get("/api/deal", params={"players": 9}), 400, "players must be 2 to 4")
    _assert_error(client.get("/api/deal", params={"kind": "nope"}), 400, "unknown game 'nope'")
    _assert_error(client.get("/api/deal", params={"players": "two"}), 400, "players")
    _assert_error(client.get("/api/deal", params={"seed": -3}), 400, "seed")


def test_replay_routes_refuse_bad_records(client):
    _assert_error(client.post("/api/replays", json={}), 400, "missing field 'record'")
    _assert_error(client.post("/api/replays", json={"record": "{"}), 400)
    _assert_error(client.post("/api/replays", json={"record": {"format": "chess"}}), 400)
    _assert_error(client.get("/api/replays/nope/0"), 404, "no replay")


def test_burano_serve_refuses_a_bad_port_in_one_line(runner):
    from cli import app
    result = runner.invoke(app, ["serve", "--port", "70000"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == ["error: --port must be 0 to 65535, not 70000"]


def test_burano_serve_serves_the_board_until_interrupted():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(port)], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=terminal_signals)
    try:
        first = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in first
        for _ in range(200):
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        assert response.json() == {"ok": True}
        assert "buranoState" in httpx.get(f"http://127.0.0.1:{port}/static/app.js").text
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)


def test_the_page_is_package_data(tmp_path):
    """A non-editable install carries the front end: pyproject's package-data takes every static file and
    every file of a game's web/ folder, and (where the build tools are importable, as in a development
    checkout) build_py copies every one."""
    import fnmatch
    import importlib.util
    import tomllib
    static = REPO / "burano_ai" / "web" / "static"
    games = REPO / "burano_ai" / "games"
    files = {p.relative_to(static).as_posix() for p in static.rglob("*") if p.is_file()}
    assert files >= {"index.html", "app.js", "generic-board.js", "style.css"}
    boards = {p.relative_to(games).as_posix() for p in games.glob("*/web/*") if p.is_file()}
    assert "burano/web/board.js" in boards
    patterns = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    web = patterns.get("burano_ai.web", []) + patterns.get("*", [])
    in_games = patterns.get("burano_ai.games", []) + patterns.get("*", [])

    def covered(name, pats):
        # setuptools' globs do not cross "/" (fnmatch's "*" does): compare path depths too
        return any(fnmatch.fnmatch(name, pat) and name.count("/") == pat.count("/") for pat in pats)

    assert all(covered(f"static/{name}", web) for name in files), (files, web)
    assert all(covered(name, in_games) for name in boards), (boards, in_games)
    # the files must be in git, not only on this disk (an ignore rule once kept index.html out of every clone)
    for folder, glob, expected in (("burano_ai/web/static", "*", files), ("burano_ai/games", "*/web/*", boards)):
        listed = subprocess.run(["git", "ls-files", folder], cwd=REPO, capture_output=True, text=True, timeout=60)
        if listed.returncode == 0 and listed.stdout.strip():
            tracked = {Path(line).relative_to(folder).as_posix() for line in listed.stdout.split()}
            assert {t for t in tracked if fnmatch.fnmatch(t, glob)} == expected
    if all(importlib.util.find_spec(m) for m in ("Cython", "numpy", "setuptools")):
        subprocess.run([sys.executable, "setup.py", "-q", "build_py", "-d", str(tmp_path)], cwd=REPO, check=True,
                       capture_output=True, timeout=300)
        shipped_dir = tmp_path / "burano_ai" / "web" / "static"
        shipped = {p.relative_to(shipped_dir).as_posix() for p in shipped_dir.rglob("*") if p.is_file()}
        assert shipped == files
        shipped_games = tmp_path / "burano_ai" / "games"
        assert {p.relative_to(shipped_games).as_posix() for p in shipped_games.glob("*/web/*") if p.is_file()} == boards


def test_every_game_s_board_module_is_served_from_its_own_folder(client):
    """A game's web/ folder (found by glob through the registry) is served at /static/games/<key>/: the
    board module its spec names is that file, byte for byte; a name or game it lacks is a 404."""
    from burano_ai.games import all_specs, web_files
    boards = 0
    for spec in all_specs():
        files = web_files(spec.key)
        for name, path in files.items():
            response = client.get(f"/static/games/{spec.key}/{name}")
            assert response.status_code == 200 and response.content == Path(path).read_bytes()
        if "web_board" in spec.capabilities:
            assert spec.web_board == f"games/{spec.key}/board.js" and "board.js" in files
            boards += 1
    assert boards >= 1
    _assert_error(client.get("/static/games/burano/nothing.js"), 404)
    _assert_error(client.get("/static/games/no-such-game/board.js"), 404)


def test_every_answer_of_a_three_player_game_shows_only_the_players_seat(client):
    """A whole game through the API (seat A human, two random bots): every answer is seat A's view, no other
    seat's blind cards, no secret pyramid, and no hidden step in the log."""
    import random
    payload = _new_game(client, seats=("human", "random", "random"), seed=8)
    game = payload["game"]
    answers = [payload]
    rng = random.Random(2)
    while not payload["over"]:
        if not payload["legal"]:
            time.sleep(0.005)
            payload = client.get(f"/api/games/{game}", params={"seat": "A"}).json()
        else:
            legal = payload["legal"]
            move = "done" if "done" in legal and rng.random() < 0.5 else rng.choice(legal)
            payload = client.post(f"/api/games/{game}/move", json={"seat": "A", "move": move}).json()
        answers.append(payload)
    answers.append(json.loads(client.get(f"/api/games/{game}/record", params={"seat": "A"}).text))
    live = client.app.state.games.get(game)
    steps = live.session.record.steps
    hidden = [i for i, s in enumerate(steps) if not s.visible_to("A")]
    assert any(steps[i].kind == "fish-draw" for i in hidden) and any(steps[i].actor != "chance" for i in hidden)
    for answer in answers:
        if answer.get("format") == "burano-game/1":
            assert all(answer["steps"][i]["move"] is None for i in hidden if steps[i].kind == "fish-draw")
            continue
        view = answer["view"]
        assert view["view"] == "A"
        for seat in view["seats"][1:]:
            assert isinstance(seat["hand"]["blind"], int)
            if view["stage"] == "pyramid":
                assert seat["pyramid"] is None and seat["reserve"] is None
        for i in hidden:
            if i < len(answer["log"]):
                # the step's own text (its public consequences may follow: tests/games/burano/test_narration.py checks them)
                line = answer["log"][i].split(" — ")[0]
                assert line.endswith("draws a fish card from the deck") or line.endswith("(hidden)"), (i, line)


def test_deep_or_huge_input_is_one_clear_error(client):
    deep = {"position": {"format": "burano-position/1", "players": [[[[[[[[[[[1]]]]]]]]]]]}}
    _assert_error(client.post("/api/position", json=deep), 400, "nested")
    _assert_error(client.post("/api/analysis", json=deep), 400, "nested")
    very_deep = b'{"position": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    _assert_error(client.post("/api/position", content=very_deep, headers={"Content-Type": "application/json"}), 400)
    body = _assert_error(client.post("/api/games", json={"players": 2, "seats": "x" * 10_000}), 400, "seats")
    assert len(body["error"]) < 300
    _assert_error(client.post("/api/position", content=b"x" * (5 * 1024 * 1024),
                              headers={"Content-Type": "application/json"}), 413, "larger than")


def test_burano_serve_open_opens_the_board_in_a_browser(runner, monkeypatch):
    import threading
    import webbrowser

    import uvicorn
    from cli import app
    opened = threading.Event()
    urls = []
    monkeypatch.setattr(webbrowser, "open", lambda url: (urls.append(url), opened.set()))
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: opened.wait(5))
    result = runner.invoke(app, ["serve", "--port", "0", "--open"])
    assert result.exit_code == 0, result.output
    assert urls == ["http://127.0.0.1:0/"]


def test_burano_serve_on_a_taken_port_says_so_in_one_line(runner):
    import socket

    from cli import app
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1].startswith(f"error: cannot listen on 127.0.0.1:{port}")


def test_an_analysis_can_leave_moves_out(client):
    payload = _new_game(client, seed=5)
    game = payload["game"]
    left_out = payload["legal"][0]
    _assert_error(client.post(f"/api/games/{game}/analysis", json={"avoid": "pick flat"}), 400, "'avoid' must be list")
    _assert_error(client.post(f"/api/games/{game}/analysis", json={"avoid": ["fly away"]}), 400, "avoid")
    _assert_error(client.post(f"/api/games/{game}/analysis", json={"avoid": payload["legal"]}), 400, "no move")
    started = client.post(f"/api/games/{game}/analysis", json={"avoid": [left_out]})
    assert started.status_code == 200, started.text
    assert started.json()["kind"] == "burano"   # from the position's format tag
    analysis, own = started.json()["id"], _with(started.json()["token"])
    for _ in range(100):
        result = client.get(f"/api/analysis/{analysis}", headers=own).json()["result"]
        if result and result["candidates"]:
            break
        time.sleep(0.05)
    client.post(f"/api/analysis/{analysis}/stop", headers=own)
    moves = [c["move"] for c in result["candidates"]]
    assert moves and left_out not in moves


def test_burano_serve_without_the_web_extra_says_how_to_get_it(runner, monkeypatch):
    """Regression: `pip install .` has no uvicorn; `burano serve` ended with an internal error (exit 70)."""
    from cli import app
    monkeypatch.setitem(sys.modules, "uvicorn", None)   # `import uvicorn` raises ImportError
    result = runner.invoke(app, ["serve", "--port", "0"])
    assert result.exit_code == 2
    assert "needs the web extra: pip install 'burano-ai[web]'" in result.stderr
    assert result.stderr.count("\n") == 1


def test_burano_serve_on_a_public_address_needs_public_and_says_what_it_exposes(runner, monkeypatch):
    """Regression: `--host 0.0.0.0` only printed a warning. Now it needs --public (else exit 2, one line);
    with it the server says what it exposes, and the address it listens on is an allowed Host."""
    import uvicorn
    from cli import app
    started = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: started.append((app, kwargs)))
    result = runner.invoke(app, ["serve", "--host", "0.0.0.0", "--port", "0"])
    assert result.exit_code == 2 and not started
    assert result.stderr.strip().splitlines() == [
        "error: --host 0.0.0.0 lets other machines reach the board: add --public to mean it "
        "(docs/web.md, \"Running it for other people\")"]
    result = runner.invoke(app, ["serve", "--host", "0.0.0.0", "--port", "0", "--public", "--allow-host",
                                 "board.example", "--limit", "max_games=3", "--limit", "bot_seconds=2"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "public: listening on 0.0.0.0:0" in out and "board.example" in out and "unencrypted" in out
    assert "3 games" in out and "bots up to 2 s" in out
    served = started[0][0]
    assert served.state.limits.max_games == 3 and served.state.limits.bot_seconds == 2.0
    assert runner.invoke(app, ["serve", "--host", "localhost", "--port", "0"]).exit_code == 0   # loopback: no flag


@pytest.mark.parametrize("args, words", [
    (["--limit", "max_games"], "expected NAME=VALUE"),
    (["--limit", "nope=3"], "unknown limit 'nope'"),
    (["--limit", "bot_seconds=-1"], "bot_seconds: must be > 0"),
    (["--allow-host", "a b"], "--allow-host 'a b'"),
    (["--allow-host", "x.example:port"], "--allow-host"),
])
def test_burano_serve_refuses_bad_limits_and_hosts_in_one_line(runner, monkeypatch, args, words):
    import uvicorn
    from cli import app
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: pytest.fail("served despite a bad option"))
    result = runner.invoke(app, ["serve", "--port", "0", *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], lines


def test_view_changes_lists_what_changed_leaf_by_leaf():
    from burano_ai.web.games import view_changes
    before = {"round": 1, "island": {"cubes": {"e5": ["pink"]}}, "seats": [{"vp": 0, "hand": {"blind": 2}}, {"vp": 3}],
              "display": ["tuna", "clam"]}
    after = {"round": 1, "island": {"cubes": {"e5": ["pink"], "c3": ["white"]}}, "seats": [{"vp": 5, "hand": {"blind": 2}}, {"vp": 3}],
             "display": ["clam"]}
    assert view_changes(before, after) == [[["island", "cubes", "c3"], None, ["white"]], [["seats", 0, "vp"], 0, 5],
                                           [["display"], ["tuna", "clam"], ["clam"]]]
    assert view_changes(after, after) == []


def test_the_last_move_marks_are_the_seats_view_changes_and_follow_undo(client):
    """`marks` in a payload: the changes of each recent step to the seat's own view (each value is the one
    in that seat's view after the step), `since` the first step after its last decision; undo cuts them."""
    from burano_ai.record import GameRecord
    created = _new_game(client, seats=("human", "human"), seed=None)   # two people: a secret deal
    game, tokens = created["game"], created["tokens"]
    rng = random.Random(1)
    payload = None
    for _ in range(40):
        a = client.get(f"/api/games/{game}", params={"seat": "A"}).json()
        seat = a["to_move"]
        legal = a["legal"] if seat == "A" else client.get(f"/api/games/{game}", params={"seat": seat},
                                                          headers=_with(tokens[seat])).json()["legal"]
        payload = client.post(f"/api/games/{game}/move", json={"seat": seat, "move": rng.choice(legal)},
                              headers=_with(tokens[seat])).json()

    def check(p, seat_index):
        record = GameRecord.from_json(client.get(f"/api/games/{game}/record", params={"seat": "A"}).text)
        views = [state.to_dict(seat_index) for _ply, state in record.positions()] if seat_index == 0 else None
        marks = p["marks"]
        mine = [i for i, s in enumerate(record.steps) if s.actor == p["seat"]]
        assert marks["since"] == (mine[-1] + 1 if mine else 0)
        assert marks["first"] + len(marks["steps"]) == len(p["log"]) == len(record.steps)
        assert marks["first"] <= max(0, marks["since"])
        if views is not None:
            for i, changes in enumerate(marks["steps"]):
                for path, _before, after in changes:
                    node = views[marks["first"] + i + 1]
                    for key in path:
                        node = node.get(key) if isinstance(node, dict) else node[key]
                    assert node == after
        return marks

    a = client.get(f"/api/games/{game}", params={"seat": "A"}).json()
    marks = check(a, 0)
    assert any(changes for changes in marks["steps"])
    undone = client.post(f"/api/games/{game}/undo", json={"seat": "A"}).json()
    assert len(undone["log"]) < len(a["log"])
    check(undone, 0)


def test_a_page_cannot_make_a_bot_read_a_server_file_as_a_net(client, tmp_path):
    """eval=FILE in a seat's bot spec would open a path on the server: a page gets eval=playout or net only."""
    probe = tmp_path / "secret.json"
    probe.write_text("{}")
    for value in (str(probe), "/etc/passwd"):
        response = client.post("/api/games", json={"game": "goofspiel", "players": 2,
                                                   "seats": ["human", f"ismcts:iterations=10,eval={value}"]})
        _assert_error(response, 400, "eval=playout or eval=net")
    ok = client.post("/api/games", json={"game": "goofspiel", "players": 2,
                                         "seats": ["human", "ismcts:iterations=10,eval=playout"]})
    assert ok.status_code == 200, ok.text


def test_the_web_replay_of_a_venice_seat_export(client):
    """Issue 34: the web's Replay of a downloaded 3-player Venice 2099 record (a seat's export) opens and
    steps (it ended in `no assignment of the hidden steps ... within 200000 steps`)."""
    from burano_ai.record import GameRecord
    from burano_ai.session import GameSession
    session = GameSession(3, 4, ["random"] * 3, game="venice-2099")
    session.advance()
    record = GameRecord.from_json(session.record.to_json())
    data = record.for_seat("C").to_json()
    reply = client.post("/api/replays", json={"record": data})
    assert reply.status_code == 200, reply.text
    summary = reply.json()
    assert summary["plies"] == len(record.steps) and summary["seat"] == "C"
    last = client.get(f"/api/replays/{summary['id']}/{len(record.steps)}")
    assert last.status_code == 200


@pytest.mark.parametrize("game", game_keys())
def test_a_finished_game_s_payload_has_the_score_table_per_category(game):
    """Issue 34, item 9: the web result was one line (`Game over. Scores: A 8, B 40; winner B`). The payload
    of a finished game carries the final scoring per seat and category in the order of finish, each row
    adding up to its total, with the game's tie-break columns. Burano's and Goofspiel's tables showed totals
    only: their categories are those the narration scored (Burano's rules categories, Goofspiel's prizes)."""
    from burano_ai.games.burano.narration import CATEGORIES
    from burano_ai.session import GameSession
    from burano_ai.web.games import score_table
    spec = get_spec(game)
    session = GameSession(spec.min_players, 4, ["random"] * spec.min_players, game=game)
    session.advance()
    table = score_table(spec, session.state, session.record.result, session.effects)
    assert [row["seat"] for row in table["rows"]] == session.record.result["order"]
    assert [row["place"] for row in table["rows"]] == list(range(1, spec.min_players + 1))
    assert table["winners"] == session.record.result["winners"]
    scores = session.state.scores()
    for row in table["rows"]:
        p = "ABCDE".index(row["seat"])
        assert row["total"] == spec.score_columns(session.state)[0][1][p]
        assert len(row["extra"]) == len(table["extra"]) == len(spec.score_columns(session.state)) - 1
        if table["categories"]:
            assert len(row["cells"]) == len(table["categories"])
            assert sum(float(c) for c in row["cells"]) == scores[p]
    if "web_board" in spec.capabilities:     # the five board games score by category; a poker hand is chips
        assert len(table["categories"]) >= 3, table
    if game == "burano":      # the rules spec's categories (§5.1, §6.2, §7, §8, §10), no VP unnamed
        assert set(table["categories"]) <= set(CATEGORIES) - {"other"}, table
    if game == "goofspiel":   # a category per prize, the points where its taker's row is
        for row in table["rows"]:
            won = session.state.won["ABCDE".index(row["seat"])]
            assert {k for k, c in zip(table["categories"], row["cells"]) if c != "0"} == {f"prize {c}" for c in won}
