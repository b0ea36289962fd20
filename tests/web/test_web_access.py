"""Who may ask `burano serve` for what (issue 20): seat tokens, unguessable ids, analyses that belong to
their starter, no deal seed for a secret game, JSON only as application/json, Host and Origin checked,
and the operator's limits on bots, games and analyses. Every test here failed on the server before."""

from __future__ import annotations

import json
import re
import threading
import time

import pytest

from burano_ai.web.limits import ServerLimits, parse_limits
from .conftest import wait_until

TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,}$")


def _error(response, status: int, *words: str) -> dict:
    assert response.status_code == status, (response.status_code, response.text)
    body = response.json()
    assert set(body) <= {"error", "field"} and body["error"] and "\n" not in body["error"], body
    for word in words:
        assert word in body["error"], (word, body)
    return body


def _create(client, seats=("human", "random"), seed=None, kind=None):
    body = {"players": len(seats), "seats": list(seats)}
    if seed is not None:
        body["seed"] = seed
    if kind is not None:
        body["kind"] = kind
    response = client.post("/api/games", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def _with(token):
    return {"X-Burano-Token": token}


@pytest.fixture
def make_client():
    """A TestClient over an app made with the given `create_app` options (closed after the test)."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from burano_ai.web.app import create_app
    made = []

    def make(base_url="http://127.0.0.1", **options):
        client = TestClient(create_app(**options), raise_server_exceptions=False, base_url=base_url)
        client.__enter__()
        made.append(client)
        return client
    yield make
    for client in made:
        client.__exit__(None, None, None)


# -- seats with owners ---------------------------------------------------------------------------------

def test_every_seat_route_needs_the_seats_token(client):
    """Regression: `GET /api/games/{id}?seat=A` from any client returned seat A's view (and without `seat`
    a human seat's view); moves, undo, the record, events and analysis were anyone's."""
    payload = _create(client, seats=("human", "human"))      # a secret deal: two people never get a seed
    game, tokens = payload["game"], payload["tokens"]
    assert set(tokens) == {"A", "B"} and all(TOKEN.match(t) for t in tokens.values()) and tokens["A"] != tokens["B"]
    routes = [("get", f"/api/games/{game}", {}), ("get", f"/api/games/{game}/events", {}),
              ("get", f"/api/games/{game}/record", {}), ("post", f"/api/games/{game}/move", {"move": "pick flat"}),
              ("post", f"/api/games/{game}/undo", {}), ("post", f"/api/games/{game}/analysis", {})]
    for method, url, body in routes:
        kwargs = {"json": body} if method == "post" else {}
        _error(getattr(client, method)(url, **kwargs), 401, "token")
        _error(getattr(client, method)(url, params={"seat": "A"}, **kwargs), 401, "token")
        _error(getattr(client, method)(url, headers=_with("x" * 22), **kwargs), 403, "token")
    other = _create(client, seats=("human", "random"))["tokens"]["A"]   # another game's seat
    _error(client.get(f"/api/games/{game}", headers=_with(other)), 403)
    # B's token opens B only: never A's view, whatever `seat` says
    _error(client.get(f"/api/games/{game}", params={"seat": "A", "token": tokens["B"]}), 403, "seat B")
    _error(client.post(f"/api/games/{game}/move", json={"seat": "A", "move": "pick flat"}, headers=_with(tokens["B"])),
           403, "seat B")
    b = client.get(f"/api/games/{game}", params={"token": tokens["B"]}).json()
    assert b["seat"] == "B" and b["view"]["view"] == "B" and "tokens" not in b
    a = client.get(f"/api/games/{game}", headers=_with(tokens["A"])).json()
    assert a["seat"] == "A" and a["view"]["view"] == "A"
    played = client.post(f"/api/games/{game}/move", json={"move": "pick flat"}, headers=_with(tokens["A"]))
    assert played.status_code == 200 and played.json()["log"][0].startswith("A: pick flat")


def test_game_and_analysis_ids_are_unguessable(make_client):
    """Regression: game ids were `g<counter>-<ms mod 100000>` (found from one's own in ~300 GETs) and
    analyses `a1, a2, ...`."""
    client = make_client(limits=ServerLimits(client_analyses=2))     # two analyses of one client at once
    games = [_create(client)["game"] for _ in range(3)]
    assert all(TOKEN.match(g) for g in games) and len(set(games)) == 3
    from burano_ai.games.burano.deal import deal
    from burano_ai.games.burano.notation import position_to_dict
    started = [client.post("/api/analysis", json={"position": position_to_dict(deal(2, 1))}).json() for _ in range(2)]
    try:
        ids = [s["id"] for s in started]
        assert all(TOKEN.match(i) for i in ids) and ids[0] != ids[1]
    finally:
        for s in started:
            client.post(f"/api/analysis/{s['id']}/stop", headers=_with(s["token"]))


def test_an_analysis_belongs_to_whoever_started_it(client):
    """Regression: analyses were global: anyone could read another client's candidates and plans (searched
    from that seat's private view) and stop them."""
    payload = _create(client, seed=5)
    seat_token = payload["tokens"]["A"]
    started = client.post(f"/api/games/{payload['game']}/analysis", json={}, headers=_with(seat_token)).json()
    analysis, own = started["id"], started["token"]
    assert TOKEN.match(own) and own != seat_token
    try:
        for method, url in (("get", f"/api/analysis/{analysis}"), ("get", f"/api/analysis/{analysis}/events"),
                            ("post", f"/api/analysis/{analysis}/stop")):
            _error(getattr(client, method)(url), 401, "token")
            _error(getattr(client, method)(url, headers=_with(seat_token)), 403)
            _error(getattr(client, method)(url, params={"token": "y" * 22}), 403)
        assert not client.app.state.analyses.analyses[analysis].stop_event.is_set()   # nobody else stopped it
        assert client.get(f"/api/analysis/{analysis}", params={"token": own}).json()["id"] == analysis
    finally:
        assert client.post(f"/api/analysis/{analysis}/stop", headers=_with(own)).status_code == 200


def test_a_secret_game_sends_no_seed_and_a_seeded_one_says_so(client):
    """Regression: every payload carried the deal seed (`setup.seed`), which rebuilds the server's full state
    (other seats' pyramids, blind draws). A game created without a seed has a secret deal: no payload, event
    or record export carries a seed; one created with a seed is labelled `seeded`."""
    payload = _create(client, seats=("human", "random"))
    game, token = payload["game"], payload["tokens"]["A"]
    assert payload["setup"] == {"kind": "burano", "players": 2, "seats": ["human", "random"], "seeded": False}
    live = client.app.state.games.get(game)
    assert not live.session.seeded
    payload = client.post(f"/api/games/{game}/move", json={"move": payload["legal"][0]}, headers=_with(token)).json()
    received = [payload, client.get(f"/api/games/{game}", headers=_with(token)).json(),
                json.loads(client.get(f"/api/games/{game}/record", headers=_with(token)).text)]
    with client.stream("GET", f"/api/games/{game}/events", params={"token": token}) as stream:
        for line in stream.iter_lines():
            if line.startswith("data: "):
                received.append(json.loads(line[6:]))
                break
    for answer in received:   # no seed anywhere (a record says `"seed": null`: a secret deal)
        text = json.dumps(answer)
        assert not re.search(r'"seed": *[0-9"]', text) and "seeded\": true" not in text, text[:300]
    seeded = _create(client, seats=("human", "random"), seed=12)
    assert seeded["setup"]["seeded"] is True and seeded["setup"]["seed"] == 12


@pytest.mark.parametrize("kind, seats", [
    ("venice-2099", ("human", "human", "random")),          # the probe: B rebuilt A's hand from setup.seed
    ("burano", ("human", "human")),
    ("walking-in-burano", ("random", "human", "human")),
    ("goofspiel", ("human", "random", "human", "human")),
])
def test_a_game_of_several_people_refuses_a_seed_and_sends_none(client, kind, seats):
    """Issue 35 F01: a seeded game sent its seed to every seat, and whoever knows the seed rebuilds the deal
    (the other people's hidden hands, the draws to come). A seed is refused for a game with two or more
    human seats, before any game is made; without one, no payload of any of its seats carries a seed."""
    games = client.app.state.games
    before = len(games.games)
    body = {"kind": kind, "players": len(seats), "seats": list(seats), "seed": 5}
    _error(client.post("/api/games", json=body), 400, "seed", "one human seat", "secret deal")
    assert len(games.games) == before
    del body["seed"]
    created = client.post("/api/games", json=body).json()
    assert created["setup"]["seeded"] is False and "seed" not in created["setup"]
    for seat, token in created["tokens"].items():
        payload = client.get(f"/api/games/{created['game']}", headers=_with(token)).json()
        record = client.get(f"/api/games/{created['game']}/record", headers=_with(token)).text
        for text in (json.dumps(payload), record):
            assert not re.search(r'"seed": *[0-9"]', text), (seat, text[:300])
    one_person = ["human"] + ["random"] * (len(seats) - 1)
    seeded = _create(client, seats=one_person, seed=5, kind=kind)      # one person: a reproducible deal
    assert seeded["setup"]["seeded"] is True and seeded["setup"]["seed"] == 5


def test_two_secret_games_deal_differently(client):
    """Without a seed, two games of one setup are two deals (the old default seed 0 dealt the same one)."""
    views = [_create(client, seats=("human", "random"))["view"] for _ in range(4)]
    assert len({json.dumps(v, sort_keys=True) for v in views}) > 1


# -- cross-site requests and DNS rebinding -------------------------------------------------------------

@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                                          None])
def test_a_json_body_needs_the_json_content_type(client, content_type):
    """Regression: bodies were parsed as JSON whatever the Content-Type, so a `text/plain` POST from any page
    the user visited (no CORS preflight) created games and played moves."""
    body = json.dumps({"players": 2, "seats": ["human", "random"]}).encode()
    headers = {"Content-Type": content_type} if content_type else {}
    _error(client.post("/api/games", content=body, headers=headers), 415, "application/json")
    assert client.app.state.games.games == {}
    assert client.post("/api/games", content=body,
                       headers={"Content-Type": "application/json; charset=utf-8"}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "localhost@evil",
                                  "", "[::1", "localhost:80x"])
