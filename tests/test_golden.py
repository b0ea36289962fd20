"""Golden outputs: behaviour that a refactor must not change (fixtures in tests/golden/, see record.py there).

A change that alters any of these on purpose re-records them (``python tests/golden/record.py``) in
the same commit and says why in its message; otherwise a failure here is a change nobody meant.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from implementations import IMPLEMENTATIONS

GOLDEN = Path(__file__).resolve().parent / "golden"
sys.path.insert(0, str(GOLDEN))

import record  # noqa: E402  (tests/golden/record.py: how the fixtures were made)

GAMES = json.loads((GOLDEN / "random_games.json").read_text())
SUGGEST = json.loads((GOLDEN / "suggest.json").read_text())


@pytest.mark.parametrize("implementation", sorted(IMPLEMENTATIONS))
@pytest.mark.parametrize("num_players", (2, 3, 4))
def test_random_game_action_sequences(implementation: str, num_players: int) -> None:
    game_class = IMPLEMENTATIONS[implementation]
    expected = [g for g in GAMES if g["players"] == num_players]
    assert expected
    for golden in expected:
        got = record.random_game_record(game_class, golden["players"], golden["seed"])
        assert got == golden, f"{num_players}p seed {golden['seed']}"


def test_the_fixture_covers_200_games() -> None:
    assert len(GAMES) == 200 and {g["players"] for g in GAMES} == {2, 3, 4}


@pytest.mark.parametrize("case", record.SUGGEST_CASES, ids=lambda c: f"{c[0]}-w{c[2]}")
def test_suggest_json(case) -> None:
    name, iterations, workers, extra = case
    key = f"{name}/{iterations}/{workers}{''.join(extra)}"
    assert record.suggest_output(name, iterations, workers, extra) == SUGGEST[key]


def test_positions_are_fixtures() -> None:
    """The suggest positions are committed files, so a change in position generation cannot hide here."""
    for name, *_ in record.POSITIONS:
        assert record.position_path(name).is_file(), name


def test_arena_results(tmp_path: Path) -> None:
    assert record.arena_output(tmp_path) == json.loads((GOLDEN / "arena.json").read_text())


import record_state_api  # noqa: E402  (tests/golden/record_state_api.py)

STATE_API = json.loads((GOLDEN / "state_api.json").read_text())


@pytest.mark.parametrize("case", sorted(STATE_API))
def test_the_compiled_state_api_answers_as_recorded(case: str) -> None:
    """Every compiled State's Python face (keys, views, resamples, priors, text, scores, playouts, pickles)
    over a seeded random game per player count: the proof that writing it once changed nothing."""
    from burano_ai.games import get_spec
    key, _, players = case.partition("/")
    assert record_state_api.state_api_digest(get_spec(key), int(players.rstrip("p"))) == STATE_API[case]


def test_the_state_api_fixture_covers_every_compiled_game() -> None:
    from burano_ai.games import all_specs
    compiled = {s.key for s in all_specs() if "native_search" in s.capabilities}
    assert {case.partition("/")[0] for case in STATE_API} == compiled
