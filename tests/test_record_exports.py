"""One-seat exports replay (issue 34, item 1): every game, every player count, every seat.

A seat's export hides what only the other seats saw (Venice 2099's deal, Walking in Burano's returns,
Burano's blind fish draws); its replay plays the steps in one world of what the seat could not see and
redraws that world from the seat's knowledge only at a step it cannot play (`GameRecord.positions`,
`GameSpec.resample_for_record`). Before, a depth-first search over the hidden steps ran out of its 200,000
steps on every 3-player Venice 2099 export (`illegal move 'play K3'`), and on some Walking in Burano and
4-player Burano exports.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games import all_specs
from burano_ai.record import GameRecord
from burano_ai.session import GameSession

ROOT = Path(__file__).resolve().parent.parent

#: A seed each (game, player count) game is dealt and played from; the failing cases of issue 34 are among
#: them (Venice 2099 at 3-5 players with any seed, Walking in Burano 3 players seed 4, Burano 4 players seed 1).
SEEDS = (1, 4)
CASES = [pytest.param(spec.key, n, id=f"{spec.key}-{n}p")
         for spec in all_specs() for n in range(spec.min_players, spec.max_players + 1)]


def _finished(game: str, players: int, seed: int) -> GameRecord:
    session = GameSession(players, seed, ["random"] * players, game=game)
    session.advance()
    assert session.is_over()
    return GameRecord.from_json(session.record.to_json())


@pytest.mark.parametrize("game,players", CASES)
def test_every_seat_export_replays_to_the_seat_s_view_at_every_step(game, players):
    """Each seat's export, through JSON, replays to what that seat saw before every step and at the end,
    ends with the record's result, and takes well under 2 s for a whole game (the issue's bound)."""
    for seed in SEEDS:
        record = _finished(game, players, seed)
        truth = [[state.to_json(p) for p in range(players)] for _, state in record.positions()]
        for seat in range(players):
            letter = SEAT_LETTERS[seat]
            export = GameRecord.from_json(record.for_seat(letter).to_json())
            started = time.perf_counter()
            views = [state.to_json(seat) for _, state in export.positions()]
            seconds = time.perf_counter() - started
            assert views == [v[seat] for v in truth], f"seed {seed}, seat {letter}"
            assert seconds < 2.0, f"seed {seed}, seat {letter}: {seconds:.2f} s"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_venice_export_redraws_the_hands_once_not_by_trial(players):
    """Venice 2099's hands are shown one card a turn: its own sampler (`resample_for_record`) deals each other
    seat the cards it later plays, so its export's replay draws one world, never a run of blind trials."""
    from burano_ai.games import get_spec
    spec = get_spec("venice-2099")
    for seed in SEEDS:
        record = _finished("venice-2099", players, seed)
        for seat in range(players):
            export = GameRecord.from_json(record.for_seat(SEAT_LETTERS[seat]).to_json())
            drawn: list[int] = []
            final = None
            for _, state in export._export_positions(*export._initial(None), None, drawn):
                final = state
            assert len(drawn) <= 1, (seed, seat, drawn)
            assert final.to_json(seat) == record.replay().to_json(seat)
        # the sampler keeps the seat's view and gives every later play to its player; of a game quit 15
        # steps later it leaves the rest of the hands free (in a finished game they are the later plays)
        ply = next(i for i, s in enumerate(record.steps) if s.move.startswith("play "))
        state = record.replay(ply)
        later = record.steps[ply:ply + 15]
        worlds = {spec.resample_for_record(state, 0, later, k).to_json() for k in range(5)}
        assert len(worlds) > 1
        for text in worlds:
            world = spec.load_position(json.loads(text))[0]
            assert world.to_json(0) == state.to_json(0)
            hands = [entry["hand"] for entry in json.loads(text)["seats"]]
            for step in later:
                if step.move.startswith("play ") and step.actor != "A":
                    assert step.move.split()[1] in hands[SEAT_LETTERS.index(step.actor)]


def test_a_venice_export_quit_early_replays_and_its_hands_stay_below_no_later_play():
    """A game quit after a few turns (issue 34: one quit after 10 moves): the hands at the end hold cards the
    record never shows; every redrawn world keeps each seat's later plays its lowest cards (§5.4)."""
    full = _finished("venice-2099", 3, 4)
    first_play = next(i for i, s in enumerate(full.steps) if s.move.startswith("play "))
    for cut in (first_play + 10, first_play + 25):
        record = GameRecord.from_dict(full.to_dict())
        record.truncate(cut)
        truth = record.replay()
        for seat in range(3):
            export = GameRecord.from_json(record.for_seat(SEAT_LETTERS[seat]).to_json())
            assert export.replay().to_json(seat) == truth.to_json(seat)


def _burano(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)


def test_burano_replay_and_analyse_of_venice_seat_exports_of_random_game_seed_4(tmp_path):
    """The issue's reproduction: `burano random-game --game venice-2099 --seed 4` (3 players), exported for
    each seat, replays with `burano replay` (the seat's view at the end) and `burano analyse` reads it."""
    path = tmp_path / "game.json"
    made = _burano("random-game", "--game", "venice-2099", "--seed", "4", "--record", str(path))
    assert made.returncode == 0, made.stderr
    record = GameRecord.load(path)
    assert record.players == 3
    for seat in range(3):
        letter = SEAT_LETTERS[seat]
        export = tmp_path / f"{letter}.json"
        record.for_seat(letter).save(export)
        shown = _burano("replay", str(export), "--json")
        assert shown.returncode == 0, shown.stderr
        assert json.loads(shown.stdout) == json.loads(record.replay().to_json(seat))
    analysed = _burano("analyse", str(tmp_path / "B.json"), "--seat", "B", "--iterations", "20", "--json")
    assert analysed.returncode == 0, analysed.stderr
