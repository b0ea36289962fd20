"""`burano serve` over real sockets (uvicorn in a thread): concurrent requests on one game, chunked bodies,
event streams (capped, pushed on change, ended with their game or analysis) and clients that go away
(issue 20). Every wait is a guard against a hang, never a timing assertion."""

from __future__ import annotations

import json
import socket
import threading
import time
from urllib.parse import urlparse

import httpx
import pytest

from burano_ai.web.limits import ServerLimits
from .conftest import wait_until


@pytest.fixture
def serve():
    """Start a server with the given `create_app` options; stopped after the test."""
    from burano_ai.web.server import BackgroundServer
    servers = []

    def start(**options):
        server = BackgroundServer(**options)
        servers.append(server)
        return server
    yield start
    for server in servers:
        server.stop()


def _create(url, seats=("human", "random"), seed=None):
    body = {"players": len(seats), "seats": list(seats)}
    if seed is not None:
        body["seed"] = seed
    response = httpx.post(f"{url}/api/games", json=body, timeout=30)
    assert response.status_code == 200, response.text
    return response.json()


def test_concurrent_moves_and_undos_on_one_game_never_fail(serve):
    """Regression: a move and an undo sent together on one game gave HTTP 500 ("cannot join thread before it
    is started", 4 runs of 4): every answer is now a game payload or a one-line 4xx."""
    server = serve()
    payload = _create(server.url, seats=("human", "random"), seed=7)
    game, headers = payload["game"], {"X-Burano-Token": payload["tokens"]["A"]}
    statuses: list[int] = []
    errors: list[str] = []
    with httpx.Client(base_url=server.url, headers=headers, timeout=30) as client:
        for round_ in range(25):
            legal = client.get(f"/api/games/{game}").json()["legal"]
            if not legal:
                assert wait_until(lambda: client.get(f"/api/games/{game}").json()["legal"], guard=10)
                legal = client.get(f"/api/games/{game}").json()["legal"]
            barrier = threading.Barrier(3)

            def send(path, body):
                barrier.wait()
                response = client.post(f"/api/games/{game}/{path}", json=body)
                statuses.append(response.status_code)
                if response.status_code not in (200, 400, 409) or "internal error" in response.text:
                    errors.append(response.text)
            threads = [threading.Thread(target=send, args=("move", {"move": legal[round_ % len(legal)]})),
                       threading.Thread(target=send, args=("undo", {})),
                       threading.Thread(target=send, args=("move", {"move": legal[0]}))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=30)
            assert not any(t.is_alive() for t in threads)
        final = client.get(f"/api/games/{game}").json()
    assert not errors, errors
    assert statuses.count(200) >= 25 and final["view"]["view"] == "A"


def _whole_answer(answer: bytes) -> bool:
    """Has `answer` (an HTTP response read so far) its head and the Content-Length bytes of its body?"""
    head, sep, body = answer.partition(b"\r\n\r\n")
    if not sep:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value.strip())
    return True