def test_a_foreign_host_is_refused(client, host):
    """Regression: a foreign `Host:` was served (DNS rebinding: a page of evil.example resolved to 127.0.0.1)."""
    _error(client.get("/api/games/kinds", headers={"Host": host}), 403, "Host")
    _error(client.post("/api/games", json={"players": 2, "seats": ["human", "random"]}, headers={"Host": host}), 403)
    assert client.app.state.games.games == {}


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://127.0.0.1.evil.example",
                                    "file://", "http://localhost:9", "chrome-extension://abc"])
def test_a_foreign_origin_is_refused(make_client, origin):
    client = make_client(base_url="http://127.0.0.1:8000", port=8000)
    _error(client.post("/api/games", json={"players": 2, "seats": ["human", "random"]}, headers={"Origin": origin}),
           403, "Origin")
    assert client.app.state.games.games == {}


def test_this_servers_own_names_are_served(make_client):
    client = make_client(base_url="http://127.0.0.1:8000", port=8000, allow_hosts=["board.example", "10.0.0.5:8000"])
    for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST:8000", "board.example",
                 "board.example:443", "10.0.0.5:8000"):
        assert client.get("/api/health", headers={"Host": host}).status_code == 200, host
    for host in ("127.0.0.1:8001", "localhost", "10.0.0.5:9000", "other.example"):
        _error(client.get("/api/health", headers={"Host": host}), 403, "Host")
    for origin in ("http://127.0.0.1:8000", "http://localhost:8000", "https://board.example"):
        assert client.post("/api/position", json={"position": "{"}, headers={"Origin": origin}).status_code == 400
    _error(client.post("/api/position", json={"position": "{"}, headers={"Origin": "http://localhost:8001"}), 403)


