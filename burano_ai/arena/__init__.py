"""Bot tournaments: duplicate deals with seat rotation, results with confidence intervals and ratings.

    from burano_ai.arena import ArenaConfig, run_arena
    result = run_arena(ArenaConfig(bots=("ismcts:iterations=500", "greedy"), players=2, games=20, seed=1))
    print(result.table())
    result.write_json("results.json")

Design
    **Lineup and seatings.** `bots` gives one spec per seat (a shorter list is repeated to fill the seats:
    ``A,B`` at 4 players is ``A,B,A,B``). Equal specs are one *entry* of the results (three
    ``openspiel-ismcts`` seats are one entry with three seats per game). A *deal* is played once per
    *seating*: with ``seating="all"`` every distinct permutation of the lineup over the seats, with
    ``"rotate"`` every distinct rotation; ``"auto"`` (default) takes all permutations when there are at
    most 6, else the rotations (four distinct bots at 4 players: 4 rotations instead of 24 permutations).
    ``games`` is rounded up to whole deals.

    **Round robin and gauntlet.** More bots than seats play a round robin: every combination of
    ``players`` of them is a lineup (in the order listed), and each lineup is played over its seatings as
    above (three bots at 2 players: A-B, B-A, A-C, C-A, B-C, C-B). With ``gauntlet`` the first bot plays
    every combination of ``players - 1`` of the others (the field) instead. Every game of a deal, whatever
    its lineup, starts from the same deal and chance stream. The bots of a round robin or gauntlet must be
    distinct; the statistics and the Plackett–Luce rating are per bot as always (a game's finishing order
    rates the bots that sat in it).

    **Records.** ``run_arena(..., records=DIR)`` (``burano arena --records DIR``) writes each game's record
    (`burano_ai.record.GameRecord`, burano-game/1: the bot specs as the seats' players, the deal's seed,
    every move and chance outcome, the result) as ``DIR/game-00000.json``, ... as the game ends; the game
    is played in whichever process the backend runs it and returns its steps. The results name each
    game's file under ``record``. A record replays to the same scores in both rules implementations.

    **Duplicate deals.** Every game of a deal uses the same setup seed and the same chance RNG stream (a
    fresh ``random.Random(chance_seed)``, drawn from in the order chance events occur), so every bot
    meets the same setup and, while play coincides, the same draws from every seat. The arena samples
    all chance outcomes; bots only decide. Forced moves (one legal action) are played by the arena
    without asking the bot.

    **Seeds.** Game ``g`` (deal ``d = g // seatings``) uses ``deal_seed = derive(seed, d, DEAL)``,
    ``chance_seed = derive(seed, d, CHANCE)`` and bot seeds ``derive(seed, g, seat, BOT)`` (31 bits):
    a game is a pure function of (config, g), so results do not depend on the number of workers or on
    the backend — except for bots with a ``time`` budget, whose searches depend on the machine.

    **Statistics per entry.** Win rate = mean win share (1/k for a k-way shared win) over the entry's
    seats, with a 95 % Wilson score interval on n = seats played (ties make it approximate); mean VP,
    mean rank (1 = best; tied seats share the mean of their places), mean VP margin (own VP minus the
    best other seat's).

    **Rating.** A Plackett–Luce model of each game's finishing order (by VP, then the rules' tie-breaks:
    prep cubes, coins; exact ties are ordered by seat) with one strength per entry shared by its seats,
    fitted by Hunter's MM iterations (Ann. Statist. 2004) with a weak prior (one virtual win and one
    virtual loss of each entry against a reference of strength 1, which keeps ratings finite for an
    entry that never loses). Reported on the Elo scale, ``400 * log10(strength)``, shifted so the
    entries' mean is 0; the 95 % interval is the 2.5-97.5 percentile range over `bootstrap` refits on
    deals resampled with replacement (whole deals, so the duplicate pairing is kept).

**Sequential test.** With ``sprt`` (two distinct bots, two players) the arena plays deals in order and
runs Wald's SPRT on the pentanomial of pair scores (`burano_ai.arena.sprt`: logistic Elo, the
generalized log-likelihood ratio of Fishtest and fastchess): no new deal starts once the log-likelihood
ratio crosses a bound, and ``games`` is the most the test may play (then the verdict is
"inconclusive").

Results JSON: see `RESULTS_SCHEMA` (``schema``/``version`` fields first); CSV: one row per seat per game.

Modules: `plan` (configuration and plan), `tournament` (tasks, one game, `run_arena`), `backends`
(local processes, Ray), `stats` (intervals, ratings, summary), `sprt` (the sequential test), `report` (`ArenaResult`: JSON, CSV,
table, plot). The order of finish is the game's (`State.finishing_key`: Burano's VP, then prep-area cubes, then coins);
the game is `ArenaConfig.game` (default Burano), reached only through `burano_ai.games.get_spec`.
"""

from burano_ai.arena.backends import Progress
from burano_ai.arena.plan import (
    AUTO_MAX_PERMUTATIONS,
    BACKENDS,
    SEATINGS,
    ArenaConfig,
    Plan,
    make_plan,
    seatings_of,
    split_bot_list,
)
from burano_ai.arena.report import RESULTS_SCHEMA, SCHEMA, SCHEMA_VERSION, ArenaResult, plot_ladder
from burano_ai.arena.sprt import SprtConfig, SprtTest, parse_sprt
from burano_ai.arena.stats import (
    elo_ratings,
    finishing_orders,
    plackett_luce,
    rate,
    summarise,
    wilson_interval,
)
from burano_ai.arena.tournament import GameTask, default_game_factory, game_tasks, play_game, run_arena

__all__ = ["AUTO_MAX_PERMUTATIONS", "BACKENDS", "RESULTS_SCHEMA", "SCHEMA", "SCHEMA_VERSION", "SEATINGS", "ArenaConfig",
           "ArenaResult", "GameTask", "Plan", "Progress", "SprtConfig", "SprtTest", "default_game_factory",
           "elo_ratings", "finishing_orders", "game_tasks", "make_plan", "parse_sprt", "plackett_luce", "play_game",
           "plot_ladder", "rate", "run_arena", "seatings_of", "split_bot_list", "summarise", "wilson_interval"]
