"""Azul: Stained Glass of Sintra's OpenSpiel adapter (`python_azul_sintra`): OpenSpiel's own checks and
its bots through our bot registry. Skipped only when `pyspiel` cannot be imported."""

from __future__ import annotations

import functools
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from burano_ai.bots.registry import make_bot   # noqa: E402
from burano_ai.core.errors import OptionError   # noqa: E402
from burano_ai.games import get_spec   # noqa: E402
from burano_ai.games.azul_sintra import openspiel as adapter   # noqa: E402

REPO = Path(__file__).resolve().parents[3]


def test_the_registered_game_type():
    """Azul's own parameter (the conformance suite checks the type, the counts, players and engine)."""
    assert pyspiel.load_game("python_azul_sintra(players=3,side=B)").max_chance_outcomes() == 8
    with pytest.raises(OptionError, match="side must be A or B"):
        pyspiel.load_game("python_azul_sintra(side=C)")


def test_openspiel_random_simulation_test_on_side_b():
    """OpenSpiel's C++ random-simulation checks on side B (the conformance suite runs the default side)."""
    pyspiel.random_sim_test(pyspiel.load_game("python_azul_sintra(players=3,side=B)"), num_sims=1, serialize=False,
                            verbose=False)


def test_openspiel_ismcts_refuses_a_perfect_information_game_in_one_line():
    """OpenSpiel's ISMCTSBot asserts an imperfect-information game: the bot says so before a game starts
    (it was an AssertionError in the middle of an arena's first game, reported as an internal error)."""
    with pytest.raises(OptionError, match="OpenSpiel's ISMCTS plays imperfect-information games only .*"
                                          "use openspiel-mcts"):
        make_bot("openspiel-ismcts:iterations=5", 0, game="azul-sintra")


