"""The sequential probability ratio test on duplicate-deal pairs: `SprtConfig` (the ``--sprt`` text),
`Pentanomial` (pair-score counts), the generalized log-likelihood ratio `llr` and `SprtTest` (the
running test and its verdict).

A *pair* is one deal played in both seatings of a two-bot, two-player match; its score for bot A (the
first of ``--bots``) is A's summed win shares, 0, 0.5, 1, 1.5 or 2 (a shared win gives each seat 1/2;
any other fraction is rounded to the nearest half). Counting pairs, not games, is what fastchess and
Fishtest do with colour-swapped openings: the deal's luck is common to both games of a pair, so the
pentanomial distribution of pair scores has a smaller variance than two independent games and the test
needs fewer games.

Model: **logistic Elo**. Elo ``e`` means the expected score per game ``s(e) = 1 / (1 + 10^(-e/400))``
(20 Elo = 52.9 %), and the hypotheses are H0: ``s = s(elo0)`` against H1: ``s = s(elo1)``. We choose
the logistic scale over normalized Elo (Fishtest's current default) because a Burano match's pair
variance is unknown in advance: logistic bounds are fixed score levels, readable as a win rate, and
mean the same in every match (normalized Elo bounds would move with the variance).

Statistic: the **generalized SPRT** of Van den Bergh on the pentanomial distribution (as
Fishtest's `LLRcalc.LLR_logistic` and fastchess's `getLLR_logistic`). With counts ``n_i`` of the pair
scores per game ``a_i in {0, 1/4, 1/2, 3/4, 1}``, ``N = sum n_i`` and the empirical frequencies
``f_i = n_i / N``, the maximum-likelihood distribution with mean ``s`` is

    p_i(s) = f_i / (1 + theta * (a_i - s)),   theta solving  sum_i f_i (a_i - s) / (1 + theta (a_i - s)) = 0

(a multinomial maximised under one linear constraint: the Lagrange condition), and

    LLR = N * sum_i f_i * ln(p_i(s1) / p_i(s0)).

Empty cells count as 0.001 pairs, as in fastchess, so every ``p_i`` stays positive. For small Elo
differences this equals ``N (s1 - s0) (2 mu - s0 - s1) / (2 var)`` (mu and var: the per-game mean
and the variance of a pair's per-game score; `llr_approximation`), Van den Bergh's approximation.
The test stops when ``LLR >= ln((1 - beta) / alpha)`` (H1 accepted: A is at least elo1 stronger) or
``LLR <= ln(beta / (1 - alpha))`` (H0 accepted: A is at most elo0 stronger): Wald's bounds, which keep
the error rates near alpha and beta.

The Elo estimate is the logistic Elo of the mean per-game score, its 95 % interval the same
transform of ``mu +- 1.96 sqrt(var / N)`` (the pentanomial standard error).

References: M. Van den Bergh, "A generalized SPRT" / "Comments on normalized Elo"
(https://www.cantate.be/Fishtest/ : support_MLE_multinomial.pdf, GSPRT_approximation.pdf,
normalized_elo_practical.pdf); Fishtest `server/fishtest/stats/LLRcalc.py`; fastchess
`app/src/matchmaking/sprt/sprt.cpp` (its test values are in tests/test_sprt.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

from burano_ai.core.errors import OptionError

#: Per-game score of each pentanomial cell: pair score (0, 0.5, 1, 1.5, 2) / 2.
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
#: Labels of the cells from bot A's side: LL, LD+DL, WL+LW+DD, WD+DW, WW.
CELL_LABELS = ("0", "0.5", "1", "1.5", "2")
#: What an empty cell counts as (fastchess's regularisation).
EMPTY_CELL = 1e-3
#: Two-sided 95 % normal quantile.
Z95 = 1.959964
VERDICTS = ("H0", "H1", "inconclusive")
_KEYS = ("elo0", "elo1", "alpha", "beta")


@dataclass(frozen=True)
class SprtConfig:
    """The hypotheses (logistic Elo of bot A over bot B) and the error rates of the test."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def validate(self) -> None:
        """Raise OptionError naming the bad parameter."""
        for key in _KEYS:
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise OptionError(f"--sprt {key} must be a finite number, not {value!r}")
        if self.elo1 <= self.elo0:
            raise OptionError(f"--sprt elo1 ({self.elo1:g}) must be greater than elo0 ({self.elo0:g})")
        for key in ("alpha", "beta"):
            value = getattr(self, key)
            if not 0.0 < value < 0.5:
                raise OptionError(f"--sprt {key} must lie strictly between 0 and 0.5, not {value:g}")

    @property
    def lower(self) -> float:
        """The LLR at or below which H0 is accepted: ln(beta / (1 - alpha))."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """The LLR at or above which H1 is accepted: ln((1 - beta) / alpha)."""
        return math.log((1.0 - self.beta) / self.alpha)

    def to_dict(self) -> dict[str, Any]:
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta, "model": "logistic"}

    def text(self) -> str:
        return f"elo0={self.elo0:g},elo1={self.elo1:g},alpha={self.alpha:g},beta={self.beta:g}"


def parse_sprt(text: str) -> SprtConfig:
    """Parse ``elo0=0,elo1=20[,alpha=0.05,beta=0.05]``.

    Raises:
        OptionError: a part that is not key=value, an unknown or repeated key, a missing elo0 or elo1,
            a value that is not a number, elo1 <= elo0, alpha or beta outside (0, 0.5).
    """
    values: dict[str, float] = {}
    for part in str(text).split(","):
        key, eq, value = part.partition("=")
        key = key.strip().lower()
        if not eq or not key or not value.strip():
            raise OptionError(f"--sprt {text!r}: {part.strip()!r} is not key=value (e.g. elo0=0,elo1=20)")
        if key not in _KEYS:
            raise OptionError(f"--sprt {text!r}: unknown key {key!r} (known keys: {', '.join(_KEYS)})")
        if key in values:
            raise OptionError(f"--sprt {text!r}: key {key!r} given twice")
        try:
            values[key] = float(value.strip().replace("_", ""))
        except ValueError:
            raise OptionError(f"--sprt {text!r}: {key} must be a number, not {value.strip()!r}") from None
    missing = [k for k in ("elo0", "elo1") if k not in values]
    if missing:
        raise OptionError(f"--sprt {text!r}: {' and '.join(missing)} missing (e.g. elo0=0,elo1=20)")
    config = SprtConfig(**values)
    config.validate()
    return config


# ------------------------------------------------------------------------------------------------
# Statistics


def logistic_score(elo: float) -> float:
    """Expected score per game of a player `elo` logistic-Elo points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def logistic_elo(score: float) -> float:
    """The logistic Elo of a per-game score (+-inf at 1 and 0)."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def _frequencies(counts: Sequence[float]) -> tuple[float, list[float]]:
    cells = [c if c > 0 else EMPTY_CELL for c in counts]
    total = sum(cells)
    return total, [c / total for c in cells]


def _mle(freqs: Sequence[float], s: float) -> list[float]:
    """The distribution over `PAIR_SCORES` with mean `s` that maximises the likelihood of `freqs`.

    The Lagrange multiplier theta solves a strictly decreasing equation on the interval where every
    ``1 + theta (a_i - s)`` is positive; bisection finds it to machine precision.
    """
    d = [a - s for a in PAIR_SCORES]

    def g(theta: float) -> float:
        return sum(f * x / (1.0 + theta * x) for f, x in zip(freqs, d))

    lo, hi = -1.0 / max(d), -1.0 / min(d)     # max(d) > 0 > min(d) for 0 < s < 1
    width = hi - lo
    lo, hi = lo + 1e-12 * width, hi - 1e-12 * width
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if g(mid) > 0.0:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * max(1.0, abs(mid)):
            break
    theta = 0.5 * (lo + hi)
    return [f / (1.0 + theta * x) for f, x in zip(freqs, d)]


def llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The generalized log-likelihood ratio of H1 (elo1) against H0 (elo0) for pentanomial `counts`
    (pairs scoring 0, 0.5, 1, 1.5, 2 for bot A). See the module docstring for the formula."""
    if len(counts) != len(PAIR_SCORES):
        raise ValueError(f"a pentanomial has {len(PAIR_SCORES)} counts, not {len(counts)}")
    if sum(counts) == 0:
        return 0.0
    total, freqs = _frequencies(counts)
    p0 = _mle(freqs, logistic_score(elo0))
    p1 = _mle(freqs, logistic_score(elo1))
    return total * sum(f * (math.log(b) - math.log(a)) for f, a, b in zip(freqs, p0, p1))


