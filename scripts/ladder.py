"""The skill ladder: does doubling the search budget still pay? (issue 11, item 5)

    python scripts/ladder.py                                   # 50 -> 100 -> ... -> 3200, 100 games a step
    python scripts/ladder.py --games 200 --workers 2 --out docs/ladder.md
    python scripts/ladder.py --bot ismcts:preset=v0.1 --start 100 --stop 1600
    python scripts/ladder.py --game walking-in-burano --start 250 --stop 4000 --games 20
    python scripts/ladder.py --game azul-sintra --players 3 --start 250 --stop 2000 --games 30

Each step is one `burano_ai.arena` tournament at ``--players`` N (default 2): the bot at 2n iterations per
decision in one seat against itself at n in the other N - 1 seats, over ``--games`` games (whole duplicate
deals: each deal once with the doubled bot in each seat, so the deal's luck cancels within the deal's
group of N games). The step's *score* is the doubled bot's mean win share (a k-way tie gives each of
those seats 1/k) with the arena's 95 % Wilson interval over its seats (approximate: the games of a deal
are paired).

The target. At 2 players (issue 11): every step scores >= 55 %, the equal share being 50 %. 55 % is
+34.9 logistic Elo (``400 log10(0.55 / 0.45)``); at N players the target is the win share of a bot +34.9
Elo stronger than each of its N - 1 equal opponents in Luce's choice model, the arena's own N-player Elo
(`burano_ai.arena.sprt.share_score`, which the N-player SPRT gates use): ``r / (r + N - 1)`` with
``r = 0.55 / 0.45``, i.e. 11/29 = 37.9 % at 3 players (equal share 33.3 %), 11/38 = 28.9 % at 4 (25 %),
11/47 = 23.4 % at 5 (20 %). At N players the table also gives each step's score on that Elo scale
(`share_elo`), with its interval.

Writes a markdown table (stdout, and ``--out``), the curve as a PNG (``--plot``, default docs/ladder.png:
score per step with its interval, lines at the equal share and the target), and each step's arena
results JSON under ``--json-dir`` (default build/ladder/).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from burano_ai.arena import ArenaConfig, run_arena   # noqa: E402
from burano_ai.arena.sprt import logistic_elo, share_elo, share_score   # noqa: E402
from burano_ai.bots import parse_bot_spec   # noqa: E402
from burano_ai.core.errors import OptionError  # noqa: E402
from burano_ai.core.game import player_range_text  # noqa: E402
from burano_ai.games import DEFAULT_GAME, game_keys, get_spec  # noqa: E402

#: The 2-player target (issue 11); `target` carries it to N players at the same Elo.
TARGET = 0.55
#: The target's logistic Elo (+34.9): the doubled bot's edge over each opponent that every step should show.
TARGET_ELO = logistic_elo(TARGET)


def target(players: int) -> float:
    """The score a step should reach at `players` seats: the win share of a bot `TARGET_ELO` stronger
    than each of its ``players - 1`` equal opponents (Luce's model, `share_score`); `TARGET` at 2."""
    return TARGET if players == 2 else share_score(TARGET_ELO, players)


def check_players(game: str, players: int) -> None:
    """Raise OptionError unless `game` is played by `players` seats."""
    spec = get_spec(game)
    if not spec.min_players <= players <= spec.max_players:
        raise OptionError(f"--players {players}: {game} is played by {player_range_text(spec)} players")


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
    bots = (high_spec,) + (low_spec,) * (args.players - 1)
    config = ArenaConfig(bots=bots, players=args.players, games=args.games, seed=args.seed,
                         workers=args.workers, bootstrap=0, game=args.game)
    started = time.perf_counter()
    result = run_arena(config)
    high = next(e for e in result.entries if e["spec"] == parse_bot_spec(high_spec).canonical())
    data = result.to_dict()
    json_dir.mkdir(parents=True, exist_ok=True)
    (json_dir / f"ladder-{low}-{2 * low}.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    lo, hi = high["win_rate_ci95"]
    step = {"low": low, "high": 2 * low, "games": len(result.games), "score": high["win_rate"], "ci95": [lo, hi],
            "target_met": high["win_rate"] >= target(args.players), "seconds": round(time.perf_counter() - started, 1),
            "command": f"burano arena --game {args.game} --bots '{';'.join(bots)}' --players {args.players} "
                       f"--games {args.games} --workers {args.workers} --seed {args.seed}"}
    if args.players > 2:
        step["elo"], *step["elo_ci95"] = step_elo(step, args.players)
    print(f"  {2 * low} vs {low}: score {step['score']:.3f} ({lo:.3f}-{hi:.3f}), {step['games']} games, "
          f"{step['seconds']} s", file=sys.stderr, flush=True)
    return step


def step_elo(step: dict, players: int) -> tuple[float | None, float | None, float | None]:
    """The step's score and its interval's ends on the N-player Elo scale (`share_elo`); None (JSON
    null) where a share of 0 or 1 makes the Elo infinite."""
    lo, hi = step["ci95"]
    return tuple(x if math.isfinite(x) else None for x in (share_elo(v, players) for v in (step["score"], lo, hi)))


def _elo_text(share: float, players: int) -> str:
    elo = share_elo(share, players)
    return f"{elo:+.0f}" if math.isfinite(elo) else ("+inf" if elo > 0 else "-inf")


def percent(share: float) -> str:
    """A share as the table's headers print it: 55%, 37.9%."""
    return f"{share:.0%}" if round(share, 2) == round(share, 4) else f"{share:.1%}"


def markdown(steps: list[dict], base: str, players: int = 2) -> str:
    """The table; at more than 2 players the score's header names the equal share, and an Elo column
    (Luce's model, with the interval's ends) follows the interval."""
    if players == 2:
        lines = [f"| step | {base} iterations | vs | games | score | 95% CI | >= {percent(TARGET)} |",
                 "|---:|---:|---:|---:|---:|---|---|"]
    else:
        lines = [f"| step | {base} iterations | vs ({players - 1} seats) | games | score (equal "
                 f"{percent(1 / players)}) | 95% CI | Elo (95% CI) | >= {percent(target(players))} "
                 f"(+{TARGET_ELO:.0f} Elo) |",
                 "|---:|---:|---:|---:|---:|---|---|---|"]
    for i, s in enumerate(steps, 1):
        lo, hi = s["ci95"]
        elo = "" if players == 2 else (f" {_elo_text(s['score'], players)} ({_elo_text(lo, players)} to "
                                       f"{_elo_text(hi, players)}) |")
        lines.append(f"| {i} | {s['high']} | {s['low']} | {s['games']} | {s['score']:.3f} | {lo:.3f}-{hi:.3f} |{elo} "
                     f"{'yes' if s['target_met'] else 'no'} |")
    return "\n".join(lines)


def summary(steps: list[dict], players: int, detail: str) -> str:
    """The line under the table: how many steps reach the target (and, at N players, what it is)."""
    met = sum(s["target_met"] for s in steps)
    if players > 2:
        detail = (f"equal share {percent(1 / players)}; the target is +{TARGET_ELO:.1f} Elo, "
                  f"{percent(TARGET)} at 2 players; {detail}")
    return f"{met} of {len(steps)} steps score >= {percent(target(players))} ({detail})"


def plot(steps: list[dict], base: str, path: Path, title: str | None = None, players: int = 2) -> None:
    """The curve as a PNG; `title` defaults to Burano's ("Skill ladder, 2 players, N games per step", or
    "N-M games per step" where the steps differ: pooled runs; at more than 2 players it also names the
    equal share and the target, which are the plot's two lines)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.2))
    xs = [s["high"] for s in steps]
    ys = [s["score"] for s in steps]
    err = [[y - s["ci95"][0] for y, s in zip(ys, steps)], [s["ci95"][1] - y for y, s in zip(ys, steps)]]
    goal, many = target(players), players > 2     # at 2 players the plot is as it always was
    ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3,
                label=f"{base}: 2n vs n iterations" + (f" ({players - 1} seats at n)" if many else ""))
    ax.axhline(1 / players, color="black", linewidth=0.6, linestyle=":",
               label=f"equal share {percent(1 / players)}" if many else None)
    ax.axhline(goal, color="tab:red", linewidth=0.8, linestyle="--", label=f"target {percent(goal)}"
               + (f" (+{TARGET_ELO:.0f} Elo, {percent(TARGET)} at 2 players)" if many else ""))
    ax.set_xscale("log", base=2)
    ax.set_xticks(xs, [f"{s['high']}\nvs {s['low']}" for s in steps])
    ax.set_ylim(0, 1)
    ax.set_xlabel("iterations per decision (doubled bot vs the previous step)")
    ax.set_ylabel("score of the doubled bot (95% Wilson CI)")
    counts = sorted({s["games"] for s in steps})
    games = f"{counts[0]:,}" if len(counts) == 1 else f"{counts[0]:,}-{counts[-1]:,}"
    extra = f"\nequal share {percent(1 / players)}, target {percent(goal)}" if many else ""
    ax.set_title(title or f"Skill ladder, {players} players, {games} games per step{extra}")
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
    parser.add_argument("--players", type=int, default=2,
                        help="seats (default 2): the doubled bot in one, the bot at n in the others")
    parser.add_argument("--games", type=int, default=100,
                        help="games per step (rounded up to whole deals: one game per seat of the doubled bot)")
    parser.add_argument("--workers", type=int, default=1, help="games played in parallel")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=None, help="also write the markdown table here")
    parser.add_argument("--plot", type=Path, default=ROOT / "docs" / "ladder.png", help="PNG of the curve")
    parser.add_argument("--json-dir", type=Path, default=ROOT / "build" / "ladder")
    args = parser.parse_args(argv)
    try:
        check_players(args.game, args.players)
        lows = budgets(args.start, args.stop)[:-1]
        with_iterations(args.bot, 1)     # a bad spec fails before any game
        steps = [run_step(args.bot, low, args, args.json_dir) for low in lows]
    except OptionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    table = markdown(steps, args.bot, args.players)
    line = summary(steps, args.players, f"seed {args.seed}, {steps[0]['games']} games a step")
    print(table + "\n\n" + line)
    if args.out is not None:
        args.out.write_text(table + "\n\n" + line + "\n", encoding="utf-8")
    (args.json_dir / "ladder.json").write_text(json.dumps(
        {"bot": args.bot, "target": target(args.players), "players": args.players, "equal_share": 1 / args.players,
         "target_elo": TARGET_ELO, "steps": steps}, indent=1) + "\n", encoding="utf-8")
    plot(steps, args.bot, args.plot, players=args.players)
    return 0


if __name__ == "__main__":
    sys.exit(main())
