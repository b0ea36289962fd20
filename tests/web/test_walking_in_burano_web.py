"""Walking in Burano's own SVG board (burano_ai/games/walking_in_burano/web/board.js) in a real
browser (Debian's Chromium via Playwright, 1280 x 800).

A whole 2-player game against the greedy bot clicked through on the drawn board: at every decision each
legal move has its element on the board (a market card, a card in hand and the house or deck it goes
to, a character's stack, the end button), the move is played by clicking that element (then the
chooser when the element offers several moves); the placeholder-data caption is on the board; no text
is drawn below 12 px; the bot's moves are marked. Then the hidden-information check over everything
the page received: every position is seat A's view of a position the game has already reached (so
neither the deck order nor the cards B returned with a choice), and every last-move mark's value is
the one in A's view after its step.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from .board_helpers import (board_renderer, check_everything_received, check_the_honest_check_fails,
                            click_first_decisions, click_through)
from .conftest import screenshot
from .test_web_browser import _server_game, open_game

ROOT = Path(__file__).resolve().parents[2]
FORMAT = "walking-in-burano-position/1"
BOARD_JS = ROOT / "burano_ai/games/walking_in_burano/web/board.js"
BOARD = "WalkingInBuranoBoard"


def test_the_board_module_carries_the_placeholder_data_file():
    """board.js draws a position without its own data from a copy of the built-in file: the same values."""
    source = BOARD_JS.read_text()
    start = source.index("const DEFAULT_DATA = ") + len("const DEFAULT_DATA = ")
    copy = json.loads(source[start:source.index(";\n", start)])
    data = json.loads((ROOT / "burano_ai/games/walking_in_burano/data/placeholder.json").read_text())
    assert copy["placeholder"] is data["placeholder"] is True
    assert copy["colours"] == data["colours"]["value"] and copy["curtain_kinds"] == data["curtain_kinds"]["value"]
    for c, raw in zip(copy["cards"], data["cards"]["value"], strict=True):
        shop = raw["shop"] or {"type": -1, "vp": 0}
        assert c == [raw["colour"], raw["passersby"], raw["plants"], raw["flowers"], raw["cats"], raw["curtains"],
                     raw["lanterns"], raw["chimneys"], raw["closed_windows"], shop["type"], shop["vp"]], raw["id"]


def test_a_whole_walking_in_burano_game_clicked_through_on_its_board(live_server, page):
    state = open_game(page, f"{live_server}/?kind=walking-in-burano&players=2&seed=6&seats=human,greedy",
                      record=True)
    assert state["game"]["kind"] == "walking-in-burano" and state["board"] == "walking-in-burano"
    assert page.locator('#board [data-block="table"]').count() == 1
    assert page.locator('#board [data-block^="seat-"]').count() == 2
    caption = page.locator('#board [data-key="caption"]')
    assert caption.is_visible() and "PLACEHOLDER DATA" in caption.text_content()
    assert page.locator('#board [data-key^="mk:"]').count() == 9          # a full 3 x 3 market
    screenshot(page, "walking-in-burano-board-start")
    rng = random.Random(3)

    def choose(legal):
        # prefer building: a random game mostly takes and ends, and should reach visits and returns too
        places = [m for m in legal if m.startswith("place")]
        return rng.choice(places) if places and rng.random() < 0.8 else rng.choice(legal)

    played = click_through(page, BOARD, FORMAT, choose, 25, "walking-in-burano-board")
    state, clicks = played.state, len(played.moves)
    kinds = {m.split()[0] for m in played.moves}
    assert played.least_text >= 12, f"text drawn at {played.least_text:.1f} px"
    # the bot's moves since A's last decision are marked
    assert played.marked >= clicks // 4, (played.marked, clicks)
    assert {"take", "place", "end"} <= kinds, kinds
    session = _server_game(live_server, state["game"]["id"]).session
    assert session.is_over() and clicks == sum(1 for step in session.record.steps if step.actor == "A") > 20

    views = check_everything_received(page, session, FORMAT)
    assert views > clicks


def test_the_honest_check_finds_a_leak():
    """The check above can fail: a position the game has not reached (the draws to the end), a view of
    another seat, a false mark."""
    check_the_honest_check_fails("walking-in-burano", FORMAT, [["discard"], [], [5]])



def test_another_seat_s_hidden_cards_are_drawn_as_backs(live_server, page):
    """A view where B's returns are pooled: B's pooled hand cards are drawn as card backs, their ids
    appear nowhere on the board, and a position with its own (non-placeholder) data has no caption."""
    from burano_ai.games import get_spec
    from burano_ai.random_play import random_step
    spec = get_spec("walking-in-burano")
    game = spec.new_game(2)
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_initial_state()
        found = None
        while not state.is_terminal() and found is None:
            view = state.to_dict(0)
            if any(isinstance(c, str) for c in view["seats"][1]["hand"]):
                found = state.clone()
                break
            random_step(state, rng)
        if found is not None:
            break
    assert found is not None
    full, view = found.to_dict(), found.to_dict(0)
    hidden = [c for c in full["seats"][1]["hand"] if c not in view["seats"][1]["hand"]]
    assert hidden
    draw = board_renderer(page, live_server, "walking-in-burano", BOARD)
    drawn = draw(view)
    assert "a hidden L" in drawn and "PLACEHOLDER DATA" in drawn
    for c in hidden:
        assert f'data-key="hand:B:{c}"' not in drawn and f"card {c}:" not in drawn
    data = json.loads((ROOT / "burano_ai/games/walking_in_burano/data/placeholder.json").read_text())
    data["placeholder"] = False
    drawn = draw(dict(view, data=data))
    assert "PLACEHOLDER" not in drawn


def test_three_and_four_players_fit_at_1280_by_800(live_server, page):
    """4 and 5 market columns and 3-4 streets: no text below 12 px, no block drawn over another, every
    legal move of the first decisions has its clickable element; a few moves clicked."""
    for players in (3, 4):
        seats = ",".join(["human"] + ["greedy"] * (players - 1))
        open_game(page, f"{live_server}/?kind=walking-in-burano&players={players}&seed=2&seats={seats}")
        # a full market of N = P + 1 columns, less the cards taken by the seats before A this round
        assert 3 * (players + 1) - 3 * (players - 1) <= page.locator('#board [data-key^="mk:"]').count() <= 3 * (players + 1)
        assert page.locator('#board text', has_text=f"column {players + 1}").count() == 1
        assert page.locator('#board [data-block^="seat-"]').count() == players
        click_first_decisions(page, BOARD, random.Random(players), 4, players)
        screenshot(page, f"walking-in-burano-board-{players}p")
