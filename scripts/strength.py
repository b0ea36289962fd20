"""Measure playing strength and search speed; write docs/strength.md.

    python scripts/strength.py                    # the full set, issue-size samples (~75 min, 2 processes)
    python scripts/strength.py --quick            # a tenth of the games (~10 min): a smoke run
    python scripts/strength.py --only throughput,vs-greedy
    python scripts/strength.py --report-only      # rebuild docs/strength.md from saved results

Every experiment is a `burano_ai.arena` tournament (the equivalent `burano arena` command is printed in
the report) whose results JSON is saved under ``--out-dir`` (default build/strength/); the report is
rebuilt from whatever results exist there, so an interrupted run still reports what finished. The
throughput experiment searches the same positions with each algorithm for the same wall-clock time and
counts iterations (one run, side by side). The compiled core is used (`burano_ai.Game`).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from burano_ai.arena import ArenaConfig, run_arena   # noqa: E402

# name -> (description, config kwargs): the sample sizes the arena issue asks for (>= 200 games head to head
# with OpenSpiel's ISMCTS); --quick plays a tenth of the games.
EXPERIMENTS = {
    "vs-openspiel-2p": (
        "Ours (ISMCTS) vs OpenSpiel's ISMCTS at equal time per decision, 2 players",
        dict(bots=("ismcts", "openspiel-ismcts"), players=2, games=200, time_per_move=0.05)),
    "vs-openspiel-4p": (
        "4 players: one of ours vs three OpenSpiel ISMCTS, equal time per decision",
        dict(bots=("ismcts", "openspiel-ismcts", "openspiel-ismcts", "openspiel-ismcts"), players=4, games=48,
             time_per_move=0.05)),
    "vs-greedy": (
        "Ours vs greedy, 2 players",
        dict(bots=("ismcts", "greedy"), players=2, games=60, time_per_move=0.1)),
    "vs-mcts-pkg": (
        "Ours vs the PyPI mcts package's UCT (one determinization), equal time per decision, 2 players",
        dict(bots=("ismcts", "mcts-pkg"), players=2, games=100, time_per_move=0.1)),
    "vs-openspiel-random-eval-2p": (
        "Ours vs OpenSpiel's ISMCTS with OpenSpiel's own random-rollout evaluator (playouts through the "
        "pyspiel API), equal time, 2 players",
        dict(bots=("ismcts", "openspiel-ismcts:evaluator=random"), players=2, games=8, time_per_move=0.1)),
    "playouts": (
        "Our default (heuristic playouts) vs ours with uniform random playouts, equal time per decision, 2 players",
        dict(bots=("ismcts", "ismcts:playout=random"), players=2, games=40, time_per_move=0.1)),
    "ladder": (
        "Skill ladder: ours at three iteration budgets and greedy, 4 players (rotations of one lineup)",
        dict(bots=("ismcts:iterations=25", "ismcts:iterations=100", "ismcts:iterations=400", "greedy"), players=4,
             games=8)),
}
#: The arena issue's targets: experiment -> minimum win rate of ours.
TARGETS = {"vs-openspiel-2p": 0.70, "vs-openspiel-4p": 0.45, "vs-greedy": 0.80, "vs-mcts-pkg": 0.80}
ORDER = ["throughput", "vs-openspiel-2p", "vs-openspiel-4p", "vs-greedy", "vs-mcts-pkg",
         "vs-openspiel-random-eval-2p", "playouts", "ladder"]
SEED = 2026
#: docs/strength.md from this line on is not generated here: `report` keeps it as it is.
KEEP_MARKER = "<!-- kept by scripts/strength.py: hand-written from here on -->"


def arena_command(cfg: dict, out: str) -> str:
    bots = ";".join(cfg["bots"])
    parts = [f"burano arena --bots '{bots}' --players {cfg['players']} --games {cfg['games']}"]
    if cfg.get("time_per_move"):
        parts.append(f"--time-per-move {cfg['time_per_move']}")
    parts.append(f"--workers {cfg['workers']} --seed {cfg['seed']} --out {out}")
    return " ".join(parts)


def run_experiment(name: str, out_dir: Path, workers: int, scale: float) -> None:
    from burano_ai import Game
    desc, kwargs = EXPERIMENTS[name]
    kwargs = dict(kwargs)
    players = kwargs["players"]   # whole deals: every deal is played in `players` seatings
    kwargs["games"] = players * max(1, int(round(kwargs["games"] * scale / players)))
    config = ArenaConfig(seed=SEED, workers=workers, **kwargs)
    started = time.time()

    def progress(done: int, total: int) -> None:
        print(f"  {name}: {done}/{total} games, {time.time() - started:.0f} s", flush=True)

    print(f"{name}: {desc}", flush=True)
    result = run_arena(config, progress=progress, game_factory=Game)
    data = result.to_dict()
    data["experiment"] = {"name": name, "description": desc,
                          "command": arena_command({**kwargs, "seed": SEED, "workers": workers},
                                                   f"{name}.json")}
    (out_dir / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(result.table(), flush=True)
    try:
        result.plot(str(out_dir / f"{name}.png"))
    except Exception as exc:   # the plot is a convenience (matplotlib may be missing)
        print(f"  no plot: {exc}")


# ------------------------------------------------------------------------------------------------
# Throughput


def sample_positions(players: int, count: int, seed: int):
    """Turn decisions with several legal moves from one greedy self-play game (deterministic)."""
    from burano_ai import Game
    from burano_ai.bots import make_bot
    from burano_ai.search.evaluators import sample_chance_cumulative
    state = Game(players).new_initial_state(seed)
    bots = [make_bot("greedy", seed + p) for p in range(players)]
    rng = random.Random(seed)
    found = []
    step = 0
    while not state.is_terminal() and len(found) < count * 6:
        if state.is_chance_node():
            state.apply_action(sample_chance_cumulative(state, rng))
            continue
        legal = state.legal_actions()
        if state.phase == 2 and state.stage == 2 and len(legal) > 3 and state.moves == 0:
            found.append(state.clone())
        state.apply_action(legal[0] if len(legal) == 1 else bots[state.current_player()].step(state))
        step += 1
    stride = max(1, len(found) // count)
    return found[::stride][:count]


def throughput(out_dir: Path, seconds: float, count: int) -> None:
    import numpy as np
    from burano_ai.bots import make_bot
    algos = [
        ("ours: ismcts (native tree, heuristic playouts: the default)", f"ismcts:time={seconds}"),
        ("ours: ismcts (native tree, uniform random playouts)", f"ismcts:time={seconds},playout=random"),
        ("ours: ismcts (Python tree, uniform random playouts)", f"ismcts:time={seconds},playout=random,tree=python"),
        ("OpenSpiel ISMCTSBot + native playouts", f"openspiel-ismcts:time={seconds}"),
        ("OpenSpiel ISMCTSBot + OpenSpiel RandomRolloutEvaluator", f"openspiel-ismcts:time={seconds},evaluator=random"),
        ("mcts package UCT (one determinization) + native playouts", f"mcts-pkg:time={seconds}"),
    ]
    rows = []
    for players in (2, 4):
        positions = sample_positions(players, count, SEED + players)
        for label, spec in algos:
            rates = []
            for i, pos in enumerate(positions):
                bot = make_bot(spec, SEED + i)
                t0 = time.perf_counter()
                bot.step(pos.clone())
                elapsed = time.perf_counter() - t0
                rates.append(bot.iterations / elapsed)
            rows.append({"players": players, "algorithm": label, "spec": spec, "positions": len(positions),
                         "iterations_per_second": float(np.mean(rates)),
                         "min": float(np.min(rates)), "max": float(np.max(rates))})
            print(f"  throughput {players}p {label}: {np.mean(rates):.0f} it/s", flush=True)
    data = {"experiment": {"name": "throughput", "seconds_per_search": seconds, "positions": count,
                           "seed": SEED, "description": "iterations/s on the same positions, side by side"},
            "rows": rows}
    (out_dir / "throughput.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


# ------------------------------------------------------------------------------------------------
# Report


def verdict(name: str, ours: dict) -> str:
    """The issue's target for an experiment and whether the result meets it."""
    target = TARGETS.get(name)
    if target is None:
        return "–"
    low = ours["win_rate_ci95"][0]
    if low >= target:
        return f"≥ {target:.2f}: met (whole interval)"
    if ours["win_rate"] >= target:
        return f"≥ {target:.2f}: met (point estimate; interval reaches {low:.2f})"
    return f"≥ {target:.2f}: missed"


