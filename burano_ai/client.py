"""A Python client for `burano engine` (the JSON-lines protocol of docs/engine-protocol.md), in the spirit
of python-chess's `chess.engine.SimpleEngine`: one engine process, many questions, live updates.

    from burano_ai.client import Engine
    from burano_ai.search import Limit

    with Engine.popen(threads=2) as engine:
        info = engine.analyse(position, Limit(iterations=5000), seed=1)
        print(info.move, info.moves[0].winrate)

        with engine.analysis(position, Limit(seconds=60), report_every=0.5) as search:
            for report in search:                 # partial reports while the engine searches
                if report.iterations >= 20_000:
                    search.stop()                 # the engine still sends its final report
        print(search.result.move, search.result.terminated)

        move = engine.play(position, Limit(seconds=1)).move

A position is a position dict (full or one seat's view) of any registered game, its JSON text, a path of
a position or record file, a `State` (sent in full: the engine searches from the seat's view), a
`GameRecord` (with `step`), or ``{"players": N, "seed": S, "moves": [...]}`` (with ``game=`` for a game
other than Burano; `Engine.games` lists the engine's games). Everything runs over the engine's pipes; the
client reads the engine's output in a thread of its own and hands each line to the query it answers.
An error line of a query raises `EngineError` (a `ValueError` naming the problem); an engine that exits
raises `EngineTerminatedError`. Logs go to the logger "burano_ai.client".
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import queue
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from burano_ai.core.errors import BuranoError
from burano_ai.core.jsonio import json_error_text
from burano_ai.search.limits import Limit

log = logging.getLogger("burano_ai.client")

#: Seconds `Engine.close` waits for the engine to exit after `quit` before it kills it.
CLOSE_TIMEOUT = 10.0


class EngineError(BuranoError):
    """The engine answered a query with an error line; `field` names the offending field (or None)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class EngineTerminatedError(RuntimeError):
    """The engine process ended (or its pipes closed) before it answered."""


@dataclass(frozen=True)
class PlanStep:
    move: str
    visits: int
    uncertain: bool
    chance: str | None


@dataclass(frozen=True)
class MoveInfo:
    """One candidate move of a report (protocol: `moveInfos[]`)."""

    move: str
    action: int
    order: int
    visits: int
    winrate: float
    value: float
    lcb: float
    expected_vp: float
    margin: float
    margin_stdev: float | None
    winrates: dict[str, float] | None = None     # every seat's chance to win after the move
    plan: tuple[PlanStep, ...] | None = None     # with include_plans

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MoveInfo:
        plan = d.get("plan")
        return cls(move=d["move"], action=d["action"], order=d["order"], visits=d["visits"], winrate=d["winrate"],
                   value=d["value"], lcb=d["lcb"], expected_vp=d["expectedVp"], margin=d["margin"],
                   margin_stdev=d["marginStdev"], winrates=d.get("winrates"),
                   plan=None if plan is None else tuple(PlanStep(**s) for s in plan))


@dataclass(frozen=True)
class AnalysisResult:
    """A report of the engine: partial (`during_search`) or the final one of a query.

    Attributes:
        move: the suggested move so far; `moves`: the candidates, best first; `root`: the protocol's
        rootInfo (seat, positionKey, iterations, time, iterationsPerSecond, ...); `terminated` and
        `notes` (final reports only); `raw`: the line as the engine wrote it.
    """

    id: Any
    during_search: bool
    move: str
    moves: tuple[MoveInfo, ...]
    root: dict[str, Any]
    terminated: bool = False
    notes: tuple[str, ...] = ()
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> AnalysisResult:
        return cls(id=d["id"], during_search=d["isDuringSearch"], move=d["move"],
                   moves=tuple(MoveInfo.from_dict(m) for m in d["moveInfos"]), root=d["rootInfo"],
                   terminated=d.get("terminated", False), notes=tuple(d.get("notes", ())), raw=d)

    @property
    def iterations(self) -> int:
        return self.root["iterations"]

    @property
    def winrate(self) -> float | None:
        """The suggested move's win probability for the searching seat."""
        return self.root["winrate"]

    @property
    def plan(self) -> list[str]:
        """The suggested move's plan for the rest of the turn, as move texts."""
        return [step["move"] for step in self.root["plan"]]


