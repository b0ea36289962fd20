"""The web board read as people use it (issue 21 items 2, 6, 7): text size and layout from 900 to 1920 px,
the last moves marked after a bot's turn, the replay's current step marked, annotations in words, the win
graph's axes, and one regression test for each bug of item 7 (Debian's Chromium driven by Playwright)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from .conftest import screenshot
from .test_web_browser import OVERLAPS, _click_move, _late_game_position, _page_state

EXAMPLE_GAME = Path(__file__).resolve().parents[2] / "burano_ai" / "games" / "burano" / "data" / "examples" / "game-2p.json"

#: Every text the page shows, with its rendered font size (px), and the labels that do not fit their box.
TEXT_REPORT = """() => {
  const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const sizes = [], small = [], cut = [];
  for (const t of document.querySelectorAll('svg text')) {
    if (!t.textContent.trim() || !visible(t)) continue;
    const px = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
    sizes.push(px);
    if (px < 11.95) small.push(`${t.textContent} (${px.toFixed(1)} px)`);
    if (t.textContent.includes('…')) cut.push(t.textContent);
    // a label on a card, a chip, a slot, a ship, a square or a button stays inside its box
    const g = t.parentElement, box = g && g.querySelector(':scope > rect');
    if (g && g.matches('.card, .chip, .slot, .ship, .square, .done-button, .res') && box) {
      const a = t.getBoundingClientRect(), b = box.getBoundingClientRect();
      if (a.left < b.left - 0.5 || a.right > b.right + 0.5) cut.push(`${t.textContent} runs out of its box`);
    }
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || el.closest('svg') || !visible(el)) continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    sizes.push(px);
    if (px < 11.95) small.push(`${n.textContent.trim().slice(0, 40)} (${px} px, ${el.tagName})`);
  }
  const wrap = document.querySelector('#board-wrap');
  const area = (el) => { const r = el.getBoundingClientRect(); return r.width * r.height; };
  const blocks = {};
  document.querySelectorAll('#board svg.board-block').forEach(b => { blocks[b.dataset.block] = area(b); });
  sizes.sort((a, b) => a - b);
  return {small, cut, median: sizes[Math.floor(sizes.length / 2)], texts: sizes.length,
          pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
          boardOverflow: wrap.scrollWidth - wrap.clientWidth,
          boardShare: wrap.getBoundingClientRect().width / window.innerWidth,
          blocks, sideShown: getComputedStyle(document.querySelector('#side')).display !== 'none'};
}"""


def _show_position(page, position):
    """The editor's board for `position` (the JSON box is set directly: at 900 px the panel is folded)."""
    page.wait_for_function("window.buranoPage().editorValid")
    page.evaluate("""([text]) => { const box = document.querySelector('#ed-json'); box.value = text;
                     box.dispatchEvent(new Event('input')); }""", [json.dumps(position)])
    page.wait_for_function("([s]) => window.buranoState() && window.buranoState().season === s && window.buranoPage().editorValid",
                           arg=[position["season"]])


@pytest.mark.parametrize("width, height", [(900, 800), (1280, 800), (1920, 1080)])
def test_text_size_and_layout(live_server, page, width, height):
    """Every text >= 12 px, nothing cut short or out of its box, no sideways scrolling, no region over
    another; the board takes the window's width (the side panel folds away below 1100 px) and the main
    island is the largest part of it. A 4-player late game (long building names, full hands)."""
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server}/?tab=editor")
    _show_position(page, _late_game_position())
    report = page.evaluate(TEXT_REPORT)
    print(width, {k: report[k] for k in ("median", "texts", "boardShare", "blocks")})
    assert report["small"] == []
    assert report["cut"] == []
    assert report["pageOverflow"] <= 0 and report["boardOverflow"] <= 0
    assert page.evaluate(OVERLAPS)["problems"] == []
    # white cubes, docks, markers and roof-tile fields keep a dark outline on the board's light colours
    whites = page.evaluate("""() => Array.from(document.querySelectorAll('#board [data-white]')).map(el => {
      const s = getComputedStyle(el); return [s.stroke, parseFloat(s.strokeWidth)]; })""")
    outlines = ("rgb(59, 59, 59)", "rgb(204, 0, 0)",   # dark; a ring's arrow houses are outlined red
                "rgb(0, 163, 173)", "rgb(212, 0, 0)", "rgb(224, 138, 0)")   # marked, hovered, legal
    odd = [(stroke, w) for stroke, w in whites if w < 2 or stroke not in outlines]
    assert len(whites) > 10 and odd == [], odd
    blocks = report["blocks"]
    assert set(blocks) == {"island", "sea", "town", "seat-A", "seat-B", "seat-C", "seat-D"}
    assert blocks["island"] >= max(blocks["sea"], blocks["town"])
    if width < 1100:
        assert not report["sideShown"] and report["boardShare"] > 0.97
        page.click("#side-toggle")   # the folded panel opens over the board
        assert page.locator("#side").is_visible()
        assert page.evaluate(TEXT_REPORT)["small"] == []
    else:
        assert report["sideShown"] and report["boardShare"] > 0.7
    screenshot(page, f"readable-4p-{width}x{height}")


