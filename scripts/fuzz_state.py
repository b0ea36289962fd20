"""The State-API campaign of every game (issue 35), every batch of cases in a child process.

    python scripts/fuzz_state.py --calls 1000000 --seed 1 --out fuzz-out/state
    python scripts/fuzz_state.py --replay 12345 --seed 1          # one case in-process, with its traceback

It runs the cases of tests/state_fuzzing.py (the same as tests/test_state_fuzz.py, which runs a bounded
number of them under hypothesis in CI): a corpus position of any registered game and player count in
both implementations, then random calls of every public method of either State class; one case in eight
calls the Game classes instead (their methods with hostile arguments, and `GameSpec.new_game` with hostile
player counts and options: `state_fuzzing.run_game_case`; their calls are counted as `Game.<method>` and
`new_game`). Case i of seed S is `state_fuzzing.case_for(i, S)`: deterministic, so a finding is replayed with
`--replay i`.

Cases run in a long-lived child (`--workers` of them), restarted after a crash. The parent records a
**crash** (the child died: a signal or an exit code; the case is the one it was running), a **hang** (no
answer within `--timeout` seconds: the child is killed), and what the child reports: an **exception**
outside the documented family, an **invariant** failure or a **divergence** (tests/state_fuzzing.py).
The child's address space is capped (`--memory-mb`), so an unbounded allocation is a finding rather
than a swapping machine. It stops after `--calls` API calls (each implementation's calls counted: one
call of a method both States have is two API calls) or `--minutes`, whichever comes first, prints a
summary and writes DIR/summary.json (calls per game, implementation and method; outcomes; findings
with their case numbers) and DIR/log.txt (a progress line every `--every` seconds). Exit status 1 if
anything was found.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import platform
import resource
import select
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

FAILURES = ("crash", "hang", "exception", "invariant", "divergence")


# ------------------------------------------------------------------------------------------------
# The child: reads case numbers on stdin, answers one JSON line per case


def child_main(seed: int, memory_mb: int) -> None:
    import faulthandler

    faulthandler.enable()
    if memory_mb:
        limit = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    import state_fuzzing as F

    out = sys.stdout
    for line in sys.stdin:
        index = int(line)
        entry, call_seed = F.case_for(index, seed)
        stats = F.Stats({})
        outcome, message = "ok", ""
        try:
            F.run_case(entry, call_seed, stats=stats)
        except F.Finding as finding:
            outcome, message = finding.kind, finding.message
        except MemoryError:
            outcome, message = "exception", "MemoryError (the child's memory cap)"
        except Exception as exc:  # noqa: BLE001 - the harness itself failed: report, keep going
            outcome, message = "exception", f"harness: {type(exc).__name__}: {exc}"
        out.write(json.dumps({"index": index, "game": entry.game, "players": entry.players,
                              "outcome": outcome, "message": message[:2000], "calls": stats.calls,
                              "refused": stats.refused, "moves": stats.moves}) + "\n")
        out.flush()


class Child:
    """One long-lived child process and the case it is running."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--child", "--seed", str(args.seed),
             "--memory-mb", str(args.memory_mb)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        self.index: int | None = None
        self.started = 0.0

    def send(self, index: int) -> None:
        self.index, self.started = index, time.monotonic()
        self.proc.stdin.write(f"{index}\n")
        self.proc.stdin.flush()

    def kill(self) -> str:
        """End the child (if it still runs); return the tail of what it wrote on stderr."""
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            _, err = self.proc.communicate(timeout=10)
        except (subprocess.TimeoutExpired, ValueError, OSError):
            err = ""
        return (err or "")[-3000:]


# ------------------------------------------------------------------------------------------------
# The parent


