"""The position suite: fixed decisions with a stored long-search reference, and how a bot's short search
compares with it (issue 11, item 5: stability and regret).

    python scripts/suite.py generate                       # bench/suite/: positions/*.json + manifest.json
    python scripts/suite.py reference --time 60 --threads 2   # bench/suite/reference.json (long: ~40 min)
    python scripts/suite.py evaluate --bot ismcts --time 1 --seeds 5 --compare ismcts:preset=v0.1

**generate** plays seeded games (default: the default ``ismcts`` bot at 100 iterations per decision, the
arena's chance sampling) at 2, 3 and 4 players and keeps decisions chosen to cover the game: the pyramid,
turns (at a season's start, mid-season, in its last round, and mid-turn), fishing (sail, draw), port
trades, lace placements and clean-up (lace pay, replenish, privilege reserve, roof refill), spread over
the player counts. Only decisions with at least two legal moves are kept. Each position is the full
position JSON (``positions/<id>.json``); the search always runs from the deciding seat's one-seat view
(`burano_ai.engine.suggest` reduces a full position to it), so the stored hidden parts never leak into
a search. ``manifest.json`` lists id, file, players, seat, tags and why each was chosen. The same
``--seed``, ``--bot`` (with an iteration budget) and ``--count`` give the same suite.

**reference** runs one long search per position (`burano_ai.engine.suggest`, ``--time`` seconds, with
``--threads`` threads when the engine takes them, else as many root-parallel worker processes) and stores every
root candidate: move, visits, win probability, value, expected VP and margin, with the command, engine
version, date and settings. The reference's best move is its recommendation (the top candidate).

**evaluate** runs a bot (any ``ismcts`` spec string, e.g. ``ismcts:preset=v0.1``; ``--time`` is its
budget unless the spec has one) on every position with ``--seeds`` seeds and reports, per position and
overall:

- *stability*: the share of positions where every seed chose the same move (target >= 80 %); and, as a
  second reading, *equivalent stability*: the share where the seeds' moves all lie within
  EQUIVALENT_POINTS of each other in the reference's win probability (moves a player could not tell apart
  by their value: symmetric builds, two payments of the same worth);
- *regret*: the mean over positions and seeds of the reference win probability of the reference's best
  move minus that of the chosen move, in percentage points, floored at 0 per decision (a move the
  reference rates above its own choice on fewer visits costs nothing); a move the reference never tried
  counts with the lowest win probability among the reference's candidates (target <= 2 points).

``--compare SPEC2`` evaluates a second bot in the same run, position by position after the first. The
results JSON goes to ``--out`` (default build/suite/evaluate.json).
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from burano_ai import Game, __version__   # noqa: E402
from burano_ai.bots import make_bot, parse_bot_spec, with_time_per_move   # noqa: E402
from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games.burano.data.turn import SEASON_ROUNDS, SEASONS  # noqa: E402
from burano_ai.engine import load_position, suggest   # noqa: E402
from burano_ai.games.burano.enums import Phase, Stage  # noqa: E402
from burano_ai.core.errors import OptionError  # noqa: E402
from burano_ai.search.evaluators import sample_chance_cumulative   # noqa: E402
from burano_ai.search.limits import Limit   # noqa: E402
from burano_ai.search.params import Params   # noqa: E402
from burano_ai.core.seeds import derive  # noqa: E402

SUITE_DIR = ROOT / "bench" / "suite"
MANIFEST = "manifest.json"
REFERENCE = "reference.json"
STABILITY_TARGET = 0.80
REGRET_TARGET = 2.0     # percentage points

#: The decision kind of each phase (clean-up phases share one kind; the phase is a tag of its own).
KINDS = {
    Phase.PYRAMID: "pyramid", Phase.FISH_SAIL: "fishing-sail", Phase.FISH_SWAP: "fishing-swap",
    Phase.FISH_DRAW: "fishing-draw",
    Phase.FISH_SEND: "fishing-send", Phase.PORT_TRADE: "port", Phase.LACE_PLACE: "lace", Phase.RECALL: "recall",
    Phase.ROOF_BONUS: "roof-bonus", Phase.LACE_PAY: "clean-up", Phase.REPLENISH: "clean-up",
    Phase.PRIV_RESERVE: "clean-up", Phase.ROOF_DISCARD: "clean-up", Phase.ROOF_PICK: "clean-up",
}
#: What each player count's share of the suite covers, in this order (then again from the top): a
#: decision kind and, optionally, the accepted times in the season or phases.
_CLEAN_UP_OTHER = ("replenish", "privilege-reserve", "roof-discard", "roof-pick")
SLOTS: list[tuple[str, tuple[str, ...]]] = [
    ("turn-start", ("season-start",)), ("pyramid", ()), ("fishing-sail", ()), ("turn-start", ("mid-season",)),
    ("port", ()), ("lace", ()), ("turn-start", ("last-round",)), ("clean-up", ("lace-pay",)), ("fishing-draw", ()),
    ("turn-mid", ()), ("clean-up", _CLEAN_UP_OTHER), ("roof-bonus", ()),
]

def fail(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


def git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"], capture_output=True,
                             text=True, timeout=10)
    except OSError:
        return None
    return out.stdout.strip() or None


def provenance() -> dict[str, Any]:
    return {"command": " ".join(["python", "scripts/suite.py", *sys.argv[1:]]), "burano_ai_version": __version__,
            "git": git_commit(), "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}


def write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        fail(f"no such file: {path}")
    except json.JSONDecodeError as exc:
        fail(f"{path}: malformed JSON: {exc.msg} at line {exc.lineno}")


# ------------------------------------------------------------------------------------------------
# generate


def decision_kind(state) -> str:
    if state.phase == Phase.TURN:
        return "turn-start" if state.moves == 0 else "turn-mid"
    return KINDS[Phase(state.phase)]


def season_time(state) -> str:
    """season-start (setup, pyramid, round 1), mid-season, last-round, or season-end (clean-up)."""
    if state.stage in (Stage.SETUP, Stage.PYRAMID):
        return "season-start"
    if state.stage != Stage.ROUNDS:
        return "season-end"
    if state.round == 1:
        return "season-start"
    return "last-round" if state.round == SEASON_ROUNDS[state.season] else "mid-season"


def play_and_collect(players: int, seed: int, bot_spec: str) -> list[dict[str, Any]]:
    """Every decision with >= 2 legal moves of one seeded game, with its tags (the arena's chance sampling)."""
    state = Game(players).new_initial_state(derive(seed, players, 0xDEA1))
    bots = [make_bot(bot_spec, derive(seed, players, seat, 0xB07)) for seat in range(players)]
    rng = random.Random(derive(seed, players, 0xC4A5CE))
    found = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_cumulative(state, rng))
            continue
        legal = state.legal_actions()
        if len(legal) >= 2:
            found.append({"text": state.to_json(indent=1), "players": players, "seat": state.current_player(),
                          "kind": decision_kind(state), "phase": Phase(state.phase).label,
                          "time": season_time(state), "season": SEASONS[state.season], "round": state.round,
                          "legal": len(legal)})
        state.apply_action(legal[0] if len(legal) == 1 else bots[state.current_player()].step(state))
    return found


