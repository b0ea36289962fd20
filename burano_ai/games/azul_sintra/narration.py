"""What a step of Azul: Stained Glass of Sintra changed, in words: every point and why (`step_effects`).

The compiled core keeps only totals; the reference model (`reference.State`) changes the score in four
small methods, one per rule: the round bonus of a completed strip (§5.3 3a, `_complete`), the window
score (§5.3 3c, `_keep`), the -18 of the broken-glass track's bottom space (§6, `_steps`) and the final
scoring (§8, `_end_round` after round VI). `_Ledger` is that model with each of them overridden to book
its points with the reason (the spec section and what the rule counted), and the draft noting what
it broke, so the track's moves are told too. The step is replayed on a ledger built from the full
position before it; its result is checked against the state after it (either implementation), and
where they differ (never, in the tests) the effects fall back to the bare score changes.

Everything is public (perfect information, spec §11.1): every effect is readable by every seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from burano_ai.core.game import StepEffect
from burano_ai.core.people import ledger_entries
from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games.azul_sintra.data import COLUMNS, LEFTOVER_PER_POINT, NUM_COLOURS, ORNAMENT_POINTS, ROUNDS
from burano_ai.games.azul_sintra.position import position_from_dict
from burano_ai.games.azul_sintra.reference import Game as ReferenceGame
from burano_ai.games.azul_sintra.reference import State as ReferenceState
from burano_ai.games.azul_sintra.rules import BREAK, CENTRE, ROMAN


@dataclass
class Entry:
    """One booking: seat `seat` gained (or lost, negative) `points` because of `reason`.

    `group` is "final" for the end-of-game scoring (told as one line per seat); "track" for a move of
    the broken-glass marker that cost no points yet (`points` 0, told as a note).
    """

    seat: int
    points: int
    reason: str
    group: str = ""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _points(n: int) -> str:
    """`+1 point`, `-18 points`."""
    return f"{n:+d} point" + ("" if abs(n) == 1 else "s")


def _track_text(value: int) -> str:
    return "0" if value == 0 else f"{value:+d}"


class _Ledger(ReferenceState):
    """The reference State, booking every score change to the rule that made it (`entries`)."""

    entries: list[Entry]

    def start_books(self) -> None:
        self.entries = []
        self._breaking: tuple[int, int] | None = None     # (pieces broken, token steps) of the draft running

    # --- §5: the draft (what breaks and whether the token moves the marker)

    def _draft(self, src: int, c: int, target: int) -> None:
        p = self.to_move
        b = self.boards[p]
        n = self.centre[c] if src == CENTRE else self.factories[src][c]
        token = int(src == CENTRE and self.token < 0)
        if target == BREAK:
            broken = n
        else:
            face = self.data.face_counts[b.strips[target]][b.faces[target]]
            free = face[c] - b.filled[target][c] + face[NUM_COLOURS] - sum(b.jokers[target])
            broken = max(0, n - free)
        self._breaking = (broken, token)
        try:
            super()._draft(src, c, target)
        finally:
            self._breaking = None

    def _steps(self, p: int, steps: int) -> None:
        """§6: the marker's move, told with what caused it; each -18 booked (AD-8)."""
        if not steps:
            return super()._steps(p, steps)
        b = self.boards[p]
        old_track, old_hits, old_score = b.track, b.hits, b.score
        super()._steps(p, steps)
        broken, token = self._breaking or (steps, 0)
        why = []
        if broken:
            why.append(f"{_plural(broken, 'piece')} broken")
        if token:
            why.append("the first-player token's step")
        cause = " and ".join(why)
        hits = b.hits - old_hits
        values = self.data.track
        if hits:
            times = " (-18" if hits == 1 else f" {hits} times (-18 each"
            self.entries.append(Entry(p, b.score - old_score,
                                      f"{cause}: the broken-glass marker reached the bottom space{times}, "
                                      f"back to the top, now on {_track_text(values[b.track])})"))
        else:
            self.entries.append(Entry(p, 0, f"{cause}: broken-glass marker {_track_text(values[old_track])} → "
                                            f"{_track_text(values[b.track])}", "track"))

    # --- §5.3: completion

    def _complete(self, p: int, k: int) -> None:
        b = self.boards[p]
        colour = self.indicator[self.round]
        count = b.filled[k][colour] + b.jokers[k][colour]
        if count:      # booked first: with auto_keep the keep (and maybe the game's end) runs inside
            self.entries.append(Entry(p, count, f"round bonus: {count} {self.data.colour_names[colour]} on "
                                      f"the strip completed in column {k + 1}, round {ROMAN[self.round]}'s colour"))
        super()._complete(p, k)

    def _keep(self, c: int) -> None:
        p, k = self.to_move, self.keep_column
        b = self.boards[p]
        values = self.data.window_values
        right = [j for j in range(k + 1, COLUMNS) if b.top[j] >= 0 or b.bottom[j] >= 0]
        cell = "top" if b.top[k] < 0 else "bottom"
        parts = f"window {k + 1} ({values[k]})"
        if right:
            parts += " + occupied windows to its right: " + ", ".join(f"{j + 1} ({values[j]})" for j in right)
        # Booked before the rule runs: the turn it ends may end the game, whose final scoring books itself.
        self.entries.append(Entry(p, values[k] + sum(values[j] for j in right),
                                  f"{self.data.colour_names[c]} kept on the {cell} cell; {parts}"))
        super()._keep(c)

    # --- §8: the final scoring, per category

    def _end_round(self) -> None:
        if self.round != ROUNDS - 1:
            return super()._end_round()
        planned = [self._final_entries(p) for p in range(self.num_players)]
        old = [b.score for b in self.boards]
        super()._end_round()
        for p, b in enumerate(self.boards):
            mine = planned[p]
            if sum(e.points for e in mine) != b.score - old[p]:     # never in the tests: the total alone
                mine = [Entry(p, b.score - old[p], "final scoring", "final")]
            self.entries += mine

    def _final_entries(self, p: int) -> list[Entry]:
        """Seat p's final scoring (§8) as it will be counted: leftover pieces, the track, the board side."""
        b = self.boards[p]
        pieces = sum(b.strip_pieces(k) for k in range(COLUMNS) if b.present(k))
        out = [Entry(p, pieces // LEFTOVER_PER_POINT, f"{_plural(pieces, 'piece')} left on the strips, 1 per "
                                                      f"{LEFTOVER_PER_POINT}", "final"),
               Entry(p, self.data.track[b.track], f"broken-glass marker on {_track_text(self.data.track[b.track])}",
                     "final")]
        if self.side == "A":
            for group in self.data.ornaments:
                cells = sum((b.top[k] >= 0) + (b.bottom[k] >= 0) for k in group)
                names = "-".join(str(k + 1) for k in group)
                out.append(Entry(p, ORNAMENT_POINTS[cells], f"ornament of windows {names}: {_plural(cells, 'cell')} "
                                                            "filled", "final"))
        else:
            complete = sum(1 for k in range(COLUMNS) if b.bottom[k] >= 0)
            counts = [sum((b.top[k] == c) + (b.bottom[k] == c) for k in range(COLUMNS)) for c in range(NUM_COLOURS)]
            best = max(range(NUM_COLOURS), key=lambda c: counts[c])
            out.append(Entry(p, complete * counts[best], f"side B: {_plural(complete, 'complete window')} × "
                                                         f"{counts[best]} {self.data.colour_names[best]} on the windows",
                             "final"))
        return out


