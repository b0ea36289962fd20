"""Walking in Burano: what more iterations buy, as the regret of short searches against a long one.

    PYTHONPATH=$PWD python bench/walking_in_burano_regret.py [--positions 8] [--reference 32000] [--prior-bias 1]

Positions: decisions (takes and builds with at least 5 legal moves) of 3 seeded 2-player games in which
both seats play the move prior's favourite 7 times in 10 (`State.move_prior`) and a random move otherwise,
one position in about 8 kept. At each, a reference search (`--reference` iterations, seed 99) values every
root move; then searches of 1,000, 2,000 and 4,000 iterations (4 seeds each) choose a move, and the
**regret** is the reference's value of its best move minus its value of the chosen one (the search's
reward, 0..1; and the same in VP margin). Prints per position and the means per budget: if the regret
falls with the budget, doubling buys better moves (as far as the reference can tell). One thread, default
`Params` apart from `--prior-bias` (which matters only while `heuristic.SEARCH_PRIOR` is on).
"""

from __future__ import annotations

import argparse
import random

from burano_ai import engine
from burano_ai.games import get_spec
from burano_ai.search.limits import Limit
from burano_ai.search.params import Params

BUDGETS = (1000, 2000, 4000)
SEEDS_PER_BUDGET = 4


def positions(count: int) -> list:
    """Up to `count` decision States of seeded games played mostly by the move prior's favourite."""
    spec = get_spec("walking-in-burano")
    rng = random.Random(5)
    found = []
    for game in range(3):
        state = spec.new_game(2).new_initial_state(game)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            legal = state.legal_actions()
            if (len(legal) >= 5 and state.phase_name() in ("acquire", "build") and rng.random() < 0.12
                    and len(found) < count):
                found.append(state.clone())
            p = state.move_prior(state.current_player(), legal)
            state.apply_action(max(p, key=p.get) if p and rng.random() < 0.7 else rng.choice(legal))
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--reference", type=int, default=32000)
    parser.add_argument("--prior-bias", type=float, default=1.0)
    args = parser.parse_args()
    params = Params(prior_bias=args.prior_bias)
    rows: dict[int, list[tuple[float, float, bool]]] = {b: [] for b in BUDGETS}
    for i, state in enumerate(positions(args.positions)):
        ref = engine.suggest(state, limit=Limit(iterations=args.reference), params=params, seed=99, threads=1)
        values = {c.action: (c.value, c.expected_margin) for c in ref.candidates}
        best = values[ref.action]
        line = f"position {i} ({state.phase_name()}, {len(state.legal_actions())} moves): reference {ref.move}"
        for budget in BUDGETS:
            agree = 0
            for s in range(SEEDS_PER_BUDGET):
                r = engine.suggest(state, limit=Limit(iterations=budget), params=params, seed=1000 + s, threads=1)
                got = values.get(r.action, (0.0, best[1] - 99))
                rows[budget].append((best[0] - got[0], best[1] - got[1], r.action == ref.action))
                agree += r.action == ref.action
            line += f" | {budget}: {agree}/{SEEDS_PER_BUDGET} agree"
        print(line, flush=True)
    for budget, got in rows.items():
        n = len(got)
        print(f"{budget} iterations: mean regret {sum(r[0] for r in got) / n:.4f} (reward), "
              f"{sum(r[1] for r in got) / n:.2f} VP of margin; agrees with the reference {sum(r[2] for r in got) / n:.2f}")


if __name__ == "__main__":
    main()
