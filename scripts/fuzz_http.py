"""A schemathesis campaign against `burano serve` (docs/reliability.md, "The HTTP API campaign").

    python scripts/fuzz_http.py --minutes 30 --seed 1 --out fuzz-out/http

Runs `tests/http_fuzzing.run` (a fresh server, ids of real games and a replay in the schema, `st run`
with the not_a_server_error check, a request timeout, then the server's log, health and memory) in
rounds of `--round-minutes` with seeds S, S+1, ... until the time is spent; prints each round's counts
and a summary; writes DIR/summary.json (each round's directory keeps the schema, schemathesis's output,
its ndjson events and the server's log). Exit status 1 if anything was found.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import http_fuzzing as F  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--round-minutes", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mode", default="all", choices=["all", "positive", "negative"])
    parser.add_argument("--out", type=Path, default=Path("fuzz-out/http"))
    args = parser.parse_args(argv)
    start = time.monotonic()
    end = start + 60 * args.minutes
    rounds = []
    seed = args.seed
    while time.monotonic() < end - 30:
        budget = min(60 * args.round_minutes, end - time.monotonic())
        result = F.run(args.out / f"round-{seed}", max_time=budget, seed=seed, mode=args.mode)
        result["seed"] = seed
        rounds.append(result)
        print(json.dumps(result)[:2000], flush=True)
        seed += 1
    summary = {"minutes": round((time.monotonic() - start) / 60, 2), "rounds": len(rounds),
               "cases": sum(r["cases"] for r in rounds), "max_rss_mb": max((r["max_rss_mb"] for r in rounds), default=0),
               "problems": [p for r in rounds for p in r["problems"]], "seeds": [r["seed"] for r in rounds]}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps(summary)[:3000], flush=True)
    return 1 if summary["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