def mean_and_variance(counts: Sequence[float]) -> tuple[float, float]:
    """Mean per-game score of the pairs and the variance of a pair's per-game score (raw counts)."""
    n = sum(counts)
    if n == 0:
        return 0.5, 0.0
    mu = sum(c * a for c, a in zip(counts, PAIR_SCORES)) / n
    var = sum(c * (a - mu) ** 2 for c, a in zip(counts, PAIR_SCORES)) / n
    return mu, var


def llr_approximation(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """Van den Bergh's approximation ``N (s1 - s0) (2 mu - s0 - s1) / (2 var)`` of `llr` (regularised
    counts, like `llr`): close to it for small Elo differences; a cross-check, not used by the test."""
    total, freqs = _frequencies(counts)
    mu, var = mean_and_variance(freqs)
    s0, s1 = logistic_score(elo0), logistic_score(elo1)
    return total * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var)


def elo_estimate(counts: Sequence[float]) -> tuple[float, float, float]:
    """Logistic Elo of A over B and its 95 % interval from the pentanomial (see the module docstring)."""
    n = sum(counts)
    mu, var = mean_and_variance(counts)
    if n == 0:
        return 0.0, -math.inf, math.inf
    half = Z95 * math.sqrt(var / n)
    return logistic_elo(mu), logistic_elo(mu - half), logistic_elo(mu + half)


