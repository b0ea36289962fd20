"""Do `suggest`'s answers agree over seeds, with and without the learned evaluation, or with two search
variants? (issue 33)

Run: python bench/seed_agreement.py --game azul-sintra [--positions 40] [--iterations 2000] [--seeds 5]
         [--eval net] [--net-weight 0.5]
     python bench/seed_agreement.py --game azul-sintra --before root=ucb --after root=halving [...]

Positions: decisions with at least three legal moves along seeded random games of the game (every
`--every`-th decision of games 1, 2, ...), at its default player count. At each, `suggest` at the same
iteration budget, one thread, seeds 1..N, once with the playout alone (eval=playout) and once with the
evaluation asked for. A position *splits* when the seeds name more than one move. For the positions
where the playout alone splits, it prints the split before and after (the seeds' moves) and whether a
split that remains is reported as a tie (the suggestion of some seed names the others' moves as tied).

With --before and --after (each KEY=VALUE,... of `Params` fields over the game's default search, e.g.
``root=halving,halving_visits=16``; VALUE none for None) the two variants are compared instead of the
playout and the evaluation, on every position: the splits of each and how many are reported as a tie,
and of the "before" splits how many remain and how many of those are reported as a tie.
`--after-check K` then checks K runner-ups of each "after" answer on their own (`engine.check_runner_ups`, as
`burano suggest` does once its answer settled): ``--before root=ucb --after root=ucb --after-check 2``
measures that check. `--after-trees T` searches T independent trees instead of one (the same iterations in
all; a move another tree chose is reported tied), as the default `burano suggest` does with 2. The last line
says why the first variant's splits go unreported: each move another seed chose that a seed's answer does
not name tied, whether it had under LCB_MIN_SHARE of the top visits (never named tied) or more, with a value
not tied.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time

from burano_ai.engine import check_runner_ups, suggest
from burano_ai.games import get_spec
from burano_ai.search import Limit, Params
from burano_ai.search.result import LCB_MIN_SHARE
from burano_ai.search.netfile import eval_to_net


def positions(spec, count: int, every: int, first: int = 1):
    """`count` decisions with three or more legal moves, every `every`-th along seeded random games
    `first`, `first` + 1, ... at the game's default player count, named "game G decision D"."""
    out = []
    game = first - 1
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


def searches(state, params: Params, iterations: int, seeds: int, trees: int = 1) -> list:
    """`suggest` with seeds 1..`seeds`, `iterations` in all: one thread, or `trees` independent trees (a
    move another tree chose is reported tied)."""
    return [suggest(state, limit=Limit(iterations=iterations), params=params, seed=s,
                    **({"threads": 1} if trees == 1 else {"trees": trees}))
            for s in range(1, seeds + 1)]


def agreement(results: list) -> tuple[list[str], bool]:
    """The seeds' moves, and whether every seed's answer names the other seeds' moves (or itself) tied."""
    moves = [r.move for r in results]
    tied = all(set(moves) <= {r.move} | {c.move for c in r.tied} for r in results)
    return moves, tied


def untied(results: list) -> tuple[int, int]:
    """Over every seed's answer: the moves another seed chose that it does not name tied, as (under a tenth of
    its top visits, the floor below which `tied_candidates` names nothing; above it, with a value not tied)."""
    moves = {r.move for r in results}
    under = above = 0
    for r in results:
        top = max(c.visits for c in r.candidates)
        for move in moves - {r.move} - {c.move for c in r.tied}:
            other = next(c for c in r.candidates if c.move == move)
            under += other.visits < LCB_MIN_SHARE * top
            above += other.visits >= LCB_MIN_SHARE * top
    return under, above


def answers(state, params: Params, iterations: int, seeds: int):
    return agreement(searches(state, params, iterations, seeds))


def checked(state, results: list, params: Params, count: int, trees: int = 1) -> list:
    """Each answer with its `count` runner-ups searched on their own (`engine.check_runner_ups`, what
    `burano suggest` does once its answer settled), each check searched as the answer was (one thread, or
    `trees` independent trees)."""
    options = {"threads": 1} if trees == 1 else {"trees": trees}
    return [check_runner_ups(state, r, count, params=params, **options) for r in results]


def split_line(name: str, before: list[str], after: list[str], tied: bool, first: str = "", second: str = "") -> str:
    """One position's moves by seed before and after, and whether a split after is reported as a tie."""
    return (f"{name}: {first}{dict(collections.Counter(before))} -> {second}{dict(collections.Counter(after))}"
            + ("" if len(set(after)) == 1 else f" (reported as a tie: {'yes' if tied else 'no'})"))


