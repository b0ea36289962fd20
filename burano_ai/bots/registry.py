"""The bot registry: bot name -> factory (`BOT_FACTORIES`), `make_bot` and `check_bot_spec`.

The only importer of the third-party adapters (`mcts_pkg` needs the PyPI `mcts` package,
`openspiel_bots` needs OpenSpiel), and only when such a bot is made: importing `burano_ai.bots` imports
neither package.
"""

from __future__ import annotations

from typing import Callable

from burano_ai.core.errors import OptionError
from burano_ai.bots.base import Bot
from burano_ai.bots.greedy import GreedyBot
from burano_ai.bots.ismcts import IsmctsBot
from burano_ai.bots.random_bot import RandomBot
from burano_ai.bots.spec import BotSpec, parse_bot_spec


def _mcts_pkg_bot(spec: BotSpec, seed: int) -> Bot:
    try:
        from burano_ai.bots.mcts_pkg import MctsPkgBot
    except ImportError as exc:
        raise OptionError(f"bot {spec.canonical()!r} needs the PyPI package 'mcts' (pip install mcts): "
                          f"{exc}") from None
    return MctsPkgBot(spec, seed)


def _openspiel_bot(kind: str) -> Callable[[BotSpec, int], Bot]:
    def make(spec: BotSpec, seed: int) -> Bot:
        try:
            from burano_ai.bots import openspiel_bots
        except ImportError as exc:
            raise OptionError(f"bot {spec.name!r} needs OpenSpiel: pip install 'burano-ai[openspiel]' "
                              f"({exc})") from None
        cls = openspiel_bots.OpenSpielISMCTSBot if kind == "ismcts" else openspiel_bots.OpenSpielMCTSBot
        return cls(spec, seed)
    return make


BOT_FACTORIES: dict[str, Callable[[BotSpec, int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "ismcts": IsmctsBot,
    "mcts-pkg": _mcts_pkg_bot,
    "openspiel-ismcts": _openspiel_bot("ismcts"),
    "openspiel-mcts": _openspiel_bot("mcts"),
}


def make_bot(spec: str | BotSpec, seed: int = 0) -> Bot:
    """Make a bot from a spec string (see `burano_ai.bots`) or a parsed `BotSpec`.

    Raises:
        OptionError: a bad spec, a bad seed, or a bot whose package is not installed.
    """
    parsed = spec if isinstance(spec, BotSpec) else parse_bot_spec(spec)
    return BOT_FACTORIES[parsed.name](parsed, seed)


def check_bot_spec(spec: str) -> BotSpec:
    """Parse a spec and make its bot once (so a missing package is reported before a tournament)."""
    parsed = parse_bot_spec(spec)
    make_bot(parsed, 0)
    return parsed