def test_the_text_check_finds_small_and_cut_text(live_server, page):
    """The checks above can fail: a 9-unit label, a label cut short and a sideways overflow are found."""
    page.goto(f"{live_server}/?tab=editor")
    page.wait_for_function("window.buranoPage().editorValid && window.buranoState()")
    assert page.evaluate(TEXT_REPORT)["small"] == []
    page.evaluate("""() => {
      const t = document.querySelector('#board [data-region="supply"] .card text');
      t.style.fontSize = '9px'; t.textContent = 'lace-colour…';
      document.querySelector('#board-wrap').insertAdjacentHTML('beforeend', '<div style="width: 5000px">x</div>');
    }""")
    report = page.evaluate(TEXT_REPORT)
    assert any(s.startswith("lace-colour") for s in report["small"]) and "lace-colour…" in report["cut"]
    assert report["boardOverflow"] > 0


# -- the last moves marked ---------------------------------------------------------------------------

def _expected_marks(before, after):
    """The board keys a test expects marked between two views of seat A (computed here, not by the page)."""
    keys = set()
    for hole in set(before["island"]["cubes"]) | set(after["island"]["cubes"]):
        if before["island"]["cubes"].get(hole) != after["island"]["cubes"].get(hole):
            keys.add(f"hole:{hole}")
    for b, a in zip(before["seats"], after["seats"]):
        letter = a["seat"]
        for field, key in (("vp", "vp"), ("coins", "coins"), ("boat", "boat"), ("privilege", "priv")):
            if b[field] != a[field]:
                keys.add(f"{key}:{letter}")
        for island in set(b["islands"]) | set(a["islands"]):
            if b["islands"].get(island, 0) != a["islands"].get(island, 0):
                keys.add(f"node:{island}")
        keys.update(f"sq:{sq}" for sq in set(b["workshop"]) ^ set(a["workshop"]))
    return keys


def test_a_bots_turn_is_marked_on_the_board(live_server, page):
    """After each of our decisions a random bot plays its turn; back at our turn, every element its turn
    changed (cubes, boats, workers on islands and workshops, VP, coins) is marked, holes only where a cube
    was built, and hovering one of its steps in the log marks that step's changes alone."""
    page.goto(f"{live_server}/?players=2&seed=3&seats=human,random")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    rng = random.Random(2)
    seen: set[str] = set()
    turns = 0
    hovered = False
    for _ in range(60):
        state = _page_state(page)
        if state["game"]["over"] or ({"hole", "boat", "coins", "vp"} <= seen and hovered):
            break
        legal = state["legal"]
        move = "done" if "done" in legal and rng.random() < 0.6 else rng.choice([m for m in legal if m != "done"] or legal)
        with page.expect_response(lambda r: r.url.endswith("/move")) as answer:
            _click_move(page, move)
        before = answer.value.json()["view"]   # our view right after our decision
        page.wait_for_function("([v]) => { const p = window.buranoPage(); return p.game.version > v && !p.game.thinking "
                               "&& p.legal.length > 0 && p.game.to_move === 'A'; }", arg=[state["game"]["version"]])
        after = page.evaluate("window.buranoState()")
        expected = _expected_marks(before, after)
        marked = set(_page_state(page)["marked"])
        if after["actor"] != "A" or not expected:
            continue
        turns += 1
        assert expected <= marked, (move, sorted(expected - marked))
        assert {k for k in marked if k.startswith("hole:")} == {k for k in expected if k.startswith("hole:")}
        seen.update(k.split(":")[0] for k in expected)
        # one of the bot's steps in the log: hovering it marks that step's own changes
        steps = page.locator("#log li.recent").evaluate_all("lis => lis.map(li => li.textContent)")
        build = next((i for i, text in enumerate(steps) if text.startswith("B: build ")), None)
        if build is not None:
            hole = steps[build].split("@")[1].split()[0]
            page.locator("#log li.recent").nth(build).hover()
            step_marked = page.locator("#board .mark-step[data-key]").evaluate_all("els => els.map(e => e.dataset.key)")
            assert f"hole:{hole}" in step_marked and set(step_marked) <= marked
            page.mouse.move(1, 1)
            assert page.locator("#board .mark-step").count() == 0
            if not hovered:
                screenshot(page, "marks-after-a-bot-turn")
            hovered = True
    assert {"hole", "boat", "coins"} <= seen, seen
    assert hovered and turns >= 3


