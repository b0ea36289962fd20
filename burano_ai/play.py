"""`burano play`: people play a game (Burano by default) against bots in the terminal (one seat, or hot-seat).

The game itself is a `GameSession` (burano_ai.session): it holds the full position and the record, plays
the bots and the chance events, takes the people's moves back (`undo`) and hints from a seat's view. This
module is only the table around it: it shows each person the board *as that seat sees it*
(`spec.render_styled(session.view(seat), width)`, never the full state: laid out for the terminal's
width, in colour where it has colours, the board, the choices and the prompt within its height),
narrates the other seats' moves and the chance events as they happen, before the board
(`session.narrate`, hiding what the reader's seat cannot see), shows a spinner while a bot thinks, and
turns what a person types into moves (`resolve_entry`): a number from the list of choices, the move
text or an unambiguous prefix of it, the game's own shortcut (its spec's `move_entry()`: Burano's is a
pyramid in one line), or a command (`legal`, `hint`, `undo`, `save`, `quit`, `help`, `board`), with
"did you mean" for typos.

Everything game-specific comes from the game's spec (`burano_ai.games.get_spec`, the people side of
`core.game.GameSpec`): the board, the heading of a turn, the score column, the move shortcut. A game
without a shortcut is played with numbers and move texts (`State.action_to_string`).

Why these libraries: prompt_toolkit reads the input -- Tab completion of the legal move texts and the
commands, a history (up arrow), line editing -- without taking over the screen, so the board and the
narration stay in the terminal's scrollback; rich writes the output (colours, the bots' spinner and
clock, the score table) and drops the colours by itself when the output is not a terminal. textual was
not chosen: a full-screen application hides the scrollback and cannot be driven by a plain pipe. When
stdin is not a terminal, input is read line by line without prompt_toolkit, so scripts can drive a game
(`printf '1\\n1\\nquit\\n' | burano play --bots random`).

The record is always saved: before each decision (so a crash loses nothing), on `quit`, at the end of
input and at the end of the game, to `--record`, else the `--resume` file, else
``./<game>-game-<seed>.json`` (``burano-game-<seed>.json``; without ``--seed`` the game's chance is
secret and the start time takes the seed's place; a free name: an existing file is never overwritten
unasked).
"""

from __future__ import annotations

import difflib
import os
import sys
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from burano_ai.arena.plan import split_bot_list
from burano_ai.bots.spec import parse_bot_spec
from burano_ai.core.errors import BuranoError, OptionError
from burano_ai.core.game import MoveEntry
from burano_ai.core.people import check_player_count, game_keyword, player_counts
from burano_ai.core.seats import SEAT_LETTERS, TERMINAL, parse_seat
from burano_ai.games import DEFAULT_GAME, get_spec
from burano_ai.record import HUMAN, GameRecord, Step
from burano_ai.search.result import PLAN_ARROW
from burano_ai.session import GameSession

#: Bots when --bots is not given.
DEFAULT_BOTS = "ismcts:time=2"
#: Seconds a `hint` searches when no time is given.
DEFAULT_HINT_SECONDS = 1.0
#: Commands people can type at the prompt (moves never use these words).
#: Longest number read as a choice (the legal moves are numbered from 1; no position has a million).
MAX_CHOICE_DIGITS = 6
COMMANDS = ("legal", "hint", "undo", "save", "quit", "help", "board")
#: Typed answers that accept the last "did you mean" suggestion.
YES = ("y", "yes")
#: Candidates a hint lists.
HINT_TOP = 3
#: `--board`: the board's layout for the terminal's width (the game's compact one below its full width,
#: Burano's at 120 columns), the compact one (80 columns), or the full one.
BOARD_LAYOUTS = ("auto", "compact", "wide")
#: The width `--board compact` lays the board out for.
COMPACT_COLUMNS = 80
#: In `Table.choice_lines`: where the rule naming the seat to move goes.
RULE = "\x00rule"
#: In `Table.choice_lines`: a line that follows is a note (what the next move costs, why moves are missing).
NOTE = "\x00note"
#: Before each consequence of a step, on the lines under it.
EFFECT_MARK = "→"

HELP_MOVES = """\
Type a move in one of these ways:
  3                      the move numbered 3 in the list of choices
{example_line} the move's text (Tab completes it; any unambiguous
                         beginning will do: {prefix})
  the words as listed    the move as the list of choices words it (any case)
"""
HELP_COMMANDS = """\
Commands:
  legal                  list the legal moves again
  board                  show the board again
  hint [seconds]         the engine's suggestion for your seat, searched from
                         your view only (default 1 s)
  undo                   take back your last move; {undo}
  save [path]            save the game record (also saved before each move)
  quit                   save the game and leave (burano play --resume FILE)
  help                   this text
"""


#: What `undo` does to what follows, by the game's chance (`GameSession`: a seeded game replays, a secret one redraws).
UNDO_SEEDED = "seeded: the same draws follow"
UNDO_SECRET = "what followed is drawn afresh"


def help_text(entry: MoveEntry | None, legal: Sequence[str] = ("pick flat", "pick fountains"),
              seeded: bool = False) -> str:
    """The `help` text: the ways to type a move (the last of the `legal` move texts as the example, with
    its shortest beginning that no other legal move shares), the game's shortcut if any, the commands
    (`undo` as the game's chance makes it: `seeded` replays, secret chance redraws)."""
    example = legal[-1] if legal else "pick flat"
    others = [text for text in legal if text != example]
    prefix = next((example[:n] for n in range(1, len(example) + 1)
                   if not any(text.startswith(example[:n]) for text in others)), example)
    example_line = f"  {example:<22}" if len(example) <= 22 else f"  {example}\n{'':24}"
    return HELP_MOVES.format(example_line=example_line, prefix=prefix) + (entry.help if entry is not None else "") \
        + HELP_COMMANDS.format(undo=UNDO_SEEDED if seeded else UNDO_SECRET)


