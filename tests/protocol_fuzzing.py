"""The garbage stream for `burano engine` (docs/reliability.md, "The engine protocol campaign"), shared by
tests/test_protocol_fuzz.py (a short stream in CI) and scripts/fuzz_protocol.py (long campaigns).

`stream_lines(seed, n)` gives `n` input lines, a deterministic function of the seed: random bytes, random
text, broken JSON, JSON that is not an object, deep nesting, huge lines and numbers, queries of every
position form (a position object, a game record, a deal and moves with and without a view and `?`) with
their fields mutated (wrong types, out-of-range numbers, unknown fields, deleted keys), and control lines
(`query_version`, `query_games`, `terminate` of a live or unknown id, `terminate_all`). Searches are
small (a few iterations or milliseconds), so a stream tests the protocol, not the search.

`run_stream(lines)` feeds them to a real engine process over pipes, with a `query_version` ping after
every `PING_EVERY` lines, and checks the oracles; it returns the counts and raises `Finding`:

- ``hang``: a ping (or, at the end, `quit`) is not answered within `GUARD_SECONDS`;
- ``traceback``: stderr shows a traceback or an "internal error";
- ``bad-line``: an output line that is not JSON or does not match the protocol's output schema;
- ``final``: a query with a readable id that does not end with exactly one final line, or a control
  line with a readable id that gets no answer;
- ``exit``: the engine does not exit with 0 after `quit`;
- ``memory``: its resident memory grows beyond `MAX_RSS_MB`.
"""

from __future__ import annotations

import copy
import json
import os
import queue
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from fuzz_common import Finding, rss_mb

ROOT = Path(__file__).resolve().parent.parent
POSITIONS = ROOT / "tests" / "positions"
RECORDS = ROOT / "tests" / "records"
#: The engine's longest line (a longer one is answered with "id": null).
MAX_LINE_BYTES = 4 << 20
#: A ping every so many lines.
PING_EVERY = 25
#: Wall-clock guard for a ping's answer (a hang, not a timing under test).
GUARD_SECONDS = 60.0
#: Resident memory the engine may reach (it starts near 100 MB).
MAX_RSS_MB = 600


def _corpus() -> list[dict]:
    out = [json.loads(p.read_text()) for p in sorted(POSITIONS.glob("*.json"))]
    out += [json.loads(p.read_text()) for p in sorted(RECORDS.glob("*.json"))]
    return out


_CORPUS: list[dict] | None = None


def corpus() -> list[dict]:
    global _CORPUS
    if _CORPUS is None:
        _CORPUS = _corpus()
    return _CORPUS


def _game_moves(rng: random.Random, players: int, seed: int, plies: int) -> list[str]:
    from burano_ai import Game
    state = Game(players).new_initial_state(seed)
    moves = []
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            action = rng.choice(outcomes)
        else:
            action = rng.choice(state.legal_actions())
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    return moves


WRONG = [None, True, False, -1, 0, 1.5, float("inf"), 10**30, -(10**30), "", "x" * 300, [], {}, [1, [2]],
         {"a": None}, "NaN", 2**63, 2**64]
FIELDS = ["id", "game", "position", "step", "seat", "maxIterations", "maxTime", "reportDuringSearchEvery",
          "allowMoves", "avoidMoves", "top", "seed", "includePlans", "threads", "maxVisits", "terminateId",
          "action", "bogus", "Position"]


def _query(rng: random.Random, qid: Any) -> dict:
    kind = rng.random()
    if kind < 0.35:
        position = copy.deepcopy(rng.choice(corpus()))
    elif kind < 0.8:
        players = rng.choice([2, 3, 4, 1, 5])
        seed = rng.randrange(50)
        moves = _game_moves(rng, max(2, min(players, 4)), seed, rng.randrange(0, 120))
        position = {"players": players, "seed": seed, "moves": moves}
        if rng.random() < 0.5:
            position["view"] = rng.choice("ABCDZ")
            moves[:] = ["?" if rng.random() < 0.15 else m for m in moves]
        if rng.random() < 0.2:
            position["game"] = "goofspiel"
    else:
        position = {"players": rng.choice([2, 3]), "seed": rng.randrange(9), "moves": []}
    query: dict[str, Any] = {"id": qid, "position": position}
    if rng.random() < 0.7:
        query["maxIterations"] = rng.randrange(1, 60)
    else:
        query["maxTime"] = rng.choice([0.001, 0.01, 0.05])
    if rng.random() < 0.2:
        query["reportDuringSearchEvery"] = rng.choice([0.01, 0.02])
    for key, values in (("top", [1, 3, 2048]), ("threads", [1]), ("seed", [0, 5, 2**63 - 1]),
                        ("includePlans", [True, False]), ("game", ["burano", "goofspiel", "chess"]),
                        ("allowMoves", [["done"], ["pick flat", "pick island"], []]),
                        ("avoidMoves", [["done"], ["nonsense"]]), ("seat", ["A", "B", "z"]), ("step", [0, 5, 10**6])):
        if rng.random() < 0.08:
            query[key] = rng.choice(values)
    query.setdefault("threads", 1)
    return query


