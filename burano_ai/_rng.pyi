"""Type stub for the compiled module burano_ai._rng (src_cython/burano_ai/_rng.pyx)."""

def is_debug_build() -> bool:
    """True if the extension was compiled with BURANO_DEBUG=1."""

class Random:
    """SplitMix64 generator; identical streams to splitmix64.c with x = seed."""

    def __init__(self, seed: int = 0) -> None: ...
    def seed(self, seed: int) -> None:
        """Restart the stream from seed (any int, taken modulo 2**64)."""
    def next_u64(self) -> int:
        """Next 64 random bits as an int in [0, 2**64)."""
    def below(self, n: int) -> int:
        """Unbiased random int in [0, n); 1 <= n <= 2**32 - 1, else ValueError."""
    def random(self) -> float:
        """Uniform float in [0.0, 1.0) with 53 random bits."""
    @property
    def state(self) -> int:
        """The raw 64-bit state."""
    def __reduce__(self) -> tuple[type[Random], tuple[int]]: ...
