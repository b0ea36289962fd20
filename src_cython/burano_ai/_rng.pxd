# Fast deterministic random numbers for the compiled core.
#
# The generator is SplitMix64 (Steele, Lea & Flood 2014; the reference
# splitmix64.c by S. Vigna): a 64-bit state advanced by the golden-ratio
# increment and a strong output mix.  It is fast, passes BigCrush, and its
# whole state is one uint64_t, so copying a Rng (e.g. for a determinization
# in ISMCTS) is a plain struct copy.
#
# The functions are `cdef inline` here so that every module that does
#     from burano_ai._rng cimport Rng, rng_seed, rng_next, rng_below
# gets them inlined, with no call through a module boundary and no GIL.

from libc.stdint cimport uint32_t, uint64_t
cimport cython


cdef struct Rng:
    uint64_t s


cdef inline void rng_seed(Rng* rng, uint64_t seed) noexcept nogil:
    # SplitMix64 seeding: the state is the seed itself, and the output mix
    # decorrelates nearby seeds (0, 1, 2, ... give unrelated streams).
    rng.s = seed


cdef inline uint64_t rng_next(Rng* rng) noexcept nogil:
    # Next 64 random bits (SplitMix64 step).
    cdef uint64_t z
    rng.s += 0x9E3779B97F4A7C15ULL
    z = rng.s
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint32_t rng_next32(Rng* rng) noexcept nogil:
    # Next 32 random bits (the high half, the best-mixed bits).
    return <uint32_t>(rng_next(rng) >> 32)


@cython.cdivision(True)
cdef inline uint32_t rng_below(Rng* rng, uint32_t n) noexcept nogil:
    # Unbiased integer in [0, n), Lemire's multiply-and-reject method
    # ("Fast Random Integer Generation in an Interval", 2019): one 32x32->64
    # multiply, and a modulo only in the rare case that may need rejection.
    # Returns 0 for n == 0 (callers must not ask for it; Random.below raises).
    cdef uint64_t m
    cdef uint32_t low, threshold
    if n == 0:
        return 0
    m = <uint64_t>rng_next32(rng) * n
    low = <uint32_t>m
    if low < n:
        threshold = (<uint32_t>(-n)) % n    # == 2**32 mod n
        while low < threshold:
            m = <uint64_t>rng_next32(rng) * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline double rng_uniform(Rng* rng) noexcept nogil:
    # Uniform double in [0, 1) with 53 random bits.
    return <double>(rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)


cdef class Random:
    # Python-visible wrapper; compiled code may use `&r.rng` directly.
    cdef Rng rng
