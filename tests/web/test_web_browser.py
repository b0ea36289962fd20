"""The web board in a real browser (Debian's Chromium driven by Playwright): a whole game played by
clicking the board, the honest-view check over everything the page received, analysis, the editor,
replay, layout at two screen sizes, and screenshots of every view (build/screenshots/)."""

from __future__ import annotations

import json
import random

import pytest

from .conftest import screenshot

#: Recorded by the page for the honest-view check: every fetch answer and every server-sent event.
RECORD_RESPONSES = """
window.__received = [];
const _fetch = window.fetch;
window.fetch = async (...args) => {
  const res = await _fetch(...args);
  res.clone().text().then(t => window.__received.push(t));
  return res;
};
const _ES = window.EventSource;
window.EventSource = function (url) {
  const es = new _ES(url);
  es.addEventListener("message", ev => window.__received.push(ev.data));
  return es;
};
"""

WAIT_FOR_TURN = """([version]) => {
  const p = window.buranoPage();
  return p.game && p.game.version > version && !p.game.thinking && (p.game.over || p.legal.length > 0);
}"""


def _page_state(page):
    return page.evaluate("window.buranoPage()")


def _click_move(page, move: str) -> bool:
    """Click `move` on the board (its element, then the chooser if the element offers several moves);
    fall back to the listed move when it has no board element. Returns True when clicked on the board."""
    key = page.evaluate("([m]) => { const p = window.buranoPage(); const t = BuranoBoard.moveTargets(m, window.buranoState(), p.seat); return t[0] || null; }",
                        [move])
    if key is None or page.locator(f'#board [data-key="{key}"].legal').count() == 0:
        page.locator(f'#legal button[data-move="{move}"]').click()
        return False
    page.locator(f'#board [data-key="{key}"].legal').first.click()
    chooser = page.locator(f'#chooser:not([hidden]) button[data-move="{move}"]')
    if page.locator("#chooser:not([hidden])").count():
        chooser.click()
    return True


def _choose(rng: random.Random, legal: list[str], moves_this_turn: int) -> str:
    """A quick game: one action a turn, then `done`; everything else at random."""
    if "done" in legal and (moves_this_turn >= 1 or rng.random() < 0.3):
        return "done"
    options = [m for m in legal if m != "done"] or legal
    return rng.choice(options)


def test_a_whole_game_against_a_random_bot_by_clicking_the_board(live_server, page):
    page.add_init_script(RECORD_RESPONSES)
    page.goto(f"{live_server}/?players=2&seed=11&seats=human,random")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    screenshot(page, "play-start")
    rng = random.Random(5)
    on_board = listed = 0
    moves_this_turn = 0
    shot_midgame = False
    while True:
        state = _page_state(page)
        if state["game"]["over"]:
            break
        view = page.evaluate("window.buranoState()")
        assert view["view"] == "A"
        moves_this_turn = view.get("context", {}).get("moves", 0) if view["phase"] == "turn" else moves_this_turn
        move = _choose(rng, state["legal"], moves_this_turn)
        if _click_move(page, move):
            on_board += 1
        else:
            listed += 1
        page.wait_for_function(WAIT_FOR_TURN, arg=[state["game"]["version"]])
        if not shot_midgame and view["season"] == "summer":
            screenshot(page, "play-midgame")
            shot_midgame = True
    screenshot(page, "play-game-over")
    assert page.locator("#result").inner_text().startswith("Game over")
    print(f"clicks on the board {on_board}, in the list {listed}")
    assert on_board >= 0.8 * (on_board + listed), (on_board, listed)

    # The honest-view check: everything the page received, against the server's secrets.
    received = page.evaluate("window.__received")
    assert len(received) > on_board
    game_id = state["game"]["id"]
    session = _server_game(live_server, game_id).session
    hidden_moves = [i for i, step in enumerate(session.record.steps)
                    if step.seen_by is not None and "A" not in step.seen_by]
    assert hidden_moves, "the game had no hidden step: the check would prove nothing"
    for text in received:
        _check_honest(json.loads(text), session, hidden_moves)


def _server_game(url, game_id):
    from burano_ai.web import app as web_app   # noqa: F401  (the live server runs in this process)
    import gc

    from burano_ai.web.games import GameHub
    for hub in (o for o in gc.get_objects() if isinstance(o, GameHub)):
        if game_id in hub.games:
            return hub.games[game_id]
    raise AssertionError(f"game {game_id} not found on the live server")


def _check_honest(payload, session, hidden_moves):
    views = []

    def walk(node):
        if isinstance(node, dict):
            if node.get("format") == "burano-position/1":
                views.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(payload)
    for view in views:
        assert view["view"] == "A", "the page received a view that is not its seat's"
        for seat in view["seats"]:
            if seat["seat"] == "A":
                continue
            assert isinstance(seat["hand"]["blind"], int), "an opponent's blind cards reached the page"
            if view["stage"] == "pyramid":
                assert seat["pyramid"] is None and seat["reserve"] is None, "a secret pyramid reached the page"
    if isinstance(payload, dict) and "log" in payload:
        for i in hidden_moves:
            if i < len(payload["log"]):
                step = session.record.steps[i]
                assert step.move not in payload["log"][i], f"hidden step {i} ({step.move}) reached the page"
