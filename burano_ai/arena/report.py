"""Tournament results: `ArenaResult` and its outputs (the results JSON described by `RESULTS_SCHEMA`, one CSV
row per seat per game, a plain-text table with the SPRT's outcome when one ran, the skill-ladder plot
`plot_ladder`).
"""

from __future__ import annotations

import csv
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from burano_ai import __version__
from burano_ai.bots import BotSpec, parse_bot_spec
from burano_ai.core.errors import OptionError
from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games import DEFAULT_GAME, get_spec
from burano_ai.arena.plan import ArenaConfig, Plan
from burano_ai.arena.stats import head_to_head

SCHEMA = "burano-arena-results"
SCHEMA_VERSION = 1

#: The results JSON, key -> meaning (types in brackets). Version 1.
RESULTS_SCHEMA: dict[str, str] = {
    "schema": "[str] always 'burano-arena-results'",
    "version": "[int] schema version (1)",
    "burano_ai_version": "[str] package version that produced the file",
    "config": "[object] bots [list of str, as given], players [int], games [int, as asked], seed [int], "
              "time_per_move [float|null], workers [int], backend [str], seating [str], bootstrap [int], "
              "sprt [object|null: elo0, elo1, alpha, beta], gauntlet [bool], engine [str: module.qualname of the Game "
              "class], game [str: the game's registry key; absent for burano, whose results predate it], "
              "options [object: the game's options besides the player count, name -> value; absent when none]",
    "pairing": "[str] lineup (at most one bot per seat), round-robin (more bots than seats: every combination "
               "of players-many bots) or gauntlet (the first bot against every combination of the others)",
    "lineup": "[list of int] entry index of each seat before seating permutations (the first lineup)",
    "lineups": "[list of list of int] every lineup played (one, or the combinations of a round robin or "
               "gauntlet)",
    "seatings": "[list of list of int] entry index per seat for each game of a deal",
    "deals": "[int] deals played",
    "games_played": "[int] deals * len(seatings)",
    "elapsed": "[float] wall-clock seconds of the whole run",
    "entries": "[list of object] one per distinct bot spec: index [int], spec [str, canonical], "
               "seats_played [int], win_share [float, summed], win_rate [float], win_rate_ci95 "
               "[[float, float]], wins [int, outright or shared], mean_<score> [float], sd_<score> [float] (<score>: "
               "the game's score name, vp for Burano), "
               "mean_rank [float], mean_margin [float], decisions [int], forced [int], think_seconds "
               "[float], seconds_per_decision [float], iterations [int], iterations_per_second [float], "
               "rating [float, Elo scale, mean 0], rating_ci95 [[float, float]]",
    "seat_win_rate": "[list of float] mean win share of each seat (seat order effect)",
    "head_to_head": "[object] score [list of list of float|null: score[i][j] = share of meetings in which entry i "
                    "finished ahead of entry j, a tie counting a half; null where they never met], meetings "
                    "[list of list of int: seat pairs of a game holding both]",
    "rating": "[object] method [str], scale [str], prior [str], bootstrap [int], bootstrap_unit [str]",
    "games": "[list of object] index, deal [int], seating [list of int: entry per seat], deal_seed, "
             "chance_seed [int], bot_seeds [list of int], scores [list of int], ranks [list of float], "
             "returns [list of float], winners [list of int], decisions, forced [list of int], "
             "think_seconds [list of float], iterations [list of int], seconds [float], length [int], "
             "tiebreak [list of the game's finishing keys (State.finishing_key; Burano: [vp, prep cubes, coins])], "
             "record [str, only with --records: the file name of "
             "the game's record (burano-game/1) in the records directory]",
    "notes": "[list of str] remarks (games rounded up to whole deals, time budgets not reproducible, the SPRT's "
             "stop)",
    "sprt": "[object|null] with --sprt (burano_ai.arena.sprt; bot A = entry 0): params [object: elo0, elo1, "
            "alpha, beta, model 'logistic'], bounds [[float, float]: ln(beta/(1-alpha)), ln((1-beta)/alpha)], "
            "pairs [int], pentanomial [list of 5 int: pairs scoring 0, 0.5, 1, 1.5, 2 for A], "
            "pentanomial_pair_scores [list of str], llr [float], verdict [str: H0, H1 or inconclusive], "
            "stopped_at [object|null: pairs, llr, pentanomial when a bound was crossed], score [float: A's mean "
            "score per game], pair_variance [float], elo [float|null: logistic Elo of A over B, null if "
            "infinite], elo_ci95 [[float|null, float|null]]",
}