def _mutate(rng: random.Random, value: Any, depth: int = 0) -> Any:
    """One random structural change somewhere in `value` (a JSON value)."""
    if isinstance(value, dict) and value and (depth < 4 and rng.random() < 0.6):
        key = rng.choice(list(value))
        roll = rng.random()
        if roll < 0.15:
            del value[key]
        elif roll < 0.25:
            value[rng.choice(FIELDS)] = rng.choice(WRONG)
        else:
            value[key] = _mutate(rng, value[key], depth + 1)
        return value
    if isinstance(value, list) and value and rng.random() < 0.6:
        i = rng.randrange(len(value))
        roll = rng.random()
        if roll < 0.2:
            del value[i]
        elif roll < 0.3:
            value.append(copy.deepcopy(value[i]) if depth < 6 else None)
        else:
            value[i] = _mutate(rng, value[i], depth + 1)
        return value
    if isinstance(value, str) and rng.random() < 0.5:
        return value[: rng.randrange(len(value) + 1)] + rng.choice(["", "?", " ", "\u00b2", "\x00", "é", "\ud800"])
    return copy.deepcopy(rng.choice(WRONG))


def _garbage(rng: random.Random) -> bytes:
    roll = rng.random()
    if roll < 0.2:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400))).replace(b"\n", b" ")
    if roll < 0.35:
        return "".join(chr(rng.randrange(32, 0x2FF)) for _ in range(rng.randrange(1, 200))).encode("utf-8")
    if roll < 0.45:
        depth = rng.choice([17, 100, 5000, 200_000])
        head = b'{"id": "deep-%d", "position": ' % rng.randrange(10**6) if rng.random() < 0.5 else b""
        return head + b"[" * depth + b"]" * depth + (b"}" if head else b"")
    if roll < 0.5:
        return b'{"id": "huge", "position": "' + b"y" * rng.choice([10, 100_000, 5_000_000]) + b'"}'
    if roll < 0.55:
        return b'{"id": ' + b"9" * rng.choice([20, 5000]) + b"}"
    if roll < 0.65:
        return rng.choice([b"null", b"true", b"[]", b"{}", b'"text"', b"12", b"1e999", b"NaN", b" ", b"",
                           b'{"id": "dup", "id": "dup"}', b'{"id": "x", "action": "quit", "z": 1}'])
    text = json.dumps(_query(rng, "g%d" % rng.randrange(10**6)))
    cut = rng.randrange(len(text))
    return text[:cut].encode() + (bytes([rng.randrange(256)]) if rng.random() < 0.5 else b"")


def stream_lines(seed: int, n: int) -> list[bytes]:
    """`n` input lines (without newlines), a deterministic function of `seed`; never `quit`."""
    rng = random.Random(seed)
    lines: list[bytes] = []
    live: list[str] = []
    for i in range(n):
        roll = rng.random()
        qid = f"s{seed}-{i}"
        if roll < 0.35:
            query = _query(rng, qid)
            if rng.random() < 0.4:
                for _ in range(rng.randrange(1, 4)):
                    query = _mutate(rng, query)
            if isinstance(query, dict) and query.get("action") == "quit":
                query["action"] = "query_version"
            lines.append(json.dumps(query, allow_nan=True).encode())
            live.append(qid)
        elif roll < 0.5:
            action = rng.choice(["query_version", "query_games", "terminate", "terminate_all", "terminate"])
            line: dict[str, Any] = {"id": qid, "action": action}
            if action == "terminate":
                line["terminateId"] = rng.choice(live) if live and rng.random() < 0.7 else rng.choice(["nope", 7, None])
            if rng.random() < 0.1:
                line = _mutate(rng, line)
                if isinstance(line, dict) and line.get("action") == "quit":
                    line["action"] = "query_games"
            lines.append(json.dumps(line).encode())
        else:
            lines.append(_garbage(rng))
    return lines


def _output_schema():
    import jsonschema
    schema = json.loads((ROOT / "burano_ai" / "core" / "schemas" / "engine-protocol.schema.json").read_text())
    return jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/output"})


