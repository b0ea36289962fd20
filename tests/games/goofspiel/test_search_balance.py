"""Equal searches on both seats of Goofspiel win about equally (a regression test).

The second bidder's search resampled the first bidder's hidden bid uniformly from its hand, while the
first bidder's search sampled the second's secret bid by the game's prior (near the prize): the second
seat searched against a random bidder and won 10 % of 40 games between equal searches (A 0.900, B 0.100).
Both now sample by the prior."""

from __future__ import annotations

from burano_ai.arena import ArenaConfig, run_arena


def test_equal_searches_win_about_equally_from_either_seat():
    result = run_arena(ArenaConfig(bots=("ismcts:iterations=500,threads=1", "ismcts:iterations=500,threads=1,c=0.71"),
                                   players=2, games=40, seed=5, game="goofspiel", bootstrap=0))
    seat_a, seat_b = result.seat_win_rate
    assert 0.3 <= seat_b <= 0.7, result.seat_win_rate
