"""No page error in a whole clicked game of every game (Debian's Chromium via Playwright), hovering first.

Issue 34, item 2: hovering any board element threw `board is not a function` (the board's listeners in
`wire()` declared `const board`, which hid the `board()` function they call), so the promised outline of a
move's elements never appeared, on every game. Here seat A plays a whole game of every registered game
against random bots, on the game's own board (the generic one where it has none): at every decision the
mouse rests on the element of the move it will play, that move's elements are outlined (`.hl`), then it is
clicked. The page's errors (`pageerror`) and console errors are collected the whole time and must be none.
At the end the result is a table of the final scoring per seat and category (item 9).
"""

from __future__ import annotations

import random

import pytest

from burano_ai.games import all_specs

from .conftest import screenshot
from .test_web_browser import WAIT_FOR_TURN, _page_state

#: (game, players): each game at its default player count (Burano at 2, for time).
GAMES = [pytest.param(spec.key, 2 if spec.key == "burano" else spec.default_players, id=spec.key)
         for spec in all_specs()]

#: The elements of each move on the board drawn now (the page's own `board()` module).
TARGETS = """([ms]) => { const p = window.buranoPage();
  return ms.map(m => board().moveTargets(m, window.buranoState(), p.seat)); }"""


def collect_errors(page) -> list[str]:
    """The page's uncaught errors and console errors from now on, as they come."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on("console", lambda msg: errors.append(f"console.{msg.type}: {msg.text}") if msg.type == "error" else None)
    return errors


def _choose(rng: random.Random, legal: list[str]) -> str:
    """Quick games: a turn that may end mostly ends (Burano's `done`); otherwise a random move."""
    if "done" in legal and rng.random() < 0.7:
        return "done"
    return rng.choice([m for m in legal if m != "done"] or legal)


@pytest.mark.parametrize("game,players", GAMES)
def test_a_whole_clicked_game_hovering_every_move_has_no_page_error(live_server, page, game, players):
    errors = collect_errors(page)
    page.goto(f"{live_server}/?kind={game}&players={players}&seed=3&seats=human{',random' * (players - 1)}")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    rng = random.Random(1)
    state = _page_state(page)
    decisions = outlined = 0
    while not state["game"]["over"]:
        move = _choose(rng, state["legal"])
        keys = page.evaluate(TARGETS, [[move]])[0]
        element = page.locator(f'#board [data-key="{keys[0]}"].legal').first if keys else None
        if element is not None and element.count():
            element.hover()
            outlined += page.locator(f'#board [data-key="{keys[0]}"].hl').count() > 0
            element.click()
            if page.locator("#chooser:not([hidden])").count():
                page.locator(f'#chooser:not([hidden]) button[data-move="{move}"]').click()
        else:
            page.locator(f'#legal button[data-move="{move}"]').click()
        decisions += 1
        page.wait_for_function(WAIT_FOR_TURN, arg=[state["game"]["version"]])
        state = _page_state(page)
        assert not errors, f"{game}, decision {decisions}: {errors}"
    screenshot(page, f"console-{game}-over")
    assert page.locator("#result").inner_text().startswith("Game over")
    # the end as a table (issue 34, item 9: it was one line): a row per seat, the categories, the total
    assert page.locator("#result table.score-table tbody tr").count() == players
    headers = page.locator("#result table.score-table th").all_inner_texts()
    assert "seat" in headers and len(headers) >= 3, headers
    if game in ("azul-sintra", "walking-in-burano", "venice-2099"):     # a final scoring by category
        assert len(headers) >= 6, headers
    assert decisions >= 5 and outlined >= decisions // 2, (decisions, outlined)
    assert not errors, errors


BLOCKS = """() => { const board = document.querySelector('#board').getBoundingClientRect();
  return {board: [board.left, board.right],
          blocks: [...document.querySelectorAll('#board svg.board-block')].map(e => { const r = e.getBoundingClientRect();
            return [e.dataset.block, r.left, r.top, r.right, r.bottom]; })}; }"""


@pytest.mark.parametrize("width", [900, 1280, 1920])
@pytest.mark.parametrize("game,players", [("azul-sintra", 3), ("azul-sintra", 4), ("walking-in-burano", 3),
                                          ("venice-2099", 3), ("venice-2099", 5)])
def test_every_block_of_the_board_fits_the_window(live_server, page, game, players, width):
    """Issue 34, item 4: at 900 px a 3-player board was 924 px wide: Azul's status, caption and centre, and
    Walking in Burano's counts of characters left, were cut off at the window's edge, and Azul's palaces
    stood one a row beside ~370 empty pixels. Every block now lies within the board, and two of Azul's
    palaces share a row from 900 px."""
    errors = collect_errors(page)
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(f"{live_server}/?kind={game}&players={players}&seed=3&seats=human{',random' * (players - 1)}")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    report = page.evaluate(BLOCKS)
    left, right = report["board"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for name, x0, _y0, x1, _y1 in report["blocks"]:
        assert left - 0.5 <= x0 and x1 <= right + 0.5, (name, x0, x1, report["board"])
    if game == "azul-sintra":
        tops = [y0 for name, _x0, y0, _x1, _y1 in report["blocks"] if name.startswith("seat-")]
        assert len({round(y) for y in tops}) < len(tops), tops      # two palaces side by side somewhere
    screenshot(page, f"fits-{game}-{players}p-{width}")
    assert not errors, errors
