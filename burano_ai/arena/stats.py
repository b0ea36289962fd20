"""Tournament statistics: Wilson intervals on win rates, finishing orders, Plackett–Luce strengths on
the Elo scale with bootstrap intervals over deals, and the per-entry summary of game records.

The method and its choices are described in `burano_ai.arena` (Statistics per entry, Rating).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from burano_ai.core.seeds import derive
from burano_ai.arena.plan import Plan


def wilson_interval(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (`successes` may be fractional: shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def finishing_orders(records: Sequence[dict[str, Any]]) -> list[list[int]]:
    """Each game's seats as entries, best first (exact ties ordered by seat)."""
    orders = []
    for rec in records:
        keys = rec["tiebreak"]
        seats = sorted(range(len(keys)), key=lambda p: (tuple(-x for x in keys[p]), p))
        orders.append([rec["seating"][p] for p in seats])
    return orders


def plackett_luce(orders: Sequence[Sequence[int]], num_entries: int, weights: Sequence[float] | None = None,
                  iterations: int = 2000, tol: float = 1e-10) -> list[float]:
    """Plackett–Luce strengths (one per entry, shared by its seats) by Hunter's MM algorithm.

    Each entry also gets one virtual win and one virtual loss against a reference of strength 1 (a weak
    prior that keeps strengths finite). `weights` multiplies each game (bootstrap multiplicities).
    Returns strengths with geometric mean 1.
    """
    import numpy as np
    E = num_entries
    rows: list[list[int]] = []     # per stage: copies of each entry still unplaced
    winners: list[int] = []
    row_weights: list[float] = []
    for g, order in enumerate(orders):
        w = 1.0 if weights is None else float(weights[g])
        if w == 0.0:
            continue
        counts = [0] * E
        for e in order:
            counts[e] += 1
        for t in range(len(order) - 1):
            rows.append(list(counts))
            winners.append(order[t])
            row_weights.append(w)
            counts[order[t]] -= 1
    gamma = np.ones(E)
    if not rows:
        return [1.0] * E
    M = np.array(rows, dtype=float)
    wr = np.array(row_weights)
    W = np.zeros(E)
    np.add.at(W, np.array(winners), wr)
    W += 1.0                                       # prior: one virtual win
    for _ in range(iterations):
        S = M @ gamma
        D = (M * (wr / S)[:, None]).sum(axis=0) + 2.0 / (gamma + 1.0)   # prior: 2 virtual games vs strength 1
        new = W / D
        new /= math.exp(float(np.mean(np.log(new))))
        if float(np.max(np.abs(np.log(new) - np.log(gamma)))) < tol:
            gamma = new
            break
        gamma = new
    return [float(x) for x in gamma]


def elo_ratings(strengths: Sequence[float]) -> list[float]:
    """400 * log10(strength), shifted to mean 0."""
    elo = [400.0 * math.log10(s) for s in strengths]
    mean = sum(elo) / len(elo)
    return [e - mean for e in elo]


def rate(records: Sequence[dict[str, Any]], num_entries: int, bootstrap: int, seed: int
         ) -> tuple[list[float], list[tuple[float, float]]]:
    """Elo-scale Plackett–Luce ratings and bootstrap 95 % intervals (deals resampled)."""
    orders = finishing_orders(records)
    ratings = elo_ratings(plackett_luce(orders, num_entries))
    if bootstrap <= 0 or num_entries < 2:
        return ratings, [(r, r) for r in ratings]
    import numpy as np
    deals = sorted({rec["deal"] for rec in records})
    deal_pos = {d: i for i, d in enumerate(deals)}
    game_deal = np.array([deal_pos[rec["deal"]] for rec in records])
    rng = np.random.default_rng(derive(seed, 0xB0075))
    samples = []
    for _ in range(bootstrap):
        picks = np.bincount(rng.integers(0, len(deals), len(deals)), minlength=len(deals))
        samples.append(elo_ratings(plackett_luce(orders, num_entries, weights=picks[game_deal], iterations=300,
                                                 tol=1e-7)))
    arr = np.array(samples)
    lo = np.percentile(arr, 2.5, axis=0)
    hi = np.percentile(arr, 97.5, axis=0)
    return ratings, [(float(a), float(b)) for a, b in zip(lo, hi)]


