"""Burano's terminal board (burano_ai/games/burano/render.py): the compact layout fits 80 x 24, the full one
is unchanged, colours and seats are never spelled alike, and the styles are only styles.

The games here are random games of fixed seeds; every decision is rendered as the seat to move sees it.
The pty tests of `burano play` at 80 x 24 are in tests/test_play.py.
"""

from __future__ import annotations

import random
import re

import pytest

from burano_ai import Game
from burano_ai.games import get_spec
from burano_ai.games.burano.data.colours import COLOURS
from burano_ai.games.burano.render import (
    COLOUR_STYLES,
    COMPACT_ROWS,
    COMPACT_WIDTH,
    LEGEND,
    LETTERS,
    SEAT_STYLE,
    WIDE,
    render_lines,
    render_position,
    render_state,
)
from burano_ai.session import GameSession

#: Rows the compact board may take at 80 x 24: the rule naming the seat to move and the prompt take the
#: last two (burano play lists the moves in what is left, or says how many there are).
BOARD_ROWS = 22
assert COMPACT_ROWS == BOARD_ROWS


def decision_views(players: int, seed: int, every: int = 1):
    """(ply, view dict of the seat to move) at every `every`-th decision of a random game, and the final
    position as seat A sees it."""
    session = GameSession(players, seed, ["random"] * players)
    n = 0
    while not session.is_over():
        p = session.to_move()
        if p >= 0:
            if n % every == 0:
                yield session.ply, session.view(p)
            n += 1
        session.bot_move()
    yield session.ply, session.view(0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_compact_board_fits_80_columns_and_leaves_two_rows_of_24(players):
    checked = 0
    for seed in (1, 2):
        for ply, view in decision_views(players, seed, every=3):
            lines = render_position(view, COMPACT_WIDTH).rstrip("\n").split("\n")
            wide = [line for line in lines if len(line) > COMPACT_WIDTH]
            assert not wide, (players, seed, ply, wide)
            assert len(lines) <= BOARD_ROWS, (players, seed, ply, "\n".join(lines))
            checked += 1
    assert checked > 100


def test_a_long_entry_of_the_viewer_leaves_out_the_routes_heading():
    # 4 players, seed 10, random bots: C's entry (a pending fishing trip, three roof slots, three buildings,
    # a hand of known and blind cards) took 6 rows and the board 23 (found scanning random games, 12 seeds).
    session = GameSession(4, 10, ["random"] * 4)
    while session.ply < 587:
        session.bot_move()
    view = session.view(2)
    lines = render_position(view, 80).splitlines()
    assert len(lines) == BOARD_ROWS and "route  boats" not in "\n".join(lines)
    assert lines[1].startswith("9  ") and lines[1][31:].startswith("PortL")
    usual = render_position(session.view(0), 80)
    assert "route  boats   docks  workers" in usual


def test_the_layout_follows_the_width():
    view = Game(3).new_initial_state(7).to_dict(0)
    full = render_position(view)
    assert render_position(view, WIDE) == render_position(view, 200) == full
    assert "sailing route (a cycle" in full and LEGEND in full
    compact = render_position(view, WIDE - 1)
    assert compact == render_position(view, 80) == render_position(view, 60)   # 80 columns wide at most
    assert "sailing route" not in compact and "route  boats" in compact
    assert render_state(Game(3).new_initial_state(7), 0, 80) == compact


def test_the_full_layout_is_the_old_one_with_lower_case_colours():
    # The full layout's sections and widths did not move: seat blocks, the route, the workshop grid.
    view = Game(4).new_initial_state(3).to_dict(1)
    lines = render_position(view).splitlines()
    assert lines[0] == "Burano, 4 players | spring round 1 of 4 | first player A | view of seat B"
    assert any(line.startswith("  r0      ") for line in lines)
    assert [line[:9] for line in lines if re.match(r"[A-D] \(", line)] == \
        ["A (blue) ", "B (red)  ", "C (green)", "D (black)"]
    assert max(len(line) for line in lines) <= 120


def _view_after(players: int, seed: int, bot_moves: int, seat: int) -> dict:
    """Seat `seat`'s view after `bot_moves` random-bot moves of a seeded game of `players`."""
    session = GameSession(players, seed, ["random"] * players)
    for _ in range(bot_moves):
        session.bot_move()
    return session.view(seat)


def test_colours_are_lower_case_and_seats_capitals():
    view = _view_after(4, 2, 400, 0)
    for width in (None, 80):
        text = render_position(view, width)
        # island cells: a colour letter and the stack's height
        for name, stack in view["island"]["cubes"].items():
            assert LETTERS[stack[-1]] in "pbygow"
        island = 3 + 9 * (4 if width is None else 3)   # the grid's columns (the route is on its right)
        grid = [line[:island] for line in text.splitlines() if re.match(r"[1-9]  ", line)]
        assert len(grid) == 9
        assert not re.search(r"\b[PBYGOW][1-4]\b", "\n".join(grid))       # no capital cube letters
        assert re.search(r"\b[pbygow][1-4]\b", "\n".join(grid))
        # workshop squares: colour (lower-case), coin, occupant seat (capital) or "."
        shop = [line[:40 if width is None else 30] for line in text.splitlines() if re.match(r"\s*r[0-3] ", line)]
        assert len(shop) == 4
        cells = re.findall(r"([a-zA-Z])([$ ])([A-D.])", "".join(line.split(" ", 1)[1] for line in shop))
        assert cells and all(c.islower() and (who == "." or who.isupper()) for c, _, who in cells)
        occupants = {sq for seat in view["seats"] for sq in seat["workshop"]}
        assert sum(who != "." for _, _, who in cells) == len(occupants)


def test_the_styles_are_the_colours_and_the_text_is_the_plain_rendering():
    view = _view_after(3, 4, 150, 1)
    for width in (None, 80):
        lines = render_lines(view, width)
        assert "\n".join(line.text for line in lines) + "\n" == render_position(view, width)
        spec = get_spec("burano")
        assert [[t for t, _ in spans] for spans in spec.render_styled(view, width)] == \
            [[t for t, _ in line.spans] for line in lines]
        styled = [(t, s) for line in lines for t, s in line.spans if s]
        # every colour letter carries its colour's style, and a style is only ever a colour's or a seat's
        colours = {t: s for t, s in styled if s in COLOUR_STYLES.values() and len(t) == 1}
        assert colours and all(COLOUR_STYLES[COLOURS[list(LETTERS.values()).index(t)]] == s
                               for t, s in colours.items())
        assert {s for _, s in styled} <= set(COLOUR_STYLES.values()) | {SEAT_STYLE, "dim"}
        assert all(t.strip() in "ABC" for t, s in styled if s == SEAT_STYLE)


def test_a_seat_sees_only_its_own_details_in_the_compact_board():
    # The compact board details the viewer only; the others in one entry each (their boats are on the route).
    session = GameSession(3, 6, ["random"] * 3)
    for _ in range(120):
        session.bot_move()
    view = session.view(2)
    lines = render_position(view, 80).splitlines()
    heads = [line for line in lines if re.match(r"[A-D] \(", line)]
    assert len(heads) == 1 and heads[0].startswith("C (green)")
    others = [line for line in lines if re.match(r"[A-D]: VP", line)]
    assert len(others) == 1 and re.fullmatch(r"A: VP \d+ coins \d+ priv \d+ \| B: VP \d+ coins \d+ priv \d+",
                                             others[0])
    assert sum(bool(re.search(r"\bring [\[a-z]", line)) for line in lines) == 1   # its ring only


def test_goofspiel_fits_80_columns():
    spec = get_spec("goofspiel")
    rng = random.Random(2)
    widest = 0
    for players in range(spec.min_players, spec.max_players + 1):
        state = spec.new_game(players, num_cards=16, points_order="descending").new_initial_state(2)
        while True:
            for seat in [None, *range(players)]:
                text = spec.render(state.to_dict(seat), 80)
                widest = max(widest, *(len(line) for line in text.splitlines()))
            if state.is_terminal():
                break
            action = rng.choice([a for a, _ in state.chance_outcomes()]) if state.is_chance_node() \
                else rng.choice(state.legal_actions())
            state.apply_action(action)
    assert widest <= 80
