"""Live analysis for the web board: a search in a thread whose partial results the page streams.

`stream_search` is the one place that talks to the engine: one `engine.suggest` on a seat's view (never a
full position of a game) that calls `on_report(result)` with its partial results (`report_every`) until
`stop` is set or the time budget is spent, then returns the best so far.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from typing import Any, Callable

from burano_ai import engine
from burano_ai.core.errors import OptionError, PositionError
from burano_ai.search.limits import Limit
from burano_ai.web.events import Changes
from burano_ai.web.games import kind_of_position
from burano_ai.web.guard import Busy, NeedsToken, WrongToken, new_token, same_token
from burano_ai.web.limits import ServerLimits

#: Seconds between two partial results.
REPORT_EVERY = 0.25
#: Longest analysis (seconds) by default (`ServerLimits.analysis_seconds` on a server).
MAX_SECONDS = 120.0
#: Candidates sent to the page.
TOP = 8
#: An analysis nobody has looked at (no event stream, no poll) for this many seconds stops by itself.
UNWATCHED_SECONDS = 10.0


def stream_search(position: Any, seat: Any, on_report: Callable[[Any], None], stop: threading.Event,
                  seconds: float = MAX_SECONDS, seed: int = 0, avoid: list[str] | None = None,
                  threads: int | None = None) -> Any:
    """Search `position` for `seat`: `on_report(partial SearchResult)` every `REPORT_EVERY` seconds until
    `stop` is set or `seconds` pass; return the final SearchResult (the best so far after a stop).
    `avoid`: root moves the search leaves out (the page's "×" on a candidate); `threads`: None for every
    usable core."""
    return engine.suggest(position, seat=seat, limit=Limit(seconds=seconds), seed=seed, on_report=on_report,
                          report_every=REPORT_EVERY, stop=stop, avoid_moves=avoid or None, threads=threads)


def result_payload(result: Any, done: bool) -> dict[str, Any]:
    """What the page shows of a (partial) SearchResult."""
    return {
        "seat": result.seat_letter,
        "move": result.move,
        "iterations": result.iterations,
        "elapsed": round(result.elapsed, 3),
        "done": done,
        "candidates": [{"move": c.move, "visits": c.visits, "win": round(c.win_prob, 4),
                        "vp": round(c.expected_vp, 2), "margin": round(c.expected_margin, 2),
                        "plan": [step.move for step in c.plan]} for c in result.candidates[:TOP]],
        "notes": list(result.notes),
        "tied": [c.move for c in result.tied],    # issue 21: the moves statistically tied for first, or []
    }


class Analysis:
    """One running (or finished) analysis, readable and stoppable only with its `token`.

    `owner`: who started it (a game's seat, `(game id, seat)`, or None for a position from the editor or a
    replay); a new analysis by the same owner stops this one.
    """

    def __init__(self, analysis_id: str, kind: str, position: Any, seat: Any, avoid: list[str] | None = None,
                 owner: Any = None, limits: ServerLimits | None = None) -> None:
        limits = limits or ServerLimits()
        self.id = analysis_id
        self.token = new_token()
        self.owner = owner
        self.client = ""          # who started it (`limits.client_of`), set by the hub: its share counts it
        self.kind = kind
        self.stop_event = threading.Event()
        self.changes = Changes()
        self.version = 0
        self.latest: dict[str, Any] | None = None
        self.done = False
        self.error: str | None = None
        self.position = position
        self.seat = seat
        self.avoid = avoid
        self.seconds = limits.analysis_seconds
        self.threads = limits.analysis_threads or None
        self.last_seen = time.monotonic()
        self.thread = threading.Thread(target=self._run, name=f"analysis-{analysis_id[:8]}", daemon=True)

    def seen(self) -> None:
        """A page is watching (its event stream or a poll): keep searching."""
        self.last_seen = time.monotonic()

    def _report(self, result: Any) -> None:
        self.latest = result_payload(result, False)
        self.version += 1
        self.changes.notify()
        if self.changes.watchers == 0 and time.monotonic() - self.last_seen > UNWATCHED_SECONDS:
            self.stop_event.set()   # the page went away: do not search for nobody

    def _run(self) -> None:
        try:
            result = stream_search(self.position, self.seat, self._report, self.stop_event, seconds=self.seconds,
                                   avoid=self.avoid, threads=self.threads)
            self.latest = result_payload(result, True)
        except ValueError as exc:
            self.error = str(exc)
        except Exception as exc:   # shown on the page rather than lost in a thread
            self.error = f"internal error: {type(exc).__name__}: {exc}"
        finally:
            self.done = True
            if self.latest is not None:
                self.latest["done"] = True
            self.version += 1
            self.changes.notify()

    def payload(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "done": self.done, "error": self.error, "result": self.latest,
                "avoid": list(self.avoid or []), "version": self.version}

    def stop(self) -> None:
        self.stop_event.set()

    def stream_closed(self, finished: bool) -> None:
        """An event stream of this analysis ended: the client went away unless it ended with the search, so
        with no one else watching, the search stops now."""
        if not finished and self.changes.watchers == 0:
            self.stop()


class AnalysisHub:
    """The analyses this server holds (at most `limits.max_analyses`, `limits.max_running_analyses` of them
    searching), by unguessable id."""

    def __init__(self, limits: ServerLimits | None = None) -> None:
        self.limits = limits or ServerLimits()
        self.analyses: OrderedDict[str, Analysis] = OrderedDict()
        self._lock = threading.Lock()

    def start(self, position: Any, seat: Any, avoid: Any = None, kind: str | None = None,
              owner: Any = None, client: str = "") -> Analysis:
        """Check the position, seat and moves to avoid now (one clear error), then search in a thread.
        `kind`: the game's key (default: the game whose format the position declares); `owner`: see
        `Analysis` (the owner's earlier analyses stop).

        Raises:
            Busy: `limits.max_running_analyses` analyses of other owners are searching, or `client` (its
                address, `limits.client_of`) has `limits.client_analyses` of its own searching.
        """
        if isinstance(position, dict):   # through the text loader, so its size and nesting limits apply
            position = json.dumps(position)
        state, view = engine.load_position(position)
        if kind is None:
            kind = kind_of_position(position)
        to_move = state.current_player()
        if to_move < 0:
            raise PositionError("nothing to analyse: " + ("the game is over" if state.is_terminal()
                                                           else "a chance event is pending"))
        if seat is None:
            seat = to_move if view is None else view
        if seat != to_move:
            raise OptionError("the analysed seat is not to move: analysis runs on your own turn")
        if avoid is not None:
            if not isinstance(avoid, list) or not all(isinstance(m, str) for m in avoid):
                raise OptionError(f"avoid must be a list of move texts, not {avoid!r}"[:200])
            engine.root_moves(state, avoid_moves=avoid)   # names a move that is not legal here
        with self._lock:
            if owner is not None:
                for running in self.analyses.values():
                    if running.owner == owner:
                        running.stop()
            searching = [a for a in self.analyses.values() if not a.done and not a.stop_event.is_set()]
            mine = [a for a in searching if a.client == client]
            if len(mine) >= self.limits.client_analyses:
                raise Busy(f"you have {len(mine)} analysis searching on this server (its limit per client): "
                           f"stop it or wait for it to end")
            if len(searching) >= self.limits.max_running_analyses:
                raise Busy(f"{len(searching)} analyses are searching on this server (its limit): stop yours "
                           f"or try again later")
            analysis = Analysis(new_token(), kind, position, seat, avoid, owner, self.limits)
            analysis.client = client
            self.analyses[analysis.id] = analysis
            forgotten = []
            while len(self.analyses) > self.limits.max_analyses:
                forgotten.append(self.analyses.popitem(last=False)[1])
        for old in forgotten:
            old.stop()
            old.changes.notify()   # its streams end
        analysis.thread.start()
        return analysis

    def get(self, analysis_id: str, token: str | None) -> Analysis:
        """The analysis `analysis_id` if `token` is its own.

        Raises:
            LookupError: no such analysis. NeedsToken / WrongToken: no token, or another one.
        """
        with self._lock:
            analysis = self.analyses.get(analysis_id)
        if analysis is None:
            raise LookupError(f"no analysis {_shown(analysis_id)} on this server")
        if token is None:
            raise NeedsToken("an analysis is read or stopped with its token (X-Burano-Token header or ?token=), "
                             "given when it started")
        if not same_token(token, analysis.token):
            raise WrongToken(f"this token does not open analysis {_shown(analysis_id)}")
        return analysis

    def forgotten(self, analysis: Analysis) -> bool:
        with self._lock:
            return self.analyses.get(analysis.id) is not analysis

    def close(self) -> None:
        with self._lock:
            analyses, self.analyses = list(self.analyses.values()), OrderedDict()
        for analysis in analyses:
            analysis.stop()
            analysis.changes.notify()


def _shown(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"