@dataclass
class ArenaResult:
    """A finished tournament: the config, the plan, per-entry statistics and every game's record."""

    config: ArenaConfig
    plan: Plan
    engine: str
    entries: list[dict[str, Any]]
    seat_win_rate: list[float]
    games: list[dict[str, Any]]
    elapsed: float
    notes: list[str] = field(default_factory=list)
    sprt: dict[str, Any] | None = None

    @property
    def score_name(self) -> str:
        """The game's score column ("vp": Burano's victory points)."""
        return get_spec(self.config.game).score_name

    def to_dict(self) -> dict[str, Any]:
        """The results JSON (see `RESULTS_SCHEMA`)."""
        cfg = asdict(self.config)
        cfg["bots"] = list(self.config.bots)
        cfg["engine"] = self.engine
        if cfg["game"] == DEFAULT_GAME:     # Burano's results stay as they were before other games
            del cfg["game"]
        if not cfg["options"]:              # as they were before games had options
            del cfg["options"]
        else:
            cfg["options"] = dict(cfg["options"])
        return {
            "schema": SCHEMA, "version": SCHEMA_VERSION, "burano_ai_version": __version__,
            "config": cfg, "pairing": self.plan.pairing, "lineup": list(self.plan.lineup),
            "lineups": [list(x) for x in (self.plan.lineups or (self.plan.lineup,))],
            "seatings": [list(s) for s in self.plan.seatings],
            "deals": self.plan.deals, "games_played": len(self.games), "elapsed": round(self.elapsed, 3),
            "entries": self.entries, "seat_win_rate": self.seat_win_rate,
            "head_to_head": dict(zip(("score", "meetings"), head_to_head(self.games, len(self.plan.entries)))),
            "rating": {"method": "plackett-luce (MM, Hunter 2004)", "scale": "elo: 400*log10(strength), mean 0",
                       "prior": "1 virtual win + 1 virtual loss vs a strength-1 reference per entry",
                       "bootstrap": self.config.bootstrap, "bootstrap_unit": "deal"},
            "games": self.games, "notes": self.notes, "sprt": self.sprt,
        }

    def write_json(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.to_dict(), f, indent=1)
            f.write("\n")

    def write_csv(self, path: str) -> None:
        """One row per seat per game."""
        with open(path, "w", encoding="utf-8", newline="") as f:
            w = csv.writer(f)
            w.writerow(["game", "deal", "seat", "entry", "spec", self.score_name, "rank", "win_share", "winner",
                        "decisions", "forced", "think_seconds", "iterations", "deal_seed", "chance_seed", "bot_seed"])
            for rec in self.games:
                for seat, e in enumerate(rec["seating"]):
                    w.writerow([rec["index"], rec["deal"], seat, e, self.plan.entries[e], rec["scores"][seat],
                                rec["ranks"][seat], rec["returns"][seat], int(seat in rec["winners"]),
                                rec["decisions"][seat], rec["forced"][seat], rec["think_seconds"][seat],
                                rec["iterations"][seat], rec["deal_seed"], rec["chance_seed"], rec["bot_seeds"][seat]])

    def table_rows(self) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
        headers = ("bot", "seats", "win rate", "95% CI", f"mean {self.score_name.upper()}", "mean rank", "rating",
                   "rating 95% CI", "s/decision")
        rows = []
        for e in sorted(self.entries, key=lambda x: -x["rating"]):
            lo, hi = e["win_rate_ci95"]
            rlo, rhi = e["rating_ci95"]
            rows.append((e["spec"], str(e["seats_played"]), f"{e['win_rate']:.3f}", f"{lo:.3f}-{hi:.3f}",
                         f"{e['mean_' + self.score_name]:.1f}", f"{e['mean_rank']:.2f}", f"{e['rating']:+.0f}",
                         f"{rlo:+.0f}..{rhi:+.0f}", f"{e['seconds_per_decision']:.3f}"))
        return headers, rows

    def table(self) -> str:
        """A plain-text results table."""
        headers, rows = self.table_rows()
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
        lines = [f"{len(self.games)} games ({self.plan.deals} deals x {len(self.plan.seatings)} seatings), "
                 f"{self.config.players} players, seed {self.config.seed}, {self.elapsed:.1f} s"]
        if self.plan.pairing != "lineup":
            lines.append(f"{self.plan.pairing}: {len(self.plan.lineups)} lineups of {len(self.plan.entries)} bots")
        for row in [headers] + rows:
            lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
        lines.append("seat win rate: " + ", ".join(f"{SEAT_LETTERS[i]} {r:.3f}" for i, r in enumerate(self.seat_win_rate)))
        if len(self.plan.entries) > 2:
            lines += self.head_to_head_lines()
        if self.sprt is not None:
            lines += sprt_lines(self.sprt, self.plan.entries)
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)

    def head_to_head_lines(self) -> list[str]:
        """The pairwise table: the row bot's score against the column bot (finished ahead = 1, a tie 1/2)."""
        score, meetings = head_to_head(self.games, len(self.plan.entries))
        names = [f"{i + 1}. {spec}" for i, spec in enumerate(self.plan.entries)]
        width = max(len(n) for n in names)
        lines = ["head to head (row's score against column: finished ahead 1, tie 1/2; meetings in brackets)",
                 " " * width + "  " + "  ".join(f"{j + 1:>10}" for j in range(len(names)))]
        for i, name in enumerate(names):
            cells = ["-" if score[i][j] is None else f"{score[i][j]:.2f} ({meetings[i][j]})"
                     for j in range(len(names))]
            lines.append(f"{name:<{width}}  " + "  ".join(f"{c:>10}" for c in cells))
        return lines

    def plot(self, path: str) -> None:
        """Win rate (95 % CI) against search budget per bot family: the skill ladder (needs matplotlib)."""
        plot_ladder(self, path)


