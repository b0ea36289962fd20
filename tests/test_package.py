"""Package-level behaviour: the compiled core is the default Game, and there is no silent fallback."""

import subprocess
import sys

import burano_ai


def test_game_is_the_compiled_core():
    assert burano_ai.Game.__module__ == "burano_ai.games.burano._core"
    assert burano_ai.games.burano._core.__file__.endswith((".so", ".pyd"))


def test_missing_core_fails_with_install_instructions():
    code = ("import sys; sys.modules['burano_ai.games.burano._core'] = None\n"
            "try:\n    import burano_ai\nexcept ImportError as exc:\n    print(exc)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         timeout=120).stdout
    assert "not built" in out and "pip install" in out