def test_a_replay_marks_the_next_step_and_numbers_it_as_the_counter(live_server, page):
    """Regression (item 7): the slider said ply 83 while the highlighted row was `84.`. The counter and
    the row now both name the next step; its element is marked on the board (dashed), and the last step's
    changes are marked too."""
    from burano_ai.record import GameRecord
    record = GameRecord.load(EXAMPLE_GAME)
    ply = next(i for i, s in enumerate(record.steps) if s.actor == "B" and s.move and s.move.startswith("build ") and i > 20)
    hole = record.steps[ply].move.split("@")[1]
    page.goto(f"{live_server}/?tab=replay")
    page.fill("#rp-json", record.to_json())
    page.select_option("#rp-seat", "B")
    page.click("#rp-open")
    page.wait_for_function("window.buranoPage().replay && window.buranoPage().replay.plies > 0")
    page.evaluate(f"(() => {{ const s = document.querySelector('#rp-slider'); s.value = {ply}; s.dispatchEvent(new Event('input')); }})()")
    page.wait_for_function(f"window.buranoPage().replay.ply === {ply}")
    number = page.evaluate("(() => { const ol = document.querySelector('#rp-steps'); const lis = [...ol.children]; "
                           "return ol.start + lis.findIndex(li => li.classList.contains('current')); })()")
    assert number == ply + 1
    assert page.locator("#rp-ply").inner_text().startswith(f"step {ply + 1} of {len(record.steps)}")
    assert page.locator("#rp-step").inner_text().startswith(f"next: {ply + 1}. ")
    assert page.locator(f'#board [data-key="hole:{hole}"].mark-next').count() == 1
    screenshot(page, "replay-marks")
    page.click("#rp-next")
    page.wait_for_function(f"window.buranoPage().replay.ply === {ply + 1}")
    assert page.locator(f'#board [data-key="hole:{hole}"].mark').count() == 1


def test_annotations_read_in_words_and_the_win_graph_has_axes(live_server, page):
    from burano_ai.record import GameRecord
    record = GameRecord.load(EXAMPLE_GAME)
    mine = [i for i, s in enumerate(record.steps) if s.actor == "A"]
    record.steps[mine[3]].annotations = {"best": "done", "win": 0.2398, "played_win": 0.0392, "loss": 0.2006,
                                         "flag": "blunder", "visits": 4000, "method": "search"}
    record.steps[mine[5]].annotations = {"best": record.steps[mine[5]].move, "win": 0.61, "played_win": 0.61, "loss": 0.0}
    page.goto(f"{live_server}/?tab=replay")
    page.fill("#rp-json", record.to_json())
    page.click("#rp-open")
    page.wait_for_function("window.buranoPage().replay && window.buranoPage().replay.plies > 0")
    page.locator(f'#rp-graph .win-point[data-ply="{mine[3]}"]').click()
    page.wait_for_function(f"window.buranoPage().replay.ply === {mine[3]}")
    words = page.locator("#rp-annotations").inner_text()
    assert words.startswith("Blunder: −20 points of win chance. Best was `done` (24% to win). The move played: 4% to win."), words
    assert "played_win" not in words and "0.2398" not in words
    page.locator(f'#rp-graph .win-point[data-ply="{mine[5]}"]').click()
    page.wait_for_function(f"window.buranoPage().replay.ply === {mine[5]}")
    assert page.locator("#rp-annotations").inner_text().startswith("The engine's choice too.")
    labels = page.locator("#rp-graph text").all_text_contents()
    assert {"0%", "50%", "100%", "step", "win", "0"} <= set(labels), labels
    screenshot(page, "replay-words")


