"""Bot spec strings: ``name`` or ``name:key=value,key=value`` (the table of bots and keys is in
`burano_ai.bots`), parsed and checked into a `BotSpec`; which keys each bot takes and how each value is
parsed (`BOT_KEYS` for the generic bots every game has, `bot_keys(game)` with the game's own bots from
its spec, `GameSpec.bots`); which bots take a wall-clock budget (`TIMED_BOTS`: generic bots only).

Numbers accept ``_`` separators (``iterations=20_000``). Every bad spec raises `OptionError` naming the
bad part.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from burano_ai.bots.presets import PRESETS
from burano_ai.core.errors import OptionError
from burano_ai.games import DEFAULT_GAME, get_spec


@dataclass(frozen=True)
class BotSpec:
    """A parsed spec: bot `name` and its `options` (already converted to numbers/strings)."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    text: str = ""

    def canonical(self) -> str:
        """The spec as text with its keys in a fixed order (`ismcts:iterations=2000,workers=2`)."""
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{k}={_format_value(v)}" for k, v in sorted(self.options.items()))

    def budget(self) -> tuple[str, float] | None:
        """("iterations", n) or ("time", s) for a search bot with an explicit budget, else None."""
        if "iterations" in self.options:
            return ("iterations", float(self.options["iterations"]))
        if "time" in self.options:
            return ("time", float(self.options["time"]))
        return None


def _format_value(v: Any) -> str:
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def _whole(name: str, least: int = 1) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            v = int(text.replace("_", ""))
        except ValueError:
            raise ValueError(f"{name} must be a whole number, not {text!r}") from None
        if v < least:
            raise ValueError(f"{name} must be at least {least}, not {v}")
        return v
    return parse


def _number(name: str, low: float | None = None, high: float | None = None,
            strict_low: bool = False) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            v = float(text.replace("_", ""))
        except ValueError:
            raise ValueError(f"{name} must be a number, not {text!r}") from None
        if not math.isfinite(v):
            raise ValueError(f"{name} must be a finite number, not {text!r}")
        if low is not None and (v <= low if strict_low else v < low):
            raise ValueError(f"{name} must be {'>' if strict_low else '>='} {low:g}, not {text}")
        if high is not None and v > high:
            raise ValueError(f"{name} must be <= {high:g}, not {text}")
        return v
    return parse


def _choice(name: str, *choices: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        t = text.strip().lower()
        if t not in choices:
            raise ValueError(f"{name} must be one of {', '.join(choices)}, not {text!r}")
        return t
    return parse


def _flag(name: str) -> Callable[[str], bool]:
    def parse(text: str) -> bool:
        t = text.strip().lower()
        if t in ("1", "true", "yes", "on"):
            return True
        if t in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"{name} must be 0 or 1, not {text!r}")
    return parse


def _eval(text: str) -> str:
    """A leaf evaluation: ``playout``, ``net`` (the game's shipped net) or a net file's path."""
    t = text.strip()
    if not t:
        raise ValueError("eval must be playout, net or a net file's path, not ''")
    return t.lower() if t.lower() in ("playout", "net") else t


_TIME = _number("time", low=0.0, strict_low=True)
_OPENSPIEL_KEYS = {
    "iterations": _whole("iterations"),
    "c": _number("c", low=0.0),
    "evaluator": _choice("evaluator", "native", "random"),
    "rollouts": _whole("rollouts"),
}

