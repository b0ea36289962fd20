"""Readers of hand-written JSON written once for every game: a position's fields, a data file's items,
the rules files, and loading a game's replaceable data.

A person edits a position or a data file by hand, so every value is checked where it is read and a
wrong one gives one line naming where it stands: `position.round: expected an int in 0..5, got 7`,
`azul-sintra data.track: expected ...`. A `FieldReader` holds that prefix and the error class (a
`PositionError` for positions, an `OptionError` for data, which is a game option); `POSITION` is the
position readers' reader. Values are shown at most 40 characters long (60 for lists): a hostile file
may hold a huge value.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable, Mapping, TypeVar

from burano_ai.core.errors import BuranoError, OptionError, PositionError
from burano_ai.core.jsonio import MAX_POSITION_BYTES, json_error_text
from burano_ai.core.options import read_data_file
from burano_ai.core.seats import SEAT_LETTERS, parse_seat

T = TypeVar("T")


class FieldReader:
    """Checks of single JSON values whose errors name the field after `prefix` (see the module docstring)."""

    def __init__(self, prefix: str, error: type[BuranoError]) -> None:
        self.prefix = prefix
        self.error = error

    def fail(self, field: str, message: str) -> BuranoError:
        """The error for `field` (a path such as "seats[1].coins"), to raise."""
        return self.error(f"{self.prefix}{field}: {message}")

    def int(self, value: object, field: str, low: int, high: int) -> int:
        """`value` as an int in low..high (a bool is no int)."""
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(field, f"expected an int in {low}..{high}, got {value!r:.40}")
        return value

    def bool(self, value: object, field: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(field, f"expected true or false, got {value!r:.40}")
        return value

    def seat(self, value: object, field: str, n: int, allow_none: bool = False) -> int:
        """A seat letter of an n-player game as a 0-based seat (null as -1 when `allow_none`)."""
        if value is None and allow_none:
            return -1
        if isinstance(value, str) and len(value) == 1 and value in SEAT_LETTERS[:n]:
            return SEAT_LETTERS.index(value)
        raise self.fail(field, f"expected {'null or ' if allow_none else ''}a seat letter "
                               f"{', '.join(SEAT_LETTERS[:n])}, got {value!r:.40}")

    def keys(self, d: object, field: str, allowed: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
        """`d` if it is an object with exactly the fields `allowed` (those in `optional` may be missing).

        `field` is the object's path ("" for the top level); an unknown or missing field is named by its own path.
        """
        if not isinstance(d, dict):
            raise self.fail(field, f"expected an object, got {type(d).__name__}")
        unknown = [k for k in d if k not in allowed]
        if unknown:
            raise self.fail(f"{field}.{str(unknown[0])[:40]}" if field else str(unknown[0])[:40],
                            f"unknown field (fields: {', '.join(allowed)})")
        missing = [k for k in allowed if k not in d and k not in optional]
        if missing:
            raise self.fail(f"{field}.{missing[0]}" if field else missing[0], "missing field")
        return d

    def seats(self, value: object, n: int, fields: tuple[str, ...]) -> list[tuple[str, dict]]:
        """The `seats` list of an n-player position: per seat, its path ("seats[1]") and its object, which
        has exactly `fields`."""
        if not isinstance(value, list) or len(value) != n:
            raise self.fail("seats", f"expected a list of {n} seats, got {value!r:.60}")
        return [(f"seats[{p}]", self.keys(entry, f"seats[{p}]", fields)) for p, entry in enumerate(value)]

    def list(self, value: object, field: str, most: int) -> list:
        """`value` if it is a list of at most `most` entries."""
        if not isinstance(value, list) or len(value) > most:
            raise self.fail(field, f"expected a list of at most {most} entries, got {value!r:.60}")
        return value

    def item(self, d: Mapping[str, Any], item: str) -> Any:
        """The value of a data file's item `{"value": ..., "source": "..."}` (every number cites its source)."""
        if item not in d:
            raise self.fail(item, "missing")
        entry = d[item]
        if not isinstance(entry, dict) or "value" not in entry:
            raise self.fail(item, "expected an object {\"value\": ..., \"source\": \"...\"}")
        unknown = [k for k in entry if k not in ("value", "source")]
        if unknown:
            raise self.fail(item, f"unknown field {unknown[0]!r} (fields: value, source)")
        return entry["value"]

    def head(self, root: object, position_format: str, fields: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict:
        """Check the top of a position object: an object of `position_format` with exactly `fields` (those
        in `optional` may be missing)."""
        if not isinstance(root, dict):
            raise self.error(f"{self.prefix.rstrip('.')}: expected a JSON object, got {type(root).__name__}")
        if root.get("format") != position_format:
            raise self.fail("format", f"expected {position_format!r}, got {root.get('format')!r:.40}")
        return self.keys(root, "", fields, optional)

    def same_config(self, fields: tuple[str, ...], have: tuple, expect: tuple | None,
                    opaque: Mapping[str, str] | None = None) -> None:
        """Refuse a position whose configuration `have` (named by `fields`) is not the game's `expect`
        (None: any). A field in `opaque` is described, not printed ("another data file")."""
        if expect is None:
            return
        opaque = opaque or {}
        for field, value, want in zip(fields, have, expect):
            if value != want:
                shown = opaque.get(field, repr(value))
                raise self.fail(field, f"{shown} in the position, but the game has "
                                       f"{'its own' if field in opaque else repr(want)}")

    def data_head(self, d: object, data_format: str, items: tuple[str, ...]) -> tuple[str, bool]:
        """Check the head of a data file's object: an object of `data_format` with no item but `items`, its
        optional `name` (1..80 characters), `placeholder` flag and `about` text; return (name, placeholder)."""
        if not isinstance(d, dict):
            raise self.error(f"{self.prefix.rstrip('.')}: expected a JSON object, got {type(d).__name__}")
        if d.get("format") != data_format:
            raise self.fail("format", f"expected {data_format!r}, got {d.get('format')!r:.40}")
        unknown = [k for k in d if k not in items]
        if unknown:
            raise self.fail(str(unknown[0])[:40], f"unknown item (items: {', '.join(items)})")
        name = d.get("name", "custom")
        if not isinstance(name, str) or not 1 <= len(name) <= 80:
            raise self.fail("name", f"expected a text of 1..80 characters, got {name!r:.40}")
        placeholder = d.get("placeholder", False)
        if not isinstance(placeholder, bool):
            raise self.fail("placeholder", f"expected true or false, got {placeholder!r:.40}")
        if "about" in d and not isinstance(d["about"], str):
            raise self.fail("about", "expected a text")
        return name, placeholder


class DataObject:
    """Mixin of a game's replaceable data, validated from a JSON object that it keeps as `source`."""

    source: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """The data as a JSON-ready object (a position embeds it when it is not the default)."""
        return json.loads(json.dumps(self.source))


#: The reader of a position's fields ("position.<field>: ...", `PositionError`).
POSITION = FieldReader("position.", PositionError)


def assert_valid(validate: Callable[[Any], None], position: Any) -> None:
    """`validate(position)`, its `PositionError` raised as the AssertionError of a position's `check()`
    (an invariant broken by the rules is a bug, not a user's mistake)."""
    try:
        validate(position)
    except PositionError as e:
        raise AssertionError(str(e)) from None


def parse_position_json(text: object, max_chars: int) -> Any:
    """The JSON value of a position text of at most `max_chars` characters (its fields not yet checked).

    Raises:
        TypeError: `text` is not a str.
        PositionError: too long, or not JSON.
    """
    if not isinstance(text, str):
        raise TypeError(f"a position must be a JSON str, not {type(text).__name__}")
    if len(text) > max_chars:
        raise PositionError(f"position: {len(text)} characters, more than the {max_chars} accepted")
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise PositionError(f"position: not valid JSON ({e})") from None
    except ValueError as e:             # an integer literal past Python's 4,300-digit limit
        raise PositionError(f"position: not valid JSON ({json_error_text(e)})") from None


def position_data(value: object, default: Callable[[], T], from_dict: Callable[[Any], T]) -> T:
    """The component data a position carries (null: the built-in `default()`); a wrong one is a
    `PositionError` naming `position.data`."""
    if value is None:
        return default()
    try:
        return from_dict(value)
    except OptionError as e:
        raise PositionError(f"position.data: {e}") from None


def position_view(data: Mapping[str, Any], num_players: int) -> int | None:
    """The seat whose view a position dict is (its `view` letter), None for a full position."""
    view = data.get("view")
    return None if view is None else parse_seat(view, num_players, "position.view", PositionError)


def position_dict(position: Any) -> Any:
    """A position dict as given, or parsed from its JSON text (`parse_position_json`; a renderer's argument)."""
    return parse_position_json(position, MAX_POSITION_BYTES) if isinstance(position, str) else position


def read_rules(path: Path, rules_format: str) -> dict[str, Any]:
    """Item -> value of a game's `rules.json` (format `rules_format`), which ships with the package."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert raw["format"] == rules_format
    return {k: v["value"] for k, v in raw.items() if isinstance(v, dict) and "value" in v}


def load_data(source: object, kind: type[T], what: str, default: Callable[[], T],
              from_dict: Callable[[Any], T]) -> T:
    """A game's replaceable data from its `data` option: None (`default()`), a path to a JSON file, a
    data object (dict, read by `from_dict`), or a `kind` already validated.

    Raises:
        OptionError: the data is wrong (one line, naming `what` and the file or the item).
    """
    if source is None:
        return default()
    if isinstance(source, kind):
        return source
    if isinstance(source, (str, os.PathLike)):
        return from_dict(read_data_file(source, f"{what} {os.fspath(source)!r}"))
    if isinstance(source, dict):
        return from_dict(source)
    raise OptionError(f"{what}: expected a file path or a data object, got {type(source).__name__}")