# -- item 7: one regression test per bug -----------------------------------------------------------------

def _views_of_every_stage():
    """Seat A's view at every (season, round, stage, phase) of a random 2-player game, chance included."""
    from burano_ai import Game
    from burano_ai.random_play import random_step
    state = Game(2).new_initial_state(seed=8)
    rng = random.Random(8)
    seen = {}
    while True:
        view = state.to_dict(0)
        seen.setdefault((view["season"], view["round"], view["stage"], view["phase"]), view)
        if state.is_terminal():
            return list(seen.values())
        random_step(state, rng)


def test_the_status_line_names_only_rounds_that_exist(live_server, page):
    """Regression (item 7): `spring round 5 · roof-refill`, `winter round 4 · end · game-over`."""
    views = _views_of_every_stage()
    page.goto(f"{live_server}/?tab=replay")
    page.wait_for_function("window.buranoReady")
    lines = page.evaluate("(views) => views.map(v => [v.season, v.round, v.stage, v.phase, BuranoBoard.statusLine(v)])", views)
    rounds = {"spring": 4, "summer": 4, "autumn": 3, "winter": 3}
    assert any(r > rounds[s] for s, r, *_ in lines), "the game never ran past a season's last round"
    for season, rnd, stage, phase, line in lines:
        if rnd > rounds[season] or stage == "end":
            assert "round" not in line, line
        else:
            assert f"round {rnd} of {rounds[season]}" in line, line
        if phase == "game-over":
            assert line == "game over"


def test_end_turn_is_drawn_as_a_button_only_when_done_is_legal(live_server, page):
    page.goto(f"{live_server}/?players=2&seed=5&seats=human,random")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    assert "done" not in _page_state(page)["legal"]   # picking roof tiles: no `done`
    assert page.locator("#board .done-button.inactive").count() == 1
    faint = page.locator("#board .done-bg").evaluate("el => getComputedStyle(el).fill")
    for _ in range(40):
        state = _page_state(page)
        if "done" in state["legal"]:
            break
        _click_move(page, state["legal"][0])
        page.wait_for_function("([v]) => window.buranoPage().game.version > v && !window.buranoPage().game.thinking "
                               "&& window.buranoPage().legal.length > 0", arg=[state["game"]["version"]])
    assert "done" in _page_state(page)["legal"]
    assert page.locator("#board .done-button.inactive").count() == 0
    assert page.locator("#board .done-bg").evaluate("el => getComputedStyle(el).fill") != faint


@pytest.mark.parametrize("players, labels", [(2, {"I1 (A)", "I3 (B)", "I4", "I6"}),
                                             (4, {"I1 (A)", "I3 (B)", "I4 (C)", "I6 (D)"})])
def test_islands_name_only_the_seats_in_the_game(live_server, page, players, labels):
    """Regression (item 7): 2-player boards labelled islands `I4 (C)`, `I6 (D)`."""
    seats = ",".join(["human"] + ["random"] * (players - 1))
    page.goto(f"{live_server}/?players={players}&seed=1&seats={seats}")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    names = set(page.locator("#board .node-name").all_text_contents())
    assert labels <= names, names


def test_the_handover_screen_does_not_say_your_move(live_server, page):
    """Regression (item 7): behind the handover screen the header still said `your move (you are A)`."""
    page.goto(f"{live_server}/?players=2&seats=human,human")   # two people: a secret deal
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    for kind in ("island", "workshop", "flat"):
        if page.locator("#handover").is_visible():
            break
        _click_move(page, f"pick {kind}")
        page.wait_for_function("window.buranoState() === null || window.buranoPage().game.version > 0")
    page.locator("#handover").wait_for(state="visible")
    status = page.locator("#status").inner_text()
    assert "your move" not in status and "you are A" not in status and "pass the screen to B" in status
    page.click("#handover-go")
    page.wait_for_function("window.buranoState()?.view === 'B' && window.buranoPage().legal.length > 0")
    assert "you are B" in page.locator("#status").inner_text()


