"""A fuzzing campaign against the position loader and the State API, every input in a child process.

    python scripts/fuzz.py --minutes 30 --seed 1 --workers 1 --out fuzz-out/release
    python scripts/fuzz.py --replay fuzz-out/release/findings/crash-loader-123.json   # in-process

It runs the generators and oracles of tests/fuzzing.py (the same as tests/test_fuzz.py, which runs a
bounded number of them under hypothesis in CI) for `--minutes`:

- ``loader``: a structurally mutated position (dict) of the corpus -> `engine.load_position` in both
  rules implementations, then `check()`, a legal move or a chance outcome, a few dozen lockstep random
  steps against the reference, the JSON round trip and a short native search;
- ``text``: mangled JSON text (bytes or str) -> the same;
- ``api``: random State method calls with random argument types and values, in both implementations.

Each input runs in a long-lived child (a pool of `--workers`), which is restarted after a crash. The
parent records, per input: a **crash** (the child died: signal or exit code), a **hang** (no answer
within `--timeout` seconds: the child is killed), an **exception** outside the documented family, an
**invariant** failure or a core/reference **divergence** (see tests/fuzzing.py). Every finding is saved
to DIR/findings/ as a JSON repro (kind, seed, outcome, message, the input itself) plus the raw input
file for text inputs; DIR/summary.json and the printed summary give the inputs run, the counts per
outcome and the coverage (player counts, stages/phases/chance kinds, views, mutation kinds, API
methods). The child's memory is capped (`--memory-mb`), so unbounded allocation is a finding, not a
swapping machine. Inputs are deterministic in (kind, seed): a finding is replayed with `--replay`.
"""

from __future__ import annotations

import argparse
import base64
import collections
import faulthandler
import json
import multiprocessing
import multiprocessing.connection
import os
import re
import resource
import signal
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

KINDS = ("loader", "text", "api")
FAILURES = ("crash", "hang", "exception", "invariant", "divergence")


# ------------------------------------------------------------------------------------------------
# The child


def _run_one(kind: str, seed: int) -> tuple[str, str, dict]:
    """(outcome, message, extra) of one input, in this process."""
    import fuzzing as F
    try:
        if kind == "api":
            calls = F.run_api_case(seed)
            return "ok", "", {"calls": calls}
        inp = F.loader_input(seed) if kind == "loader" else F.text_input(seed)
        return F.check_loader_input(inp.data, seed), "", {}
    except F.Finding as exc:
        tb = "".join(traceback.format_exception(exc.__cause__)) if exc.__cause__ else ""
        return exc.kind, exc.message, {"traceback": tb[-4000:], "calls": getattr(exc, "calls", None)}
    except Exception as exc:  # noqa: BLE001 - outside the oracles (input generation): still a finding
        return "exception", f"outside the oracles: {type(exc).__name__}: {str(exc)[:300]}", {
            "traceback": traceback.format_exc()[-4000:]}


def _child_main(conn, memory_mb: int, log_path: str) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)          # the parent decides when to stop
    if memory_mb:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    log = open(log_path, "a", buffering=1)
    faulthandler.enable(file=log)                         # a crash leaves its Python stack here
    import fuzzing as F
    F.corpus()
    F._chance_outcome_pool()       # warm the API generators' pools once per child
    F._action_text_pool()
    conn.send(("ready", os.getpid()))
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        kind, seed = task
        log.write(f"{kind} {seed}\n")
        started = time.perf_counter()
        outcome, message, extra = _run_one(kind, seed)
        conn.send((outcome, message, extra, time.perf_counter() - started))


