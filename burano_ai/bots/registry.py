"""The bot registry: generic bot name -> factory (`BOT_FACTORIES`), `make_bot` and `check_bot_spec`.

A game's own bots (Burano's ``greedy``) are declared by its spec (`GameSpec.bots`); `make_bot` asks the
spec of the game it plays for any other name.

The only importer of the third-party adapters (`mcts_pkg` needs the PyPI `mcts` package,
`openspiel_bots` needs OpenSpiel), and only when such a bot is made: importing `burano_ai.bots` imports
neither package.
"""

from __future__ import annotations

from typing import Callable

from burano_ai.bots.base import Bot
from burano_ai.bots.heuristic import HeuristicBot
from burano_ai.bots.ismcts import IsmctsBot
from burano_ai.bots.random_bot import RandomBot
from burano_ai.bots.spec import BotSpec, parse_bot_spec
from burano_ai.core.errors import OptionError
from burano_ai.games import DEFAULT_GAME, get_spec


def _mcts_pkg_bot(spec: BotSpec, seed: int, game: str) -> Bot:
    try:
        from burano_ai.bots.mcts_pkg import MctsPkgBot
    except ImportError as exc:
        raise OptionError(f"bot {spec.canonical()!r} needs the PyPI package 'mcts' (pip install mcts): "
                          f"{exc}") from None
    return MctsPkgBot(spec, seed, game)


def _openspiel_bot(kind: str) -> Callable[[BotSpec, int, str], Bot]:
    def make(spec: BotSpec, seed: int, game: str) -> Bot:
        try:
            from burano_ai.bots import openspiel_bots
        except ImportError as exc:
            raise OptionError(f"bot {spec.name!r} needs OpenSpiel: pip install 'burano-ai[openspiel]' "
                              f"({exc})") from None
        cls = openspiel_bots.OpenSpielISMCTSBot if kind == "ismcts" else openspiel_bots.OpenSpielMCTSBot
        return cls(spec, seed, game)
    return make


#: The generic bots: ``(spec, seed, game) -> Bot``; they play any game through the State API.
BOT_FACTORIES: dict[str, Callable[[BotSpec, int, str], Bot]] = {
    "random": RandomBot,
    "ismcts": IsmctsBot,
    "mcts-pkg": _mcts_pkg_bot,
    "openspiel-ismcts": _openspiel_bot("ismcts"),
    "openspiel-mcts": _openspiel_bot("mcts"),
}


#: Generic bots that play a game only through its OpenSpiel adapter (capability "openspiel").
OPENSPIEL_BOTS = frozenset({"openspiel-ismcts", "openspiel-mcts"})


def make_bot(spec: str | BotSpec, seed: int = 0, game: str = DEFAULT_GAME, rules_game=None) -> Bot:
    """Make a bot that plays `game` from a spec string (see `burano_ai.bots`) or a parsed `BotSpec`; with
    `rules_game` (the Game the seats will play, made with the game's options), check that the bot can play
    it (`Bot.check_game`).

    Raises:
        OptionError: a bad spec, a bad seed, a bot the game does not have, a bot whose package is not
            installed, or a bot that cannot play `rules_game` (an OpenSpiel bot and an option that adds
            actions its pyspiel game does not declare).
    """
    bot = _make_bot(spec, seed, game)
    if rules_game is not None:
        bot.check_game(rules_game)
    return bot


def _make_bot(spec: str | BotSpec, seed: int, game: str) -> Bot:
    parsed = spec if isinstance(spec, BotSpec) else parse_bot_spec(spec, game)
    game_spec = get_spec(game)
    if parsed.name in OPENSPIEL_BOTS and "openspiel" not in game_spec.capabilities:
        raise OptionError(f"bot {parsed.name!r} needs an OpenSpiel adapter, which {game_spec.title} does not have")
    factory = BOT_FACTORIES.get(parsed.name)
    if factory is not None:
        return factory(parsed, seed, game)
    own = game_spec.bots()
    if parsed.name not in own:
        raise OptionError(f"unknown bot {parsed.name!r} for {game_spec.title} "
                          f"(known bots: {', '.join([*BOT_FACTORIES, *own])})")
    return HeuristicBot(parsed, seed, game, own[parsed.name])


def check_bot_spec(spec: str, game: str = DEFAULT_GAME, rules_game=None) -> BotSpec:
    """Parse a spec and make its bot once (so a missing package, or a bot that cannot play `rules_game`,
    is reported before a tournament)."""
    parsed = parse_bot_spec(spec, game)
    make_bot(parsed, 0, game, rules_game)
    return parsed