def ledger(before, action: int) -> tuple[list[Entry], dict]:
    """The bookings of applying `action` at `before` (a full State of either implementation), and the full
    position after it as the reference model computes it."""
    position = position_from_dict(before.to_dict())
    state = _Ledger(ReferenceGame(*position.config()))
    state.copy_fields_from(position)
    state.start_books()
    state._apply_unchecked(action)
    return state.entries, state.to_dict()


def _bare(before, after) -> list[Entry]:
    return [Entry(p, new - old, "") for p, (old, new) in enumerate(zip(before.scores(), after.scores())) if new != old]


def step_entries(before, after, action: int | None = None) -> list[Entry]:
    """The bookings of the step from `before` to `after`: the ledger's, checked against `after`; the bare
    score changes where the ledger cannot replay it."""
    return ledger_entries(before, after, action, ledger, _bare)


def format_entries(entries: Sequence[Entry], totals: Sequence[int] | None = None) -> list[str]:
    """The bookings as lines: ``A +5 points (orange kept on the top cell; window 5 (2) + ...)``, a track
    move as ``A: 2 pieces broken: broken-glass marker -1 → -4``, and the final scoring as one line per
    seat with its points in all (`totals`)."""
    lines = []
    for e in entries:
        if e.group == "track":
            lines.append(f"{SEAT_LETTERS[e.seat]}: {e.reason}")
        elif not e.group and e.points:
            lines.append(f"{SEAT_LETTERS[e.seat]} {_points(e.points)}" + (f" ({e.reason})" if e.reason else ""))
    for p in sorted({e.seat for e in entries if e.group == "final"}):
        mine = [e for e in entries if e.group == "final" and e.seat == p]
        parts = ", ".join(f"{e.points:+d} ({e.reason})" for e in mine)
        total = sum(e.points for e in mine)
        end = f": {_points(total)}" + (f", {totals[p]} points in all" if totals is not None else "")
        lines.append(f"final scoring {SEAT_LETTERS[p]}: {parts}{end}")
    return lines


