"""docs/position.schema.json against the loader (burano_ai.games.burano.notation): the published schema never rejects a
position the loader accepts, and the malformed inputs below are rejected by both.

The schema checks structure, names and ranges; the loader checks more (conservation, each phase's
context, legal moves), so the agreement tested is one way for valid input (loader accepts => schema
accepts) and both ways for the malformed cases listed here.
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

from burano_ai import Game as CoreGame  # noqa: E402
from burano_ai.games.burano import topology  # noqa: E402
from burano_ai.games.burano.data.colours import COLOURS  # noqa: E402
from burano_ai.games.burano.data.fish import SPECIES  # noqa: E402
from burano_ai.games.burano.enums import CHANCE_KIND_NAMES, PHASE_NAMES, STAGE_NAMES  # noqa: E402
from burano_ai.core.errors import PositionError  # noqa: E402
from burano_ai.games.burano.notation import BUILDING_NAMES, position_from_dict, position_from_json  # noqa: E402

from positions import random_game_states  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "docs" / "position.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
EXAMPLE = json.loads(resources.files("burano_ai.games.burano.data").joinpath("examples/midgame-4p-C.json").read_text("utf-8"))
GOLDEN = sorted((ROOT / "tests" / "golden" / "positions").glob("*.json"))


def schema_errors(data) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in VALIDATOR.iter_errors(data)]


def test_the_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_the_schema_names_are_the_loaders_names():
    defs = SCHEMA["$defs"]
    assert defs["colour"]["enum"] == list(COLOURS)
    assert defs["species"]["enum"] == list(SPECIES)
    assert defs["building"]["enum"] == list(BUILDING_NAMES)
    assert defs["hole"]["enum"] == list(topology.HOLE_NAMES)
    assert defs["square"]["enum"] == list(topology.SQUARE_NAMES)
    assert defs["routeNode"]["enum"] == list(topology.ROUTE_NODE_NAMES)
    assert defs["chanceKind"]["enum"] == list(CHANCE_KIND_NAMES)
    assert SCHEMA["properties"]["phase"]["enum"] == list(PHASE_NAMES)
    assert SCHEMA["properties"]["stage"]["enum"] == list(STAGE_NAMES)


@pytest.mark.parametrize("path", GOLDEN + ["example"], ids=lambda p: getattr(p, "name", p))
def test_fixture_positions_satisfy_the_schema(path):
    data = EXAMPLE if path == "example" else json.loads(path.read_text(encoding="utf-8"))
    position_from_dict(copy.deepcopy(data))   # the loader accepts it ...
    assert schema_errors(data) == []          # ... and so does the schema


@pytest.mark.parametrize("num_players, seed", [(2, 21), (3, 22), (4, 23)])
def test_positions_of_random_games_satisfy_the_schema(num_players, seed):
    """Full positions and every seat's view, through a whole game of the compiled core."""
    phases = set()
    for state in random_game_states(num_players, seed, every=9, game_class=CoreGame):
        for seat in [None, *range(num_players)]:
            text = state.to_json(seat)
            position_from_json(text)
            data = json.loads(text)
            assert schema_errors(data) == [], (seat, data["phase"])
            phases.add(data["phase"])
    assert {"roof-pick", "pyramid", "turn", "chance", "game-over"} <= phases


def _set(path: str, value):
    """A mutation of the example: set the field at a dotted path (list indices as numbers)."""
    def mutate(data):
        *parents, last = path.split(".")
        node = data
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return mutate


MALFORMED = {
    "unknown top-level field": _set("contxt", {"moves": 2}),
    "unknown seat field": _set("seats.0.Prep", {"blue": 1}),
    "unknown context field": _set("context", {"movs": 1}),
    "bool as integer": _set("players", True),
    "string as bool": _set("context", {"discount_used": "no"}),
    "players out of range": _set("players", 5),
    "round out of range": _set("round", 6),
    "huge hidden pyramid": _set("seats.0.cubes", {"green": 10**12}),
    "lace_allow too large": _set("context", {"lace_allow": {"pink": 128}}),
    "islands not an object": _set("seats.0.islands", [1]),
    "non-string roof cell": _set("island.roofs.0.cells", [1, 2]),
    "non-string workshop square": _set("seats.0.workshop", [5]),
    "not a hole": _set("island.cubes.b1", ["pink"]),
    "unknown colour": _set("seats.0.prep", {"purple": 1}),
    "duplicate kinds picked": _set("context", {"kinds_picked": ["flat", "flat"]}),
    "phase without context": _set("phase", "fish-draw"),
    "seat letter out of vocabulary": _set("seats.0.seat", "E"),
    "negative coins": _set("seats.1.coins", -1),
    "float count": _set("seats.0.vp", 1.5),
    "wrong format": _set("format", "burano-position/2"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_inputs_are_rejected_by_schema_and_loader(name):
    data = copy.deepcopy(EXAMPLE)
    MALFORMED[name](data)
    assert schema_errors(data), f"the schema accepts: {name}"
    with pytest.raises(PositionError):
        position_from_dict(data)
