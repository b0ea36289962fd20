"""Game-playing bots behind one interface, made from spec strings (`make_bot("ismcts:iterations=2000", seed)`).

A bot chooses the action of the seat to move: ``bot.step(state) -> action id``; ``bot.restart()`` returns
it to the state it was made in (same seed, counters cleared) before a new game. Bots see the position
only as their seat may: every bot that looks beyond the legal moves starts from the seat's one-seat view
(`seat_view`), so opponents' blind cards and secret pyramid cubes never
reach it. Chance is not a bot's business: whoever runs the game (the arena) samples chance outcomes.

Spec strings: ``name`` or ``name:key=value,key=value``. Bots and their keys:

==================  ======================================================================================
``random``          uniform over the legal actions. No keys.
``greedy``          Burano's own (`HeuristicBot` playing `burano_ai.games.burano.greedy.choose_greedy`):
                    one move ahead with a fixed heuristic.
                    Keys: ``samples`` (chance completions averaged per move, 3), ``depth`` (sub-decisions
                    followed, 4).
``ismcts``          our SO-ISMCTS through `burano_ai.engine.suggest`. Keys: ``iterations`` (default 1000
                    when no budget is given), ``time`` (seconds per decision), ``workers`` (root-parallel
                    processes, 1), ``threads`` (threads sharing one tree, 1: games stay reproducible and
                    an arena's parallel games keep their cores), ``c`` (exploration), ``root_c``
                    (root_exploration), ``root_ramp``, ``final`` (lcb | visits: final_selection), ``win_weight``,
                    ``margin`` (margin_scale),
                    ``pyramid_bias``, ``horizon`` (`evaluator=HorizonEstimate(n)`), ``playout``
                    (heuristic | random), ``tree`` (auto | python | native; see `burano_ai.search.params`),
                    ``preset`` (a frozen search version, e.g. ``v0.1``: `burano_ai.bots.presets`; the
                    other keys override its values), ``eval`` (the leaf evaluation: playout | net | a net
                    file's path; docs/learning.md), ``net_weight`` (the net's share of a leaf's reward,
                    (0, 1]), ``root`` (ucb | halving: how the root's moves are chosen,
                    `burano_ai.search.params`), ``halving_visits`` (halving's first-phase visits per move),
                    ``secret`` (prior | ucb: how the other seats' secret simultaneous choices are chosen,
                    `burano_ai.search.params`), ``secret_c`` (the UCB constant of their bandits).
``mcts-pkg``        the PyPI `mcts` package's UCT on one determinization (see `MctsPkgBot`). Keys:
                    ``iterations`` (500 when no budget is given) or ``time``, ``c``,
                    ``rollout`` (native | python).
``openspiel-ismcts``  OpenSpiel's Python `ISMCTSBot` through the game's OpenSpiel adapter (Burano's
                    `burano_ai.games.burano.openspiel`; capability "openspiel"). Keys: ``iterations``
                    (500 when no budget is given), ``time``, ``c``, ``evaluator`` (native | random),
                    ``rollouts``, ``final`` (max-visit | normalized | max-value), ``worlds``,
                    ``inconsistent`` (allow inconsistent action sets: 0 | 1).
``openspiel-mcts``  OpenSpiel's Python `MCTSBot` on one determinization. Keys: ``iterations`` (500
                    when no budget is given), ``time`` (a wall-clock loop around OpenSpiel's simulations),
                    ``c``, ``evaluator``, ``rollouts``, ``solve`` (0 | 1).
==================  ======================================================================================

Every bot but ``greedy`` is generic: it plays any registered game through the State API. A game declares
its own bots (its heuristics) in its spec (`GameSpec.bots`: Burano's is ``greedy``); `make_bot(spec, seed,
game)` and `parse_bot_spec(spec, game)` find them there. `make_bot(spec, seed, game, rules_game)` also checks
that the bot can play `rules_game`, the Game made with the game's options (`Bot.check_game`: OpenSpiel's bots
refuse a Game with more actions than their pyspiel game declares, Azul's ``joker_choice``).

Numbers accept ``_`` separators (``iterations=20_000``). Every bad spec raises `OptionError` naming the
bad part. Every random choice derives from the bot's seed and a decision counter, so a bot with an
iteration budget plays the same moves for the same seed (a ``time`` budget does not: it depends on the
machine).

Modules: `spec` (spec strings, `BotSpec`), `presets` (frozen ``ismcts`` versions), `base` (`Bot`,
`seat_view`), one module per generic bot
(`random_bot`, `ismcts`, and the adapters `mcts_pkg`, `openspiel_bots`), `heuristic` (`HeuristicBot`: a
game's own bot), `registry` (name ->
factory, `make_bot`; the only importer of the adapters). The adapters' names are re-exported here on
first use, so ``import burano_ai.bots`` imports neither `mcts` nor `pyspiel`.
"""

from __future__ import annotations

from typing import Any

from burano_ai.bots.base import Bot, seat_view
from burano_ai.bots.ismcts import IsmctsBot
from burano_ai.bots.presets import PRESETS, Preset, get_preset
from burano_ai.bots.random_bot import RandomBot
from burano_ai.bots.registry import BOT_FACTORIES, check_bot_spec, make_bot
from burano_ai.bots.heuristic import HeuristicBot
from burano_ai.bots.spec import BOT_KEYS, TIMED_BOTS, BotSpec, bot_keys, parse_bot_spec, with_time_per_move

# The adapters import their third-party package: loaded on first use, not by `import burano_ai.bots`.
_ADAPTERS = {
    "MctsPkgBot": "mcts_pkg",
    "NativeRolloutEvaluator": "openspiel_bots",
    "OpenSpielISMCTSBot": "openspiel_bots",
    "OpenSpielMCTSBot": "openspiel_bots",
    "TimedISMCTSBot": "openspiel_bots",
    "make_evaluator": "openspiel_bots",
}

__all__ = ["BOT_FACTORIES", "BOT_KEYS", "PRESETS", "TIMED_BOTS", "Bot", "BotSpec", "HeuristicBot", "IsmctsBot",
           "Preset", "RandomBot", "bot_keys", "check_bot_spec", "get_preset", "make_bot", "parse_bot_spec",
           "seat_view", "with_time_per_move", *_ADAPTERS]


def __getattr__(name: str) -> Any:
    module = _ADAPTERS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module
    return getattr(import_module(f".{module}", __name__), name)
