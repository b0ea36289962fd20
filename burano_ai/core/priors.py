"""The move prior a game's heuristic gives the search: the softmax of its move values at a temperature.

The compiled cores compute the same softmax in C (`prior_c`); the games' tests hold the two to 1e-12, so
the arithmetic here is theirs: values shifted by their maximum, ``exp`` of the shift over the
temperature, normalised by the sum.
"""

from __future__ import annotations

import math
from typing import Sequence


def softmax_prior(legal: Sequence[int], values: Sequence[float], temperature: float) -> dict[int, float]:
    """Action -> ``exp((value - max) / temperature)`` normalised to sum to 1, over `legal` and its `values`."""
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return {a: w / total for a, w in zip(legal, weights)}
