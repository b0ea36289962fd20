"""Goofspiel (Merrill Flood, 1950s; 2-5 players here): the second registered game, small and public.

Each seat holds the bid cards 1..N; each round a prize card is revealed, every seat bids one card in
secret, and the single highest bid takes the prize's points (a tied highest bid: nobody does). It is
the engine's proof of being multi-game: secret simultaneous moves like Burano's pyramids, chance
prize reveals, and an outside oracle (OpenSpiel's `goofspiel`, checked game for game in
tests/games/goofspiel/test_rules.py).

Modules, in dependency order: `rules` (the parameters, action ids and texts, Zobrist cells, the
seeded generator shared with the compiled core), `position` (the fields of a position and the
`goofspiel-position/1` JSON, validated), `reference` (the readable rules: Game and State), `render`
(plain text), `spec` (the registry entry). The compiled core is `burano_ai.games.goofspiel._core`
(src_cython/burano_ai/games/goofspiel/), held against `reference` move for move.
"""
