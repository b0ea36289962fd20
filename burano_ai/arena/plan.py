"""What a tournament plays: its configuration (`ArenaConfig`), the ``--bots`` list syntax
(`split_bot_list`) and the resolved plan (`Plan`: entries, lineups, seatings, deals; `make_plan`).

Lineups, round robins, gauntlets and seatings are described in `burano_ai.arena`.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from burano_ai.arena.sprt import SprtConfig
from burano_ai.bots import check_bot_spec, parse_bot_spec, with_time_per_move
from burano_ai.core.errors import OptionError
from burano_ai.core.game import player_range_text
from burano_ai.core.options import make_game, parse_game_options
from burano_ai.games import DEFAULT_GAME, get_spec

BACKENDS = ("local", "ray")
SEATINGS = ("auto", "all", "rotate")
#: How the bots meet: one lineup (at most one bot per seat), a round robin over every combination of
#: `players` bots (more bots than seats), or a gauntlet (the first bot against every combination of
#: `players - 1` bots of the rest).
PAIRINGS = ("lineup", "round-robin", "gauntlet")
#: Most distinct permutations `seating="auto"` plays per deal before it falls back to rotations.
AUTO_MAX_PERMUTATIONS = 6


@dataclass(frozen=True)
class ArenaConfig:
    """What to play. See the module docstring for lineups, seatings and seeds.

    Attributes:
        bots: bot spec strings, one per seat (repeated to fill the seats if shorter); more bots than seats
            play a round robin over every combination of `players` of them.
        players: within the game's range (Burano: 2, 3 or 4).
        games: games to play (rounded up to whole deals).
        seed: seed of every deal, chance stream and bot.
        time_per_move: seconds per decision for search bots whose spec has no budget of its own.
        workers: games played in parallel (local processes, or Ray CPUs).
        backend: ``local`` (processes) or ``ray`` (Ray tasks).
        seating: ``auto``, ``all`` (every distinct permutation) or ``rotate``.
        bootstrap: bootstrap refits for the rating intervals.
        sprt: run a sequential test (two bots, two players; `burano_ai.arena.sprt`): play deals in
            order and stop starting new ones once the test decides; `games` is then the most to play.
        gauntlet: the first bot plays every combination of `players - 1` of the others (the field).
        game: the game's registry key (`burano_ai.games`).
        options: the game's options besides the player count (`GameSpec.game_options`: name -> JSON
            value, as `core.options.parse_game_options` gives them); every game is made with them.
    """

    bots: tuple[str, ...]
    players: int = 2
    games: int = 2
    seed: int = 0
    time_per_move: float | None = None
    workers: int = 1
    backend: str = "local"
    seating: str = "auto"
    bootstrap: int = 200
    sprt: SprtConfig | None = None
    gauntlet: bool = False
    game: str = DEFAULT_GAME
    options: Mapping[str, Any] | None = None

    @property
    def pairing(self) -> str:
        """"gauntlet", "round-robin" (more bots than seats) or "lineup"."""
        if self.gauntlet:
            return "gauntlet"
        return "round-robin" if len(self.bots) > self.players else "lineup"

    def validate(self) -> None:
        """Raise OptionError naming the first bad option (bot specs included)."""
        spec = get_spec(self.game)
        if isinstance(self.players, bool) or not isinstance(self.players, int) or \
                not spec.min_players <= self.players <= spec.max_players:
            raise OptionError(f"players must be {player_range_text(spec)}, not {self.players!r}")
        if not self.bots:
            raise OptionError("no bots given: list one bot spec per seat, e.g. --bots ismcts,greedy")
        if not isinstance(self.gauntlet, bool):
            raise OptionError(f"gauntlet must be True or False, not {self.gauntlet!r}")
        if self.gauntlet and len(self.bots) < self.players:
            raise OptionError(f"a gauntlet at {self.players} players needs at least {self.players} bots (the "
                              f"first against every combination of {self.players - 1} others), not {len(self.bots)}")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise OptionError(f"games must be a whole number >= 1, not {self.games!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise OptionError(f"seed must be an integer, not {self.seed!r}")
        if self.time_per_move is not None and (not isinstance(self.time_per_move, (int, float))
                                               or not math.isfinite(self.time_per_move)
                                               or self.time_per_move <= 0):
            raise OptionError(f"time per move must be a positive number of seconds, not {self.time_per_move!r}")
        if isinstance(self.workers, bool) or not isinstance(self.workers, int) or not 1 <= self.workers <= 256:
            raise OptionError(f"workers must be a whole number from 1 to 256, not {self.workers!r}")
        if self.backend not in BACKENDS:
            raise OptionError(f"backend must be one of {', '.join(BACKENDS)}, not {self.backend!r}")
        if self.seating not in SEATINGS:
            raise OptionError(f"seating must be one of {', '.join(SEATINGS)}, not {self.seating!r}")
        if isinstance(self.bootstrap, bool) or not isinstance(self.bootstrap, int) or self.bootstrap < 0:
            raise OptionError(f"bootstrap must be a whole number >= 0, not {self.bootstrap!r}")
        if self.sprt is not None:
            if not isinstance(self.sprt, SprtConfig):
                raise OptionError(f"sprt must be a burano_ai.arena.SprtConfig, not {self.sprt!r}")
            self.sprt.validate()
            if self.pairing != "lineup":
                raise OptionError(f"--sprt compares two bots: it cannot run a {self.pairing} of {len(self.bots)}")
        options = parse_game_options(spec, dict(self.options or {}))
        rules_game = make_game(spec, self.players, options, where="options" if options else None)
        for bot in self.bots:
            check_bot_spec(bot, self.game, rules_game)   # also: can it play a game of these options


def split_bot_list(text: str) -> list[str]:
    """Split ``--bots`` text into specs: a comma starts a new spec unless the next piece is a bare
    ``key=value`` continuing the previous spec's options (``ismcts:time=1,workers=2,greedy`` is two bots).
    Semicolons always separate specs.

    Raises:
        OptionError: an empty spec, or options with no bot before them.
    """
    specs: list[str] = []
    for chunk in text.split(";"):
        for piece in chunk.split(","):
            p = piece.strip()
            is_option = "=" in p and (":" not in p or p.index("=") < p.index(":"))
            if is_option:
                if not specs or ":" not in specs[-1]:
                    raise OptionError(f"bot list {text!r}: option {p!r} does not follow a 'bot:key=value' spec")
                specs[-1] += "," + p
            else:
                if not p:
                    raise OptionError(f"bot list {text!r}: empty bot spec")
                specs.append(p)
    return specs


@dataclass(frozen=True)
class Plan:
    """The resolved tournament: entries, lineups, seatings, deals.

    Every deal is played once per seating; `seatings` are the seatings of every lineup, lineup by lineup.
    """

    entries: tuple[str, ...]        # canonical spec per entry
    lineup: tuple[int, ...]         # entry per seat before permutation (the first lineup)
    seatings: tuple[tuple[int, ...], ...]
    deals: int
    lineups: tuple[tuple[int, ...], ...] = ()   # every lineup (a round robin or gauntlet has several)
    pairing: str = "lineup"

    @property
    def games(self) -> int:
        return self.deals * len(self.seatings)


def seatings_of(lineup: Sequence[int], mode: str) -> list[tuple[int, ...]]:
    """Distinct seatings of a lineup: all permutations, rotations, or ``auto`` (see the module doc)."""
    perms = sorted(set(itertools.permutations(lineup)))
    rotations: list[tuple[int, ...]] = []
    for k in range(len(lineup)):
        r = tuple(lineup[k:]) + tuple(lineup[:k])
        if r not in rotations:
            rotations.append(r)
    if mode == "all" or (mode == "auto" and len(perms) <= AUTO_MAX_PERMUTATIONS):
        return perms
    return rotations


def lineups_of(num_entries: int, players: int, pairing: str) -> list[tuple[int, ...]]:
    """The lineups of a round robin (every combination of `players` entries, in order) or a gauntlet
    (entry 0 with every combination of `players - 1` of the others)."""
    if pairing == "gauntlet":
        return [(0, *rest) for rest in itertools.combinations(range(1, num_entries), players - 1)]
    return list(itertools.combinations(range(num_entries), players))


def make_plan(config: ArenaConfig) -> Plan:
    """Resolve specs (with the time per move), entries, lineups, seatings and the number of deals."""
    config.validate()
    specs = [with_time_per_move(parse_bot_spec(s, config.game), config.time_per_move).canonical()
             for s in config.bots]
    pairing = config.pairing
    if pairing != "lineup":
        twice = next((s for i, s in enumerate(specs) if s in specs[:i]), None)
        if twice is not None:
            raise OptionError(f"bot {twice!r} is listed twice: a {pairing} needs distinct bots")
        entries = list(specs)
        lineups = lineups_of(len(entries), config.players, pairing)
    elif config.sprt is not None and config.players > 2 and len(set(specs)) == 2 and len(specs) == 2:
        # An SPRT at n seats: the first bot in one seat, the second in all the others (every seating of
        # a deal puts the first bot in another seat: arena.sprt.GroupSprtTest).
        seat_specs = [specs[0]] + [specs[1]] * (config.players - 1)
        entries = list(specs)
        lineups = [tuple(entries.index(s) for s in seat_specs)]
    else:
        seat_specs = [specs[i % len(specs)] for i in range(config.players)]
        entries = []
        for s in seat_specs:
            if s not in entries:
                entries.append(s)
        lineups = [tuple(entries.index(s) for s in seat_specs)]
    if config.sprt is not None and len(entries) != 2:
        raise OptionError(f"--sprt compares two distinct bots, not {len(entries)} ({', '.join(entries)})")
    seatings = tuple(s for lineup in lineups for s in seatings_of(lineup, config.seating))
    deals = -(-config.games // len(seatings))
    return Plan(tuple(entries), lineups[0], seatings, deals, tuple(lineups), pairing)

