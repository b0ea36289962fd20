"""The `burano` command line never prints a traceback, through real processes (cli.py).

Each test runs `python -m cli` from this checkout as a subprocess: closed pipes (`| head -1`: read one
line, close the pipe), internal errors, a UTF-8 byte-order mark, output paths that cannot be written,
positions the search cannot start from, and budgets outside their ranges.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = str(resources.files("burano_ai.games.burano.data").joinpath("examples/midgame-4p-C.json"))
CLOSED_PIPE = 141


def env(**extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if k != "BURANO_DEBUG_TRACEBACK"}
    return {**base, "PYTHONPATH": str(REPO), **extra}


def burano(*args: str, code: str | None = None, **extra_env: str) -> subprocess.CompletedProcess:
    """Run `burano <args>` (or `code` that ends by calling `cli.app()`) to completion."""
    prefix = ["-m", "cli"] if code is None else ["-c", code]
    return subprocess.run([sys.executable, *prefix, *map(str, args)], cwd=REPO, env=env(**extra_env),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)


def assert_one_error_line(result: subprocess.CompletedProcess, code: int, *fragments: str) -> str:
    assert result.returncode == code, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def example_with(**changes) -> dict:
    data = json.loads(Path(EXAMPLE).read_text(encoding="utf-8"))
    data.update(changes)
    return data


# ------------------------------------------------------------------------------------------------
# A closed pipe ends quietly


def head_1(*args: str) -> tuple[int, str, str]:
    """`burano <args> | head -1`: read one line, close the pipe, wait; (exit code, line, stderr)."""
    proc = subprocess.Popen([sys.executable, "-m", "cli", *args], cwd=REPO, env=env(), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = proc.stdout.readline().decode()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    return proc.wait(timeout=120), line, err


def closed_before_output(*args: str) -> tuple[int, str]:
    """`burano <args>` writing into a pipe whose reader is already gone: (exit code, stderr)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run([sys.executable, "-m", "cli", *args], cwd=REPO, env=env(), stdin=subprocess.DEVNULL,
                                stdout=write_end, stderr=subprocess.PIPE, timeout=120)
    finally:
        os.close(write_end)
    return result.returncode, result.stderr.decode()


#: Commands that print: each must end quietly when its reader closes the pipe.
PRINTING_COMMANDS = [
    ("suggest", EXAMPLE, "--iterations", "200"),
    ("suggest", EXAMPLE, "--iterations", "200", "--json"),
    ("show", EXAMPLE),
    ("random-game",),
    ("random-game", "--quiet"),
    ("new",),
]


def _command_id(args) -> str:
    return " ".join(Path(x).name for x in args)


@pytest.mark.parametrize("args", PRINTING_COMMANDS, ids=_command_id)
def test_head_1_ends_quietly(args):
    code, line, err = head_1(*args)
    assert line.strip(), "no first line"
    assert err == "", err
    assert code in (0, CLOSED_PIPE), code


@pytest.mark.parametrize("args", PRINTING_COMMANDS + [("--help",)], ids=_command_id)
def test_a_pipe_closed_before_any_output_ends_quietly(args):
    code, err = closed_before_output(*args)
    assert err == "", err
    assert code == CLOSED_PIPE


# ------------------------------------------------------------------------------------------------
# Internal errors: one line, exit 70, the traceback only when asked for

BUG = ("import sys; sys.argv[0] = 'burano'; import cli\n"
       "def boom(*args, **kwargs):\n"
       "    raise ZeroDivisionError('a bug\\nover two lines')\n"
       "cli._load = boom\n"
       "cli.app()\n")


def test_an_internal_error_is_one_line():
    result = burano("show", EXAMPLE, code=BUG)
    line = assert_one_error_line(result, 70)
    assert line == "error: internal error: ZeroDivisionError: a bug over two lines (please report)"


def test_the_traceback_of_an_internal_error_on_request():
    result = burano("show", EXAMPLE, code=BUG, BURANO_DEBUG_TRACEBACK="1")
    assert result.returncode == 70
    assert "Traceback" in result.stderr and "boom" in result.stderr
    assert result.stderr.splitlines()[-1].startswith("error: internal error: ZeroDivisionError")


def test_abort_is_one_line():
    code = ("import sys, typer; sys.argv[0] = 'burano'; import cli\n"
            "def abort(*args, **kwargs):\n"
            "    raise typer.Abort()\n"
            "cli._load = abort\n"
            "cli.app()\n")
    assert_one_error_line(burano("show", EXAMPLE, code=code), 1, "aborted")


def test_keyboard_interrupt_exits_130_quietly():
    code = ("import sys; sys.argv[0] = 'burano'; import cli\n"
            "def interrupt(*args, **kwargs):\n"
            "    raise KeyboardInterrupt\n"
            "cli._load = interrupt\n"
            "cli.app()\n")
    result = burano("show", EXAMPLE, code=code)
    assert result.returncode == 130
    assert result.stderr == ""


# ------------------------------------------------------------------------------------------------
# Files: errors name the file; a byte-order mark is fine


@pytest.mark.parametrize("command", [("show",), ("suggest", "--iterations", "50", "--json")])
def test_a_utf8_bom_is_accepted(tmp_path, command):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + Path(EXAMPLE).read_bytes())
    result = burano(command[0], path, *command[1:])
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