# ------------------------------------------------------------------------------------------------
# Setting up a game from the command-line options


@dataclass
class PlaySetup:
    """What `burano play` was asked for, checked: a new game or a resumed one, and where to save it."""

    session: GameSession
    record_path: Path
    resumed: bool = False
    game: str = DEFAULT_GAME

    @property
    def spec(self):
        """The game's spec (its people side: board, turn headings, scores, move shortcut)."""
        return get_spec(self.game)


def _split_names(text: str | None) -> list[str] | None:
    if text is None:
        return None
    names = [n.strip() for n in text.split(",")]
    if any(not n for n in names):
        raise OptionError(f"--names {text!r}: an empty name")
    return names


def new_game(players: int | None = None, you: str | None = None, bots: str | None = None, seed: int | None = None,
             names: str | None = None, game: str | None = None, options: dict | None = None) -> GameSession:
    """The session of a new game from the `burano play` options (bots fill the other seats in order).

    Args:
        players: in the game's range; by default the people's seats plus the bots listed.
        you: the people's seats, comma-separated letters (`B` or `A,C` for hot-seat); default A.
        bots: bot specs separated by ';' (or ','): one per other seat, or one for all of them.
        seed: the seed of a reproducible game (its deal, chance events and bots); default None: secret
            chance (`GameSession`: a secret the player cannot see draws the deal, the chance events and the
            bots' seeds, and undo redraws).
        names: comma-separated names, one per seat or one per person.
        game: the game's registry key (default Burano).
        options: the game's options besides the player count (`core.options.parse_cli_options`).
    """
    game_spec = get_spec(DEFAULT_GAME if game is None else game)
    specs = split_bot_list(DEFAULT_BOTS if bots is None else bots)
    for spec in specs:
        parse_bot_spec(spec)   # names the bad part
    you_letters = [t.strip() for t in (you or "A").split(",")]
    if players is None:   # the people and the bots listed (by default one bot, unless every seat is a person)
        bots_listed = len(specs) if bots is not None else int(len(you_letters) < game_spec.max_players)
        players = len(you_letters) + bots_listed
        if not game_spec.min_players <= players <= game_spec.max_players:
            raise OptionError(f"--you and --bots make {players} players; a game of {game_spec.title} has "
                              f"{player_counts(game_spec)} (or give --players)")
    check_player_count(players, game_spec)
    humans = [parse_seat(t, players, what="--you") for t in you_letters]
    if len(set(humans)) != len(humans):
        raise OptionError(f"--you {you!r}: a seat is named twice")
    others = [p for p in range(players) if p not in humans]
    if not others:
        if bots is not None:
            raise OptionError(f"--you {you!r} takes every seat: there is no seat for --bots")
    elif len(specs) == 1:
        specs = specs * len(others)
    elif len(specs) != len(others):
        raise OptionError(f"--bots lists {len(specs)} bots for {len(others)} other seats "
                          f"({', '.join(SEAT_LETTERS[p] for p in others)}): give one per seat, or one for all")
    seats = [HUMAN] * players
    for p, spec in zip(others, specs):
        seats[p] = spec
    name_list = _split_names(names)
    if name_list is not None:
        if len(name_list) == len(humans) and len(humans) != players:
            full = [None] * players
            for p, n in zip(humans, name_list):
                full[p] = n
            name_list = [n if n is not None else parse_bot_spec(seats[p]).canonical() for p, n in enumerate(full)]
        elif len(name_list) != players:
            raise OptionError(f"--names: give {players} names (one per seat) or {len(humans)} (one per person), "
                              f"not {len(name_list)}")
    if seed is not None and (isinstance(seed, bool) or not 0 <= seed < 2**63):
        raise OptionError(f"--seed must be a whole number from 0 to 2^63-1, not {seed}")
    return GameSession(players, seed, seats, names=name_list, event="burano play", options=options,
                       **game_keyword(game_spec, DEFAULT_GAME))


def default_record_path(seed: int | None, folder: Path | None = None, game: str = DEFAULT_GAME) -> Path:
    """``<game>-game-<seed>.json`` (``burano-game-7.json``; a game of secret chance: the UTC time it started,
    ``burano-game-20261126-233000.json``) in `folder` (the working directory), or the first free ``-2``,
    ``-3`` name."""
    folder = Path.cwd() if folder is None else folder
    stem = f"{game}-game-{seed if seed is not None else time.strftime('%Y%m%d-%H%M%S', time.gmtime())}"
    path = folder / f"{stem}.json"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}.json"
        n += 1
    return path


def setup_game(players: int | None = None, you: str | None = None, bots: str | None = None,
               seed: int | None = None, names: str | None = None, record: Path | None = None,
               resume: Path | None = None, game: str | None = None, options: dict | None = None) -> PlaySetup:
    """Check the `burano play` options and make the session (new or resumed) and the record's path.

    `game` is the game's key (default Burano); a resumed game is the record's own game, which the
    caller names. `options` are the game's options (`core.options.parse_cli_options`); a resumed game
    has its record's.
    """
    game = DEFAULT_GAME if game is None else get_spec(game).key
    if resume is not None:
        given = [opt for opt, value in (("--players", players), ("--you", you), ("--bots", bots), ("--seed", seed),
                                        ("--names", names)) if value is not None]
        if options:
            given.append("--option/--data")
        if given:
            raise OptionError(f"--resume continues the saved game with its own seats and bots: drop {given[0]}")
        session = GameSession.resume(GameRecord.load(resume))
        if not session.humans():
            raise OptionError(f"--resume {resume}: no seat of this game is played by a person")
        return PlaySetup(session, record if record is not None else resume, resumed=True, game=game)
    session = new_game(players, you, bots, seed, names, game=game, options=options)
    if record is None:
        folder = Path.cwd()
        if not os.access(folder, os.W_OK):
            raise OptionError(f"cannot write the game record in {folder}: give --record FILE")
        record = default_record_path(session.seed, folder, game)
    return PlaySetup(session, record, game=game)


