"""Venice 2099 (Leo Colovini, Piatnik 2014; 2-5 players): buying treasures in a city that forecast cards sink.

Hidden hands and a hidden set-aside pile decide which districts survive; chance happens only at setup
(the 2-player colour removal, the tile layout, the deal). The rules are ../shared/rules/venice-2099.md
(cited by section and decision id VD-n).

Modules, in dependency order: `data` (every number, with its citation), `rules` (options, tiles and
cards, action ids and texts, Zobrist cells, the resampler's order), `position` (the fields of a
position and the `venice-2099-position/1` JSON, validated), `reference` (the readable rules: Game
and State, the executable specification), `render` (plain text).
"""