def pair_cell(score: float) -> int:
    """The pentanomial cell of a pair score (A's summed win shares over the pair), rounded to a half."""
    return min(4, max(0, round(2.0 * score)))


# ------------------------------------------------------------------------------------------------
# The running test


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def decide(config: SprtConfig, value: float, pairs: int, **state: Any) -> tuple[str | None, dict[str, Any] | None]:
    """The verdict once the LLR `value` crosses a bound of `config`, and the state kept at the stop
    (pairs, LLR and the test's own `state`); (None, None) while it lies between the bounds."""
    if value >= config.upper:
        verdict = "H1"
    elif value <= config.lower:
        verdict = "H0"
    else:
        return None, None
    return verdict, {"pairs": pairs, "llr": value, **state}


class SprtTest:
    """A running SPRT: add pairs (`add_pair`) until `verdict` is not None.

    The verdict is fixed by the first pair that takes the LLR across a bound; pairs added after it
    (games that were already running when the test stopped) still count in the pentanomial, the LLR
    and the Elo estimate, and the state at the stop is kept (`stopped_at`).
    """

    def __init__(self, config: SprtConfig) -> None:
        self.config = config
        self.counts = [0] * len(PAIR_SCORES)
        self.verdict: str | None = None
        self.stopped_at: dict[str, Any] | None = None

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def llr(self) -> float:
        return llr(self.counts, self.config.elo0, self.config.elo1)

    def add_pair(self, score: float) -> None:
        """Count one pair (A's summed win shares) and decide once the LLR crosses a bound."""
        self.counts[pair_cell(score)] += 1
        if self.verdict is None:
            self.verdict, self.stopped_at = decide(self.config, self.llr, self.pairs,
                                                   pentanomial=list(self.counts))

    def status(self) -> str:
        """One line: pairs, pentanomial, LLR with bounds, Elo with its interval, verdict."""
        elo, lo, hi = elo_estimate(self.counts)
        return (f"pairs {self.pairs}  pentanomial [{' '.join(str(c) for c in self.counts)}]  "
                f"LLR {self.llr:+.2f} ({self.config.lower:+.2f}, {self.config.upper:+.2f})  "
                f"Elo {_elo_text(elo)} [{_elo_text(lo)}, {_elo_text(hi)}]"
                + (f"  {self.verdict} accepted" if self.verdict else ""))

    def to_dict(self, finished: bool = True) -> dict[str, Any]:
        """The results JSON's ``sprt`` section; `finished`: no more pairs will come (a missing verdict
        then reads "inconclusive")."""
        elo, lo, hi = elo_estimate(self.counts)
        mu, var = mean_and_variance(self.counts)
        return {
            "params": self.config.to_dict(), "bounds": [self.config.lower, self.config.upper],
            "pairs": self.pairs, "pentanomial": list(self.counts), "pentanomial_pair_scores": list(CELL_LABELS),
            "llr": self.llr, "verdict": self.verdict or ("inconclusive" if finished else None),
            "stopped_at": self.stopped_at, "score": mu, "pair_variance": var,
            "elo": _finite(elo), "elo_ci95": [_finite(lo), _finite(hi)],
        }


