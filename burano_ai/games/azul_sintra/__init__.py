"""Azul: Stained Glass of Sintra (Michael Kiesling, 2018; 2-4 players): drafting glass pieces onto strips.

A perfect-information game whose only unknown is chance (the bag draws at setup and at the five
refills). The rules are ../shared/rules/azul-sintra.md (cited by section and decision id AD-n).
Some component data is lost with the rulebook's pictures and stands in as **placeholder data**
(`data/placeholder.json`, replaceable through the game's `data` option).

Modules, in dependency order: `data` (every number, with its citation; the placeholder loader),
`rules` (colours, action ids and texts, Zobrist cells), `position` (the fields of a position and the
`azul-sintra-position/1` JSON, validated), `reference` (the readable rules: Game and State, the
executable specification), `render` (plain text).
"""
