"""Arena records and pairings: `burano arena --records DIR` writes every game's record (burano-game/1) that
replays to the recorded scores in both rules implementations; more bots than seats play a round robin over
seatings, `--gauntlet` the first bot against the field."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest

import cli
from burano_ai import Game
from burano_ai.arena import ArenaConfig, make_plan, parse_sprt, run_arena
from burano_ai.arena.stats import head_to_head
from burano_ai.core.errors import OptionError
from burano_ai.record import GameRecord
from burano_ai.games.burano.reference import Game as ReferenceGame

BOTS = ("random", "greedy:samples=1", "greedy:samples=2")


def test_records_replay_to_the_recorded_scores_in_both_implementations(tmp_path):
    folder = tmp_path / "records"
    result = run_arena(ArenaConfig(bots=("random", "greedy:samples=1"), players=3, games=3, seed=11, bootstrap=0),
                       game_factory=Game, records=folder)
    files = sorted(p.name for p in folder.iterdir())
    assert files == [f"game-{i:05d}.json" for i in range(len(result.games))] and len(files) == 3
    for game in result.games:
        record = GameRecord.load(folder / game["record"])
        assert record.players == 3 and record.seed == game["deal_seed"]
        assert [s.player for s in record.seats] == [result.plan.entries[e] for e in game["seating"]]
        assert record.result["scores"] == game["scores"]
        assert len(record.steps) == game["length"]
        for factory in (Game, ReferenceGame):
            state = record.replay(game_factory=factory)
            assert state.is_terminal()
            assert [int(v) for v in state.scores()] == game["scores"], factory
    # The results name each game's record; without --records they carry none.
    assert all("record" not in g for g in run_arena(ArenaConfig(bots=("random",), games=1, bootstrap=0)).games)


def test_records_are_reproducible_and_do_not_change_the_games(tmp_path):
    config = ArenaConfig(bots=BOTS[:2], players=2, games=2, seed=4, bootstrap=0)
    plain = run_arena(config, game_factory=Game)
    a = run_arena(config, game_factory=Game, records=tmp_path / "a")
    b = run_arena(ArenaConfig(**{**config.__dict__, "workers": 2}), game_factory=Game, records=tmp_path / "b")
    assert [g["scores"] for g in a.games] == [g["scores"] for g in plain.games] == [g["scores"] for g in b.games]
    for game in a.games:
        ra = json.loads((tmp_path / "a" / game["record"]).read_text())
        rb = json.loads((tmp_path / "b" / game["record"]).read_text())
        ra.pop("date"), rb.pop("date")
        assert ra == rb


def test_round_robin_three_bots_two_seats():
    plan = make_plan(ArenaConfig(bots=BOTS, players=2, games=6))
    assert plan.pairing == "round-robin"
    assert plan.entries == BOTS
    assert plan.lineups == ((0, 1), (0, 2), (1, 2))
    assert plan.seatings == ((0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1))
    assert plan.deals == 1 and plan.games == 6


def test_round_robin_played_every_pair_in_both_seats_on_one_deal():
    result = run_arena(ArenaConfig(bots=BOTS, players=2, games=6, seed=2, bootstrap=0), game_factory=Game)
    pairs = Counter(tuple(g["seating"]) for g in result.games)
    assert set(pairs) == {p for p in itertools.permutations(range(3), 2)} and set(pairs.values()) == {1}
    assert len({g["deal_seed"] for g in result.games}) == 1
    assert [e["seats_played"] for e in result.entries] == [4, 4, 4]
    d = result.to_dict()
    assert d["pairing"] == "round-robin" and d["lineups"] == [[0, 1], [0, 2], [1, 2]]
    assert "round-robin: 3 lineups of 3 bots" in result.table()
    # Head to head: each pair met twice (both seatings of the deal); the two scores of a pair add up to 1.
    h2h = d["head_to_head"]
    assert h2h["meetings"] == [[0, 2, 2], [2, 0, 2], [2, 2, 0]]
    for i, j in itertools.permutations(range(3), 2):
        assert h2h["score"][i][j] + h2h["score"][j][i] == pytest.approx(1.0)
    assert all(h2h["score"][i][i] is None for i in range(3))
    assert "head to head" in result.table()


def test_gauntlet_pairs_the_first_bot_with_the_field():
    bots = ("random", "greedy:samples=1", "greedy:samples=2", "greedy:samples=3")
    plan = make_plan(ArenaConfig(bots=bots, players=2, gauntlet=True))
    assert plan.pairing == "gauntlet"
    assert plan.lineups == ((0, 1), (0, 2), (0, 3))
    assert plan.seatings == ((0, 1), (1, 0), (0, 2), (2, 0), (0, 3), (3, 0))
    three = make_plan(ArenaConfig(bots=bots, players=3, gauntlet=True))
    assert three.lineups == ((0, 1, 2), (0, 1, 3), (0, 2, 3))
    assert all(0 in s for s in three.seatings) and len(three.seatings) == 3 * 6
    # Four players: four distinct bots per lineup, rotations (auto: 24 permutations are too many).
    four = make_plan(ArenaConfig(bots=bots + ("greedy:samples=4",), players=4, gauntlet=True))
    assert four.lineups == ((0, 1, 2, 3), (0, 1, 2, 4), (0, 1, 3, 4), (0, 2, 3, 4))
    assert len(four.seatings) == 4 * 4


def test_round_robin_four_bots_three_seats_every_seat_equally():
    plan = make_plan(ArenaConfig(bots=BOTS + ("greedy",), players=3))
    assert plan.lineups == tuple(itertools.combinations(range(4), 3))
    for e in range(4):
        counts = [sum(1 for s in plan.seatings if s[p] == e) for p in range(3)]
        assert len(set(counts)) == 1, counts


def test_fewer_bots_than_seats_keep_the_lineup():
    plan = make_plan(ArenaConfig(bots=("random", "greedy"), players=4))
    assert plan.pairing == "lineup" and plan.lineups == ((0, 1, 0, 1),)


@pytest.mark.parametrize("kwargs, fragment", [
    (dict(bots=("random", "greedy", "greedy"), players=2), "bot 'greedy' is listed twice"),
    (dict(bots=("random", "greedy"), players=3, gauntlet=True), "a gauntlet at 3 players needs at least 3 bots"),
    (dict(bots=BOTS, players=2, sprt=parse_sprt("elo0=0,elo1=10")), "--sprt compares two bots"),
])
def test_bad_pairings(kwargs, fragment):
    with pytest.raises(OptionError, match=fragment):
        make_plan(ArenaConfig(**kwargs))


def test_cli_arena_records_and_gauntlet(runner, tmp_path):
    folder = tmp_path / "recs"
    out = tmp_path / "results.json"
    result = runner.invoke(cli.app, ["arena", "--bots", "random,greedy:samples=1,greedy:samples=2", "--gauntlet",
                                     "--games", "4", "--seed", "5", "--bootstrap", "0", "--records", str(folder),
                                     "--out", str(out)])
    assert result.exit_code == 0, (result.output, result.exception)
    assert "gauntlet: 2 lineups of 3 bots" in result.stdout
    assert f"4 game records written to {folder}" in result.stdout
    d = json.loads(out.read_text())
    assert d["config"]["gauntlet"] is True and d["lineups"] == [[0, 1], [0, 2]]
    assert sorted(p.name for p in folder.iterdir()) == sorted(g["record"] for g in d["games"])
    replay = runner.invoke(cli.app, ["replay", str(folder / d["games"][0]["record"]), "--quiet"])
    assert replay.exit_code == 0, replay.output
    scores = d["games"][0]["scores"]
    assert f"A {scores[0]} VP, B {scores[1]} VP" in replay.stdout


@pytest.mark.parametrize("make, fragment", [
    (lambda tmp: tmp / "missing" / "deeper", "no such directory"),
    (lambda tmp: (tmp / "file.txt").write_text("x") and tmp / "file.txt", "not a directory"),
])
def test_cli_arena_bad_records_dir_one_line_exit_2(runner, tmp_path, make, fragment):
    result = runner.invoke(cli.app, ["arena", "--bots", "random", "--games", "1", "--records", str(make(tmp_path))])
    assert result.exit_code == 2, (result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --records") and fragment in lines[0], result.stderr


def test_head_to_head_counts_every_seat_pair():
    games = [{"seating": [0, 1, 1], "tiebreak": [[50, 0, 0], [60, 0, 0], [40, 0, 0]]},
             {"seating": [2, 0, 1], "tiebreak": [[30, 1, 2], [30, 1, 2], [10, 0, 0]]}]
    score, meetings = head_to_head(games, 3)
    assert meetings == [[0, 3, 1], [3, 0, 1], [1, 1, 0]]
    assert score[0][1] == pytest.approx(2 / 3) and score[1][0] == pytest.approx(1 / 3)
    assert score[0][2] == 0.5 and score[2][1] == 1.0 and score[1][1] is None


def test_records_with_an_sprt(tmp_path):
    config = ArenaConfig(bots=("random", "greedy:samples=1"), players=2, games=4, seed=1, bootstrap=0,
                         sprt=parse_sprt("elo0=0,elo1=10"))
    result = run_arena(config, game_factory=Game, records=tmp_path)
    assert result.sprt["pairs"] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(g["record"] for g in result.games)


def test_records_of_an_arena_on_the_reference_rules_replay_in_the_compiled_core(tmp_path):
    result = run_arena(ArenaConfig(bots=("random", "greedy:samples=1"), players=2, games=2, seed=9, bootstrap=0),
                       game_factory=ReferenceGame, records=tmp_path)
    compiled = run_arena(ArenaConfig(bots=("random", "greedy:samples=1"), players=2, games=2, seed=9, bootstrap=0),
                         game_factory=Game)
    assert [g["scores"] for g in result.games] == [g["scores"] for g in compiled.games]
    for game in result.games:
        record = GameRecord.load(tmp_path / game["record"])
        for factory in (Game, ReferenceGame):
            assert [int(v) for v in record.replay(game_factory=factory).scores()] == game["scores"]
