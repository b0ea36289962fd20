"""The `burano` command line: parsing and printing only; the rules live in `burano_ai`.

Commands: `suggest` (the best move and turn plan for a position), `new` (start position JSON), `show`
(render a position, as one seat sees it), `random-game` (a complete game with random decisions),
`arena` (bot tournaments). Every user mistake -- a bad option, a missing or unreadable
file, malformed JSON, an impossible position -- prints one line `error: <message>` on stderr and exits
with code 2, never a traceback.
"""

from __future__ import annotations

import functools
import json
import random
import sys
from pathlib import Path
from typing import Any, Callable, NoReturn, Optional

import typer
from typer.core import TyperGroup

from burano_ai.data.colours import PLAYER_COLOURS, SEAT_LETTERS
from burano_ai.enums import parse_seat
from burano_ai.errors import BuranoError, OptionError, PositionError
from burano_ai.random_play import sample_chance
from burano_ai.render import render_legal_actions, render_state
from burano_ai.search.limits import DEFAULT_SUGGEST_ITERATIONS

USAGE_ERROR = 2
# Click's exception classes: recent typer versions vendor click, older ones use it directly.
_click_exceptions = sys.modules[typer.BadParameter.__module__]


def _game_class():
    """The Game class the commands use: the compiled core."""
    from burano_ai import Game
    return Game


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


class _OneLineErrors(TyperGroup):
    """Report click's own usage errors (unknown option, bad integer, ...) as one line too."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _click_exceptions.ClickException as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":   # bare `burano`: the help, as older click did
                typer.echo(exc.format_message())
                rv = 0
            else:
                typer.echo(f"error: {' '.join(exc.format_message().split())}", err=True)
                rv = exc.exit_code
        except _click_exceptions.Abort:
            typer.echo("error: aborted", err=True)
            rv = 1
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


app = typer.Typer(
    cls=_OneLineErrors,
    help="Burano: positions, rendering and games from the command line.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


# ------------------------------------------------------------------------------------------------
# Helpers


def _check_players(players: int) -> int:
    if players not in (2, 3, 4):
        raise OptionError(f"--players must be 2, 3 or 4, not {players}")
    return players


def _seat_option(text: str, num_players: int) -> int:
    """The 0-based seat named by `--seat`: a letter A-D, the one seat syntax people type."""
    return parse_seat(text, num_players, what="--seat")


def _load(file: Optional[Path]) -> tuple[Any, Optional[int]]:
    """(state, view seat or None) of a position file, or of the built-in example when `file` is None."""
    from burano_ai.engine import load_position
    if file is None:
        return load_position(_example_text())
    if file.is_dir():
        raise PositionError(f"{file} is a directory, not a position file")
    if not file.exists():
        raise PositionError(f"no such file: {file}")
    return load_position(file)


def _viewer(seat: Optional[str], state, view: Optional[int], doing: str) -> Optional[int]:
    """The seat a command works for: `--seat`, else the position's view seat; they must agree."""
    viewer = None if seat is None else _seat_option(seat, state.num_players)
    if view is not None:
        if viewer is not None and viewer != view:
            raise OptionError(f"the position is seat {SEAT_LETTERS[view]}'s view; it cannot be {doing} "
                              f"seat {SEAT_LETTERS[viewer]}")
        viewer = view
    return viewer


def _phase_label(state) -> str:
    """`spring r1` in the rounds, else the season and stage (`setup`, `summer pyramid`, ...)."""
    d = state.to_dict()
    if d["stage"] == "setup":
        return "setup"
    if d["stage"] == "rounds":
        return f"{d['season']} r{d['round']}"
    return f"{d['season']} {d['stage']}"


def _scores_rows(state) -> list[tuple[str, str, str, str, str]]:
    d = state.to_dict()
    winners = set(state.winners()) if state.is_terminal() else set()
    rows = []
    for p, seat in enumerate(d["seats"]):
        prep = sum(seat["prep"].values())
        rows.append((f"{seat['seat']} ({PLAYER_COLOURS[p]})", str(seat["vp"]), str(seat["coins"]), str(prep),
                     "winner" if p in winners else ""))
    return rows