@dataclass(frozen=True)
class PlayResult:
    """The move the engine plays, and the analysis behind it."""

    move: str
    analysis: AnalysisResult


_END = object()


class AnalysisIterator:
    """The reports of one running query: iterate for the partial ones; `stop()` ends the search early;
    `wait()` (or `result` after the iteration) is the final report. A context manager: leaving it stops
    the search if it still runs and waits for its final report."""

    def __init__(self, engine: Engine, qid: str, lines: queue.Queue) -> None:
        self._engine = engine
        self.id = qid
        self._lines = lines
        self.result: AnalysisResult | None = None
        self._error: BaseException | None = None

    def __iter__(self) -> Iterator[AnalysisResult]:
        while self.result is None and self._error is None:
            report = self._next()
            if report is not None:
                yield report
        if self._error is not None:
            raise self._error

    def _next(self) -> AnalysisResult | None:
        """The next partial report, or None once the final one has arrived (then stored in `result`)."""
        line = self._lines.get()
        if line is _END:
            self._error = EngineTerminatedError(f"the engine ended before it answered query {self.id!r}")
            self._engine._forget(self.id)
            raise self._error
        if "error" in line:
            self._error = EngineError(line["error"], line.get("field"))
            self._engine._forget(self.id)
            raise self._error
        report = AnalysisResult.from_dict(line)
        if report.during_search:
            return report
        self.result = report
        self._engine._forget(self.id)
        return None

    def stop(self) -> None:
        """Ask the engine to end this search now (its final report, the best so far, still comes)."""
        if self.result is None and self._error is None:
            self._engine._send({"id": f"{self.id}-stop", "action": "terminate", "terminateId": self.id})

    def wait(self) -> AnalysisResult:
        """Wait for the final report (skipping partial ones) and return it."""
        while self.result is None and self._error is None:
            self._next()
        if self._error is not None:
            raise self._error
        return self.result

    def __enter__(self) -> AnalysisIterator:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        if self.result is None and self._error is None:
            self.stop()
            try:
                self.wait()
            except (EngineError, EngineTerminatedError):
                if exc_info[0] is None:
                    raise


#: Where `Engine.popen` logs the engine's stderr by default.
engine_log = logging.getLogger("burano_ai.client.engine")


def _log_engine_stderr(stream: Any) -> None:
    """Log the engine's stderr lines (`Engine.popen` without `stderr`): its "ready" line is routine
    (DEBUG); any other line is a problem the engine reports (WARNING)."""
    try:
        for text in stream:
            text = text.rstrip("\n")
            routine = text.startswith("burano engine: ready")
            engine_log.log(logging.DEBUG if routine else logging.WARNING, "%s", text)
    except (OSError, ValueError):
        pass


