"""The SPRT (burano_ai.arena.sprt and `burano arena --sprt`): the LLR against published values and a direct
maximum-likelihood computation, the stopping rule, option parsing, and whole arena runs with cheap bots."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy.optimize import minimize

import cli
from burano_ai import Game
from burano_ai.arena import ArenaConfig, SprtConfig, SprtTest, parse_sprt, run_arena
from burano_ai.arena.sprt import (PAIR_SCORES, elo_estimate, llr, llr_approximation, logistic_elo, logistic_score,
                                  pair_cell)
from burano_ai.core.errors import OptionError

# Cheap bots that a few pairs tell apart: greedy wins every game against random.
STRONG, WEAK = "greedy:samples=1", "random"
WIDE = "elo0=0,elo1=200,alpha=0.1,beta=0.1"


# --- the statistic


@pytest.mark.parametrize("ll, ld, wl, dd, wd, ww, elo0, elo1, expected", [
    # fastchess app/tests/sprt_test.cpp, "logistic pentanomial 1" and "2" (Stats(ll, ld, wl, dd, wd, ww)).
    (223, 9863, 20279, 1000, 10037, 246, 0.5, 2.5, -3.07),
    (871, 26175, 55003, 980, 26678, 821, 0.0, 2.0, -4.98),
])
def test_llr_matches_fastchess(ll, ld, wl, dd, wd, ww, elo0, elo1, expected):
    assert llr([ll, ld, wl + dd, wd, ww], elo0, elo1) == pytest.approx(expected, abs=0.01)


def direct_llr(counts, elo0, elo1) -> float:
    """The GSPRT written out: maximise the pentanomial log-likelihood under each hypothesis's mean with a
    general constrained optimiser, and take the difference (empty cells count 0.001, as in `llr`)."""
    n = np.array([c if c > 0 else 1e-3 for c in counts], dtype=float)
    a = np.array(PAIR_SCORES)

    def best_loglik(s: float) -> float:
        cons = [{"type": "eq", "fun": lambda p: p.sum() - 1.0}, {"type": "eq", "fun": lambda p: p @ a - s}]
        res = minimize(lambda p: -(n * np.log(p)).sum(), np.full(5, 0.2), constraints=cons,
                       bounds=[(1e-12, 1.0)] * 5, method="SLSQP", options={"ftol": 1e-14, "maxiter": 1000})
        assert res.success, res.message
        return -res.fun

    return best_loglik(logistic_score(elo1)) - best_loglik(logistic_score(elo0))


@pytest.mark.parametrize("counts, elo0, elo1", [
    ([2, 5, 20, 8, 3], 0, 20),
    ([10, 31, 55, 40, 12], 0, 20),
    ([0, 3, 9, 14, 7], -10, 30),
    ([5, 0, 4, 0, 1], 0, 50),
])
def test_llr_matches_a_direct_maximum_likelihood(counts, elo0, elo1):
    assert llr(counts, elo0, elo1) == pytest.approx(direct_llr(counts, elo0, elo1), abs=1e-4)


def test_llr_properties():
    balanced = [10, 40, 100, 40, 10]
    assert llr(balanced, 0, 20) < 0 < llr(balanced, -20, 0)       # a 50 % score favours elo 0
    assert llr([0] * 5, 0, 20) == 0.0
    # Swapping the bots mirrors the hypotheses.
    counts = [3, 12, 30, 20, 6]
    assert llr(counts, 0, 20) == pytest.approx(-llr(counts[::-1], -20, 0))
    # Near 50 % and small Elo differences, Van den Bergh's approximation agrees.
    big = [400, 2500, 5000, 2600, 420]
    assert llr(big, 0, 2) == pytest.approx(llr_approximation(big, 0, 2), rel=0.02)


def test_elo_estimate():
    elo, lo, hi = elo_estimate([10, 40, 100, 40, 10])
    assert elo == pytest.approx(0.0, abs=1e-9) and lo < 0 < hi and lo == pytest.approx(-hi)
    elo, lo, hi = elo_estimate([0, 0, 0, 0, 5])
    assert elo == math.inf
    assert logistic_elo(logistic_score(37.5)) == pytest.approx(37.5)


def test_pair_cell_rounds_to_halves():
    assert [pair_cell(x) for x in (0, 0.5, 1, 1.5, 2)] == [0, 1, 2, 3, 4]
    assert pair_cell(1 / 3 + 1 / 3) == 1 and pair_cell(1 + 1 / 3) == 3


# --- the stopping rule


def run_sequence(scores, config: SprtConfig) -> SprtTest:
    test = SprtTest(config)
    for s in scores:
        test.add_pair(s)
    return test


def test_h1_on_a_skewed_sequence_and_h0_on_its_reverse():
    config = SprtConfig(0, 20)
    # A wins 60 % of the decisive pairs: a strong edge that a few hundred pairs settle.
    skewed = [2, 1, 1.5, 0, 1, 2, 0.5, 1.5, 1, 2] * 60
    up = run_sequence(skewed, config)
    assert up.verdict == "H1" and up.stopped_at["llr"] >= config.upper
    down = run_sequence([2 - s for s in skewed], config)
    assert down.verdict == "H0" and down.stopped_at["llr"] <= config.lower
    # The verdict belongs to the first crossing; later pairs still count.
    assert up.stopped_at["pairs"] < up.pairs == len(skewed)
    first = run_sequence(skewed[:up.stopped_at["pairs"]], config)
    assert first.verdict == "H1" and first.llr == pytest.approx(up.stopped_at["llr"])
    assert run_sequence(skewed[:up.stopped_at["pairs"] - 1], config).verdict is None


def test_no_verdict_on_an_even_sequence():
    test = run_sequence([1, 2, 0, 1] * 5, SprtConfig(0, 20))
    assert test.verdict is None and test.to_dict()["verdict"] == "inconclusive"
    assert test.config.lower == pytest.approx(math.log(0.05 / 0.95))
    assert test.config.upper == pytest.approx(math.log(0.95 / 0.05))


# --- options


def test_parse_sprt():
    assert parse_sprt("elo0=0,elo1=20") == SprtConfig(0.0, 20.0, 0.05, 0.05)
    assert parse_sprt(" elo0=-5 , elo1=5, alpha=0.1,beta=0.2") == SprtConfig(-5.0, 5.0, 0.1, 0.2)


@pytest.mark.parametrize("text, fragment", [
    ("elo0=0,elo1=20,gamma=1", "unknown key 'gamma'"),
    ("elo0=0,elo1=0", "elo1 (0) must be greater than elo0 (0)"),
    ("elo0=10,elo1=5", "elo1 (5) must be greater than elo0 (10)"),
    ("elo0=0,elo1=20,alpha=0.5", "alpha must lie strictly between 0 and 0.5"),
    ("elo0=0,elo1=20,beta=0", "beta must lie strictly between 0 and 0.5"),
    ("elo0=0,elo1=x", "elo1 must be a number, not 'x'"),
    ("elo0=0", "elo1 missing"),
    ("elo0=0,elo1", "'elo1' is not key=value"),
    ("elo0=0,elo0=1,elo1=2", "key 'elo0' given twice"),
    ("elo0=0,elo1=inf", "elo1 must be a finite number"),
])
def test_parse_sprt_errors(text, fragment):
    with pytest.raises(OptionError) as info:
        parse_sprt(text)
    assert fragment in str(info.value)


@pytest.mark.parametrize("kwargs, fragment", [
    (dict(bots=(STRONG, STRONG)), "two distinct bots, not 1"),
    (dict(bots=(STRONG, WEAK, "ismcts:iterations=5"), players=3), "two distinct bots, not 3"),
    (dict(bots=("ismcts", "ismcts:time=0.5"), time_per_move=0.5), "two distinct bots, not 1"),
])
def test_sprt_needs_two_distinct_bots(kwargs, fragment):
    with pytest.raises(OptionError) as info:
        run_arena(ArenaConfig(**{"players": 2, "games": 2, "sprt": SprtConfig(0, 20), **kwargs}), game_factory=Game)
    assert fragment in str(info.value)


# --- the arena


def sprt_arena(bots, workers=1, games=100, text=WIDE):
    return run_arena(ArenaConfig(bots=bots, players=2, games=games, seed=5, bootstrap=0, workers=workers,
                                 sprt=parse_sprt(text)), game_factory=Game)


@pytest.fixture(scope="module")
def strong_first():
    return sprt_arena((STRONG, WEAK))


def test_arena_accepts_h1_and_stops(strong_first):
    s = strong_first.sprt
    assert s["verdict"] == "H1" and s["stopped_at"]["pairs"] == s["pairs"] < 50
    assert s["pentanomial"] == [0, 0, 0, 0, s["pairs"]] and s["llr"] >= s["bounds"][1]
    # Whole pairs only, in deal order.
    games = strong_first.games
    assert len(games) == 2 * s["pairs"] and [g["deal"] for g in games] == [i // 2 for i in range(len(games))]
    assert strong_first.plan.deals == s["pairs"]
    text = strong_first.table()
    assert "SPRT (logistic Elo)" in text and ": H1" in text


def test_arena_accepts_h0_with_the_bots_swapped():
    s = sprt_arena((WEAK, STRONG)).sprt
    assert s["verdict"] == "H0" and s["pentanomial"][0] == s["pairs"] and s["llr"] <= s["bounds"][0]


def test_arena_inconclusive_at_the_game_cap():
    result = sprt_arena((STRONG, WEAK), games=4, text="elo0=0,elo1=5")
    s = result.sprt
    assert s["verdict"] == "inconclusive" and s["stopped_at"] is None and s["pairs"] == 2
    assert any("inconclusive" in n for n in result.notes)


def test_arena_with_workers_decides_at_the_same_pair(strong_first):
    """Pairs count in deal order, so the verdict and its pair do not depend on the workers; games that
    were running or done at the stop count too, in whole pairs. How many that is depends on the machine:
    while one worker plays a slow game of the deciding pair the other goes on with later deals (a run at load
    6 counted 8 pairs where one worker stopped at 6), so only the lower bound is fixed."""
    result = sprt_arena((STRONG, WEAK), workers=2)
    s2 = result.sprt
    assert s2["verdict"] == "H1" and s2["stopped_at"] == strong_first.sprt["stopped_at"]
    assert strong_first.sprt["pairs"] <= s2["pairs"] and len(result.games) == 2 * s2["pairs"]
    assert [g["deal"] for g in result.games] == [i // 2 for i in range(len(result.games))]


def test_cli_arena_sprt_writes_the_sprt_section(runner, tmp_path):
    out = tmp_path / "r.json"
    result = runner.invoke(cli.app, ["arena", "--bots", f"{STRONG},{WEAK}", "--sprt", WIDE, "--games", "60",
                                     "--seed", "5", "--bootstrap", "0", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "SPRT" in result.stdout and "H1" in result.stdout
    d = json.loads(out.read_text())
    assert d["config"]["sprt"] == {"elo0": 0.0, "elo1": 200.0, "alpha": 0.1, "beta": 0.1}
    s = d["sprt"]
    assert s["verdict"] == "H1" and s["params"]["model"] == "logistic" and len(s["pentanomial"]) == 5
    assert s["elo"] is None and d["games_played"] == 2 * s["pairs"]


@pytest.mark.parametrize("args, fragment", [
    (["--bots", f"{STRONG},{WEAK}", "--sprt", "elo0=0,elo1=20,foo=1"], "unknown key 'foo'"),
    (["--bots", f"{STRONG},{WEAK}", "--sprt", "elo0=5,elo1=5"], "elo1 (5) must be greater than elo0 (5)"),
    (["--bots", f"{STRONG},{WEAK}", "--sprt", "elo0=0,elo1=20,alpha=0.7"], "alpha must lie strictly between"),
    (["--bots", f"{STRONG};{WEAK};ismcts:iterations=5", "--players", "4", "--sprt", "elo0=0,elo1=20"], "two distinct bots, not 3"),
    (["--bots", f"{STRONG},{STRONG}", "--sprt", "elo0=0,elo1=20"], "two distinct bots"),
])
def test_cli_arena_sprt_errors_one_line_exit_2(runner, args, fragment):
    result = runner.invoke(cli.app, ["arena", *args])
    assert result.exit_code == 2, (result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], result.stderr


# --- n players: A in one seat, B in the others (GroupSprtTest)


def test_share_score_is_luce_s_share_and_logistic_at_two_players():
    from burano_ai.arena.sprt import share_elo, share_score
    for n in (2, 3, 4, 5):
        assert share_score(0.0, n) == pytest.approx(1.0 / n)
        for elo in (-150.0, 35.0, 400.0):
            assert share_elo(share_score(elo, n), n) == pytest.approx(elo)
    for elo in (-80.0, 0.0, 20.0, 200.0):
        assert share_score(elo, 2) == pytest.approx(logistic_score(elo))


@pytest.mark.parametrize("players", [3, 4])
def test_group_sprt_accepts_h1_for_a_stronger_bot_and_h0_for_an_equal_one(players):
    from burano_ai.arena.sprt import GroupSprtTest
    rng = np.random.default_rng(players)
    config = SprtConfig(0.0, 40.0)
    strong, equal = GroupSprtTest(config, players), GroupSprtTest(config, players)
    for _ in range(5000):
        if strong.verdict is None:       # A wins 0.6 of its games: far above 1/n
            strong.add_pair(float(sum(rng.random() < 0.6 for _ in range(players))))
        if equal.verdict is None:        # A wins 1/n of its games: the equal baseline
            equal.add_pair(float(sum(rng.random() < 1.0 / players for _ in range(players))))
        if strong.verdict and equal.verdict:
            break
    assert strong.verdict == "H1" and strong.pairs < 60
    assert equal.verdict == "H0"
    assert equal.to_dict()["equal_score"] == pytest.approx(1.0 / players)


def test_the_first_groups_alone_cannot_decide():
    """One group of all wins has a sample variance of 0: the prior variance keeps the LLR finite and small."""
    from burano_ai.arena.sprt import GroupSprtTest
    test = GroupSprtTest(SprtConfig(0.0, 40.0), 3)
    test.add_pair(3.0)
    assert test.verdict is None and 0 < test.llr < test.config.upper


def test_an_sprt_at_three_players_plays_the_first_bot_in_every_seat():
    config = ArenaConfig(bots=["ismcts:iterations=20", "random"], players=3, games=30, seed=2, game="venice-2099",
                         sprt=SprtConfig(0.0, 200.0))
    result = run_arena(config)
    sprt = result.sprt
    assert sprt["players"] == 3 and sprt["params"]["model"] == "luce-3p"
    seatings = {tuple(r["seating"]) for r in result.games}
    assert seatings == {(0, 1, 1), (1, 0, 1), (1, 1, 0)}
    assert sprt["pairs"] * 3 <= len(result.games)