def _chunked_post(url: str, path: str, total: int, chunk: int = 16 * 1024) -> tuple[int, int, bytes]:
    """POST `total` bytes of a JSON-ish body in chunks with no Content-Length; stop sending once the server
    answers. Returns (status, bytes sent, answer)."""
    parsed = urlparse(url)
    sock = socket.create_connection((parsed.hostname, parsed.port), timeout=30)
    sock.sendall((f"POST {path} HTTP/1.1\r\nHost: {parsed.hostname}:{parsed.port}\r\n"
                  f"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n").encode())
    sent = 0
    answer = b""
    piece = b"[" + b"1," * (chunk // 2 - 1) + b"1"
    sock.setblocking(False)
    try:
        while sent < total:
            try:
                answer += sock.recv(65536)
                if b"\r\n\r\n" in answer:
                    break
            except BlockingIOError:
                pass
            try:
                data = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
                sock.send(data)   # may send part of it: enough for the count
                sent += len(piece)
            except (BlockingIOError, InterruptedError):
                time.sleep(0.001)
            except (BrokenPipeError, ConnectionResetError):
                break
        sock.setblocking(True)
        sock.settimeout(30)
        while not _whole_answer(answer):   # the head may come before its body: read the body too
            try:
                more = sock.recv(65536)
            except (ConnectionResetError, socket.timeout):
                break
            if not more:
                break
            answer += more
    finally:
        sock.close()
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0
    return status, sent, answer


def test_a_chunked_body_is_refused_at_the_limit_not_after_the_whole_upload(serve):
    """Regression: a chunked body (no Content-Length) was buffered whole before the size check (200 MB sent:
    server RSS 65 -> 440 MB). Now it is counted as it arrives: 413 at the limit, while the client still
    has most of its 64 MB to send."""
    server = serve(limits=ServerLimits(max_body=64 * 1024))
    status, sent, answer = _chunked_post(server.url, "/api/position", total=64 * 1024 * 1024)
    assert status == 413, answer[:300]
    assert b"larger than 65536 bytes" in answer
    assert sent < 32 * 1024 * 1024, sent   # the server answered long before the upload's end
    assert httpx.get(f"{server.url}/api/health").json() == {"ok": True}


def _stream(url, path, params, lines: list, stop: threading.Event | None = None, timeout=30.0):
    """Read an event stream into `lines` until it ends (or `stop` is set)."""
    with httpx.stream("GET", f"{url}{path}", params=params, timeout=timeout) as response:
        lines.append(response.status_code)
        if response.status_code != 200:
            lines.append(response.read().decode())
            return
        for line in response.iter_lines():
            if line.startswith("data: "):
                lines.append(json.loads(line[6:]))
            if stop is not None and stop.is_set():
                return


def test_event_streams_are_capped_and_end_with_their_game(serve):
    """Regression: event streams never ended and were not capped. Now the server holds at most
    `max_streams`, one more is refused (429), and a forgotten game's streams end."""
    server = serve(limits=ServerLimits(max_streams=2, max_games=2))
    payload = _create(server.url)
    game, token = payload["game"], payload["tokens"]["A"]
    got = [[], []]
    readers = [threading.Thread(target=_stream, args=(server.url, f"/api/games/{game}/events", {"token": token}, got[i]),
                                daemon=True) for i in range(2)]
    for reader in readers:
        reader.start()
    assert wait_until(lambda: all(len(g) >= 2 for g in got)), got
    assert server.app.state.streams.open == 2
    third = httpx.get(f"{server.url}/api/games/{game}/events", params={"token": token}, timeout=10)
    assert third.status_code == 429 and "event streams" in third.json()["error"]
    _create(server.url)
    _create(server.url)   # the first game is forgotten: its streams end
    for reader in readers:
        reader.join(timeout=20)
    assert not any(reader.is_alive() for reader in readers), "a forgotten game's stream goes on"
    assert wait_until(lambda: server.app.state.streams.open == 0)


def test_an_idle_stream_waits_for_a_change_instead_of_polling(serve):
    """Regression: every stream looked at its game every 20 ms (200 idle streams = 45 % of a core). Now it
    reads the game once per change: an idle game is read once, a move wakes the stream at once."""
    server = serve()
    payload = _create(server.url, seats=("human", "human"))
    game, token = payload["game"], payload["tokens"]["A"]
    live = server.app.state.games.get(game)
    reads = []

    class Counting(dict):
        def __getitem__(self, key):
            reads.append(key)
            return super().__getitem__(key)
    live.snapshots = Counting(live.snapshots)
    got: list = []
    stop = threading.Event()
    reader = threading.Thread(target=_stream, args=(server.url, f"/api/games/{game}/events", {"token": token}, got, stop),
                              daemon=True)
    reader.start()
    assert wait_until(lambda: len(got) >= 2)
    time.sleep(0.5)   # 25 looks at the game under the old polling
    assert len(reads) == 1, len(reads)
    moved = httpx.post(f"{server.url}/api/games/{game}/move", json={"move": "pick flat"},
                       headers={"X-Burano-Token": token}, timeout=10)
    assert moved.status_code == 200
    assert wait_until(lambda: len(got) >= 3 and got[-1]["log"][:1] and got[-1]["log"][0].startswith("A: pick flat"), guard=10), got[-1]
    stop.set()
    server.app.state.games.get(game).close()
    reader.join(timeout=20)
    assert not reader.is_alive()


def test_an_analysis_stops_when_its_page_goes_away(serve):
    """Regression: an analysis went on searching for up to 10 s after its page closed its stream. Now the
    stream's end (no one else watching) stops it; a finished analysis's stream ends by itself."""
    from burano_ai.games.burano.deal import deal
    from burano_ai.games.burano.notation import position_to_dict
    server = serve()
    started = httpx.post(f"{server.url}/api/analysis", json={"position": position_to_dict(deal(2, 1))}, timeout=30).json()
    analysis = server.app.state.analyses.analyses[started["id"]]
    got: list = []
    stop = threading.Event()
    reader = threading.Thread(target=_stream, args=(server.url, f"/api/analysis/{started['id']}/events",
                                                    {"token": started["token"]}, got, stop), daemon=True)
    reader.start()
    assert wait_until(lambda: len(got) >= 3)   # the status, the first payload, a report
    stop.set()   # the page goes away (the reader closes the connection at its next line)
    reader.join(timeout=20)
    assert wait_until(lambda: analysis.done, guard=10), "the analysis searches on for nobody"
    assert not analysis.error
    # a finished analysis: its stream sends the last payload and ends
    done: list = []
    _stream(server.url, f"/api/analysis/{started['id']}/events", {"token": started["token"]}, done)
    assert done[0] == 200 and done[-1]["done"]


def test_a_replay_stops_being_built_when_its_client_goes_away(serve, monkeypatch):
    """Regression: `POST /api/replays` went on working after the client left (a long or pathological record
    pinned a core). Now the work checks the client and stops."""
    from burano_ai.record import GameRecord
    from burano_ai.session import GameSession
    session = GameSession(2, 3, ["random", "random"])
    session.advance()
    steps_seen = []
    positions = GameRecord.positions

    def slow_positions(self, *args, **kwargs):   # a record that takes long to step through
        for ply, state in positions(self, *args, **kwargs):
            steps_seen.append(ply)
            time.sleep(0.05)
            yield ply, state
    monkeypatch.setattr(GameRecord, "positions", slow_positions)
    server = serve()
    plies = len(session.record.steps)
    with pytest.raises(httpx.ReadTimeout):
        httpx.post(f"{server.url}/api/replays", json={"record": session.record.to_json()}, timeout=1.0)
    assert wait_until(lambda: len(steps_seen) > 0)
    counts = [len(steps_seen)]

    def settled():   # no step for half a second: the work stopped (it would go on for ~50 s)
        time.sleep(0.5)
        counts.append(len(steps_seen))
        return counts[-1] == counts[-2]
    assert wait_until(settled, guard=20.0), counts
    assert len(steps_seen) < plies // 2, (len(steps_seen), plies)
    assert server.app.state.replays.replays == {}