def run_stream(lines: list[bytes], engine: list[str] | None = None) -> dict[str, Any]:
    """Feed `lines` to a fresh engine and check the oracles (module docstring); the counts."""
    command = engine or [sys.executable, "-m", "burano_ai.protocol", "--threads", "1"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("BURANO_DEBUG_TRACEBACK", None)
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    out: queue.Queue = queue.Queue()
    err: list[bytes] = []
    threading.Thread(target=lambda: [out.put(raw) for raw in proc.stdout] and None or out.put(None),
                     daemon=True).start()
    threading.Thread(target=lambda: err.append(proc.stderr.read()), daemon=True).start()
    validator = _output_schema()
    seen: list[dict] = []
    max_rss = 0.0

    def take(until_id: str) -> None:
        deadline = time.monotonic() + GUARD_SECONDS
        while True:
            try:
                raw = out.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise Finding("hang", f"no answer to {until_id!r} within {GUARD_SECONDS:.0f} s") from None
            if raw is None:
                raise Finding("exit", f"the engine ended (code {proc.poll()}) before answering {until_id!r}: "
                              f"{b''.join(err).decode(errors='replace')[-500:]}")
            try:
                line = json.loads(raw)
            except ValueError:
                raise Finding("bad-line", f"not JSON: {raw[:200]!r}") from None
            problems = list(validator.iter_errors(line))
            if problems:
                raise Finding("bad-line", f"{raw[:200]!r} does not match the schema: {problems[0].message[:200]}")
            seen.append(line)
            if line.get("id") == until_id and ("action" in line or "error" in line):
                return

    sent_queries: list[str] = []
    sent_actions: list[str] = []
    try:
        for i, line in enumerate(lines):
            try:
                data = json.loads(line)
            except (ValueError, RecursionError):
                data = None
            if (isinstance(data, dict) and isinstance(data.get("id"), str) and 0 < len(data["id"]) <= 256
                    and len(line) <= MAX_LINE_BYTES):
                (sent_queries if "action" not in data else sent_actions).append(data["id"])
            proc.stdin.write(line + b"\n")
            if (i + 1) % PING_EVERY == 0 or i == len(lines) - 1:
                ping = f"ping-{i}"
                proc.stdin.write(json.dumps({"id": ping, "action": "query_version"}).encode() + b"\n")
                proc.stdin.flush()
                take(ping)
                max_rss = max(max_rss, rss_mb(proc.pid))
                if max_rss > MAX_RSS_MB:
                    raise Finding("memory", f"resident memory {max_rss:.0f} MB > {MAX_RSS_MB} MB")
        proc.stdin.write(b'{"id": "bye", "action": "quit"}\n')
        proc.stdin.flush()
        proc.stdin.close()
        take("bye")
        try:
            code = proc.wait(timeout=GUARD_SECONDS)
        except subprocess.TimeoutExpired:
            raise Finding("hang", "the engine did not exit after quit") from None
        while (raw := out.get(timeout=GUARD_SECONDS)) is not None:
            line = json.loads(raw)
            seen.append(line)
        time.sleep(0.05)
        stderr = b"".join(err).decode(errors="replace")
        if code != 0:
            raise Finding("exit", f"exit code {code} after quit: {stderr[-500:]}")
        if "Traceback" in stderr or "internal error" in stderr:
            raise Finding("traceback", stderr[-1500:])
        internal = [line for line in seen if "internal error" in str(line.get("error", ""))]
        if internal:
            raise Finding("traceback", f"an internal error line: {internal[0]}")
        finals: dict[Any, int] = {}
        for line in seen:
            if "error" in line or line.get("isDuringSearch") is False:
                finals[line.get("id")] = finals.get(line.get("id"), 0) + 1
        # An id a control line used too is ambiguous (its error line looks final): not checked.
        shared = set(sent_actions)
        bad = [q for q in dict.fromkeys(sent_queries)
               if q not in shared and finals.get(q, 0) != sent_queries.count(q)]
        if bad:
            raise Finding("final", f"query {bad[0]!r} ended with {finals.get(bad[0], 0)} final lines")
        answered = {line.get("id") for line in seen if "action" in line or "error" in line}
        unanswered = [a for a in sent_actions if a not in answered]
        if unanswered:
            raise Finding("final", f"control line {unanswered[0]!r} got no answer")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reports = sum(1 for line in seen if line.get("isDuringSearch") is False)
    errors = sum(1 for line in seen if "error" in line)
    return {"lines": len(lines), "queries": len(sent_queries), "controls": len(sent_actions), "answers": len(seen), "final_reports": reports,
            "errors": errors, "max_rss_mb": round(max_rss, 1)}
