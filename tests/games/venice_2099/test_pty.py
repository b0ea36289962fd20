"""A whole 2-player game of Venice 2099 typed by a person in a real 80 x 24 pseudo-terminal
(`burano play --game venice-2099`) against the greedy bot (tests/pty_helpers.py: the shared skeleton).

At every prompt seat A's line (with its own hand) is visible and seat B's hand is not; the game ends with
the final scoring by category.
"""

from __future__ import annotations

from pty_helpers import play_a_whole_game_in_a_terminal


def _shows_a_s_hand_only(rows: list[str], where: str) -> None:
    assert any(row[1:3] == "A " and " hand " in row and "cards)" not in row for row in rows), where
    assert any(row[1:3] == "B " and row.rstrip().endswith("cards)") for row in rows), where


def test_a_whole_venice_2099_game_in_an_80_by_24_terminal(tmp_path):
    plain = play_a_whole_game_in_a_terminal(tmp_path, "venice-2099", 9, _shows_a_s_hand_only)
    assert "treasures" in plain and "X districts" in plain and "tie-break" in plain
