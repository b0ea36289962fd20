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

import pytest

from burano_ai.session import GameSession

from .conftest import screenshot
from .test_web_browser import WAIT_FOR_TURN, _page_state, check_marks, views_in

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
    check_marks(payload, seat_views)


def check_the_honest_check_fails(game: str, fmt: str, false_mark: list, *, bot: str = "greedy",
                                 later_moves: int | None = None,
                                 check_view: Callable[[dict], None] | None = None) -> tuple[GameSession, list[dict]]:
    """`check_honest` can fail: a position the game has not reached (A's view after `later_moves` more of
    its moves, None: at the end), a view of another seat and a false mark (`false_mark`: one change
    ``[path, before, after]`` whose value is not in A's view) are caught, A's own view passes. Returns the
    session of the seeded 2-player game (seed 6, A against `bot`) at A's first decision and A's views."""
    session = GameSession(2, 6, ["human", bot], game=game)
    session.advance()   # up to A's first decision
    seat_views = [s.to_dict(0) for _ply, s in session.record.positions()]
    later = GameSession(2, 6, ["human", bot], game=game)
    later.advance()
    moves = 0
    while not later.is_over() and (later_moves is None or moves < later_moves):   # draws A must not see yet
        later.play(0, later.legal_moves(0)[0])
        later.advance()
        moves += 1

    def honest(payload):
        check_honest(payload, seat_views, fmt, check_view)
    honest({"view": seat_views[-1]})
    with pytest.raises(AssertionError, match="never reached"):
        honest({"view": later.view(0)})
    with pytest.raises(AssertionError, match="not its seat's"):
        honest({"view": dict(seat_views[-1], view="B")})
    with pytest.raises(AssertionError, match="not in A's view"):
        honest({"marks": {"first": 0, "steps": [[false_mark]]}})
    return session, seat_views


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


def board_renderer(page, live_server: str, kind: str, board: str) -> Callable[[dict], str]:
    """A function that draws a view with `board`'s ``renderBoard`` for seat A (its SVG text), in the page
    of a `kind` game."""
    page.goto(f"{live_server}/?kind={kind}&players=2&seed=1&seats=human,greedy")
    page.wait_for_function(f"window.{board} !== undefined")
    return lambda view: page.evaluate(f"([v]) => {board}.renderBoard(v, {{seat: 0}})", [view])


def click_first_decisions(page, board: str, rng, decisions: int, where="") -> None:
    """A's first `decisions` decisions (fewer when the game ends first): at each, no text below 12 px, no
    block drawn over another and each legal move's first element clickable; then a random legal move
    (`rng`) clicked."""
    for _ in range(decisions):
        state = _page_state(page)
        if state["game"]["over"]:
            break
        assert page.evaluate(SMALLEST_TEXT) >= 12
        check_blocks_apart(page, where)
        for move, keys in zip(state["legal"], move_targets(page, board, state["legal"])):
            assert page.locator(f'#board [data-key="{keys[0]}"].legal').count() >= 1, (where, move)
        click_move(page, board, rng.choice(state["legal"]))
        page.wait_for_function(WAIT_FOR_TURN, arg=[state["game"]["version"]])


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
