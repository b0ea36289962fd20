"""Search budgets: a number of iterations, a wall-clock time, or both (whichever runs out first)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from burano_ai.core.errors import OptionError

#: The budget of a suggestion (`burano suggest`, `burano_ai.engine.suggest`) when none is given: a few
#: seconds on one core with the native tree, enough for the visit counts to separate.
DEFAULT_SUGGEST_ITERATIONS = 10_000
#: The budget of one decision of a search bot (``ismcts`` in an arena) when its spec gives none: a game
#: is a few hundred decisions, and a tournament many games.
DEFAULT_BOT_ITERATIONS = 1000
#: Largest iteration budget: about a day of search on one core with the native tree, far past the
#: point where more iterations change the answer, and well inside the core's 64-bit counters.
MAX_ITERATIONS = 10**9
#: Largest time budget, in seconds (one day).
MAX_SECONDS = 86_400


@dataclass(frozen=True)
class Limit:
    """How long a search runs: `iterations` in all (over every worker) and/or `seconds` of wall clock.

    With both, the search stops at whichever is reached first. Only an iteration budget is
    reproducible: the same seed, iterations and worker count give the same result; a time budget
    gives however many iterations the machine manages.

    Ranges: `iterations` 1 .. `MAX_ITERATIONS` (10**9), `seconds` > 0 and at most `MAX_SECONDS` (86,400).
    Whatever the budget, every search runs at least one iteration (see `search.parallel.run_search`).

    Raises:
        OptionError: neither budget is given, or one is not a number or outside its range.
    """

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise OptionError("a search limit needs iterations or seconds (or both)")
        if self.iterations is not None:
            if isinstance(self.iterations, bool) or not isinstance(self.iterations, int):
                raise OptionError(f"iterations must be a whole number, not {self.iterations!r}")
            if self.iterations <= 0:
                raise OptionError(f"iterations must be at least 1, not {self.iterations}")
            if self.iterations > MAX_ITERATIONS:
                raise OptionError(f"iterations must be at most {MAX_ITERATIONS:_}, not {self.iterations}")
        if self.seconds is not None:
            if isinstance(self.seconds, bool) or not isinstance(self.seconds, (int, float)):
                raise OptionError(f"seconds must be a number, not {self.seconds!r}")
            if not math.isfinite(self.seconds) or self.seconds <= 0:
                raise OptionError(f"seconds must be a positive number, not {self.seconds}")
            if self.seconds > MAX_SECONDS:
                raise OptionError(f"seconds must be at most {MAX_SECONDS:_} (a day), not {self.seconds}")

    def split(self, workers: int) -> list[int | None]:
        """Iterations for each of `workers` root-parallel searches (the remainder goes to the first)."""
        if self.iterations is None:
            return [None] * workers
        base, extra = divmod(self.iterations, workers)
        return [base + (1 if w < extra else 0) for w in range(workers)]

    def to_dict(self) -> dict:
        return {"iterations": self.iterations, "seconds": self.seconds}