def summarise(records: Sequence[dict[str, Any]], plan: Plan, players: int, bootstrap: int, seed: int,
              score_name: str) -> tuple[list[dict[str, Any]], list[float]]:
    """Per-entry statistics and the per-seat win rate; the score's mean and deviation are named after
    the game's score (`GameSpec.score_name`: ``mean_vp``, ``sd_vp`` for Burano)."""
    E = len(plan.entries)
    acc = [{"seats": 0, "share": 0.0, "wins": 0, "scores": [], "rank": 0.0, "margin": 0.0, "decisions": 0,
            "forced": 0, "think": 0.0, "iterations": 0} for _ in range(E)]
    seat_share = [0.0] * players
    for rec in records:
        scores = rec["scores"]
        for seat, e in enumerate(rec["seating"]):
            a = acc[e]
            a["seats"] += 1
            a["share"] += rec["returns"][seat]
            a["wins"] += 1 if seat in rec["winners"] else 0
            a["scores"].append(scores[seat])
            a["rank"] += rec["ranks"][seat]
            a["margin"] += scores[seat] - max(s for q, s in enumerate(scores) if q != seat)
            a["decisions"] += rec["decisions"][seat]
            a["forced"] += rec["forced"][seat]
            a["think"] += rec["think_seconds"][seat]
            a["iterations"] += rec["iterations"][seat]
            seat_share[seat] += rec["returns"][seat]
    ratings, intervals = rate(records, E, bootstrap, seed)
    entries = []
    for e, a in enumerate(acc):
        n = a["seats"]
        values = a["scores"]
        mean_score = sum(values) / n if n else 0.0
        sd_score = math.sqrt(sum((v - mean_score) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
        lo, hi = wilson_interval(a["share"], n)
        entries.append({
            "index": e, "spec": plan.entries[e], "seats_played": n,
            "win_share": round(a["share"], 6), "win_rate": a["share"] / n if n else 0.0,
            "win_rate_ci95": [lo, hi], "wins": a["wins"],
            f"mean_{score_name}": mean_score, f"sd_{score_name}": sd_score, "mean_rank": a["rank"] / n if n else 0.0,
            "mean_margin": a["margin"] / n if n else 0.0,
            "decisions": a["decisions"], "forced": a["forced"], "think_seconds": round(a["think"], 4),
            "seconds_per_decision": a["think"] / a["decisions"] if a["decisions"] else 0.0,
            "iterations": a["iterations"],
            "iterations_per_second": a["iterations"] / a["think"] if a["think"] > 0 else 0.0,
            "rating": ratings[e], "rating_ci95": list(intervals[e]),
        })
    games = len(records)
    return entries, [s / games if games else 0.0 for s in seat_share]



def head_to_head(records: Sequence[dict[str, Any]], num_entries: int) -> tuple[list[list[float | None]], list[list[int]]]:
    """Pairwise results: ``score[i][j]`` = the share of meetings in which entry i finished ahead of entry j
    (an exact tie counts a half), over every pair of seats of a game that holds them; ``meetings[i][j]``
    counts those seat pairs. None where i and j never met (and on the diagonal)."""
    ahead = [[0.0] * num_entries for _ in range(num_entries)]
    meetings = [[0] * num_entries for _ in range(num_entries)]
    for rec in records:
        keys = [tuple(k) for k in rec["tiebreak"]]
        seating = rec["seating"]
        for p, ep in enumerate(seating):
            for q, eq in enumerate(seating):
                if ep == eq:
                    continue
                meetings[ep][eq] += 1
                ahead[ep][eq] += 1.0 if keys[p] > keys[q] else 0.5 if keys[p] == keys[q] else 0.0
    score = [[ahead[i][j] / meetings[i][j] if meetings[i][j] else None for j in range(num_entries)]
             for i in range(num_entries)]
    return score, meetings
