"""The `burano` command line: parsing and printing only; the rules live in `burano_ai`.

Every game of the registry (`burano games` lists them) is played through the same commands: `--game KEY`
names it (default `burano`; a position file or game record names its own game, and a `--game` that
disagrees is an error). What is shown of a game -- its board, phases, score columns, move shortcuts --
comes from its spec (`burano_ai.games.get_spec`, the "people side" of `core.game.GameSpec`).

Commands: `games` (the registered games), `suggest` (the best move and turn plan for a position), `new`
(start position JSON), `show` (render a position, as one seat sees it), `apply` (play moves on a position
file), `replay` (a game record's steps and positions), `random-game` (a complete game with random
decisions), `arena` (bot tournaments), `play` (play against bots in the terminal), `engine` (the
JSON-lines analysis engine: docs/engine-protocol.md), `analyse` (a seat's decisions in a game record),
`serve` (the web board), `bench` (a deterministic signature and the speed table: docs/benchmarks.md).
Every user mistake -- a bad option, a missing or unreadable file, malformed JSON, an impossible
position -- prints one line `error: <message>` on stderr and exits with code 2, never a traceback.

Other endings, as Unix tools do: a bug prints `error: internal error: <type>: <message> (please
report)` and exits with 70 (EX_SOFTWARE) -- set `BURANO_DEBUG_TRACEBACK=1` to get the traceback as
well; Ctrl-C exits with 130 (in `burano suggest`'s search it stops the search, which prints the best move
so far and exits with 0), SIGTERM and SIGHUP during a search with 143 and 129 (the search workers
are stopped first; so are the worker processes of `analyse --jobs` and `arena --workers`, on Ctrl-C too); a reader that closes the pipe early (`burano show F | head -1`) ends the command
quietly with 141 (128 + SIGPIPE).
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import functools
import json
import os
import random
import sys
import traceback
from pathlib import Path
from typing import Any, Callable, List, NoReturn, Optional, Tuple

import typer
from typer.core import TyperGroup

from burano_ai.core.errors import BuranoError, OptionError, PositionError
from burano_ai.core.options import (game_options_json, game_options_text, is_placeholder, make_game, option_value_text,
                                    parse_cli_options)
from burano_ai.core.people import check_player_count, game_keyword
from burano_ai.core.seats import SEAT_LETTERS, parse_seat
from burano_ai.games import DEFAULT_GAME, all_specs, get_spec
from burano_ai.random_play import sample_chance
from burano_ai.search.limits import DEFAULT_SUGGEST_ITERATIONS
from burano_ai.search.result import PLAN_ARROW, PLAN_MIN_VISITS, starved_candidates

USAGE_ERROR = 2
#: Exit code of a bug in burano itself (sysexits.h EX_SOFTWARE).
INTERNAL_ERROR = 70
#: Exit code when the reader of our output went away: what a shell reports for a SIGPIPE death.
CLOSED_PIPE = 128 + 13
#: Most games `burano arena --sprt` plays when --games is not given: an SPRT at 2 players with
#: [0, 20] logistic Elo usually decides within a few thousand games.
SPRT_MAX_GAMES = 20_000
#: Without a terminal, `burano arena --sprt` prints its status on stderr every this many pairs.
SPRT_LOG_EVERY = 10
#: Set to 1 to print the traceback of an internal error (for bug reports).
DEBUG_TRACEBACK_VAR = "BURANO_DEBUG_TRACEBACK"
# Click's exception classes: typer 0.29 vendors click as typer._click (pinned in pyproject.toml).
_click_exceptions = sys.modules[typer.BadParameter.__module__]


# ------------------------------------------------------------------------------------------------
# Errors: one line on stderr, exit code 2


def _fail(message: str, code: int = USAGE_ERROR) -> NoReturn:
    """Print `error: <message>` as one line on stderr and exit with `code`."""
    typer.echo(f"error: {' '.join(str(message).split())}", err=True)
    raise typer.Exit(code)


def user_errors(command: Callable) -> Callable:
    """Turn bad input raised inside a command into one `error:` line on stderr and exit code 2."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except BrokenPipeError:
            _exit_on_closed_pipe()
        except BuranoError as exc:
            _fail(str(exc))
        except json.JSONDecodeError as exc:
            _fail(f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")
        except FileNotFoundError as exc:
            _fail(f"no such file: {exc.filename}")
        except IsADirectoryError as exc:
            _fail(f"is a directory, not a file: {exc.filename}")
        except OSError as exc:
            _fail(f"cannot access {exc.filename or 'file'}: {exc.strerror or exc}")
        except UnicodeDecodeError as exc:
            _fail(f"cannot read the file as UTF-8 text: {exc.reason} at byte {exc.start}")

    return wrapper


def _silence_stdout() -> int:
    """The reader of stdout is gone: return the exit code of a quiet stop, as `yes | head -1` makes.

    Python would complain again when it flushes stdout at exit, so stdout now points at /dev/null.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):   # no real file descriptor (a test runner's stdout)
        pass
    return CLOSED_PIPE


def _exit_on_closed_pipe() -> NoReturn:
    """Stop the command quietly: the reader of stdout is gone (see `_silence_stdout`)."""
    raise typer.Exit(_silence_stdout())


def _internal_error(exc: BaseException) -> int:
    """Report a bug as one line on stderr (the traceback too under BURANO_DEBUG_TRACEBACK=1)."""
    if os.environ.get(DEBUG_TRACEBACK_VAR, "") not in ("", "0"):
        traceback.print_exception(exc, file=sys.stderr)
    message = " ".join(str(exc).split()) or "(no message)"
    typer.echo(f"error: internal error: {type(exc).__name__}: {message} (please report)", err=True)
    return INTERNAL_ERROR


class _OneLineErrors(TyperGroup):
    """End every run with an exit code and at most one line on stderr, never a traceback.

    Click's own usage errors (unknown option, bad integer, ...) become one `error:` line with exit 2;
    Ctrl-C exits with 130; a closed stdout exits quietly with 141; anything else is a bug (exit 70).
    """

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            try:
                rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
                sys.stdout.flush()  # a pipe closed early shows here, not at exit, for short outputs
            except _click_exceptions.ClickException as exc:
                if type(exc).__name__ == "NoArgsIsHelpError":   # bare `burano`: the help, as older click did
                    typer.echo(exc.format_message())
                    rv = 0
                else:
                    typer.echo(f"error: {' '.join(exc.format_message().split())}", err=True)
                    rv = exc.exit_code
            except typer.Abort:     # click's Abort (an EOF at a prompt): typer re-exports it
                typer.echo("error: aborted", err=True)
                rv = 1
            except typer.Exit as exc:   # raised outside a command (typer returns the ones inside)
                rv = exc.exit_code
        except KeyboardInterrupt:
            rv = 130
        except OSError as exc:      # BrokenPipeError, or an EPIPE wrapped by another layer
            rv = _silence_stdout() if exc.errno == errno.EPIPE else _internal_error(exc)
        except SystemExit as exc:   # typer's own answer to a closed pipe (writing --help) is exit 1
            if not (isinstance(exc.__context__, OSError) and exc.__context__.errno == errno.EPIPE):
                raise
            rv = _silence_stdout()
        except Exception as exc:
            rv = _internal_error(exc)
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


app = typer.Typer(
    cls=_OneLineErrors,
    help="Burano: positions, rendering and games from the command line.",
    epilog=f"Set {DEBUG_TRACEBACK_VAR}=1 to print the traceback of an internal error in a bug report.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _print_version(value: bool) -> None:
    if value:
        from burano_ai import __version__
        typer.echo(f"burano {__version__}")
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                       help="Print the version and exit.")) -> None:
    pass


# ------------------------------------------------------------------------------------------------
# Helpers


#: Help of `--players` (the range is the game's own: `burano games` lists them).
PLAYERS_HELP = "Number of players, in the game's range (Burano: 2, 3 or 4; default: the game's usual count, 4)."
#: Help of every command's `--game`.
GAME_HELP = f"The game (default {DEFAULT_GAME}; `burano games` lists them)."
#: Help of `--game` for commands that read a file naming its own game.
FILE_GAME_HELP = f"The game (default: the file's own game, else {DEFAULT_GAME}; `burano games` lists them)."


#: Help of `--option`.
OPTION_HELP = ("A game option NAME=VALUE besides the player count (repeatable; `burano games` lists each game's: "
               "Azul's side=B, first_player=1).")
#: Help of `--data`.
DATA_HELP = ("A corrected component data file (JSON) replacing the game's placeholder data (the game's data option; "
             "`burano games` says which games have one).")


def _spec(game: Optional[str]):
    """The spec of `--game` (None: the default game). An unknown key is an `OptionError` naming the known ones."""
    return get_spec(DEFAULT_GAME if game is None else game)


def _check_players(players: Optional[int], spec, default: Optional[int] = None) -> int:
    """`--players` checked against the game's own range; None gives `default` (else the game's default)."""
    if players is None:
        return spec.default_players if default is None else default
    return check_player_count(players, spec)


#: The largest seed every seeded command takes (records and positions store seeds from 0 to 2^63-1).
MAX_SEED = 2**63 - 1


def _seed_option(seed: int, option: str = "--seed") -> int:
    """`--seed` checked before anything runs: a whole number from 0 to 2^63-1 (what a record can store)."""
    if not 0 <= seed <= MAX_SEED:
        raise OptionError(f"{option} must be a whole number from 0 to 2^63-1, not {seed}")
    return seed


def _seat_option(text: str, num_players: int) -> int:
    """The 0-based seat named by `--seat`: a letter A, B, ..., the one seat syntax people type."""
    return parse_seat(text, num_players, what="--seat")


def _owner(spec, found, file: Path, what: str):
    """`found` (the spec of the game a file holds, or None: it does not say), checked against `spec`
    (`--game`, or None when not given); the spec the command uses.

    Raises:
        OptionError: `--game` names another game than the file.
    """
    if found is None:
        return spec or get_spec(DEFAULT_GAME)
    if spec is not None and spec.key != found.key:
        raise OptionError(f"{file} is a {found.title} {what}, not one of --game {spec.key}")
    return found


def _new_position(spec, options: dict[str, Any], seed: int) -> str:
    """A new game of `spec` with `options` (its default player count, dealt from `seed`), its chance
    events up to the first decision each taken as their first outcome: the full state as JSON."""
    state = make_game(spec, spec.default_players, options, where="--option").new_initial_state(seed)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state.to_json()


def _load(file: Optional[Path], game: Optional[str] = None, option: Optional[List[str]] = None,
          data: Optional[Path] = None, seed: int = 0) -> tuple[Any, Any, Optional[int]]:
    """(spec, state, view seat or None) of a position file, or of the game's built-in example when `file`
    is None (a new game of the options `--option`/`--data` when some are given, dealt from `seed`). The
    position's `format` names its game; `--game` must agree with it."""
    from burano_ai.engine import load_position
    asked = None if game is None else get_spec(game)
    if file is None:
        spec = asked or get_spec(DEFAULT_GAME)
        options = parse_cli_options(spec, option, data)
        return (spec, *load_position(_new_position(spec, options, seed) if options else spec.example_position()))
    if option or data is not None:
        raise OptionError(f"--option/--data make a new game: {file} is a position with its own options "
                          "(give no FILE to search a new game's first decision)")
    if file.is_dir():
        raise PositionError(f"{file} is a directory, not a position file")
    if not file.exists():
        raise PositionError(f"no such file: {file}")
    state, view = load_position(file)     # the position's format tag picks its game
    tag = state.to_dict().get("format")
    found = next((spec for spec in all_specs() if spec.position_format == tag), None)
    return _owner(asked, found, file, "position"), state, view


