"""Do `suggest`'s answers agree over seeds, with and without the learned evaluation? (issue 33)

Run: python bench/seed_agreement.py --game azul-sintra [--positions 40] [--iterations 2000] [--seeds 5]
         [--eval net] [--net-weight 0.5]

Positions: decisions with at least three legal moves along seeded random games of the game (every
`--every`-th decision of games 1, 2, ...), at its default player count. At each, `suggest` at the same
iteration budget, one thread, seeds 1..N, once with the playout alone (eval=playout) and once with the
evaluation asked for. A position *splits* when the seeds name more than one move. For the positions
where the playout alone splits, it prints the split before and after (the seeds' moves) and whether a
split that remains is reported as a tie (the suggestion of some seed names the others' moves as tied).
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time

from burano_ai.engine import suggest
from burano_ai.games import get_spec
from burano_ai.search import Limit, Params
from burano_ai.search.netfile import eval_to_net


def positions(spec, count: int, every: int):
    out = []
    game = 0
    while len(out) < count:
        game += 1
        rng = random.Random(game)
        state = spec.new_game(spec.default_players).new_initial_state(0)
        decision = 0
        while not state.is_terminal() and len(out) < count:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            legal = state.legal_actions()
            if len(legal) >= 3:
                decision += 1
                if decision % every == 0:
                    out.append((f"game {game} decision {decision}", state.clone()))
            state.apply_action(rng.choice(legal))
    return out


def answers(state, params: Params, iterations: int, seeds: int):
    results = [suggest(state, limit=Limit(iterations=iterations), params=params, seed=s, threads=1)
               for s in range(1, seeds + 1)]
    moves = [r.move for r in results]
    tied = all(set(moves) <= {r.move} | {c.move for c in r.tied} for r in results)
    return moves, tied


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--every", type=int, default=7)
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--eval", default="net")
    parser.add_argument("--net-weight", type=float, default=0.5)
    args = parser.parse_args()
    spec = get_spec(args.game)
    base = {**spec.search_defaults}
    plain = Params(**{**base, "net": None})
    netted = Params(**{**base, "net": eval_to_net(args.eval), "net_weight": args.net_weight})
    start = time.perf_counter()
    split_before = split_after = remain_tied = 0
    for name, state in positions(spec, args.positions, args.every):
        before, _ = answers(state, plain, args.iterations, args.seeds)
        if len(set(before)) == 1:
            continue
        split_before += 1
        after, tied = answers(state, netted, args.iterations, args.seeds)
        if len(set(after)) > 1:
            split_after += 1
            remain_tied += tied
        print(f"{name}: playout {dict(collections.Counter(before))} -> {args.eval} {dict(collections.Counter(after))}"
              + ("" if len(set(after)) == 1 else f" (reported as a tie: {'yes' if tied else 'no'})"))
    print(f"{args.game} {spec.default_players}p, {args.positions} positions, {args.iterations} iterations, "
          f"seeds 1-{args.seeds}: {split_before} split with the playout alone; with {args.eval} "
          f"(net_weight {args.net_weight}) {split_after} of them still split, {remain_tied} of those reported "
          f"as a tie ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
