"""A campaign of garbage streams into `burano engine` (docs/reliability.md, "The engine protocol campaign").

    python scripts/fuzz_protocol.py --minutes 30 --seed 1 --lines 500 --out fuzz-out/protocol

Each stream is `tests/protocol_fuzzing.stream_lines(seed, lines)` for seeds S*10^6, S*10^6+1, ... fed to a
fresh engine process (`run_stream`: pings, one final line per query, schema, no traceback, bounded
memory). Prints a progress line a minute and a summary; writes DIR/summary.json and, for each finding,
DIR/findings/<kind>-<seed>.json (the message and the stream's seed: `stream_lines(seed, lines)` rebuilds
it). Exit status 1 if anything was found.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import protocol_fuzzing as F  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lines", type=int, default=500, help="lines per stream (one engine process each)")
    parser.add_argument("--out", type=Path, default=Path("fuzz-out/protocol"))
    args = parser.parse_args(argv)
    (args.out / "findings").mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    end = start + 60 * args.minutes
    totals: collections.Counter = collections.Counter()
    findings: collections.Counter = collections.Counter()
    max_rss = 0.0
    streams = 0
    next_log = start + 60
    seed = args.seed * 10**6
    while time.monotonic() < end:
        lines = F.stream_lines(seed, args.lines)
        try:
            counts = F.run_stream(lines)
        except F.Finding as exc:
            findings[exc.kind] += 1
            (args.out / "findings" / f"{exc.kind}-{seed}.json").write_text(json.dumps(
                {"kind": exc.kind, "message": str(exc), "seed": seed, "lines": args.lines}, indent=1))
            print(f"finding: seed {seed}: {exc}"[:400], flush=True)
        else:
            for key in ("lines", "queries", "controls", "answers", "final_reports", "errors"):
                totals[key] += counts[key]
            max_rss = max(max_rss, counts["max_rss_mb"])
        streams += 1
        seed += 1
        if time.monotonic() >= next_log:
            next_log += 60
            print(f"{(time.monotonic() - start) / 60:.1f} min: {streams} streams, {dict(totals)}, "
                  f"findings {dict(findings)}", flush=True)
    summary = {"minutes": round((time.monotonic() - start) / 60, 2), "streams": streams,
               "first_seed": args.seed * 10**6, "lines_per_stream": args.lines, **totals,
               "max_rss_mb": max_rss, "findings": dict(findings)}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps(summary), flush=True)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