def _record_game(file: Path, game: Optional[str]):
    """The spec of a game record's game (its `game` field; `burano-game/1` records without one are
    Burano's), checked against `--game`. A file that cannot be read as JSON is left to `GameRecord.load`
    to report (the spec is then `--game`'s)."""
    asked = None if game is None else get_spec(game)
    try:
        header = json.loads(file.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError, RecursionError):
        header = None
    named = header.get("game", DEFAULT_GAME) if isinstance(header, dict) else None
    found = next((spec for spec in all_specs() if spec.key == named), None)
    return _owner(asked, found, file, "game record")


def _check_output(path: Optional[Path], option: str) -> None:
    """Refuse an output file that cannot be written, before any work is done.

    Raises:
        OptionError: `path` is a directory, its directory does not exist, or it cannot be written.
    """
    if path is None:
        return
    if path.is_dir():
        raise OptionError(f"{option} {path}: is a directory, not a file")
    folder = path.parent
    if not folder.is_dir():
        raise OptionError(f"{option} {path}: no such directory: {folder}")
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise OptionError(f"{option} {path}: permission denied")


def _check_plot_output(path: Optional[Path]) -> None:
    """`_check_output` for `--plot`, and matplotlib must be there and know the file type."""
    _check_output(path, "--plot")
    if path is None:
        return
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError as exc:
        raise OptionError(f"--plot needs matplotlib: pip install 'burano-ai[plot]' ({exc})") from None
    kinds = FigureCanvasBase.get_supported_filetypes()
    kind = path.suffix.lstrip(".").lower()
    if kind and kind not in kinds:
        raise OptionError(f"--plot {path}: matplotlib cannot write .{kind} files; use one of "
                          f"{', '.join(sorted(kinds))}")


EVAL_HELP = ("Leaf evaluation: playout (the game's heuristic playout), net (the learned evaluation the game ships "
             "for the player count) or a net file (burano train); default: the game's default search.")


ROOT_HELP = ("How the search chooses among the root's moves: ucb (default) or halving (sequential halving: every "
             "move gets visits before the worse half is dropped, the last two share the rest; measured in "
             "docs/strength.md).")


SECRET_HELP = ("How the search chooses the other seats' secret simultaneous choices (Goofspiel's bids, Burano's "
               "pyramid cubes): prior (drawn from the game's prior), ucb (each seat's own bandit, decoupled UCT) or exp3 "
               "(each seat's own bandit drawing at random by Exp3); "
               "default: the game's default search (docs/strength.md, \"Simultaneous bids\").")


def _search_params(spec, playout: Optional[str] = None, evaluation: Optional[str] = None,
                   root: Optional[str] = None, secret: Optional[str] = None):
    """The game's default search with --playout, --eval, --root and --secret applied (None: the default
    unchanged)."""
    from burano_ai.search.netfile import eval_to_net
    from burano_ai.search import Params
    if playout is None and evaluation is None and root is None and secret is None:
        return None
    changes: dict[str, Any] = dict(spec.search_defaults)
    if playout is not None:
        changes["playout_policy"] = playout
    if root is not None:
        changes["root"] = root
    if secret is not None:
        changes["secret"] = secret
    if evaluation is not None:
        changes["net"] = eval_to_net(evaluation.strip().lower() if evaluation.strip().lower() in ("playout", "net")
                                     else evaluation)
    return Params(**changes)


def _viewer(seat: Optional[str], state, view: Optional[int], doing: str) -> Optional[int]:
    """The seat a command works for: `--seat`, else the position's view seat; they must agree."""
    viewer = None if seat is None else _seat_option(seat, state.num_players)
    if view is not None:
        if viewer is not None and viewer != view:
            raise OptionError(f"the position is seat {SEAT_LETTERS[view]}'s view; it cannot be {doing} "
                              f"seat {SEAT_LETTERS[viewer]}")
        viewer = view
    return viewer


def _board(spec, state, viewer: Optional[int]) -> str:
    """The game's rendering of the position as `viewer` sees it (None: all of it), ending with a newline."""
    return spec.render(state.to_dict(viewer)).rstrip("\n") + "\n"


def _winners(state) -> list[int]:
    """The seats that share the win of a finished game: the largest `returns()` (the order of finish)."""
    returns = state.returns()
    return [p for p, value in enumerate(returns) if value == max(returns)]


def _scores_table(spec, state) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """(headers, rows) of the final score table: the seat, the game's score columns, the winners."""
    columns = spec.score_columns(state)
    winners = set(_winners(state)) if state.is_terminal() else set()
    headers = ("seat", *(header for header, _ in columns), "")
    rows = [(spec.seat_label(p), *(cells[p] for _, cells in columns), "winner" if p in winners else "")
            for p in range(state.num_players)]
    return headers, rows


def _console(**options):
    """A rich Console whose writes to a closed pipe raise BrokenPipeError (rich's own default exits 1)."""
    from rich.console import Console

    class PipeAwareConsole(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))

    return PipeAwareConsole(**options)


def _print_scores(spec, state) -> None:
    headers, rows = _scores_table(spec, state)
    if sys.stdout.isatty():
        from rich.table import Table
        table = Table(*headers, title="final scores")
        for row in rows:
            table.add_row(*row)
        _console().print(table)
    else:
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
        typer.echo("final scores")
        for row in [headers] + rows:
            typer.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    winners = _winners(state)
    typer.echo(f"winner{'s' if len(winners) > 1 else ''}: {', '.join(SEAT_LETTERS[p] for p in winners)}")


# ------------------------------------------------------------------------------------------------
# Commands


def _placeholder_notice(spec, options: Optional[dict] = None, position: Optional[dict] = None) -> Optional[str]:
    """The one line a game with stand-in component data shows wherever it is played (capability
    `placeholder_data`, the spec's `placeholder_notice`), or None: also None once a corrected data file
    is in use (in `options`, or in the `position`: `core.options.is_placeholder`)."""
    if not is_placeholder(spec, options, position):
        return None
    return getattr(spec, "placeholder_notice", None) or "placeholder data: some component data stands in for lost originals"


def _game_summary(spec, options: Optional[dict] = None) -> dict[str, Any]:
    """What `burano games` tells of one game (its JSON object); `options`: the game's options checked
    (a corrected data file: no placeholder notice)."""
    return {
        "key": spec.key,
        "title": spec.title,
        "min_players": spec.min_players,
        "max_players": spec.max_players,
        "default_players": spec.default_players,
        "position_format": spec.position_format,
        "implementations": list(spec.implementations),
        "capabilities": sorted(spec.capabilities),
        "default": spec.key == DEFAULT_GAME,
        "placeholder": _placeholder_notice(spec, options),
        "options": game_options_json(spec),
    }


