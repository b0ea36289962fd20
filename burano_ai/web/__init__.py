"""`burano serve`: the web board (docs/web.md).

`app` (the FastAPI routes), `games` (live games: a session each, bots in a thread, one snapshot per seat),
`analysis` (streamed searches), `editor` (typed positions validated by the engine's loader), `replay`
(records stepped through as one seat saw them), `server` (uvicorn), `guard` (Host/Origin, JSON bodies,
tokens), `limits` (the operator's `ServerLimits`), `events` (streams pushed on change), `static/` (the
page: plain JS + SVG, no build step). The full position of a game stays in its session: a page receives
one seat's view, and only with that seat's token.
"""
