"""burano_ai: AI solver and move-search engine for the board game Burano.

The pure-Python model lives in this package; performance-critical parts are
Cython extension modules compiled from ``src_cython/burano_ai/*.pyx`` into
this package (for example :mod:`burano_ai._rng`).
"""

__version__ = "0.1.0"