# ------------------------------------------------------------------------------------------------
# What a person typed


@dataclass
class Entry:
    """One line typed at the prompt, understood.

    kind: "moves" (`moves` to play, in order), "command" (`command`, its `arg`), "error" (`message`, and
    `suggestion`: the move "did you mean" offers, if any), or "empty".
    """

    kind: str
    moves: list[str] = field(default_factory=list)
    command: str | None = None
    arg: str | None = None
    message: str = ""
    suggestion: str | None = None
    how: str = ""


def _normal(text: str) -> str:
    return " ".join(text.strip().lower().split())


def _token_prefix(typed: list[str], move: str) -> bool:
    words = move.split()
    return len(typed) <= len(words) and all(w.startswith(t) for t, w in zip(typed, words))


def resolve_entry(text: str, legal: list[str], shortcut: MoveEntry | None = None) -> Entry:
    """What `text` asks for, given the legal moves (in the order they are numbered, from 1).

    Order: a command word; a number; the game's shortcut (`shortcut`, its spec's `move_entry()`: Burano's
    `pyramid` with colours); the exact move text; a unique beginning of a move text (the whole text, or
    word by word: `dr de` for `draw deck`); else an error with the closest move or command ("did you mean").
    """
    t = _normal(text)
    if not t:
        return Entry("empty")
    words = t.split()
    if t == "?":
        return Entry("command", command="help")
    if words[0] in COMMANDS:
        # The argument as typed (a file name keeps its case and spaces), not the normalised text.
        rest = text.strip().split(None, 1)
        return Entry("command", command=words[0], arg=rest[1].strip() if len(rest) > 1 else None)
    if t.isdigit() and t.isascii():     # '²' and '①' are digits to str.isdigit, but not numbers to int()
        if not legal:
            return Entry("error", message="there is no move to choose now")
        # A number of thousands of digits is no choice either (and int() refuses more than 4,300 of them).
        n = int(t) if len(t) <= MAX_CHOICE_DIGITS else None
        if n is None or not 1 <= n <= len(legal):
            shown = t if len(t) <= MAX_CHOICE_DIGITS else f"{t[:6]}... ({len(t)} digits)"
            return Entry("error", message=f"there is no choice {shown}: choose 1 to {len(legal)}")
        return Entry("moves", moves=[legal[n - 1]], how=f"{n} = {legal[n - 1]}")
    expanded = None if shortcut is None else shortcut.expand(t, legal)
    if expanded is not None:
        moves, error = expanded
        if error is not None:
            return Entry("error", message=error)
        return Entry("moves", moves=moves)
    lowered = {m.lower(): m for m in legal}
    if t in lowered:
        return Entry("moves", moves=[lowered[t]])
    starts = [m for m in legal if m.lower().startswith(t)] or [m for m in legal if _token_prefix(words, m.lower())]
    if len(starts) == 1:
        return Entry("moves", moves=starts, how=f"{text.strip()} = {starts[0]}")
    if len(starts) > 1:
        shown = ", ".join(starts[:8]) + (f", ... ({len(starts)} in all)" if len(starts) > 8 else "")
        return Entry("error", message=f"{text.strip()!r} could be {shown}: type more of it")
    close = difflib.get_close_matches(t, list(lowered) + list(COMMANDS), n=1, cutoff=0.6)
    if close:
        guess = lowered.get(close[0], close[0])
        return Entry("error", message=f"{text.strip()!r} is not a legal move here; did you mean {guess!r}?",
                     suggestion=guess if guess in legal else None)
    return Entry("error", message=f"{text.strip()!r} is not a legal move here (type legal for the list, help for "
                                  "help)")


# ------------------------------------------------------------------------------------------------
# The terminal


