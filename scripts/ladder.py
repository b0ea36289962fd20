"""The skill ladder: does doubling the search budget still pay? (issue 11, item 5)

    python scripts/ladder.py                                   # 50 -> 100 -> ... -> 3200, 100 games a step
    python scripts/ladder.py --games 200 --workers 2 --out docs/ladder.md
    python scripts/ladder.py --bot ismcts:preset=v0.1 --start 100 --stop 1600
    python scripts/ladder.py --game walking-in-burano --start 250 --stop 4000 --games 20

Each step is one `burano_ai.arena` tournament at 2 players: the bot at 2n iterations per decision against
itself at n, over ``--games`` games (whole duplicate deals: each deal in both seatings, so the deal's luck
cancels within a pair). The step's *score* is the doubled bot's mean win share (a tie gives each seat
1/2) with the arena's 95 % Wilson interval over its seats (approximate: the games of a deal are
paired). The issue's target: every step scores >= 55 %.

Writes a markdown table (stdout, and ``--out``), the curve as a PNG (``--plot``, default docs/ladder.png:
score per step with its interval, lines at 50 % and the target), and each step's arena results JSON
under ``--json-dir`` (default build/ladder/).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from burano_ai.arena import ArenaConfig, run_arena   # noqa: E402
from burano_ai.bots import parse_bot_spec   # noqa: E402
from burano_ai.core.errors import OptionError  # noqa: E402
from burano_ai.games import DEFAULT_GAME, game_keys  # noqa: E402

TARGET = 0.55


def with_iterations(base: str, iterations: int) -> str:
    """`base` (a bot spec without a budget) at `iterations` per decision."""
    spec = parse_bot_spec(base)
    if spec.budget() is not None:
        raise OptionError(f"--bot {base!r} has a budget of its own: the ladder sets iterations")
    return f"{base}{',' if ':' in base else ':'}iterations={iterations}"


def budgets(start: int, stop: int) -> list[int]:
    if start < 1 or stop < 2 * start:
        raise OptionError(f"--stop ({stop}) must be at least twice --start ({start}), and --start >= 1")
    out = [start]
    while out[-1] * 2 <= stop:
        out.append(out[-1] * 2)
    return out


def run_step(base: str, low: int, args: argparse.Namespace, json_dir: Path) -> dict:
    high_spec, low_spec = with_iterations(base, 2 * low), with_iterations(base, low)
    config = ArenaConfig(bots=(high_spec, low_spec), players=2, games=args.games, seed=args.seed,
                         workers=args.workers, bootstrap=0, game=args.game)
    started = time.perf_counter()
    result = run_arena(config)
    high = next(e for e in result.entries if e["spec"] == parse_bot_spec(high_spec).canonical())
    data = result.to_dict()
    json_dir.mkdir(parents=True, exist_ok=True)
    (json_dir / f"ladder-{low}-{2 * low}.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    lo, hi = high["win_rate_ci95"]
    step = {"low": low, "high": 2 * low, "games": len(result.games), "score": high["win_rate"], "ci95": [lo, hi],
            "target_met": high["win_rate"] >= TARGET, "seconds": round(time.perf_counter() - started, 1),
            "command": f"burano arena --game {args.game} --bots '{high_spec};{low_spec}' --players 2 --games {args.games} "
                       f"--workers {args.workers} --seed {args.seed}"}
    print(f"  {2 * low} vs {low}: score {step['score']:.3f} ({lo:.3f}-{hi:.3f}), {step['games']} games, "
          f"{step['seconds']} s", file=sys.stderr, flush=True)
    return step


def markdown(steps: list[dict], base: str) -> str:
    lines = [f"| step | {base} iterations | vs | games | score | 95% CI | >= {TARGET:.0%} |",
             "|---:|---:|---:|---:|---:|---|---|"]
    for i, s in enumerate(steps, 1):
        lo, hi = s["ci95"]
        lines.append(f"| {i} | {s['high']} | {s['low']} | {s['games']} | {s['score']:.3f} | {lo:.3f}-{hi:.3f} | "
                     f"{'yes' if s['target_met'] else 'no'} |")
    return "\n".join(lines)


def plot(steps: list[dict], base: str, path: Path, title: str | None = None) -> None:
    """The curve as a PNG; `title` defaults to Burano's ("Skill ladder, 2 players, N games per step", or
    "N-M games per step" where the steps differ: pooled runs)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.2))
    xs = [s["high"] for s in steps]
    ys = [s["score"] for s in steps]
    err = [[y - s["ci95"][0] for y, s in zip(ys, steps)], [s["ci95"][1] - y for y, s in zip(ys, steps)]]
    ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=f"{base}: 2n vs n iterations")
    ax.axhline(0.5, color="black", linewidth=0.6, linestyle=":")
    ax.axhline(TARGET, color="tab:red", linewidth=0.8, linestyle="--", label=f"target {TARGET:.0%}")
    ax.set_xscale("log", base=2)
    ax.set_xticks(xs, [f"{s['high']}\nvs {s['low']}" for s in steps])
    ax.set_ylim(0, 1)
    ax.set_xlabel("iterations per decision (doubled bot vs the previous step)")
    ax.set_ylabel("score of the doubled bot (95% Wilson CI)")
    counts = sorted({s["games"] for s in steps})
    games = f"{counts[0]:,}" if len(counts) == 1 else f"{counts[0]:,}-{counts[-1]:,}"
    ax.set_title(title or f"Skill ladder, 2 players, {games} games per step")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default=DEFAULT_GAME, choices=game_keys(), help=f"the game (default {DEFAULT_GAME})")
    parser.add_argument("--bot", default="ismcts", help="bot spec without a budget (default: ismcts)")
    parser.add_argument("--start", type=int, default=50, help="iterations of the first step's weaker bot")
    parser.add_argument("--stop", type=int, default=3200, help="iterations of the last step's stronger bot")
    parser.add_argument("--games", type=int, default=100, help="games per step (whole deals of 2)")
    parser.add_argument("--workers", type=int, default=1, help="games played in parallel")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=None, help="also write the markdown table here")
    parser.add_argument("--plot", type=Path, default=ROOT / "docs" / "ladder.png", help="PNG of the curve")
    parser.add_argument("--json-dir", type=Path, default=ROOT / "build" / "ladder")
    args = parser.parse_args(argv)
    try:
        lows = budgets(args.start, args.stop)[:-1]
        with_iterations(args.bot, 1)     # a bad spec fails before any game
        steps = [run_step(args.bot, low, args, args.json_dir) for low in lows]
    except OptionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    table = markdown(steps, args.bot)
    met = sum(s["target_met"] for s in steps)
    summary = f"{met} of {len(steps)} steps score >= {TARGET:.0%} (seed {args.seed}, {args.games} games a step)"
    print(table + "\n\n" + summary)
    if args.out is not None:
        args.out.write_text(table + "\n\n" + summary + "\n", encoding="utf-8")
    (args.json_dir / "ladder.json").write_text(json.dumps({"bot": args.bot, "target": TARGET, "steps": steps},
                                                          indent=1) + "\n", encoding="utf-8")
    plot(steps, args.bot, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
