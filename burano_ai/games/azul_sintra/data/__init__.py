"""Every number of Azul: Stained Glass of Sintra, as data: the rulebook's and the placeholders'.

Two files, each item with its citation of ../shared/rules/azul-sintra.md (the spec):

- `rules.json` (`azul-sintra-rules/1`): what the rulebook fixes (100 pieces in 5 colours, 5/7/9
  factories of 4, 6 rounds, 8 columns of 5-cell strips, the -18 step, 1 point per 3 leftover pieces,
  the ornament points ...). Loaded once into the module constants below; not replaceable.
- `placeholder.json` (`azul-sintra-data/1`): the component data the rulebook's lost pictures held and
  the spec decided instead [AD-1, AD-4, AD-5, AD-6, AD-7]: colour names, the 8 strips' two faces,
  the window values, side A's ornament layout and the broken-glass track. **Placeholder data**: the
  game says so wherever it is shown (`ComponentData.placeholder`), and a corrected file replaces it
  through the game's `data` option (`load_data`), validated with a one-line `OptionError` naming the
  item.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from burano_ai.core import fields
from burano_ai.core.errors import OptionError
from burano_ai.core.fields import DataObject, FieldReader, read_rules
from burano_ai.core.options import read_data_file

HERE = Path(__file__).resolve().parent
RULES_FORMAT = "azul-sintra-rules/1"
DATA_FORMAT = "azul-sintra-data/1"


_R = read_rules(HERE / "rules.json", RULES_FORMAT)
NUM_COLOURS: int = _R["colours"]                       # §2.1
PIECES_PER_COLOUR: int = _R["pieces_per_colour"]       # §1
TOTAL_PIECES: int = NUM_COLOURS * PIECES_PER_COLOUR    # 100
MIN_PLAYERS: int = _R["min_players"]
MAX_PLAYERS: int = _R["max_players"]
FACTORIES: dict[int, int] = {int(k): v for k, v in _R["factories"].items()}   # §3
PIECES_PER_FACTORY: int = _R["pieces_per_factory"]     # §3 step 9
ROUNDS: int = _R["rounds"]                             # §4
COLUMNS: int = _R["columns"]                           # §2.3
STRIP_CELLS: int = _R["strip_cells"]                   # §1
JOKER_CELLS: int = _R["joker_cells"]                   # §1
TRACK_SPACES: int = _R["track_spaces"]                 # §2.4
TRACK_BOTTOM_LOSS: int = _R["track_bottom_loss"]       # §6
TOKEN_STEPS: int = _R["token_steps"]                   # §5.1(b)
LEFTOVER_PER_POINT: int = _R["leftover_per_point"]     # §8 step 1
ORNAMENT_POINTS: tuple[int, ...] = tuple(_R["ornament_points"][str(k)] for k in range(5))   # §8 step 3
NUM_ORNAMENTS: int = _R["ornaments"]
WINDOWS_PER_ORNAMENT: int = _R["windows_per_ornament"]
KEEP_TO_TOWER: int = _R["keep_pieces_to_tower"]
MAX_FACTORIES: int = max(FACTORIES.values())
JOKER_LETTER = "J"
NUM_STRIPS = COLUMNS                                   # one strip above each column [RU:48]


@dataclass(frozen=True)
class ComponentData(DataObject):
    """The replaceable component data (one `azul-sintra-data/1` file), validated.

    Attributes:
        name: the file's name for people ("placeholder (AD-1, AD-4..AD-7)").
        placeholder: True when the data is a stand-in, not the published game's (say so everywhere).
        letters, colour_names: colour i's letter and name [AD-1].
        faces: faces[strip][face] = the face's 5 cells as a string of letters (J = joker) [AD-4].
        face_counts: face_counts[strip][face][c] = cells printed colour c (c < 5), [5] = joker cells.
        joker_strip, joker_face: the one strip and face with joker cells (the joker face starts down).
        window_values: the points of windows 1..8 (index 0..7) [AD-5].
        ornaments: side A's ornaments as tuples of 0-based columns [AD-6].
        track: the broken-glass track's values, top (0) to bottom [AD-7].
        source: the validated object, as it would be written back (`to_dict`).
    """

    name: str
    placeholder: bool
    letters: tuple[str, ...]
    colour_names: tuple[str, ...]
    faces: tuple[tuple[str, str], ...]
    face_counts: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    joker_strip: int
    joker_face: int
    window_values: tuple[int, ...]
    ornaments: tuple[tuple[int, ...], ...]
    track: tuple[int, ...]
    source: Mapping[str, Any]

    @property
    def is_default(self) -> bool:
        """True for the built-in placeholder file's data."""
        return self == default_data()


#: The data file's items are read by these ("azul-sintra data.<item>: ...", an `OptionError`).
_DATA = FieldReader("azul-sintra data.", OptionError)
_fail, _value, _int = _DATA.fail, _DATA.item, _DATA.int


DATA_FIELDS = ("format", "name", "placeholder", "about", "colours", "strips", "window_values", "ornaments", "track")


