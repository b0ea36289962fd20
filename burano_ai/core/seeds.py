"""The one seed-derivation scheme: every random choice of the engine flows from a user's seed through here.

`derive(seed, *keys)` hashes a seed and integer keys (a worker, an iteration, a game, a seat, a
purpose tag) with `mix64`, a SplitMix64-style mixer, and keeps `SEED_BITS` bits so that the result is
accepted by every seeded API (`State.resample`, playouts, `random.Random`, NumPy). The native search
(``src_cython/burano_ai/search/_native.pyx``) repeats the formula in C; a test checks they agree.
"""

from __future__ import annotations

from burano_ai.core.arguments import as_int

MASK64 = (1 << 64) - 1
#: Derived seeds are non-negative and fit 31 bits (accepted by every seeded API, C `int` included).
SEED_BITS = 31
SEED_MASK = (1 << SEED_BITS) - 1

_GOLDEN = 0x9E3779B97F4A7C15


def _finalise(z: int) -> int:
    """SplitMix64's output function of a 64-bit state."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def mix64(*values: int) -> int:
    """SplitMix64-style 64-bit hash of integers: the fixed formula behind every derived seed."""
    h = _GOLDEN
    for v in values:
        h = (h ^ (v & MASK64)) & MASK64
        h = _finalise((h + _GOLDEN) & MASK64)
    return h


def derive(seed: int, *keys: int) -> int:
    """A `SEED_BITS`-bit seed derived from `seed` and `keys` (the same inputs give the same seed)."""
    return mix64(seed, *keys) & SEED_MASK


def check_seed(seed: object, what: str = "seed") -> int:
    """`seed` as an int (any size; numpy integers too): every seeded API takes one, so runs repeat.

    Raises:
        TypeError: `seed` is not an integer (a bool, a float, a str, None: None would mean "from the OS",
            which no seeded API of the engine allows).
    """
    return as_int(seed, what)


class SplitMix64:
    """`burano_ai._rng`'s generator in Python: SplitMix64 with Lemire's unbiased `below`.

    Only the reference models' `resample` use it, so that both implementations draw the same sample
    for the same seed (the lockstep tests compare them).
    """

    def __init__(self, seed: int) -> None:
        self.s = check_seed(seed) & MASK64

    def next64(self) -> int:
        self.s = (self.s + _GOLDEN) & MASK64
        return _finalise(self.s)

    def uniform(self) -> float:
        """A float in [0, 1) from 53 random bits, exactly as `rng_uniform`."""
        return (self.next64() >> 11) * (1.0 / 9007199254740992.0)

    def below(self, n: int) -> int:
        """An unbiased int in [0, n) (n >= 1), exactly as `rng_below`."""
        m = (self.next64() >> 32) * n
        low = m & 0xFFFF_FFFF
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = (self.next64() >> 32) * n
                low = m & 0xFFFF_FFFF
        return m >> 32
