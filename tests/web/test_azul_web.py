"""Azul: Stained Glass of Sintra's own SVG board (burano_ai/web/static/games/azul-sintra/board.js) in a real
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

from .conftest import screenshot
from .test_web_browser import RECORD_RESPONSES, WAIT_FOR_TURN, _page_state, _server_game, _value_at

ROOT = Path(__file__).resolve().parents[2]
FORMAT = "azul-sintra-position/1"

#: The smallest text on the board in CSS pixels (its font size times the block's scale).
SMALLEST_TEXT = """() => {
  let least = Infinity;
  document.querySelectorAll('#board svg text').forEach(t => {
    const m = t.getScreenCTM();
    if (!m || !t.getClientRects().length) return;
    least = Math.min(least, parseFloat(t.getAttribute('font-size') || getComputedStyle(t).fontSize) * m.a);
  });
  return least;
}"""


def _views(payload):
    out = []

    def walk(node):
        if isinstance(node, dict):
            if node.get("format") == FORMAT:
                out.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(payload)
    return out


def _check_honest(payload, seat_views):
    """Every position in `payload` is seat A's view of a position already reached (`seat_views`: A's view
    after each step); every last-move mark's value is the one in A's view after its step."""
    reached = {json.dumps(v, sort_keys=True) for v in seat_views}
    for view in _views(payload):
        assert view["view"] == "A", "the page received a view that is not its seat's"
        assert json.dumps(view, sort_keys=True) in reached, "the page received a position the game never reached"
    if isinstance(payload, dict) and isinstance(payload.get("marks"), dict):
        marks = payload["marks"]
        for i, changes in enumerate(marks["steps"]):
            step = marks["first"] + i
            for path, _before, after in changes:
                assert _value_at(seat_views[step + 1], path) == after, f"a mark of step {step} is not in A's view"


def _click(page, move: str) -> None:
    key = page.evaluate("([m]) => { const p = window.buranoPage(); return AzulSintraBoard.moveTargets(m, window.buranoState(), p.seat)[0]; }",
                        [move])
    page.locator(f'#board [data-key="{key}"].legal').first.click()
    if page.locator("#chooser:not([hidden])").count():
        page.locator(f'#chooser:not([hidden]) button[data-move="{move}"]').click()


def test_the_board_module_carries_the_placeholder_data_file():
    """board.js draws a position without its own data from a copy of the built-in file: the same values."""
    source = (ROOT / "burano_ai/web/static/games/azul-sintra/board.js").read_text()
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
    clicks = marked = 0
    kinds = set()
    least_text = 99.0
    while not state["game"]["over"]:
        view = page.evaluate("window.buranoState()")
        assert view["format"] == FORMAT and view["view"] == "A" and view["to_move"] == "A"
        # every legal move has its element on the board, drawn as clickable
        primary = page.evaluate("([legal]) => { const p = window.buranoPage(); return legal.map(m => AzulSintraBoard.moveTargets(m, window.buranoState(), p.seat)); }",
                                [state["legal"]])
        for move, keys in zip(state["legal"], primary):
            assert keys, f"{move} has no element"
            assert page.locator(f'#board [data-key="{keys[0]}"].legal').count() >= 1, f"{move}: {keys[0]} not clickable"
            for key in keys[1:]:
                assert page.locator(f'#board [data-key="{key}"]').count() >= 1, f"{move}: no {key} on the board"
        least_text = min(least_text, page.evaluate(SMALLEST_TEXT))
        if state["marked"]:
            marked += 1
        move = rng.choice(state["legal"])
        kinds.add(move.split()[0] if move.split()[0] in ("reset", "keep") else "draft")
        _click(page, move)
        clicks += 1
        page.wait_for_function(WAIT_FOR_TURN, arg=[state["game"]["version"]])
        state = _page_state(page)
        if clicks == 12:
            screenshot(page, "azul-board-midgame")
    screenshot(page, "azul-board-over")
    assert page.locator("#result").inner_text().startswith("Game over")
    assert least_text >= 12, f"text drawn at {least_text:.1f} px"
    assert marked >= clicks // 2, (marked, clicks)     # the bot's moves since A's last decision are marked
    assert "draft" in kinds and "keep" in kinds, kinds
    session = _server_game(live_server, state["game"]["id"]).session
    assert session.is_over() and clicks == sum(1 for step in session.record.steps if step.actor == "A") > 20

    # The record download goes through the page's fetch too, so it is checked with the rest.
    record = json.loads(page.evaluate("fetch(document.querySelector('#download').href).then(r => r.text())"))
    assert record["view"] == "A"
    received = page.evaluate("window.__received")
    seat_views = [s.to_dict(0) for _ply, s in session.record.positions()]
    views = 0
    for text in received:
        payload = json.loads(text)
        views += len(_views(payload))
        _check_honest(payload, seat_views)
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
            boxes = page.locator("#board svg.board-block").evaluate_all(
                "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })")
            for i, a in enumerate(boxes):
                for b in boxes[i + 1:]:
                    assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (players, a, b)
            for move in state["legal"]:
                key = page.evaluate("([m]) => AzulSintraBoard.moveTargets(m, window.buranoState(), 0)[0]", [move])
                assert page.locator(f'#board [data-key="{key}"].legal').count() >= 1, (players, move)
            _click(page, rng.choice(state["legal"]))
            page.wait_for_function(WAIT_FOR_TURN, arg=[state["game"]["version"]])
        screenshot(page, f"azul-board-{players}p")