@app.command()
@user_errors
def games(
    as_json: bool = typer.Option(False, "--json", help="Print the games as a JSON list."),
    game: Optional[str] = typer.Option(None, "--game", metavar="GAME", help="List this game only."),
    option: Optional[List[str]] = typer.Option(None, "--option", metavar="NAME=VALUE",
                                               help="With --game: check these game options (repeatable)."),
    data: Optional[Path] = typer.Option(None, "--data", metavar="FILE",
                                        help="With --game: check this data file (a corrected one ends the "
                                             "placeholder notice)."),
) -> None:
    """List the games burano plays: key (for --game), title, players, position format, implementations,
    capabilities, options (--option NAME=VALUE). With --game and --data/--option: check them."""
    if game is None and (option or data is not None):
        raise OptionError("--option/--data are a game's: give --game too")
    specs = all_specs() if game is None else [get_spec(game)]
    options = None if game is None else parse_cli_options(specs[0], option, data)
    summaries = [_game_summary(spec, options) for spec in specs]
    if as_json:
        typer.echo(json.dumps(summaries, indent=2))
        return
    headers = ("game", "title", "players", "default", "position format", "implementations")
    rows = [(g["key"] + (" *" if g["default"] else ""), g["title"],
             f"{g['min_players']}-{g['max_players']}" if g["min_players"] < g["max_players"] else
             str(g["min_players"]), str(g["default_players"]), g["position_format"],
             ", ".join(g["implementations"])) for g in summaries]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    for row in [headers] + rows:
        typer.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    typer.echo("")
    for g in summaries:
        typer.echo(f"{g['key']}: {', '.join(g['capabilities']) or '(no optional capabilities)'}")
    for spec in specs:
        lines = game_options_text(spec)
        if lines:
            typer.echo(f"{spec.key} options (--option NAME=VALUE):")
            for line in lines:
                typer.echo(f"  {line}")
    if options:
        spec = specs[0]
        given = ", ".join(f"{name}={option_value_text(spec.game_options[name], value)}"
                          for name, value in options.items())
        typer.echo(f"{spec.key} with {given}: valid")
    for g in summaries:
        if g["placeholder"]:
            typer.echo(f"{g['key']} uses {g['placeholder']}")
    typer.echo(f"* the default game (when --game is not given); capabilities: what a game has besides the "
               f"rules")


@app.command()
@user_errors
def new(
    players: Optional[int] = typer.Option(None, "--players", "-n", help=PLAYERS_HELP),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="Deal the start from this seed: the same seed "
                                       "gives the same deal, another seed another (the start `play --seed` "
                                       "deals). Without it, a secret deal."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the JSON here (default: stdout)."),
    game: Optional[str] = typer.Option(None, "--game", metavar="GAME", help=GAME_HELP),
    option: Optional[List[str]] = typer.Option(None, "--option", metavar="NAME=VALUE", help=OPTION_HELP),
    data: Optional[Path] = typer.Option(None, "--data", metavar="FILE", help=DATA_HELP),
) -> None:
    """Write the start position of a new game as JSON (the full state), dealt: every chance event of the
    setup drawn (tiles, cards, the first player) up to the first decision, so `suggest` can search it."""
    from burano_ai.core.people import game_keyword
    from burano_ai.record import HUMAN
    from burano_ai.session import GameSession
    spec = _spec(game)
    if seed is not None:
        _seed_option(seed)
    options = parse_cli_options(spec, option, data)
    _check_output(output, "--output")
    players = _check_players(players, spec)
    make_game(spec, players, options, where="--option")     # a wrong combination of options named as given
    session = GameSession(players, seed, [HUMAN] * players, options=options, **game_keyword(spec, DEFAULT_GAME))
    session.advance()                                       # the setup's chance events, seeded or secret
    text = json.dumps(session.state.to_dict(), indent=2) + "\n"
    if output is None:
        typer.echo(text, nl=False)
    else:
        with open(output, "w", encoding="utf-8") as f:
            f.write(text)


@app.command()
@user_errors
def show(
    file: Path = typer.Argument(..., metavar="FILE", help="Position JSON file (full, or one seat's view)."),
    seat: Optional[str] = typer.Option(None, "--seat", metavar="SEAT",
                                       help="Show the position as this seat sees it: A, B, ..."),
    game: Optional[str] = typer.Option(None, "--game", metavar="GAME", help=FILE_GAME_HELP),
) -> None:
    """Render a position as plain text, and the legal moves when the shown seat is to move.

    A file holding one seat's view is shown as that seat sees it (its hidden parts were never known).
    """
    spec, state, view = _load(file, game)
    viewer = _viewer(seat, state, view, "shown as")
    typer.echo(_board(spec, state, viewer), nl=False)
    if viewer is None or state.current_player() == viewer:
        typer.echo("")
        typer.echo(spec.render_legal_actions(state), nl=False)


@app.command("random-game")
@user_errors
def random_game(
    players: Optional[int] = typer.Option(None, "--players", "-n", help=PLAYERS_HELP),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the setup and of every random decision."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the final scores."),
    record: Optional[Path] = typer.Option(None, "--record", "-r", help="Write the game record (burano-game/1) "
                                                                       "here."),
    game: Optional[str] = typer.Option(None, "--game", metavar="GAME", help=GAME_HELP),
    option: Optional[List[str]] = typer.Option(None, "--option", metavar="NAME=VALUE", help=OPTION_HELP),
    data: Optional[Path] = typer.Option(None, "--data", metavar="FILE", help=DATA_HELP),
) -> None:
    """Play a complete game with uniformly random decisions; print the transcript and the scores."""
    from burano_ai.record import GameRecord, SeatInfo
    spec = _spec(game)
    _seed_option(seed)
    options = parse_cli_options(spec, option, data)
    _check_output(record, "--record")
    players = _check_players(players, spec)
    state = make_game(spec, players, options, where="--option").new_initial_state(seed)
    seats = [SeatInfo(f"random {SEAT_LETTERS[i]}", "random") for i in range(players)]
    game_record = GameRecord.new(players, seed, seats, options=options, **game_keyword(spec, DEFAULT_GAME))
    rng = random.Random(seed)
    if not quiet:
        typer.echo(f"random game: {players} players, seed {seed}")
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action, who = sample_chance(state, rng), "chance"
        else:
            action, who = rng.choice(state.legal_actions()), SEAT_LETTERS[state.current_player()]
            decisions += 1
        if not quiet:
            typer.echo(f"{spec.phase_label(state.to_dict()):<20} {who:<6} {state.action_to_string(action)}")
        game_record.add(state, action)
        state.apply_action(action)
    if not quiet:
        typer.echo(f"game over after {decisions} decisions")
    if record is not None:
        game_record.finish(state)
        game_record.save(record)
        typer.echo(f"record written to {record}")
    _print_scores(spec, state)


def _write_text(path: Path, text: str) -> None:
    """Write `text` to `path` atomically: a failed write leaves the old file as it was."""
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise


def _split_moves(moves: list[str]) -> list[str]:
    """Move arguments, each one move or several separated by ';'."""
    return [m.strip() for arg in moves for m in arg.split(";") if m.strip()]


def _to_move_line(spec, state, view: Optional[int]) -> str:
    """`spring r1: B (you) to move`, `...: a chance event is next (fish)` or `game over: <scores>`."""
    if state.is_terminal():
        return "game over: " + spec.describe_scores(state.scores())
    position = state.to_dict()
    label = spec.phase_label(position)
    where = f"{label}: " if label else ""
    if state.is_chance_node():
        return f"{where}a chance event is next ({spec.chance_label(position)})"
    mover = SEAT_LETTERS[state.current_player()]
    you = " (you)" if view is not None and state.current_player() == view else ""
    return f"{where}{mover}{you} to move"


@app.command()
@user_errors
def apply(
    file: Path = typer.Argument(..., metavar="POSITION", help="Position JSON file (full, or one seat's view)."),
    moves: list[str] = typer.Argument(..., metavar="MOVE...",
                                      help="Moves and chance outcomes in order, by their text ('take b5', "
                                           "'fish: tuna'); one per argument or separated by ';'. In one seat's "
                                           "view, a step that seat cannot see is written '?'."),
    output: Optional[Path] = typer.Option(None, "--output", "-o",
                                          help="Write the new position here (it may be POSITION itself); "
                                               "default: stdout."),
    game: Optional[str] = typer.Option(None, "--game", metavar="GAME", help=FILE_GAME_HELP),
) -> None:
    """Apply moves to a position and write the new position: keep a real table's position current.

    All or nothing: if one move cannot be played, the error names it and nothing is written. A one-seat
    view stays that seat's view.
    """
    from burano_ai.record import apply_moves
    _check_output(output, "--output")
    move_list = _split_moves(moves)
    if not move_list:
        raise OptionError(f"no move given (MOVE was {' '.join(repr(m) for m in moves)[:80]}): "
                          "name at least one move, e.g. 'take b5'")
    spec, state, view = _load(file, game)
    new_state, steps = apply_moves(state, move_list, view, **game_keyword(spec, DEFAULT_GAME))
    text = new_state.to_json(view, indent=2) + "\n"
    if output is None:
        typer.echo(text, nl=False)
        return
    _write_text(output, text)
    typer.echo(f"applied {len(steps)} step{'s' if len(steps) != 1 else ''}; {_to_move_line(spec, new_state, view)}")
    typer.echo(f"position written to {output}")