class Terminal:
    """Input and output: prompt_toolkit and rich on a terminal, plain lines otherwise.

    Args:
        interactive: read with prompt_toolkit (completion, history); default: stdin and stdout are terminals.
        console: the rich Console to print to (default: stdout).
        shortcut: the game's move shortcut, whose words Tab completes too.
    """

    def __init__(self, interactive: bool | None = None, console=None, shortcut: MoveEntry | None = None) -> None:
        from rich.console import Console
        self.interactive = (sys.stdin.isatty() and sys.stdout.isatty()) if interactive is None else interactive
        self.console = console if console is not None else Console(highlight=False)
        self._prompt_sessions: dict[Any, Any] = {}
        self._words: list[str] = []
        self.shortcut = shortcut

    # output

    @property
    def width(self) -> int:
        """The terminal's columns now (rich reads the pty's size, or COLUMNS; 80 when it cannot tell)."""
        return self.console.width

    @property
    def height(self) -> int:
        """The terminal's rows now (the pty's size, or LINES; 25 when it cannot tell)."""
        return self.console.height

    def print(self, text: str = "", style: str | None = None) -> None:
        """Text, line by line; a line longer than the terminal is wide is broken between words, its next
        lines indented under it (so the terminal never wraps it)."""
        from rich.text import Text
        width = self.width
        for line in text.split("\n"):
            pieces = [line]
            if len(line) > width:
                indent = " " * (len(line) - len(line.lstrip(" ")) + 2)
                pieces = textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False) or [line]
            for piece in pieces:
                self.console.print(Text(piece, style=style or ""), soft_wrap=True)

    def board(self, rendering: Sequence[Sequence[tuple[str, str]]], viewer: str) -> None:
        """A board rendering (lines of styled spans: `GameSpec.render_styled`), in colour where the terminal
        has it, and the viewer's own seat in bold: from its first line (its letter, then ` (` or `: `, as
        in Burano's `B (red)  VP ...` or Goofspiel's `B:  12 pts ...`) to the next unindented line."""
        from rich.text import Text
        text = Text()
        mine = False
        for spans in rendering:
            line = "".join(t for t, _ in spans)
            if line[:1] in SEAT_LETTERS and line[1:3] in (" (", ": "):   # a seat's first line
                mine = line[0] == viewer
            elif line[:1] != " ":
                mine = False
            start = len(text)
            for t, style in spans:
                text.append(t, style=style)
            if mine:
                text.stylize("bold", start, len(text))
            text.append("\n")
        text.rstrip()
        self.console.print(text, soft_wrap=True)

    def rule(self, title: str) -> None:
        from rich.text import Text
        self.console.rule(Text(title), style="cyan")

    def clear(self) -> None:
        """Clear the screen and the scrollback (ESC[3J), so the previous person's board cannot be scrolled to."""
        if self.console.is_terminal:
            self.console.clear()
            self.console.file.write("\x1b[3J")
            self.console.file.flush()

    def thinking(self, text: str):
        """A spinner with a clock while a bot or a hint searches (nothing when the output is not a terminal)."""
        from contextlib import nullcontext
        if not self.console.is_terminal:
            return nullcontext()
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
        progress = Progress(SpinnerColumn(), TextColumn(text), TimeElapsedColumn(), console=self.console,
                            transient=True)
        progress.add_task(text, total=None)
        return progress

    # input

    def read(self, prompt: str, words: list[str], who: Any = None) -> str:
        """A line typed by the person (EOFError at the end of input, KeyboardInterrupt on Ctrl-C).

        `words` are the completions offered; `who` keeps a history of its own (hot-seat: the up arrow must
        not show the previous person's pyramid)."""
        self._words = words
        if not self.interactive:
            self.console.print(prompt, end="", markup=False)
            self.console.file.flush()
            line = sys.stdin.readline()
            if not line:
                self.console.print()
                raise EOFError
            self.console.print(line.rstrip("\n"), highlight=False, markup=False)
            return line.rstrip("\n")
        if who not in self._prompt_sessions:
            self._prompt_sessions[who] = self._make_prompt_session()
        return self._prompt_sessions[who].prompt(prompt)

    def _make_prompt_session(self):
        from prompt_toolkit import PromptSession
        from prompt_toolkit.completion import Completer, Completion
        from prompt_toolkit.history import InMemoryHistory

        terminal = self

        class MoveCompleter(Completer):
            """Completes the whole line: legal move texts and commands; in the game's shortcut, its words
            (Burano: colour names after `pyramid`)."""

            def get_completions(self, document, complete_event):
                line = document.text_before_cursor
                low = line.lower().lstrip()
                if terminal.shortcut is not None:
                    last = "" if line.endswith(" ") or not low else low.split()[-1]
                    for word in terminal.shortcut.complete_word(low):
                        yield Completion(word, start_position=-len(last))
                for w in terminal._words:
                    if w.lower().startswith(low) and w.lower() != low:
                        yield Completion(w, start_position=-len(line))

        return PromptSession(history=InMemoryHistory(), completer=MoveCompleter(), complete_while_typing=False)


# ------------------------------------------------------------------------------------------------
# The game at the table