def choose(pool: list[dict[str, Any]], share: int, offset: int, rng: random.Random) -> list[dict[str, Any]]:
    """`share` decisions of one player count, slot by slot (`SLOTS`, starting at `offset`); within a slot,
    decisions with at least 3 legal moves first (they say more about a search than a binary choice)."""
    chosen: list[dict[str, Any]] = []
    taken: set[int] = set()
    i = 0
    while len(chosen) < share and len(taken) < len(pool):
        kind, qualifiers = SLOTS[(offset + i) % len(SLOTS)]
        i += 1
        options = [k for k, f in enumerate(pool) if k not in taken and f["kind"] == kind
                   and (not qualifiers or f["time"] in qualifiers or f["phase"] in qualifiers)]
        if not options:
            if i <= 4 * len(SLOTS):
                continue
            options = [k for k in range(len(pool)) if k not in taken]   # every slot exhausted: any decision
        rich = [k for k in options if pool[k]["legal"] >= 3]
        k = rng.choice(rich or options)
        taken.add(k)
        chosen.append(pool[k])
    return chosen

def generate(args: argparse.Namespace) -> None:
    out = Path(args.out)
    rng = random.Random(args.seed)
    entries = []
    counts = (2, 3, 4)
    for index, players in enumerate(counts):
        share = args.count // len(counts) + (1 if index < args.count % len(counts) else 0)
        pool: list[dict[str, Any]] = []
        for game in range(args.games):
            t0 = time.perf_counter()
            pool += play_and_collect(players, derive(args.seed, game), args.bot)
            print(f"{players} players, game {game + 1}/{args.games}: {len(pool)} decisions "
                  f"({time.perf_counter() - t0:.1f} s)", flush=True)
        for pos in choose(pool, share, index, rng):
            number = len(entries) + 1
            ident = f"p{number:02d}-{players}p-{pos['kind']}"
            file = f"positions/{ident}.json"
            write_json(out / file, json.loads(pos["text"]))
            tags = [f"{players}p", pos["kind"], pos["phase"], pos["time"]]
            entries.append({
                "id": ident, "file": file, "players": players, "seat": SEAT_LETTERS[pos["seat"]],
                "tags": list(dict.fromkeys(tags)),
                "why": f"{pos['kind']} decision ({pos['phase']}, {pos['legal']} legal moves) of seat "
                       f"{SEAT_LETTERS[pos['seat']]}, {pos['season']} round {pos['round']} "
                       f"({pos['time']}), {players} players",
            })
    write_json(out / MANIFEST, {"schema": "burano-suite", "version": 1, **provenance(), "seed": args.seed,
                                "bot": args.bot, "games_per_player_count": args.games, "positions": entries})
    kinds: dict[str, int] = {}
    for e in entries:
        kinds[e["tags"][1]] = kinds.get(e["tags"][1], 0) + 1
    print(f"{len(entries)} positions in {out}: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))


# ------------------------------------------------------------------------------------------------
# reference


def load_manifest(suite: Path) -> list[dict[str, Any]]:
    manifest = read_json(suite / MANIFEST)
    if not isinstance(manifest, dict) or not manifest.get("positions"):
        fail(f"{suite / MANIFEST}: no positions (run: python scripts/suite.py generate)")
    return manifest["positions"]


def load_state(suite: Path, entry: dict[str, Any]):
    state, _view = load_position(suite / entry["file"])
    return state


def reference(args: argparse.Namespace) -> None:
    suite = Path(args.suite)
    entries = load_manifest(suite)
    parallel = {"threads": args.threads}
    params = Params(root_exploration=args.root_c)
    settings = {"time": args.time, "seed": args.seed, **parallel, "params": params.to_dict(),
                "iterations": args.iterations}
    positions = {}
    for i, entry in enumerate(entries):
        state = load_state(suite, entry)
        limit = Limit(iterations=args.iterations, seconds=args.time)
        result = suggest(state, limit=limit, seed=args.seed, params=params, **parallel)
        positions[entry["id"]] = {
            "best": result.move, "iterations": result.iterations, "elapsed": round(result.elapsed, 3),
            "candidates": [{"move": c.move, "visits": c.visits, "win_prob": c.win_prob, "value": c.value,
                            "expected_vp": c.expected_vp, "expected_margin": c.expected_margin}
                           for c in result.candidates],
        }
        print(f"[{i + 1}/{len(entries)}] {entry['id']}: {result.move} ({result.iterations} iterations, "
              f"{result.best.win_prob:.1%} win)", flush=True)
    write_json(Path(args.out or suite / REFERENCE), {"schema": "burano-suite-reference", "version": 1,
                                                      **provenance(), "settings": settings, "positions": positions})


# ------------------------------------------------------------------------------------------------
# evaluate


#: Moves whose reference win probabilities differ by at most this many points count as the same answer
#: for *equivalent stability*.
EQUIVALENT_POINTS = 1.0


def equivalent(ref: dict[str, Any], moves: list[str]) -> bool:
    """True when the moves' reference win probabilities lie within EQUIVALENT_POINTS of each other."""
    rates = {c["move"]: c["win_prob"] for c in ref["candidates"]}
    chosen = [rates.get(m, min(rates.values())) for m in moves]
    return 100.0 * (max(chosen) - min(chosen)) <= EQUIVALENT_POINTS


def regret_points(ref: dict[str, Any], move: str) -> tuple[float, bool]:
    """(loss in reference win probability in points, whether the reference tried the move)."""
    rates = {c["move"]: c["win_prob"] for c in ref["candidates"]}
    best = rates[ref["best"]]
    tried = move in rates
    chosen = rates[move] if tried else min(rates.values())
    return 100.0 * max(0.0, best - chosen), tried


def evaluate_bot(spec: str, suite: Path, entries: list[dict[str, Any]], refs: dict[str, Any], seconds: float,
                 seeds: int) -> dict[str, Any]:
    bot_spec = with_time_per_move(parse_bot_spec(spec), seconds)
    rows = []
    for entry in entries:
        if entry["id"] not in refs:
            fail(f"position {entry['id']} has no reference analysis (run: python scripts/suite.py reference)")
        state = load_state(suite, entry)
        moves, iterations = [], []
        for seed in range(seeds):
            bot = make_bot(bot_spec, seed)
            moves.append(state.action_to_string(bot.step(state.clone())))
            iterations.append(bot.iterations)
        losses = [regret_points(refs[entry["id"]], m) for m in moves]
        rows.append({"id": entry["id"], "players": entry["players"], "tags": entry["tags"], "moves": moves,
                     "stable": len(set(moves)) == 1, "equivalent": equivalent(refs[entry["id"]], moves),
                     "regret": sum(r for r, _ in losses) / len(losses),
                     "untried": sum(1 for _, t in losses if not t), "reference_best": refs[entry["id"]]["best"],
                     "iterations": sum(iterations) / len(iterations)})
    stability = sum(r["stable"] for r in rows) / len(rows)
    regret = sum(r["regret"] for r in rows) / len(rows)
    return {"spec": bot_spec.canonical(), "stability": stability,
            "equivalent_stability": sum(r["equivalent"] for r in rows) / len(rows), "regret": regret,
            "stability_target_met": stability >= STABILITY_TARGET, "regret_target_met": regret <= REGRET_TARGET,
            "positions": rows}


def print_bot(result: dict[str, Any], seeds: int) -> None:
    print(f"\n{result['spec']}")
    print(f"{'position':<28} {'agree':>5} {'regret':>7} {'iter/dec':>9}  moves (reference best)")
    for r in result["positions"]:
        counts: dict[str, int] = {}
        for m in r["moves"]:
            counts[m] = counts.get(m, 0) + 1
        moves = ", ".join(f"{m} x{c}" if c > 1 else m for m, c in sorted(counts.items(), key=lambda x: -x[1]))
        print(f"{r['id']:<28} {max(counts.values())}/{seeds:<3} {r['regret']:7.2f} {r['iterations']:9.0f}  "
              f"{moves} ({r['reference_best']})")
    print(f"stability {result['stability']:.0%} (target >= {STABILITY_TARGET:.0%}: "
          f"{'met' if result['stability_target_met'] else 'missed'}; equivalent answers "
          f"{result['equivalent_stability']:.0%}), regret {result['regret']:.2f} points "
          f"(target <= {REGRET_TARGET:g}: {'met' if result['regret_target_met'] else 'missed'})")


def evaluate(args: argparse.Namespace) -> None:
    suite = Path(args.suite)
    entries = load_manifest(suite)
    ref = read_json(Path(args.reference or suite / REFERENCE))
    specs = [args.bot] + ([args.compare] if args.compare else [])
    bots = []
    for spec in specs:
        bots.append(evaluate_bot(spec, suite, entries, ref["positions"], args.time, args.seeds))
        print_bot(bots[-1], args.seeds)
    if len(bots) == 2:
        a, b = bots
        print(f"\n{'bot':<40} {'stability':>9} {'equivalent':>10} {'regret':>7}")
        for r in bots:
            print(f"{r['spec']:<40} {r['stability']:9.0%} {r['equivalent_stability']:10.0%} {r['regret']:7.2f}")
        same = sum(x["moves"] == y["moves"] for x, y in zip(a["positions"], b["positions"]))
        print(f"same moves on every seed: {same} of {len(entries)} positions")
    write_json(Path(args.out), {"schema": "burano-suite-evaluation", "version": 1, **provenance(),
                                "settings": {"time": args.time, "seeds": args.seeds},
                                "reference": {"settings": ref.get("settings"), "date": ref.get("date"),
                                              "git": ref.get("git")},
                                "targets": {"stability": STABILITY_TARGET, "regret_points": REGRET_TARGET},
                                "bots": bots})
    print(f"results: {args.out}")


# ------------------------------------------------------------------------------------------------


def positive(kind):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a {kind.__name__}: {text!r}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be > 0, not {text}")
        return value
    return parse


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate", help="play seeded games and store the suite's positions and manifest")
    g.add_argument("--out", default=str(SUITE_DIR), help="suite directory (default bench/suite)")
    g.add_argument("--count", type=positive(int), default=36, help="positions (default 36: 12 per player count)")
    g.add_argument("--games", type=positive(int), default=3, help="games per player count to choose from")
    g.add_argument("--bot", default="ismcts:iterations=100", help="bot spec playing the games")
    g.add_argument("--seed", type=int, default=2026)
    r = sub.add_parser("reference", help="a long search per position: bench/suite/reference.json")
    r.add_argument("--suite", default=str(SUITE_DIR))
    r.add_argument("--time", type=positive(float), default=60.0, help="seconds per position (default 60)")
    r.add_argument("--threads", type=positive(int), default=2, help="search threads sharing one tree")
    r.add_argument("--root-c", type=float, default=1.4,
                   help="UCB constant at the root (default 1.4: every candidate gets enough visits for "
                        "its value to be a reference)")
    r.add_argument("--iterations", type=positive(int), default=None, help="also stop at this many iterations")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--out", default=None, help="default: SUITE/reference.json")
    e = sub.add_parser("evaluate", help="stability and regret of a bot's short searches")
    e.add_argument("--suite", default=str(SUITE_DIR))
    e.add_argument("--reference", default=None, help="default: SUITE/reference.json")
    e.add_argument("--bot", default="ismcts", help="bot spec (default: the default ismcts)")
    e.add_argument("--compare", default=None, metavar="SPEC2", help="a second bot, in the same run")
    e.add_argument("--time", type=positive(float), default=1.0, help="seconds per decision (default 1)")
    e.add_argument("--seeds", type=positive(int), default=5)
    e.add_argument("--out", default=str(ROOT / "build" / "suite" / "evaluate.json"))
    args = parser.parse_args(argv)
    try:
        {"generate": generate, "reference": reference, "evaluate": evaluate}[args.command](args)
    except OptionError as exc:
        fail(str(exc))


if __name__ == "__main__":
    main()
