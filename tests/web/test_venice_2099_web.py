"""Venice 2099's own SVG board (burano_ai/games/venice_2099/web/board.js) in a real browser (Debian's
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

from .board_helpers import (check_everything_received, check_honest, check_the_honest_check_fails,
                            click_first_decisions, click_move, click_through)
from .conftest import screenshot
from .test_web_browser import WAIT_FOR_TURN, _page_state, _server_game, open_game

FORMAT = "venice-2099-position/1"
BOARD = "Venice2099Board"


def _hides_b_s_hand(view):
    assert view["set_aside"] is None and all(s["hand"] is None for s in view["seats"][1:]), \
        "the page received a hidden hand or the set-aside cards"


def _check_honest(payload, seat_views):
    """Every position in `payload` is seat A's view of a position already reached (`seat_views`: A's view
    after each step), hiding B's hand and the set-aside pile; every last-move mark's value is the one in
    A's view after its step."""
    check_honest(payload, seat_views, FORMAT, _hides_b_s_hand)


def test_a_whole_venice_game_clicked_through_on_its_board(live_server, page):
    state = open_game(page, f"{live_server}/?kind=venice-2099&players=2&seed=4&seats=human,random", record=True)
    assert state["game"]["kind"] == "venice-2099" and state["board"] == "venice-2099"
    assert page.locator('#board [data-block="city"]').count() == 1
    assert page.locator('#board [data-key^="sq:"]').count() == 36          # the 6x6 city of 2 players (§3.2)
    screenshot(page, "venice-board-start")
    rng = random.Random(3)

    def choose(legal):
        # mostly real moves (a pass now and then), so that the game buys, sinks and rescues
        moves = [m for m in legal if not m.startswith("no ")] or legal
        return rng.choice(legal if rng.random() < 0.15 else moves)

    played = click_through(page, BOARD, FORMAT, choose, 20, "venice-board")
    state, clicks = played.state, len(played.moves)
    kinds = {m.split()[0] if not m[0].isdigit() and "-" not in m.split()[0] else "move" for m in played.moves}
    assert played.least_text >= 12, f"text drawn at {played.least_text:.1f} px"
    # the bot's moves since A's last decision are marked
    assert played.marked >= clicks // 3, (played.marked, clicks)
    assert {"place", "play", "move"} <= kinds, kinds
    session = _server_game(live_server, state["game"]["id"]).session
    assert session.is_over() and clicks == sum(1 for step in session.record.steps if step.actor == "A") >= 20

    # The record download goes through the page's fetch too, so it is checked with the rest: B's deal is
    # in it only as "a card dealt to B".
    record = json.loads(page.evaluate("fetch(document.querySelector('#download').href).then(r => r.text())"))
    assert record["view"] == "A"
    deals = [step for step in record["steps"] if step.get("kind") == "deal"]
    assert len(deals) == 20 and all((step["move"] is None) == (step["seat"] == "B") for step in deals)
    views = check_everything_received(page, session, FORMAT, _hides_b_s_hand, skip_text=True)
    assert views > clicks


def test_the_honest_check_finds_a_leak():
    """The check above can fail: a position the game has not reached, B's hand shown, a false mark."""
    session, seat_views = check_the_honest_check_fails("venice-2099", FORMAT, [["coins_sunk"], 0, 99], bot="random",
                                                       later_moves=1, check_view=_hides_b_s_hand)
    full = list(session.record.positions())[-1][1].to_dict()
    with pytest.raises(AssertionError, match="hidden hand"):
        _check_honest({"view": dict(full, view="A")}, seat_views)



def test_five_players_fit_at_1280_by_800_and_every_move_has_its_element(live_server, page):
    """The 8x8 city and five seats: no text below 12 px, no block drawn over another, every legal move of
    the first decisions has its clickable element; a few moves clicked."""
    open_game(page, f"{live_server}/?kind=venice-2099&players=5&seed=2&seats=human,random,random,random,random")
    assert page.locator('#board [data-key^="sq:"]').count() == 64
    assert page.locator('#board [data-key^="seat:"]').count() == 5
    click_first_decisions(page, BOARD, random.Random(5), 6)
    screenshot(page, "venice-board-5p")


READABLE = """() => {
  const box = (el) => el.getBoundingClientRect();
  const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  const apart = (a, b) => a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
  const out = {chipsOut: [], darkNumerals: [], covered: [], hand: []};
  out.chips = 0;
  document.querySelectorAll('#board [data-key^="seat:"]').forEach(seat => {
    const L = seat.dataset.key.slice(5), panel = box(seat.querySelector('rect'));
    document.querySelectorAll(`#board [data-key^="tokens:${L}:"] rect`).forEach(r => {
      out.chips += 1;
      if (!inside(box(r), panel)) out.chipsOut.push(seat.dataset.key);
    });
  });
  document.querySelectorAll('#board .vn-square').forEach(sq => {
    const circle = sq.querySelector('circle[stroke="#222"]'), text = circle && circle.nextElementSibling;
    if (circle && circle.getAttribute('fill') === '#3b3b3b' && text && getComputedStyle(text).fill !== 'rgb(255, 255, 255)')
      out.darkNumerals.push(sq.dataset.key);
    const word = [...sq.querySelectorAll('text')].find(t => t.textContent === 'platform');
    const figure = sq.querySelector('.vn-figure circle');
    if (word && figure && !apart(box(word), box(figure))) out.covered.push(sq.dataset.key);
  });
  document.querySelectorAll('#board .vn-card').forEach(c => out.hand.push(c.dataset.key.slice(5) + '=' + c.querySelector('text').textContent));
  return out;
}"""


def test_the_table_and_the_city_read_clearly(live_server, page):
    """Issue 34, item 5: the other seats' panels were too short (their treasure chips cut off, over the
    supply line); black districts' numerals were dark grey on black (the page's `svg text` fill beat the
    white one); a figure on a platform covered the word; the hand was bare numbers sorted by colour though
    the lowest is played. A 3-player game whose figures go to platforms, checked in Chromium."""
    open_game(page, f"{live_server}/?kind=venice-2099&players=3&seed=3&seats=human,random,random")
    for _ in range(4):      # A's figures onto platforms
        state = _page_state(page)
        board = page.evaluate("window.buranoState()")["board"]
        platforms = [f"place {'abcdefgh'[c]}{r + 1}" for r, row in enumerate(board) for c, cell in enumerate(row)
                     if cell == "=="]
        move = next((m for m in state["legal"] if m in platforms), state["legal"][0])
        click_move(page, BOARD, move)
        page.wait_for_function(WAIT_FOR_TURN, arg=[state["game"]["version"]])
    report = page.evaluate(READABLE)
    assert report["chips"] == 3 * 6, report
    assert report["chipsOut"] == [] and report["darkNumerals"] == [] and report["covered"] == [], report
    order = "2345678X"
    ranks = [order.index(card.split("=")[0][1]) for card in report["hand"]]
    assert report["hand"] and ranks == sorted(ranks), report["hand"]
    assert all(key == text for key, text in (card.split("=") for card in report["hand"])), report["hand"]
    assert page.locator('#board [data-key^="tokens:B:"] rect').count() == 6
    screenshot(page, "venice-table-readable")