class Worker:
    def __init__(self, index: int, ctx, args, out: Path) -> None:
        self.index, self.ctx, self.args, self.out = index, ctx, args, out
        self.restarts = -1
        self.start()

    def start(self) -> None:
        self.restarts += 1
        self.conn, child_conn = self.ctx.Pipe()
        log = self.out / "logs" / f"worker{self.index}.log"
        self.proc = self.ctx.Process(target=_child_main, args=(child_conn, self.args.memory_mb, str(log)),
                                     name=f"fuzz-worker-{self.index}", daemon=True)
        self.proc.start()
        child_conn.close()
        self.task: tuple[str, int] | None = None
        self.history: list[tuple[str, int]] = []    # inputs run by this child since it started
        self.sent_at = 0.0
        if not self.conn.poll(120):
            raise SystemExit(f"worker {self.index} did not start")
        self.conn.recv()

    def send(self, task: tuple[str, int]) -> None:
        self.task, self.sent_at = task, time.monotonic()
        self.history = (self.history + [task])[-20:]
        self.conn.send(task)

    def kill(self) -> None:
        if self.proc.is_alive():
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.join(5)
        self.conn.close()


# ------------------------------------------------------------------------------------------------
# The parent


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "no exit code"
    if code < 0:
        try:
            return f"killed by signal {-code} ({signal.Signals(-code).name})"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def _signature(outcome: str, kind: str, message: str) -> str:
    """Findings that differ only in numbers, names in quotes or positions are one signature."""
    first = message.split("\n", 1)[0]
    first = re.sub(r"'[^']*'", "'*'", first)
    first = re.sub(r"\d+", "N", first)
    return f"{outcome} {kind}: {first[:160]}"


def _input_for(kind: str, seed: int):
    import fuzzing as F
    if kind == "api":
        entry = F.api_entry(seed)
        return entry.data(), [], entry
    inp = F.loader_input(seed) if kind == "loader" else F.text_input(seed)
    return inp.data, inp.kinds, inp.entry