def throughput_ratios(rows: list[dict]) -> list[str]:
    """Ratio lines: ours over OpenSpiel's ISMCTS, from one throughput run (same positions, same seconds)."""
    rate = {(r["players"], _untimed(r["spec"])): r["iterations_per_second"] for r in rows}
    pairs = [("ours (default) / OpenSpiel ISMCTS with its own RandomRolloutEvaluator", "ismcts:",
              "openspiel-ismcts:evaluator=random"),
             ("ours (default) / OpenSpiel ISMCTS with our C playouts", "ismcts:", "openspiel-ismcts:"),
             ("ours (uniform playouts, as OpenSpiel's) / OpenSpiel ISMCTS with our C playouts",
              "ismcts:playout=random", "openspiel-ismcts:")]
    out = ["", "| ratio of iterations/s | 2 players | 4 players |", "|---|---:|---:|"]
    for label, a, b in pairs:
        cells = [f"{rate[(n, a)] / rate[(n, b)]:.1f}×" if (n, a) in rate and (n, b) in rate else "–" for n in (2, 4)]
        out.append(f"| {label} | {cells[0]} | {cells[1]} |")
    return out


def fmt_ci(ci) -> str:
    return f"{ci[0]:.2f}–{ci[1]:.2f}"


def _untimed(spec: str) -> str:
    """A spec string without its budget: `ismcts:time=1.0,playout=random` -> `ismcts:playout=random`."""
    name, _, options = spec.partition(":")
    return name + ":" + ",".join(p for p in options.split(",") if p and not p.startswith(("time=", "iterations=")))


