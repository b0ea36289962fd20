"""burano_ai: AI solver and move-search engine for the board game Burano, and for every game in its
registry (`burano_ai.games`: `get_spec(key)`, `game_keys()`; Burano is the default game).

`Game` and `State` are Burano's compiled rules core (`burano_ai.games.burano._core`, built from
``src_cython/burano_ai/**/*.pyx`` during ``pip install``); `burano_ai.games.burano.reference` holds the readable
pure-Python model of the same rules that the core is tested against. Another game's Game class is
`burano_ai.games.get_spec(key).game_class()`. There is no silent fallback to the slow model: without the
compiled core, importing this package fails with instructions.
"""

__version__ = "0.1.0"

try:
    from burano_ai.core._game import playouts
    from burano_ai.games.burano._core import Game, State, playout
except ImportError as exc:  # pragma: no cover - exercised only on a broken install
    raise ImportError(
        "burano_ai's compiled core (burano_ai.games.burano._core) is not built: install the package with "
        "`python -m pip install .` (or `python -m pip install -e .` for development) so that the "
        f"Cython extensions are compiled ({exc})"
    ) from exc

from burano_ai.core.seats import CHANCE, TERMINAL

__all__ = ["CHANCE", "Game", "State", "TERMINAL", "playout", "playouts", "__version__"]
