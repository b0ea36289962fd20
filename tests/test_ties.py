"""Honest ties (issue 21 item 3): `suggest`, the engine protocol and the web analysis say when the top moves
are statistically tied and name them (`search.result.tied_candidates`).

The end-to-end position is a constructed Goofspiel endgame with two equal best moves: seat A holds bids
2 and 3, seat B holds 1 and 4, prizes 3 (now) and 4 (last) remain. Whatever B bids, A's two bids lead to
the same outcome (B's 1 loses to both, B's 4 beats both, and the last round is decided the same way), so
the two moves are exactly equal and any search must call them tied.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from burano_ai.engine import check_runner_ups, load_position, suggest
from burano_ai.games.goofspiel.position import Position, position_to_json
from burano_ai.core.errors import OptionError
from burano_ai.games import game_keys, get_spec
from burano_ai.search import Limit, Params
from burano_ai.search.result import (LCB_Z, TIE_MARGIN, TIE_Z, Candidate, SearchResult, starved_candidates, tie_text,
                                     tied_candidates)
from burano_ai.web.analysis import result_payload

REPO = Path(__file__).resolve().parents[1]
EQUAL = {"bid 2", "bid 3"}


@pytest.fixture(scope="module")
def symmetric(tmp_path_factory) -> Path:
    """The Goofspiel endgame with two equal best moves (the module docstring), as a position file."""
    position = Position(2, 4, "ascending")
    position.hands = [[2, 3], [1, 4]]
    position.prizes_left = [4]
    position.prize = 3
    position.won = [[2], [1]]
    path = tmp_path_factory.mktemp("ties") / "symmetric.json"
    path.write_text(position_to_json(position))
    return path


def candidate(move: str, visits: int, value: float, stderr: float) -> Candidate:
    return Candidate(action=len(move), move=move, visits=visits, value=value, win_prob=value, expected_vp=0.0,
                     expected_margin=0.0, lcb=value - LCB_Z * stderr)


# --- the rule


def test_overlapping_values_are_tied_and_named_best_first():
    best, close, far = (candidate("a", 5000, 0.60, 0.01), candidate("b", 4000, 0.601 - TIE_MARGIN, 0.001),
                        candidate("c", 3000, 0.40, 0.01))
    assert close.stderr == pytest.approx(0.001)                 # tied by the margin alone
    assert tied_candidates([best, close, far]) == (best, close)
    assert tied_candidates([best, far]) == ()                    # settled: 0.2 apart, errors of 0.01
    assert tied_candidates([best]) == ()


def test_the_standard_errors_widen_the_tie_beyond_the_margin():
    best = candidate("a", 400, 0.60, 0.04)
    gap = TIE_MARGIN + 0.03
    inside = candidate("b", 400, 0.60 - gap, 0.04)                   # beyond the margin, within 2 × 0.057
    outside = candidate("c", 400, 0.60 - gap, 0.005)                 # sure of themselves: not tied
    assert TIE_Z * (0.04 ** 2 + 0.04 ** 2) ** 0.5 > gap + 1e-9
    assert tied_candidates([best, inside]) == (best, inside)
    assert tied_candidates([candidate("a", 400, 0.60, 0.005), outside]) == ()


def test_a_rarely_tried_move_is_never_called_tied():
    """A wide interval from few visits means the search left the move, not that it may be best."""
    best, rare = candidate("a", 10000, 0.60, 0.005), candidate("b", 500, 0.60, 0.2)
    assert tied_candidates([best, rare]) == ()


def test_the_tie_line_names_a_few_and_counts_the_rest():
    many = tuple(candidate(f"m{i}", 1000, 0.5, 0.01) for i in range(8))
    text = tie_text(tied_candidates(many))
    assert text.startswith("tied: m0, m1, m2, m3, m4 and 3 more (statistically tied")
    assert tie_text(()) == ""


# --- the tie margin of each game (Params.tie_margin, issue 33)


def test_a_wider_margin_ties_what_the_default_one_leaves_settled():
    best, behind = candidate("a", 5000, 0.60, 0.005), candidate("b", 4000, 0.53, 0.005)
    assert tied_candidates([best, behind]) == ()                             # 0.07 apart: settled at 0.05
    assert tied_candidates([best, behind], (), 0.08) == (best, behind)
    result = SearchResult(seat=0, action=best.action, move="a", candidates=(best, behind), pv=(), iterations=9000,
                          elapsed=1.0, iterations_per_second=9e3, seed=0, tie_margin=0.08)
    assert result.tied == (best, behind) and "values within 0.08 " in result.tie_text


def test_the_margin_is_checked_and_reaches_the_result(symmetric):
    for bad in (-0.01, 1.0, "0.1", True, float("nan")):
        with pytest.raises(OptionError, match="tie_margin must lie in"):
            Params(tie_margin=bad)
    result = suggest(symmetric.read_text(), limit=Limit(iterations=500), seed=0, threads=1,
                     params=Params(tie_margin=0.2))
    assert result.tie_margin == 0.2


def test_every_game_searches_with_its_own_measured_margin():
    """Each game's default search sets the margin its seed splits were measured to need at `burano suggest`'s
    default search (docs/strength.md, "A tie margin per game"); a game not measured keeps the default."""
    measured = {"burano": 0.05, "goofspiel": 0.07, "azul-sintra": 0.07, "walking-in-burano": 0.06,
                "venice-2099": 0.10}
    for key in game_keys():
        assert Params(**get_spec(key).search_defaults).tie_margin == measured.get(key, TIE_MARGIN), key
    assert suggest(get_spec("venice-2099").example_position(), limit=Limit(iterations=300), seed=1,
                   threads=1).tie_margin == 0.10


# --- suggest, the CLI, the protocol and the web analysis on the symmetric position


def test_suggest_says_the_two_equal_moves_are_tied(symmetric):
    for seed in (0, 1, 2):
        result = suggest(symmetric.read_text(), limit=Limit(iterations=3000), seed=seed, threads=1)
        assert {c.move for c in result.tied} == EQUAL, (seed, result.tie_text)
        assert result.tied[0].move == result.move
        assert result.to_dict()["tied"] == [c.move for c in result.tied]
        assert result.tie_text in str(result)


def test_the_cli_text_and_json_say_tied(symmetric):
    runner = CliRunner()
    text = runner.invoke(cli.app, ["suggest", str(symmetric), "--iterations", "3000", "--threads", "1"])
    assert text.exit_code == 0, text.output
    line = next(line for line in text.stdout.splitlines() if line.startswith("tied: "))
    assert set(line.split(" (")[0].removeprefix("tied: ").split(", ")) == EQUAL
    data = json.loads(runner.invoke(cli.app, ["suggest", str(symmetric), "--iterations", "3000", "--threads", "1",
                                              "--json"]).stdout)
    assert set(data["tied"]) == EQUAL and data["tied"][0] == data["move"]


def test_a_settled_answer_says_no_tie():
    """A clear best move: `tied` is [] and no tie line is printed."""
    best, far = candidate("a", 9000, 0.8, 0.004), candidate("b", 1000, 0.5, 0.015)
    result = SearchResult(seat=0, action=best.action, move="a", candidates=(best, far), pv=(), iterations=10000,
                          elapsed=1.0, iterations_per_second=1e4, seed=0)
    assert result.tied == () and result.to_dict()["tied"] == [] and "tied:" not in str(result)


def test_the_engine_protocol_names_the_tied_moves(symmetric):
    query = json.dumps({"id": "t", "position": json.loads(symmetric.read_text()), "maxIterations": 3000})
    proc = subprocess.run([sys.executable, "-m", "cli", "engine", "--threads", "1"], input=query + "\n",
                          capture_output=True, text=True, cwd=REPO, timeout=120)
    final = json.loads(proc.stdout.splitlines()[-1])
    assert final["isDuringSearch"] is False
    assert set(final["rootInfo"]["tied"]) == EQUAL and final["rootInfo"]["tied"][0] == final["move"]


def test_the_web_analysis_payload_names_the_tied_moves(symmetric):
    result = suggest(symmetric.read_text(), limit=Limit(iterations=3000), seed=0, threads=1)
    assert set(result_payload(result, True)["tied"]) == EQUAL


#: Azul, 2 players, game 2 decision 21 of bench/seed_agreement.py: five seeds of `burano suggest` split between
#: `C B>1`, `C G>1` and `C G>3`. Seed 5 did not settle within its 10 s and named no tie: `C G>1` had 154,671
#: visits at 0.298, `C B>1` kept the 14,716 visits and 0.249 it had when `C G>1` took over (under the visit
#: floor, a tenth of the top's), and searched on its own it reaches 0.300 (issue 33; docs/strength.md, "Exp3 bids").
AZUL_STARVED = json.loads(
    '{"format":"azul-sintra-position/1","view":null,"players":2,"side":"A","first_player":"A","data":null'
    ',"phase":"draft","round":2,"turn":22,"to_move":"A","starter":"B","token":"B","indicator":["B","Y","G'
    '","B","P","O"],"bag":{"P":15,"O":12,"Y":10,"B":8,"G":9},"tower":{"P":3,"O":5,"Y":4,"B":3,"G":3},"fac'
    'tories":["","","","",""],"centre":"BBGGG","keep":null,"seats":[{"score":-18,"track":3,"hits":1,"glaz'
    'ier":1,"columns":[{"strip":8,"face":"a","pieces":"","jokers":"","window":[null,null]},{"strip":1,"fa'
    'ce":"a","pieces":"","jokers":"","window":[null,null]},{"strip":7,"face":"b","pieces":"","jokers":"",'
    '"window":[null,null]},{"strip":5,"face":"a","pieces":"GGG","jokers":"","window":[null,null]},{"strip'
    '":4,"face":"b","pieces":"","jokers":"","window":[null,null]},{"strip":3,"face":"a","pieces":"","joke'
    'rs":"","window":[null,null]},{"strip":2,"face":"a","pieces":"YB","jokers":"","window":[null,null]},{'
    '"strip":6,"face":"b","pieces":"BBG","jokers":"","window":[null,null]}]},{"score":-18,"track":0,"hits'
    '":1,"glazier":8,"columns":[{"strip":8,"face":"a","pieces":"Y","jokers":"","window":[null,null]},{"st'
    'rip":4,"face":"a","pieces":"","jokers":"","window":[null,null]},{"strip":1,"face":"a","pieces":"PY",'
    '"jokers":"","window":[null,null]},{"strip":5,"face":"a","pieces":"","jokers":"","window":[null,null]'
    '},{"strip":3,"face":"b","pieces":"","jokers":"","window":[null,null]},{"strip":6,"face":"b","pieces"'
    ':"","jokers":"","window":[null,null]},{"strip":2,"face":"a","pieces":"OOYB","jokers":"","window":[nu'
    'll,null]},{"strip":7,"face":"a","pieces":"YBB","jokers":"","window":[null,null]}]}]}'
)


def test_a_runner_up_starved_under_the_visit_floor_is_found_and_checked_on_its_own():
    """`starved_candidates`: the runner-ups within the tie margin that the tie rule leaves out only for their visits;
    `burano suggest` checks them on their own when it does not settle. 200,000 iterations on 2 trees with seed 5
    give seed 5's answer again: no tie. Checked, `C B>1` and `C G>3` are as good as `C G>1` (the other seeds'
    answers)."""
    spec = get_spec("azul-sintra")
    state = load_position(AZUL_STARVED)[0]
    params = Params(**spec.search_defaults)
    result = suggest(state, limit=Limit(iterations=200_000), params=params, seed=5, trees=2)
    assert result.move == "C G>1" and result.tied == ()
    starved = starved_candidates(result.candidates, result.tied, result.tie_margin)
    assert [c.move for c in starved][:2] == ["C B>1", "C G>3"]
    assert all(c.visits < 0.1 * result.best.visits for c in starved)
    checked = check_runner_ups(state, result, 2, runners=starved, params=params, trees=2)
    assert {c.move for c in checked.tied} == {"C B>1", "C G>1", "C G>3"}
    assert sum(note.startswith("checked ") for note in checked.notes) == 2


def test_only_runner_ups_under_the_floor_and_within_the_margin_are_starved():
    def cand(action, visits, value, stderr=0.002):
        return Candidate(action, f"m{action}", visits, value, 0.5, 0.0, 0.0, lcb=value - 2 * stderr)
    best, under, far, visited = cand(0, 150_000, 0.298), cand(1, 14_000, 0.249), cand(2, 9_000, 0.20), \
        cand(3, 40_000, 0.21)
    assert starved_candidates([best, under, far, visited], margin=0.07) == (under,)
    assert starved_candidates([best, under], tied=(best, under), margin=0.07) == ()
    assert starved_candidates([best], margin=0.07) == ()
