"""The web board's HTTP API (FastAPI): games, moves, undo, records, analysis, the position editor, replay.

Every route answers bad input with one JSON object `{"error": "<one line naming the problem>"}` and a
4xx status (400 bad input, 404 unknown game/analysis/replay, 409 not now: not your turn, nothing to undo);
an unexpected failure is a 500 with `{"error": "internal error: ..."}` and never a traceback.
Live updates are server-sent events (`/events` routes): each event is the whole current payload.
"""

from __future__ import annotations

import asyncio
import json
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from burano_ai.games import DEFAULT_GAME, get_spec
from burano_ai.web.analysis import AnalysisHub
from burano_ai.web.editor import FieldError, check_position, deal_position
from burano_ai.web.games import GameHub, NotNow, registered_kinds
from burano_ai.web.replay import ReplayHub

#: Largest request body accepted (a position is at most 1 MiB; a game record a few hundred KB).
MAX_BODY = 4 * 1024 * 1024
#: Seconds between two looks at a changed payload in an event stream.
EVENT_POLL = 0.02
#: Seconds between keep-alive comments in an event stream.
KEEPALIVE = 15.0

STATIC_DIR = resources.files("burano_ai.web") / "static"


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _shown(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


async def _body(request: Request) -> dict[str, Any]:
    length = request.headers.get("content-length", "0")
    if length.isdigit() and int(length) > MAX_BODY:
        raise ValueError(f"request body larger than {MAX_BODY} bytes")
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ValueError(f"request body larger than {MAX_BODY} bytes")
    if not raw:
        raise ValueError("request body is empty: send a JSON object")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"request body is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"request body must be a JSON object, not {type(data).__name__}")
    return data


def _field(data: dict[str, Any], name: str, default: Any = ..., kinds: tuple = ()) -> Any:
    if name not in data:
        if default is ...:
            raise ValueError(f"missing field {name!r}")
        return default
    value = data[name]
    if kinds and (not isinstance(value, kinds) or isinstance(value, bool) and bool not in kinds):
        raise ValueError(f"field {name!r} must be {' or '.join(k.__name__ for k in kinds)}, not {_shown(value)}")
    return value


def _events(request: Request, read) -> StreamingResponse:
    """A server-sent event stream of `read()` -> (version, payload, finished)."""
    async def stream():
        last = None
        quiet = 0.0
        while True:
            if await request.is_disconnected():
                return
            version, payload, finished = read()
            if version != last:
                last = version
                quiet = 0.0
                yield f"data: {json.dumps(payload)}\n\n"
                if finished:
                    return
            else:
                quiet += EVENT_POLL
                if quiet >= KEEPALIVE:
                    quiet = 0.0
                    yield ": keep-alive\n\n"
            await asyncio.sleep(EVENT_POLL)
    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def create_app(default_game: str = DEFAULT_GAME) -> FastAPI:
    """The board's app; `default_game`: the game the new-game form offers first (`burano serve --game`)."""
    default_game = get_spec(default_game).key
    app = FastAPI(title="burano serve", docs_url=None, redoc_url=None, openapi_url=None)
    games, analyses, replays = GameHub(), AnalysisHub(), ReplayHub()
    app.state.games, app.state.analyses, app.state.replays = games, analyses, replays

    @app.exception_handler(FieldError)
    async def _field_error(request, exc):
        return JSONResponse({"error": str(exc), "field": exc.field}, status_code=400)

    @app.exception_handler(NotNow)
    async def _not_now(request, exc):
        return _error(409, str(exc))

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

    # -- pages ---------------------------------------------------------------------------------
    @app.get("/")
    async def index():
        return FileResponse(str(STATIC_DIR / "index.html"), headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico")
    async def favicon():
        return Response(status_code=204)

    app.mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static")

    @app.get("/api/health")
    async def health():
        return {"ok": True}

    # -- games ---------------------------------------------------------------------------------
    def _game_seat(game_id: str, seat: str | None):
        game = games.get(game_id)
        if seat is None:
            seat = game.session.humans()[0]
        return game, game.check_seat(seat)

    @app.get("/api/games/kinds")   # before /api/games/{game_id}: game ids never read "kinds"
    def game_kinds():
        return registered_kinds(default_game)

    @app.post("/api/games")
    async def create_game(request: Request):
        data = await _body(request)
        kind = _field(data, "kind", default_game, kinds=(str,))
        players = _field(data, "players", kinds=(int,))
        seed = _field(data, "seed", 0, kinds=(int,))
        seats = _field(data, "seats", kinds=(list,))
        game = await asyncio.to_thread(games.create, kind, players, seed, seats)
        seat = game.session.humans()[0]
        return game.snapshots[seat]

    @app.get("/api/games/{game_id}")
    def game_state(game_id: str, seat: str | None = None):
        game, index = _game_seat(game_id, seat)
        return game.snapshots[index]

    @app.get("/api/games/{game_id}/events")
    def game_events(request: Request, game_id: str, seat: str | None = None):
        game, index = _game_seat(game_id, seat)
        return _events(request, lambda: (game.version, game.snapshots[index], False))

    @app.post("/api/games/{game_id}/move")
    async def move(request: Request, game_id: str):
        data = await _body(request)
        game, index = _game_seat(game_id, _field(data, "seat", None, kinds=(str, int)))
        text = _field(data, "move", kinds=(str,))
        return await asyncio.to_thread(game.play, index, text)

    @app.post("/api/games/{game_id}/undo")
    async def undo(request: Request, game_id: str):
        data = await _body(request)
        game, index = _game_seat(game_id, _field(data, "seat", None, kinds=(str, int)))
        return await asyncio.to_thread(game.undo, index)

    @app.get("/api/games/{game_id}/record")
    def record(game_id: str, seat: str | None = None):
        game, index = _game_seat(game_id, seat)
        text = game.record_text(index)
        return Response(text, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{game.spec.key}-{game_id}.json"'})

    @app.post("/api/games/{game_id}/analysis")
    async def analyse_game(request: Request, game_id: str):
        data = await _body(request)
        game, index = _game_seat(game_id, _field(data, "seat", None, kinds=(str, int)))
        view = game.snapshots[index]["view"]   # the seat's own view: the analysis cannot peek
        return analyses.start(view, index, _field(data, "avoid", None, kinds=(list,)), kind=game.spec.key).payload()

    # -- analysis ------------------------------------------------------------------------------
    @app.post("/api/analysis")
    async def analyse_position(request: Request):
        data = await _body(request)
        position = _field(data, "position", kinds=(dict, str))
        avoid = _field(data, "avoid", None, kinds=(list,))
        return (await asyncio.to_thread(analyses.start, position, None, avoid)).payload()

    @app.get("/api/analysis/{analysis_id}")
    def analysis_state(analysis_id: str):
        analysis = analyses.get(analysis_id)
        analysis.seen()
        return analysis.payload()

    @app.get("/api/analysis/{analysis_id}/events")
    def analysis_events(request: Request, analysis_id: str):
        analysis = analyses.get(analysis_id)

        def read():
            analysis.seen()
            return analysis.version, analysis.payload(), analysis.done
        return _events(request, read)

    @app.post("/api/analysis/{analysis_id}/stop")
    def analysis_stop(analysis_id: str):
        analysis = analyses.get(analysis_id)
        analysis.stop()
        return analysis.payload()

    # -- the position editor -------------------------------------------------------------------
    @app.post("/api/position")
    async def position(request: Request):
        data = await _body(request)
        return check_position(_field(data, "position", kinds=(dict, str)))

    @app.get("/api/deal")
    def deal(kind: str = DEFAULT_GAME, players: int = 4, seed: int = 0):
        return deal_position(kind, players, seed)

    # -- replay --------------------------------------------------------------------------------
    @app.post("/api/replays")
    async def open_replay(request: Request):
        data = await _body(request)
        record = _field(data, "record", kinds=(dict, str))
        seat = _field(data, "seat", None, kinds=(str, int))
        return (await asyncio.to_thread(replays.open, record, seat)).summary()

    @app.get("/api/replays/{replay_id}/{ply}")
    def replay_step(replay_id: str, ply: int):
        return replays.get(replay_id).at(ply)

    return app
