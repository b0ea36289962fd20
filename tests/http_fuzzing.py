"""The HTTP API campaign against `burano serve` (docs/reliability.md, "The HTTP API campaign"), shared by
tests/test_http_fuzz.py (a short run in CI) and scripts/fuzz_http.py (campaigns of 30 minutes and more).

Schemathesis (property-based testing from an OpenAPI schema) drives a real `burano serve` process over
HTTP. The schema is FastAPI's own (`app.openapi()`), completed here:

- the routes read raw bodies (`_body` in web/app.py), so FastAPI publishes no request body: `BODIES`
  gives each POST route the JSON object it reads, so that the fuzzer sends meaningful bodies as well
  as broken ones (negative mode);
- path parameters also offer the ids of objects the server really holds (games and a replay, created by
  `seed_server` before the run), and the seat routes an `X-Burano-Token` header with the seats' real
  tokens, so that moves, undos, records and replays are reached (and the token checks are crossed: a
  token of one game on another's routes);
- event streams (`/events`) stay open by design and are left out (a fuzzer would wait on them).

The oracles: schemathesis's `not_a_server_error` (no 5xx) with a request timeout (no hang); after the
run, the server must still answer `/api/health`, its stderr must hold no traceback and no "internal
error", and its resident memory must stay under `MAX_RSS_MB` (sampled every second).
"""

from __future__ import annotations

import copy
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from fuzz_common import rss_mb

ROOT = Path(__file__).resolve().parent.parent
#: Resident memory the server may reach.
MAX_RSS_MB = 1500
#: Seconds a request may take before it counts as a hang.
REQUEST_TIMEOUT = 30

_SEAT = {"type": "string", "examples": ["A", "B"]}
_SEATS = {"type": "array", "maxItems": 5,
          "items": {"type": "string", "enum": ["human", "random", "greedy", "ismcts:iterations=50"]}}
_POSITION = {"type": "object", "examples": [{"format": "burano-position/1"}]}
#: The JSON body each POST route reads (web/app.py).
BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("/api/games", "post"): {"type": "object", "required": ["players", "seats"], "properties": {
        "kind": {"type": "string", "enum": ["burano", "goofspiel"]},
        "players": {"type": "integer", "minimum": 1, "maximum": 5},
        "seed": {"type": "integer", "minimum": 0},
        "seats": _SEATS}},
    ("/api/games/{game_id}/move", "post"): {"type": "object", "required": ["move"], "properties": {
        "seat": _SEAT, "move": {"type": "string", "examples": ["pick flat", "pick island", "done"]}}},
    ("/api/games/{game_id}/undo", "post"): {"type": "object", "properties": {"seat": _SEAT}},
    ("/api/games/{game_id}/analysis", "post"): {"type": "object", "properties": {
        "seat": _SEAT, "avoid": {"type": "array", "items": {"type": "string"}}}},
    ("/api/analysis", "post"): {"type": "object", "required": ["position"], "properties": {
        "position": _POSITION, "avoid": {"type": "array", "items": {"type": "string"}}}},
    ("/api/position", "post"): {"type": "object", "required": ["position"], "properties": {"position": _POSITION}},
    ("/api/replays", "post"): {"type": "object", "required": ["record"], "properties": {
        "record": {"type": "object"}, "seat": _SEAT}},
}
#: The header that carries a seat's token (a server with seat tokens: `burano serve` since issue 20).
TOKEN_HEADER = "X-Burano-Token"
#: Routes left out of the run.
EXCLUDED = re.compile(r"/events$|^/$|^/static")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`burano serve` in a process of its own: its URL, stderr (a file) and the peak resident memory."""

    def __init__(self, log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        env.pop("BURANO_DEBUG_TRACEBACK", None)
        self._err = open(log, "wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(self.port)], cwd=ROOT,
                                     env=env, stdin=subprocess.DEVNULL, stdout=self._err, stderr=self._err,
                                     start_new_session=True)
        self.max_rss = 0.0
        self._done = threading.Event()
        deadline = time.monotonic() + 60
        while not self.healthy():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"burano serve did not start: {log.read_text()[-1000:]}")
            time.sleep(0.1)
        threading.Thread(target=self._sample, daemon=True).start()

    def _sample(self) -> None:
        while not self._done.wait(1.0):
            self.max_rss = max(self.max_rss, rss_mb(self.proc.pid))

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(self.url + "/api/health", timeout=REQUEST_TIMEOUT) as r:
                return r.status == 200
        except (OSError, urllib.error.URLError):
            return False

    def post(self, path: str, body: dict) -> dict:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=REQUEST_TIMEOUT) as r:
            return json.loads(r.read())

    def stop(self) -> None:
        self._done.set()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._err.close()

    def problems(self) -> list[str]:
        """What the server's log and state say went wrong (empty: nothing)."""
        out = []
        text = self.log.read_text(errors="replace")
        if "Traceback" in text:
            out.append("traceback in the server log: " + text[text.index("Traceback"):][:1500])
        if "internal error" in text:
            out.append("internal error in the server log")
        if self.proc.poll() is not None:
            out.append(f"the server ended with {self.proc.returncode}")
        elif not self.healthy():
            out.append("the server no longer answers /api/health")
        if self.max_rss > MAX_RSS_MB:
            out.append(f"resident memory {self.max_rss:.0f} MB > {MAX_RSS_MB} MB")
        return out


