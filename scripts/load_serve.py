"""Load test of `burano serve`: many simulated players, each playing whole games against bots through the
public HTTP API as the page does (page and API loads, the game's event stream, moves), then a `kill -9` of
the server mid-load and a restart on the same store, counting the games and answered moves lost.

    python scripts/load_serve.py --players 50 --seconds 120 --kill-at 60 --json load.json

Two of them at once, one with `--repo` naming another commit's checkout, compare two versions of the server
under the same load on the same machine.

The client is a bounded asyncio one (httpx.AsyncClient, one connection pool of 2 x players connections),
not a load-testing framework: what is measured is exactly the page's traffic, in one process that needs
nothing beyond the test extra, and each player's acknowledged state is at hand to check the restart
against. Each player (seeded: `--seed` and its number) loads the page (`/`, `app.js`, `/api/games/kinds`),
creates a game (a human seat against `--bot` bots, the kinds in turn), opens its event stream, and plays
random legal moves when the stream (or a move's answer) says it is to move, reading its state now and then
and downloading its record at the end; then the next game.

Measured: the latency of every move (the POST's answer: the bots think after it, on their own thread, so
their thinking is not in it) and of every page/API read, p50/p95/p99; non-2xx answers and transport
errors (outside the kill window); the server's RSS (VmRSS from /proc, sampled). The kill: at `--kill-at`
seconds the server gets SIGKILL with requests in flight; the players wait, the server is restarted on the
same `--store`, and every game a player knows is read back: a game missing, or one whose log does not start
with the moves answered before the kill, is counted lost (`lost_games`, `lost_moves`); then play goes on.
At the end the server is stopped and every finished game's full record is read from the store and replayed.

Exit status: 0 when there were no errors and nothing was lost, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]


def percentiles(values: list[float]) -> dict[str, float]:
    """p50/p95/p99 and the max of `values` (seconds) in milliseconds."""
    if not values:
        return {"count": 0}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)
    return {"count": len(ordered), "p50": at(0.50), "p95": at(0.95), "p99": at(0.99), "max": at(1.0)}


class Server:
    """A `burano serve` child on a store file, started and killed by the load test."""

    def __init__(self, store: Path, players: int, repo: Path = REPO) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.store = store
        self.repo = repo
        # the simulated players all come from 127.0.0.1: one client, whose share must hold all of them
        many = max(64, 4 * players)
        self.limits = [f"max_games={100 * many}", f"client_games={100 * many}", f"max_streams={many}",
                       f"client_streams={many}"]
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 120.0) -> float:
        """Start it and wait until it answers; return the seconds it took (its restore included)."""
        began = time.monotonic()
        args = [sys.executable, "-m", "cli", "serve", "--port", str(self.port), "--store", str(self.store)]
        for item in self.limits:
            args += ["--limit", item]
        self.proc = subprocess.Popen(args, cwd=self.repo, env=dict(os.environ, PYTHONPATH=str(self.repo)),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                     start_new_session=True)
        while time.monotonic() - began < timeout:
            if self.proc.poll() is not None:
                raise SystemExit(f"load_serve: burano serve exited: {self.proc.stderr.read().strip()}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return time.monotonic() - began
            except httpx.HTTPError:
                time.sleep(0.05)
        self.proc.kill()
        raise SystemExit("load_serve: burano serve did not start")

    def rss_mb(self) -> float | None:
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) / 1024
        except (OSError, AttributeError):
            return None
        return None

    def cpu_seconds(self) -> float | None:
        """User and system CPU the server has used so far (/proc)."""
        try:
            with open(f"/proc/{self.proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, AttributeError, IndexError, ValueError):
            return None

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)


class Load:
    """The shared state of one run: figures, the open/closed gate of the kill window, the games known."""

    def __init__(self, args: argparse.Namespace, server: Server) -> None:
        self.args = args
        self.server = server
        self.moves: list[float] = []
        self.reads: list[float] = []
        self.errors: dict[str, int] = {}
        self.error_examples: list[str] = []
        self.open = asyncio.Event()          # cleared during the kill window: players wait
        self.open.set()
        self.killing = False
        self.games: dict[str, dict] = {}     # id -> token, acknowledged ply and log, over
        self.finished = 0
        self.streams = 0
        self.stream_events = 0
        self.stop_at = 0.0
        self.http: httpx.AsyncClient | None = None
        self.server_cpu = 0.0                # CPU seconds of the servers killed (the running one is read at the end)

    def client(self) -> httpx.AsyncClient:
        """A fresh connection pool (after a restart the old one's connections are dead). An idle connection is
        dropped after 2 s, before uvicorn closes it (5 s): a request sent on a connection the server is
        closing fails (a browser would resend it; httpx does not)."""
        limits = httpx.Limits(max_connections=4 * self.args.players + 16,
                              max_keepalive_connections=4 * self.args.players + 16, keepalive_expiry=2.0)
        self.http = httpx.AsyncClient(base_url=self.server.url, limits=limits, timeout=60)
        return self.http

    def error(self, what: str, detail: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1
        if len(self.error_examples) < 10:
            self.error_examples.append(f"{what}: {detail[:200]}")

    def ack(self, game: str, payload: dict) -> None:
        """A payload the server answered: its moves are acknowledged."""
        known = self.games[game]
        if payload["ply"] >= known["ply"]:
            known.update(ply=payload["ply"], log=list(payload["log"][:payload["ply"]]), over=payload["over"])


async def call(load: Load, method: str, url: str, kind: str, **kwargs) -> httpx.Response | None:
    """One request, timed into `kind` ("move" or "read"); None when it failed (counted unless the server was
    being killed on purpose)."""
    await load.open.wait()
    began = time.perf_counter()
    try:
        response = await load.http.request(method, url, **kwargs)
    except httpx.TransportError as exc:
        if not load.killing:
            load.error("transport", f"{method} {url}: {type(exc).__name__} {exc}")
        return None
    elapsed = time.perf_counter() - began
    if response.status_code != 200:
        if not load.killing:
            load.error(str(response.status_code), f"{method} {url}: {response.text}")
        return None
    (load.moves if kind == "move" else load.reads).append(elapsed)
    return response


async def follow(load: Load, game: str, token: str, latest: dict, changed: asyncio.Event) -> None:
    """The game's event stream, as the page's EventSource: each event the whole payload; reconnects after a
    restart, ends with the game. An event is kept as its text (`latest["raw"]`) and read when the player
    looks: a page would parse every one, but this process plays 50 pages on the server's machine."""
    while time.monotonic() < load.stop_at:
        await load.open.wait()
        try:
            async with load.http.stream("GET", f"/api/games/{game}/events", params={"token": token},
                                   timeout=httpx.Timeout(30, read=None)) as response:
                if response.status_code != 200:
                    load.error(f"stream {response.status_code}", (await response.aread()).decode()[:200])
                    return
                load.streams += 1
                async for line in response.aiter_lines():
                    if line.startswith("data: "):
                        load.stream_events += 1
                        latest["raw"] = line[6:]
                        changed.set()
        except httpx.TransportError:
            if not load.killing:
                return
        await asyncio.sleep(0.05)


def newest(latest: dict) -> None:
    """Fold the last event stream text into `latest` if it is newer (by `version`)."""
    raw = latest.pop("raw", None)
    if raw is not None:
        payload = json.loads(raw)
        if payload["version"] > latest.get("version", -1):
            latest.clear()
            latest.update(payload)


async def player(load: Load, number: int) -> None:
    rng = random.Random(load.args.seed * 1_000_003 + number)
    kinds = load.args.kinds.split(",")
    games_played = 0
    while time.monotonic() < load.stop_at:
        for path in ("/", "/static/app.js", "/api/games/kinds"):      # the page, as a browser loads it
            await call(load, "GET", path, "read")
        kind = kinds[(number + games_played) % len(kinds)]
        games_played += 1
        spec = await call(load, "GET", "/api/games/kinds", "read")
        if spec is None:
            await asyncio.sleep(0.2)
            continue
        players = next(k["default_players"] for k in spec.json()["kinds"] if k["key"] == kind)
        created = await call(load, "POST", "/api/games", "read",
                             json={"kind": kind, "players": players, "seats": ["human"] + [load.args.bot] * (players - 1)})
        if created is None:
            await asyncio.sleep(0.2)
            continue
        payload = created.json()
        game, token = payload["game"], payload["tokens"][payload["seat"]]
        headers = {"X-Burano-Token": token}
        load.games[game] = {"token": token, "ply": 0, "log": [], "over": False}
        load.ack(game, payload)
        latest, changed = dict(payload), asyncio.Event()
        stream = asyncio.ensure_future(follow(load, game, token, latest, changed))
        moves = 0
        try:
            while time.monotonic() < load.stop_at and not latest.get("over"):
                newest(latest)
                if latest.get("over"):
                    break
                if latest.get("legal") and latest.get("thinking") is None:
                    await asyncio.sleep(rng.uniform(0, load.args.think))   # the person thinks
                    answer = await call(load, "POST", f"/api/games/{game}/move", "move",
                                        json={"move": rng.choice(latest["legal"])}, headers=headers)
                    moves += 1
                    fresh = answer
                    if answer is None or moves % 5 == 0:   # now and then (and after a failure) as a reload does
                        fresh = await call(load, "GET", f"/api/games/{game}", "read", headers=headers)
                    if fresh is not None:
                        body = fresh.json()
                        load.ack(game, body)
                        newest(latest)
                        if body["version"] >= latest.get("version", -1) or answer is None:
                            latest.clear()
                            latest.update(body)
                    continue
                changed.clear()
                try:
                    await asyncio.wait_for(changed.wait(), timeout=2.0)
                except asyncio.TimeoutError:           # no event for a while: read the state (the page's reload)
                    fresh = await call(load, "GET", f"/api/games/{game}", "read", headers=headers)
                    if fresh is not None:
                        latest.clear()
                        latest.update(fresh.json())
                newest(latest)
                if latest.get("ply") is not None:
                    load.ack(game, latest)
            if latest.get("over"):
                load.finished += 1
                await call(load, "GET", f"/api/games/{game}/record", "read", params={"token": token})
        finally:
            stream.cancel()


async def sample_rss(load: Load, samples: list[float]) -> None:
    while time.monotonic() < load.stop_at:
        rss = load.server.rss_mb()
        if rss is not None:
            samples.append(rss)
        await asyncio.sleep(0.5)


async def kill_and_restart(load: Load, at: float, report: dict) -> None:
    """SIGKILL the server `at` seconds in (requests in flight), restart it on the store, check every game."""
    await asyncio.sleep(at)
    load.killing = True
    load.open.clear()
    acknowledged = {game: dict(known, log=list(known["log"])) for game, known in load.games.items()}
    load.server_cpu += load.server.cpu_seconds() or 0.0
    load.server.kill()
    report["killed_at_s"] = round(at, 1)
    report["restart_s"] = round(await asyncio.to_thread(load.server.start), 2)
    old, http = load.http, load.client()
    await old.aclose()
    lost_games, lost_moves, checked_moves = [], 0, 0
    for game, known in acknowledged.items():
        response = await http.get(f"/api/games/{game}", headers={"X-Burano-Token": known["token"]})
        checked_moves += known["ply"]
        if response.status_code != 200:
            lost_games.append(f"{game[:8]}: {response.status_code} {response.text[:100]}")
            lost_moves += known["ply"]
            continue
        body = response.json()
        kept = 0
        while kept < min(known["ply"], body["ply"]) and body["log"][kept] == known["log"][kept]:
            kept += 1
        lost_moves += known["ply"] - kept
    report.update(games_checked=len(acknowledged), steps_checked=checked_moves, lost_games=len(lost_games),
                  lost_steps=lost_moves, lost_examples=lost_games[:5])
    load.killing = False
    load.open.set()


def replay_store(path: Path) -> dict:
    """Every finished game's full record, read from the store and replayed step by step."""
    from burano_ai.record import GameRecord
    from burano_ai.web.store import GameStore
    store = GameStore(path)
    finished = replayed = 0
    failures = []
    try:
        for saved in store.games():
            if saved.record.get("result") is None:
                continue
            finished += 1
            try:
                GameRecord.from_dict(saved.record).replay()
                replayed += 1
            except ValueError as exc:
                failures.append(f"{saved.id[:8]}: {exc}")
    finally:
        store.close()
    return {"finished_in_store": finished, "replayed": replayed, "replay_failures": failures[:5]}


async def run(args: argparse.Namespace) -> dict:
    store = Path(args.store) if args.store else Path(tempfile.mkdtemp(prefix="burano-load-")) / "games.sqlite3"
    server = Server(store, args.players, Path(args.repo).resolve())
    report: dict = {"players": args.players, "seconds": args.seconds, "kinds": args.kinds, "bot": args.bot,
                    "cpus": os.cpu_count(), "load_before": [round(x, 2) for x in os.getloadavg()],
                    "command": " ".join([Path(sys.argv[0]).as_posix()] + sys.argv[1:])}
    report["start_s"] = round(server.start(), 2)
    load = Load(args, server)
    rss: list[float] = []
    own_cpu = time.process_time()
    try:
        load.client()
        began = time.monotonic()
        load.stop_at = began + args.seconds
        tasks = [asyncio.ensure_future(player(load, i)) for i in range(args.players)]
        tasks.append(asyncio.ensure_future(sample_rss(load, rss)))
        if args.kill_at:
            tasks.append(asyncio.ensure_future(kill_and_restart(load, args.kill_at, report)))
        try:
            await asyncio.wait_for(asyncio.gather(*tasks), timeout=args.seconds + 300)
        finally:
            await load.http.aclose()
        report["elapsed_s"] = round(time.monotonic() - began, 1)
        report["server_cpu_s"] = round(load.server_cpu + (server.cpu_seconds() or 0.0), 1)
        report["client_cpu_s"] = round(time.process_time() - own_cpu, 1)
    finally:
        server.stop()
    report["load_after"] = [round(x, 2) for x in os.getloadavg()]
    report.update(games=len(load.games), finished=load.finished, moves=percentiles(load.moves),
                  reads=percentiles(load.reads), streams_opened=load.streams, stream_events=load.stream_events,
                  errors=sum(load.errors.values()), errors_by_kind=load.errors, error_examples=load.error_examples,
                  rss_mb={"first": round(rss[0], 1), "max": round(max(rss), 1), "last": round(rss[-1], 1)} if rss else {})
    if load.moves:   # everything the server did (reads, streams, bots, restarts) per move answered
        report["server_cpu_ms_per_move"] = round(1000 * report["server_cpu_s"] / len(load.moves), 1)
    report.update(replay_store(store))
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=50, help="simulated players at once (default 50)")
    parser.add_argument("--seconds", type=float, default=120.0, help="length of the run (default 120)")
    parser.add_argument("--kill-at", type=float, default=None,
                        help="seconds in to kill -9 and restart the server (default: half the run; 0: never)")
    parser.add_argument("--kinds", default="goofspiel,burano", help="games played, in turn (default goofspiel,burano)")
    parser.add_argument("--bot", default="random", help="the bots' spec (default random)")
    parser.add_argument("--think", type=float, default=0.5, help="a player's longest pause before a move, s (0.5)")
    parser.add_argument("--seed", type=int, default=1, help="the players' seed (default 1)")
    parser.add_argument("--store", default=None, help="the server's store (default: a new temporary file)")
    parser.add_argument("--json", default=None, help="also write the report to this file")
    parser.add_argument("--repo", default=str(REPO),
                        help="the checkout whose burano serve is measured (default this one; another commit's "
                             "checkout, run at the same time, gives a before/after on the same load)")
    args = parser.parse_args(argv)
    if args.players < 1 or args.seconds <= 0:
        parser.error("--players and --seconds must be positive")
    if args.kill_at is None:
        args.kill_at = args.seconds / 2
    report = asyncio.run(run(args))
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n")
    ok = report["errors"] == 0 and report.get("lost_games", 0) == 0 and report.get("lost_steps", 0) == 0 \
        and not report["replay_failures"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