def _print_scores(state) -> None:
    headers = ("seat", "VP", "coins", "prep cubes", "")
    rows = _scores_rows(state)
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.table import Table
        table = Table(*headers, title="final scores")
        for row in rows:
            table.add_row(*row)
        Console().print(table)
    else:
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
        typer.echo("final scores")
        for row in [headers] + rows:
            typer.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    winners = ", ".join(SEAT_LETTERS[p] for p in state.winners())
    typer.echo(f"winner{'s' if len(state.winners()) > 1 else ''}: {winners}")


# ------------------------------------------------------------------------------------------------
# Commands


@app.command()
@user_errors
def new(
    players: int = typer.Option(4, "--players", "-n", help="Number of players: 2, 3 or 4."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the setup shuffles."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write the JSON here (default: stdout)."),
) -> None:
    """Write the start position of a new game as JSON (the full state)."""
    state = _game_class()(_check_players(players)).new_initial_state(seed)
    text = json.dumps(state.to_dict(), indent=2) + "\n"
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
                                       help="Show the position as this seat sees it: A-D."),
) -> None:
    """Render a position as plain text, and the legal moves when the shown seat is to move.

    A file holding one seat's view is shown as that seat sees it (its hidden parts were never known).
    """
    state, view = _load(file)
    viewer = _viewer(seat, state, view, "shown as")
    typer.echo(render_state(state, viewer), nl=False)
    if viewer is None or state.current_player() == viewer:
        typer.echo("")
        typer.echo(render_legal_actions(state), nl=False)


@app.command("random-game")
@user_errors
def random_game(
    players: int = typer.Option(4, "--players", "-n", help="Number of players: 2, 3 or 4."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the setup and of every random decision."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the final scores."),
) -> None:
    """Play a complete game with uniformly random decisions; print the transcript and the scores."""
    state = _game_class()(_check_players(players)).new_initial_state(seed)
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
            typer.echo(f"{_phase_label(state):<20} {who:<6} {state.action_to_string(action)}")
        state.apply_action(action)
    if not quiet:
        typer.echo(f"game over after {decisions} decisions")
    _print_scores(state)


EXAMPLE_POSITION = "midgame-4p-C.json"


def _example_text() -> str:
    from importlib import resources
    return resources.files("burano_ai.data").joinpath("examples", EXAMPLE_POSITION).read_text(encoding="utf-8")