def test_the_arena_refuses_openspiel_ismcts_on_azul_before_playing(runner, tmp_path):
    import cli
    out = tmp_path / "r.json"
    result = runner.invoke(cli.app, ["arena", "--game", "azul-sintra", "--bots", "openspiel-ismcts;random",
                                     "-g", "2", "--out", str(out)])
    assert result.exit_code == 2, (result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "has perfect information" in lines[0] and "internal error" not in lines[0], lines
    assert not out.exists()


def test_openspiel_mcts_with_a_time_budget_stops_at_the_deadline(monkeypatch):
    """`openspiel-mcts:time=S` (the arena's --time-per-move fills it): OpenSpiel's MCTS loop, stopped at
    the first simulation that starts after the deadline once a root move has a visit. A fake clock that
    advances 1 s a reading makes it exact: deadline 2.5 s, simulations start at 1 s and 2 s (the first only
    visits the root), the third sees 3 s and stops; the bot counts the 2 that ran."""
    from burano_ai.bots import openspiel_bots

    class Clock:
        now = -1.0

        def perf_counter(self):
            self.now += 1.0
            return self.now

    monkeypatch.setattr(openspiel_bots, "time", Clock())
    spec = get_spec("azul-sintra")
    state = spec.new_game(2).new_initial_state(5)
    rng = random.Random(5)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    bot = make_bot("openspiel-mcts:time=2.5", 1, game="azul-sintra")
    assert bot.step(state.clone()) in state.legal_actions()
    assert bot.iterations == 2
    capped = make_bot("openspiel-mcts:time=1000,iterations=7", 1, game="azul-sintra")
    capped.step(state.clone())
    assert capped.iterations == 7    # the iteration cap still holds under a long time budget


# ------------------------------------------------------------------------------------------------
# joker_choice: more actions than the pyspiel game declares, refused when the bot is configured


def test_an_openspiel_bot_checks_the_game_of_the_options_it_is_made_for():
    """`make_bot(..., rules_game)`: OpenSpiel's bots refuse a Game whose States their pyspiel game cannot hold
    (a joker_choice game has 856 actions, 456 declared); other options, and other bots, are fine."""
    spec = get_spec("azul-sintra")
    jokers = spec.new_game(2, joker_choice=True)
    with pytest.raises(OptionError, match="bot 'openspiel-mcts:iterations=5' cannot play this game: .*joker_choice"):
        make_bot("openspiel-mcts:iterations=5", 0, "azul-sintra", jokers)
    with pytest.raises(OptionError, match="joker_choice"):
        make_bot("openspiel-mcts", 0, "azul-sintra", spec.new_game(2, "reference", joker_choice=True))
    make_bot("openspiel-mcts:iterations=5", 0, "azul-sintra", spec.new_game(3, side="B", auto_keep=False))
    for bot in ("random", "greedy", "ismcts:iterations=5"):
        make_bot(bot, 0, "azul-sintra", jokers)


def test_the_adapters_check_counts_actions_whatever_the_game():
    """`AdapterGame.check_rules` (core): a Game with more distinct actions or chance outcomes than the pyspiel
    game declares, or another player count, is refused without knowing which option made it so."""
    from types import SimpleNamespace

    from burano_ai.core.openspiel import AdapterGame
    game = adapter.game_for(2)
    check = functools.partial(AdapterGame.check_rules, game)    # the core's check, not Azul's override

    def rules(players=2, actions=456, outcomes=8):
        return SimpleNamespace(num_players=players, num_distinct_actions=lambda: actions,
                               max_chance_outcomes=lambda: outcomes)

    check(rules())
    with pytest.raises(OptionError, match="declares 456 distinct actions and this game .* has 457"):
        check(rules(actions=457))
    with pytest.raises(OptionError, match="declares 8 chance outcomes and this game .* has 9"):
        check(rules(outcomes=9))
    with pytest.raises(OptionError, match="a 3-player game cannot be wrapped in a 2-player"):
        check(rules(players=3))


def test_run_arena_refuses_before_it_starts_a_worker():
    """The arena's Python API: the refusal comes from `ArenaConfig.validate`, before any worker process."""
    import multiprocessing

    from burano_ai.arena import ArenaConfig, run_arena
    config = ArenaConfig(bots=("openspiel-mcts:iterations=5", "random"), players=2, games=2, workers=2,
                         game="azul-sintra", options={"joker_choice": True})
    with pytest.raises(OptionError, match="joker_choice"):
        config.validate()
    with pytest.raises(OptionError, match="joker_choice"):
        run_arena(config)
    assert multiprocessing.active_children() == []


def _cli(*args: str, cwd) -> subprocess.CompletedProcess:
    """`python -m cli <args>` of this checkout, run to completion in `cwd`."""
    env = {k: v for k, v in os.environ.items() if k != "BURANO_DEBUG_TRACEBACK"}
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run([sys.executable, "-m", "cli", *args], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_arena_refuses_openspiel_mcts_with_joker_choice_up_front(tmp_path, workers):
    """Through the real command line: one line naming the option, exit code 2, nothing played or written (it
    was an internal error line, exit 70, from the first game's first OpenSpiel decision)."""
    out = tmp_path / "r.json"
    result = _cli("arena", "--game", "azul-sintra", "--option", "joker_choice=true", "--bots",
                  "random;openspiel-mcts:iterations=5", "-n", "2", "-g", "2", "--workers", workers, "--out", str(out),
                  cwd=tmp_path)
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "joker_choice" in lines[0] and "openspiel-mcts" in lines[0] and "internal error" not in lines[0]
    assert result.stdout == "" and not out.exists()


def test_play_refuses_openspiel_mcts_with_joker_choice_before_the_game_starts(tmp_path):
    record = tmp_path / "g.json"
    result = _cli("play", "--game", "azul-sintra", "--option", "joker_choice=true", "--bots",
                  "openspiel-mcts:iterations=5", "--you", "B", "--seed", "1", "--record", str(record), cwd=tmp_path)
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "joker_choice" in lines[0], result.stderr
    assert result.stdout == "" and not record.exists()     # no board shown, no game started