def data_from_dict(d: object) -> ComponentData:
    """Validate an `azul-sintra-data/1` object and return its `ComponentData`.

    Raises:
        OptionError: one line naming the first wrong item (`azul-sintra data.strips[7][1]: ...`).
    """
    name, placeholder = _DATA.data_head(d, DATA_FORMAT, DATA_FIELDS)

    colours = _value(d, "colours")
    if not isinstance(colours, list) or len(colours) != NUM_COLOURS:
        raise _fail("colours", f"expected {NUM_COLOURS} [letter, name] pairs, got {colours!r:.60}")
    letters, names = [], []
    for i, pair in enumerate(colours):
        ok = (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) and len(pair[0]) == 1
              and pair[0].isalpha() and pair[0].isupper() and pair[0] != JOKER_LETTER
              and isinstance(pair[1], str) and 1 <= len(pair[1]) <= 20 and pair[1].isalpha() and pair[1].islower())
        if not ok:
            raise _fail(f"colours[{i}]", f"expected [an upper-case letter other than J, a lower-case name], "
                                         f"got {pair!r:.40}")
        letters.append(pair[0])
        names.append(pair[1])
    for what, seq in (("letter", letters), ("name", names)):
        if len(set(seq)) != len(seq):
            raise _fail("colours", f"a colour {what} appears twice")

    strips = _value(d, "strips")
    if not isinstance(strips, list) or len(strips) != NUM_STRIPS:
        raise _fail("strips", f"expected {NUM_STRIPS} strips of two faces, got {strips!r:.60}")
    faces, counts = [], []
    jokers: list[tuple[int, int]] = []
    for s, strip in enumerate(strips):
        if not isinstance(strip, list) or len(strip) != 2:
            raise _fail(f"strips[{s}]", f"expected two faces [a, b], got {strip!r:.40}")
        pair_counts = []
        for f, face in enumerate(strip):
            item = f"strips[{s}][{f}]"
            if not isinstance(face, str) or len(face) != STRIP_CELLS:
                raise _fail(item, f"expected {STRIP_CELLS} cell letters, got {face!r:.40}")
            bad = [ch for ch in face if ch not in letters and ch != JOKER_LETTER]
            if bad:
                raise _fail(item, f"unknown cell {bad[0]!r} (cells: {' '.join(letters)} {JOKER_LETTER})")
            c = tuple(face.count(letter) for letter in letters) + (face.count(JOKER_LETTER),)
            if c[NUM_COLOURS]:
                jokers.append((s, f))
                if c[NUM_COLOURS] != JOKER_CELLS:
                    raise _fail(item, f"{c[NUM_COLOURS]} joker cells; the joker face has {JOKER_CELLS} [RU:48, RU:132]")
            pair_counts.append(c)
        faces.append((strip[0], strip[1]))
        counts.append((pair_counts[0], pair_counts[1]))
    if len(jokers) != 1:
        raise _fail("strips", f"{len(jokers)} faces with joker cells; the set has exactly one joker face [RU:48]")
    joker_strip, joker_face = jokers[0]

    windows = _value(d, "window_values")
    if not isinstance(windows, list) or len(windows) != COLUMNS:
        raise _fail("window_values", f"expected {COLUMNS} ints, got {windows!r:.60}")
    window_values = tuple(_int(v, f"window_values[{i}]", 0, 99) for i, v in enumerate(windows))

    ornaments = _value(d, "ornaments")
    if not isinstance(ornaments, list) or len(ornaments) != NUM_ORNAMENTS:
        raise _fail("ornaments", f"expected {NUM_ORNAMENTS} ornaments [RU:222], got {ornaments!r:.60}")
    seen: set[int] = set()
    groups = []
    for i, group in enumerate(ornaments):
        if not isinstance(group, list) or len(group) != WINDOWS_PER_ORNAMENT:
            raise _fail(f"ornaments[{i}]", f"expected {WINDOWS_PER_ORNAMENT} columns 1..{COLUMNS} [RU:222], "
                                           f"got {group!r:.40}")
        cols = tuple(_int(c, f"ornaments[{i}][{j}]", 1, COLUMNS) - 1 for j, c in enumerate(group))
        if seen & set(cols) or len(set(cols)) != len(cols):
            raise _fail(f"ornaments[{i}]", "a window belongs to two ornaments")
        seen |= set(cols)
        groups.append(tuple(sorted(cols)))

    track = _value(d, "track")
    if not isinstance(track, list) or len(track) != TRACK_SPACES:
        raise _fail("track", f"expected {TRACK_SPACES} ints, top to bottom [RU:210], got {track!r:.60}")
    values = tuple(_int(v, f"track[{i}]", -999, 0) for i, v in enumerate(track))
    if values[0] != 0:
        raise _fail("track[0]", f"the top (start) space is worth 0, not {values[0]}")
    if values[-1] != -TRACK_BOTTOM_LOSS:
        raise _fail(f"track[{TRACK_SPACES - 1}]", f"the bottom space is -{TRACK_BOTTOM_LOSS} [RU:218], not {values[-1]}")
    for i in range(1, TRACK_SPACES):
        if values[i] > values[i - 1]:
            raise _fail(f"track[{i}]", f"{values[i]} is above the space before it ({values[i - 1]}): "
                                       "the track only falls")
    return ComponentData(name=name, placeholder=placeholder, letters=tuple(letters), colour_names=tuple(names),
                         faces=tuple(faces), face_counts=tuple(counts), joker_strip=joker_strip,
                         joker_face=joker_face, window_values=window_values, ornaments=tuple(groups),
                         track=values, source=json.loads(json.dumps(d)))


@functools.cache
def default_data() -> ComponentData:
    """The built-in placeholder data (`placeholder.json`)."""
    return data_from_dict(read_data_file(HERE / "placeholder.json", "azul-sintra data placeholder.json"))


def load_data(source: object = None) -> ComponentData:
    """The component data of a game's `data` option: None (the built-in placeholder), a path to an
    `azul-sintra-data/1` file, a data object (dict), or a `ComponentData` already validated.

    Raises:
        OptionError: the data is wrong (one line naming the file or the item).
    """
    return fields.load_data(source, ComponentData, "azul-sintra data", default_data, data_from_dict)
