"""Leduc poker at the table, as people and programs use it (issue 32): a whole hand typed in a real
pseudo-terminal (`burano play`), one engine query through real pipes, `burano suggest` in chips, an
arena of two games with its records replayed (tests/poker_interfaces.py)."""

from __future__ import annotations

import poker_interfaces as P


def test_a_whole_hand_in_an_80_by_24_terminal(tmp_path):
    P.a_hand_in_a_terminal(tmp_path, "leduc-poker", seed=2)


def test_a_hint_at_the_table_tells_chips(tmp_path):
    P.hint_in_chips(tmp_path, "leduc-poker")


def test_one_engine_query_through_pipes():
    P.one_engine_query("leduc-poker", ["deal Ks", "?", "call", "call", "board Kh"])


def test_suggest_tells_chips(tmp_path):
    P.suggest_in_chips(tmp_path, "leduc-poker", ["deal Ks", "?", "call", "call", "board Kh"])


def test_an_arena_of_two_games_and_its_records_replayed(tmp_path):
    P.arena_and_replay(tmp_path, "leduc-poker")
