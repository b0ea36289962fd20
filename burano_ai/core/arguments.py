"""Checks of the arguments of the public State API that every game shares (both implementations).

A library user's mistake must be one of the project's errors, never a crash or a read out of bounds:
a wrong type is a `TypeError`, a value out of range a `BuranoError` subclass whose message names the
argument (`OptionError` unless a caller says otherwise). The compiled States check here before any
value reaches C; the reference models check alike, so both refuse the same calls.

Messages never print an int past `MAX_PRINTED_DIGITS` digits: Python refuses `str()` of an int over
4,300 digits (a `ValueError` that would escape as an internal error), and a 5,000-digit id is noise.
"""

from __future__ import annotations

import operator
from typing import Any

from burano_ai.core.errors import BuranoError, IllegalMoveError, OptionError

#: Ints with more digits than this are described, not printed ("an int of about 5,000 digits").
MAX_PRINTED_DIGITS = 40
#: An action id may not be larger than this in magnitude (every game's ids are far smaller): past it,
#: an id is refused before any game formats it.
MAX_ACTION_MAGNITUDE = 2 ** 128


def int_text(value: int) -> str:
    """`value` as a message prints it: its digits, or "an int of about N digits" when it is huge."""
    bits = value.bit_length()
    if bits <= 3.3 * MAX_PRINTED_DIGITS:
        return str(value)
    digits = int(bits * 0.30103) + 1
    return f"{'-' if value < 0 else ''}<an int of about {digits:,} digits>"


def value_text(value: Any, limit: int = 60) -> str:
    """A short repr of any value for a message: huge ints described, long texts cut, never an error."""
    if isinstance(value, int) and not isinstance(value, bool):
        return int_text(value)
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a repr that fails (a huge int inside a list) is described instead
        return f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_player_count(spec: Any, num_players: Any) -> int:
    """`num_players` if `spec`'s game is played by that many (`GameSpec.new_game`'s check, every game alike).

    Raises:
        OptionError: not a whole number in the game's range (the message names the range and the value).
    """
    if isinstance(num_players, bool) or not isinstance(num_players, int) or \
            not spec.min_players <= num_players <= spec.max_players:
        raise OptionError(f"{spec.title} is played by {spec.min_players}-{spec.max_players} players, "
                          f"not {value_text(num_players)}")
    return num_players


def as_int(value: Any, what: str) -> int:
    """`value` as an int: an int or an integer type such as numpy's (`operator.index`), never a bool.

    Raises:
        TypeError: `value` is not an integer (the message names `what`).
    """
    if type(value) is int:
        return value
    if not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise TypeError(f"{what} must be an int, not {type(value).__name__} ({value_text(value)})")


def check_index(value: Any, size: int, what: str, error: type[BuranoError] = OptionError) -> int:
    """`value` as an int in 0..size-1.

    Raises:
        TypeError: not an int (a bool is not an index).
        OptionError (or `error`): out of range (the message names `what` and the range).
    """
    index = as_int(value, what)
    if not 0 <= index < size:
        raise error(f"{what} {int_text(index)} is out of range (0..{size - 1})")
    return index


def check_range(value: Any, low: int, high: int, what: str) -> int:
    """`value` as an int in low..high (inclusive): a 1-based number such as a deck level.

    Raises:
        TypeError: not an int; OptionError: out of range (the message names `what` and the range).
    """
    number = as_int(value, what)
    if not low <= number <= high:
        raise OptionError(f"{what} {int_text(number)} is out of range ({low}..{high})")
    return number


def check_action_id(value: Any) -> int:
    """`value` as an action id: an int (numpy integers too) of sane size; the range is the game's check.

    Raises:
        TypeError: not an int (a bool, a float or a str is no action id).
        IllegalMoveError: an int so large no game has such an id (it is not printed in full).
    """
    if type(value) is int and -MAX_ACTION_MAGNITUDE < value < MAX_ACTION_MAGNITUDE:
        return value
    if type(value) is not int:
        if isinstance(value, bool):
            raise TypeError("an action id must be an int, not bool; use string_to_action or play for move text")
        try:
            value = operator.index(value)
        except TypeError:
            raise TypeError(f"an action id must be an int, not {type(value).__name__} ({value_text(value)}); "
                            f"use string_to_action or play for move text") from None
    if not -MAX_ACTION_MAGNITUDE < value < MAX_ACTION_MAGNITUDE:
        raise IllegalMoveError(f"illegal action id {int_text(value)}: no game has ids that large")
    return value


def check_action_list(legal: Any, num_actions: int, what: str = "prior") -> list[int]:
    """`legal` (a list or tuple of action ids, as `State.prior` takes it) as a list of distinct ints in
    0..num_actions-1.

    Raises:
        TypeError: `legal` is not a list or tuple, or an item is not an int.
        OptionError: an id out of range, an id given twice, more ids than the game has.
    """
    if not isinstance(legal, (list, tuple)):
        raise TypeError(f"{what}: the actions must be a list or tuple of action ids, not "
                        f"{type(legal).__name__} ({value_text(legal)})")
    if len(legal) > num_actions:
        raise OptionError(f"{what}: {len(legal)} actions, more than the {num_actions} the game has")
    ids: list[int] = []
    seen: set[int] = set()
    for item in legal:
        if type(item) is not int:
            item = as_int(item, f"{what}: an action id")
        if not 0 <= item < num_actions:
            raise OptionError(f"{what}: action id {int_text(item)} is out of range (0..{num_actions - 1})")
        if item in seen:
            raise OptionError(f"{what}: action id {item} is given twice")
        seen.add(item)
        ids.append(item)
    return ids


def check_instance(value: Any, kind: type | tuple[type, ...], what: str) -> Any:
    """`value` if it is an instance of `kind`, else a TypeError naming `what`."""
    if not isinstance(value, kind):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise TypeError(f"{what} must be a {names}, not {type(value).__name__} ({value_text(value)})")
    return value


#: Most spaces `to_json(indent=...)` takes: enough for any reader, and no way to ask for gigabytes.
MAX_INDENT = 16


def check_indent(indent: Any) -> int | None:
    """`to_json`'s indent: None (one line) or an int in 0..MAX_INDENT.

    Raises:
        TypeError: not None and not an int.
        OptionError: out of range (an indent of 10**9 would ask for gigabytes of spaces).
    """
    if indent is None:
        return None
    value = as_int(indent, "indent")
    if not 0 <= value <= MAX_INDENT:
        raise OptionError(f"indent {int_text(value)} is out of range (0..{MAX_INDENT}, or None for one line)")
    return value
