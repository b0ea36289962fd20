"""Rules data for Burano: every number of the rules spec lives in this package and nowhere else.

One module per component family. The rules code (reference model and compiled core) reads these
constants; `burano_ai.games.burano.topology` validates the geometric ones and freezes them into tables.
"""
