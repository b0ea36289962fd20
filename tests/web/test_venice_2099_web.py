"""Venice 2099's own SVG board (burano_ai/web/static/games/venice-2099/board.js) in a real browser (Debian's
Chromium via Playwright, 1280 x 800).

A whole 2-player game against a bot clicked through on the drawn board: at every decision each legal move
has its element on the board (a square for a placement, a move's destination, a purchase or a rescue; a
card of the hand; the pass button), the move is played by clicking that element (then the chooser when
the element offers several moves); no text is drawn below 12 px; the bot's moves are marked. Then the
hidden-information check over everything the page received: every position is seat A's view of a
position the game has already reached (the other hand and the set-aside cards are null in it), every
last-move mark's value is the one in A's view after its step, and the record the page downloads shows
none of the cards dealt to B.
"""

from __future__ import annotations

import json
import random

import pytest

from .conftest import screenshot
from .test_web_browser import RECORD_RESPONSES, WAIT_FOR_TURN, _page_state, _server_game, _value_at

FORMAT = "venice-2099-position/1"

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
    after each step), hiding B's hand and the set-aside pile; every last-move mark's value is the one in
    A's view after its step."""
    reached = {json.dumps(v, sort_keys=True) for v in seat_views}
    for view in _views(payload):
        assert view["view"] == "A", "the page received a view that is not its seat's"
        assert view["set_aside"] is None and all(s["hand"] is None for s in view["seats"][1:]), \
            "the page received a hidden hand or the set-aside cards"
        assert json.dumps(view, sort_keys=True) in reached, "the page received a position the game never reached"
    if isinstance(payload, dict) and isinstance(payload.get("marks"), dict):
        marks = payload["marks"]
        for i, changes in enumerate(marks["steps"]):
            step = marks["first"] + i
            for path, _before, after in changes:
                assert _value_at(seat_views[step + 1], path) == after, f"a mark of step {step} is not in A's view"


def _click(page, move: str) -> None:
    key = page.evaluate("([m]) => { const p = window.buranoPage(); "
                        "return Venice2099Board.moveTargets(m, window.buranoState(), p.seat)[0]; }", [move])
    page.locator(f'#board [data-key="{key}"].legal').first.click()
    if page.locator("#chooser:not([hidden])").count():
        page.locator(f'#chooser:not([hidden]) button[data-move="{move}"]').click()


def test_a_whole_venice_game_clicked_through_on_its_board(live_server, page):
    page.add_init_script(RECORD_RESPONSES)
    page.goto(f"{live_server}/?kind=venice-2099&players=2&seed=4&seats=human,random")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    state = _page_state(page)
    assert state["game"]["kind"] == "venice-2099" and state["board"] == "venice-2099"
    assert page.locator('#board [data-block="city"]').count() == 1
    assert page.locator('#board [data-key^="sq:"]').count() == 36          # the 6x6 city of 2 players (§3.2)
    screenshot(page, "venice-board-start")
    rng = random.Random(3)
    clicks = marked = 0
    kinds = set()
    least_text = 99.0
    while not state["game"]["over"]:
        view = page.evaluate("window.buranoState()")
        assert view["format"] == FORMAT and view["view"] == "A" and view["to_move"] == "A"
        # every legal move has its element on the board, drawn as clickable
        targets = page.evaluate("([legal]) => { const p = window.buranoPage(); "
                                "return legal.map(m => Venice2099Board.moveTargets(m, window.buranoState(), p.seat)); }",
                                [state["legal"]])
        for move, keys in zip(state["legal"], targets):
            assert keys, f"{move} has no element"
            assert page.locator(f'#board [data-key="{keys[0]}"].legal').count() >= 1, f"{move}: {keys[0]} not clickable"
            for key in keys[1:]:
                assert page.locator(f'#board [data-key="{key}"]').count() >= 1, f"{move}: no {key} on the board"
        least_text = min(least_text, page.evaluate(SMALLEST_TEXT))
        if state["marked"]:
            marked += 1
        # mostly real moves (a pass now and then), so that the game buys, sinks and rescues
        moves = [m for m in state["legal"] if not m.startswith("no ")] or state["legal"]
        move = rng.choice(state["legal"] if rng.random() < 0.15 else moves)
        kinds.add(move.split()[0] if not move[0].isdigit() and "-" not in move.split()[0] else "move")
        _click(page, move)
        clicks += 1
        page.wait_for_function(WAIT_FOR_TURN, arg=[state["game"]["version"]])
        state = _page_state(page)
        if clicks == 20:
            screenshot(page, "venice-board-midgame")
    screenshot(page, "venice-board-over")
    assert page.locator("#result").inner_text().startswith("Game over")
    assert least_text >= 12, f"text drawn at {least_text:.1f} px"
    assert marked >= clicks // 3, (marked, clicks)      # the bot's moves since A's last decision are marked
    assert {"place", "play", "move"} <= kinds, kinds
    session = _server_game(live_server, state["game"]["id"]).session
    assert session.is_over() and clicks == sum(1 for step in session.record.steps if step.actor == "A") >= 20

    # The record download goes through the page's fetch too, so it is checked with the rest: B's deal is
    # in it only as "a card dealt to B".
    record = json.loads(page.evaluate("fetch(document.querySelector('#download').href).then(r => r.text())"))
    assert record["view"] == "A"
    deals = [step for step in record["steps"] if step.get("kind") == "deal"]
    assert len(deals) == 20 and all((step["move"] is None) == (step["seat"] == "B") for step in deals)
    received = page.evaluate("window.__received")
    seat_views = [s.to_dict(0) for _ply, s in session.record.positions()]
    views = 0
    for text in received:
        try:
            payload = json.loads(text)
        except json.JSONDecodeError:
            continue
        views += len(_views(payload))
        _check_honest(payload, seat_views)
    assert views > clicks