def test_an_error_goes_away(live_server, page):
    """Regression (item 7): an error stayed up until the next action. It closes with ×, and by itself
    after a few seconds."""
    page.goto(f"{live_server}/?players=2&seed=4&seats=human,random")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    page.click("#undo")   # nothing to undo yet: an error
    page.locator("#error").wait_for(state="visible")
    assert "no move to undo" in page.locator("#error-text").inner_text()
    page.click("#error-close")
    assert page.locator("#error").is_hidden()
    page.click("#undo")
    page.locator("#error").wait_for(state="visible")
    page.locator("#error").wait_for(state="hidden", timeout=20_000)   # a guard, not a timing: it closes by itself


def test_the_plan_text_follows_the_candidates_after_leaving_one_out(live_server, page):
    """Regression (item 7): after × on a candidate the plan text still showed the avoided move's plan."""
    page.goto(f"{live_server}/?players=2&seed=4&seats=human,random")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    page.click("#hint")
    page.wait_for_function("(() => { const a = window.buranoPage().analysis; return a && a.reports >= 1; })()")
    page.click("#analysis-stop")   # the table stays as it is while we point at it
    page.wait_for_function("window.buranoPage().analysis.done")
    first = page.locator("#candidates tbody tr").first
    avoided = first.get_attribute("data-move")
    first.hover()
    assert page.locator("#analysis-plan").inner_text().startswith(f"plan: {avoided}")
    old = _page_state(page)["analysis"]["id"]
    first.locator("button.avoid").click()
    page.wait_for_function("([old]) => { const a = window.buranoPage().analysis; return a && a.id !== old && a.reports >= 1; }", arg=[old])
    assert avoided not in page.locator("#candidates tbody tr").evaluate_all("trs => trs.map(t => t.dataset.move)")
    assert avoided not in page.locator("#analysis-plan").inner_text()
    page.click("#analysis-stop")
    page.wait_for_function("window.buranoPage().analysis.done")


def test_the_generic_board_marks_the_blocks_that_changed(live_server, page):
    """Goofspiel on the generic board: after our bid and the bot's, the blocks whose values changed in our
    view (the prize and round, each seat's hand, bid, prizes won, points) are marked, and no other."""
    page.goto(f"{live_server}/?kind=goofspiel&players=2&seed=3&seats=human,random")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    for _ in range(3):
        state = _page_state(page)
        with page.expect_response(lambda r: r.url.endswith("/move")) as answer:
            page.locator(f'#board button.gb-move.legal[data-move="{state["legal"][0]}"]').click()
        before = answer.value.json()["view"]
        page.wait_for_function("([v]) => { const p = window.buranoPage(); return p.game.version > v && !p.game.thinking "
                               "&& (p.game.over || p.legal.length > 0); }", arg=[state["game"]["version"]])
        after = page.evaluate("window.buranoState()")
        expected = set()
        for key, value in after.items():
            if before.get(key) == value:
                continue
            if isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
                expected.update(f"block:{key}:{i}" for i, (b, a) in enumerate(zip(before[key], value)) if b != a)
            else:
                expected.add("block:facts")
        assert expected, "the bids changed nothing"
        assert set(_page_state(page)["marked"]) == expected


def test_the_legal_list_shows_moves_in_words_with_their_text_and_the_notes(live_server, page):
    """Issue 21 item 5 on the page: each legal move reads in people's words (the payload's `legal_words`)
    with its move text under it, clicking still plays the move text, and the notes (what the next move
    costs, why moves are missing) follow the list."""
    page.goto(f"{live_server}/?players=2&seed=3&seats=human,random")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    game = page.evaluate("window.buranoPage().game")
    buttons = page.locator("#legal button")
    assert buttons.count() == len(game["legal"]) == len(game["legal_words"])
    for i, (move, words) in enumerate(zip(game["legal"], game["legal_words"])):
        button = buttons.nth(i)
        assert button.get_attribute("data-move") == move
        text = button.inner_text()
        assert text.splitlines()[0] == words
        if words != move:
            assert button.locator(".move-text").inner_text() == move
    assert "draw a flat roof tile" in page.locator("#legal").inner_text()
    notes = page.locator("#legal .move-note")
    assert [notes.nth(i).inner_text() for i in range(notes.count())] == game["notes"]
    with page.expect_response(lambda r: r.url.endswith("/move")) as answer:
        _click_move(page, "pick flat")
    assert answer.value.json()["log"][0].startswith("A: pick flat")