# -- the operator's limits -----------------------------------------------------------------------------

@pytest.mark.parametrize("spec, words", [
    ("ismcts:time=86400", ["time=86400", "time <= 30"]),
    ("ismcts:iterations=1000000000", ["iterations=1e+09", "iterations <= 200000"]),
    ("ismcts:workers=64", ["workers=64", "workers <= 1"]),
    ("ismcts:threads=64", ["threads=64", "threads <= 4"]),
])
def test_a_bot_spec_above_the_servers_caps_is_refused(client, spec, words):
    """Regression: client-supplied bot specs were uncapped (`ismcts:time=86400`, `workers=64`)."""
    _error(client.post("/api/games", json={"players": 2, "seats": [spec, "human"]}), 400, "seats[0] (A)", *words)
    assert client.app.state.games.games == {}


def test_the_operator_sets_the_caps(make_client):
    client = make_client(limits=parse_limits(["bot_seconds=0.5", "bot_workers=2"]))
    _error(client.post("/api/games", json={"players": 2, "seats": ["human", "ismcts:time=1"]}), 400, "time <= 0.5")
    assert client.post("/api/games", json={"players": 2, "seats": ["human", "ismcts:time=0.5,workers=2"]}
                       ).status_code == 200


@pytest.mark.parametrize("kind, spec, words", [
    # the spec: each key under its own cap, 20 million playouts a decision (19 s at 20 iterations)
    ("burano", "openspiel-mcts:iterations=200000,rollouts=100", ["iterations x rollouts", "20,000,000 playouts",
                                                               "bot_playouts"]),
    ("burano", "openspiel-ismcts:iterations=100000,rollouts=3", ["300,000 playouts"]),
    ("burano", "openspiel-mcts:rollouts=100,evaluator=random,iterations=2001", ["200,100 playouts"]),
    ("burano", "greedy:samples=1000,depth=40", ["samples=1000 x depth=40", "40,000", "bot_heuristic_work"]),
])
def test_a_bot_spec_whose_keys_multiply_past_the_caps_is_refused(client, kind, spec, words):
    """Issue 35 G03: caps were per key, and a bot's cost is their product; one line, no game made."""
    _error(client.post("/api/games", json={"kind": kind, "players": 2, "seats": [spec, "human"]}), 400,
           "seats[0] (A)", *words)
    assert client.app.state.games.games == {}
    assert client.post("/api/games", json={"kind": kind, "players": 2, "seats": [
        "openspiel-mcts:iterations=2000,rollouts=100", "human"]}).status_code == 200   # 200,000: at the cap
    client.app.state.games.close()


