"""Branching report: how many legal actions each decision of a seeded self-play corpus offers.

    python scripts/branching.py                       # 30 random + 10 ismcts:iterations=100 games per 2/3/4 players
    python scripts/branching.py --random-games 5 --ismcts-games 1      # a smoke run
    python scripts/branching.py --json build/branching.json            # also save the numbers

Issue 11, item 2: a search sees one decision at a time, so a decision point with hundreds of options
(the privilege dock swaps of the old move structure) drowns the few that matter. The corpus is played
with the compiled core (`burano_ai.Game`): each player count gets `--random-games` games of the random
bot and `--ismcts-games` games of `ismcts:iterations=N` in every seat, dealt and seeded from
`--seed`; chance is sampled by probability (`burano_ai.random_play.sample_chance`). At every decision
the script records the phase and the number of legal actions, and reports:

* the distribution of the number of legal actions (percentiles, max, share of decisions with more than
  20 / 50 options), for all decisions and per phase;
* the issue's two dock-swap numbers: how many swaps were followed, in the same fishing action, by a
  trip to a port (or by `done`, i.e. no trip at all), and the share of swap moves among the legal moves
  at decision points (all decisions, and the fish-sail decisions where the destination is chosen), with
  the size of the largest decision that offers a swap.

The script reads action families by name (`burano_ai.games.burano.actions.family`), so it runs unchanged on the old
move structure (one ``SWAP`` family) and the new one (``SWAP_PICK`` then ``SWAP_WITH``, after
``sail <island>``); docs/strength.md has both tables.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import burano_ai                                    # noqa: E402
from burano_ai.games.burano import actions as A  # noqa: E402
from burano_ai.bots.registry import make_bot       # noqa: E402
from burano_ai.games.burano.enums import PHASE_NAMES  # noqa: E402
from burano_ai.random_play import sample_chance    # noqa: E402
from burano_ai.core.seeds import derive  # noqa: E402

#: The fishing phases before the boat moves (by label: the old code has no fish-swap phase).
FISHING_CHOICE = ("fish-sail", "fish-swap")
#: Families that are (part of) a privilege dock swap, old and new move structures.
SWAP_FAMILIES = frozenset({"SWAP", "SWAP_PICK", "SWAP_WITH"})
#: The family whose application completes one swap (old: SWAP; new: SWAP_WITH, the partner).
SWAP_DONE_FAMILIES = frozenset({"SWAP", "SWAP_WITH"})
PERCENTILES = (50, 90, 99)


class Corpus:
    """Per-decision records of a set of games, and the swap bookkeeping of the issue's numbers."""

    def __init__(self) -> None:
        self.counts: list[int] = []
        self.by_phase: dict[str, list[int]] = defaultdict(list)
        self.legal_total = 0
        self.swap_legal_total = 0
        self.swap_decisions = 0                # decisions that offer at least one swap move
        self.swap_decision_max = 0             # the most legal moves at such a decision
        self.sail_legal = 0                    # legal moves at fish-sail decisions (where the boat goes)
        self.sail_swaps = 0                    # of which swap moves
        self.swaps = 0                         # swaps made (completed)
        self.swaps_then_port = 0
        self.swaps_then_done = 0
        self.games = 0

    def record(self, state, legal: list[int]) -> None:
        n = len(legal)
        phase = PHASE_NAMES[int(state.phase)]
        self.counts.append(n)
        self.by_phase[phase].append(n)
        swaps = sum(1 for a in legal if A.family(a) in SWAP_FAMILIES)
        self.legal_total += n
        self.swap_legal_total += swaps
        if swaps:
            self.swap_decisions += 1
            self.swap_decision_max = max(self.swap_decision_max, n)
        if phase == "fish-sail":
            self.sail_legal += n
            self.sail_swaps += swaps