class Campaign:
    def __init__(self, args) -> None:
        import fuzzing as F
        self.F = F
        F.corpus()                     # built once here (reference model only): every child forks with it
        F._chance_outcome_pool()
        F._action_text_pool()
        self.args = args
        self.out = Path(args.out)
        (self.out / "findings").mkdir(parents=True, exist_ok=True)
        (self.out / "logs").mkdir(parents=True, exist_ok=True)
        self.counts = {k: collections.Counter() for k in KINDS}
        self.coverage = {name: collections.Counter() for name in
                         ("players", "category", "view", "mutation", "text-mutation", "api-method",
                          "accepted-by-category", "accepted-by-mutation")}
        self.api_calls = 0
        self.signatures: collections.Counter = collections.Counter()
        self.findings: list[dict] = []
        self.time_in = collections.Counter()
        self.next_index = 0
        weights = [float(x) for x in args.mix.split(":")]
        self.mix = [(k, w / sum(weights)) for k, w in zip(KINDS, weights)]
        self.carry = {k: 0.0 for k in KINDS}
        self.issued = {k: 0 for k in KINDS}
        self.restarts = 0
        self.commit = _git_head()      # the code the children fork with (the tree may move on meanwhile)

    def next_task(self) -> tuple[str, int]:
        # Deterministic interleaving of the kinds by their weights; seeds count up per kind.
        for k, w in self.mix:
            self.carry[k] += w
        kind = max(self.carry, key=self.carry.get)
        self.carry[kind] -= 1.0
        seed = self.args.seed * 10**9 + self.issued[kind]
        self.issued[kind] += 1
        return kind, seed

    def record(self, kind: str, seed: int, outcome: str, message: str, extra: dict, seconds: float,
               worker: Worker | None = None) -> None:
        self.counts[kind][outcome] += 1
        self.time_in[kind] += seconds
        cov = self.coverage
        if kind == "api":
            for method, n in (extra.get("calls") or {}).items():
                cov["api-method"][method] += n
                self.api_calls += n
        try:
            data, kinds, entry = _input_for(kind, seed)
        except Exception:  # noqa: BLE001 - coverage is best effort
            data, kinds, entry = None, [], None
        if entry is not None:
            cov["players"][f"{kind} {entry.players}p"] += 1
            cov["category"][entry.category] += 1
            cov["view"][f"{kind} {'one-seat view' if entry.view else 'full'}"] += 1
            for k in kinds:
                cov["text-mutation" if k.startswith("text:") else "mutation"][k] += 1
                if outcome.startswith("accepted"):
                    cov["accepted-by-mutation"][k] += 1
            if outcome.startswith("accepted"):
                cov["accepted-by-category"][entry.category] += 1
        if outcome in FAILURES:
            if outcome in ("crash", "hang") and worker is not None:
                # Earlier inputs of the same child may have corrupted its memory: say which, and
                # whether this input alone does it again in a fresh child.
                extra = dict(extra, history=worker.history[:-1], alone=self.confirm(kind, seed))
                message += f"; alone in a fresh child: {extra['alone']}"
            self.save_finding(kind, seed, outcome, message, extra, data, kinds, entry)

    def save_finding(self, kind, seed, outcome, message, extra, data, kinds, entry) -> None:
        sig = _signature(outcome, kind, message)
        self.signatures[sig] += 1
        record = {"kind": kind, "seed": seed, "outcome": outcome, "message": message,
                  "signature": sig, "category": entry.category if entry else None,
                  "view": entry.view if entry else None, "mutations": kinds,
                  "traceback": extra.get("traceback", ""),
                  "earlier_inputs_of_the_child": extra.get("history"),
                  "outcome_alone_in_a_fresh_child": extra.get("alone"),
                  "replay": "python scripts/fuzz.py --replay FILE"}
        self.findings.append({k: record[k] for k in ("kind", "seed", "outcome", "message", "signature")})
        if self.signatures[sig] > self.args.keep_per_signature:
            return
        name = f"{outcome}-{kind}-{seed}"
        if isinstance(data, (bytes, str)):
            raw = data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data
            (self.out / "findings" / f"{name}.input").write_bytes(raw)
            record["input_base64"] = base64.b64encode(raw).decode() if len(raw) < 200_000 else None
            record["input_is_str"] = isinstance(data, str)
        else:
            text = _deep_dumps(data)
            record["input_file"] = None
            if text is not None:
                (self.out / "findings" / f"{name}.position.json").write_text(text)
                record["input_file"] = f"{name}.position.json"
        (self.out / "findings" / f"{name}.json").write_text(json.dumps(record, indent=1))

    def total(self) -> int:
        return sum(sum(c.values()) for c in self.counts.values())

    def run(self) -> int:
        ctx = multiprocessing.get_context("fork")
        self.workers: list[Worker] = []
        self.workers = [Worker(i, ctx, self.args, self.out) for i in range(self.args.workers)]
        started = time.monotonic()
        deadline = started + self.args.minutes * 60
        last_report = started
        stopping = False
        stop_requested = []
        signal.signal(signal.SIGTERM, lambda *_: stop_requested.append(1))
        try:
            while True:
                now = time.monotonic()
                if now >= deadline or stop_requested or (self.args.max_inputs and self.total() >= self.args.max_inputs):
                    stopping = True
                for w in self.workers:
                    if w.task is None and not stopping:
                        w.send(self.next_task())
                busy = [w for w in self.workers if w.task is not None]
                if not busy:
                    break
                ready = multiprocessing.connection.wait([w.conn for w in busy] + [w.proc.sentinel for w in busy],
                                                        timeout=1.0)
                for w in busy:
                    kind, seed = w.task
                    if w.conn in ready:
                        try:
                            outcome, message, extra, secs = w.conn.recv()
                        except (EOFError, ConnectionResetError, OSError):
                            w.proc.join(5)
                            self.record(kind, seed, "crash", _describe_exit(w.proc.exitcode), {},
                                        time.monotonic() - w.sent_at, w)
                            self.restart(w)
                            continue
                        w.task = None
                        self.record(kind, seed, outcome, message, extra, secs, w)
                        if outcome in FAILURES:
                            self.restart(w)     # a failed input may have corrupted the child: start clean
                    elif w.proc.sentinel in ready or not w.proc.is_alive():
                        w.proc.join(5)
                        self.record(kind, seed, "crash", _describe_exit(w.proc.exitcode), {},
                                    time.monotonic() - w.sent_at, w)
                        self.restart(w)
                    elif time.monotonic() - w.sent_at > self.args.timeout:
                        w.kill()
                        self.record(kind, seed, "hang", f"no answer within {self.args.timeout} s", {},
                                    self.args.timeout, w)
                        self.restart(w)
                if time.monotonic() - last_report >= self.args.report_every:
                    last_report = time.monotonic()
                    self.progress(last_report - started)
        except KeyboardInterrupt:
            pass
        finally:
            for w in self.workers:
                try:
                    w.conn.send(None)
                except OSError:
                    pass
                w.proc.join(2)
                w.kill()
        self.elapsed = time.monotonic() - started
        return self.summary()

    def confirm(self, kind: str, seed: int) -> str:
        """The outcome of one input run alone in a fresh child (crash/hang/ok/...)."""
        ctx = multiprocessing.get_context("fork")
        probe = Worker(-1, ctx, self.args, self.out)
        try:
            probe.send((kind, seed))
            ready = multiprocessing.connection.wait([probe.conn, probe.proc.sentinel], timeout=self.args.timeout)
            if probe.conn in ready:
                try:
                    return probe.conn.recv()[0]
                except (EOFError, OSError):
                    pass
            if not ready:
                return "hang"
            probe.proc.join(5)
            return "crash (" + _describe_exit(probe.proc.exitcode) + ")"
        finally:
            probe.kill()

    def restart(self, w: Worker) -> None:
        w.kill()
        self.restarts += 1
        w.start()

    def progress(self, elapsed: float) -> None:
        fails = sum(self.counts[k][f] for k in KINDS for f in FAILURES)
        loader = sum(self.counts["loader"].values()) + sum(self.counts["text"].values())
        print(f"[{elapsed / 60:5.1f} min] {self.total()} inputs ({loader} loader, {self.api_calls} API calls), "
              f"{fails} findings", flush=True)

    def summary(self) -> int:
        import burano_ai
        from burano_ai import _rng
        loader_inputs = sum(self.counts["loader"].values()) + sum(self.counts["text"].values())
        per_outcome = collections.Counter()
        for k in KINDS:
            per_outcome.update(self.counts[k])
        summary = {
            "command": " ".join(sys.argv),
            "build": "debug" if _rng.is_debug_build() else "release",
            "burano_ai": os.path.dirname(burano_ai.__file__),
            "commit": self.commit,
            "seed": self.args.seed, "workers": self.args.workers, "minutes": round(self.elapsed / 60, 2),
            "inputs": self.total(), "loader_inputs": loader_inputs,
            "structural_inputs": sum(self.counts["loader"].values()),
            "text_inputs": sum(self.counts["text"].values()),
            "api_cases": sum(self.counts["api"].values()), "api_calls": self.api_calls,
            "outcomes": {k: dict(self.counts[k]) for k in KINDS},
            "failures": {f: per_outcome[f] for f in FAILURES},
            "worker_restarts": self.restarts,
            "seconds_per_kind": {k: round(v, 1) for k, v in self.time_in.items()},
            "signatures": dict(self.signatures.most_common()),
            "coverage": {name: dict(sorted(c.items())) for name, c in self.coverage.items()},
        }
        (self.out / "summary.json").write_text(json.dumps(summary, indent=1))
        (self.out / "findings.json").write_text(json.dumps(self.findings, indent=1))
        print(f"\n== fuzz campaign: {summary['build']} build, {summary['minutes']} min, seed {self.args.seed}, "
              f"{self.args.workers} worker(s), commit {summary['commit']}")
        print(f"inputs: {summary['inputs']} ({loader_inputs} loader inputs: {summary['structural_inputs']} "
              f"structural + {summary['text_inputs']} text; {summary['api_cases']} API cases with "
              f"{self.api_calls} calls)")
        for k in KINDS:
            print(f"  {k:7s} " + ", ".join(f"{o} {c}" for o, c in sorted(self.counts[k].items())))
        print("failures: " + ", ".join(f"{f} {per_outcome[f]}" for f in FAILURES) +
              f" (worker restarts {self.restarts})")
        for sig, c in self.signatures.most_common(30):
            print(f"  {c:6d}  {sig}")
        cov = self.coverage
        print(f"coverage: {len(cov['category'])} categories (players/stage/phase/chance), "
              f"{len(cov['accepted-by-category'])} with accepted mutants")
        for name in ("players", "view", "mutation", "text-mutation", "api-method"):
            print(f"  {name}: " + ", ".join(f"{k} {v}" for k, v in sorted(cov[name].items())))
        missing = sorted(set(e.category for e in self.F.corpus()) - set(cov["category"]))
        if missing:
            print(f"  categories never drawn: {', '.join(missing)}")
        print(f"summary: {self.out / 'summary.json'}; findings: {self.out / 'findings'}")
        return 1 if any(per_outcome[f] for f in FAILURES) else 0