def seed_server(server: Server) -> dict[str, list[str]]:
    """Objects for the fuzzer to reach: games (a human against bots), a replay; their ids by parameter."""
    ids: dict[str, list[str]] = {"game_id": [], "replay_id": [], "analysis_id": [], TOKEN_HEADER: []}
    for kind, players, seats in (("burano", 2, ["human", "random"]), ("goofspiel", 2, ["human", "random"]),
                                 ("burano", 3, ["human", "human", "random"])):
        try:
            body = {"kind": kind, "players": players, "seats": seats}
            if seats.count("human") == 1:      # a seed is for one person only (issue 35 F01)
                body["seed"] = 1
            payload = server.post("/api/games", body)
        except urllib.error.HTTPError as exc:     # a server that refuses one of these: fuzz without it
            print(f"seed_server: {kind} {seats}: {exc} {exc.read()[:200]!r}", file=sys.stderr)
            continue
        game = payload.get("game")
        ids["game_id"].append(game if isinstance(game, str) else payload.get("id"))
        ids[TOKEN_HEADER].extend((payload.get("tokens") or {}).values())   # seat tokens (a server that has them)
    from burano_ai.record import GameRecord
    record = GameRecord.load(ROOT / "tests" / "records" / "blunder-2p.json").to_dict()
    try:
        replay = server.post("/api/replays", {"record": record})
        ids["replay_id"].append(replay.get("id"))
    except urllib.error.HTTPError as exc:
        print(f"seed_server: replay: {exc} {exc.read()[:200]!r}", file=sys.stderr)
    return {k: [v for v in vs if isinstance(v, str)] for k, vs in ids.items()}


def openapi_schema(ids: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """The app's OpenAPI schema with request bodies and real ids (module docstring)."""
    from burano_ai.web.app import create_app
    schema = copy.deepcopy(create_app().openapi())
    for path in list(schema["paths"]):
        if EXCLUDED.search(path):
            del schema["paths"][path]
            continue
        for method, op in schema["paths"][path].items():
            body = BODIES.get((path, method))
            if body is not None:
                op["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
            params = op.setdefault("parameters", [])
            tokens = (ids or {}).get(TOKEN_HEADER)
            if tokens and re.match(r"/api/(games|analysis)/\{", path):
                params.append({"name": TOKEN_HEADER, "in": "header", "required": False,
                               "schema": {"type": "string", "enum": tokens}})
            for param in params:
                known = (ids or {}).get(param["name"])
                if known and param["in"] == "path":
                    param["schema"] = {"anyOf": [{"type": "string", "enum": known}, param.get("schema", {})]}
    return schema


def run(out_dir: Path, max_examples: int | None = None, max_time: float | None = None, seed: int = 1,
        mode: str = "all") -> dict[str, Any]:
    """Start a server, fuzz it with `st run`, check it; the counts and the problems found."""
    out_dir.mkdir(parents=True, exist_ok=True)
    server = Server(out_dir / "server.log")
    try:
        ids = seed_server(server)
        schema_path = out_dir / "openapi.json"
        schema_path.write_text(json.dumps(openapi_schema(ids), indent=1))
        command = [sys.executable, "-m", "schemathesis.cli", "run", str(schema_path), "--url", server.url,
                   "--checks", "not_a_server_error", "--request-timeout", str(REQUEST_TIMEOUT),
                   "--seed", str(seed), "--workers", "1", "--mode", mode, "--no-color",
                   "--phases", "examples,coverage,fuzzing", "--suppress-health-check", "all",
                   "--generation-database", "none", "--report", "ndjson",
                   "--report-ndjson-path", str(out_dir / "events.ndjson")]
        if max_examples is not None:
            command += ["--max-examples", str(max_examples)]
        if max_time is not None:
            command += ["--max-time", str(int(max_time))]
        started = time.monotonic()
        proc = subprocess.run(command, cwd=out_dir, capture_output=True, text=True,
                              timeout=(max_time or 600) + 600, env={**os.environ, "PYTHONPATH": str(ROOT)})
        (out_dir / "schemathesis.txt").write_text(proc.stdout + proc.stderr)
        problems = server.problems()
    finally:
        server.stop()
    cases = _count_cases(out_dir / "events.ndjson")
    if proc.returncode != 0:
        problems.insert(0, f"schemathesis exited with {proc.returncode}: " + _failures(proc.stdout))
    return {"cases": cases, "seconds": round(time.monotonic() - started, 1), "max_rss_mb": round(server.max_rss, 1),
            "problems": problems, "operations": sum(len(v) for v in openapi_schema()["paths"].values()),
            "exit": proc.returncode}


def _count_cases(path: Path) -> int:
    """Test cases (requests) schemathesis sent, from its ndjson event log."""
    n = 0
    try:
        with open(path) as f:
            for line in f:
                if '"ScenarioFinished"' in line or '"scenario_finished"' in line.lower():
                    try:
                        event = json.loads(line)
                    except ValueError:
                        continue
                    n += _recorded_cases(event)
    except OSError:
        return 0
    return n


def _recorded_cases(event: Any) -> int:
    """The interactions (request/response pairs) recorded in one ScenarioFinished event."""
    found = 0
    stack = [event]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if "interactions" in value and isinstance(value["interactions"], (list, dict)):
                found += len(value["interactions"])
            else:
                stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return found


def _failures(stdout: str) -> str:
    keep = [line for line in stdout.splitlines() if "Server error" in line or "FAILURES" in line or "_ " in line]
    return " | ".join(keep[:12])[:2000] or stdout[-2000:]
