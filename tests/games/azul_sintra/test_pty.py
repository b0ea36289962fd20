"""A whole 2-player game of Azul: Stained Glass of Sintra typed by a person in a real 80 x 24 pseudo-terminal
(`burano play --game azul-sintra`) against the greedy bot (tests/pty_helpers.py: the shared skeleton).

At every prompt the board's heading names the placeholder data and seat A's lines are visible.
"""

from __future__ import annotations

from pty_helpers import play_a_whole_game_in_a_terminal


def _shows_the_board(rows: list[str], where: str) -> None:
    assert any("PLACEHOLDER DATA" in row for row in rows), where
    assert any(row.startswith("A: ") for row in rows), where


def test_a_whole_azul_game_in_an_80_by_24_terminal(tmp_path):
    play_a_whole_game_in_a_terminal(tmp_path, "azul-sintra", 9, _shows_the_board)
