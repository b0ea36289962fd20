"""The operator's limits on the work a `burano serve` does for its clients (`ServerLimits`).

Every limit is set by whoever starts the server (`burano serve --limit NAME=VALUE`, docs/web.md), never by
a client: a request that asks for more than a limit allows is refused with one line naming the limit
(a bot spec above a cap: 400; a full server: 429; a body too large: 413). The defaults suit one machine
shared by a few people: a game's bot thinks at most 30 s with 4 threads in one process, and a search the
server runs for anyone can be stopped (every bot's search through its stop event, an analysis through its
own).

A bot's cost is bounded as a whole, not key by key (issue 35, G03): a spec's keys multiply (OpenSpiel's
`iterations=200000,rollouts=100` is 20 million playouts a decision), so the playouts a decision may ask
for are capped as a product (`bot_playouts`: iterations x rollouts), a game's own bots' whole-number keys
as a product (`bot_heuristic_work`: Burano's greedy `samples x depth`), and every searching bot stops at
`bot_seconds` a decision whatever its spec says (`Bot.max_seconds`; it plays its best move so far, within
one playout of the cap), or at once when its game is forgotten.

Each client gets its share (issue 35, G04-G07): games, event streams, analyses searching and replays being
built are counted per client (its address, `client_of`) as well as in all; a client at its share makes
room from its own (its least recently used game is forgotten) or is refused (429), and a new game forgets
another client's game only when that one is over or untouched for `game_idle_seconds`. Behind a reverse
proxy every client has the proxy's address, unless the operator names the proxy (`--trusted-proxy`): then a
request from it is counted under the address its `X-Forwarded-For` gives (`client_of`); the header of any
other peer is ignored, so a client cannot make itself many by sending one.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import math
from dataclasses import dataclass
from typing import Any

from burano_ai.core.errors import OptionError


@dataclass(frozen=True)
class ServerLimits:
    """What one server does at most. Numbers >= 1 unless said otherwise."""

    max_body: int = 4 * 1024 * 1024      # bytes of one request body (counted as they arrive, chunked or not)
    max_games: int = 64                  # games held; the least recently used one is forgotten (its bot stopped)
    max_streams: int = 64                # server-sent event streams open at once (all clients together)
    max_analyses: int = 16               # analyses held (finished ones included); the oldest is forgotten
    max_running_analyses: int = 2        # analyses searching at once; one more is refused (429)
    analysis_seconds: float = 120.0      # longest analysis: it stops by itself after this
    analysis_threads: int = 0            # threads of one analysis (0: every usable core)
    max_replays: int = 8                 # replays held; the oldest is forgotten
    max_replay_plies: int = 5_000        # steps of a record opened for replay (a 4-player Burano game: ~600)
    max_running_replays: int = 2         # replays being built at once (on their own threads); one more: 429
    replay_seconds: float = 3.0          # longest build of one replay (a 4-player Burano game: ~0.5 s): past it, refused
    bot_seconds: float = 30.0            # a bot spec's `time` (seconds per decision) at most
    bot_iterations: int = 200_000        # a bot spec's `iterations` at most
    bot_threads: int = 4                 # a bot spec's `threads` at most
    bot_workers: int = 1                 # a bot spec's `workers` (processes; not stoppable mid-think) at most
    bot_rollouts: int = 100              # a bot spec's `rollouts` (OpenSpiel's bots) at most
    bot_playouts: int = 200_000          # a search bot's playouts a decision (iterations x rollouts) at most
    bot_heuristic_work: int = 64         # a game's own bot: the product of its whole-number keys at most
    client_games: int = 8                # games one client holds (its least recently used is forgotten)
    client_streams: int = 8              # event streams one client holds open
    client_analyses: int = 1             # analyses one client has searching
    client_replays: int = 1              # replays one client has being built
    game_idle_seconds: float = 600.0     # a game untouched this long (or over) may be forgotten for another's

    def bot_caps(self) -> dict[str, float]:
        """Bot spec key -> the largest value a client may ask for."""
        return {"time": self.bot_seconds, "iterations": self.bot_iterations, "threads": self.bot_threads,
                "workers": self.bot_workers, "rollouts": self.bot_rollouts}

    def check_bot(self, spec: Any, where: str, game: str | None = None) -> None:
        """Refuse a parsed `BotSpec` that asks for more than a cap, alone or with its other keys: an OptionError
        naming the keys and the cap. `game`: the game key, for the game's own bots (their keys' product)."""
        for key, cap in self.bot_caps().items():
            value = spec.options.get(key)
            if value is not None and value > cap:
                raise OptionError(f"{where}: {key}={value:g} is above this server's limit ({key} <= {cap:g}; "
                                  f"the operator sets it: burano serve --limit bot_{_limit_key(key)}=...)")
        options = spec.options
        if "iterations" in options or ("rollouts" in options and "time" not in options):
            iterations = options.get("iterations", DEFAULT_SIMULATIONS)
            playouts = iterations * options.get("rollouts", 1)
            if playouts > self.bot_playouts:
                raise OptionError(f"{where}: iterations x rollouts = {iterations:,} x {options.get('rollouts', 1):,} "
                                  f"= {playouts:,} playouts a decision is above this server's limit "
                                  f"(<= {self.bot_playouts:,}; burano serve --limit bot_playouts=...)")
        if game is not None:
            from burano_ai.games import get_spec
            declared = get_spec(game).bots().get(spec.name)
            if declared is not None:
                keys = [k for k, default in declared.options.items()
                        if isinstance(default, int) and not isinstance(default, bool)]
                work = math.prod(int(options.get(k, declared.options[k])) for k in keys)
                if work > self.bot_heuristic_work:
                    shown = " x ".join(f"{k}={options.get(k, declared.options[k])}" for k in keys)
                    raise OptionError(f"{where}: {shown} = {work:,} is above this server's limit for a game's "
                                      f"own bot (<= {self.bot_heuristic_work:,}; burano serve --limit "
                                      f"bot_heuristic_work=...)")


#: Simulations of the OpenSpiel and mcts-pkg bots a decision when a spec gives no `iterations` (their default).
DEFAULT_SIMULATIONS = 500


def _limit_key(spec_key: str) -> str:
    return "seconds" if spec_key == "time" else spec_key


#: Limits that may be 0 (meaning: no cap of their own).
_ZERO_OK = frozenset({"analysis_threads"})


def limit_names() -> list[str]:
    return [f.name for f in dataclasses.fields(ServerLimits)]


def parse_limits(items: list[str] | None, base: ServerLimits | None = None) -> ServerLimits:
    """`NAME=VALUE` items (`--limit max_games=8`) applied to `base` (default: the defaults).

    Raises:
        OptionError: naming an unknown limit (and the known ones) or a bad value.
    """
    limits = base or ServerLimits()
    fields = {f.name: f for f in dataclasses.fields(ServerLimits)}
    changes: dict[str, Any] = {}
    for item in items or []:
        name, eq, text = str(item).partition("=")
        name = name.strip()
        if not eq or not name:
            raise OptionError(f"--limit {item!r}: expected NAME=VALUE (limits: {', '.join(fields)})")
        if name not in fields:
            raise OptionError(f"--limit: unknown limit {name!r} (limits: {', '.join(fields)})")
        kind = type(getattr(limits, name))
        try:
            value = kind(text.strip().replace("_", ""))
        except ValueError:
            raise OptionError(f"--limit {name}: {text.strip()!r} is not a "
                              f"{'whole number' if kind is int else 'number'}") from None
        least = 0 if name in _ZERO_OK else (1 if kind is int else 0)
        if (kind is float and not math.isfinite(value)) or value < least or (kind is float and value == 0):
            raise OptionError(f"--limit {name}: must be {'>= ' + str(least) if kind is int else '> 0'}, "
                              f"not {text.strip()!r}")
        changes[name] = value
    return dataclasses.replace(limits, **changes)


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_trusted_proxies(items: str | list[str] | tuple[str, ...] | None) -> tuple[Network, ...]:
    """`--trusted-proxy ADDR[,ADDR]` (repeatable): the addresses (or networks, `10.0.0.0/8`) of the reverse
    proxies whose `X-Forwarded-For` the server believes.

    Raises:
        OptionError: naming an item that is not an address or a network.
    """
    if isinstance(items, str):
        items = [items]
    networks: list[Network] = []
    for item in items or ():
        for text in str(item).split(","):
            text = text.strip()
            try:
                networks.append(ipaddress.ip_network(text.strip("[]"), strict=False))
            except ValueError:
                raise OptionError(f"--trusted-proxy {text!r}: expected an IP address or network (127.0.0.1, "
                                  f"10.0.0.0/8, ::1), comma-separated") from None
    return tuple(networks)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:          # [v6]:port
        text = text[1:text.index("]")]
    elif text.count(":") == 1:                        # v4:port
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    return getattr(address, "ipv4_mapped", None) or address


def _trusted(address: Any, proxies: tuple[Network, ...]) -> bool:
    return address is not None and any(address.version == net.version and address in net for net in proxies)


def client_of(request: Any, proxies: tuple[Network, ...] = ()) -> str:
    """The key a request's client is counted under: its address; for a request from one of the trusted
    `proxies`, the right-most hop of its `X-Forwarded-For` that is not a trusted proxy (each proxy appends
    the address it was reached from, so the hops right of that one were added by trusted machines and the
    ones left of it by whoever sent the request: they may be made up). A hop that is not an address ends the
    walk: the last address read is the client. Any other peer's header is ignored."""
    client = getattr(request, "client", None)
    peer = getattr(client, "host", None) or "unknown"
    if not proxies or not _trusted(_address(peer), proxies):
        return peer
    hops = [hop for value in request.headers.getlist("x-forwarded-for") for hop in value.split(",")]
    found = peer
    for hop in reversed(hops):
        address = _address(hop)
        if address is None:
            break
        found = str(address)
        if not _trusted(address, proxies):
            break
    return found