@app.command()
@user_errors
def suggest(
    file: Optional[Path] = typer.Argument(None, metavar="[FILE]",
                                          help="Position JSON (full, or the searching seat's view); "
                                               f"default: the built-in example {EXAMPLE_POSITION}."),
    seat: Optional[str] = typer.Option(None, "--seat", metavar="SEAT", help="Searching seat, A-D "
                                       "(default: the seat to move)."),
    seconds: Optional[float] = typer.Option(None, "--time", metavar="S", help="Search time in seconds."),
    iterations: Optional[int] = typer.Option(None, "--iterations", metavar="N",
                                             help=f"Search iterations (default {DEFAULT_SUGGEST_ITERATIONS} when --time is not given)."),
    workers: int = typer.Option(1, "--workers", metavar="W", help="Worker processes (root-parallel search)."),
    seed: int = typer.Option(0, "--seed", help="Seed: the same seed, budget and workers give the same answer."),
    top: int = typer.Option(8, "--top", metavar="N", help="Candidate moves to list."),
    playout: Optional[str] = typer.Option(None, "--playout", metavar="POLICY",
                                          help="Playout policy: heuristic (default) or random."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Suggest the best move for the seat to move, with the plan for the rest of its turn.

    The search reads only what the seat can know: given a full position it works from the seat's view.
    """
    from burano_ai.engine import suggest as engine_suggest
    from burano_ai.search import Limit, Params

    state, view = _load(file)
    searcher = None if seat is None else _seat_option(seat, state.num_players)
    if top < 1:
        raise OptionError(f"--top must be at least 1, not {top}")
    if seconds is None and iterations is None:
        iterations = DEFAULT_SUGGEST_ITERATIONS
    limit = Limit(iterations=iterations, seconds=seconds)
    params = Params() if playout is None else Params(playout_policy=playout)
    total = iterations
    show_progress = not as_json and sys.stderr.isatty()
    if show_progress:
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        with Progress(TextColumn("searching"), BarColumn(), TextColumn("{task.completed} it"),
                      TimeElapsedColumn(), transient=True) as bar:
            task = bar.add_task("search", total=total)
            result = engine_suggest(state, seat=searcher, limit=limit, params=params, seed=seed, workers=workers,
                                    view=view, progress=lambda done, _t: bar.update(task, completed=done))
    else:
        result = engine_suggest(state, seat=searcher, limit=limit, params=params, seed=seed, workers=workers,
                                view=view)
    if as_json:
        data = result.to_dict()
        data["candidates"] = data["candidates"][:top]
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    _print_suggestion(result, top)


def _print_suggestion(result, top: int) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    console.print(f"seat {result.seat_letter}: [bold]{result.move}[/bold]")
    console.print(f"plan for this turn: {result.plan}")
    table = Table(show_header=True, header_style="bold", box=None)
    for col, justify in (("move", "left"), ("visits", "right"), ("win", "right"), ("VP", "right"),
                         ("margin", "right")):
        table.add_column(col, justify=justify)
    for c in result.candidates[:top]:
        table.add_row(c.move, str(c.visits), f"{c.win_prob:.1%}", f"{c.expected_vp:.1f}",
                      f"{c.expected_margin:+.1f}")
    console.print(table)
    console.print(f"{result.iterations} iterations in {result.elapsed:.2f} s "
                  f"({result.iterations_per_second:.0f}/s), seed {result.seed}, {result.workers} worker(s)")
    for note in result.notes:
        console.print(f"note: {note}")


@app.command()
@user_errors
def arena(
    bots: list[str] = typer.Option(..., "--bots", metavar="SPECS",
                                   help="Bot specs, one per seat, comma-separated (repeat --bots or use ';' too): "
                                        "random, greedy, ismcts:iterations=2000, ismcts:time=1.0,workers=2, "
                                        "mcts-pkg, openspiel-ismcts, openspiel-mcts."),
    players: int = typer.Option(2, "--players", "-n", help="Number of players: 2, 3 or 4."),
    games: int = typer.Option(2, "--games", "-g", help="Games to play (rounded up to whole deals)."),
    time_per_move: Optional[float] = typer.Option(None, "--time-per-move", metavar="S",
                                                  help="Seconds per decision for search bots without a budget."),
    workers: int = typer.Option(1, "--workers", metavar="W", help="Games played in parallel."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of every deal, chance stream and bot."),
    backend: str = typer.Option("local", "--backend", help="local (processes) or ray."),
    seating: str = typer.Option("auto", "--seating", help="auto, all (every seat permutation) or rotate."),
    bootstrap: int = typer.Option(200, "--bootstrap", metavar="B", help="Bootstrap refits for rating intervals."),
    out: Optional[Path] = typer.Option(None, "--out", metavar="FILE", help="Write the results JSON here."),
    csv_out: Optional[Path] = typer.Option(None, "--csv", metavar="FILE", help="Write one CSV row per seat per game."),
    plot: Optional[Path] = typer.Option(None, "--plot", metavar="FILE", help="Write the win-rate ladder PNG."),
) -> None:
    """Play a bot tournament: duplicate deals over every seating; win rates, VP, ranks and ratings."""
    from burano_ai.arena import ArenaConfig, run_arena, split_bot_list

    specs = [spec for text in bots for spec in split_bot_list(text)]
    config = ArenaConfig(bots=tuple(specs), players=_check_players(players), games=games, seed=seed,
                         time_per_move=time_per_move, workers=workers, backend=backend.lower(),
                         seating=seating.lower(), bootstrap=bootstrap)
    config.validate()
    if sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        with Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("arena", total=None)
            result = run_arena(config, game_factory=_game_class(),
                               progress=lambda done, total: bar.update(task, completed=done, total=total))
    else:
        result = run_arena(config, game_factory=_game_class())
    typer.echo(result.table())
    if out is not None:
        result.write_json(str(out))
    if csv_out is not None:
        result.write_csv(str(csv_out))
    if plot is not None:
        result.plot(str(plot))

if __name__ == "__main__":
    app()
