"""The web board's HTTP API (FastAPI): games, moves, undo, records, analysis, the position editor, replay.

Every route answers bad input with one JSON object `{"error": "<one line naming the problem>"}` and a
4xx status (400 bad input, 401 no token, 403 a wrong token or a foreign Host/Origin, 404 unknown
game/analysis/replay, 409 not now: not your turn, nothing to undo, 413 body too large, 415 not JSON,
429 the server is at a limit); a change the server could not write to its store (`--store`) is a 503; an
unexpected failure is a 500 with `{"error": "internal error: ..."}` and never a traceback.

Who may ask what (docs/web.md, "Running it for other people"): a game gives each human seat a token
(`tokens` in the answer that created it); every route of a seat needs the seat's token, in the
`X-Burano-Token` header or a `token` query parameter (event streams, downloads). An analysis is read and
stopped with its own token (`token` in the answer that started it). Replays are opened by their
unguessable id. Requests must name this server as Host, come from its own pages (Origin) and send JSON as
`application/json` (`guard`). Every amount of work is capped by the operator's `ServerLimits`.
Live updates are server-sent events (`/events` routes) pushed on change: each event is the whole current
payload; a stream ends with its game or analysis.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games import DEFAULT_GAME, game_keys, get_spec, web_files
from burano_ai.web.analysis import AnalysisHub
from burano_ai.web.editor import FieldError, check_position, deal_position
from burano_ai.web.events import StreamCounter, event_stream
from burano_ai.web.games import GameHub, NotNow, payload_json, registered_kinds
from burano_ai.web.guard import (AccessError, HostGuard, NeedsToken, WrongToken, allowed_hosts, read_json_body,
                                 request_token)
from burano_ai.web.limits import ServerLimits, client_of, parse_trusted_proxies
from burano_ai.web.replay import Cancelled, ReplayHub
from burano_ai.web.store import GameStore, StoreReadError, StoreWriteError

#: Seconds between two looks at whether the client of a long request (a replay being built) went away.
DISCONNECT_POLL = 0.25

STATIC_DIR = resources.files("burano_ai.web") / "static"


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _json_text(text: str) -> Response:
    """An answer already encoded (`LiveGame.snapshot_json`): FastAPI's own encoder walks every value of a
    payload in Python (6 ms for a 4-player Burano position, on the event loop), `json.dumps` once is 1 ms."""
    return Response(text, media_type="application/json")


def _json(payload: Any) -> Response:
    return _json_text(payload_json(payload))


def _shown(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def _field(data: dict[str, Any], name: str, default: Any = ..., kinds: tuple = ()) -> Any:
    if name not in data:
        if default is ...:
            raise ValueError(f"missing field {name!r}")
        return default
    value = data[name]
    if kinds and (not isinstance(value, kinds) or isinstance(value, bool) and bool not in kinds):
        names = " or ".join("null" if k is type(None) else k.__name__ for k in kinds)
        raise ValueError(f"field {name!r} must be {names}, not {_shown(value)}")
    return value


async def _until_done_or_gone(request: Request, work, *args, pool=None) -> Any:
    """`work(*args, cancelled)` in a thread (of `pool`, default the request pool); if the client goes away
    first, `cancelled` is set (the work checks it and stops) and the answer is dropped."""
    cancelled = threading.Event()
    if pool is None:
        task = asyncio.ensure_future(asyncio.to_thread(work, *args, cancelled))
    else:
        task = asyncio.ensure_future(asyncio.get_running_loop().run_in_executor(pool, work, *args, cancelled))
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=DISCONNECT_POLL)
            if done:
                return task.result()
            if await request.is_disconnected():
                cancelled.set()
                task.add_done_callback(lambda t: t.cancelled() or t.exception())   # its end is nobody's
                raise Cancelled("the client went away")
    finally:
        cancelled.set()   # whatever ended this request (an error, a cancellation), the work stops too


def create_app(default_game: str = DEFAULT_GAME, limits: ServerLimits | None = None, port: int | None = None,
               allow_hosts: tuple[str, ...] | list[str] = (), store: GameStore | None = None,
               trusted_proxies: str | list[str] | tuple = ()) -> FastAPI:
    """The board's app.

    Args:
        default_game: the game the new-game form offers first (`burano serve --game`).
        limits: the operator's limits (default `ServerLimits()`).
        port: the port it is served on: the loopback names are allowed as Host with this port only (None:
            with any port).
        allow_hosts: more names a request's Host (and Origin) may give (`--allow-host`).
        store: where the games are kept across restarts (`burano serve --store`); its games are taken back
            now (each replayed at its first request). None: in memory only. The caller closes it after the app's end.
        trusted_proxies: the reverse proxies whose `X-Forwarded-For` names the client a request is counted
            under (`--trusted-proxy`, `limits.parse_trusted_proxies`); every other peer is its own address.

    Raises:
        StoreError: a kept game cannot be restored.
    """
    default_game = get_spec(default_game).key
    limits = limits or ServerLimits()
    hosts = allowed_hosts(port, allow_hosts)
    proxies = parse_trusted_proxies(trusted_proxies)
    games, analyses, replays = GameHub(limits, store), AnalysisHub(limits), ReplayHub(limits)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        games.close()   # the bots and searches stop with the server
        analyses.close()
        replays.close()

    app = FastAPI(title="burano serve", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    streams = StreamCounter(limits.max_streams, limits.client_streams)
    app.state.games, app.state.analyses, app.state.replays = games, analyses, replays
    app.state.streams, app.state.limits = streams, limits
    app.add_middleware(HostGuard, hosts=hosts)

    @app.exception_handler(AccessError)
    async def _access(request, exc):
        return _error(exc.status, str(exc))

    @app.exception_handler(Cancelled)
    async def _gone(request, exc):
        return _error(499, str(exc))

    @app.exception_handler(FieldError)
    async def _field_error(request, exc):
        return JSONResponse({"error": str(exc), "field": exc.field}, status_code=400)

    @app.exception_handler(NotNow)
    async def _not_now(request, exc):
        return _error(409, str(exc))

    @app.exception_handler(StoreWriteError)
    async def _not_kept(request, exc):
        return _error(503, str(exc))

    @app.exception_handler(StoreReadError)
    async def _not_restored(request, exc):
        return _error(503, str(exc))

    @app.exception_handler(ValueError)
    async def _bad_input(request, exc):
        return _error(400, str(exc).splitlines()[0] if str(exc) else type(exc).__name__)

    @app.exception_handler(LookupError)
    async def _unknown(request, exc):
        return _error(404, str(exc.args[0]) if exc.args else "not found")

    @app.exception_handler(RequestValidationError)
    async def _validation(request, exc):
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return _error(400, f"{where}: {first.get('msg', 'invalid request')}")

    @app.exception_handler(StarletteHTTPException)
    async def _http(request, exc):
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(Exception)
    async def _internal(request, exc):
        return _error(500, f"internal error: {type(exc).__name__}: {exc} (please report)")

    async def body(request: Request) -> dict[str, Any]:
        return await read_json_body(request, limits.max_body)

    # -- pages ---------------------------------------------------------------------------------
    @app.get("/")
    async def index():
        return FileResponse(str(STATIC_DIR / "index.html"), headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico")
    async def favicon():
        return Response(status_code=204)

    # A game's own page files live in its folder (burano_ai/games/<game>/web/), found by glob, served
    # under the URLs the pages use: /static/games/<key>/<name>.
    game_files = {(key, name): path for key in game_keys() for name, path in web_files(key).items()}

    @app.get("/static/games/{key}/{name}")
    async def game_file(key: str, name: str):
        path = game_files.get((key, name))
        if path is None:
            raise StarletteHTTPException(404, "Not Found")
        return FileResponse(path)

    app.mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static")

    @app.get("/api/health")
    async def health():
        return {"ok": True}

    # -- games ---------------------------------------------------------------------------------
    async def _restored(game_id: str) -> None:
        """A kept game's first request since a restart replays it: in a thread, not on the event loop (the
        routes that are plain functions run in threads already)."""
        if games.is_pending(game_id):
            await asyncio.to_thread(games.get, game_id)

    def _game_seat(request: Request, game_id: str, seat: Any = None):
        """The game and the human seat the request's token opens (`seat`, if given, must be that seat)."""
        game = games.get(game_id)
        token = request_token(request)
        if token is None:
            raise NeedsToken("this route needs the seat's token (X-Burano-Token header or ?token=), given to "
                             "whoever created the game")
        index = game.seat_of_token(token)
        if index is None:
            raise WrongToken("this token opens no seat of this game")
        if seat is not None and game.check_seat(seat) != index:
            raise WrongToken(f"this token opens seat {SEAT_LETTERS[index]}, not {_shown(seat)}")
        return game, index

    @app.get("/api/games/kinds")   # before /api/games/{game_id}: game ids never read "kinds"
    def game_kinds():
        return registered_kinds(default_game, kept=store is not None)

    @app.post("/api/games")
    async def create_game(request: Request):
        data = await body(request)
        kind = _field(data, "kind", default_game, kinds=(str,))
        players = _field(data, "players", kinds=(int,))
        seed = _field(data, "seed", None, kinds=(int, type(None)))
        seats = _field(data, "seats", kinds=(list,))
        options = _field(data, "options", None, kinds=(dict, type(None)))
        game = await asyncio.to_thread(games.create, kind, players, seed, seats, options, client_of(request, proxies))
        seat = game.session.humans()[0]
        return _json({**game.snapshots[seat], "tokens": {SEAT_LETTERS[i]: token for i, token in game.tokens.items()}})

    @app.get("/api/games/{game_id}")
    def game_state(request: Request, game_id: str, seat: str | None = None):
        game, index = _game_seat(request, game_id, seat)
        return _json_text(game.snapshot_json(index))

    @app.get("/api/games/{game_id}/events")
    def game_events(request: Request, game_id: str, seat: str | None = None):
        game, index = _game_seat(request, game_id, seat)
        return event_stream(streams, game.updates, lambda: (game.version, game.snapshot_json(index), game.closed),
                            client=client_of(request, proxies))

    @app.post("/api/games/{game_id}/move")
    async def move(request: Request, game_id: str):
        data = await body(request)
        await _restored(game_id)
        game, index = _game_seat(request, game_id, _field(data, "seat", None, kinds=(str, int)))
        text = _field(data, "move", kinds=(str,))
        return _json_text(game.snapshot_json(index, await asyncio.to_thread(game.play, index, text)))

    @app.post("/api/games/{game_id}/undo")
    async def undo(request: Request, game_id: str):
        data = await body(request)
        await _restored(game_id)
        game, index = _game_seat(request, game_id, _field(data, "seat", None, kinds=(str, int)))
        return _json_text(game.snapshot_json(index, await asyncio.to_thread(game.undo, index)))

    @app.get("/api/games/{game_id}/record")
    def record(request: Request, game_id: str, seat: str | None = None):
        game, index = _game_seat(request, game_id, seat)
        text = game.record_text(index)
        return Response(text, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{game.spec.key}-{game_id[:8]}.json"'})

    @app.post("/api/games/{game_id}/analysis")
    async def analyse_game(request: Request, game_id: str):
        data = await body(request)
        await _restored(game_id)
        game, index = _game_seat(request, game_id, _field(data, "seat", None, kinds=(str, int)))
        view = game.snapshots[index]["view"]   # the seat's own view: the analysis cannot peek
        analysis = await asyncio.to_thread(analyses.start, view, index, _field(data, "avoid", None, kinds=(list,)),
                                           kind=game.spec.key, owner=(game.id, index),
                                           client=client_of(request, proxies))
        return {**analysis.payload(), "token": analysis.token}

    # -- analysis ------------------------------------------------------------------------------
    @app.post("/api/analysis")
    async def analyse_position(request: Request):
        data = await body(request)
        position = _field(data, "position", kinds=(dict, str))
        avoid = _field(data, "avoid", None, kinds=(list,))
        analysis = await asyncio.to_thread(analyses.start, position, None, avoid, client=client_of(request, proxies))
        return {**analysis.payload(), "token": analysis.token}

    @app.get("/api/analysis/{analysis_id}")
    def analysis_state(request: Request, analysis_id: str):
        analysis = analyses.get(analysis_id, request_token(request))
        analysis.seen()
        return analysis.payload()

    @app.get("/api/analysis/{analysis_id}/events")
    def analysis_events(request: Request, analysis_id: str):
        analysis = analyses.get(analysis_id, request_token(request))

        def read():
            analysis.seen()
            return analysis.version, analysis.payload(), analysis.done or analyses.forgotten(analysis)
        return event_stream(streams, analysis.changes, read, on_close=analysis.stream_closed,
                            client=client_of(request, proxies))

    @app.post("/api/analysis/{analysis_id}/stop")
    def analysis_stop(request: Request, analysis_id: str):
        analysis = analyses.get(analysis_id, request_token(request))
        analysis.stop()
        return analysis.payload()

    # -- the position editor -------------------------------------------------------------------
    @app.post("/api/position")
    async def position(request: Request):
        data = await body(request)
        return await asyncio.to_thread(check_position, _field(data, "position", kinds=(dict, str)))

    @app.get("/api/deal")
    def deal(kind: str = DEFAULT_GAME, players: int = 4, seed: int = 0):
        return deal_position(kind, players, seed)

    # -- replay --------------------------------------------------------------------------------
    @app.post("/api/replays")
    async def open_replay(request: Request):
        data = await body(request)
        record = _field(data, "record", kinds=(dict, str))
        seat = _field(data, "seat", None, kinds=(str, int))
        with replays.slot(client_of(request, proxies)):   # refused at once (429) when the slots are taken
            return (await _until_done_or_gone(request, replays.open, record, seat, pool=replays.pool)).summary()

    @app.get("/api/replays/{replay_id}/{ply}")
    def replay_step(replay_id: str, ply: int):
        return replays.get(replay_id).at(ply)

    return app