def variant(base: dict, text: str) -> Params:
    """The game's default search `base` with `text`'s KEY=VALUE,... changes (numbers parsed, none: None)."""
    changes = dict(base)
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        if not sep:
            raise SystemExit(f"--before/--after: {part!r} is not KEY=VALUE")
        parsed: object = value
        for kind in (int, float):
            try:
                parsed = kind(value)
                break
            except ValueError:
                pass
        changes[key.strip()] = None if value.lower() == "none" else parsed
    return Params(**changes)


def compare(spec, args) -> int:
    """--before against --after on every position (see the module docstring)."""
    base = {**spec.search_defaults}
    first, second = variant(base, args.before), variant(base, args.after)
    start = time.perf_counter()
    count = split_first = split_second = tied_first = tied_second = remain = remain_tied = 0
    untied_under = untied_above = 0
    for name, state in positions(spec, args.positions, args.every, args.first_game):
        count += 1
        first_results = searches(state, first, args.iterations, args.seeds)
        before, tied_before = agreement(first_results)
        under, above = untied(first_results)
        untied_under += under
        untied_above += above
        # the same search again is the same answer (one thread, an iteration budget): reuse it
        second_results = (first_results if second == first and args.after_trees == 1
                          else searches(state, second, args.iterations, args.seeds, args.after_trees))
        if args.after_check:
            second_results = checked(state, second_results, second, args.after_check, args.after_trees)
        after, tied = agreement(second_results)
        split_first += len(set(before)) > 1
        split_second += len(set(after)) > 1
        tied_first += len(set(before)) > 1 and tied_before
        tied_second += len(set(after)) > 1 and tied
        if len(set(before)) > 1 and len(set(after)) > 1:
            remain += 1
            remain_tied += tied
        if len(set(before)) > 1 or len(set(after)) > 1:
            print(split_line(name, before, after, tied))
    print(f"{args.game} {spec.default_players}p, {count} positions, {args.iterations} iterations, "
          f"seeds 1-{args.seeds}: "
          f"{split_first} split with {args.before} ({tied_first} reported as a tie), {split_second} with {args.after}"
          f"{f', {args.after_trees} trees' if args.after_trees > 1 else ''}"
          f"{f' and {args.after_check} runner-ups checked' if args.after_check else ''} "
          f"({tied_second} reported as a tie); {remain} of the first "
          f"{split_first} still split, {remain_tied} of those reported as a tie "
          f"({time.perf_counter() - start:.0f} s)")
    print(f"{args.before}: another seed's move not named tied in a seed's answer: {untied_under} with under "
          f"{LCB_MIN_SHARE:g} of the top visits, {untied_above} above that with a value not tied")
    return 0


def position_options(parser: argparse.ArgumentParser) -> None:
    """The options every seed-agreement script shares: the game, which positions (`positions`), the seeds."""
    parser.add_argument("--game", required=True)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--every", type=int, default=7)
    parser.add_argument("--first-game", type=int, default=1, help="the first seeded random game positions come from")
    parser.add_argument("--seeds", type=int, default=5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    position_options(parser)
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--eval", default="net")
    parser.add_argument("--net-weight", type=float, default=0.5)
    parser.add_argument("--before", help="KEY=VALUE,... of the first search variant (with --after)")
    parser.add_argument("--after", help="KEY=VALUE,... of the second search variant (with --before)")
    parser.add_argument("--after-check", type=int, default=0, metavar="K",
                        help="with --after: each of its answers then checks its K runner-ups of highest value on "
                             "their own (engine.check_runner_ups)")
    parser.add_argument("--after-trees", type=int, default=1, metavar="T",
                        help="with --after: search T independent trees (the same iterations in all), as the "
                             "default `burano suggest` does with 2")
    args = parser.parse_args()
    spec = get_spec(args.game)
    if (args.before is None) != (args.after is None):
        parser.error("--before and --after go together")
    if args.before is not None:
        return compare(spec, args)
    base = {**spec.search_defaults}
    plain = Params(**{**base, "net": None})
    netted = Params(**{**base, "net": eval_to_net(args.eval), "net_weight": args.net_weight})
    start = time.perf_counter()
    split_before = split_after = remain_tied = 0
    for name, state in positions(spec, args.positions, args.every, args.first_game):
        before, _ = answers(state, plain, args.iterations, args.seeds)
        if len(set(before)) == 1:
            continue
        split_before += 1
        after, tied = answers(state, netted, args.iterations, args.seeds)
        if len(set(after)) > 1:
            split_after += 1
            remain_tied += tied
        print(split_line(name, before, after, tied, "playout ", f"{args.eval} "))
    print(f"{args.game} {spec.default_players}p, {args.positions} positions, {args.iterations} iterations, "
          f"seeds 1-{args.seeds}: {split_before} split with the playout alone; with {args.eval} "
          f"(net_weight {args.net_weight}) {split_after} of them still split, {remain_tied} of those reported "
          f"as a tie ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