class Engine:
    """One `burano engine` process (`Engine.popen`); a context manager that quits it on exit."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.process = process
        self._send_lock = threading.Lock()
        self._lock = threading.Lock()
        self._waiting: dict[Any, queue.Queue] = {}
        self._ids = itertools.count(1)
        self._closed = False
        self._reader = threading.Thread(target=self._read, name="burano-client-reader", daemon=True)
        self._reader.start()

    @classmethod
    def popen(cls, command: list[str] | None = None, threads: int | None = None, stderr: Any = None,
              env: dict[str, str] | None = None, cwd: str | None = None) -> Engine:
        """Start an engine process: `command` (default: this Python running ``burano_ai.protocol``, the
        same server as ``burano engine``) with ``--threads`` when given.

        Its stderr (the engine's log) goes to `stderr` when given (a file, `subprocess.DEVNULL` to drop
        it); by default each line is logged on the ``burano_ai.client.engine`` logger: the "ready" line
        at DEBUG, anything else (an engine's internal error) at WARNING. Nothing reaches the caller's
        stderr unless its logging shows it."""
        if command is None:
            command = [sys.executable, "-m", "burano_ai.protocol"]
        command = list(command) + ([] if threads is None else ["--threads", str(threads)])
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE if stderr is None else stderr,
                                   env=env, cwd=cwd, text=True, encoding="utf-8", bufsize=1)
        if stderr is None:
            threading.Thread(target=_log_engine_stderr, args=(process.stderr,), name="burano-client-stderr",
                             daemon=True).start()
        return cls(process)

    # --- plumbing

    def _read(self) -> None:
        try:
            for text in self.process.stdout:
                try:
                    line = json.loads(text)
                except ValueError:      # not JSON, or an integer past Python's 4,300-digit limit
                    log.warning("engine wrote a line that is not JSON: %r", text[:200])
                    continue
                qid = line.get("id") if isinstance(line, dict) else None
                with self._lock:
                    target = self._waiting.get(qid)
                if target is not None:
                    target.put(line)
                elif "error" in line:
                    log.warning("engine error not tied to a waiting query: %s", line)
        except (OSError, ValueError):
            pass
        finally:
            with self._lock:
                waiting = list(self._waiting.values())
                self._closed = True
            for target in waiting:
                target.put(_END)

    def _send(self, obj: dict[str, Any]) -> None:
        text = json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"
        with self._send_lock:
            try:
                self.process.stdin.write(text)
                self.process.stdin.flush()
            except (OSError, ValueError) as exc:
                raise EngineTerminatedError(f"cannot write to the engine: {exc}") from None

    def _register(self, qid: Any) -> queue.Queue:
        lines: queue.Queue = queue.Queue()
        with self._lock:
            if self._closed:
                raise EngineTerminatedError("the engine has ended")
            self._waiting[qid] = lines
        return lines

    def _forget(self, qid: Any) -> None:
        with self._lock:
            self._waiting.pop(qid, None)

    def _ask(self, obj: dict[str, Any]) -> dict[str, Any]:
        """Send an action and wait for its one answer."""
        lines = self._register(obj["id"])
        try:
            self._send(obj)
            line = lines.get()
        finally:
            self._forget(obj["id"])
        if line is _END:
            raise EngineTerminatedError("the engine ended before it answered")
        if "error" in line:
            raise EngineError(line["error"], line.get("field"))
        return line

    # --- queries

    @staticmethod
    def query(position: Any, limit: Limit | None = None, *, seat: str | None = None, step: int | None = None,
              seed: int | None = None, top: int | None = None, report_every: float | None = None,
              allow_moves: list[str] | None = None, avoid_moves: list[str] | None = None,
              include_plans: bool = False, threads: int | None = None, game: str | None = None) -> dict[str, Any]:
        """The protocol query (without its id) for these arguments; see `analyse`."""
        q: dict[str, Any] = {"position": _position_data(position)}
        if game is not None:
            q["game"] = game
        if limit is not None:
            if limit.iterations is not None:
                q["maxIterations"] = limit.iterations
            if limit.seconds is not None:
                q["maxTime"] = limit.seconds
        for key, value in (("seat", seat), ("step", step), ("seed", seed), ("top", top),
                           ("reportDuringSearchEvery", report_every), ("allowMoves", allow_moves),
                           ("avoidMoves", avoid_moves), ("threads", threads)):
            if value is not None:
                q[key] = list(value) if key in ("allowMoves", "avoidMoves") else value
        if include_plans:
            q["includePlans"] = True
        return q

    def analysis(self, position: Any, limit: Limit | None = None, **options: Any) -> AnalysisIterator:
        """Start a search and return the iterator of its reports (see `AnalysisIterator`); `options` as
        for `analyse`, and `report_every` (seconds) for partial reports (default 0.5)."""
        options.setdefault("report_every", 0.5)
        q = self.query(position, limit, **options)
        qid = f"q{next(self._ids)}"
        lines = self._register(qid)
        try:
            self._send({"id": qid, **q})
        except EngineTerminatedError:
            self._forget(qid)
            raise
        return AnalysisIterator(self, qid, lines)

    def analyse(self, position: Any, limit: Limit | None = None, **options: Any) -> AnalysisResult:
        """Search `position` and return the final report.

        Args:
            position: see the module docstring.
            limit: `burano_ai.search.Limit` (iterations and/or seconds); default: the engine's (10,000 iterations).
            seat: the searching seat's letter (default: the seat to move); step: for a game record;
            seed, top, allow_moves, avoid_moves, include_plans, threads, game: the query's fields
            (docs/engine-protocol.md).

        Raises:
            EngineError: the engine refused the query (the message names the field).
            EngineTerminatedError: the engine ended first.
        """
        options.setdefault("report_every", None)
        return self.analysis(position, limit, **options).wait()

    def play(self, position: Any, limit: Limit | None = None, **options: Any) -> PlayResult:
        """The move the engine plays in `position` (its suggested move), with the analysis."""
        result = self.analyse(position, limit, **options)
        return PlayResult(result.move, result)

    def version(self) -> dict[str, Any]:
        """The engine's `query_version` answer: name, version, protocolVersion."""
        return self._ask({"id": f"v{next(self._ids)}", "action": "query_version"})

    def games(self) -> list[dict[str, Any]]:
        """The engine's `query_games` answer: one object per game (game, title, minPlayers, maxPlayers,
        defaultPlayers, positionFormat, recordFormat, default)."""
        return self._ask({"id": f"g{next(self._ids)}", "action": "query_games"})["games"]

    # --- ending

    def close(self, timeout: float = CLOSE_TIMEOUT) -> int | None:
        """Quit the engine (running searches are terminated) and wait for it; kill it after `timeout`.
        Returns its exit code."""
        if self.process.poll() is None:
            try:
                self._send({"id": "quit", "action": "quit"})
                self.process.stdin.close()
            except (EngineTerminatedError, OSError, ValueError):
                pass
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                log.warning("the engine did not quit within %s s; killing it", timeout)
                self.process.kill()
                self.process.wait()
        self._reader.join(timeout=5)
        if self.process.stdout:
            self.process.stdout.close()
        return self.process.returncode

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()


def _position_data(position: Any) -> dict[str, Any]:
    """A query's `position` value for the forms `Engine.analyse` accepts."""
    if isinstance(position, dict):
        return position
    if hasattr(position, "to_dict") and hasattr(position, "steps"):        # a GameRecord
        return position.to_dict()
    if hasattr(position, "to_json") and hasattr(position, "legal_actions"):   # a State
        return json.loads(position.to_json())
    if isinstance(position, str) and not position.lstrip("\ufeff \t\r\n").startswith("{"):
        position = Path(position)         # not JSON text: a file name
    if isinstance(position, os.PathLike):
        try:
            with open(position, encoding="utf-8-sig") as f:
                data = json.load(f)
        except OSError as exc:
            raise EngineError(f"cannot read {os.fspath(position)}: {exc.strerror or exc}", "position") from None
        except json.JSONDecodeError as exc:
            raise EngineError(f"{os.fspath(position)}: malformed JSON: {exc.msg} at line {exc.lineno}",
                              "position") from None
        except ValueError as exc:       # an integer literal past Python's 4,300-digit limit
            raise EngineError(f"{os.fspath(position)}: malformed JSON: {json_error_text(exc)}", "position") from None
        if not isinstance(data, dict):
            raise EngineError(f"{os.fspath(position)}: a position must be a JSON object", "position")
        return data
    if isinstance(position, (str, bytes)):
        data = json.loads(position)
        if not isinstance(data, dict):
            raise EngineError(f"a position must be a JSON object, not {type(data).__name__}", "position")
        return data
    raise EngineError(f"a position must be a dict, JSON text, a path, a State or a GameRecord, not "
                      f"{type(position).__name__}", "position")
