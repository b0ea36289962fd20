"""Fast deterministic RNG of the compiled core (SplitMix64).

The C-level API (struct ``Rng``; ``rng_seed``, ``rng_next``, ``rng_next32``,
``rng_below``, ``rng_uniform``, all ``noexcept nogil`` and inlined) is
declared in ``_rng.pxd`` for other Cython modules to ``cimport``.  This
module adds a thin Python class, :class:`Random`, mainly for tests and
Python-side seeding, and :func:`is_debug_build`.

Streams are identical to the reference ``splitmix64.c`` with ``x = seed``.
"""

from burano_ai._build cimport BURANO_DEBUG_BUILD

_U64_MASK = 0xFFFF_FFFF_FFFF_FFFF
_U32_MAX = 0xFFFF_FFFF


def is_debug_build():
    """True if the extension was compiled with ``BURANO_DEBUG=1``."""
    return bool(BURANO_DEBUG_BUILD)


cdef class Random:
    """SplitMix64 generator.

    ``Random(seed)`` accepts any int; it is reduced modulo 2**64.  Instances
    pickle and copy with their current state.
    """

    def __init__(self, seed=0):
        self.seed(seed)

    def seed(self, seed):
        """Restart the stream from ``seed`` (any int, taken modulo 2**64)."""
        rng_seed(&self.rng, <uint64_t>(int(seed) & _U64_MASK))

    def next_u64(self):
        """Next 64 random bits as an int in [0, 2**64)."""
        return rng_next(&self.rng)

    def below(self, n):
        """Unbiased random int in [0, n); 1 <= n <= 2**32 - 1."""
        if not 1 <= n <= _U32_MAX:
            raise ValueError(f"below(n) needs 1 <= n <= 2**32 - 1, got {n!r}")
        return rng_below(&self.rng, <uint32_t>n)

    def random(self):
        """Uniform float in [0.0, 1.0) with 53 random bits."""
        return rng_uniform(&self.rng)

    @property
    def state(self):
        """The raw 64-bit state (read-only; use seed() to set it)."""
        return self.rng.s

    def __reduce__(self):
        # Random(seed) sets the state to seed, so the state is all it needs.
        return (Random, (self.rng.s,))

    def __repr__(self):
        return f"Random(state=0x{self.rng.s:016x})"