def test_every_searching_bot_stops_at_the_servers_time_cap(make_client):
    """Issue 35 G03: with `bot_seconds` = 1, specs within every cap whose budget is counted in iterations
    (minutes a decision here: 100 rollouts a simulation through OpenSpiel's Python evaluator) end their
    decision at the cap and play their best move so far. A guard, not a timing: without the cap each of
    these decisions runs for minutes."""
    pytest.importorskip("pyspiel")
    pytest.importorskip("mcts")
    client = make_client(limits=parse_limits(["bot_seconds=1"]))
    for spec in ("openspiel-mcts:iterations=2000,rollouts=100,evaluator=random",
                 "openspiel-ismcts:iterations=2000,rollouts=100,evaluator=random",
                 "mcts-pkg:iterations=200000,rollout=python", "ismcts:iterations=200000,threads=1"):
        started = time.monotonic()
        payload = _create(client, seats=(spec, "human"))
        live = client.app.state.games.get(payload["game"])
        assert wait_until(lambda: live.session.to_move() == 1 and live.thinking is None, guard=30.0), spec
        assert time.monotonic() - started < 30, spec
        assert [s.actor for s in live.session.record.steps].count("A") >= 1
        live.close()


@pytest.mark.parametrize("spec", ["openspiel-mcts:time=30,rollouts=100", "openspiel-ismcts:time=30",
                                  "mcts-pkg:time=30"])
def test_a_forgotten_games_third_party_bot_stops(make_client, spec):
    """Issue 35 G03: OpenSpiel's and the mcts package's searches could not be stopped, and one kept 64 % of a
    core after its game was forgotten. Now forgetting the game stops them within a rollout."""
    pytest.importorskip("pyspiel")
    pytest.importorskip("mcts")
    client = make_client(limits=ServerLimits(max_games=1))
    first = _create(client, seats=(spec, "human"))
    old = client.app.state.games.get(first["game"])
    assert wait_until(lambda: old.thinking == 0 and old._running)
    _create(client, seats=("human", "random"))            # the first game is forgotten
    assert old.closed
    assert wait_until(lambda: not old._running, guard=10.0), "the forgotten game's bot is still thinking"


