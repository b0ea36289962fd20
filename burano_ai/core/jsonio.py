"""Reading JSON input within limits: files of at most so many bytes, text that must be UTF-8 JSON
objects without a key twice and without deep nesting. Every game's positions and the services' records
and protocol lines are read through these, before any game is asked what the content means.
"""

from __future__ import annotations

import json
import os
from typing import Any

from burano_ai.core.errors import PositionError

#: Largest position text read (a 4-player Burano position is about 10 kB).
MAX_POSITION_BYTES = 1 << 20
#: Deepest nesting of a position's objects and lists.
MAX_POSITION_NESTING = 8


def _shown(value: Any) -> str:
    """A short repr for messages (a hostile value may be huge)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**12:
        return f"an integer of {len(str(abs(value)))} digits"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def first_line(exc: Exception) -> str:
    """The first line of an exception's message, at most 120 characters (for one-line errors)."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text if len(text) <= 120 else text[:117] + "..."


def json_error_text(exc: ValueError) -> str:
    """Why JSON text could not be parsed, in one line for a user: the decoder's problem and place, or an
    integer literal past Python's limit (its own message advises `sys.set_int_max_str_digits()`, which a
    person reading a record or a data file cannot use)."""
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} at line {exc.lineno} column {exc.colno}"
    if "integer string conversion" in str(exc):
        return "an integer literal longer than 4,300 digits"
    return first_line(exc)


def no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """`json.loads` object hook: a key twice in one object is an error (ValueError), not a silent overwrite."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"key {_shown(key)} appears twice in one object")
        out[key] = value
    return out


def check_nesting(data: Any, limit: int, what: str, error: type[Exception] = PositionError) -> None:
    """Reject objects and lists nested deeper than `limit` (iteratively: no recursion to exhaust)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            raise error(f"{what}: nested deeper than {limit} levels")
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))


def parse_json_text(text: str | bytes, limit: int = MAX_POSITION_BYTES, nesting: int = MAX_POSITION_NESTING,
                    what: str = "position", error: type[Exception] = PositionError) -> Any:
    """Parse JSON text into plain data within the limits (no validation of content).

    Raises:
        `error` naming `what`: not text, larger than `limit` bytes, not UTF-8, malformed JSON (an integer
        literal longer than Python's limit included), a key twice in one object, or nested deeper than
        `nesting`.
    """
    if isinstance(text, (bytes, bytearray)):
        if len(text) > limit:
            raise error(f"{what}: larger than {limit} bytes; not a {what}")
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise error(f"{what}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if not isinstance(text, str):
        raise error(f"{what}: expected JSON text, got {type(text).__name__}")
    if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        raise error(f"{what}: larger than {limit} bytes; not a {what}")
    try:
        data = json.loads(text.lstrip("\ufeff"), object_pairs_hook=no_duplicate_keys)
    except json.JSONDecodeError as exc:
        raise error(f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise error(f"{what}: nested deeper than {nesting} levels") from None
    except ValueError as exc:   # an integer literal beyond Python's digit limit, or a duplicate key
        raise error(f"malformed JSON: {json_error_text(exc)}") from None
    check_nesting(data, nesting, what, error)
    return data


def read_text_file(path: str | os.PathLike, limit: int, what: str, error: type[Exception] = PositionError) -> str:
    """The text of a UTF-8 file of at most `limit` bytes (a byte-order mark is dropped).

    Raises `error` naming the file: it cannot be read, is larger than `limit` ("not a `what`"), or is not UTF-8.
    """
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise error(f"cannot read {os.fspath(path)}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise error(f"{os.fspath(path)}: larger than {limit} bytes; not a {what}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{os.fspath(path)}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
