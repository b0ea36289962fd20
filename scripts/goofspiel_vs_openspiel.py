"""Our ISMCTS against OpenSpiel's ISMCTS on Goofspiel at equal time per move (issue 19, part 5).

    python scripts/goofspiel_vs_openspiel.py                     # 40 games, 13 cards, 0.1 s a move
    python scripts/goofspiel_vs_openspiel.py --games 100 --seconds 0.2 --cards 8

The board is pyspiel's own two-player Goofspiel (random prize order), made sequential by OpenSpiel's
`turn_based_simultaneous_game` wrapper, so the referee is not ours. Our seat mirrors every action in
our compiled Goofspiel (the same action ids: bid a = card a+1, prize p = card p+1, the same seat order)
and moves with `engine.suggest` (the native tree, one thread, `--seconds` of wall clock). OpenSpiel's
seat is its `ISMCTSBot` (UCT 1.4, random rollouts, max-visit final policy) with as many simulations per
move as it runs in `--seconds` on this machine (measured first, at a first bid). The turn-based
wrapper has no `resample_from_infostate`, so ours gives its bot one: the other seat's pending bid of
the open round redrawn uniformly from its legal bids (exactly what the bot cannot see). Seats
alternate game by game. Prints our mean win share with a 95 % Wilson interval.

OpenSpiel is an optional extra (``pip install 'burano-ai[openspiel]'``): without it the script says so
and exits with status 0.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson interval of a mean win share over `n` games."""
    if n == 0:
        return 0.0, 1.0
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=0.1, help="thinking time per move, both sides")
    parser.add_argument("--cards", type=int, default=13)
    args = parser.parse_args(argv)
    if importlib.util.find_spec("pyspiel") is None:
        print("OpenSpiel is not installed (pip install 'burano-ai[openspiel]'): nothing to compare")
        return 0

    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from burano_ai import engine
    from burano_ai.games import get_spec
    from burano_ai.search import Limit

    board = pyspiel.load_game(f"turn_based_simultaneous_game(game=goofspiel(num_cards={args.cards},"
                              "players=2,points_order=random))")

    class ResamplingISMCTSBot(ismcts.ISMCTSBot):
        """OpenSpiel's ISMCTSBot with the resample the turn-based wrapper lacks."""

        def resample_from_infostate(self, state):
            history = state.history()
            replay = board.new_initial_state()
            round_start = 0
            for i, action in enumerate(history):
                if replay.is_chance_node():
                    round_start = i
                replay.apply_action(action)
            me = state.current_player()
            out = board.new_initial_state()
            for i, action in enumerate(history):
                if i > round_start and not out.is_chance_node() and out.current_player() != me:
                    action = self._random_state.choice(out.legal_actions())
                out.apply_action(action)
            return out

    def make_bot(simulations: int, seed: int) -> ResamplingISMCTSBot:
        return ResamplingISMCTSBot(board, mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)), 1.4,
                                   simulations, random_state=np.random.RandomState(seed),
                                   final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)

    first = board.new_initial_state()
    first.apply_action(args.cards - 1)
    started = time.perf_counter()
    make_bot(400, 0).step(first)
    rate = 400 / (time.perf_counter() - started)
    simulations = max(10, int(rate * args.seconds))
    print(f"OpenSpiel ISMCTS: {rate:.0f} simulations/s here -> {simulations} per move; "
          f"ours: {args.seconds} s per move", flush=True)

    game = get_spec("goofspiel").new_game(2, num_cards=args.cards)
    total = 0.0
    iterations: list[int] = []
    for index in range(args.games):
        ours_seat = index % 2
        rng = random.Random(index)
        referee = board.new_initial_state()
        ours = game.new_initial_state()
        bot = make_bot(simulations, index)
        while not ours.is_terminal():
            if ours.is_chance_node():
                action = rng.choice(ours.chance_outcome_actions())
            elif ours.current_player() == ours_seat:
                answer = engine.suggest(ours, limit=Limit(seconds=args.seconds), seed=index, threads=1)
                action = answer.action
                iterations.append(answer.iterations)
            else:
                action = bot.step(referee)
            ours.apply_action(action)
            referee.apply_action(action)
        if not referee.is_terminal() or referee.returns()[ours_seat] != 2 * ours.returns()[ours_seat] - 1:
            raise AssertionError(f"game {index}: our Goofspiel and pyspiel's disagree at the end")
        total += ours.returns()[ours_seat]
        print(f"game {index + 1}: ours seat {'AB'[ours_seat]}, points {ours.scores()}, "
              f"our share {ours.returns()[ours_seat]}", flush=True)
    share = total / args.games
    low, high = wilson(share, args.games)
    iterations.sort()
    print(f"\nour win share over {args.games} games: {share:.3f} (95 % interval {low:.3f}-{high:.3f}); "
          f"our iterations per move: median {iterations[len(iterations) // 2]}, "
          f"OpenSpiel's simulations per move: {simulations}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
