"""Sum several `scripts/ladder.py` runs of one game (same steps, different seeds) into one ladder.

    PYTHONPATH=$PWD python bench/ladder_sum.py --plot docs/ladder-walking-in-burano.png \
        build/h9/wib-ladder/ladder.json build/h9/wib-ladder-2027/ladder.json

For docs/strength.md's Walking in Burano and Venice 2099 ladders: a shared machine gave each run only a
few games a step, so runs with seeds 2026, 2027, ... are pooled. Per step: games, the doubled bot's
score (its win share over all the games) with a 95 % Wilson interval (approximate: a deal's games are
paired), and whether it reaches the target (55 % at 2 players; at N players, from the runs' ``players``,
the same Elo: `ladder.target`); the table in markdown, the curve as a PNG.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from azul_sintra_arena_sum import wilson   # noqa: E402  (bench/, next to this file)
from burano_ai.core.errors import OptionError   # noqa: E402
from ladder import markdown, plot, summary, target   # noqa: E402  (scripts/ladder.py)


def pooled(paths: list[Path]) -> tuple[str, int, list[dict]]:
    """The label (game, bot), the player count and the pooled steps of the runs at `paths`."""
    runs = [json.loads(p.read_text(encoding="utf-8")) for p in paths]
    counts = {run.get("players", 2) for run in runs}     # runs from before --players are 2-player
    if len(counts) > 1:
        raise OptionError(f"the runs are at different player counts ({', '.join(map(str, sorted(counts)))})")
    players = counts.pop()
    steps: dict[tuple[int, int], dict] = {}
    for run in runs:
        for s in run["steps"]:
            t = steps.setdefault((s["low"], s["high"]), {"low": s["low"], "high": s["high"], "games": 0, "share": 0.0})
            t["games"] += s["games"]
            t["share"] += s["score"] * s["games"]
    out = []
    for t in sorted(steps.values(), key=lambda t: t["low"]):
        score = t["share"] / t["games"]
        out.append({**t, "score": score, "ci95": list(wilson(t["share"], t["games"])),
                    "target_met": score >= target(players)})
    command = runs[0]["steps"][0]["command"]     # "burano arena --game KEY ..." names the game
    game = command.split("--game ")[1].split()[0] if "--game " in command else "burano"
    return f"{game}, {runs[0]['bot']}", players, out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ladders", nargs="+", type=Path, help="ladder.json files of scripts/ladder.py")
    parser.add_argument("--plot", type=Path, default=None, help="PNG of the pooled curve")
    args = parser.parse_args(argv)
    try:
        bot, players, steps = pooled(args.ladders)
    except OptionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(markdown(steps, bot, players) + "\n\n" + summary(steps, players, f"{len(args.ladders)} runs pooled"))
    if args.plot is not None:
        plot(steps, bot, args.plot, players=players)
    return 0


if __name__ == "__main__":
    sys.exit(main())
