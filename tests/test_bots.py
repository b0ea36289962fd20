"""Bots (burano_ai.bots): spec strings, legal and reproducible moves, and no peeking at hidden information."""

from __future__ import annotations

import importlib.util
import random

import pytest

from burano_ai.bots import (BOT_KEYS, Bot, BotSpec, bot_keys, make_bot, parse_bot_spec, with_time_per_move)
from burano_ai.games.burano.greedy import greedy_value
from burano_ai.core.errors import OptionError
from burano_ai.search.evaluators import sample_chance_cumulative

from burano_ai import Game

HAS_PYSPIEL = importlib.util.find_spec("pyspiel") is not None
needs_pyspiel = pytest.mark.skipif(not HAS_PYSPIEL, reason="pyspiel (open_spiel) is not installed")

CHEAP_SPECS = ["random", "greedy:samples=1", "ismcts:iterations=30", "mcts-pkg:iterations=30"]
OPENSPIEL_SPECS = ["openspiel-ismcts:iterations=20", "openspiel-mcts:iterations=20"]


def play_until(state, rng: random.Random, until) -> None:
    while not state.is_terminal() and not until(state):
        if state.is_chance_node():
            state.apply_action(sample_chance_cumulative(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def turn_position(players: int = 2, seed: int = 5):
    """A turn decision in the rounds with several legal moves."""
    state = Game(players).new_initial_state(seed)
    play_until(state, random.Random(seed), lambda s: s.stage == 2 and s.phase == 2 and len(s.legal_actions()) > 3
               and s.round >= 2)
    assert not state.is_terminal()
    return state


def hidden_cards_position(seed: int = 3):
    """A decision of seat A while seat B holds blind-drawn fish cards (hidden from A)."""
    state = Game(2).new_initial_state(seed)
    rng = random.Random(seed)

    def ready(s) -> bool:
        return (s.current_player() == 0 and s.phase == 2 and len(s.legal_actions()) > 3
                and sum(s.players[1].hand_blind) > 0)

    play_until(state, rng, ready)
    assert ready(state), "no position with hidden cards reached"
    return state


# --- specs


@pytest.mark.parametrize("spec, name, options", [
    ("random", "random", {}),
    ("  Greedy ", "greedy", {}),
    ("ismcts:iterations=2000", "ismcts", {"iterations": 2000}),
    ("ismcts:time=1.0,workers=2", "ismcts", {"time": 1.0, "workers": 2}),
    ("ismcts:iterations=20_000,c=0.5,playout=heuristic", "ismcts", {"iterations": 20000, "c": 0.5,
                                                                    "playout": "heuristic"}),
    ("mcts-pkg:time=0.5", "mcts-pkg", {"time": 0.5}),
    ("openspiel-ismcts:iterations=50,evaluator=random,final=normalized", "openspiel-ismcts",
     {"iterations": 50, "evaluator": "random", "final": "normalized"}),
    ("openspiel-mcts:iterations=10,solve=1", "openspiel-mcts", {"iterations": 10, "solve": True}),
])
def test_parse_good_specs(spec, name, options):
    parsed = parse_bot_spec(spec)
    assert parsed.name == name and parsed.options == options
    assert parse_bot_spec(parsed.canonical()) == BotSpec(name, options, parsed.canonical())


@pytest.mark.parametrize("spec, fragment", [
    ("", "empty bot spec"),
    ("alphazero", "unknown bot 'alphazero'"),
    ("ismcts:iters=5", "unknown key 'iters' for ismcts"),
    ("ismcts:iterations=0", "iterations must be at least 1"),
    ("ismcts:iterations=many", "iterations must be a whole number, not 'many'"),
    ("ismcts:time=-1", "time must be > 0"),
    ("ismcts:time=nan", "time must be a finite number"),
    ("ismcts:iterations=5,iterations=6", "key 'iterations' given twice"),
    ("ismcts:iterations", "'iterations' is not key=value"),
    ("ismcts:", "nothing after ':'"),
    ("ismcts:playout=smart", "playout must be one of heuristic, random"),
    ("ismcts:tree=fast", "tree must be one of auto, python, native"),
    ("ismcts:tree=native,horizon=2", "tree='native' plays to the end of the game"),
    ("ismcts:playout=heuristic,horizon=2", "playout=heuristic cannot be combined with horizon"),
    ("random:iterations=3", "unknown key 'iterations' for random (known keys: none)"),
    ("mcts-pkg:iterations=5,time=1", "iterations or time, not both"),
    ("openspiel-mcts:time=0", "time must be > 0"),
    ("ismcts:win_weight=2", "win_weight must be <= 1"),
])
def test_bad_specs_name_the_bad_part(spec, fragment):
    with pytest.raises(OptionError) as info:
        make_bot(spec, 0)
    assert fragment in str(info.value)


def test_bad_seed_is_an_option_error():
    with pytest.raises(OptionError, match="seed"):
        make_bot("random", "7")


def test_every_bot_documents_its_keys():
    from burano_ai import bots
    for name, keys in bot_keys("burano").items():
        assert f"``{name}``" in bots.__doc__
        for key in keys:
            assert f"``{key}``" in bots.__doc__, (name, key)


def test_time_per_move_fills_only_missing_budgets():
    assert with_time_per_move(parse_bot_spec("ismcts"), 0.5).canonical() == "ismcts:time=0.5"
    assert with_time_per_move(parse_bot_spec("ismcts:iterations=9"), 0.5).canonical() == "ismcts:iterations=9"
    assert with_time_per_move(parse_bot_spec("greedy"), 0.5).canonical() == "greedy"
    assert with_time_per_move(parse_bot_spec("openspiel-mcts"), 0.5).canonical() == "openspiel-mcts:time=0.5"
    assert with_time_per_move(parse_bot_spec("random"), 0.5).canonical() == "random"


# --- moves


@pytest.mark.parametrize("spec", CHEAP_SPECS + [pytest.param(s, marks=needs_pyspiel) for s in OPENSPIEL_SPECS])
def test_bots_play_legal_reproducible_moves(spec):
    state = turn_position()
    before = state.to_json()
    bot = make_bot(spec, 11)
    assert isinstance(bot, Bot)
    moves = [bot.step(state) for _ in range(3)]
    assert state.to_json() == before, "step must not modify the state"
    assert all(m in state.legal_actions() for m in moves)
    bot.restart()
    assert bot.decisions == 0 and bot.iterations == 0
    assert [bot.step(state) for _ in range(3)] == moves
    assert [make_bot(spec, 11).step(state) for _ in range(1)] == moves[:1]


def test_forced_move_is_returned_without_search():
    state = Game(2).new_initial_state(1)
    play_until(state, random.Random(1), lambda s: s.current_player() >= 0 and len(s.legal_actions()) == 1)
    bot = make_bot("ismcts:iterations=50", 0)
    assert bot.step(state) == state.legal_actions()[0]
    assert bot.iterations == 0


def test_step_refuses_chance_nodes():
    state = Game(2).new_initial_state(1)
    play_until(state, random.Random(1), lambda s: s.is_chance_node())
    with pytest.raises(ValueError, match="no decision"):
        make_bot("random", 0).step(state)


@pytest.mark.parametrize("spec", ["greedy", "ismcts:iterations=40"])
def test_bots_do_not_see_hidden_cards(spec):
    """Two worlds that seat A cannot tell apart (B's blind cards differ) get the same move."""
    state = hidden_cards_position()
    worlds = [state.resample(0, s) for s in range(12)]
    hands = {tuple(w.players[1].hand_blind) for w in worlds}
    assert len(hands) > 1, "the resamples should differ in B's hidden hand"
    for w in worlds:
        assert w.information_state_key(0) == state.information_state_key(0)
    moves = {make_bot(spec, 5).step(w) for w in worlds}
    assert len(moves) == 1


def test_greedy_value_reads_only_the_own_seat():
    state = hidden_cards_position()
    worlds = [state.resample(0, s) for s in range(8)]
    assert len({greedy_value(w, 0) for w in worlds}) == 1
    pl = state.players[0]
    assert greedy_value(state, 0) >= pl.vp + pl.coins / 5.0


def test_greedy_beats_random_in_a_game():
    from burano_ai.arena import ArenaConfig, run_arena
    result = run_arena(ArenaConfig(bots=("greedy:samples=1", "random"), players=2, games=2, seed=4, bootstrap=0),
                       game_factory=Game)
    greedy = next(e for e in result.entries if e["spec"].startswith("greedy"))
    assert greedy["mean_vp"] > next(e for e in result.entries if e["spec"] == "random")["mean_vp"]


def test_mcts_pkg_reward_is_our_reward_from_the_margin():
    """The mcts-pkg baseline scores a finished game with the search's reward: win share and VP margin."""
    from burano_ai.bots import MctsPkgBot
    from burano_ai.search.ismcts import margins, rewards
    from burano_ai.search.params import Params
    state = Game(2).new_initial_state(4)
    state.playout(9, "random")
    scores = [float(v) for v in state.scores()]
    search = MctsPkgBot._Search(0, 1, True)
    expected = rewards(margins(scores), list(state.returns()), Params())[0]
    assert search.reward(state) == pytest.approx(expected)
    # The margin matters: a reward built from raw scores would saturate the margin term at ~1.
    assert abs(expected - rewards(scores, list(state.returns()), Params())[0]) > 1e-3


@needs_pyspiel
def test_openspiel_ismcts_with_a_tiny_time_budget_still_moves():
    """Regression: with a budget shorter than one simulation OpenSpiel's final policy met an unvisited root
    (AssertionError `node.total_visits > 0`, seen on a loaded machine in test_time_odds_smoke)."""
    bot = make_bot("openspiel-ismcts:time=0.0000001", 1)
    state = Game(2).new_initial_state(3)
    rng = random.Random(0)
    decisions = 0
    while not state.is_terminal() and decisions < 120:
        if state.is_chance_node():
            state.apply_action(sample_chance_cumulative(state, rng))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert bot.iterations >= decisions


def test_the_greedy_bot_is_burano_s_own():
    from burano_ai.bots import HeuristicBot
    from burano_ai.games import get_spec
    from burano_ai.games.burano.greedy import choose_greedy
    assert "greedy" not in BOT_KEYS                       # not a generic bot
    assert get_spec("burano").bots()["greedy"].choose is choose_greedy
    bot = make_bot("greedy:samples=2", 1, "burano")
    assert isinstance(bot, HeuristicBot) and bot.spec == "greedy:samples=2"
    assert bot.options == {"samples": 2, "depth": 4}     # the spec's options over the declared defaults
    assert set(bot_keys("burano")) == set(BOT_KEYS) | {"greedy"}
    with pytest.raises(OptionError, match="samples must be at least 1"):
        parse_bot_spec("greedy:samples=0", "burano")


def test_an_unknown_game_is_an_option_error():
    with pytest.raises(OptionError, match="unknown game 'chess'"):
        make_bot("random", 0, "chess")
