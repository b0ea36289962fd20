"""Azul: Stained Glass of Sintra positions: the `azul-sintra-position/1` JSON, its schema, strict validation
with one-line errors naming the field, one-seat views, and the terminal rendering."""

from __future__ import annotations

import copy
import re
import json
import random
from pathlib import Path

import pytest

from burano_ai.core.errors import PositionError
from burano_ai.games import get_spec
from burano_ai.games.azul_sintra.position import position_from_dict, position_from_json
from burano_ai.games.azul_sintra.reference import Game
from positions import check_every_view, item_parent, random_game_states

ROOT = Path(__file__).resolve().parents[3]
jsonschema = pytest.importorskip("jsonschema")
SCHEMA = json.loads((ROOT / "docs" / "azul-sintra-position.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def positions(n, side="A", seed=0, every=7):
    """Every `every`-th state of a seeded random game, and the last (one state advanced in place)."""
    return random_game_states(n, seed, every, lambda players: Game(players, side))


def test_the_schema_is_valid_and_accepts_every_position_of_random_games_full_and_viewed():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    count = 0
    for n, side in ((2, "A"), (3, "B"), (4, "A")):
        for s in positions(n, side, seed=n):
            count += check_every_view(VALIDATOR, s)
    assert count > 300


def test_a_one_seat_view_is_the_full_position_apart_from_its_view_field():
    for s in positions(3, seed=4, every=31):
        full = s.to_dict()
        for seat in range(3):
            view = s.to_dict(seat)
            assert view.pop("view") == "ABC"[seat]
            full.pop("view", None)
            assert view == full
            assert s.game.state_from_json(s.to_json(seat)).to_json() == s.to_json()


def _mid_game():
    return next(s for i, s in enumerate(positions(2, seed=9, every=1)) if i > 150 and s.phase == 2).to_dict()


@pytest.mark.parametrize("edit, field", [
    (lambda d: d.update(players=5), "position.players"),
    (lambda d: d.update(side="C"), "position.side"),
    (lambda d: d.update(extra=1), "position.extra"),
    (lambda d: d.pop("bag"), "position.bag"),
    (lambda d: d.update(round=7), "position.round"),
    (lambda d: d.update(phase="bidding"), "position.phase"),
    (lambda d: d.update(to_move=None), "position.to_move"),
    (lambda d: d.update(token="E"), "position.token"),
    (lambda d: d["bag"].update(P=d["bag"]["P"] + 1), "position.bag"),
    (lambda d: d.update(factories=d["factories"][:4]), "position.factories"),
    (lambda d: d["factories"].__setitem__(0, "PPPPP"), "position.factories[0]"),
    (lambda d: d["factories"].__setitem__(0, "PPX"), "position.factories[0]"),
    (lambda d: d["indicator"].__setitem__(2, d["indicator"][3]), "position.indicator"),
    (lambda d: d["seats"][0].update(track=8), "position.seats[0].track"),
    (lambda d: d["seats"][1].update(glazier=0), "position.seats[1].glazier"),
    (lambda d: d["seats"][0]["columns"][0].update(strip=d["seats"][0]["columns"][1]["strip"]), "position.seats[0].columns"),
    (lambda d: d["seats"][0]["columns"][2].update(face="c"), "position.seats[0].columns[2].face"),
    (lambda d: d["seats"][0]["columns"][2].update(window=["P"]), "position.seats[0].columns[2].window"),
    (lambda d: d["seats"][0]["columns"][2].update(window=[None, "P"]), "position.seats[0].columns[2].window"),
    (lambda d: d.update(keep={"column": 1, "pieces": "PPPPP"}), "position.keep"),
    (lambda d: d.update(view="D"), "position.view"),
    (lambda d: d.update(data={"format": "x"}), "position.data"),
])
def test_a_malformed_or_impossible_position_is_one_line_naming_the_field(edit, field):
    d = copy.deepcopy(_mid_game())
    edit(d)
    with pytest.raises(PositionError) as e:
        position_from_dict(d)
    message = str(e.value)
    assert message.startswith(field) and "\n" not in message, message


def test_pieces_on_a_strip_must_fit_its_face_and_jokers_only_on_the_joker_face():
    d = _mid_game()
    col = d["seats"][0]["columns"][0]
    face = col["face"]
    strip = col["strip"]
    from burano_ai.games.azul_sintra.data import default_data
    printed = default_data().faces[strip - 1]["ab".index(face)]
    missing = next(x for x in "POYBG" if x not in printed)
    bad = copy.deepcopy(d)
    bad["seats"][0]["columns"][0]["pieces"] = missing
    bad["bag"][missing] -= 1
    with pytest.raises(PositionError, match=r"^position\.seats\[0\]\.columns\[0\]\.pieces: 1 . on a face with 0"):
        position_from_dict(bad)


def test_position_text_errors():
    with pytest.raises(PositionError, match="not valid JSON"):
        position_from_json("{")
    with pytest.raises(PositionError, match="position.format"):
        position_from_json('{"format": "goofspiel-position/1"}')
    with pytest.raises(TypeError):
        position_from_json(3)


def test_the_terminal_board_fits_80_by_24_and_says_the_data_is_a_placeholder():
    spec = get_spec("azul-sintra")
    for s in positions(4, seed=2, every=60):
        text = spec.render(s.to_dict())
        lines = text.rstrip("\n").split("\n")
        assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
        assert "PLACEHOLDER DATA" in lines[0]
    assert "placeholder_data" in spec.capabilities and spec.is_placeholder()


def test_the_spec_loads_positions_with_their_own_side_and_data():
    spec = get_spec("azul-sintra")
    from burano_ai.games.azul_sintra.data import default_data
    data = default_data().to_dict()
    data["placeholder"] = False
    data["name"] = "corrected boards"
    for implementation in spec.implementations:
        game = spec.new_game(3, implementation, side="B", first_player=2, data=data)
        s = game.new_initial_state()
        while s.is_chance_node():
            s.apply_action(s.chance_outcomes()[-1][0])
        d = json.loads(s.to_json(1))
        state, view = spec.load_position(d, spec.game_class(implementation))
        assert view == 1 and state.to_json(1) == s.to_json(1) and state.current_player() == 2
        assert not spec.is_placeholder(d) and "PLACEHOLDER" not in spec.render(d)


def test_a_record_narrates_every_step_publicly():
    from burano_ai.session import GameSession
    spec = get_spec("azul-sintra")
    session = GameSession(2, 3, ["random", "random"], game="azul-sintra")
    session.advance()
    steps = session.record.steps
    texts = [spec.narrate_step(step, False) for step in steps]
    assert texts[0].startswith("setup: S") and texts[1].startswith("setup: face ")
    assert any(t.startswith("setup: indicator VI ") for t in texts) and any(t.startswith("draw ") for t in texts)
    assert any(re.match(r"^[AB]: (F\d|C) [POYBG]>[1-8x]$", t) for t in texts)
    assert all(step.seen_by is None for step in steps)                  # perfect information
    assert spec.hidden_in_export(steps, 0) == set()


JUNK = [None, True, -1, 0, 1, 3, 7, 9, 99, 10**9, -10**9, 2.5, "", "A", "P", "PPPPPP", "centre", "J", [], [None],
        [1, 2], {}, {"P": 1}]


def _paths(node, prefix=()):
    """Every (path, value) in a JSON tree."""
    yield prefix, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


def test_fuzzed_positions_load_as_a_checked_state_or_fail_in_one_line():
    """Random edits of real positions: never a traceback, only a one-line PositionError, or a state that
    passes every invariant and can be played (a legal move, a chance outcome, or the end)."""
    rng = random.Random(13)
    bases = [s.to_dict(rng.choice([None, 0])) for s in positions(3, "B", seed=5, every=23)]
    loaded = refused = 0
    for trial in range(1500):
        d = copy.deepcopy(rng.choice(bases))
        for _ in range(rng.choice([1, 1, 2])):
            path, _value = rng.choice([p for p in _paths(d) if p[0]])
            target = item_parent(d, path)
            if rng.random() < 0.1 and isinstance(target, dict):
                del target[path[-1]]
            else:
                target[path[-1]] = copy.deepcopy(rng.choice(JUNK))
        try:
            pos = position_from_dict(d)
        except PositionError as e:
            assert "\n" not in str(e) and str(e).startswith("position"), str(e)
            refused += 1
            continue
        state = Game(3, pos.side, pos.first_player, pos.data).state_from_position(pos)
        state.check()
        assert state.is_terminal() or state.legal_actions() or state.chance_outcomes()
        loaded += 1
    assert refused > 1000 and loaded > 10