def sprt_lines(sprt: dict[str, Any], entries: tuple[str, ...]) -> list[str]:
    """The SPRT section of the text report (`sprt`: the results JSON's ``sprt`` object)."""
    p = sprt["params"]
    lo, hi = sprt["bounds"]

    def elo(x: float | None, sign: int) -> str:
        return f"{x:+.1f}" if x is not None else ("+inf" if sign > 0 else "-inf")

    elo_lo, elo_hi = sprt["elo_ci95"]
    score = sprt["score"]      # an infinite Elo (null in JSON) takes its sign from the score
    lines = [f"SPRT ({p['model']} Elo) A = {entries[0]} vs B = {entries[1]}: elo0={p['elo0']:g} elo1={p['elo1']:g} "
             f"alpha={p['alpha']:g} beta={p['beta']:g}",
             (f"  pairs {sprt['pairs']}, pentanomial (A's pair score 0/0.5/1/1.5/2) "
              f"{' '.join(str(c) for c in sprt['pentanomial'])}, score {sprt['score']:.3f}" if "pentanomial" in sprt else
              f"  groups {sprt['pairs']} of {sprt['players']} games (A in every seat once), A's mean win share "
              f"{sprt['score']:.3f} (equal: {sprt['equal_score']:.3f})"),
             f"  LLR {sprt['llr']:+.2f} (bounds {lo:+.2f}, {hi:+.2f}), Elo {elo(sprt['elo'], 1 if score >= 0.5 else -1)} "
             f"(95% CI {elo(elo_lo, 1 if score >= 1 else -1)} .. {elo(elo_hi, -1 if score <= 0 else 1)}): "
             f"{sprt['verdict']}"]
    if sprt["stopped_at"] is not None:
        lines.append(f"  stopped at pair {sprt['stopped_at']['pairs']} with LLR {sprt['stopped_at']['llr']:+.2f}")
    return lines


def _family(spec: str) -> str:
    b = parse_bot_spec(spec)
    rest = {k: v for k, v in b.options.items() if k not in ("iterations", "time")}
    return BotSpec(b.name, rest).canonical()


def plot_ladder(result: ArenaResult, path: str) -> None:
    """Write the ladder plot: win rate vs budget (log x) per bot family; bots without a budget are
    horizontal lines; with no budgets at all, a bar chart."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise OptionError(f"--plot needs matplotlib: pip install 'burano-ai[plot]' ({exc})") from None
    fig, ax = plt.subplots(figsize=(7, 4.5))
    budgeted: dict[tuple[str, str], list[tuple[float, dict[str, Any]]]] = {}
    flat = []
    for e in result.entries:
        b = parse_bot_spec(e["spec"]).budget()
        if b is None:
            flat.append(e)
        else:
            budgeted.setdefault((_family(e["spec"]), b[0]), []).append((b[1], e))
    if budgeted:
        for (family, kind), points in sorted(budgeted.items()):
            points.sort(key=lambda p: p[0])
            xs = [p[0] for p in points]
            ys = [p[1]["win_rate"] for p in points]
            err = [[y - p[1]["win_rate_ci95"][0] for y, p in zip(ys, points)],
                   [p[1]["win_rate_ci95"][1] - y for y, p in zip(ys, points)]]
            ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=f"{family} ({kind})")
        for e in flat:
            ax.axhline(e["win_rate"], linestyle="--", linewidth=1, label=e["spec"], color="grey")
        ax.set_xscale("log")
        kinds = {k for _, k in budgeted}
        ax.set_xlabel("budget per decision (" + " / ".join(sorted("iterations" if k == "iterations" else "seconds"
                                                                  for k in kinds)) + ")")
    else:
        names = [e["spec"] for e in result.entries]
        ys = [e["win_rate"] for e in result.entries]
        err = [[y - e["win_rate_ci95"][0] for y, e in zip(ys, result.entries)],
               [e["win_rate_ci95"][1] - y for y, e in zip(ys, result.entries)]]
        ax.bar(range(len(names)), ys, yerr=err, capsize=4)
        ax.set_xticks(range(len(names)), names, rotation=20, ha="right")
    ax.axhline(1.0 / result.config.players, color="black", linewidth=0.5, linestyle=":")
    ax.set_ylabel("win rate (95% Wilson CI)")
    ax.set_ylim(0, 1)
    ax.set_title(f"{get_spec(result.config.game).title} arena: {result.config.players} players, "
                 f"{len(result.games)} games, seed {result.config.seed}")
    if budgeted:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)

