"""What more iterations buy: the regret of short searches against a long one, for any game.

    PYTHONPATH=$PWD python bench/search_regret.py --game venice-2099 [--positions 24] [--reference 64000]
    PYTHONPATH=$PWD python bench/search_regret.py --game walking-in-burano --play prior --games 3 --keep 0.12 \
        --phases acquire,build --positions 8 --reference 32000 --prior-bias 1
    PYTHONPATH=$PWD python bench/search_regret.py --game azul-sintra --players 3 --evals playout,net \
        --positions 12 --reference 32000 --budgets 500,1000,2000 --seeds 3

Positions: decisions with at least `--min-moves` legal moves (in one of `--phases`, if given) of seeded
`--players`-player games (default 2) (deals 0, 1, ..., at most `--games`), each kept with chance `--keep`. The games are
played either by the game's move prior (`--play prior`: each seat plays the prior's favourite 7 times in
10 and a random move otherwise; the second command above gives docs/strength.md's Walking in Burano
positions) or by the search itself at `--play-iterations` (`--play search`, the default: positions as a
match between searches reaches them). At each position a reference search (`--reference`
iterations, seed 99) values every root move; then searches at each of `--budgets` (`--seeds` seeds each)
choose a move, and the **regret** is the reference's value of its best move minus its value of the
chosen one (the search's reward, 0..1; and the same in VP margin), together with how often the choice is
the reference's. With `--evals playout,net` the short searches run once with each leaf evaluation (the
playout alone; the game's shipped net, or a net file, blended at `--net-weight`), at the same positions and
seeds, against the same reference (`--reference-eval`, default the playout alone: a reference with the net
would favour the net): the regret a model card reports for a net. Prints per position and the means per budget: if the regret falls with the budget,
doubling buys better moves, as far as the reference can tell; if the short searches already agree with
the reference, more iterations of this search cannot buy more, and only a better evaluation can. One
thread, the game's default search apart from `--prior-bias` and the evaluations.
"""

from __future__ import annotations

import argparse
import random

from burano_ai import engine
from burano_ai.games import get_spec
from burano_ai.search.limits import Limit
from burano_ai.search.netfile import eval_to_net
from burano_ai.search.params import Params


def _chance(state, rng: random.Random) -> None:
    outcomes = state.chance_outcomes()
    state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])


def positions(game: str, count: int, args: argparse.Namespace, params: Params) -> list:
    """Up to `count` decision States of seeded `args.players`-player games (see the module docstring)."""
    spec = get_spec(game)
    phases = set(args.phases.split(",")) if args.phases else None
    rng = random.Random(5)
    found = []
    game_index = 0
    while len(found) < count and game_index < args.games:
        state = spec.new_game(args.players).new_initial_state(game_index)
        game_index += 1
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                _chance(state, rng)
                continue
            legal = state.legal_actions()
            if (len(legal) >= args.min_moves and (phases is None or state.phase_name() in phases)
                    and rng.random() < args.keep):
                found.append(state.clone())
            if args.play == "prior":
                # The game's move preference even where the search does not use it (Walking in Burano's
                # `move_prior`; elsewhere the search prior).
                prior = getattr(state, "move_prior", state.prior)
                p = prior(state.current_player(), legal)
                state.apply_action(max(p, key=p.get) if p and rng.random() < 0.7 else rng.choice(legal))
            elif len(legal) == 1:
                state.apply_action(legal[0])
            else:
                r = engine.suggest(state, limit=Limit(iterations=args.play_iterations), params=params,
                                   seed=rng.randrange(1 << 30), threads=1)
                state.apply_action(r.action)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--reference", type=int, default=64000)
    parser.add_argument("--budgets", default="1000,2000,4000")
    parser.add_argument("--seeds", type=int, default=4, help="searches per budget and position")
    parser.add_argument("--play", choices=("search", "prior"), default="search")
    parser.add_argument("--play-iterations", type=int, default=500)
    parser.add_argument("--min-moves", type=int, default=5)
    parser.add_argument("--phases", default="", help="comma-separated phase names to keep positions from (default: any)")
    parser.add_argument("--games", type=int, default=50, help="most seeded games to play for positions")
    parser.add_argument("--keep", type=float, default=0.125, help="chance to keep an eligible decision")
    parser.add_argument("--prior-bias", type=float, default=None, help="default: the game's default search")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--evals", default="", help="comma-separated leaf evaluations for the short searches: "
                        "playout, net (the game's shipped net) or a net file (default: the game's default search)")
    parser.add_argument("--reference-eval", default="playout", help="the reference's evaluation, with --evals")
    parser.add_argument("--net-weight", type=float, default=0.5, help="a net's weight, with --evals")
    args = parser.parse_args()
    defaults = dict(get_spec(args.game).search_defaults)
    if args.prior_bias is not None:
        defaults["prior_bias"] = args.prior_bias
    params = Params(**defaults)
    variants = {"": params}
    reference = params
    if args.evals:
        variants = {name: _with_eval(params, name, args.net_weight) for name in args.evals.split(",")}
        reference = _with_eval(params, args.reference_eval, args.net_weight)
    budgets = [int(b) for b in args.budgets.split(",")]
    rows: dict[tuple[str, int], list[tuple[float, float, bool]]] = {(v, b): [] for v in variants for b in budgets}
    found = positions(args.game, args.positions, args, reference)
    for i, state in enumerate(found):
        ref = engine.suggest(state, limit=Limit(iterations=args.reference), params=reference, seed=99, threads=1)
        values = {c.action: (c.value, c.expected_margin) for c in ref.candidates}
        best = values[ref.action]
        line = f"position {i} ({state.phase_name()}, {len(state.legal_actions())} moves): reference {ref.move}"
        for name, variant in variants.items():
            for budget in budgets:
                agree = 0
                for s in range(args.seeds):
                    r = engine.suggest(state, limit=Limit(iterations=budget), params=variant, seed=1000 + s, threads=1)
                    got = values.get(r.action, (0.0, best[1] - 99))
                    rows[name, budget].append((best[0] - got[0], best[1] - got[1], r.action == ref.action))
                    agree += r.action == ref.action
                line += f" | {name + ' ' if name else ''}{budget}: {agree}/{args.seeds} agree"
        print(line, flush=True)
    for (name, budget), got in rows.items():
        n = len(got)
        mean = sum(r[0] for r in got) / n
        stderr = (sum((r[0] - mean) ** 2 for r in got) / max(n - 1, 1) / n) ** 0.5
        print(f"{name + ', ' if name else ''}{budget} iterations: mean regret {mean:.4f} ± {stderr:.4f} (reward), "
              f"{sum(r[1] for r in got) / n:.2f} VP of margin; agrees with the reference {sum(r[2] for r in got) / n:.2f}")


def _with_eval(params: Params, name: str, net_weight: float) -> Params:
    """`params` with the leaf evaluation `name` (playout, net or a net file) at `net_weight`."""
    net = eval_to_net(name)
    return params.with_(net=net, net_weight=net_weight if net is not None else 1.0)


if __name__ == "__main__":
    main()
