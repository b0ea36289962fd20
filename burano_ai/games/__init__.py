"""The registry of games: game key -> `GameSpec`, imported lazily (python-chess's variant list).

Adding a game is one entry here plus its package under `burano_ai/games/<name>/`: every service
finds it through `get_spec`, never by importing the game's modules itself (the import contracts in
pyproject.toml check that).
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

from burano_ai.core.errors import OptionError

#: Game key -> "module:attribute" of its spec. The first is the default game.
REGISTRY: dict[str, str] = {
    "burano": "burano_ai.games.burano.spec:SPEC",
    "goofspiel": "burano_ai.games.goofspiel.spec:SPEC",
    "azul-sintra": "burano_ai.games.azul_sintra.spec:SPEC",
    "walking-in-burano": "burano_ai.games.walking_in_burano.spec:SPEC",
    "venice-2099": "burano_ai.games.venice_2099.spec:SPEC",
    "kuhn-poker": "burano_ai.games.kuhn_poker.spec:SPEC",
    "leduc-poker": "burano_ai.games.leduc_poker.spec:SPEC",
}
#: The game a command plays when none is named.
DEFAULT_GAME = "burano"

_loaded: dict[str, object] = {}


def game_keys() -> list[str]:
    """Every registered game key, the default first."""
    return list(REGISTRY)


def get_spec(key: str):
    """The `GameSpec` of game `key`.

    Raises:
        OptionError: no game of that name (the message lists the known ones).
    """
    if not isinstance(key, str) or key not in REGISTRY:
        raise OptionError(f"unknown game {key!r} (known games: {', '.join(REGISTRY)})")
    spec = _loaded.get(key)
    if spec is None:
        module, _, attribute = REGISTRY[key].partition(":")
        spec = getattr(importlib.import_module(module), attribute)
        _loaded[key] = spec
    return spec


def all_specs() -> list:
    """The specs of every registered game, in registry order."""
    return [get_spec(key) for key in REGISTRY]


#: Game class -> (spec, implementation name), or None for a class no registered game declares.
_implementations: dict[type, tuple[Any, str] | None] = {}


def implementation_of(game: Any) -> tuple[Any, str] | None:
    """(spec, implementation name) of `game`, a Game object of a registered game (its class is one of the
    spec's `implementations`), or None for a Game no registered game declares (a user's own class).

    Services read a State's capabilities through it (`implementation_of(state.game)`: the spec's
    `capabilities` and the implementation's name) instead of probing the State's type or attributes. The
    answer is cached per class; no game module is imported that is not imported already (a Game's class is).
    """
    kind = type(game)
    try:
        return _implementations[kind]
    except KeyError:
        pass
    found = None
    for key, target in REGISTRY.items():
        package = target.partition(":")[0].rpartition(".")[0]
        if kind.__module__ == package or kind.__module__.startswith(package + "."):
            spec = get_spec(key)
            for name, entry in spec.implementations.items():
                module, _, attribute = entry.partition(":")
                if module in sys.modules and getattr(sys.modules[module], attribute, None) is kind:
                    found = (spec, name)
            break
    _implementations[kind] = found
    return found


def has_native_interface(state: Any) -> bool:
    """Whether `state` is the compiled State of a game that declares "native_search" (its class extends
    `core._game.NativeState`: the native tree and the C playout run it), read from the registry."""
    found = implementation_of(state.game)
    return found is not None and found[1] == "compiled" and "native_search" in found[0].capabilities


def _package(key: str) -> str:
    get_spec(key)       # OptionError for an unknown game
    return REGISTRY[key].partition(":")[0].rpartition(".")[0]


def encoder_module(key: str):
    """The Python encoder of game `key` (its package's `encoder` module: `encode(position, seat)`,
    `ENCODER_VERSION`, `num_features(players)`), or None when the game has none."""
    try:
        return importlib.import_module(_package(key) + ".encoder")
    except ModuleNotFoundError as exc:
        if exc.name == _package(key) + ".encoder":
            return None
        raise


def builtin_net(key: str, players: int) -> str | None:
    """The path of the net file game `key` ships for `players` players (``<package>/nets/<n>p.json``), or None."""
    from importlib import resources
    try:
        path = resources.files(_package(key)).joinpath("nets", f"{players}p.json")
    except ModuleNotFoundError:
        return None
    return str(path) if path.is_file() else None


def web_files(key: str) -> dict[str, str]:
    """The web page's files game `key` ships (every file of ``<package>/web/``, found by glob): file name ->
    its path. The web server serves them at ``/static/games/<key>/<name>`` (`GameSpec.web_board` names
    one as ``games/<key>/board.js``)."""
    from importlib import resources
    from pathlib import Path
    folder = Path(str(resources.files(_package(key)))) / "web"
    return {path.name: str(path) for path in sorted(folder.glob("*")) if path.is_file()}
