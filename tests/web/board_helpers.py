"""What every game's own-board browser test shares (tests/web/test_<game>_web.py): a whole game clicked
through on the drawn board, the text-size and overlap checks, and the hidden-information check over
everything the page received.

`board` is the board module's global (``AzulSintraBoard``: its ``moveTargets(move, view, seat)`` gives a
move's elements, the first one clickable); `fmt` is the game's position format tag.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from .conftest import screenshot
from .test_web_browser import WAIT_FOR_TURN, _page_state, _value_at

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


def views_in(payload, fmt: str) -> list[dict]:
    """Every position of format `fmt` anywhere in a JSON payload."""
    out = []

    def walk(node):
        if isinstance(node, dict):
            if node.get("format") == fmt:
                out.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(payload)
    return out


def check_honest(payload, seat_views, fmt: str, check_view: Callable[[dict], None] | None = None) -> None:
    """Every position in `payload` is seat A's view of a position already reached (`seat_views`: A's view
    after each step; `check_view` asserts the game's own hiding first); every last-move mark's value is the
    one in A's view after its step."""
    reached = {json.dumps(v, sort_keys=True) for v in seat_views}
    for view in views_in(payload, fmt):
        assert view["view"] == "A", "the page received a view that is not its seat's"
        if check_view is not None:
            check_view(view)
        assert json.dumps(view, sort_keys=True) in reached, "the page received a position the game never reached"
    if isinstance(payload, dict) and isinstance(payload.get("marks"), dict):
        marks = payload["marks"]
        for i, changes in enumerate(marks["steps"]):
            step = marks["first"] + i
            for path, _before, after in changes:
                assert _value_at(seat_views[step + 1], path) == after, f"a mark of step {step} is not in A's view"


def move_targets(page, board: str, moves: list[str]) -> list[list[str]]:
    """The board elements of each move (the first is the one to click) for the page's seat."""
    return page.evaluate(f"([ms]) => {{ const p = window.buranoPage(); "
                         f"return ms.map(m => {board}.moveTargets(m, window.buranoState(), p.seat)); }}", [moves])


def click_move(page, board: str, move: str) -> None:
    """Play `move` by clicking its element, then the chooser's button when the element offers several."""
    key = move_targets(page, board, [move])[0][0]
    page.locator(f'#board [data-key="{key}"].legal').first.click()
    if page.locator("#chooser:not([hidden])").count():
        page.locator(f'#chooser:not([hidden]) button[data-move="{move}"]').click()


def check_every_move_has_its_element(page, board: str, legal: list[str], where="") -> None:
    """Each legal move has its elements on the board, the first drawn as clickable."""
    for move, keys in zip(legal, move_targets(page, board, legal)):
        assert keys, f"{where}{move} has no element"
        assert page.locator(f'#board [data-key="{keys[0]}"].legal').count() >= 1, \
            f"{where}{move}: {keys[0]} not clickable"
        for key in keys[1:]:
            assert page.locator(f'#board [data-key="{key}"]').count() >= 1, f"{where}{move}: no {key} on the board"


def check_blocks_apart(page, where="") -> None:
    """No block of the board is drawn over another."""
    boxes = page.locator("#board svg.board-block").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })")
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (where, a, b)


@dataclass
class ClickedGame:
    """What `click_through` saw: the page's last state, the moves clicked, how many decisions found the
    bot's moves marked, the smallest text drawn."""

    state: dict
    moves: list[str] = field(default_factory=list)
    marked: int = 0
    least_text: float = 99.0


def click_through(page, board: str, fmt: str, choose: Callable[[list[str]], str], midgame: int,
                  name: str) -> ClickedGame:
    """Seat A's whole game on the page: at each decision A's own view is shown, every legal move has its
    element, the move `choose(legal)` is clicked; screenshots ``<name>-midgame`` after `midgame` clicks and
    ``<name>-over`` at the end."""
    played = ClickedGame(_page_state(page))
    while not played.state["game"]["over"]:
        state = played.state
        view = page.evaluate("window.buranoState()")
        assert view["format"] == fmt and view["view"] == "A" and view["to_move"] == "A"
        check_every_move_has_its_element(page, board, state["legal"])
        played.least_text = min(played.least_text, page.evaluate(SMALLEST_TEXT))
        if state["marked"]:
            played.marked += 1
        move = choose(state["legal"])
        click_move(page, board, move)
        played.moves.append(move)
        page.wait_for_function(WAIT_FOR_TURN, arg=[state["game"]["version"]])
        played.state = _page_state(page)
        if len(played.moves) == midgame:
            screenshot(page, f"{name}-midgame")
    screenshot(page, f"{name}-over")
    assert page.locator("#result").inner_text().startswith("Game over")
    return played


def check_everything_received(page, session, fmt: str, check_view: Callable[[dict], None] | None = None,
                              skip_text: bool = False) -> int:
    """`check_honest` over every response the page received (RECORD_RESPONSES); returns how many views.
    `skip_text`: responses that are not JSON are passed over."""
    seat_views = [s.to_dict(0) for _ply, s in session.record.positions()]
    views = 0
    for text in page.evaluate("window.__received"):
        try:
            payload = json.loads(text)
        except json.JSONDecodeError:
            if skip_text:
                continue
            raise
        views += len(views_in(payload, fmt))
        check_honest(payload, seat_views, fmt, check_view)
    return views
