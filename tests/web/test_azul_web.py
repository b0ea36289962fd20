"""Azul: Stained Glass of Sintra's own SVG board (burano_ai/games/azul_sintra/web/board.js) in a real
browser (Debian's Chromium via Playwright, 1280 x 800).

A whole 2-player game against the greedy bot clicked through on the drawn board: at every decision each
legal move has its element on the board (a display's pieces, the glazier, a piece to keep), the move is
played by clicking that element (then the chooser when the element offers several moves); the
placeholder-data caption is on the board; no text is drawn below 12 px; the bot's moves are marked.
Then the hidden-information check over everything the page received: every position is seat A's view of
a position the game has already reached (nothing of the future bag draws), and every last-move mark's
value is the one in A's view after its step.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from .board_helpers import (SMALLEST_TEXT, check_blocks_apart, check_everything_received, check_honest,
                            click_move, click_through, move_targets)
from .conftest import screenshot
from .test_web_browser import RECORD_RESPONSES, WAIT_FOR_TURN, _page_state, _server_game

ROOT = Path(__file__).resolve().parents[2]
FORMAT = "azul-sintra-position/1"
BOARD = "AzulSintraBoard"


def _check_honest(payload, seat_views):
    check_honest(payload, seat_views, FORMAT)


def test_the_board_module_carries_the_placeholder_data_file():
    """board.js draws a position without its own data from a copy of the built-in file: the same values."""
    source = (ROOT / "burano_ai/games/azul_sintra/web/board.js").read_text()
    start = source.index("const DEFAULT_DATA = ") + len("const DEFAULT_DATA = ")
    body = source[start:source.index("};", start) + 1]
    as_json = re.sub(r",\s*}", "}", re.sub(r"(\w+):", r'"\1":', body.replace("\n", " ")))
    copy = json.loads(as_json)
    data = json.loads((ROOT / "burano_ai/games/azul_sintra/data/placeholder.json").read_text())
    for item in ("colours", "strips", "window_values", "ornaments", "track"):
        assert copy[item] == data[item]["value"], item
    assert copy["placeholder"] is data["placeholder"] is True


def test_a_whole_azul_game_clicked_through_on_its_board(live_server, page):
    page.add_init_script(RECORD_RESPONSES)
    page.goto(f"{live_server}/?kind=azul-sintra&players=2&seed=6&seats=human,greedy")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    state = _page_state(page)
    assert state["game"]["kind"] == "azul-sintra" and state["board"] == "azul-sintra"
    assert page.locator('#board [data-block="table"]').count() == 1
    assert page.locator('#board [data-block^="seat-"]').count() == 2
    caption = page.locator('#board [data-key="caption"]')
    assert caption.is_visible() and "PLACEHOLDER DATA" in caption.text_content()
    # each display's pieces are drawn in their colour (a group's rects after its box)
    wrong = page.evaluate("""() => { const v = window.buranoState(), bad = [];
      document.querySelectorAll('#board [data-key^="src:"]').forEach(g => {
        const want = AzulSintraBoard.pieceFill(v, g.dataset.key.split(':')[2]);
        [...g.querySelectorAll('rect')].slice(1).forEach(r => { if (r.getAttribute('fill') !== want) bad.push(g.dataset.key); });
      });
      return bad; }""")
    assert not wrong and page.locator('#board [data-key^="src:"]').count() >= 5, wrong
    screenshot(page, "azul-board-start")
    rng = random.Random(3)
    played = click_through(page, BOARD, FORMAT, rng.choice, 12, "azul-board")
    state, clicks = played.state, len(played.moves)
    kinds = {m.split()[0] if m.split()[0] in ("reset", "keep") else "draft" for m in played.moves}
    assert played.least_text >= 12, f"text drawn at {played.least_text:.1f} px"
    # the bot's moves since A's last decision are marked
    assert played.marked >= clicks // 2, (played.marked, clicks)
    assert "draft" in kinds and "keep" in kinds, kinds
    session = _server_game(live_server, state["game"]["id"]).session
    assert session.is_over() and clicks == sum(1 for step in session.record.steps if step.actor == "A") > 20

    # The record download goes through the page's fetch too, so it is checked with the rest.
    record = json.loads(page.evaluate("fetch(document.querySelector('#download').href).then(r => r.text())"))
    assert record["view"] == "A"
    views = check_everything_received(page, session, FORMAT)
    assert views > clicks


def test_the_honest_check_finds_a_leak():
    """The check above can fail: a position the game has not reached, a view of another seat, a false mark."""
    import pytest

    from burano_ai.session import GameSession
    session = GameSession(2, 6, ["human", "greedy"], game="azul-sintra")
    session.advance()   # up to A's first decision
    seat_views = [s.to_dict(0) for _ply, s in session.record.positions()]
    later = GameSession(2, 6, ["human", "greedy"], game="azul-sintra")
    later.advance()
    while not later.is_over():   # the game's end: bag draws the page must not see in advance
        later.play(0, later.legal_moves(0)[0])
        later.advance()
    _check_honest({"view": seat_views[-1]}, seat_views)
    with pytest.raises(AssertionError, match="never reached"):
        _check_honest({"view": later.view(0)}, seat_views)
    with pytest.raises(AssertionError, match="not its seat's"):
        _check_honest({"view": dict(seat_views[-1], view="B")}, seat_views)
    with pytest.raises(AssertionError, match="not in A's view"):
        _check_honest({"marks": {"first": 0, "steps": [[[["centre"], "", "PPPP"]]]}}, seat_views)


def test_a_position_with_its_own_data_is_drawn_from_it(live_server, page):
    """A corrected data file (not marked placeholder, other window values): no caption, its values drawn;
    the built-in data: the caption."""
    from burano_ai.games import get_spec
    state = get_spec("azul-sintra").new_game(2).new_initial_state()
    view = state.to_dict(0)
    data = json.loads((ROOT / "burano_ai/games/azul_sintra/data/placeholder.json").read_text())
    data["placeholder"] = False
    data["window_values"]["value"] = [9, 8, 7, 6, 5, 5, 3, 2]
    page.goto(f"{live_server}/?kind=azul-sintra&players=2&seed=1&seats=human,greedy")
    page.wait_for_function("window.AzulSintraBoard !== undefined")
    drawn = page.evaluate("([v]) => AzulSintraBoard.renderBoard(v, {seat: 0})", [dict(view, data=data)])
    assert "PLACEHOLDER" not in drawn and "9 pt" in drawn and "1 pt" not in drawn
    drawn = page.evaluate("([v]) => AzulSintraBoard.renderBoard(v, {seat: 0})", [view])
    assert "PLACEHOLDER DATA" in drawn and "1 pt" in drawn and "9 pt" not in drawn


def test_three_and_four_players_fit_at_1280_by_800(live_server, page):
    """7 and 9 factory displays and 3-4 palace boards: no text below 12 px, no block drawn over another,
    every legal move of the first decisions has its clickable element; a few moves clicked."""
    for players in (3, 4):
        seats = ",".join(["human"] + ["greedy"] * (players - 1))
        page.goto(f"{live_server}/?kind=azul-sintra&players={players}&seed=2&seats={seats}")
        page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
        assert page.locator('#board [data-key^="fac:"]').count() == 2 * players + 1
        assert page.locator('#board [data-block^="seat-"]').count() == players
        rng = random.Random(players)
        for _ in range(3):
            state = _page_state(page)
            if state["game"]["over"]:
                break
            assert page.evaluate(SMALLEST_TEXT) >= 12
            check_blocks_apart(page, players)
            for move, keys in zip(state["legal"], move_targets(page, BOARD, state["legal"])):
                assert page.locator(f'#board [data-key="{keys[0]}"].legal').count() >= 1, (players, move)
            click_move(page, BOARD, rng.choice(state["legal"]))
            page.wait_for_function(WAIT_FOR_TURN, arg=[state["game"]["version"]])
        screenshot(page, f"azul-board-{players}p")