#: Keys each generic bot (every game has them) accepts and how each value is parsed.
BOT_KEYS: dict[str, dict[str, Callable[[str], Any]]] = {
    "random": {},
    "ismcts": {
        "iterations": _whole("iterations"),
        "time": _TIME,
        "workers": _whole("workers"),
        "threads": _whole("threads"),
        "c": _number("c", low=0.0),
        "root_c": _number("root_c", low=0.0),
        "root_ramp": _whole("root_ramp", least=0),
        "final": _choice("final", "lcb", "visits"),
        "win_weight": _number("win_weight", low=0.0, high=1.0),
        "margin": _number("margin", low=0.0, strict_low=True),
        "pyramid_bias": _number("pyramid_bias", low=0.0),
        "horizon": _whole("horizon"),
        "playout": _choice("playout", "heuristic", "random"),
        "tree": _choice("tree", "auto", "python", "native"),
        "preset": _choice("preset", *PRESETS),
        "eval": _eval,
        "net_weight": _number("net_weight", low=0.0, strict_low=True, high=1.0),
        "root": _choice("root", "ucb", "halving"),
        "halving_visits": _whole("halving_visits"),
        "secret": _choice("secret", "prior", "ucb", "exp3"),
        "secret_c": _number("secret_c", low=0.0),
    },
    "mcts-pkg": {
        "iterations": _whole("iterations"),
        "time": _TIME,
        "c": _number("c", low=0.0),
        "rollout": _choice("rollout", "native", "python"),
    },
    "openspiel-ismcts": {
        **_OPENSPIEL_KEYS,
        "time": _TIME,
        "final": _choice("final", "max-visit", "normalized", "max-value"),
        "worlds": _whole("worlds"),
        "inconsistent": _flag("inconsistent"),
    },
    "openspiel-mcts": {**_OPENSPIEL_KEYS, "time": _TIME, "solve": _flag("solve")},
}
#: Generic bots that accept a wall-clock budget per decision (`time`), e.g. from the arena's --time-per-move.
TIMED_BOTS = frozenset({"ismcts", "mcts-pkg", "openspiel-ismcts", "openspiel-mcts"})


def option_parser(key: str, default: Any) -> Callable[[str], Any]:
    """The parser of a game bot's option from its declared default (`BotDeclaration.options`): a whole
    number >= 1 for an int, a number >= 0 for a float."""
    if isinstance(default, bool) or not isinstance(default, (int, float)):
        raise TypeError(f"bot option {key!r}: a default must be an int or a float, not {default!r}")
    return _whole(key) if isinstance(default, int) else _number(key, low=0.0)


def bot_keys(game: str = DEFAULT_GAME) -> dict[str, dict[str, Callable[[str], Any]]]:
    """Keys of every bot that plays `game`: the generic ones and the game's own (`GameSpec.bots`)."""
    own = get_spec(game).bots()
    return {**BOT_KEYS, **{name: {key: option_parser(key, default) for key, default in bot.options.items()}
                           for name, bot in own.items()}}


def parse_bot_spec(spec: str, game: str = DEFAULT_GAME) -> BotSpec:
    """Parse ``name[:key=value,...]`` (a bot that plays `game`) and check the name, the keys and every value.

    Raises:
        OptionError: unknown bot, unknown or repeated key, missing ``=``, or a bad value; the message
            names the spec and the bad part.
    """
    known_bots = bot_keys(game)
    if not isinstance(spec, str) or not spec.strip():
        raise OptionError(f"empty bot spec {spec!r}: expected a bot name such as {', '.join(known_bots)}")
    text = spec.strip()
    name, colon, rest = text.partition(":")
    name = name.strip().lower()
    if name not in known_bots:
        raise OptionError(f"unknown bot {name!r} in spec {text!r} (known bots: {', '.join(known_bots)})")
    keys = known_bots[name]
    options: dict[str, Any] = {}
    if rest.strip():
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            key = key.strip().lower()
            if not eq or not key or not value.strip():
                raise OptionError(f"bot spec {text!r}: {part.strip()!r} is not key=value")
            if key not in keys:
                known = ", ".join(keys) if keys else "none"
                raise OptionError(f"bot spec {text!r}: unknown key {key!r} for {name} (known keys: {known})")
            if key in options:
                raise OptionError(f"bot spec {text!r}: key {key!r} given twice")
            try:
                options[key] = keys[key](value.strip())
            except ValueError as exc:
                raise OptionError(f"bot spec {text!r}: {exc}") from None
    elif colon:
        raise OptionError(f"bot spec {text!r}: nothing after ':' (drop the ':' or add key=value)")
    if name == "mcts-pkg" and "iterations" in options and "time" in options:
        raise OptionError(f"bot spec {text!r}: the mcts package takes iterations or time, not both")
    return BotSpec(name, options, text)


def with_time_per_move(spec: BotSpec, seconds: float | None) -> BotSpec:
    """The spec with ``time=seconds`` added when the bot takes a time budget and has none of its own."""
    if seconds is None or spec.name not in TIMED_BOTS or spec.budget() is not None:
        return spec
    return BotSpec(spec.name, {**spec.options, "time": float(seconds)}, spec.text)