def campaign(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log = (out / "log.txt").open("w")

    def say(text: str) -> None:
        print(text, flush=True)
        log.write(text + "\n")
        log.flush()

    calls: collections.Counter[str] = collections.Counter()       # "game impl.method" -> calls
    outcomes: collections.Counter[str] = collections.Counter()
    cases_per_game: collections.Counter[str] = collections.Counter()
    findings: list[dict] = []
    refused = moves = 0
    started = time.monotonic()
    deadline = started + 60 * args.minutes
    next_index = args.start
    children = [Child(args) for _ in range(args.workers)]
    last_report = started
    say(f"fuzz_state: seed {args.seed}, target {args.calls:,} API calls or {args.minutes} min, "
        f"{args.workers} worker(s), python {platform.python_version()}")

    def game_of(index: int) -> str:
        import state_fuzzing as F
        return F.case_for(index, args.seed)[0].game

    def total() -> int:
        return sum(calls.values())

    def record_failure(outcome: str, index: int, message: str, game: str = "?") -> None:
        outcomes[outcome] += 1
        if sum(1 for f in findings if f["outcome"] == outcome) < args.keep:
            findings.append({"outcome": outcome, "case": index, "game": game, "message": message})
        say(f"FINDING {outcome} case {index} ({game}): {message[:300]}")

    def start_child(child=None) -> None:
        """Give `child` (default: a new worker, added to the pool) the next case."""
        nonlocal next_index
        if child is None:
            child = Child(args)
            children.append(child)
        child.send(next_index)
        next_index += 1

    for child in list(children):
        start_child(child)
    while children:
        done = total() >= args.calls or time.monotonic() >= deadline
        streams = {c.proc.stdout: c for c in children if c.index is not None}
        if not streams:
            break
        ready, _, _ = select.select(list(streams), [], [], 1.0)
        now = time.monotonic()
        for stream in ready:
            child = streams[stream]
            line = stream.readline()
            if not line:                                   # the child died: a crash of case child.index
                err = child.kill()
                code = child.proc.returncode
                what = f"signal {-code}" if code is not None and code < 0 else f"exit {code}"
                record_failure("crash", child.index, f"{what}; stderr: {err.strip()[-1500:]}", game_of(child.index))
                children.remove(child)
                if not done:
                    start_child()
                continue
            report = json.loads(line)
            cases_per_game[report["game"]] += 1
            for key, n in report["calls"].items():
                calls[f"{report['game']} {key}"] += n
            refused += report["refused"]
            moves += report["moves"]
            if report["outcome"] == "ok":
                outcomes["ok"] += 1
            else:
                record_failure(report["outcome"], report["index"], report["message"], report["game"])
            if done:
                child.index = None
                child.kill()
                children.remove(child)
            else:
                start_child(child)
        for child in list(children):
            if child.index is not None and now - child.started > args.timeout:
                err = child.kill()
                record_failure("hang", child.index, f"no answer in {args.timeout} s; stderr: {err[-500:]}",
                               game_of(child.index))
                children.remove(child)
                if not done:
                    start_child()
        if now - last_report >= args.every:
            last_report = now
            say(f"{now - started:7.0f} s  {next_index - args.start:,} cases  {total():,} API calls  "
                f"({total() / max(now - started, 1e-9):,.0f}/s)  findings {sum(outcomes[f] for f in FAILURES)}")
    elapsed = time.monotonic() - started

    per_impl: collections.Counter[str] = collections.Counter()
    per_game: collections.Counter[str] = collections.Counter()
    per_method: collections.Counter[str] = collections.Counter()
    for key, n in calls.items():
        game, qualified = key.split(" ", 1)
        impl, method = qualified.split(".", 1)
        per_impl[impl] += n
        per_game[game] += n
        per_method[method] += n
    summary = {
        "seed": args.seed, "first_case": args.start, "cases": sum(outcomes.values()), "api_calls": total(),
        "seconds": round(elapsed, 1), "calls_per_second": round(total() / max(elapsed, 1e-9)),
        "refused_calls": refused, "moves_applied": moves,
        "outcomes": dict(outcomes), "findings": findings,
        "calls_per_implementation": dict(per_impl), "calls_per_game": dict(per_game),
        "cases_per_game": dict(cases_per_game), "methods_called": len(per_method),
        "calls_per_method": dict(sorted(per_method.items())),
        "calls_per_game_implementation_method": dict(sorted(calls.items())),
        "python": platform.python_version(), "machine": platform.machine(),
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    failures = sum(outcomes[f] for f in FAILURES)
    say(f"done: {summary['cases']:,} cases, {total():,} API calls ({per_impl['compiled']:,} compiled, "
        f"{per_impl['reference']:,} reference; {refused:,} refused, {moves:,} moves applied) in {elapsed:.0f} s; "
        f"{len(per_method)} methods; " + ", ".join(f"{o} {outcomes[o]}" for o in FAILURES))
    say("per game: " + ", ".join(f"{g} {n:,}" for g, n in sorted(per_game.items())))
    log.close()
    return 1 if failures else 0


def replay(args: argparse.Namespace) -> int:
    import traceback

    import state_fuzzing as F
    entry, call_seed = F.case_for(args.replay, args.seed)
    print(f"case {args.replay} of seed {args.seed}: {entry}, call seed {call_seed}")
    try:
        stats = F.run_case(entry, call_seed)
    except F.Finding:
        traceback.print_exc()
        return 1
    print(f"ok: {stats.total} API calls, {stats.refused} refused")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=1_000_000, help="stop after this many API calls")
    parser.add_argument("--minutes", type=float, default=30.0, help="stop after this long in any case")
    parser.add_argument("--seed", type=int, default=0, help="the campaign's seed (case i is case_for(i, seed))")
    parser.add_argument("--start", type=int, default=0, help="the first case number")
    parser.add_argument("--workers", type=int, default=1, help="child processes")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds before a case is a hang")
    parser.add_argument("--memory-mb", type=int, default=4096, help="each child's address-space cap (0: none)")
    parser.add_argument("--keep", type=int, default=20, help="findings kept per outcome in summary.json")
    parser.add_argument("--every", type=float, default=30.0, help="seconds between progress lines")
    parser.add_argument("--out", default="fuzz-out/state", help="directory for log.txt and summary.json")
    parser.add_argument("--replay", type=int, help="run case REPLAY in this process and show its traceback")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child_main(args.seed, args.memory_mb)
        return 0
    if args.replay is not None:
        return replay(args)
    return campaign(args)


if __name__ == "__main__":
    sys.exit(main())
