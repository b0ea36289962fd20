"""The poker games in a real browser (Debian's Chromium via Playwright), issue 32: a whole hand clicked
through on the generic board against the random bot; every view the page received is seat A's and
shows B's card only once the showdown reveals it; the page tells values in chips, never VP or win shares."""

from __future__ import annotations

import json
import random
import re

import pytest

from .board_helpers import views_in
from .conftest import screenshot
from .test_web_browser import RECORD_RESPONSES, WAIT_FOR_TURN, _click_generic, _page_state, _server_game

NOT_CHIPS = re.compile(r"\bVP\b|win share|\bpoints?\b", re.IGNORECASE)


@pytest.mark.parametrize("kind,seed", [("kuhn-poker", 3), ("leduc-poker", 4)])
def test_a_whole_hand_clicked_through_on_the_generic_board(live_server, page, kind, seed):
    page.add_init_script(RECORD_RESPONSES)
    page.goto(f"{live_server}/?kind={kind}&players=2&seed={seed}&seats=human,random")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    state = _page_state(page)
    assert state["game"]["kind"] == kind and state["board"] == "generic"
    fmt = f"{kind}-position/1"
    rng = random.Random(seed)
    clicks = 0
    while not state["game"]["over"]:
        view = page.evaluate("window.buranoState()")
        assert view["format"] == fmt and view["view"] == "A" and view["info"]["cards"][1] == "?", view
        buttons = page.locator("#board button.gb-move").evaluate_all("bs => bs.map(b => b.dataset.move)")
        assert buttons == state["legal"]
        assert not NOT_CHIPS.search(page.locator("body").inner_text())
        _click_generic(page, rng.choice(state["legal"]))
        clicks += 1
        page.wait_for_function(WAIT_FOR_TURN, arg=[state["game"]["version"]])
        state = _page_state(page)
    screenshot(page, f"{kind}-over")
    result = page.locator("#result").inner_text()
    assert result.startswith("Game over") and "chip" in result, result
    assert not NOT_CHIPS.search(page.locator("body").inner_text()), page.locator("body").inner_text()
    session = _server_game(live_server, state["game"]["id"]).session
    assert session.is_over() and clicks == sum(1 for step in session.record.steps if step.actor == "A") >= 1
    secret = session.state.to_dict()["info"]["cards"][1]      # B's card
    shown = session.state.to_dict(0)["info"]["cards"][1] != "?"     # the showdown revealed it to A
    views = [v for text in page.evaluate("window.__received") for v in views_in(json.loads(text), fmt)]
    assert views and all(v["view"] == "A" for v in views), "the page received a view that is not its seat's"
    for v in views:
        if v["info"]["to_move"] != "over" or not shown:
            assert v["info"]["cards"][1] == "?" and secret not in v["history"][1], v