def describe_result(state) -> list[str]:
    """The winner and, where seats tie on points, the tie-break (§8, AD-14: fewer points lost to the
    broken-glass track, 18 per bottom space reached plus the marker's final value) with each tied seat's
    loss; still tied, a shared win (AD-22). [] before the end."""
    if not state.is_terminal():
        return []
    n = state.num_players
    scores = state.scores()
    keys = [tuple(state.finishing_key(p)) for p in range(n)]
    best = max(keys)
    winners = [p for p in range(n) if keys[p] == best]
    names = " and ".join(SEAT_LETTERS[p] for p in winners)
    level = [p for p in range(n) if scores[p] == best[0]]
    if len(level) == 1:
        return [f"{names} wins with {best[0]} points"]
    tied = " and ".join(SEAT_LETTERS[p] for p in level)
    losses = ", ".join(f"{SEAT_LETTERS[p]} {state.track_loss(p)}" for p in level)
    rule = "points lost to the broken-glass track (18 per bottom space reached + the marker's final value)"
    if len(winners) > 1:
        return [f"{tied} tie on {best[0]} points and on {rule}, {-best[1]} each: {names} share the win"]
    return [f"{tied} tie on {best[0]} points; {names} wins the tie-break on fewer {rule}: {losses}"]


def step_effects(before, after, action: int | None = None) -> list[StepEffect]:
    """Every point of the step from `before` to `after` with its reason, the track's moves, the final
    scoring per seat and category, and at the end the result with its tie-break: all public."""
    entries = step_entries(before, after, action)
    totals = after.scores() if after.is_terminal() else None
    return [StepEffect(line) for line in format_entries(entries, totals) + round_lines(before, after)
            + describe_result(after)]


def round_lines(before, after) -> list[str]:
    """The round's end (the draft that empties the factories and the centre) and the next round's start (the
    draw that fills the last factory: what each factory holds), in words."""
    old, new = before.phase_name(), after.phase_name()
    if old in ("draft", "keep") and new in ("refill", "setup"):
        return [f"round {before.to_dict()['round']} ends: the factories and the centre are empty; "
                "the factories are refilled from the bag"]
    if old == "refill" and new == "draft":
        d = after.to_dict()
        facs = ", ".join(f"{i + 1} {f or '-'}" for i, f in enumerate(d["factories"]))
        return [f"round {d['round']} begins, {d['to_move']} first: factories {facs}"]
    return []
