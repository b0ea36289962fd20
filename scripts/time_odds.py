"""Time odds against the outside peer: with how small a share of the peer's thinking time does our search
still score at least 50 % against OpenSpiel's ISMCTS? (issue 11, item 5)

    python scripts/time_odds.py                         # T = 0.5 s; ours at T/2, T/4, T/8, T/16, T/32
    python scripts/time_odds.py --games 100 --workers 2 --fractions 1/4,1/8,1/16
    python scripts/time_odds.py --game azul-sintra --peer openspiel-mcts --fractions 1,1/4,1/16

Each fraction f is one `burano_ai.arena` tournament at 2 players: ``--bot`` (default ``ismcts``) at
``f * T`` seconds per decision against ``--peer`` (default ``openspiel-ismcts``: OpenSpiel's ISMCTSBot
with its standard settings and playouts in our compiled core, see `burano_ai.bots.openspiel_bots`) at
``T``, over ``--games`` games (whole duplicate deals). Our score is the mean win share with the arena's
95 % Wilson interval. The answer is the smallest fraction whose score is >= 50 % (the point estimate;
the table says whether the interval excludes 50 % too). Time budgets depend on the machine: run it
alone on the machine and report the machine with the numbers.

OpenSpiel is an optional extra (``pip install 'burano-ai[openspiel]'``): without it the script says so
and exits with status 0 (nothing to measure). Writes a markdown table (stdout, and ``--out``) and each
tournament's results JSON under ``--json-dir`` (default build/time-odds/).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from burano_ai.arena import ArenaConfig, run_arena   # noqa: E402
from burano_ai.bots import parse_bot_spec   # noqa: E402
from burano_ai.core.errors import OptionError  # noqa: E402
from burano_ai.games import DEFAULT_GAME  # noqa: E402

DEFAULT_FRACTIONS = "1/2,1/4,1/8,1/16,1/32"


def parse_fractions(text: str) -> list[Fraction]:
    out = []
    for part in text.split(","):
        try:
            f = Fraction(part.strip())
        except (ValueError, ZeroDivisionError):
            raise OptionError(f"--fractions: {part.strip()!r} is not a fraction such as 1/8") from None
        if not 0 < f <= 1:
            raise OptionError(f"--fractions: {part.strip()} must lie in (0, 1]")
        out.append(f)
    return sorted(set(out), reverse=True)


def timed(base: str, seconds: float) -> str:
    if parse_bot_spec(base).budget() is not None:
        raise OptionError(f"bot spec {base!r} has a budget of its own: the time odds set the time per decision")
    return f"{base}{',' if ':' in base else ':'}time={seconds:g}"


def game_option(game: str) -> str:
    """The arena command's --game option, empty for the default game."""
    return "" if game == DEFAULT_GAME else f" --game {game}"


def run_fraction(fraction: Fraction, args: argparse.Namespace) -> dict:
    ours, peer = timed(args.bot, float(fraction) * args.time), timed(args.peer, args.time)
    config = ArenaConfig(bots=(ours, peer), players=2, games=args.games, seed=args.seed, workers=args.workers,
                         bootstrap=0, game=args.game)
    started = time.perf_counter()
    result = run_arena(config)
    entry = next(e for e in result.entries if e["spec"] == parse_bot_spec(ours).canonical())
    args.json_dir.mkdir(parents=True, exist_ok=True)
    name = f"time-odds-{fraction.numerator}-{fraction.denominator}.json"
    (args.json_dir / name).write_text(json.dumps(result.to_dict(), indent=1) + "\n", encoding="utf-8")
    lo, hi = entry["win_rate_ci95"]
    row = {"fraction": str(fraction), "ours": ours, "peer": peer, "games": len(result.games),
           "score": entry["win_rate"], "ci95": [lo, hi],
           "iterations_per_decision": entry["iterations"] / entry["decisions"] if entry["decisions"] else 0.0,
           "seconds": round(time.perf_counter() - started, 1),
           "command": f"burano arena{game_option(args.game)} --bots '{ours};{peer}' --players 2 --games {args.games} "
                      f"--workers {args.workers} --seed {args.seed}"}
    print(f"  {fraction}: score {row['score']:.3f} ({lo:.3f}-{hi:.3f}), {row['games']} games, {row['seconds']} s",
          file=sys.stderr, flush=True)
    return row


def markdown(rows: list[dict], args: argparse.Namespace) -> str:
    lines = [f"| fraction of T = {args.time:g} s | ours s/decision | ours iterations/decision | games | score | "
             "95% CI | >= 50% |", "|---|---:|---:|---:|---:|---|---|"]
    for r in rows:
        lo, hi = r["ci95"]
        verdict = "yes (CI)" if lo >= 0.5 else "yes" if r["score"] >= 0.5 else "no"
        lines.append(f"| {r['fraction']} | {float(Fraction(r['fraction'])) * args.time:g} | "
                     f"{r['iterations_per_decision']:.0f} | {r['games']} | {r['score']:.3f} | {lo:.3f}-{hi:.3f} | "
                     f"{verdict} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time", type=float, default=0.5, help="the peer's seconds per decision, T")
    parser.add_argument("--fractions", default=DEFAULT_FRACTIONS, help="our shares of T, e.g. 1/2,1/4")
    parser.add_argument("--bot", default="ismcts", help="our bot spec without a budget")
    parser.add_argument("--peer", default="openspiel-ismcts", help="the peer's bot spec without a budget")
    parser.add_argument("--games", type=int, default=100, help="games per fraction (whole deals of 2)")
    parser.add_argument("--workers", type=int, default=1, help="games played in parallel")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--game", default=DEFAULT_GAME, help="the game (default burano)")
    parser.add_argument("--out", type=Path, default=None, help="also write the markdown table here")
    parser.add_argument("--json-dir", type=Path, default=ROOT / "build" / "time-odds")
    args = parser.parse_args(argv)
    if importlib.util.find_spec("pyspiel") is None:
        print("skipped: OpenSpiel is not installed (pip install 'burano-ai[openspiel]'); no time odds measured")
        return 0
    try:
        if not args.time > 0:
            raise OptionError(f"--time must be a positive number of seconds, not {args.time}")
        fractions = parse_fractions(args.fractions)
        timed(args.bot, 1.0), timed(args.peer, 1.0)     # bad specs fail before any game
        rows = [run_fraction(f, args) for f in fractions]
    except OptionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    winning = [r for r in rows if r["score"] >= 0.5]
    smallest = min(winning, key=lambda r: Fraction(r["fraction"])) if winning else None
    summary = (f"smallest fraction with score >= 50%: {smallest['fraction']} of T = {args.time:g} s "
               f"(score {smallest['score']:.3f})" if smallest else
               f"no fraction scored >= 50% (largest tried: {rows[0]['fraction']})")
    text = markdown(rows, args) + "\n\n" + summary + f" (seed {args.seed}, {args.games} games a fraction)"
    print(text)
    if args.out is not None:
        args.out.write_text(text + "\n", encoding="utf-8")
    (args.json_dir / "time-odds.json").write_text(json.dumps({"time": args.time, "rows": rows, "smallest":
                                                              smallest and smallest["fraction"]}, indent=1) + "\n",
                                                  encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