def share_score(elo: float, players: int) -> float:
    """Expected win share per game of a bot `elo` logistic-Elo points stronger than each of its
    ``players - 1`` equal opponents (Luce's choice model: strength ``r = 10^(elo/400)`` against 1 each):
    ``r / (r + players - 1)``; 1/n at 0 Elo, `logistic_score` at 2 players."""
    r = 10.0 ** (elo / 400.0)
    return r / (r + players - 1)


def share_elo(score: float, players: int) -> float:
    """The inverse of `share_score`: the logistic Elo of a per-game win share among `players`."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return 400.0 * math.log10(score * (players - 1) / (1.0 - score))


class GroupSprtTest:
    """The SPRT of bot A against bot B at ``players`` >= 3 seats: A in one seat, B in the others, every
    deal played once with A in each seat (a *group*). A group's score is A's mean win share over its
    games: 1/n when the bots are equal (the baseline of learning.md's pitfall 2).

    Hypotheses in logistic Elo through `share_score` (Luce's model): H0 ``mu = share_score(elo0, n)``, H1
    ``mu = share_score(elo1, n)``. Statistic: Van den Bergh's normal approximation of the generalized
    SPRT, ``LLR = N (s1 - s0) (2 mu - s0 - s1) / (2 var)`` with mu the mean of the group scores and var
    their variance shrunk towards a prior (`PRIOR_GROUPS` groups of the variance that independent games
    won with probability 1/n would give: (1/n)(1 - 1/n)/n), so that the first few groups, whose sample
    variance may be 0, cannot decide alone; the same bounds and the same interface as `SprtTest` (a
    "pair" is a group here).
    """

    PRIOR_GROUPS = 5

    def __init__(self, config: SprtConfig, players: int) -> None:
        self.config = config
        self.players = players
        self.scores: list[float] = []
        self.verdict: str | None = None
        self.stopped_at: dict[str, Any] | None = None

    @property
    def pairs(self) -> int:
        return len(self.scores)

    def _mean_var(self) -> tuple[float, float]:
        n = len(self.scores)
        if n == 0:
            return 1.0 / self.players, 0.0
        mu = sum(self.scores) / n
        return mu, sum((x - mu) ** 2 for x in self.scores) / n

    @property
    def llr(self) -> float:
        n = len(self.scores)
        if n == 0:
            return 0.0
        mu, var = self._mean_var()
        q = 1.0 / self.players
        prior = q * (1.0 - q) / self.players
        var = (n * var + self.PRIOR_GROUPS * prior) / (n + self.PRIOR_GROUPS)
        s0, s1 = share_score(self.config.elo0, self.players), share_score(self.config.elo1, self.players)
        return n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var)

    def add_pair(self, score: float) -> None:
        """Count one group: `score` is A's summed win shares over the group's `players` games."""
        self.scores.append(score / self.players)
        if self.verdict is None:
            self.verdict, self.stopped_at = decide(self.config, self.llr, self.pairs, score=self._mean_var()[0])

    def elo_estimate(self) -> tuple[float, float, float]:
        mu, var = self._mean_var()
        if not self.scores:
            return 0.0, -math.inf, math.inf
        half = Z95 * math.sqrt(var / len(self.scores))
        return (share_elo(mu, self.players), share_elo(mu - half, self.players), share_elo(mu + half, self.players))

    def status(self) -> str:
        mu, _ = self._mean_var()
        elo, lo, hi = self.elo_estimate()
        return (f"groups {self.pairs} of {self.players} games  share {mu:.3f} (equal: {1 / self.players:.3f})  "
                f"LLR {self.llr:+.2f} ({self.config.lower:+.2f}, {self.config.upper:+.2f})  "
                f"Elo {_elo_text(elo)} [{_elo_text(lo)}, {_elo_text(hi)}]"
                + (f"  {self.verdict} accepted" if self.verdict else ""))

    def to_dict(self, finished: bool = True) -> dict[str, Any]:
        mu, var = self._mean_var()
        elo, lo, hi = self.elo_estimate()
        return {
            "params": {**self.config.to_dict(), "model": f"luce-{self.players}p"},
            "bounds": [self.config.lower, self.config.upper], "pairs": self.pairs, "players": self.players,
            "llr": self.llr, "verdict": self.verdict or ("inconclusive" if finished else None),
            "stopped_at": self.stopped_at, "score": mu, "equal_score": 1.0 / self.players,
            "group_variance": var, "elo": _finite(elo), "elo_ci95": [_finite(lo), _finite(hi)],
        }


def _elo_text(x: float) -> str:
    return f"{x:+.1f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")