@pytest.mark.parametrize("command", ["show", "suggest"])
def test_file_errors_name_the_file(tmp_path, command):
    missing = tmp_path / "missing.json"
    assert_one_error_line(burano(command, missing), 2, str(missing))
    assert_one_error_line(burano(command, tmp_path), 2, str(tmp_path))
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"players": "\xe9"}')
    assert_one_error_line(burano(command, bad), 2, str(bad))


@pytest.mark.parametrize("option", ["--out", "--csv", "--plot"])
def test_arena_output_paths_are_checked_before_any_game(tmp_path, option):
    # 400 games of two search bots would take minutes: a fast error proves no game was played
    base = ("arena", "--bots", "ismcts:iterations=2000,ismcts:iterations=2000", "--games", "400")
    result = burano(*base, option, tmp_path)
    assert_one_error_line(result, 2, option, str(tmp_path), "directory")
    result = burano(*base, option, tmp_path / "no" / "such" / "file")
    assert_one_error_line(result, 2, option, "no such directory")


def test_arena_plot_needs_a_known_image_type(tmp_path):
    result = burano("arena", "--bots", "random,random", "--games", "400", "--plot", tmp_path / "ladder.xyz")
    assert_one_error_line(result, 2, "--plot", ".xyz")


def test_new_output_paths_are_checked(tmp_path):
    assert_one_error_line(burano("new", "-o", tmp_path), 2, "--output", str(tmp_path), "directory")
    assert_one_error_line(burano("new", "-o", tmp_path / "no" / "x.json"), 2, "--output", "no such directory")


# ------------------------------------------------------------------------------------------------
# Search edge cases


def test_a_seat_with_no_legal_move_is_a_position_error(tmp_path):
    # The actor is in the pyramid phase without its context: no legal move (the core once crashed here).
    path = tmp_path / "stuck.json"
    path.write_text(json.dumps(example_with(phase="pyramid", context={})), encoding="utf-8")
    for workers in ("1", "2"):
        result = burano("suggest", path, "--iterations", "1", "--workers", workers)
        assert_one_error_line(result, 2)


@pytest.mark.parametrize("args, fragment", [
    (("--iterations", str(2**63)), "iterations"),
    (("--iterations", str(10**9 + 1)), "iterations"),
    (("--time", "86401"), "seconds"),
    (("--time", "1e300"), "seconds"),
    (("--time", "nan"), "seconds"),
    (("--time", "0"), "seconds"),
])
def test_budgets_out_of_range_are_option_errors(args, fragment):
    assert_one_error_line(burano("suggest", EXAMPLE, *args), 2, fragment)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_tiny_time_budget_still_searches(workers):
    result = burano("suggest", EXAMPLE, "--time", "0.000001", "--workers", workers, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["move"] and data["action"] >= 0
    assert data["iterations"] >= int(workers)


# ------------------------------------------------------------------------------------------------
# Issue 35, G08: an integer literal past Python's 4,300-digit limit in a record, a --data file or a
# position file was an internal error (exit 70) in replay, analyse, play --resume, new and games

HUGE_LITERAL = "9" * 4400


@pytest.fixture(scope="module")
def record_with_a_huge_int(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("g08")
    plain = folder / "plain.json"
    made = burano("random-game", "--game", "goofspiel", "-n", "2", "-s", "3", "-q", "-r", plain)
    assert made.returncode == 0, made.stderr
    text = plain.read_text(encoding="utf-8")
    assert '"seed": 3' in text
    huge = folder / "huge.json"
    huge.write_text(text.replace('"seed": 3', f'"seed": {HUGE_LITERAL}', 1), encoding="utf-8")
    return huge


@pytest.mark.parametrize("command", [("replay",), ("analyse", "--iterations", "10"), ("play", "--resume")],
                         ids=lambda c: c[0])
def test_a_record_with_an_integer_past_the_digit_limit_is_one_error_line(record_with_a_huge_int, command):
    *verb, = command
    args = [*verb, record_with_a_huge_int] if verb[0] != "play" else ["play", "--resume", record_with_a_huge_int]
    assert_one_error_line(burano(*args), 2, "record: not JSON", "4,300 digits")


@pytest.mark.parametrize("game", ["azul-sintra", "walking-in-burano"])
@pytest.mark.parametrize("command", ["new", "games", "random-game"])
def test_a_data_file_with_an_integer_past_the_digit_limit_is_one_error_line(tmp_path, game, command):
    data = tmp_path / "data.json"
    data.write_text('{"track": [' + HUGE_LITERAL + "]}", encoding="utf-8")
    assert_one_error_line(burano(command, "--game", game, "--data", data), 2, "--data", "not JSON", "4,300 digits")


@pytest.mark.parametrize("game", ["burano", "goofspiel", "azul-sintra", "walking-in-burano", "venice-2099"])
def test_a_position_with_an_integer_past_the_digit_limit_is_one_error_line(tmp_path, game):
    made = burano("new", "--game", game)
    assert made.returncode == 0, made.stderr
    data = json.loads(made.stdout)
    data["round"] = 0
    position = tmp_path / "position.json"
    position.write_text(json.dumps(data).replace('"round": 0', f'"round": {HUGE_LITERAL}', 1), encoding="utf-8")
    assert_one_error_line(burano("show", position), 2, "4,300 digits")