@app.command()
@user_errors
def replay(
    file: Path = typer.Argument(..., metavar="RECORD", help="Game record (burano-game/1 JSON)."),
    ply: Optional[int] = typer.Option(None, "--ply", "-p", help="Show the position after this many steps "
                                                               "(default: the end; negative counts from the end)."),
    seat: Optional[str] = typer.Option(None, "--seat", metavar="SEAT",
                                       help="See the game as this seat did: A, B, ... (its view of the position, "
                                            "the other seats' hidden steps hidden)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o",
                                          help="Write the position at --ply as JSON here (a one-seat view with "
                                               "--seat)."),
    as_json: bool = typer.Option(False, "--json", help="Print the position at --ply as JSON instead of the board."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Do not list the steps."),
    game: Optional[str] = typer.Option(None, "--game", metavar="GAME", help=FILE_GAME_HELP),
) -> None:
    """Replay a game record: list its steps and show (or write) the position at any step.

    Every step is checked as it is played; a bad record gets one line naming the step.
    """
    from burano_ai.record import GameRecord, RecordError
    from burano_ai.record import narrate_step, record_narration
    _check_output(output, "--output")
    if file.is_dir():
        raise RecordError(f"{file} is a directory, not a game record")
    spec = _record_game(file, game)
    record = GameRecord.load(file)
    viewer = None if seat is None else _seat_option(seat, record.players)
    if record.view is not None:
        exported = SEAT_LETTERS.index(record.view)
        if viewer is not None and viewer != exported:
            raise OptionError(f"the record is exported for seat {record.view}; it cannot be replayed as seat "
                              f"{SEAT_LETTERS[viewer]}")
        viewer = exported
    total = len(record.steps)
    if ply is None:
        ply = total
    elif ply < 0:
        ply += total
    if not 0 <= ply <= total:
        raise OptionError(f"--ply must be from {-total} to {total} (the record has {total} steps), not {ply}")
    state = None
    lines = []
    listing = not quiet and not (output is not None or as_json)
    words, effects = record_narration(record) if listing else ([], [])
    for i, st in record.positions():
        if i == ply:
            state = st.clone()
        if i < total and listing:
            step = record.steps[i]
            marker = ">" if i == ply else " "
            told = narrate_step(step, viewer, effects=effects[i], words=words[i], **game_keyword(spec, DEFAULT_GAME))
            lines.append(f"{marker}{i:4d}  {spec.phase_label(st.to_dict()):<16} {told}")
    assert state is not None
    position = state.to_dict(viewer) if viewer is not None else state.to_dict()
    if output is not None:
        _write_text(output, json.dumps(position, indent=2) + "\n")
        typer.echo(f"position after step {ply} of {total} written to {output}")
        return
    if as_json:
        typer.echo(json.dumps(position, indent=2))
        return
    for line in lines:
        typer.echo(line)
    if lines:
        typer.echo("")
    names = ", ".join(f"{SEAT_LETTERS[i]} {s.name} ({s.player})" for i, s in enumerate(record.seats))
    typer.echo(f"{record.players} players: {names}")
    typer.echo(f"position after step {ply} of {total}" + (f", as seat {SEAT_LETTERS[viewer]} sees it"
                                                              if viewer is not None else ""))
    typer.echo(_board(spec, state, viewer), nl=False)
    typer.echo(_to_move_line(spec, state, viewer))
    if ply == total and record.result is not None:
        for line in spec.describe_result(state):   # the tie-break, where it decided
            typer.echo(line)
        typer.echo("result: " + spec.describe_scores(record.result["scores"])
                   + f"; winner{'s' if len(record.result['winners']) > 1 else ''}: "
                   + ", ".join(record.result["winners"]))


@app.command()
@user_errors
def suggest(
    file: Optional[Path] = typer.Argument(None, metavar="[FILE]",
                                          help="Position JSON (full, or the searching seat's view); "
                                               "default: the game's built-in example (Burano: a 4-player "
                                               "summer position, seat C to move)."),
    seat: Optional[str] = typer.Option(None, "--seat", metavar="SEAT", help="Searching seat, A, B, ... "
                                       "(default: the seat to move)."),
    seconds: Optional[float] = typer.Option(None, "--time", metavar="S", help="Search time in seconds."),
    iterations: Optional[int] = typer.Option(None, "--iterations", metavar="N",
                                             help="Search iterations (default, without --time: search until the best move is clear of the others and two independent trees agree on it, at least 10,000 iterations and at most 10 s; with --workers: 10,000)."),
    threads: Optional[int] = typer.Option(None, "--threads", metavar="T",
                                          help="Threads sharing one search tree (default: every usable core, "
                                               "1 with --workers or --trees). More than 1 is not "
                                               "bit-reproducible."),
    workers: int = typer.Option(1, "--workers", metavar="W",
                                help="Worker processes, a search tree each (root-parallel; reproducible)."),
    trees: Optional[int] = typer.Option(None, "--trees", metavar="K",
                                        help="Independent search trees in this process, a thread each "
                                             "(root-parallel; reproducible with --iterations). Moves the "
                                             "trees disagree on are reported tied. Default: 2 when "
                                             "searching until settled without --threads, else 1."),
    seed: int = typer.Option(0, "--seed", help="Seed: the same seed and iteration budget give the same answer "
                                               "with --threads 1 or --workers W."),
    top: int = typer.Option(8, "--top", metavar="N", help="Candidate moves to list."),
    playout: Optional[str] = typer.Option(None, "--playout", metavar="POLICY",
                                          help="Playout policy: heuristic (default) or random."),
    evaluation: Optional[str] = typer.Option(None, "--eval", metavar="playout|net|FILE", help=EVAL_HELP),
    root: Optional[str] = typer.Option(None, "--root", metavar="ucb|halving", help=ROOT_HELP),
    secret: Optional[str] = typer.Option(None, "--secret", metavar="prior|ucb|exp3", help=SECRET_HELP),
    plans: bool = typer.Option(False, "--plans", help="Show each candidate's plan (the JSON always has them)."),
    allow: Optional[list[str]] = typer.Option(None, "--allow", metavar="MOVE",
                                              help="Search only this move (repeat for several; quote moves "
                                                   "with spaces: --allow 'take m2')."),
    avoid: Optional[list[str]] = typer.Option(None, "--avoid", metavar="MOVE",
                                              help="Do not search this move (repeat for several)."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    game: Optional[str] = typer.Option(None, "--game", metavar="GAME", help=FILE_GAME_HELP),
    option: Optional[List[str]] = typer.Option(None, "--option", metavar="NAME=VALUE",
                                               help=OPTION_HELP + " Without FILE: search the first decision of a "
                                                                  "new game of these options (dealt from --seed)."),
    data: Optional[Path] = typer.Option(None, "--data", metavar="FILE",
                                        help=DATA_HELP + " Without FILE only, as --option."),
) -> None:
    """Suggest the best move for the seat to move, with the plan for the rest of its turn.

    Columns: win = chance to win; VP (the game's score: points in Goofspiel) = expected final VP;
    margin = expected final VP minus the best other seat's (how far ahead or behind the move leaves
    you: +5 is a 5-point lead, -5 five points behind the leader). Plan steps show their iterations in brackets; a "?" marks a step the search
    barely compared with its alternatives.

    The search reads only what the seat can know: given a full position it works from the seat's view.
    By default one search tree is shared by a thread per usable core. Deterministic mode: --threads 1
    (or --workers W, root-parallel processes). On a terminal a live line shows the best move so far;
    Ctrl-C stops the search and prints the best move so far (a second Ctrl-C, or Ctrl-C with
    --workers, aborts with exit code 130).
    """
    import signal
    import threading

    from burano_ai.engine import root_moves
    from burano_ai.engine import suggest as engine_suggest
    from burano_ai.search import Limit, Params
    _seed_option(seed)

    spec, state, view = _load(file, game, option, data, seed)
    searcher = None if seat is None else _seat_option(seat, state.num_players)
    if top < 1:
        raise OptionError(f"--top must be at least 1, not {top}")
    # Without a budget: search until the best move is clear of the others (no tie) after at least
    # SETTLE_MIN_ITERATIONS, or SETTLE_SECONDS have passed (then the tie is what the search can say).
    settle = seconds is None and iterations is None and workers == 1
    if trees is None:
        # Settling asks two independent trees to agree: one tree can starve a move whose value shows only
        # deeper and still look sure of its answer (issue 33); two trees on a core each cost nothing.
        trees = SETTLE_TREES if settle and threads is None else 1
    if seconds is None and iterations is None:
        if settle:
            seconds = SETTLE_SECONDS
        else:
            iterations = DEFAULT_SUGGEST_ITERATIONS
    limit = Limit(iterations=iterations, seconds=seconds)
    # None: the game's default search (`GameSpec.search_defaults`), which --playout and --eval override
    params = _search_params(spec, playout, evaluation, root, secret)
    allow_moves, avoid_moves = _cli_moves(allow, "--allow"), _cli_moves(avoid, "--avoid")
    try:
        root_moves(state, allow_moves, avoid_moves)     # checked here to name the options as typed
    except OptionError as exc:
        raise OptionError(str(exc).replace("allow_moves", "--allow").replace("avoid_moves", "--avoid")) from None
    options = dict(seat=searcher, limit=limit, params=params, seed=seed, workers=workers, threads=threads,
                   trees=trees, view=view, allow_moves=allow_moves, avoid_moves=avoid_moves,
                   **game_keyword(spec, DEFAULT_GAME))
    live = not as_json and sys.stderr.isatty()
    if workers > 1:     # worker processes cannot be stopped early or report: a progress bar, Ctrl-C aborts
        if live:
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            with Progress(TextColumn("searching"), BarColumn(), TextColumn("{task.completed} it"),
                          TimeElapsedColumn(), transient=True) as bar:
                task = bar.add_task("search", total=iterations)
                result = engine_suggest(state, progress=lambda done, _t: bar.update(task, completed=done),
                                        **options)
        else:
            result = engine_suggest(state, **options)
    else:
        stop = threading.Event()
        previous = signal.getsignal(signal.SIGINT)
        settled: list[int] = []
        interrupted: list[bool] = []
        streak: list[str] = []

        def check_settled(partial) -> None:
            # Settled: the same best move, tied with no other, at SETTLE_REPORTS reports in a row. Never at a
            # simultaneous choice searched with the other seats' bandits (`SearchResult.mixed`): there the values
            # move with the bandits, and a move clear of the others for a second is no sign of a settled answer
            # (measured: a Goofspiel seed settled on such a moment where the other seeds and its own 10 s named
            # three bids tied; docs/strength.md, "Simultaneous bids").
            if not settle or stop.is_set() or partial.mixed:
                return
            if partial.iterations < SETTLE_MIN_ITERATIONS or partial.tied or not partial.move:
                streak.clear()
                return
            if streak and streak[-1] != partial.move:
                streak.clear()
            streak.append(partial.move)
            if len(streak) >= SETTLE_REPORTS:
                settled.append(partial.iterations)
                stop.set()

        if settle:
            options = dict(options, on_report=check_settled, report_every=LIVE_EVERY)
        check_stop = threading.Event()      # ends the runner-up checks after a settled search (Ctrl-C)

        def on_interrupt(signum, frame) -> None:
            interrupted.append(True)
            stop.set()
            check_stop.set()
            signal.signal(signal.SIGINT, signal.default_int_handler)    # a second Ctrl-C aborts

        in_main = threading.current_thread() is threading.main_thread()
        if in_main and previous is signal.default_int_handler:
            signal.signal(signal.SIGINT, on_interrupt)
        try:
            if live:
                result = _suggest_live(engine_suggest, state, stop, iterations, options,
                                       check_settled if settle else None,
                                       spec.score_name if spec.utility == "payoff" else None)
            else:
                result = engine_suggest(state, stop=stop, **options)
            if settled and not interrupted:
                result = _check_runner_ups(state, result, options, check_stop, live)
            elif settle and not interrupted and not result.mixed:
                # Not settled: the runner-ups left out of the tie only for their visits, which a tree that
                # locked onto another move starved, are checked on their own (`starved_candidates`).
                starved = starved_candidates(result.candidates, result.tied, result.tie_margin)
                if starved:
                    result = _check_runner_ups(state, result, options, check_stop, live, starved)
        finally:
            if in_main and previous is signal.default_int_handler:
                signal.signal(signal.SIGINT, previous)
        if result.stopped and interrupted:
            result = dataclasses.replace(result, notes=result.notes + (
                "interrupted (Ctrl-C): this is the best move found so far",))
        elif settle:
            notes = tuple(n for n in result.notes if not n.startswith("stopped after"))
            if settled and not result.tied:
                notes += (f"settled after {settled[0]:,} iterations: the best move was clear of the others for "
                          f"{SETTLE_REPORTS * LIVE_EVERY:g} s, and the runner-ups checked on their own are not as "
                          f"good",)
            elif settled:
                notes += (f"not settled: the best move was clear of the others after {settled[0]:,} iterations, "
                          f"but a runner-up checked on its own is as good (the moves named tied)",)
            else:
                notes += (f"not settled within {SETTLE_SECONDS:g} s: the moves named tied remain as good as each "
                          f"other as far as the search can tell (--time for more)",)
            notes += (f"{result.iterations:,} iterations in {result.elapsed:.1f} s in all",)
            result = dataclasses.replace(result, notes=notes)
    notice = _placeholder_notice(spec, position=state.to_dict())
    if as_json:
        data = result.to_dict()
        data["candidates"] = data["candidates"][:top]
        if notice:
            data["placeholder"] = notice
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    _print_suggestion(result, top, plans, _score_header(spec, state), payoff=spec.utility == "payoff")
    if notice:
        typer.echo(f"note: {spec.key} uses {notice}")


def _check_runner_ups(state, result, options: dict, stop, live: bool, runners=None):
    """`burano suggest`'s runner-up check after it settled (`engine.check_runner_ups`: SETTLE_VERIFY
    runner-ups within SETTLE_SECONDS in all), or of the starved `runners` after it did not, with a transient
    live line naming the move being checked."""
    from burano_ai.engine import check_runner_ups

    with contextlib.ExitStack() as stack:
        on_check = None
        if live:
            from rich.live import Live
            from rich.text import Text
            view = stack.enter_context(Live(Text(""), console=_console(stderr=True, highlight=False),
                                            transient=True, auto_refresh=False))

            def on_check(k: int, count: int, runner) -> None:
                view.update(Text(f"checking {runner.move} on its own ({k + 1} of {count})  "
                                 f"(Ctrl-C: stop and show it)", style="dim"), refresh=True)
        return check_runner_ups(state, result, SETTLE_VERIFY, SETTLE_SECONDS / SETTLE_VERIFY, stop, on_check,
                                runners, **options)


#: Seconds between updates of `burano suggest`'s live line (and its checks whether the answer settled).
LIVE_EVERY = 0.25
#: `burano suggest` without --time or --iterations searches until the best move is clear of every other
#: (no statistical tie: search.result) after at least SETTLE_MIN_ITERATIONS, or for SETTLE_SECONDS at most.
SETTLE_MIN_ITERATIONS = 10_000
SETTLE_SECONDS = 10.0
#: ... and the same clear best move at this many live reports in a row (a second of agreement).
SETTLE_REPORTS = 4
#: ... searched by this many independent trees (a thread each), which must all choose it: a tree that starved
#: a move whose value shows only deeper is outvoted by one that did not (docs/benchmarks.md, "Settling").
SETTLE_TREES = 2
#: ... and then the runner-ups searched on their own as deep as the best move was
#: (`engine.with_runner_ups_checked`): a move starved beside the best one shows its real value only so.
SETTLE_VERIFY = 2


def _cli_moves(moves: Optional[list[str]], option: str) -> Optional[list[str]]:
    if not moves:
        return None
    out = [" ".join(m.split()) for m in moves]
    if not all(out):
        raise OptionError(f"{option} needs a move text, not an empty string")
    return out


def _suggest_live(engine_suggest, state, stop, total: Optional[int], options: dict, also=None,
                  unit: Optional[str] = None):
    """Run the search with a live line on stderr: the best move so far, its win chance (in a payoff game, its
    expected score in `unit`: chips), iterations/s (`also`: called with each partial result too)."""
    from rich.live import Live
    from rich.text import Text

    console = _console(stderr=True, highlight=False)

    def line(done: int, rate: float, best: Optional[str], win: Optional[float], elapsed: float) -> Text:
        budget = f"{done:,}" + (f"/{total:,}" if total else "") + " it"
        text = Text(f"searching  {budget}  {rate:,.0f} it/s  {elapsed:.1f} s", style="dim")
        if best is not None:
            text.append("   best so far: ")
            text.append(best, style="bold")
            text.append(f"  {win:+.2f} {unit}" if unit else f"  win {win:.1%}")
        text.append("   (Ctrl-C: stop and show it)", style="dim")
        return text

    with Live(line(0, 0.0, None, None, 0.0), console=console, transient=True, auto_refresh=False) as view:
        def on_report(partial) -> None:
            best = partial.best
            view.update(line(partial.iterations, partial.iterations_per_second, partial.move or None,
                             (best.expected_vp if unit else best.win_prob) if best else None, partial.elapsed),
                        refresh=True)
            if also is not None:
                also(partial)

        options = {k: v for k, v in options.items() if k not in ("on_report", "report_every")}
        return engine_suggest(state, stop=stop, on_report=on_report, report_every=LIVE_EVERY, **options)


def _suggest_legend(score: str, payoff: bool = False) -> str:
    """The legend under `burano suggest`'s table; `score` is the game's score column ("VP" in Burano; a
    payoff game's table has no win column: its search weighs the chips won or lost, not the chance to win)."""
    return (f"{'' if payoff else 'win: chance to win; '}{score}: expected final {score}; margin: expected final "
            f"{score} minus the best "
            f"other seat's (+ ahead of, - behind the leader); [n]: iterations through a plan step; ?: fewer than "
            f"{PLAN_MIN_VISITS} (a guess); ⟨…⟩: a chance event follows, the rest of the plan is averaged over its "
            f"outcomes")


def _score_header(spec, state) -> str:
    """The name of the game's score, as its final score table heads it ("VP" in Burano)."""
    return spec.score_columns(state)[0][0]


def _print_suggestion(result, top: int, plans: bool = False, score: str = "VP", payoff: bool = False) -> None:
    from rich.markup import escape
    from rich.table import Table

    console = _console(highlight=False)
    console.print(f"seat {result.seat_letter}: [bold]{escape(result.move)}[/bold]")
    if result.tied:     # issue 21: a statistical tie is said, and the tied moves named
        console.print(escape(result.tie_text), style="yellow")
    console.print(escape(f"plan for this turn: {PLAN_ARROW.join(step.text() for step in result.pv)}"))
    table = Table(show_header=True, header_style="bold", box=None)
    columns = ("move", "visits") + (() if payoff else ("win",)) + (score, "margin")
    for col in columns:
        table.add_column(col, justify="left" if col == "move" else "right")
    for c in result.candidates[:top]:
        win = () if payoff else (f"{c.win_prob:.1%}",)
        value = f"{c.expected_vp:+.2f}" if payoff else f"{c.expected_vp:.1f}"
        table.add_row(c.move, str(c.visits), *win, value, f"{c.expected_margin:+.1f}")
    console.print(table)
    if plans:
        console.print("plans:")
        for c in result.candidates[:top]:
            console.print(escape(f"  {PLAN_ARROW.join(step.text() for step in c.plan)}"))
    console.print(escape(_suggest_legend(score, payoff)), style="dim")
    console.print(f"{result.iterations} iterations in {result.elapsed:.2f} s "
                  f"({result.iterations_per_second:.0f}/s), seed {result.seed}, {result.mode}"
                  f"{'' if result.deterministic else ' (not reproducible)'}")
    for note in result.notes:
        console.print(f"note: {note}")


@app.command()
@user_errors
def arena(
    bots: list[str] = typer.Option(..., "--bots", metavar="SPECS",
                                   help="Bot specs, one per seat, comma-separated (repeat --bots or use ';' too): "
                                        "random, greedy, ismcts:iterations=2000, ismcts:time=1.0,workers=2, "
                                        "mcts-pkg, openspiel-ismcts, openspiel-mcts. More bots than seats: a "
                                        "round robin over every combination of --players of them."),
    players: Optional[int] = typer.Option(None, "--players", "-n",
                                          help="Number of players, in the game's range (default: its fewest, "
                                               "Burano 2)."),
    games: Optional[int] = typer.Option(None, "--games", "-g",
                                        help="Games to play (rounded up to whole deals); default 2, with --sprt "
                                             f"the most to play (default {SPRT_MAX_GAMES})."),
    time_per_move: Optional[float] = typer.Option(None, "--time-per-move", metavar="S",
                                                  help="Seconds per decision for search bots without a budget."),
    workers: int = typer.Option(1, "--workers", metavar="W", help="Games played in parallel."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of every deal, chance stream and bot."),
    backend: str = typer.Option("local", "--backend", help="local (processes) or ray."),
    seating: str = typer.Option("auto", "--seating", help="auto, all (every seat permutation) or rotate."),
    bootstrap: int = typer.Option(200, "--bootstrap", metavar="B", help="Bootstrap refits for rating intervals."),
    sprt: Optional[str] = typer.Option(None, "--sprt", metavar="elo0=E0,elo1=E1[,alpha=A,beta=B]",
                                       help="Sequential test of the first bot against the second (at 2 players on seat-swapped pairs; at "
                                            "n > 2 the first bot in one seat and the second in the others, each "
                                            "deal played with the first in every seat, against the 1/n baseline): "
                                            "stop once the LLR crosses a bound (logistic Elo; alpha, beta "
                                            "default 0.05)."),
    out: Optional[Path] = typer.Option(None, "--out", metavar="FILE", help="Write the results JSON here."),
    csv_out: Optional[Path] = typer.Option(None, "--csv", metavar="FILE", help="Write one CSV row per seat per game."),
    plot: Optional[Path] = typer.Option(None, "--plot", metavar="FILE", help="Write the win-rate ladder PNG."),
    records: Optional[Path] = typer.Option(None, "--records", metavar="DIR",
                                           help="Write every game's record (burano-game/1) into DIR (created if "
                                                "missing): game-00000.json, ..."),
    gauntlet: bool = typer.Option(False, "--gauntlet", help="The first bot plays every combination of the others "
                                                            "(the field) instead of a round robin."),
    game: Optional[str] = typer.Option(None, "--game", metavar="GAME", help=GAME_HELP),
    option: Optional[List[str]] = typer.Option(None, "--option", metavar="NAME=VALUE", help=OPTION_HELP),
    data: Optional[Path] = typer.Option(None, "--data", metavar="FILE", help=DATA_HELP),
) -> None:
    """Play a bot tournament: duplicate deals over every seating; win rates, VP, ranks and ratings.

    More bots than seats play a round robin (every combination of --players bots, each over its seatings),
    or with --gauntlet the first bot against the field. Every game of a deal starts from the same deal.
    """
    from burano_ai.arena import ArenaConfig, parse_sprt, run_arena, split_bot_list

    game_spec = _spec(game)
    _seed_option(seed)
    players = _check_players(players, game_spec, default=game_spec.min_players)
    options = parse_cli_options(game_spec, option, data)
    specs = [spec for text in bots for spec in split_bot_list(text)]
    sprt_config = parse_sprt(sprt) if sprt is not None else None
    if games is None:
        games = 2 if sprt_config is None else SPRT_MAX_GAMES
    config = ArenaConfig(bots=tuple(specs), players=players, games=games, seed=seed,
                         time_per_move=time_per_move, workers=workers, backend=backend.lower(),
                         seating=seating.lower(), bootstrap=bootstrap, sprt=sprt_config, gauntlet=gauntlet,
                         options=options or None, **game_keyword(game_spec, DEFAULT_GAME))
    config.validate()
    _check_output(out, "--out")
    _check_output(csv_out, "--csv")
    _check_plot_output(plot)
    if records is not None:
        from burano_ai.arena.tournament import check_records_dir
        check_records_dir(records)
    if sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        with Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      TextColumn("{task.fields[sprt]}"), console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("arena", total=None, sprt="")
            result = run_arena(config, progress=lambda done, total: bar.update(task, completed=done, total=total),
                               on_sprt=lambda test: bar.update(task, sprt=test.status()), records=records)
    else:
        # No live display: an SPRT reports a status line every SPRT_LOG_EVERY pairs, fastchess-style.
        def log_sprt(test) -> None:
            if test.pairs % SPRT_LOG_EVERY == 0:
                typer.echo(f"sprt: {test.status()}", err=True)

        result = run_arena(config, on_sprt=log_sprt, records=records)
    typer.echo(result.table())
    if records is not None:
        typer.echo(f"{len(result.games)} game records written to {records}")
    if out is not None:
        result.write_json(str(out))
    if csv_out is not None:
        result.write_csv(str(csv_out))
    if plot is not None:
        result.plot(str(plot))


@app.command()
@user_errors
def play(
    players: Optional[int] = typer.Option(None, "--players", "-n",
                                          help="Number of players, in the game's range (Burano: 2, 3 or 4; default: "
                                               "your seats plus the bots)."),
    you: Optional[str] = typer.Option(None, "--you", metavar="SEATS",
                                      help="Your seat, A, B, ... (default A); several, comma-separated, for hot-seat "
                                           "play: A,C."),
    bots: Optional[str] = typer.Option(None, "--bots", metavar="SPECS",
                                       help="Bots for the other seats, in seat order, separated by ';': "
                                            "'ismcts:time=2;greedy' (one spec plays every other seat; default "
                                            "ismcts:time=2)."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="Play a reproducible game: the seed of the deal, "
                                                                 "the chance events and the bots (default: secret "
                                                                 "chance, drawn from a secret you cannot see; undo "
                                                                 "redraws)."),
    record: Optional[Path] = typer.Option(None, "--record", metavar="FILE",
                                          help="Save the game record here (default ./<game>-game-<seed>.json, "
                                               "burano-game-<seed>.json for Burano, the start time instead of "
                                               "the seed without --seed, or the --resume file)."),
    resume: Optional[Path] = typer.Option(None, "--resume", metavar="FILE", help="Continue a saved game."),
    names: Optional[str] = typer.Option(None, "--names", metavar="NAMES",
                                        help="Comma-separated names: one per seat, or one per person."),
    game: Optional[str] = typer.Option(None, "--game", metavar="GAME",
                                       help=f"The game (default {DEFAULT_GAME}; with --resume, the record's own "
                                            "game; `burano games` lists them)."),
    board: str = typer.Option("auto", "--board", metavar="LAYOUT",
                              help="The board's layout: auto (compact below 120 columns, where it fits 80x24 "
                                   "with the prompt; full from 120), compact or wide."),
    option: Optional[List[str]] = typer.Option(None, "--option", metavar="NAME=VALUE", help=OPTION_HELP),
    data: Optional[Path] = typer.Option(None, "--data", metavar="FILE", help=DATA_HELP),
) -> None:
    """Play a game (Burano by default) against bots in the terminal (one seat, or several hot-seat).

    At your turn: the board as your seat sees it and the numbered legal moves. Type a number, a move
    (Tab completes; any unambiguous beginning will do), the game's own shortcut (Burano: a pyramid in
    one line, pyramid w w g b ...), or legal, board, hint [seconds], undo, save [path], quit, help.
    The game record is always saved.
    """
    from burano_ai.play import check_board_layout, run_play, setup_game

    check_board_layout(board)
    _check_output(record, "--record")
    if resume is not None and not resume.is_file():
        raise PositionError(f"--resume {resume}: no such file")
    if resume is not None and (option or data is not None):
        raise OptionError("--resume continues the saved game with its own options: drop --option/--data")
    game_spec = _spec(game) if resume is None else _record_game(resume, game)
    options = parse_cli_options(game_spec, option, data)
    setup = setup_game(players=players, you=you, bots=bots, seed=seed, names=names, record=record, resume=resume,
                       game=game_spec.key, options=options)
    raise typer.Exit(run_play(setup, board=board))


@app.command()
@user_errors
def engine(
    threads: Optional[int] = typer.Option(None, "--threads", metavar="T",
                                          help="Search threads of a query that does not say (default: every "
                                               "usable core)."),
    game: Optional[str] = typer.Option(None, "--game", metavar="GAME",
                                       help=f"The game of a query that does not name one (default {DEFAULT_GAME})."),
    max_queue: Optional[int] = typer.Option(None, "--max-queue", metavar="N",
                                            help="Most queries waiting to be searched (default 1000); one more is "
                                                 "answered with an error line: the queue never grows unbounded."),
) -> None:
    """Serve the JSON-lines analysis protocol on stdin/stdout (docs/engine-protocol.md).

    One JSON query per line in, one JSON object per line out: partial reports while a search runs
    ("isDuringSearch": true), exactly one final report or error line per query. Control lines:
    {"id": ..., "action": "terminate", "terminateId": ...}, "terminate_all", "query_version", "quit".
    Logs go to stderr.
    """
    from burano_ai.engine import MAX_THREADS
    from burano_ai.protocol import DEFAULT_MAX_QUEUE, MAX_QUEUE_LIMIT, serve_stdio
    if threads is not None and not 1 <= threads <= MAX_THREADS:
        raise OptionError(f"--threads must be from 1 to {MAX_THREADS}, not {threads}")
    if max_queue is None:
        max_queue = DEFAULT_MAX_QUEUE
    if not 1 <= max_queue <= MAX_QUEUE_LIMIT:
        raise OptionError(f"--max-queue must be from 1 to {MAX_QUEUE_LIMIT}, not {max_queue}")
    spec = _spec(game)
    serve_stdio(threads=threads, max_queue=max_queue, **game_keyword(spec, DEFAULT_GAME))


@app.command()
@user_errors
def analyse(
    file: Path = typer.Argument(..., metavar="RECORD", help="Game record (burano-game/1 JSON), full or one seat's "
                                                           "export."),
    seat: Optional[str] = typer.Option(None, "--seat", metavar="SEAT",
                                       help="The seat whose decisions are analysed: A, B, ... (default: the seat a "
                                            "one-seat export was made for)."),
    seconds: Optional[float] = typer.Option(None, "--time", metavar="S", help="Search time per decision in seconds."),
    iterations: Optional[int] = typer.Option(None, "--iterations", metavar="N",
                                             help=f"Search iterations per decision (default {DEFAULT_SUGGEST_ITERATIONS} "
                                                  "when --time is not given)."),
    seed: int = typer.Option(0, "--seed", help="Seed: the same seed and iteration budget give the same analysis."),
    threads: Optional[int] = typer.Option(None, "--threads", metavar="T",
                                          help="Search threads (default 1 with an iteration budget or --jobs: "
                                               "reproducible; every usable core with --time)."),
    jobs: int = typer.Option(1, "--jobs", "-j", metavar="J",
                             help="Decisions analysed at once in J worker processes (as reproducible as one)."),
    as_json: bool = typer.Option(False, "--json", help="Print the analysis as JSON."),
    annotate: Optional[Path] = typer.Option(None, "--annotate", metavar="OUT.json",
                                            help="Write the record with each analysed step annotated here."),
    plot: Optional[Path] = typer.Option(None, "--plot", metavar="FILE",
                                        help="Write a PNG of the seat's win probability over the game."),
    game: Optional[str] = typer.Option(None, "--game", metavar="GAME", help=FILE_GAME_HELP),
    evaluation: Optional[str] = typer.Option(None, "--eval", metavar="playout|net|FILE", help=EVAL_HELP),
    root: Optional[str] = typer.Option(None, "--root", metavar="ucb|halving", help=ROOT_HELP),
    secret: Optional[str] = typer.Option(None, "--secret", metavar="prior|ucb|exp3", help=SECRET_HELP),
) -> None:
    """Analyse one seat's decisions in a game record: the engine's best move and its win probability vs
    the move played, the loss, and flags (inaccuracy, mistake, blunder; docs/analysis.md).

    Each position is searched from the seat's own view only (what it knew when it moved). Forced moves
    (one legal option) are skipped. Reproducible with an iteration budget (one thread by default).
    """
    from burano_ai.analysis import analyse as run_analysis, check_seat
    from burano_ai.record import GameRecord, RecordError
    from burano_ai.search import Limit

    _check_output(annotate, "--annotate")
    _check_plot_output(plot)
    if file.is_dir():
        raise RecordError(f"{file} is a directory, not a game record")
    spec = _record_game(file, game)
    record = GameRecord.load(file)
    analysed = check_seat(record, seat)
    params = _search_params(spec, None, evaluation, root, secret)
    if seconds is None and iterations is None:
        iterations = DEFAULT_SUGGEST_ITERATIONS
    limit = Limit(iterations=iterations, seconds=seconds)
    if threads is not None and threads < 1:
        raise OptionError(f"--threads must be at least 1, not {threads}")
    if jobs < 1:
        raise OptionError(f"--jobs must be at least 1, not {jobs}")
    if sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        with Progress(TextColumn(f"analysing seat {SEAT_LETTERS[analysed]}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("analyse", total=None)
            result = run_analysis(record, analysed, limit, seed=seed, threads=threads, jobs=jobs, params=params,
                                  progress=lambda done, total: bar.update(task, completed=done, total=total))
    else:
        result = run_analysis(record, analysed, limit, seed=seed, threads=threads, jobs=jobs, params=params)
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=1, ensure_ascii=False))
    else:
        _print_analysis(result, _score_header(spec, record.initial_state()))
    if annotate is not None:
        result.annotate(record)
        record.save(annotate)
        if not as_json:
            typer.echo(f"annotated record written to {annotate}")
    if plot is not None:
        result.plot(str(plot))
        if not as_json:
            typer.echo(f"win probability plot written to {plot}")


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _print_analysis(result, score: str = "VP") -> None:
    from rich.table import Table

    from burano_ai.analysis import THRESHOLDS

    # Piped output is not cut at 80 columns: one row per decision.
    console = _console(highlight=False, width=None if sys.stdout.isatty() else 150)
    name = result.names[result.seat]
    console.print(f"seat {result.seat_letter} ({name}): {len(result.decisions)} decisions analysed")
    table = Table(show_header=True, header_style="bold", box=None)
    for col, justify in (("step", "right"), ("phase", "left"), ("played", "left"), ("best", "left"),
                         ("win", "right"), ("played", "right"), ("loss", "right"), (f"{score} margin", "right"),
                         ("", "left")):
        table.add_column(col, justify=justify, no_wrap=True)
    from burano_ai.analysis import NOISE_Z, flag_for
    styles = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}
    for d in result.decisions:
        flag = d.flag or ""
        if flag:
            note = f"[{styles[flag]}]{flag}[/]"
        elif flag_for(d.loss) is not None:      # over a threshold, within the searches' noise: said, not flagged
            note = f"[dim]noise +/-{100 * d.noise:.1f}[/]"
        else:
            note = ""
        table.add_row(str(d.ply), d.phase, d.played, "=" if d.best == d.played else d.best, f"{d.win:.1%}",
                      f"{d.played_win:.1%}", f"{100 * d.loss:.1f}" if d.loss >= 0.0005 else "",
                      f"-{d.margin_loss:.1f}" if d.margin_loss >= 0.05 else "", note)
    console.print(table)
    s = result.summary()
    console.print(f"mean loss {100 * s['mean_loss']:.1f} points of win probability, mean {score}-margin loss "
                  f"{s['mean_margin_loss']:.1f}; engine's move played {s['agreement']:.0%}; "
                  f"{_count(s['inaccuracy'], 'inaccuracy', 'inaccuracies')}, {_count(s['mistake'], 'mistake')}, "
                  f"{_count(s['blunder'], 'blunder')}")
    limits = ", ".join(f"{name} >= {100 * t:g}" for name, t in reversed(THRESHOLDS))
    console.print("win: after the engine's best move (= : the move played); played: after the move played",
                  style="dim")
    console.print(f"loss: in points of win probability ({limits}, when at least {NOISE_Z:g} standard errors "
                  f"of the searches: a loss within them reads 'noise +/-' its standard error); {score} margin: "
                  f"expected {score} margin lost", style="dim")
    budget = (f"{result.limit.iterations} iterations" if result.limit.iterations is not None else "") + \
        (" / " if result.limit.iterations is not None and result.limit.seconds is not None else "") + \
        (f"{result.limit.seconds:g} s" if result.limit.seconds is not None else "")
    console.print(f"{budget} per decision, seed {result.seed}, "
                  f"{result.threads or 'all'} thread{'s' if result.threads != 1 else ''}"
                  f"{f' x {result.jobs} jobs' if result.jobs > 1 else ''}"
                  f"{'' if result.deterministic else ' (not reproducible)'}; {result.elapsed:.1f} s")
    for note in result.notes:
        console.print(f"note: {note}")


@app.command()
@user_errors
def selfplay(
    game: str = typer.Option(..., "--game", metavar="GAME", help="The game to play (burano games)."),
    players: Optional[int] = typer.Option(None, "--players", metavar="N", help="Players (default: the game's)."),
    games: int = typer.Option(100, "--games", metavar="K", help="Games in the run (seeds derived from --seed)."),
    out: Path = typer.Option(..., "--out", metavar="DIR", help="Directory of the run (games.jsonl; resumed if "
                                                               "it holds games of the same run)."),
    iterations: int = typer.Option(400, "--iterations", metavar="N", help="Search iterations per decision."),
    explore: int = typer.Option(8, "--explore", metavar="D",
                                help="A game's first D decisions are drawn in proportion to the search's visits."),
    seed: int = typer.Option(1, "--seed", help="Seed of the run: every game's seed derives from it."),
    workers: int = typer.Option(1, "--workers", metavar="W",
                                help="Games at once: 1 = this process, more = Ray tasks on a local Ray runtime."),
    address: Optional[str] = typer.Option(None, "--address", metavar="ADDR",
                                          help="Run the games on this Ray cluster (ray.init(address=...))."),
) -> None:
    """Self-play: games the engine plays against itself, with the search's value at every decision, for
    training a learned evaluation (docs/learning.md). Resumable: games already in DIR are skipped."""
    from burano_ai.learn.selfplay import run_selfplay
    _seed_option(seed)
    if workers < 1:
        raise OptionError(f"--workers must be at least 1, not {workers}")
    spec = _spec(game)
    n = _check_players(players, spec)
    progress = None
    bar_ctx = None
    if sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
        bar_ctx = Progress(TextColumn(f"self-play {spec.key} {n}p"), BarColumn(), MofNCompleteColumn(),
                           TimeElapsedColumn(), console=Console(stderr=True), transient=True)
        task = bar_ctx.add_task("selfplay", total=games)
        progress = lambda done, total: bar_ctx.update(task, completed=done)    # noqa: E731
        bar_ctx.start()
    try:
        summary = run_selfplay(out, spec.key, n, games, iterations, explore, seed, workers, address,
                               progress=progress)
    finally:
        if bar_ctx is not None:
            bar_ctx.stop()
    typer.echo(f"{summary['played']} games played, {summary['games']} in {summary['path']} "
               f"({summary['seconds']:.1f} s)")


@app.command()
@user_errors
def train(
    data: List[Path] = typer.Argument(..., metavar="DIR...", help="Self-play runs (burano selfplay --out DIR)."),
    out: Path = typer.Option(..., "--out", metavar="NET.json", help="Where to write the net file."),
    model: str = typer.Option("linear", "--model", metavar="linear|mlp", help="A linear evaluation or an MLP."),
    hidden: str = typer.Option("64", "--hidden", metavar="H[,H]", help="The MLP's hidden layer sizes."),
    epochs: int = typer.Option(40, "--epochs", metavar="E", help="Most passes over the data (MLP)."),
    blend: float = typer.Option(0.5, "--blend", metavar="L",
                                help="Win-share target: L x the search's value + (1 - L) x the game's result."),
    score_scale: float = typer.Option(20.0, "--score-scale", metavar="S", help="Margins and scores are learnt / S."),
    keep: float = typer.Option(1.0, "--keep", metavar="P", help="Share of decision positions used."),
    keep_chance: float = typer.Option(0.1, "--keep-chance", metavar="P", help="Share of chance positions used."),
    holdout: float = typer.Option(0.1, "--holdout", metavar="H", help="Share of games held out for the check."),
    alpha: float = typer.Option(1e-4, "--alpha", metavar="A", help="L2 penalty."),
    seed: int = typer.Option(0, "--seed", help="Seed of the split, the sampling and the fit."),
) -> None:
    """Train a learned evaluation on self-play runs and write it as a net file, with its loss curve and
    held-out check beside it (NET.report.json). Needs the learn extra (scikit-learn)."""
    from burano_ai.learn.dataset import build_dataset
    from burano_ai.learn.selfplay import read_games
    from burano_ai.learn.train import train_net
    from burano_ai.search.netfile import write_net_file
    _seed_option(seed)
    _check_output(out, "--out")
    for d in data:
        if not d.exists():
            raise OptionError(f"{d}: no such self-play run")
    try:
        sizes = tuple(int(h) for h in hidden.split(","))
    except ValueError:
        raise OptionError(f"--hidden must be sizes separated by commas, not {hidden!r}") from None

    def records():
        for d in data:
            yield from read_games(d)

    dataset = build_dataset(records(), score_scale=score_scale, blend=blend, keep=keep, keep_chance=keep_chance,
                            seed=seed)
    card = {"data": [str(d) for d in data], "games": dataset.games, "examples": len(dataset), "blend": blend,
            "keep": keep, "keep_chance": keep_chance}
    net, report = train_net(dataset, model=model, hidden=sizes, epochs=epochs, holdout=holdout, seed=seed,
                            alpha=alpha, card=card)
    write_net_file(net, out)
    report_path = out.with_name(out.stem + ".report.json")
    report_path.write_text(json.dumps(report.to_dict(), indent=1) + "\n", encoding="utf-8")
    h = report.holdout
    typer.echo(f"{out}: {net.game} {net.players}p, {model} {net.shape}, {dataset.games} games, {len(dataset)} "
               f"examples, {report.seconds:.1f} s")
    if h:
        typer.echo(f"held out ({report.holdout_games} games): win-share MSE {h['share_mse']:.4f} (baseline "
                   f"{h['share_mse_baseline']:.4f}), margin MSE {h['margin_mse']:.4f} (baseline "
                   f"{h['margin_mse_baseline']:.4f}), favourite right {h['favourite_right']:.3f}")
    typer.echo(f"report written to {report_path}")


@app.command()
@user_errors
def bench(
    game: Optional[str] = typer.Option(None, "--game", metavar="GAME",
                                       help="Bench this game only (default: every game; `burano games` lists them)."),
    quick: bool = typer.Option(False, "--quick", help="Shorter speed measurements (about 10 s in all; the "
                                                      "signature is the same)."),
    threads: Optional[int] = typer.Option(None, "--threads", metavar="N",
                                          help="Threads of the shared-tree search row (default: the usable "
                                               "cores, at least 2)."),
    as_json: Optional[str] = typer.Option(None, "--json", metavar="FILE",
                                          help="Write the result as JSON to FILE ('-': stdout, instead of the "
                                               "table)."),
    compare: Optional[Tuple[str, str]] = typer.Option(None, "--compare", metavar="A.json B.json",
                                                      help="Compare two --json results (B/A ratios) instead of "
                                                           "running."),
    peer: Optional[str] = typer.Option(None, "--peer", metavar="ENGINE",
                                       help="Also time another engine's loops: openspiel (needs pyspiel)."),
) -> None:
    """Benchmark: a deterministic signature (fixed-seed searches and seeded random games that change only
    when rules or search change), then the speed table of every game (docs/benchmarks.md)."""
    from burano_ai import bench as benchmark
    if compare is not None:
        if game is not None or quick or threads is not None or as_json is not None or peer is not None:
            raise OptionError("--compare reads two results and takes no other option")
        for line in benchmark.compare(benchmark.load_result(compare[0]), benchmark.load_result(compare[1])):
            typer.echo(line)
        return
    if as_json is not None and as_json != "-":
        _check_output(Path(as_json), "--json")
    result = benchmark.run_bench(game=game, quick=quick, threads=threads, peer=peer,
                                 progress=lambda message: typer.echo(f"bench: {message}", err=True))
    if as_json == "-":
        typer.echo(benchmark.to_json(result), nl=False)
        return
    if as_json is not None:
        _write_text(Path(as_json), benchmark.to_json(result))
    for line in benchmark.format_table(result):
        typer.echo(line)
    if as_json is not None:
        typer.echo(f"result written to {as_json}")


@app.command()
@user_errors
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (127.0.0.1: this machine only)."),
    port: int = typer.Option(8000, "--port", help="Port to listen on."),
    open_browser: bool = typer.Option(False, "--open", help="Open the board in the default web browser."),
    game: Optional[str] = typer.Option(None, "--game", metavar="GAME",
                                       help=f"The game the new-game form offers first (default {DEFAULT_GAME})."),
    public: bool = typer.Option(False, "--public",
                                help="Allow a --host other machines can reach (says what it exposes)."),
    allow_host: Optional[List[str]] = typer.Option(None, "--allow-host", metavar="NAME[:PORT]",
                                                   help="One more name the Host header may give (repeatable; "
                                                        "default: localhost, 127.0.0.1, [::1] on --port)."),
    limit: Optional[List[str]] = typer.Option(None, "--limit", metavar="NAME=VALUE",
                                              help="An operator's limit (repeatable): max_games, max_streams, "
                                                   "bot_seconds, ... (docs/web.md)."),
    store: Optional[str] = typer.Option(None, "--store", metavar="PATH",
                                        help="The SQLite file the games are kept in, so that they survive a "
                                             "restart (default $XDG_STATE_HOME/burano/games.sqlite3, i.e. "
                                             "~/.local/state/burano/games.sqlite3); ':memory:' keeps them in "
                                             "memory only."),
    trusted_proxy: Optional[List[str]] = typer.Option(None, "--trusted-proxy", metavar="ADDR[,ADDR]",
                                                      help="A reverse proxy's address or network (repeatable): "
                                                           "a request from it is counted, for the per-client "
                                                           "shares, under its X-Forwarded-For client; any other "
                                                           "peer's header is ignored."),
) -> None:
    """Serve the web board: play against bots, analyse, set up a position, replay a game (docs/web.md)."""
    spec = _spec(game)
    try:
        from burano_ai.web.server import serve as run_server
    except ImportError as exc:
        raise OptionError(f"burano serve needs the web extra: pip install 'burano-ai[web]' ({exc})") from None
    run_server(host=host, port=port, open_browser=open_browser, public=public, allow_hosts=allow_host or [],
               limits=limit or [], store=store, trusted_proxies=trusted_proxy or [],
               **game_keyword(spec, DEFAULT_GAME))


if __name__ == "__main__":
    app()