def test_parse_limits_names_what_is_wrong():
    assert parse_limits(["max_games=3", "bot_seconds=2.5", "analysis_threads=0"]) == \
        ServerLimits(max_games=3, bot_seconds=2.5, analysis_threads=0)
    for item, words in (("max_games", "NAME=VALUE"), ("nope=1", "unknown limit 'nope'"),
                        ("max_games=x", "whole number"), ("max_games=0", ">= 1"), ("bot_seconds=0", "> 0"),
                        ("bot_seconds=nan", "> 0"), ("max_body=-5", ">= 1")):
        with pytest.raises(ValueError, match=re.escape(words)):
            parse_limits([item])


def test_forgetting_a_game_stops_its_thinking_bot(make_client):
    """Regression: evicting a game (beyond the most kept) did not stop its bot: a bot seated first thought
    on for its whole budget."""
    client = make_client(limits=ServerLimits(max_games=1))
    first = _create(client, seats=("ismcts:time=30,threads=1", "human"), seed=1)
    games = client.app.state.games
    old = games.get(first["game"])
    assert first["thinking"] == "A" and old.thinking == 0 and old._running   # it answers while the bot thinks
    _create(client, seats=("human", "random"))
    assert list(games.games) != [first["game"]] and old.closed
    assert wait_until(lambda: not old._running, guard=10.0), "the forgotten game's bot is still thinking"
    _error(client.get(f"/api/games/{first['game']}", headers=_with(first["tokens"]["B"])), 404, "no game")


def test_undo_during_a_think_stops_the_bot_and_takes_the_move_back(client):
    """Regression: undo while a bot thought waited for the whole think. Now it stops the search, the bot's
    move is undone with the seat's own, and the seat is to move again."""
    payload = _create(client, seats=("human", "ismcts:time=30,threads=1"), seed=3)
    game, token = payload["game"], payload["tokens"]["A"]
    live = client.app.state.games.get(game)
    for move in ("pick island", "pick workshop", "pick flat"):   # then B picks
        moved = client.post(f"/api/games/{game}/move", json={"move": move}, headers=_with(token)).json()
    assert moved["thinking"] == "B"
    before = len(live.session.record.steps)
    assert wait_until(lambda: live.session.bot(1).stop_event is not None and live.thinking == 1)
    result: dict = {}
    worker = threading.Thread(target=lambda: result.update(
        r=client.post(f"/api/games/{game}/undo", json={}, headers=_with(token))))
    worker.start()
    worker.join(timeout=15)   # a guard: the think alone lasts 30 s
    assert not worker.is_alive(), "undo waited for the bot's think"
    undone = result["r"].json()
    assert result["r"].status_code == 200 and "pick flat" in undone["legal"], undone
    assert undone["to_move"] == "A" and undone["thinking"] is None and len(undone["log"]) == before - 2
    assert wait_until(lambda: not live._running, guard=10.0)
    assert [s.actor for s in live.session.record.steps].count("B") == 0 and live.session.to_move() == 0


def test_the_record_downloads_while_a_bot_thinks(client):
    """The record route waited for the game's lock, which a thinking bot holds for its whole think."""
    payload = _create(client, seats=("ismcts:time=30,threads=1", "human"), seed=1)
    game, token = payload["game"], payload["tokens"]["B"]
    live = client.app.state.games.get(game)
    assert live.thinking == 0
    result: dict = {}
    worker = threading.Thread(target=lambda: result.update(
        r=client.get(f"/api/games/{game}/record", headers=_with(token))), daemon=True)
    worker.start()
    worker.join(timeout=15)   # a guard: the think alone lasts 30 s
    assert not worker.is_alive(), "the record waited for the bot's think"
    assert result["r"].status_code == 200 and json.loads(result["r"].text)["view"] == "B"
    live.close()   # the bot stops thinking
    assert wait_until(lambda: not live._running, guard=10.0)


