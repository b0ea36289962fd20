"""Azul: Stained Glass of Sintra in a real browser (Debian's Chromium via Playwright): a whole game
clicked through on the generic board against the greedy bot, every view the page received is seat A's
(perfect information: the full position with A's `view`), and the page names the game."""

from __future__ import annotations

import json
import random

from .board_helpers import views_in
from .conftest import screenshot
from .test_web_browser import RECORD_RESPONSES, WAIT_FOR_TURN, _click_generic, _page_state, _server_game


def test_a_whole_azul_game_clicked_through_on_the_generic_board(live_server, page):
    page.add_init_script(RECORD_RESPONSES)
    page.goto(f"{live_server}/?kind=azul-sintra&board=generic&players=2&seed=5&seats=human,greedy")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    state = _page_state(page)
    assert state["game"]["kind"] == "azul-sintra" and state["board"] == "generic"
    screenshot(page, "azul-start")
    rng = random.Random(2)
    clicks = 0
    while not state["game"]["over"]:
        view = page.evaluate("window.buranoState()")
        assert view["format"] == "azul-sintra-position/1" and view["view"] == "A"
        buttons = page.locator("#board button.gb-move").evaluate_all("bs => bs.map(b => b.dataset.move)")
        assert buttons == state["legal"]
        _click_generic(page, rng.choice(state["legal"]))
        clicks += 1
        page.wait_for_function(WAIT_FOR_TURN, arg=[state["game"]["version"]])
        state = _page_state(page)
    screenshot(page, "azul-over")
    assert page.locator("#result").inner_text().startswith("Game over")
    session = _server_game(live_server, state["game"]["id"]).session
    assert session.is_over() and clicks == sum(1 for step in session.record.steps if step.actor == "A") > 20
    views = [v for text in page.evaluate("window.__received") for v in views_in(json.loads(text), "azul-sintra-position/1")]
    assert views and all(v["view"] == "A" for v in views), "the page received a view that is not its seat's"
