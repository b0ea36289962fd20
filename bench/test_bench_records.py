"""Game records: replaying a full-length 4-player record, in process and end to end through the CLI.

    python -m pytest bench/test_bench_records.py --benchmark-only
    python bench/test_bench_records.py          # end to end: `burano replay` / `burano apply` wall time

Target (issue 12): `burano apply` / `burano replay` on a full-length 4-player record under 1 s end to end.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from burano_ai.random_play import sample_chance
from burano_ai.record import GameRecord, SeatInfo, apply_moves

ROOT = Path(__file__).resolve().parents[1]


def full_record(players: int = 4, seed: int = 11) -> GameRecord:
    record = GameRecord.new(players, seed, [SeatInfo(f"r{i}", "random") for i in range(players)])
    state = record.initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        record.add(state, action)
        state.apply_action(action)
    record.finish(state)
    return record


@pytest.fixture(scope="module")
def record4() -> GameRecord:
    return full_record()


def test_parse_and_replay_full_4p_record(benchmark, record4):
    text = record4.to_json()
    final = benchmark(lambda: GameRecord.from_json(text).replay())
    assert final.scores() == record4.result["scores"]


def test_replay_one_seat_export(benchmark, record4):
    export = record4.for_seat("A")
    final = benchmark(export.replay)
    assert final.scores() == record4.result["scores"]


def test_apply_every_move_of_a_full_game(benchmark, record4):
    start = record4.initial_state()
    moves = [s.move for s in record4.steps]
    final, _ = benchmark(apply_moves, start, moves)
    assert final.is_terminal()


def _wall(args: list[str], runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


if __name__ == "__main__":
    record = full_record()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game4.json"
        record.save(path)
        start = Path(tmp) / "start.json"
        start.write_text(record.initial_state().to_json())
        cli = [sys.executable, str(ROOT / "cli.py")]
        moves = ";".join(s.move for s in record.steps)
        rows = [
            ("python -c pass (interpreter start)", _wall([sys.executable, "-c", "pass"])),
            ("burano --help (start-up)", _wall(cli + ["--help"])),
            (f"burano replay, {len(record.steps)}-step 4p record, --json", _wall(cli + ["replay", str(path), "--json"])),
            ("burano replay --ply 300 --seat B (board + listing)", _wall(cli + ["replay", str(path), "--ply", "300",
                                                                                "--seat", "B"])),
            (f"burano apply, all {len(record.steps)} steps of the game", _wall(cli + ["apply", str(start), moves,
                                                                                      "-o", str(Path(tmp) / "o.json")])),
        ]
    for name, seconds in rows:
        print(f"{name:<55} {seconds * 1000:7.0f} ms (median of 7)")