def test_the_honest_check_finds_a_leak():
    """The check above can fail: a position the game has not reached, B's hand shown, a false mark."""
    from burano_ai.session import GameSession
    session = GameSession(2, 6, ["human", "random"], game="venice-2099")
    session.advance()   # up to A's first decision
    seat_views = [s.to_dict(0) for _ply, s in session.record.positions()]
    _check_honest({"view": seat_views[-1]}, seat_views)
    full = list(session.record.positions())[-1][1].to_dict()
    with pytest.raises(AssertionError, match="not its seat's"):
        _check_honest({"view": dict(seat_views[-1], view="B")}, seat_views)
    with pytest.raises(AssertionError, match="hidden hand"):
        _check_honest({"view": dict(full, view="A")}, seat_views)
    later = GameSession(2, 6, ["human", "random"], game="venice-2099")
    later.advance()
    later.play(0, later.legal_moves(0)[0])
    later.advance()
    with pytest.raises(AssertionError, match="never reached"):
        _check_honest({"view": later.view(0)}, seat_views)
    with pytest.raises(AssertionError, match="not in A's view"):
        _check_honest({"marks": {"first": 0, "steps": [[[["coins_sunk"], 0, 99]]]}}, seat_views)


def test_five_players_fit_at_1280_by_800_and_every_move_has_its_element(live_server, page):
    """The 8x8 city and five seats: no text below 12 px, no block drawn over another, every legal move of
    the first decisions has its clickable element; a few moves clicked."""
    page.goto(f"{live_server}/?kind=venice-2099&players=5&seed=2&seats=human,random,random,random,random")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    assert page.locator('#board [data-key^="sq:"]').count() == 64
    assert page.locator('#board [data-key^="seat:"]').count() == 5
    rng = random.Random(5)
    for _ in range(6):
        state = _page_state(page)
        if state["game"]["over"]:
            break
        assert page.evaluate(SMALLEST_TEXT) >= 12
        boxes = page.locator("#board svg.board-block").evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })")
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
        for move in state["legal"]:
            key = page.evaluate("([m]) => Venice2099Board.moveTargets(m, window.buranoState(), 0)[0]", [move])
            assert page.locator(f'#board [data-key="{key}"].legal').count() >= 1, move
        _click(page, rng.choice(state["legal"]))
        page.wait_for_function(WAIT_FOR_TURN, arg=[state["game"]["version"]])
    screenshot(page, "venice-board-5p")
