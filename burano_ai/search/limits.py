"""Search budgets: a number of iterations, a wall-clock time, or both (whichever runs out first)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import OptionError

#: The budget of a suggestion (`burano suggest`, `burano_ai.engine.suggest`) when none is given: a few
#: seconds on one core with the native tree, enough for the visit counts to separate.
DEFAULT_SUGGEST_ITERATIONS = 10_000
#: The budget of one decision of a search bot (``ismcts`` in an arena) when its spec gives none: a game
#: is a few hundred decisions, and a tournament many games.
DEFAULT_BOT_ITERATIONS = 1000


@dataclass(frozen=True)
class Limit:
    """How long a search runs: `iterations` in all (over every worker) and/or `seconds` of wall clock.

    With both, the search stops at whichever is reached first. Only an iteration budget is
    reproducible: the same seed, iterations and worker count give the same result; a time budget
    gives however many iterations the machine manages.

    Raises:
        OptionError: neither budget is given, or one is zero, negative or not a number.
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
        if self.seconds is not None:
            if isinstance(self.seconds, bool) or not isinstance(self.seconds, (int, float)):
                raise OptionError(f"seconds must be a number, not {self.seconds!r}")
            if not math.isfinite(self.seconds) or self.seconds <= 0:
                raise OptionError(f"seconds must be a positive number, not {self.seconds}")

    def split(self, workers: int) -> list[int | None]:
        """Iterations for each of `workers` root-parallel searches (the remainder goes to the first)."""
        if self.iterations is None:
            return [None] * workers
        base, extra = divmod(self.iterations, workers)
        return [base + (1 if w < extra else 0) for w in range(workers)]

    def to_dict(self) -> dict:
        return {"iterations": self.iterations, "seconds": self.seconds}
