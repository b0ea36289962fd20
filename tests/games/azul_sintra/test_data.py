"""Azul: Stained Glass of Sintra's data files: the rulebook's numbers, the placeholder data and its loader."""

from __future__ import annotations

import json

import pytest

from burano_ai.core.errors import OptionError
from burano_ai.games.azul_sintra import data as D
from positions import set_item


def test_the_rulebook_numbers():
    assert (D.NUM_COLOURS, D.PIECES_PER_COLOUR, D.TOTAL_PIECES) == (5, 20, 100)
    assert D.FACTORIES == {2: 5, 3: 7, 4: 9} and D.PIECES_PER_FACTORY == 4
    assert (D.ROUNDS, D.COLUMNS, D.STRIP_CELLS, D.JOKER_CELLS) == (6, 8, 5, 2)
    assert D.ORNAMENT_POINTS == (0, 0, 3, 6, 10) and D.LEFTOVER_PER_POINT == 3 and D.TRACK_BOTTOM_LOSS == 18


def test_every_item_of_both_files_cites_the_spec():
    for name in ("rules.json", "placeholder.json"):
        raw = json.loads((D.HERE / name).read_text())
        items = {k: v for k, v in raw.items() if isinstance(v, dict)}
        assert items and all(v["source"].startswith("§") for v in items.values()), name


def test_the_placeholder_data_is_the_spec_s_and_says_it_is_a_placeholder():
    d = D.default_data()
    assert d.placeholder and d.is_default and "placeholder" in d.name
    assert d.letters == ("P", "O", "Y", "B", "G")
    assert d.faces[7] == ("YYGGB", "POBJJ") and (d.joker_strip, d.joker_face) == (7, 1)   # AD-4
    assert d.window_values == (4, 3, 3, 2, 2, 2, 1, 1)                                     # AD-5
    assert d.ornaments == ((0, 1), (2, 3), (4, 5), (6, 7))                                 # AD-6
    assert d.track == (0, -1, -2, -4, -6, -8, -11, -14, -18)                               # AD-7
    # §2.2: totals P 16, O 16, Y 15, B 16, G 15, J 2 = 80 cells
    totals = [sum(d.face_counts[s][f][c] for s in range(8) for f in range(2)) for c in range(6)]
    assert totals == [16, 16, 15, 16, 15, 2]


def _edited(path, value):
    d = D.default_data().to_dict()
    set_item(d, path, value)
    return d


@pytest.mark.parametrize("path, value, message", [
    (("format",), "x", "data.format: expected"),
    (("strips", "value", 0, 1), "BBBGX", "data.strips[0][1]: unknown cell 'X'"),
    (("strips", "value", 0, 1), "BBBG", "data.strips[0][1]: expected 5 cell letters"),
    (("strips", "value", 0, 1), "BBBJJ", "data.strips: 2 faces with joker cells"),
    (("strips", "value", 7, 1), "POBGJ", "data.strips[7][1]: 1 joker cells"),
    (("window_values", "value"), [4, 3, 3], "data.window_values: expected 8 ints"),
    (("window_values", "value", 2), -1, "data.window_values[2]: expected an int in 0..99"),
    (("ornaments", "value", 1), [2, 4], "data.ornaments[1]: a window belongs to two ornaments"),
    (("ornaments", "value", 1), [3, 9], "data.ornaments[1][1]: expected an int in 1..8"),
    (("track", "value", 0), -1, "data.track[0]: the top (start) space is worth 0"),
    (("track", "value", 8), -20, "data.track[8]: the bottom space is -18"),
    (("track", "value", 3), 0, "data.track[3]: 0 is above the space before it"),
    (("colours", "value", 4), ["P", "green"], "data.colours: a colour letter appears twice"),
    (("colours", "value", 4), ["J", "grey"], "data.colours[4]: expected"),
    (("placeholder",), "yes", "data.placeholder: expected true or false"),
    (("extra",), 1, "data.extra: unknown item"),
])
def test_a_wrong_data_file_is_refused_in_one_line_naming_the_item(path, value, message):
    with pytest.raises(OptionError, match=None) as e:
        D.load_data(_edited(path, value))
    assert message in str(e.value) and "\n" not in str(e.value)


def test_a_corrected_file_loads_from_a_path(tmp_path):
    d = _edited(("window_values", "value"), [5, 4, 3, 3, 2, 2, 1, 1])
    d["placeholder"] = False
    d["name"] = "corrected"
    path = tmp_path / "boards.json"
    path.write_text(json.dumps(d))
    loaded = D.load_data(str(path))
    assert loaded.window_values[0] == 5 and not loaded.placeholder and not loaded.is_default
    assert D.load_data(loaded) is loaded


@pytest.mark.parametrize("content, message", [
    (None, "cannot read"), ("{", "not JSON"), ("[]", "expected a JSON object"),
])
def test_an_unreadable_data_file_is_one_line(tmp_path, content, message):
    path = tmp_path / "d.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(OptionError) as e:
        D.load_data(path)
    assert message in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(OptionError, match="expected a file path or a data object"):
        D.load_data(3)
