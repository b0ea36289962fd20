"""A game's options besides its player count, from the text people type and the JSON services send.

A game declares its options once (`GameSpec.game_options`, name -> `core.game.GameOption`); every
interface turns what it received into checked values here, so `--option side=B` on the command line,
``"options": {"side": "B"}`` in the protocol, the web API and a game record all mean the same and fail
the same way: one `OptionError` line naming the option and what is wrong with it. A value is a JSON
value (a "data" option's is the JSON object of the game's component data, so a record carrying it
replays on any machine); `new_game(players, implementation, **options)` takes the result as it is.

    options = parse_cli_options(spec, ["side=B"], data="corrected.json")
    game = make_game(spec, 2, options)
"""

from __future__ import annotations

import json
import os
from typing import Any, Iterable, Mapping

from burano_ai.core.arguments import value_text
from burano_ai.core.errors import OptionError
from burano_ai.core.jsonio import json_error_text
from burano_ai.core.game import GameOption

#: Largest data file `--data` reads.
MAX_DATA_FILE_BYTES = 1_000_000
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _options_of(spec) -> Mapping[str, GameOption]:
    return spec.game_options


def _known(spec) -> str:
    names = list(_options_of(spec))
    return f"{spec.title}'s options: {', '.join(names)}" if names else f"{spec.title} takes no options"


def option_value_text(option: GameOption, value: Any) -> str:
    """A value of `option` as people read it (a data object by its name, else its JSON)."""
    if option.kind == "data":
        if value is None:
            return "built-in"
        name = value.get("name") if isinstance(value, dict) else None
        return repr(name) if isinstance(name, str) else "a data object"
    if option.kind == "bool":
        return "true" if value else "false"
    return str(value)


def _expected(option: GameOption) -> str:
    if option.kind == "choice":
        choices = [str(c) for c in option.choices]
        return choices[0] if len(choices) == 1 else f"{', '.join(choices[:-1])} or {choices[-1]}"
    if option.kind == "int" and option.values:
        values = [str(v) for v in option.values]
        return f"{', '.join(values[:-1])} or {values[-1]}" if len(values) > 1 else values[0]
    if option.kind == "int":
        return f"a whole number from {option.low} to {option.high}"
    if option.kind == "bool":
        return "true or false"
    return "a JSON object (the game's data)"


def check_option_value(option: GameOption, value: Any, where: str) -> Any:
    """`value` (a JSON value) if it is one of `option`'s, else an `OptionError` naming `where`.

    A "data" object is checked by the game's loader (`GameOption.load`), its message after `where`; a
    "data" option's null is its default, the built-in data.
    """
    kind = option.kind
    if kind == "choice":
        if not isinstance(value, str) or value not in option.choices:
            raise OptionError(f"{where}: expected {_expected(option)}, not {value!r:.60}")
    elif kind == "int":
        if isinstance(value, bool) or not isinstance(value, int) or \
                (option.low is not None and value < option.low) or (option.high is not None and value > option.high) \
                or (option.values and value not in option.values):
            raise OptionError(f"{where}: expected {_expected(option)}, not {value!r:.60}")
    elif kind == "bool":
        if not isinstance(value, bool):
            raise OptionError(f"{where}: expected true or false, not {value!r:.60}")
    elif value is not None:
        if not isinstance(value, dict):
            raise OptionError(f"{where}: expected a JSON object (the game's data), not {type(value).__name__}")
        if option.load is not None:
            try:
                option.load(value)
            except OptionError as exc:
                raise OptionError(f"{where}: {exc}") from None
    return value


def parse_game_options(spec, raw: Any, where: str = "options") -> dict[str, Any]:
    """The checked options of a JSON object `raw` (the protocol's, the web API's, a record's `options`):
    name -> value, those equal to their default left out. None is no options.

    Raises:
        OptionError: `raw` is not an object, names an option the game does not have (the message lists
            its options), or a value is wrong (``options.side: expected A or B, not 'C'``).
    """
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise OptionError(f"{where}: expected a JSON object of {spec.title}'s options, not {type(raw).__name__}")
    declared = _options_of(spec)
    out: dict[str, Any] = {}
    for name, value in raw.items():
        option = declared.get(name)
        if option is None:
            raise OptionError(f"{where}: unknown option {str(name)[:40]!r} ({_known(spec)})")
        check_option_value(option, value, f"{where}.{name}")
        if value != option.default:
            out[name] = value
    return out