class Table:
    """Plays one game at the terminal: the loop of bots, narration, boards and the people's entries."""

    def __init__(self, setup: PlaySetup, terminal: Terminal | None = None, board: str = "auto") -> None:
        self.session = setup.session
        self.board_layout = check_board_layout(board)
        self.record_path = setup.record_path
        self.resumed = setup.resumed
        self.spec = setup.spec
        self.shortcut = self.spec.move_entry()
        self.term = terminal or Terminal(shortcut=self.shortcut)
        humans = self.session.humans()
        self.hot_seat = len(humans) > 1
        #: per person's seat: how many steps it has been shown (its private steps are told at its turn).
        self.shown = {p: self.session.ply for p in humans}
        self.last_seat: int | None = None
        self.suggestion: str | None = None
        #: the step told last, not yet printed: [text, count, style, effects, its actor if the reader does
        #: not see it (a run that may go on while the bot thinks), else None]
        self._repeat: list | None = None

    # -- names and narration

    def who(self, p: int) -> str:
        seat = self.session.record.seats[p]
        return f"{SEAT_LETTERS[p]} ({seat.name})" if seat.is_human or seat.name == seat.player else \
            f"{SEAT_LETTERS[p]} ({seat.name}, {seat.player})"

    def shared_reader(self, step: Step) -> int:
        """The seat whose view narrates a step on the shared screen: a person's seat that did not see it,
        if any (hot-seat: what every person at the table may see), else the (first) person's."""
        humans = self.session.humans()
        for p in humans:
            if not step.visible_to(SEAT_LETTERS[p]):
                return p
        return humans[0]

    def narrate(self, step: Step) -> None:
        """Tell the step, what it changed on the lines below it. A run of one seat's steps told alike (a
        bot's hidden pyramid: 14 steps) is one line with its count, told when the run ends."""
        text, effects = self.session.narrate_parts(step, self.shared_reader(step))
        hidden = not step.visible_to(SEAT_LETTERS[self.shared_reader(step)])
        run = self._repeat
        if run is not None and run[0] == text and not run[3]:
            run[1] += 1
            run[3] = effects   # the run's last step may change something (the pyramid's leftover cubes)
            return
        # A run of open chance outcomes of one kind (a refill's 20 draws, the setup's tiles) is one line.
        kind = step.kind or "chance" if step.is_chance and not hidden and step.move is not None else None
        if run is not None and kind is not None and run[5] is not None:
            run[1] += 1
            run[6].append((kind, step.move))
            run[3] = run[3] + effects
            return
        self.flush_narration()
        style = "yellow" if step.is_chance else ("bold" if not self.session.is_bot(_actor(step)) else None)
        self._repeat = [text, 1, style, effects, step.actor if hidden else None, kind,
                        [(kind, step.move)] if kind is not None else []]

    def flush_narration(self) -> None:
        """Print the step told last (with its run's count) and its consequences."""
        if self._repeat is None:
            return
        text, count, style, effects, _, kind, outcomes = self._repeat
        self._repeat = None
        if kind is not None and count > 1:
            if len({k for k, _ in outcomes}) == 1:     # `20 x draw: G B B P ...`
                text = f"{count} x {kind}: {' '.join(move.split()[-1] for _, move in outcomes)}"
            else:                                      # `16 chance steps: S8@1, face a, ...`
                text = f"{count} chance steps: {', '.join(move for _, move in outcomes)}"
            count = 1
        for line in textwrap.wrap(f"  {text}" + (f": {count} times in all" if count > 1 else ""), self.term.width,
                                  subsequent_indent="    ", break_on_hyphens=False) or [""]:
            self.term.print(line, style=style)
        for effect in effects:
            self.term.print(f"    {EFFECT_MARK} {effect}", style="cyan")

    # -- the loop

    def run(self) -> int:
        """Play until the game ends or the person quits; return the exit code (0, or 130 after Ctrl-C)."""
        self.intro()
        try:
            while True:
                self.advance()
                if self.session.is_over():
                    self.finish()
                    return 0
                if not self.decide(self.session.to_move()):
                    return 0
        except EOFError:
            self.save_quietly("end of input")
            return 0
        except KeyboardInterrupt:
            self.term.print()
            self.save_quietly("interrupted")
            return 130

    def intro(self) -> None:
        s = self.session
        seats = ", ".join(self.who(p) for p in range(s.players))
        verb = "resumed" if self.resumed else "new game"
        chance = f"seed {s.seed}" if s.seeded else "secret chance"
        self.term.rule(f"{self.spec.title}: {verb}, {s.players} players, {chance}")
        self.term.print(f"seats: {seats}")
        self.term.print(f"the game record is saved to {self.record_path} (type help for the commands)")
        if self.resumed:
            self.term.print(f"{s.ply} steps already played")

    def advance(self) -> None:
        """Bots and chance until a person is to move, each step narrated as it happens."""
        s = self.session
        while not s.is_over():
            p = s.to_move()
            if p >= 0 and not s.is_bot(p):
                return
            if p >= 0:
                if self._repeat is None or self._repeat[4] != SEAT_LETTERS[p] or self._repeat[3]:
                    self.flush_narration()   # told before the bot thinks, unless it goes on with a hidden run
                with self.term.thinking(f"{self.who(p)} is thinking{_budget_text(s.record.seats[p].player)}"):
                    step = s.bot_move()
            else:
                step = s.bot_move()
            self.narrate(step)

    def board_width(self) -> int | None:
        """The width the board is laid out for: the terminal's (`--board auto`; None when the output is not
        a terminal: a log or a script reads the full layout), 80 columns (`compact`) or None, the game's
        full layout (`wide`)."""
        auto = self.term.width if self.term.console.is_terminal else None
        return {"auto": auto, "compact": COMPACT_COLUMNS, "wide": None}[self.board_layout]

    def show(self, p: int) -> None:
        """What happened since seat `p`'s last look that the shared screen did not tell it, then the board as
        the seat sees it and its choices, laid out so that the board, the choices and the prompt fit the
        terminal's height (`show_choices` shortens the list when they would not)."""
        s = self.session
        self.flush_narration()
        handed_over = self.hot_seat and self.last_seat is not None and self.last_seat != p
        if handed_over:
            self.handover(p)
        self.last_seat = p
        since = [st for st in s.record.steps[self.shown[p]:] if st.actor != SEAT_LETTERS[p]]
        if handed_over:   # the screen was cleared: everything since this seat's last look, as it may see it
            lines = [s.narrate(st, p) for st in since]
            title = "since your last turn:"
        else:             # told already, except what only this seat may see
            lines = [s.narrate(st, p) for st in since if s.narrate(st, p) != s.narrate(st, self.shared_reader(st))]
            title = "only you saw:"
        if lines:
            self.term.print(title, style="magenta")
            for text, count in _runs(lines):
                self.term.print(f"  {text}" + (f": {count} times" if count > 1 else ""), style="magenta")
        self.shown[p] = s.ply
        board = self.spec.render_styled(s.view(p), self.board_width())
        # Under the board: the last moves, the choices, then the prompt's row (a pipe has no height: every
        # choice is listed, and the moves were told as they came).
        rows = self.term.height - len(board) - 1 if self.term.console.is_terminal else None
        recap = self.recap_lines(p, rows)
        if rows is not None:
            rows -= len(recap)
        if rows is None or len(self.choice_lines(p, None)) < rows:   # a blank line above the board if room
            self.term.print()
        self.term.board(board, SEAT_LETTERS[p])
        for line in recap:
            self.term.print(line, style="cyan")
        self.show_choices(p, rows)

    def recap_lines(self, p: int, rows: int | None) -> list[str]:
        """The other seats' moves since seat `p`'s last one, for under the board on a terminal (the narration
        above has scrolled off an 80 x 24 screen by then): `last: B: C G>6 (take the 5 green ...)`, one line a
        move in its words while they fit in a third of the `rows` left (at most 3, at least 1); else each
        seat's run in brief words, a move's words without their detail after a colon (`last: B take the 2
        blue from the centre and break them; C take the 8 pink from the centre to column 6`), in up to 3
        lines while 2 rows stay for the choices (a 4-player Azul board leaves 5); else the move texts of each run
        (`last: B take m2, build pink@e5, done; C sail I3, done`). The earliest runs give way to the latest
        (`last: ...; D take ...`) when the lines do not fit. None on a pipe (every move was told as it came)."""
        if rows is None:
            return []
        s = self.session
        letter = SEAT_LETTERS[p]
        steps = s.record.steps
        mine = [i for i, step in enumerate(steps) if step.actor == letter]
        start = mine[-1] + 1 if mine else 0
        moves = [(ply, step) for ply, step in enumerate(steps[start:], start) if not step.is_chance]
        if not moves:
            return []
        width = self.term.width
        budget = max(1, min(3, (rows - 2) // 3))
        told = [s.narrate_parts(step, p)[0] for _ply, step in moves]
        if len(told) <= budget and all(len(text) + 8 <= width for text in told):
            return [f"  {'last:' if i == 0 else '     '} {text}" for i, text in enumerate(told)]

        def run_pieces(short_of) -> list[str]:
            """Each seat's run of moves, `short_of(ply, step)` a move (a hidden one as the seat was told it)."""
            runs: list[list[str]] = []
            for (ply, step), text in zip(moves, told):
                hidden = step.move is None or not step.visible_to(letter)
                short = text if hidden else short_of(ply, step)
                if runs and runs[-1][0] == step.actor:
                    runs[-1].append(short)
                else:
                    runs.append([step.actor, short if hidden else f"{step.actor} {short}"])
            return [", ".join(run[1:]) for run in runs]

        def wrapped(parts: list[str]) -> list[str]:
            return textwrap.wrap("; ".join(parts), width - 8, break_on_hyphens=False) or [""]

        def recap(lines: list[str]) -> list[str]:
            return [f"  {'last:' if i == 0 else '     '} {line}" for i, line in enumerate(lines)]
        def latest(pieces: list[str], limit: int) -> list[str]:
            """The runs wrapped, the earliest seats' giving way (not the latest) while over `limit` lines."""
            lines = wrapped(pieces)
            while len(lines) > limit and len(pieces) > 1:
                pieces = pieces[1:]
                lines = wrapped(["...", *pieces])
            return lines
        room = max(budget, min(3, rows - 2))
        brief = latest(run_pieces(lambda ply, step: _brief_words(s.words[ply] if ply < len(s.words) else None)
                                  or step.move), room)
        if len(brief) <= room:
            return recap(brief)
        return recap(latest(run_pieces(lambda _ply, step: step.move), budget)[-budget:])

    def handover(self, p: int) -> None:
        """Hot-seat: clear the screen (and the scrollback) before the next person looks."""
        self.term.clear()
        self.term.rule(f"pass the terminal to {self.who(p)}")
        if self.term.interactive:
            self.term.read(f"{SEAT_LETTERS[p]}: press Enter when only you can see the screen ", [])
            self.term.clear()

    def choice_lines(self, p: int, rows: int | None) -> list[str]:
        """The numbered legal moves in people's words (a block per kind of move), then what the next move
        costs and why moves are missing (`NOTE` lines), in at most `rows` lines (None: all of them) with
        the rule above them: when they do not all fit, the first moves and a line saying how many more (the
        notes go first); with no room for the rule, that line alone."""
        legal = self.session.legal_moves(p)
        words = self.session.describe_legal(p) or legal
        width = self.term.width
        notes = [NOTE + piece for note in self.session.move_notes(p)
                 for piece in textwrap.wrap(f"  {note}", width, subsequent_indent="    ", break_on_hyphens=False)]

        def listing(k: int) -> list[str]:
            return _choices(legal[:k], words[:k], width).split("\n")
        full = listing(len(legal))
        if rows is None or len(full) + len(notes) + 1 <= rows:
            return [RULE] + full + notes
        # Short of rows (a board that fills an 80 x 24 screen): the move texts, shorter than the words, numbered
        # and packed in columns of their own widths; the rule only if there is room for it and every move.
        texts = [f"{i + 1:>2} {move}" for i, move in enumerate(legal)]
        packed = _packed(texts, width, rows)
        if packed is not None:
            return ([RULE] if len(packed) < rows else []) + packed
        more = "  ... {} more: type legal to list them all"
        shown = max((k for k in range(1, len(legal)) if _packed(texts[:k] + [more.format(len(legal) - k)], width,
                                                                   rows) is not None), default=0)
        if not shown:
            return [f"  {len(legal)} moves: type legal to list them (Tab completes a move)"]
        return _packed(texts[:shown] + [more.format(len(legal) - shown)], width, rows)

    def show_choices(self, p: int, rows: int | None = None) -> None:
        """The rule naming the seat to move, then its numbered legal moves in people's words and the notes
        on what the next move costs (in at most `rows` lines)."""
        for line in self.choice_lines(p, rows):
            if line == RULE:
                self.term.rule(f"{self.who(p)} to move: {self.spec.turn_label(self.session.view(p))}")
            elif line.startswith(NOTE):
                self.term.print(line[len(NOTE):], style="dim")
            else:
                self.term.print(line)

    def _why_illegal(self, text: str) -> str | None:
        """The game's reason why `text`, a move it can read, is not legal now (`GameSpec.why_illegal`)."""
        state = self.session.state
        try:
            action = state.string_to_action(text.strip())
        except (BuranoError, ValueError, TypeError):
            return None
        if action in state.legal_actions():
            return None
        return self.spec.why_illegal(state, action)

    def decide(self, p: int) -> bool:
        """Read entries until seat `p` has moved (True) or the person quits (False)."""
        self.autosave()
        self.show(p)
        while True:
            legal = self.session.legal_moves(p)
            try:
                line = self.term.read(f"{SEAT_LETTERS[p]} to move> ", legal + list(COMMANDS), who=p)
            except EOFError:
                self.save_quietly("end of input")
                return False
            entry = resolve_entry(line, legal, self.shortcut)
            if entry.kind == "error":   # a move in people's words, as the list shows it
                spoken = _by_words(legal, self.session.describe_legal(p)).get(_normal(line))
                if spoken is not None:
                    entry = Entry("moves", moves=[spoken], how=f"{line.strip()} = {spoken}")
            if entry.kind == "error":    # a move of the game, not legal now: the game's reason, not a guess
                reason = self._why_illegal(line)
                if reason is not None:
                    entry = Entry("error", message=f"{line.strip()!r} is not legal now: {reason}")
            if entry.kind == "error" and _normal(line) in YES and self.suggestion:
                entry = Entry("moves", moves=[self.suggestion], how=f"playing {self.suggestion}")
            self.suggestion = entry.suggestion
            if entry.kind == "empty":
                continue
            if entry.kind == "error":
                note = " (y plays it)" if entry.suggestion else ""
                self.term.print(entry.message + note, style="red")
                continue
            if entry.kind == "command":
                outcome = self.command(p, entry.command, entry.arg)
                if outcome == "quit":
                    return False
                if outcome == "moved":
                    return True
                continue
            try:
                steps = self.session.play_many(p, entry.moves) if len(entry.moves) > 1 else \
                    [self.session.play(p, entry.moves[0])]
            except BuranoError as exc:
                self.term.print(f"nothing played: {exc}", style="red")
                continue
            letter = SEAT_LETTERS[p]
            line = None if self.shortcut is None or len(steps) < 2 else self.shortcut.one_line(entry.moves)
            if line is not None and all(st.actor == letter and self.shared_reader(st) == p for st in steps):
                self.flush_narration()   # a shortcut line (Burano: a pyramid), told in one line
                self.term.print(f"  {letter}: {line} ({len(steps)} {self.shortcut.unit})", style="bold")
            else:
                for st in steps:
                    self.narrate(st)
            return True

    def command(self, p: int, name: str, arg: str | None) -> str:
        """Run a command; "quit", "moved" (the position changed: show it again) or "" (keep reading)."""
        s = self.session
        if name == "help":
            legal = [s.state.action_to_string(a) for a in s.state.legal_actions()]
            self.term.print(help_text(self.shortcut, legal, s.seeded).rstrip("\n"))
        elif name == "legal":
            self.show_choices(p)
        elif name == "board":
            self.show(p)
        elif name == "hint":
            self.hint(p, arg)
        elif name == "undo":
            if arg is not None:
                self.term.print("undo takes nothing after it", style="red")
            elif (refusal := s.undo_refusal(p)) is not None:
                self.term.print(refusal, style="red")
            elif s.undo(p):
                for q in self.shown:
                    self.shown[q] = min(self.shown[q], s.ply)
                self.term.print(f"  taken back to {SEAT_LETTERS[p]}'s previous decision (step {s.ply})", style="dim")
                self.autosave()
                return "moved"
            else:
                self.term.print("nothing to undo: this is your first decision", style="red")
        elif name == "save":
            if arg is not None and ("\0" in arg or not arg.isprintable()):
                self.term.print(f"cannot save to {arg!r}: a file name cannot hold control characters",
                                style="red")
                return ""
            path = Path(arg) if arg else self.record_path
            try:
                s.save(path)
            except BuranoError as exc:
                self.term.print(str(exc), style="red")
            else:
                self.term.print(f"saved the game to {path}")
        elif name == "quit":
            self.save_quietly("quit")
            return "quit"
        return ""

    def hint(self, p: int, arg: str | None) -> None:
        try:
            seconds = DEFAULT_HINT_SECONDS if arg is None else float(arg)
            if not 0 < seconds <= 600:
                raise ValueError
        except ValueError:
            self.term.print(f"hint takes seconds (more than 0, at most 600), not {arg!r}", style="red")
            return
        legal = self.session.state.legal_actions()
        if len(legal) == 1:          # nothing to compare: no search, no win rate of an empty tree
            only = self.session.state.action_to_string(legal[0])
            self.term.print(f"hint: {only}  (the only legal move)", style="green")
            return
        with self.term.thinking(f"searching your view for {seconds:g} s"):
            result = self.session.hint(p, seconds=seconds)
        self.term.print(f"hint: {result.move}  (searched {SEAT_LETTERS[p]}'s view only: {result.iterations} "
                        f"iterations in {result.elapsed:.2f} s)", style="green")
        if len(result.pv) > 1:
            self.term.print(f"  plan for this turn: {PLAN_ARROW.join(step.text() for step in result.pv)}  "
                            "([n] iterations through a step, ? barely compared)")
            line = None if self.shortcut is None else self.shortcut.one_line([step.move for step in result.pv])
            if line is not None:
                self.term.print(f"  the plan's {self.shortcut.unit} in one line: {line}")
        score = self.spec.score_columns(self.session.state)[0][0]
        payoff = self.spec.utility == "payoff"      # chips won or lost: the search weighs them, not the win chance
        for c in result.candidates[:HINT_TOP]:
            win = "" if payoff else f"win {c.win_prob:6.1%}  "
            value = f"{c.expected_vp:+5.2f}" if payoff else f"{c.expected_vp:5.1f}"
            self.term.print(f"  {c.move:<24} {win}{score} {value}  visits {c.visits}")

    # -- saving and the end

    def autosave(self) -> None:
        self.session.save(self.record_path)

    def save_quietly(self, why: str) -> None:
        self.flush_narration()
        try:
            self.session.save(self.record_path)
        except BuranoError as exc:
            self.term.print(f"{why}: the game could NOT be saved: {exc}", style="red")
            return
        self.term.print(f"{why}: the game is saved to {self.record_path}; continue it with: "
                        f"burano play --resume {self.record_path}")

    def finish(self) -> None:
        s = self.session
        self.flush_narration()
        self.autosave()
        p = self.last_seat if self.last_seat is not None else s.humans()[0]
        self.term.print()
        self.term.board(self.spec.render_styled(s.view(p), self.board_width()), SEAT_LETTERS[p])
        result = s.record.result or {}
        from rich.table import Table as RichTable
        score, cells = self.spec.score_columns(s.state)[0]
        table = RichTable("place", "seat", score, title="game over: final scores")
        for place, letter in enumerate(result.get("order", []), start=1):
            q = SEAT_LETTERS.index(letter)
            table.add_row(str(place), self.who(q), cells[q])
        self.term.console.print(table)
        winners = result.get("winners", [])
        self.term.print(f"winner{'s' if len(winners) > 1 else ''}: "
                        f"{', '.join(self.who(SEAT_LETTERS.index(w)) for w in winners)}", style="bold")
        for line in self.spec.describe_result(s.state):   # the tie-break, where it decided
            self.term.print(line, style="bold")
        self.term.print(f"the game record is saved to {self.record_path}")


def _brief_words(words: str | None) -> str | None:
    """A move's words without their detail: what follows the first colon outside brackets (`take the 3 blue
    from factory 1 to column 2: 3 placed, 0 broken` -> `take the 3 blue from factory 1 to column 2`; a card's
    `(pink L1: 3 passers-by)` is kept whole)."""
    if words is None:
        return None
    depth = 0
    for i, ch in enumerate(words):
        depth += (ch in "([") - (ch in ")]")
        if ch == ":" and depth == 0:
            return words[:i]
    return words


def _runs(lines: list[str]) -> list[tuple[str, int]]:
    """Consecutive equal lines as (line, count)."""
    out: list[tuple[str, int]] = []
    for line in lines:
        if out and out[-1][0] == line:
            out[-1] = (line, out[-1][1] + 1)
        else:
            out.append((line, 1))
    return out


def _by_words(legal: list[str], words: list[str]) -> dict[str, str]:
    """People's words of each legal move (normalised) -> its move text, where the words name one move
    and are not a move text themselves."""
    keys = [_normal(w) for w in words]
    texts = {m.lower() for m in legal}
    return {k: m for k, m in zip(keys, legal) if keys.count(k) == 1 and k not in texts}


def _choices(legal: list[str], words: list[str], width: int) -> str:
    """The legal moves numbered from 1 in people's words, a block of columns per kind of move (the move
    text's first word); a move whose words are its text shows once."""
    if not legal:
        return "  (no moves)"
    blocks: list[list[str]] = []
    kind = None
    for i, (move, said) in enumerate(zip(legal, words or legal)):
        if move.split()[0] != kind:
            kind = move.split()[0]
            blocks.append([])
        blocks[-1].append(f"{i + 1:>2} {said}")
    return "\n".join(_columns(block, width) for block in blocks)


def _actor(step: Step) -> int:
    return SEAT_LETTERS.index(step.actor) if not step.is_chance else TERMINAL


def _budget_text(spec: str) -> str:
    budget = parse_bot_spec(spec).budget()
    if budget is None:
        return ""
    kind, amount = budget
    return f" (up to {amount:g} s)" if kind == "time" else f" ({amount:,.0f} iterations)"


def _packed(items: list[str], width: int, rows: int) -> list[str] | None:
    """`items` down columns of their own widths (two spaces between), in as few lines as fit in `width`; None
    when they need more than `rows` lines. The last item stays last (a "... more" note)."""
    for lines in range(1, max(rows, 0) + 1):
        columns = [items[c:c + lines] for c in range(0, len(items), lines)]
        widths = [max(len(i) for i in col) for col in columns]
        if 2 + sum(widths) + 2 * (len(columns) - 1) <= width:
            return ["  " + "  ".join(col[r].ljust(w) for col, w in zip(columns, widths) if r < len(col)).rstrip()
                    for r in range(lines)]
    return None


def _columns(items: list[str], width: int) -> str:
    """`items` in as many columns as fit in `width`, numbered down the columns."""
    if not items:
        return "  (no moves)"
    cell = max(len(i) for i in items) + 3
    per_row = max(1, min(len(items), (max(width, 40) - 2) // cell))
    if per_row == 1:      # one a line: a longer one wraps here, under its words, so its lines are counted
        return "\n".join("\n".join(textwrap.wrap(item, max(width, 40) - 2, initial_indent="  ",
                                                 subsequent_indent="     ", break_on_hyphens=False))
                         for item in items)
    rows = -(-len(items) // per_row)
    lines = []
    for r in range(rows):
        lines.append("  " + "".join(items[c * rows + r].ljust(cell) for c in range(per_row)
                                    if c * rows + r < len(items)).rstrip())
    return "\n".join(lines)


def check_board_layout(board: str) -> str:
    """`board` if it names a layout of `BOARD_LAYOUTS`, else an `OptionError` naming them."""
    if board not in BOARD_LAYOUTS:
        raise OptionError(f"--board must be one of {', '.join(BOARD_LAYOUTS)}, not {board!r}")
    return board


def run_play(setup: PlaySetup, interactive: bool | None = None, board: str = "auto") -> int:
    """Play the game of `setup` at this terminal (the board laid out as `board` says); the exit code."""
    return Table(setup, Terminal(interactive), check_board_layout(board)).run()