def test_undo_refuses_a_bot_that_cannot_be_interrupted(make_client):
    """A search that cannot stop mid-decision (worker processes, which the operator must allow): undo says so
    at once (409) instead of waiting for the think. Every other bot stops (issue 35 G03: mcts-pkg and the
    OpenSpiel bots used to be unstoppable too)."""
    from burano_ai.web.games import can_stop
    for spec in ("ismcts:time=2", "random", "greedy", "mcts-pkg:time=1", "openspiel-mcts:time=1",
                 "openspiel-ismcts:time=1"):
        assert can_stop(spec, "burano"), spec
    assert not can_stop("ismcts:time=2,workers=2", "burano")
    client = make_client(limits=parse_limits(["bot_workers=2"]))
    payload = _create(client, seats=("human", "ismcts:time=2,workers=2"), seed=3)
    game, token = payload["game"], payload["tokens"]["A"]
    for move in ("pick island", "pick workshop", "pick flat"):
        moved = client.post(f"/api/games/{game}/move", json={"move": move}, headers=_with(token)).json()
    assert moved["thinking"] == "B"
    _error(client.post(f"/api/games/{game}/undo", json={}, headers=_with(token)), 409, "cannot be interrupted")
    live = client.app.state.games.get(game)
    assert wait_until(lambda: not live._running or live.session.to_move() == 0)   # it moves, then undo works
    assert wait_until(lambda: live.thinking is None)
    assert client.post(f"/api/games/{game}/undo", json={}, headers=_with(token)).status_code == 200


def test_the_running_analyses_are_capped_and_an_owners_new_one_replaces_its_old(make_client):
    from burano_ai.games.burano.deal import deal
    from burano_ai.games.burano.notation import position_to_dict
    client = make_client(limits=ServerLimits(max_running_analyses=1, client_analyses=2))   # the server's cap
    position = position_to_dict(deal(2, 1))
    first = client.post("/api/analysis", json={"position": position}).json()
    try:
        _error(client.post("/api/analysis", json={"position": position}), 429, "analyses are searching")
        payload = _create(client, seed=2)
        _error(client.post(f"/api/games/{payload['game']}/analysis", json={},
                           headers=_with(payload["tokens"]["A"])), 429)
    finally:
        client.post(f"/api/analysis/{first['id']}/stop", headers=_with(first["token"]))
    analyses = client.app.state.analyses
    assert wait_until(lambda: analyses.analyses[first["id"]].done)
    seat = _with(payload["tokens"]["A"])
    one = client.post(f"/api/games/{payload['game']}/analysis", json={}, headers=seat).json()
    two = client.post(f"/api/games/{payload['game']}/analysis", json={}, headers=seat).json()   # the seat's again
    assert analyses.analyses[one["id"]].stop_event.is_set()
    client.post(f"/api/analysis/{two['id']}/stop", headers=_with(two["token"]))


def test_a_declared_body_above_the_limit_is_refused_unread(make_client):
    client = make_client(limits=ServerLimits(max_body=1000))
    _error(client.post("/api/position", json={"position": "x" * 2000}), 413, "larger than 1000 bytes")
    assert client.post("/api/position", json={"position": "{"}).status_code == 400


def test_replay_too_long_a_record_is_refused(make_client):
    from burano_ai.session import GameSession
    session = GameSession(2, 3, ["random", "random"])
    session.advance()
    client = make_client(limits=ServerLimits(max_replay_plies=10))
    _error(client.post("/api/replays", json={"record": session.record.to_json()}), 400, "at most 10")


def test_a_replay_id_is_unguessable(client):
    from burano_ai.session import GameSession
    session = GameSession(2, 3, ["random", "random"])
    session.advance()
    replay = client.post("/api/replays", json={"record": session.record.to_json()}).json()
    assert TOKEN.match(replay["id"])


@pytest.mark.parametrize("game", ["burano", "goofspiel"])
def test_a_pathological_export_is_refused_by_the_replay_route(client, game):
    """Regression: `POST /api/replays` of a one-seat export whose other seats' steps were all nulled never
    answered (the hidden-step fill was exponential) and pinned a core after the client had gone. Now it
    is one 400 line (the record layer refuses such an export; its fill is bounded)."""
    from burano_ai.session import GameSession
    session = GameSession(3, 50, ["random"] * 3, game=game)
    session.advance()
    data = session.record.for_seat("A").to_dict()
    for step in data["steps"]:
        if step["actor"] != "A":
            step["move"] = None
    result: dict = {}
    worker = threading.Thread(target=lambda: result.update(r=client.post("/api/replays", json={"record": data})),
                              daemon=True)
    worker.start()
    worker.join(timeout=60)   # a guard against the old hang
    assert not worker.is_alive(), "the replay route does not answer"
    _error(result["r"], 400, "record.steps[")
    assert client.app.state.replays.replays == {}