def play_game(corpus: Corpus, num_players: int, spec: str, seed: int) -> None:
    """Play one game with `spec` in every seat, recording each decision into `corpus`."""
    game = burano_ai.Game(num_players)
    state = game.new_initial_state(seed)
    bots = [make_bot(spec, derive(seed, seat, 0xB4)) for seat in range(num_players)]
    rng = random.Random(derive(seed, 0xC4A))
    pending_swaps = 0     # swaps made in the current fishing action before its destination was final
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        corpus.record(state, legal)
        phase = PHASE_NAMES[int(state.phase)]
        if phase not in FISHING_CHOICE:
            pending_swaps = 0
        action = bots[state.current_player()].step(state)
        name = A.family(action)
        if name in SWAP_DONE_FAMILIES:
            pending_swaps += 1
            corpus.swaps += 1
        elif phase == "fish-sail" and name == "SAIL" and A.action_to_str(action).startswith("sail Port"):
            corpus.swaps_then_port += pending_swaps
        elif phase == "fish-sail" and name == "DONE":
            corpus.swaps_then_done += pending_swaps
        state.apply_action(action)
    corpus.games += 1


def percentile(sorted_values: list[int], q: float) -> int:
    """The nearest-rank percentile."""
    if not sorted_values:
        return 0
    k = max(0, min(len(sorted_values) - 1, int(round(q / 100 * len(sorted_values) + 0.5)) - 1))
    return sorted_values[k]


def summary(values: list[int]) -> dict:
    v = sorted(values)
    n = len(v)
    return {"decisions": n, "mean": sum(v) / n if n else 0.0,
            **{f"p{q}": percentile(v, q) for q in PERCENTILES}, "max": v[-1] if v else 0,
            "over20": sum(1 for x in v if x > 20) / n if n else 0.0,
            "over50": sum(1 for x in v if x > 50) / n if n else 0.0}


def report(corpus: Corpus) -> dict:
    return {
        "games": corpus.games,
        "all": summary(corpus.counts),
        "phases": {ph: summary(v) for ph, v in sorted(corpus.by_phase.items())},
        "swaps": corpus.swaps, "swaps_then_port": corpus.swaps_then_port, "swaps_then_done": corpus.swaps_then_done,
        "swap_share_all": corpus.swap_legal_total / corpus.legal_total if corpus.legal_total else 0.0,
        "swap_decisions": corpus.swap_decisions, "swap_decision_max": corpus.swap_decision_max,
        "swap_share_at_sail": corpus.sail_swaps / corpus.sail_legal if corpus.sail_legal else 0.0,
    }


def table(rows: list[tuple[str, dict]]) -> str:
    head = "| decisions | n | mean | p50 | p90 | p99 | max | > 20 | > 50 |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    return head + "".join(
        f"| {name} | {s['decisions']:,} | {s['mean']:.1f} | {s['p50']} | {s['p90']} | {s['p99']} | {s['max']} | "
        f"{100 * s['over20']:.1f}% | {100 * s['over50']:.1f}% |\n" for name, s in rows)


def markdown(results: dict[str, dict]) -> str:
    out = []
    for label, r in results.items():
        out.append(f"**{label}** ({r['games']} games)\n")
        rows = [("all", r["all"])] + [(ph, s) for ph, s in r["phases"].items()]
        out.append(table(rows))
        out.append(f"Swaps made: {r['swaps']:,}; followed by a port: {r['swaps_then_port']:,}; followed by `done` "
                   f"(no trip): {r['swaps_then_done']:,}. Swap moves among the legal moves of all decisions: "
                   f"{100 * r['swap_share_all']:.1f}%; of the fish-sail decisions (where the boat goes): "
                   f"{100 * r['swap_share_at_sail']:.1f}%. Decisions offering a swap: {r['swap_decisions']:,}, "
                   f"the largest with {r['swap_decision_max']} legal moves.\n")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--random-games", type=int, default=30, help="random-bot games per player count")
    ap.add_argument("--ismcts-games", type=int, default=10, help="ismcts games per player count")
    ap.add_argument("--iterations", type=int, default=100, help="ismcts iterations per decision")
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--json", type=Path, help="also write the numbers here")
    args = ap.parse_args(argv)
    players = [int(x) for x in args.players.split(",")]
    results: dict[str, dict] = {}
    for spec, games in (("random", args.random_games), (f"ismcts:iterations={args.iterations}", args.ismcts_games)):
        if games <= 0:
            continue
        corpus = Corpus()
        start = time.perf_counter()
        for n in players:
            for g in range(games):
                play_game(corpus, n, spec, derive(args.seed, n, g))
        label = f"{spec}, {'/'.join(map(str, players))} players"
        results[label] = report(corpus)
        print(f"# {label}: {corpus.games} games, {len(corpus.counts):,} decisions, "
              f"{time.perf_counter() - start:.0f} s", file=sys.stderr)
    print(markdown(results))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