def _ours(entries: list[dict]) -> dict | None:
    """Our default bot's entry (spec `ismcts` with nothing but a time or iteration budget), if it played."""
    ours = [e for e in entries if _untimed(e["spec"]) == "ismcts:"]
    return ours[0] if len(ours) == 1 else None


def report(out_dir: Path, doc: Path, argv: list[str]) -> None:
    rel = out_dir.relative_to(ROOT) if out_dir.is_relative_to(ROOT) else out_dir
    results = {name: json.loads((out_dir / f"{name}.json").read_text())
               for name in ORDER[1:] if (out_dir / f"{name}.json").exists()}
    lines = [
        "# Playing strength and search speed", "",
        "Generated by `" + " ".join(["python scripts/strength.py", *argv]) + "` (rebuild the text from saved "
        "results with `python scripts/strength.py --report-only`); the results JSON of every experiment is in "
        f"`{rel}/` (not committed). Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}. Other work may have shared the machine during the run; that matters for "
        "time budgets (both sides of a game lose the same share of the CPU on average).", "",
        "Every experiment is one `burano_ai.arena` tournament run with the compiled core "
        "(`burano_ai.Game`), 2 game processes in parallel, seed " + str(SEED) + ". The `burano arena` "
        "command shown with each is the same tournament from the command line (`--out` gives the same JSON).", "",
        "How to read: *win rate* is the mean win share (1/k for a k-way tie) over the seats a bot played, with "
        "a 95 % Wilson interval; *rating* is a Plackett–Luce rating on the Elo scale (mean 0) with a bootstrap "
        "95 % interval over deals. Every deal is played in every seating (duplicate deals: same setup seed, same "
        "chance stream). Forced moves (one legal action) are played by the arena and not counted as decisions; "
        "*s/decision* and *iterations/decision* are over the bot's real decisions.", "",
        "## Summary", "",
        "| experiment | ours: win rate | 95% CI | equal-strength rate | games | per-decision budget | target |",
        "|---|---:|---|---:|---:|---|---|"]
    for name, d in results.items():
        ours = _ours(d["entries"])
        if ours is None:
            continue
        cfg = d["config"]
        budget = f"{cfg['time_per_move']} s" if cfg["time_per_move"] else "see specs"
        lines.append(f"| {EXPERIMENTS[name][0]} | {ours['win_rate']:.2f} | {fmt_ci(ours['win_rate_ci95'])} | "
                     f"{1 / cfg['players']:.2f} | {d['games_played']} | {budget} | {verdict(name, ours)} |")
    tp_path = out_dir / "throughput.json"
    if tp_path.exists():
        ratio_rows = throughput_ratios(json.loads(tp_path.read_text())["rows"])[3:]
        cells = [[c.strip() for c in row.strip("|").split("|")] for row in ratio_rows]
        lines += ["", "Throughput target (iterations/s ≥ 10× OpenSpiel's ISMCTS through the adapter, same positions, "
                  "side by side): " + "; ".join(f"{c[0]}: {c[1]} (2p), {c[2]} (4p)" for c in cells)
                  + ". Details and what bounds the last two in the throughput section below."]
    missing = [n for n in ORDER[1:] if n not in results]
    if missing:
        lines += ["", "Not run in this session: " + ", ".join(f"`{n}`" for n in missing) + " (commands below)."]
    lines += [
        "", "## Method notes and caveats", "",
        "- Sample sizes are in each table (200 games head to head with OpenSpiel's ISMCTS, as the issue asks; "
        "48–100 for the other targets; the OpenSpiel-evaluator and ladder runs are small illustrations). Read a "
        "result as evidence only where its interval excludes the equal-strength rate.",
        "- Rating intervals bootstrap over deals; with few deals (the ladder's 2) they understate the uncertainty.",
        "- Time budgets: a bot's *iterations/decision* column is its effective budget in that run. Each decision "
        "also pays a fixed overhead (loading the seat's view from JSON, ~5–15 ms), which is why s/decision exceeds "
        "the time per move slightly, equally for both sides.",
        "- Our bot: `burano_ai.engine.suggest` with default `Params` (c = 0.7, reward = 0.7 win share + 0.3 "
        "squashed VP margin, the native tree, heuristic playouts in C), one process. The other search bots "
        "play out uniformly at random (OpenSpiel's and mcts-pkg's standard), in our C core unless noted: the "
        "heuristic playout is part of our engine. OpenSpiel's bot: `ISMCTSBot` unchanged (UCT, "
        "c = 0.7, max-visit final policy, unlimited world samples) with a wall-clock loop around its "
        "simulations, our resampler and, unless `evaluator=random`, playouts in the compiled core "
        "(`NativeRolloutEvaluator`); its reward is the win share (the game's returns). mcts-pkg: one "
        "determinization per decision, our reward, native playouts (see `burano_ai/bots/mcts_pkg.py` for its "
        "known weaknesses).",
        "- Greedy: one move ahead with a fixed heuristic (VP + (coins + privilege)/5 + cards + 0.3 per prep cube "
        "+ 0.4 per worker off the ring), chance resolved by 3 sampled completions.", ""]
    tp = out_dir / "throughput.json"
    lines += ["## Iterations per second, same positions, side by side", ""]
    if tp.exists():
        data = json.loads(tp.read_text())
        e = data["experiment"]
        lines += [f"{e['positions']} turn-start positions per player count from one greedy self-play game "
                  f"(seeds {e['seed']}+players), each searched for {e['seconds_per_search']} s by each algorithm "
                  "(one process, one run; an iteration = one simulation from the root to a playout's end). "
                  "Command: `python scripts/strength.py --only throughput`.", "",
                  "| players | algorithm | spec | iterations/s (mean) | min | max |", "|---|---|---|---:|---:|---:|"]
        for r in data["rows"]:
            lines.append(f"| {r['players']} | {r['algorithm']} | `{r['spec']}` | {r['iterations_per_second']:.0f} | "
                         f"{r['min']:.0f} | {r['max']:.0f} |")
        lines += throughput_ratios(data["rows"])
        lines += ["", "Reading the ratios: OpenSpiel's `ISMCTSBot` as shipped evaluates leaves with its "
                  "`RandomRolloutEvaluator`, which plays every playout action through the pyspiel API; that is "
                  "the first row. Lending it our C playouts (`NativeRolloutEvaluator`, rows two and three) leaves "
                  "its Python tree against our C tree, with the same playout cost on both sides. In 4-player "
                  "games a uniform C playout from a turn start costs about as much as our whole iteration (the "
                  "native tree runs within noise of bare playouts: docs/benchmarks.md), so the ratio there is "
                  "bounded by OpenSpiel's time per iteration over the playout's (≈ 1,000 µs / ≈ 180 µs); only "
                  "faster playouts, not a faster tree, could move it."]
        lines.append("")
    else:
        lines += ["_Not run yet._", ""]
    for name in ORDER[1:]:
        desc = EXPERIMENTS[name][0]
        lines += [f"## {desc}", ""]
        if name not in results:
            lines += ["_Not run in this session._", "", "Command: `python scripts/strength.py --only " + name + "` or `"
                      + arena_command({**EXPERIMENTS[name][1], "seed": SEED, "workers": 2}, f"{name}.json") + "`", ""]
            continue
        d = results[name]
        cfg = d["config"]
        contended = out_dir / f"{name}.contended.json"
        if contended.exists():
            c = json.loads(contended.read_text())
            parts = [f"`{e['spec']}` {e['win_rate']:.2f} ({fmt_ci(e['win_rate_ci95'])}), "
                     f"{e['iterations'] / max(1, e['decisions']):.0f} iterations/decision" for e in c["entries"]]
            lines += [f"An earlier run of this experiment shared the CPU with test runs (effective budgets far below "
                      f"normal) and was repeated alone; it gave: {'; '.join(parts)} "
                      f"(`{contended.name}`).", ""]
        lines += [f"Command: `python scripts/strength.py --only {name}`, or `{d['experiment']['command']}`", "",
                  f"{d['games_played']} games = {d['deals']} deals × {len(d['seatings'])} seatings, seed {cfg['seed']}, "
                  f"{'time per move ' + str(cfg['time_per_move']) + ' s' if cfg['time_per_move'] else 'budgets as in the specs'}, "
                  f"{d['elapsed']:.0f} s wall clock on {cfg['workers']} worker processes.", "",
                  "| bot | seats | win rate | 95% CI | mean VP | mean rank | rating | 95% CI | s/decision | "
                  "iterations/decision |",
                  "|---|---:|---:|---|---:|---:|---:|---|---:|---:|"]
        for e in sorted(d["entries"], key=lambda x: -x["rating"]):
            per = e["iterations"] / e["decisions"] if e["decisions"] else 0
            lines.append(f"| `{e['spec']}` | {e['seats_played']} | {e['win_rate']:.3f} | {fmt_ci(e['win_rate_ci95'])} | "
                         f"{e['mean_vp']:.1f} | {e['mean_rank']:.2f} | {e['rating']:+.0f} | "
                         f"{e['rating_ci95'][0]:+.0f}..{e['rating_ci95'][1]:+.0f} | {e['seconds_per_decision']:.3f} | "
                         f"{per:.0f} |")
        seat = ", ".join(f"{'ABCD'[i]} {r:.2f}" for i, r in enumerate(d["seat_win_rate"]))
        lines += ["", f"Win rate by seat: {seat}. Win rate if all were equal: {1 / cfg['players']:.2f}.", ""]
    # The issue-11 evidence (suite, SPRT, ladder, time odds) is written by hand below KEEP_MARKER: keep it.
    old = doc.read_text(encoding="utf-8") if doc.exists() else ""
    kept = old[old.index(KEEP_MARKER):] if KEEP_MARKER in old else ""
    doc.write_text("\n".join(lines) + ("\n" + kept if kept else ""), encoding="utf-8")
    print(f"wrote {doc}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="a tenth of the games (a smoke run)")
    ap.add_argument("--only", default="", help="comma-separated experiments: " + ", ".join(ORDER))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out-dir", default=str(ROOT / "build" / "strength"))
    ap.add_argument("--doc", default=str(ROOT / "docs" / "strength.md"))
    ap.add_argument("--report-only", action="store_true")
    args = ap.parse_args()
    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    names = [n.strip() for n in args.only.split(",") if n.strip()] or ORDER
    for n in names:
        if n not in ORDER:
            ap.error(f"unknown experiment {n!r} (known: {', '.join(ORDER)})")
    if not args.report_only:
        scale = 0.1 if args.quick else 1.0
        for name in names:
            if name == "throughput":
                throughput(out_dir, seconds=1.0, count=5)
            else:
                run_experiment(name, out_dir, args.workers, scale)
    report(out_dir, Path(args.doc), ["--quick"] if args.quick else [])


if __name__ == "__main__":
    main()