def _deep_dumps(data) -> str | None:
    """json.dumps that copes with deeply nested inputs (a thread with a big stack); None if impossible."""
    import threading
    result: list[str | None] = [None]

    def work() -> None:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 200_000))
        try:
            result[0] = json.dumps(data)
        except (ValueError, TypeError, RecursionError, OverflowError):
            result[0] = None
        finally:
            sys.setrecursionlimit(old)

    old_size = threading.stack_size(512 * 1024 * 1024)
    try:
        t = threading.Thread(target=work)
        t.start()
        t.join()
    finally:
        threading.stack_size(old_size)
    return result[0]


def _git_head() -> str:
    """The commit of the burano_ai that is imported (+dirty if its tracked files are changed)."""
    try:
        import subprocess

        import burano_ai
        where = os.path.dirname(os.path.dirname(os.path.abspath(burano_ai.__file__)))
        head = subprocess.run(["git", "-C", where, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", where, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except Exception:  # noqa: BLE001
        return "?"


def replay(path: str) -> int:
    """Run a saved finding again in this process (a crash kills it: run it under gdb, or read the
    faulthandler stack it prints). The saved input is used when there is one (so a repro survives
    changes to the generators); an API case is regenerated from its seed."""
    faulthandler.enable()
    import fuzzing as F
    record = json.loads(Path(path).read_text())
    kind, seed = record["kind"], record["seed"]
    here = Path(path).parent
    print(f"replaying {kind} {seed} (recorded: {record['outcome']}: {record['message'][:200]})", flush=True)
    data = None
    if kind == "loader" and record.get("input_file"):
        sys.setrecursionlimit(100_000)
        data = json.loads((here / record["input_file"]).read_text())
    elif kind == "text" and (here / f"{Path(path).stem}.input").exists():
        raw = (here / f"{Path(path).stem}.input").read_bytes()
        data = raw.decode("utf-8", "surrogateescape") if record.get("input_is_str") else raw
    if data is None:
        outcome, message, extra = _run_one(kind, seed)
    else:
        try:
            outcome, message, extra = F.check_loader_input(data, seed), "", {}
        except F.Finding as exc:
            outcome, message = exc.kind, exc.message
            extra = {"traceback": "".join(traceback.format_exception(exc.__cause__)) if exc.__cause__ else ""}
    print(f"now: {outcome} {message}")
    if extra.get("traceback"):
        print(extra["traceback"])
    return 1 if outcome in FAILURES else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=5.0, help="wall-clock length of the campaign")
    ap.add_argument("--seed", type=int, default=1, help="campaign seed (inputs are (kind, seed*1e9 + i))")
    ap.add_argument("--workers", type=int, default=1, help="child processes")
    ap.add_argument("--out", default="fuzz-out", help="directory for findings/, logs/ and summary.json")
    ap.add_argument("--mix", default="6:3:1", help="weights of loader:text:api inputs")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per input before it counts as a hang")
    ap.add_argument("--memory-mb", type=int, default=4096, help="address-space cap of a child (0: none)")
    ap.add_argument("--max-inputs", type=int, default=0, help="stop after this many inputs (0: no cap)")
    ap.add_argument("--keep-per-signature", type=int, default=5, help="repro files kept per finding signature")
    ap.add_argument("--report-every", type=float, default=60.0, help="seconds between progress lines")
    ap.add_argument("--replay", metavar="FILE", help="replay one saved finding in this process and exit")
    args = ap.parse_args(argv)
    if args.replay:
        return replay(args.replay)
    if args.workers < 1 or args.minutes <= 0:
        ap.error("--workers must be >= 1 and --minutes > 0")
    return Campaign(args).run()


if __name__ == "__main__":
    sys.exit(main())
