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

from .board_helpers import (board_renderer, check_everything_received, check_the_honest_check_fails,
                            click_first_decisions, click_through)
from .conftest import screenshot
from .test_web_browser import _server_game, open_game

ROOT = Path(__file__).resolve().parents[2]
FORMAT = "azul-sintra-position/1"
BOARD = "AzulSintraBoard"


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
    state = open_game(page, f"{live_server}/?kind=azul-sintra&players=2&seed=6&seats=human,greedy", record=True)
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
    """The check above can fail: a position the game has not reached (the bag draws to the end), a view
    of another seat, a false mark."""
    check_the_honest_check_fails("azul-sintra", FORMAT, [["centre"], "", "PPPP"])



def test_a_position_with_its_own_data_is_drawn_from_it(live_server, page):
    """A corrected data file (not marked placeholder, other window values): no caption, its values drawn;
    the built-in data: the caption."""
    from burano_ai.games import get_spec
    state = get_spec("azul-sintra").new_game(2).new_initial_state()
    view = state.to_dict(0)
    data = json.loads((ROOT / "burano_ai/games/azul_sintra/data/placeholder.json").read_text())
    data["placeholder"] = False
    data["window_values"]["value"] = [9, 8, 7, 6, 5, 5, 3, 2]
    draw = board_renderer(page, live_server, "azul-sintra", BOARD)
    drawn = draw(dict(view, data=data))
    assert "PLACEHOLDER" not in drawn and "9 pt" in drawn and "1 pt" not in drawn
    drawn = draw(view)
    assert "PLACEHOLDER DATA" in drawn and "1 pt" in drawn and "9 pt" not in drawn


def test_three_and_four_players_fit_at_1280_by_800(live_server, page):
    """7 and 9 factory displays and 3-4 palace boards: no text below 12 px, no block drawn over another,
    every legal move of the first decisions has its clickable element; a few moves clicked."""
    for players in (3, 4):
        seats = ",".join(["human"] + ["greedy"] * (players - 1))
        open_game(page, f"{live_server}/?kind=azul-sintra&players={players}&seed=2&seats={seats}")
        assert page.locator('#board [data-key^="fac:"]').count() == 2 * players + 1
        assert page.locator('#board [data-block^="seat-"]').count() == players
        click_first_decisions(page, BOARD, random.Random(players), 3, players)
        screenshot(page, f"azul-board-{players}p")
