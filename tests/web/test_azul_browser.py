"""Azul: Stained Glass of Sintra in a real browser (Debian's Chromium via Playwright): a whole game
clicked through on the generic board against the greedy bot, every view the page received is seat A's
(perfect information: the full position with A's `view`), and the page names the game."""

from __future__ import annotations

import json
import random

from .conftest import screenshot
from .test_web_browser import _server_game, click_through_generic, open_game, views_in


def test_a_whole_azul_game_clicked_through_on_the_generic_board(live_server, page):
    state = open_game(page, f"{live_server}/?kind=azul-sintra&board=generic&players=2&seed=5&seats=human,greedy",
                      record=True)
    assert state["game"]["kind"] == "azul-sintra" and state["board"] == "generic"
    screenshot(page, "azul-start")
    rng = random.Random(2)
    state, clicks = click_through_generic(page, "azul-sintra-position/1", lambda _view, legal: rng.choice(legal))
    screenshot(page, "azul-over")
    assert page.locator("#result").inner_text().startswith("Game over")
    session = _server_game(live_server, state["game"]["id"]).session
    assert session.is_over() and clicks == sum(1 for step in session.record.steps if step.actor == "A") > 20
    views = [v for text in page.evaluate("window.__received") for v in views_in(json.loads(text), "azul-sintra-position/1")]
    assert views and all(v["view"] == "A" for v in views), "the page received a view that is not its seat's"