def check_player_count(spec, num_players: Any) -> int:
    """`num_players` if `spec`'s game is played by that many.

    Raises:
        OptionError: not an int in the spec's range ("Venice 2099 is played by 2-5 players, not 7").
    """
    if isinstance(num_players, bool) or not isinstance(num_players, int) or \
            not spec.min_players <= num_players <= spec.max_players:
        raise OptionError(f"{spec.title} is played by {spec.min_players}-{spec.max_players} players, "
                          f"not {value_text(num_players)}")
    return num_players


def openspiel_engine(spec, implementation: Any) -> str:
    """The OpenSpiel adapters' ``engine`` parameter for our `implementation` ("compiled" is "core").

    Raises:
        OptionError: `implementation` is not one of `spec`'s.
    """
    if implementation not in spec.implementations:
        raise OptionError(f"unknown implementation {implementation!r} of {spec.title} "
                          f"(expected {' or '.join(spec.implementations)})")
    return "core" if implementation == "compiled" else implementation


def read_data_file(path: str | os.PathLike, where: str) -> Any:
    """The JSON value of the data file `path` (what `--data` names), or an `OptionError` naming `where`:
    the file is missing, unreadable, too big or not JSON."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_DATA_FILE_BYTES + 1)
    except OSError as exc:
        raise OptionError(f"{where}: cannot read the file ({exc.strerror or exc})") from None
    if len(raw) > MAX_DATA_FILE_BYTES:
        raise OptionError(f"{where}: larger than {MAX_DATA_FILE_BYTES} bytes")
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise OptionError(f"{where}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise OptionError(f"{where}: not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    except ValueError as exc:           # an integer literal past Python's 4,300-digit limit
        raise OptionError(f"{where}: not JSON ({json_error_text(exc)})") from None
    except RecursionError:
        raise OptionError(f"{where}: nested too deeply") from None


def _cli_value(option: GameOption, text: str, where: str) -> Any:
    """The JSON value of `--option NAME=text` (a "data" option's text is a file path)."""
    if option.kind == "int":
        try:
            return int(text.strip(), 10)
        except ValueError:
            raise OptionError(f"{where}: expected {_expected(option)}, not {text!r:.60}") from None
    if option.kind == "bool":
        word = text.strip().lower()
        if word in _TRUE or word in _FALSE:
            return word in _TRUE
        raise OptionError(f"{where}: expected true or false, not {text!r:.60}")
    if option.kind == "data":
        return read_data_file(text, f"{where}={text}")
    return text


def data_option(spec) -> GameOption | None:
    """The game's one "data" option (what `--data` sets), or None."""
    found = [o for o in _options_of(spec).values() if o.kind == "data"]
    return found[0] if len(found) == 1 else None


def parse_cli_options(spec, assignments: Iterable[str] | None = None, data: str | os.PathLike | None = None
                      ) -> dict[str, Any]:
    """The checked options of the command line: `--option NAME=VALUE` (each of `assignments`) and
    `--data FILE` (the game's data option, read from the JSON file). Those equal to their default are
    left out.

    Raises:
        OptionError: one line naming the option: not NAME=VALUE, unknown (the message lists the game's
            options), given twice, a wrong value, or a data file missing, unreadable, not JSON or wrong
            (``--data corrected.json: azul-sintra data.strips[3]: ...``).
    """
    declared = _options_of(spec)
    values: dict[str, Any] = {}
    for text in assignments or ():
        name, sep, value = text.partition("=")
        name = name.strip()
        if not sep or not name:
            raise OptionError(f"--option {text!r:.60}: expected NAME=VALUE ({_known(spec)})")
        option = declared.get(name)
        if option is None:
            raise OptionError(f"--option {name[:40]!r}: unknown option ({_known(spec)})")
        if name in values:
            raise OptionError(f"--option {name}: given twice")
        where = f"--option {name}"
        values[name] = check_option_value(option, _cli_value(option, value, where),
                                          f"{where}={value}" if option.kind == "data" else where)
    if data is not None:
        option = data_option(spec)
        if option is None:
            raise OptionError(f"--data: {spec.title} has no replaceable data ({_known(spec)})")
        if option.name in values:
            raise OptionError(f"--data: and --option {option.name}= both given")
        where = f"--data {os.fspath(data)}"
        values[option.name] = check_option_value(option, read_data_file(data, where), where)
    return {name: value for name, value in values.items() if value != declared[name].default}


def make_game(spec, players: int, options: Mapping[str, Any] | None = None, implementation: str = "compiled",
              where: str | None = None):
    """`spec.new_game(players, implementation, **options)`: the Game, checked with the options together
    (a first player beyond the player count, ...).

    Raises:
        OptionError: the game's own one-line message, after ``where: `` when given.
    """
    try:
        return spec.new_game(players, implementation, **dict(options or {}))
    except OptionError as exc:
        if where is None:
            raise
        raise OptionError(f"{where}: {exc}") from None


def implementation_of(spec, game_factory) -> str | None:
    """The name of the implementation whose Game class `game_factory` is ("compiled", "reference"), or None
    (a factory of the caller's own). Read off the spec's "module:attribute" entries, importing nothing."""
    name = f"{getattr(game_factory, '__module__', '')}:{getattr(game_factory, '__qualname__', '')}"
    return next((impl for impl, entry in spec.implementations.items() if entry == name), None)


def game_for(spec, players: int, options: Mapping[str, Any] | None = None, game_factory=None):
    """The Game of `players` with `options`, as the services make a dealt game: without options
    `game_factory(players)` (default: the compiled Game class), as always; with options
    `spec.new_game(players, implementation, **options)` for the implementation whose Game class
    `game_factory` is, or `game_factory(players, **options)` for a factory of the caller's own.

    Raises:
        OptionError: the game's own one-line message.
    """
    factory = game_factory or spec.game_class("compiled")
    if not options:
        return factory(players)
    implementation = implementation_of(spec, factory)
    if implementation is None:
        return factory(players, **options)
    return spec.new_game(players, implementation, **dict(options))


def is_placeholder(spec, options: Mapping[str, Any] | None = None, position: Mapping[str, Any] | None = None
                   ) -> bool:
    """Whether a game of `spec` with `options` (or the game of `position`) plays placeholder data: the
    game declares the capability "placeholder_data" and no data option given (in `options`, or in the
    position under the option's name) loads as data that is not a placeholder (`GameOption.load`
    returns False)."""
    if "placeholder_data" not in spec.capabilities:
        return False
    for option in _options_of(spec).values():
        if option.kind != "data" or option.load is None:
            continue
        value = (options or {}).get(option.name)
        if value is None and position is not None:
            value = position.get(option.name)
        if isinstance(value, dict):
            try:
                if option.load(value) is False:
                    return False
            except OptionError:
                continue
    return True


def game_options_text(spec) -> list[str]:
    """The game's options, one line each, for `burano games`: ``side=A|B (default A): ...``."""
    lines = []
    for option in _options_of(spec).values():
        if option.kind == "choice":
            form = "|".join(option.choices)
        elif option.kind == "int":
            form = "|".join(str(v) for v in option.values) if option.values else f"{option.low}..{option.high}"
        elif option.kind == "bool":
            form = "true|false"
        else:
            form = "FILE.json (or --data FILE)"
        lines.append(f"{option.name}={form} (default {option_value_text(option, option.default)}): {option.help}")
    return lines


def game_options_json(spec) -> list[dict[str, Any]]:
    """The game's options as JSON for the web page's new-game form and `burano games --json`."""
    out = []
    for option in _options_of(spec).values():
        item: dict[str, Any] = {"name": option.name, "kind": option.kind, "default": option.default,
                                "help": option.help}
        if option.kind == "choice":
            item["choices"] = list(option.choices)
        if option.kind == "int":
            item["low"], item["high"] = option.low, option.high
            if option.values:
                item["values"] = list(option.values)
        out.append(item)
    return out
