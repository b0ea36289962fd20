"""Walking in Burano (Wei-Min Ling, 2018; 2-4 players): drafting floor cards into a street of houses.

A game of hidden information (a seat's hand and the cards it returned under the decks, spec §14) whose
chance is deck order. The rules are ../shared/rules/walking-in-burano.md (cited by section and decision
id WD-n). The 72 floor cards are lost pictures: the game plays the spec's **placeholder deck PD-1**
(`data/placeholder.json`, replaceable through the game's `data` option).

Modules, in dependency order: `data` (every number, with its citation; the card loader), `rules`
(phases, action ids and texts, Zobrist cells), `position` (the fields of a position and the
`walking-in-burano-position/1` JSON, validated, with one-seat views), `reference` (the readable rules:
Game and State, the executable specification), `render` (plain text).
"""
