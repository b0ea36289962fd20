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


#: The page has its game and the seat's legal moves.
GAME_READY = "window.buranoPage().game && window.buranoPage().legal.length > 0"


def open_game(page, url: str, record: bool = False) -> dict:
    """Open the page at `url` (recording every response it receives, RECORD_RESPONSES, when `record`) and
    wait for its game and the seat's legal moves; returns the page's state."""
    if record:
        page.add_init_script(RECORD_RESPONSES)
    page.goto(url)
    page.wait_for_function(GAME_READY)
    return _page_state(page)


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
    page.click("#replay-game")   # the game just played, stepped through as seat A saw it
    page.wait_for_function("window.buranoPage().tab === 'replay' && window.buranoPage().replay && window.buranoPage().replay.plies > 0")
    page.click("#tabs button[data-tab='play']")
    page.wait_for_function("window.buranoPage().tab === 'play' && window.buranoPage().game.over")
    assert page.locator("#result").inner_text().startswith("Game over")
    print(f"clicks on the board {on_board}, in the list {listed}")
    assert on_board >= 0.8 * (on_board + listed), (on_board, listed)

    # The record download goes through the page's fetch too, so it is checked with the rest.
    record = json.loads(page.evaluate("fetch(document.querySelector('#download').href).then(r => r.text())"))
    assert record["format"] == "burano-game/1" and record["view"] == "A"

    # The honest-view check: everything the page received, against the server's secrets.
    page.wait_for_function("window.__received.some(t => t.includes('burano-game/1'))")
    received = page.evaluate("window.__received")
    assert len(received) > on_board
    game_id = state["game"]["id"]
    session = _server_game(live_server, game_id).session
    hidden_moves = [i for i, step in enumerate(session.record.steps)
                    if step.seen_by is not None and "A" not in step.seen_by]
    assert hidden_moves, "the game had no hidden step: the check would prove nothing"
    seat_views = [state.to_dict(0) for _ply, state in session.record.positions()]
    for text in received:
        _check_honest(json.loads(text), session, hidden_moves, seat_views)


def _server_game(live_server, game_id):
    """The live server's game (the test reads the server's secrets to look for them in the page's data)."""
    return live_server.app.state.games.get(game_id)


def _value_at(view, path):
    for key in path:
        if isinstance(view, dict):
            view = view.get(key)
        elif isinstance(view, list) and isinstance(key, int) and 0 <= key < len(view):
            view = view[key]
        else:
            return None
    return view


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


def check_marks(payload, seat_views) -> None:
    """Every last-move mark's value in `payload` is the one in seat A's view after its step (`seat_views`:
    A's view after each step of the game)."""
    if isinstance(payload, dict) and isinstance(payload.get("marks"), dict):
        marks = payload["marks"]
        for i, changes in enumerate(marks["steps"]):
            step = marks["first"] + i
            for path, _before, after in changes:
                assert _value_at(seat_views[step + 1], path) == after, f"a mark of step {step} is not in A's view"


def _check_honest(payload, session, hidden_moves, seat_views=None):
    """No view but seat A's, no opponent's blind card or secret pyramid; with `seat_views` (seat A's view
    after each step of the game), every last-move mark's value is the one in A's view after its step."""
    if seat_views is not None:
        check_marks(payload, seat_views)
    for view in views_in(payload, "burano-position/1"):
        assert view["view"] == "A", "the page received a view that is not its seat's"
        for seat in view["seats"]:
            if seat["seat"] == "A":
                continue
            assert isinstance(seat["hand"]["blind"], int), "an opponent's blind cards reached the page"
            if view["stage"] == "pyramid":
                assert seat["pyramid"] is None and seat["reserve"] is None, "a secret pyramid reached the page"
    if isinstance(payload, dict) and payload.get("format") == "burano-game/1":
        for i in hidden_moves:
            if session.record.steps[i].kind == "fish-draw":
                assert payload["steps"][i]["move"] is None, f"the record shows hidden draw {i}"
    if isinstance(payload, dict) and isinstance(payload.get("steps"), list) and payload.get("plies") is not None:
        for i in hidden_moves:   # a replay's narrated steps
            assert session.record.steps[i].move not in payload["steps"][i], f"replay shows hidden step {i}"
    if isinstance(payload, dict) and "log" in payload:
        for i in hidden_moves:
            if i < len(payload["log"]):
                step = session.record.steps[i]
                assert step.move not in payload["log"][i], f"hidden step {i} ({step.move}) reached the page"


def test_the_analysis_panel_streams_candidates_and_stops_on_request(live_server, page):
    page.goto(f"{live_server}/?players=2&seed=4&seats=human,random")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    page.click("#hint")
    page.wait_for_function("(() => { const a = window.buranoPage().analysis; return a && a.reports >= 2 && !a.done; })()")
    assert page.locator("#candidates tbody tr").count() >= 2
    first = page.locator("#candidates tbody tr").first
    legal = _page_state(page)["legal"]
    assert first.get_attribute("data-move") in legal
    first.hover()
    assert page.locator("#analysis-plan").inner_text().startswith("plan: ")
    assert page.locator("#board .plan-badge").count() >= 1   # the plan's steps numbered on the board
    screenshot(page, "analyse")
    page.click("#analysis-stop")
    page.wait_for_function("window.buranoPage().analysis.done")
    stopped = _page_state(page)["analysis"]
    assert stopped["result"]["candidates"] and "stopped" in page.locator("#analysis-info").inner_text()
    page.wait_for_timeout(600)   # nothing more arrives after the stop
    assert _page_state(page)["analysis"]["result"]["iterations"] == stopped["result"]["iterations"]
    # "×" on a candidate searches again without it
    best = page.locator("#candidates tbody tr").first.get_attribute("data-move")
    page.locator("#candidates tbody tr").first.locator("button.avoid").click()
    page.wait_for_function("([id]) => { const a = window.buranoPage().analysis; return a.id !== id && a.reports >= 1; }",
                           arg=[stopped["id"]])
    assert best not in [c["move"] for c in _page_state(page)["analysis"]["result"]["candidates"]]
    assert best in page.locator("#analysis-avoid").inner_text()
    page.click("#analysis-stop")
    page.wait_for_function("window.buranoPage().analysis.done")


def _expected_editor_position():
    from burano_ai.games.burano.deal import deal
    from burano_ai.games.burano.notation import position_to_dict
    expected = position_to_dict(deal(2, 4))
    fountain = expected["island"]["cubes"]["e5"]
    expected["island"]["cubes"] = {"e5": fountain, "d4": ["pink"], "f6": ["green"], "c3": ["orange"]}
    expected["seats"][0]["coins"] = 7
    expected["seats"][1]["vp"] = 5
    expected["seats"][0]["boat"] = "I2"
    expected["seats"][1]["workshop"] = ["r0c0"]
    expected["seats"][1]["ring"]["workers"] -= 1
    return expected


def test_the_editor_builds_a_position_equal_to_a_given_json(live_server, page):
    expected = _expected_editor_position()
    page.goto(f"{live_server}/?tab=editor")
    page.select_option("#ed-players", "2")
    page.fill("#ed-seed", "4")
    page.click("#ed-deal")
    page.wait_for_function("window.buranoPage().editorValid && window.buranoPage().editor.players === 2")
    for colour, hole in (("pink", "d4"), ("green", "f6"), ("yellow", "c3")):
        page.click(f'#ed-palette button[data-colour="{colour}"]')
        page.locator(f'#board [data-key="hole:{hole}"]').click()
    page.click('#ed-palette button[data-colour="erase"]')   # a wrong cube is taken off again
    page.locator('#board [data-key="hole:c3"]').click()
    page.click('#ed-palette button[data-colour="orange"]')
    page.locator('#board [data-key="hole:c3"]').click()
    page.click('#ed-tools button[data-tool="worker"]')
    page.select_option("#ed-seat", "B")
    page.locator('#board [data-key="sq:r0c0"]').click()
    page.click('#ed-tools button[data-tool="boat"]')
    page.select_option("#ed-seat", "A")
    page.locator('#board [data-key="node:I2"]').click()
    page.fill("#ed-A-coins", "-1")
    page.dispatch_event("#ed-A-coins", "change")
    error = page.locator("#ed-error")
    error.wait_for(state="visible")
    assert "coins" in error.inner_text()
    assert page.evaluate("document.querySelector('#ed-A-coins').classList.contains('bad')")
    # the message sits next to the field it names
    assert page.evaluate("document.querySelector('#ed-A-coins').parentElement.nextElementSibling.id") == "ed-error"
    screenshot(page, "editor-error")
    page.fill("#ed-A-coins", "7")
    page.dispatch_event("#ed-A-coins", "change")
    page.fill("#ed-B-vp", "5")
    page.dispatch_event("#ed-B-vp", "change")
    page.wait_for_function("window.buranoPage().editorValid && window.buranoPage().editor.seats[1].vp === 5")
    assert page.locator("#ed-error").is_hidden()
    built = _page_state(page)["editor"]
    assert built == expected
    assert json.loads(page.input_value("#ed-json")) == expected
    assert page.evaluate("window.buranoState()")["island"]["cubes"]["c3"] == ["orange"]
    screenshot(page, "editor")
    page.click("#ed-analyse")   # "analyse this" hands the position to the analysis view
    page.wait_for_function("(() => { const a = window.buranoPage().analysis; return a && a.reports >= 1; })()")
    assert _page_state(page)["tab"] == "analyse"
    page.click("#analysis-stop")
    page.wait_for_function("window.buranoPage().analysis.done")


def test_a_replay_steps_through_a_record(live_server, page):
    from burano_ai.record import GameRecord
    path = __import__("pathlib").Path(__file__).resolve().parents[2] / "burano_ai" / "games" / "burano" / "data" / "examples" / "game-2p.json"
    record = GameRecord.load(path)
    page.goto(f"{live_server}/?tab=replay")
    page.set_input_files("#rp-file", str(path))
    page.wait_for_function("document.querySelector('#rp-json').value.length > 100")
    page.select_option("#rp-seat", "B")
    page.click("#rp-open")
    page.wait_for_function("window.buranoPage().replay && window.buranoPage().replay.plies > 0")
    assert _page_state(page)["replay"]["plies"] == len(record.steps)
    assert page.evaluate("window.buranoState()") == record.replay(0).to_dict(1)
    for _ in range(3):
        page.click("#rp-next")
    page.wait_for_function("window.buranoPage().replay.ply === 3")
    assert page.evaluate("window.buranoState()") == record.replay(3).to_dict(1)
    target = len(record.steps) // 2
    page.evaluate(f"(() => {{ const s = document.querySelector('#rp-slider'); s.value = {target}; s.dispatchEvent(new Event('input')); }})()")
    page.wait_for_function(f"window.buranoPage().replay.ply === {target}")
    assert page.evaluate("window.buranoState()") == record.replay(target).to_dict(1)
    assert page.locator("#rp-step").inner_text().startswith("next: ")
    annotated = next(i for i, s in enumerate(record.steps) if s.annotations)
    page.evaluate(f"(() => {{ const s = document.querySelector('#rp-slider'); s.value = {annotated}; s.dispatchEvent(new Event('input')); }})()")
    page.wait_for_function(f"window.buranoPage().replay.ply === {annotated}")
    assert "an example comment" in page.locator("#rp-annotations").inner_text()
    screenshot(page, "replay")
    # "Analyse this": the replay's seat, at a ply where it decides, analysed from its view.
    ply = next(i for i, state in record.positions() if i > 40 and state.current_player() == 1
               and len(state.legal_actions()) > 1)
    page.evaluate(f"(() => {{ const s = document.querySelector('#rp-slider'); s.value = {ply}; s.dispatchEvent(new Event('input')); }})()")
    page.wait_for_function(f"window.buranoPage().replay.ply === {ply}")
    page.click("#rp-analyse")
    page.wait_for_function("(() => { const a = window.buranoPage().analysis; return a && a.reports >= 1; })()")
    assert _page_state(page)["tab"] == "analyse"
    assert page.evaluate("window.buranoState()") == record.replay(ply).to_dict(1)
    page.click("#analysis-stop")
    page.wait_for_function("window.buranoPage().analysis.done")


def _late_game_position():
    from burano_ai import Game
    from burano_ai.random_play import play_randomly
    state = Game(4).new_initial_state(seed=21)
    play_randomly(state, random.Random(4),
                  until=lambda s: s.season == 3 and s.round == 3 and s.current_player() >= 0 and s.phase == 2)
    return state.to_dict()


OVERLAPS = """() => {
  const boxes = [];
  const problems = [];
  const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const regions = Array.from(document.querySelectorAll('#board svg [data-region]'));
  for (const g of regions) {
    const bg = g.querySelector(':scope > rect.region-bg').getBoundingClientRect();
    const all = g.getBoundingClientRect();
    if (!inside(all, bg)) problems.push(`${g.dataset.region} spills out of its box`);
    if (!inside(bg, g.ownerSVGElement.getBoundingClientRect())) problems.push(`${g.dataset.region} spills out of its block`);
    for (const other of boxes) if (meet(bg, other.box)) problems.push(`${g.dataset.region} overlaps ${other.name}`);
    boxes.push({name: g.dataset.region, box: bg});
    const subs = Array.from(g.querySelectorAll('[data-subregion]')).map(s => [s.dataset.subregion, s.getBoundingClientRect()]);
    for (let i = 0; i < subs.length; i++) for (let j = i + 1; j < subs.length; j++)
      if (meet(subs[i][1], subs[j][1])) problems.push(`${g.dataset.region}: ${subs[i][0]} overlaps ${subs[j][0]}`);
  }
  const board = document.querySelector('#board').getBoundingClientRect(), sideEl = document.querySelector('#side');
  if (getComputedStyle(sideEl).display !== 'none' && getComputedStyle(sideEl).position !== 'absolute' && meet(board, sideEl.getBoundingClientRect()))
    problems.push('the board overlaps the side panel');
  if (board.right > window.innerWidth + 1) problems.push('the board is wider than the window');
  return {problems, regions: regions.length};
}"""


@pytest.mark.parametrize("width, height", [(1280, 800), (1920, 1080)])
def test_a_four_player_late_game_renders_without_overlap(live_server, page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    position = _late_game_position()
    page.goto(f"{live_server}/?tab=editor")
    page.wait_for_function("window.buranoPage().editorValid")
    page.fill("#ed-json", json.dumps(position))
    page.wait_for_function("window.buranoState() && window.buranoState().season === 'winter' && window.buranoPage().editorValid")
    result = page.evaluate(OVERLAPS)
    assert result["regions"] == 9
    assert result["problems"] == []
    screenshot(page, f"late-game-4p-{width}x{height}")


def test_the_overlap_check_finds_a_spill(live_server, page):
    """The layout check above can fail: a text running out of its seat panel is reported."""
    page.goto(f"{live_server}/?tab=editor")
    page.wait_for_function("window.buranoPage().editorValid && window.buranoState()")
    assert page.evaluate(OVERLAPS)["problems"] == []
    page.evaluate("""() => {
      const g = document.querySelector('[data-region="seat-A"] [data-subregion="facts"]');
      const t = document.createElementNS('http://www.w3.org/2000/svg', 'text');
      t.setAttribute('x', g.getBBox().x); t.setAttribute('y', g.getBBox().y + 10);
      t.textContent = 'buildings: ' + 'lace-colours-A, '.repeat(12);
      g.appendChild(t);
    }""")
    assert any("seat-A" in p for p in page.evaluate(OVERLAPS)["problems"])


def test_two_people_at_one_screen_see_the_seat_to_move(live_server, page):
    page.goto(f"{live_server}/?players=2&seats=human,human")   # two people: a secret deal
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    assert page.evaluate("window.buranoState().view") == "A"
    for kind in ("island", "workshop", "flat"):
        _click_move(page, f"pick {kind}")
        picked = ['island', 'workshop', 'flat'].index(kind) + 1
        page.wait_for_function(f"(() => {{ const v = window.buranoState(); "
                               f"return v === null || v.seats[0].roof_slots.filter(t => t).length >= {picked}; }})()")
    page.locator("#handover").wait_for(state="visible")   # A's board is gone before B sits down
    assert page.evaluate("window.buranoState()") is None
    assert "pass the screen to B" in page.locator("#handover-text").inner_text()
    page.click("#handover-go")
    page.wait_for_function("window.buranoState()?.view === 'B' && window.buranoPage().legal.length > 0")
    assert page.evaluate("window.buranoPage().seat") == "B"


def test_a_hot_seat_game_holds_its_tokens_and_a_stranger_cannot_open_a_seat(live_server, page, stranger_page):
    """Two people at one screen (issue 20): the page holds both seats' tokens (in the URL's #fragment, never
    sent to the server) and plays A, then B after the handover. Another browser with the page's URL but
    without the tokens gets no seat: the API answers 401/403, the page starts a game of its own; with B's
    token alone it opens seat B and never A."""
    page.goto(f"{live_server}/?players=2&seats=human,human")   # no seed: a secret deal
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    game_id = _page_state(page)["game"]["id"]
    fragment = page.evaluate("window.location.hash")
    tokens = dict(item.split(":") for item in fragment.removeprefix("#tokens=").split(","))
    live = _server_game(live_server, game_id)
    assert set(tokens) == {"A", "B"} and tokens == {"AB"[i]: t for i, t in live.tokens.items()}
    assert "seed=" not in page.url and "seeded" not in page.locator("#status").inner_text()
    for kind in ("island", "workshop", "flat"):
        version = _page_state(page)["game"]["version"]
        _click_move(page, f"pick {kind}")
        page.wait_for_function("([v]) => window.buranoPage().game.version > v", arg=[version])
    page.locator("#handover").wait_for(state="visible")
    page.click("#handover-go")
    page.wait_for_function("window.buranoState()?.view === 'B' && window.buranoPage().legal.length > 0")
    version = _page_state(page)["game"]["version"]
    move = _page_state(page)["legal"][0]
    _click_move(page, move)
    page.wait_for_function("([v]) => window.buranoPage().game.version > v", arg=[version])
    assert any(step.actor == "B" for step in live.session.record.steps)

    # the stranger: the URL without its fragment
    stranger_page.goto(page.url.split("#")[0])
    stranger_page.wait_for_function("window.buranoPage().game !== null")
    assert _page_state(stranger_page)["game"]["id"] != game_id   # a game of its own, not this one
    answers = stranger_page.evaluate("""async ([id]) => {
        const out = [];
        for (const url of [`/api/games/${id}`, `/api/games/${id}?seat=A`, `/api/games/${id}?seat=B`,
                           `/api/games/${id}/record?seat=A`, `/api/games/${id}/events?seat=A`,
                           `/api/games/${id}?token=not-a-token-of-this-game`]) {
          const r = await fetch(url); out.push([r.status, await r.text()]);
        }
        const r = await fetch(`/api/games/${id}/move`, {method: "POST", headers: {"Content-Type": "application/json"},
                                                        body: JSON.stringify({seat: "A", move: "done"})});
        out.push([r.status, await r.text()]);
        return out;
    }""", [game_id])
    assert [status for status, _ in answers] == [401, 401, 401, 401, 401, 403, 401], answers
    assert all('"view"' not in text for _, text in answers)
    # the stranger given B's token only (an invitation link): seat B, and A stays closed
    stranger_page.goto(f"{live_server}/?tab=play&game={game_id}#tokens=B:{tokens['B']}")
    stranger_page.wait_for_function(f"window.buranoPage().game?.id === '{game_id}'")
    assert stranger_page.evaluate("window.buranoState().view") == "B"
    status = stranger_page.evaluate("([id]) => fetch(`/api/games/${id}?seat=A`, {headers: {'X-Burano-Token': '"
                                    + tokens["B"] + "'}}).then(r => r.status)", [game_id])
    assert status == 403
    screenshot(stranger_page, "play-stranger-seat-b")


def test_the_honest_view_check_finds_a_leak():
    """The check above can fail: a full position, or another seat's blind cards, are caught."""
    from burano_ai.session import GameSession
    session = GameSession(2, 3, ["human", "random"])
    session.advance()
    while not any(s.seen_by for s in session.record.steps):
        session.play(0, session.legal_moves(0)[0])
        session.advance()
    hidden = [i for i, s in enumerate(session.record.steps) if s.seen_by is not None and "A" not in s.seen_by]
    full = session.state.to_dict()
    with pytest.raises(AssertionError):
        _check_honest({"view": full}, session, hidden)
    view_b = session.state.to_dict(1)
    with pytest.raises(AssertionError):
        _check_honest({"view": view_b}, session, hidden)
    leaked = session.state.to_dict(0)
    leaked["seats"][1]["hand"]["blind"] = {"tuna": 1}
    with pytest.raises(AssertionError):
        _check_honest({"view": leaked}, session, hidden)
    _check_honest({"view": session.state.to_dict(0)}, session, hidden)
    # the last-move marks: a change that is not seat A's view is caught, A's own changes pass
    from burano_ai.web.games import view_changes
    seat_views = [state.to_dict(0) for _ply, state in session.record.positions()]
    last = len(session.record.steps) - 1
    honest = {"marks": {"since": 0, "first": last, "steps": [view_changes(seat_views[last], seat_views[last + 1])]}}
    _check_honest(honest, session, hidden, seat_views)
    full_hand = session.state.to_dict()["seats"][1]["hand"]["blind"]
    assert isinstance(full_hand, dict)
    leak = {"marks": {"since": 0, "first": last, "steps": [[[["seats", 1, "hand", "blind"], 0, full_hand]]]}}
    with pytest.raises(AssertionError):
        _check_honest(leak, session, hidden, seat_views)


def test_a_thinking_bot_shows_and_a_reload_finds_the_game_again(live_server, page):
    page.goto(f"{live_server}/?players=2&seed=6&seats=human,ismcts:time=0.6")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    game_id = _page_state(page)["game"]["id"]
    assert f"game={game_id}" in page.url
    for kind in ("island", "workshop", "flat"):
        version = _page_state(page)["game"]["version"]
        _click_move(page, f"pick {kind}")
        page.wait_for_function("([v]) => window.buranoPage().game.version > v", arg=[version])
    page.locator("#thinking").wait_for(state="visible")
    assert page.locator("#thinking-text").inner_text() == "B is thinking…"
    screenshot(page, "play-thinking")
    page.wait_for_function("window.buranoPage().legal.length > 0 && !window.buranoPage().game.thinking")
    assert page.locator("#thinking").is_hidden()
    log = page.locator("#log li").all_inner_texts()
    assert any(line.startswith("B: pick") for line in log)
    page.reload()
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    assert _page_state(page)["game"]["id"] == game_id
    assert page.locator("#log li").all_inner_texts() == log


def test_the_editor_lays_a_roof_and_turns_a_ring(live_server, page):
    from burano_ai.games.burano.deal import deal
    from burano_ai.games.burano.notation import position_to_dict
    expected = position_to_dict(deal(2, 4))
    expected["island"]["cubes"].update({"d4": ["blue"], "f4": ["pink"]})
    expected["island"]["roofs"] = [{"level": 1, "cells": ["d4", "f4"], "fields": ["blue", "pink"], "kind": "island"}]
    expected["seats"][1]["ring"]["offset"] = (expected["seats"][1]["ring"]["offset"] + 2) % 12
    page.goto(f"{live_server}/?tab=editor")
    page.select_option("#ed-players", "2")
    page.fill("#ed-seed", "4")
    page.click("#ed-deal")
    page.wait_for_function("window.buranoPage().editorValid && window.buranoPage().editor.players === 2")
    for colour, hole in (("blue", "d4"), ("pink", "f4")):
        page.click(f'#ed-palette button[data-colour="{colour}"]')
        page.locator(f'#board [data-key="hole:{hole}"]').click()
    page.click('#ed-tools button[data-tool="roof"]')
    page.select_option("#ed-roof-kind", "island")
    page.locator('#board [data-key="hole:d4"]').click()
    page.locator('#board [data-key="hole:f4"]').click()
    page.click('#ed-tools button[data-tool="ring"]')
    for _ in range(2):
        version = json.dumps(_page_state(page)["editor"]["seats"][1]["ring"])
        page.locator('#board [data-key="ring:B"] circle').first.click()
        page.wait_for_function("([v]) => JSON.stringify(window.buranoPage().editor.seats[1].ring) !== v", arg=[version])
    page.wait_for_function("window.buranoPage().editorValid")
    assert _page_state(page)["editor"] == expected
    assert page.evaluate("window.buranoState()")["island"]["roofs"] == expected["island"]["roofs"]


def _decisions_of_random_games(games: int = 12, per_family: int = 25):
    """(seat's view, legal move texts) at decisions of random 2-4 player games: each decision kept while
    one of its move families has been seen fewer than `per_family` times."""
    from collections import Counter

    from burano_ai import Game
    from burano_ai.random_play import random_step
    out, counts = [], Counter()
    for g in range(games):
        state = Game(2 + g % 3).new_initial_state(seed=100 + g)
        rng = random.Random(g)
        while not state.is_terminal():
            seat = state.current_player()
            if seat >= 0:
                legal = [state.action_to_string(a) for a in state.legal_actions()]
                families = {m.split(" ")[0] for m in legal}
                if any(counts[f] < per_family for f in families):
                    counts.update(families)
                    out.append((state.to_dict(seat), legal))
            random_step(state, rng)
    return out


def test_every_move_family_has_its_element_on_the_board(live_server, page):
    """For decisions sampled from random 2-4 player games, every legal move's board element exists, so
    each move can be clicked on the board (the list is only a fallback)."""
    samples = _decisions_of_random_games()
    page.goto(f"{live_server}/?tab=replay")
    page.wait_for_function("window.buranoReady")
    missing = page.evaluate("""(samples) => {
      const box = document.createElement('div');
      document.body.appendChild(box);
      const missing = {}, seen = {};
      for (const [view, legal] of samples) {
        box.innerHTML = BuranoBoard.renderBoard(view, {seat: view.view, roofLines: BuranoBoard.roofLines(legal)});
        for (const move of legal) {
          const family = move.split(' ')[0];
          seen[family] = (seen[family] || 0) + 1;
          const key = BuranoBoard.moveTargets(move, view, view.view)[0];
          if (!key || !box.querySelector(`[data-key="${CSS.escape(key)}"]`)) (missing[family] = missing[family] || []).push(move);
        }
      }
      box.remove();
      return {missing, seen};
    }""", samples)
    families = set(missing["seen"])
    assert {"take", "build", "roof", "pyramid", "sail", "draw", "lace", "recall", "bonus", "pay", "pick",
            "done", "privilege", "sell", "send", "discard", "swap", "with", "go", "replenish"} <= families, families
    assert missing["missing"] == {}, {k: v[:3] for k, v in missing["missing"].items()}


def test_a_replay_draws_the_annotated_win_graph(live_server, page, tmp_path):
    from burano_ai.record import GameRecord
    path = __import__("pathlib").Path(__file__).resolve().parents[2] / "burano_ai" / "games" / "burano" / "data" / "examples" / "game-2p.json"
    record = GameRecord.load(path)
    annotated = [i for i, s in enumerate(record.steps) if s.actor in ("A", "B") and s.visible_to("A")][::10]
    secret = next(i for i, s in enumerate(record.steps) if not s.visible_to("A"))
    record.steps[secret].annotations = {"best": record.steps[secret].move, "played_win": 0.5}
    for n, i in enumerate(annotated):
        record.steps[i].annotations = {"played_win": (n % 10) / 10, **({"flag": "mistake"} if n == 3 else {})}
    page.goto(f"{live_server}/?tab=replay")
    page.fill("#rp-json", record.to_json())
    page.click("#rp-open")
    page.wait_for_function("window.buranoPage().replay && window.buranoPage().replay.plies > 0")
    assert page.locator("#rp-graph .win-point").count() == len(annotated)
    page.locator(f'#rp-graph .win-point[data-ply="{annotated[3]}"]').click()
    page.wait_for_function(f"window.buranoPage().replay.ply === {annotated[3]}")
    assert page.locator("#rp-annotations").inner_text().startswith("Mistake: ")
    screenshot(page, "replay-graph")
    # a step seat A did not see keeps its annotations to itself (they may name the move)
    page.evaluate(f"(() => {{ const s = document.querySelector('#rp-slider'); s.value = {secret}; s.dispatchEvent(new Event('input')); }})()")
    page.wait_for_function(f"window.buranoPage().replay.ply === {secret}")
    assert page.locator("#rp-annotations").inner_text() == ""
    assert page.locator(f'#rp-graph .win-point[data-ply="{secret}"]').count() == 0


def test_long_bot_names_keep_the_seat_panels_apart(live_server, page):
    spec = "ismcts:iterations=50,threads=1"
    page.goto(f"{live_server}/?players=4&seed=9&seats=human;{spec};{spec};{spec}")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    result = page.evaluate(OVERLAPS)
    assert result["regions"] == 9 and result["problems"] == []


# -- several games: the chooser, the generic board ---------------------------------------------------


def _click_generic(page, move: str) -> None:
    """Click `move`'s button on the generic board (every legal move has one there)."""
    page.locator(f"#board button.gb-move.legal[data-move={json.dumps(move)}]").click()


def click_through_generic(page, fmt: str, choose, check=None, after_click=None) -> tuple[dict, int]:
    """Seat A's moves clicked on the generic board to the game's end: at each decision the view is A's (of
    format `fmt`) with one button per legal move in the server's order (`check(view, legal)`: the game's
    own assertions), and the button of `choose(view, legal)` is clicked (then `after_click(clicks)`, once
    the page has its next turn). Returns the final page state and the clicks."""
    state = _page_state(page)
    clicks = 0
    while not state["game"]["over"]:
        view = page.evaluate("window.buranoState()")
        assert view["format"] == fmt and view["view"] == "A"
        buttons = page.locator("#board button.gb-move").evaluate_all("bs => bs.map(b => b.dataset.move)")
        assert buttons == state["legal"]   # one button per legal move, in the server's order
        if check is not None:
            check(view, state["legal"])
        _click_generic(page, choose(view, state["legal"]))
        clicks += 1
        page.wait_for_function(WAIT_FOR_TURN, arg=[state["game"]["version"]])
        if after_click is not None:
            after_click(clicks)
        state = _page_state(page)
    return state, clicks


def test_a_whole_game_on_the_generic_board(live_server, page):
    """Burano with ?board=generic: the view as text blocks and a button per legal move, played to the end
    against a random bot by clicking those buttons; the same honest-view check as on the drawn board."""
    page.add_init_script(RECORD_RESPONSES)
    page.goto(f"{live_server}/?kind=burano&board=generic&players=2&seed=12&seats=human,random")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    assert _page_state(page)["board"] == "generic"
    assert page.locator("#board svg").count() == 0 and page.locator("#generic-board").is_checked()
    screenshot(page, "generic-start")
    rng = random.Random(7)

    def choose(view, legal):
        return _choose(rng, legal, view.get("context", {}).get("moves", 0) if view["phase"] == "turn" else 0)

    def midgame(clicks):
        if clicks == 30:
            # the view's blocks: the facts and one block per seat, the page's own seat marked
            assert page.locator('#board .gb-block[data-block="facts"]').count() == 1
            assert page.locator("#board .gb-block.me h4").inner_text() == "seats · seat A (you)"
            screenshot(page, "generic-midgame")
    state, clicks = click_through_generic(page, "burano-position/1", choose, after_click=midgame)
    assert page.locator("#result").inner_text().startswith("Game over")
    assert page.locator("#board button.gb-move").count() == 0
    session = _server_game(live_server, state["game"]["id"]).session
    assert session.is_over() and clicks == sum(1 for s in session.record.steps if s.actor == "A")
    hidden_moves = [i for i, step in enumerate(session.record.steps)
                    if step.seen_by is not None and "A" not in step.seen_by]
    assert hidden_moves
    for text in page.evaluate("window.__received"):
        _check_honest(json.loads(text), session, hidden_moves)
    # the replay of the game is shown on the generic board too: the view at each ply as text
    page.click("#replay-game")
    page.wait_for_function("window.buranoPage().tab === 'replay' && window.buranoPage().replay?.plies > 0")
    assert _page_state(page)["board"] == "generic" and page.locator("#board .gb-block").count() > 3
    assert page.locator("#board button.gb-move").count() == 0
    page.click("#tabs button[data-tab='play']")
    # the "text board" box turns the drawn board back on, for the same game
    page.uncheck("#generic-board")
    page.wait_for_function("window.buranoPage().board === 'burano'")
    assert page.locator("#board .board-blocks").count() == 1 and "board=generic" not in page.url


@pytest.fixture
def second_game(monkeypatch):
    """A second registered game for the chooser: Burano declared without a board module or editor, for
    2-3 players (the real second game, Goofspiel, has neither either)."""
    import dataclasses

    from burano_ai import games
    spec = dataclasses.replace(games.get_spec("burano"), key="burano-text", title="Burano (text)", max_players=3,
                               default_players=3, capabilities=frozenset({"native_search", "hidden_information"}))
    monkeypatch.setitem(games.REGISTRY, spec.key, "tests.web:unused")
    monkeypatch.setitem(games._loaded, spec.key, spec)
    return spec


def test_the_chooser_switches_games(live_server, page, second_game):
    page.goto(f"{live_server}/")
    page.wait_for_function("window.buranoReady")
    from burano_ai.games import all_specs
    options = page.locator("#kind option").evaluate_all("os => os.map(o => [o.value, o.textContent])")
    assert options == [[spec.key, spec.title] for spec in all_specs()]   # every registered game, Burano first
    assert options[0] == ["burano", "Burano"] and options[-1] == ["burano-text", "Burano (text)"]
    assert page.locator("#players option").all_inner_texts() == ["2", "3", "4"]
    assert page.locator("#tabs button[data-tab='editor']").is_visible()
    assert page.evaluate("[...document.querySelectorAll('#bot-specs option.own')].map(o => o.value)") == ["greedy"]
    # the other game: its player range and default count, no editor, the generic board
    page.select_option("#kind", "burano-text")
    assert page.locator("#players option").all_inner_texts() == ["2", "3"]
    assert page.locator("#players").input_value() == "3"
    assert page.locator("#seat-specs input").count() == 3
    assert page.locator("#tabs button[data-tab='editor']").is_hidden()
    page.fill("#spec-B", "random")
    page.fill("#spec-C", "random")
    page.click("#new-game")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    state = _page_state(page)
    assert state["game"]["kind"] == "burano-text" and state["board"] == "generic"
    assert "kind=burano-text" in page.url
    assert page.locator("#board button.gb-move").count() == len(state["legal"])
    assert _server_game(live_server, state["game"]["id"]).spec.key == "burano-text"
    screenshot(page, "chooser-second-game")
    _click_generic(page, state["legal"][0])
    page.wait_for_function("([v]) => window.buranoPage().game.version > ([v])[0]", arg=[state["game"]["version"]])
    # and back: Burano's own board and editor
    page.select_option("#kind", "burano")
    assert page.locator("#tabs button[data-tab='editor']").is_visible()
    page.select_option("#players", "2")
    page.click("#new-game")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().game.kind === 'burano' "
                           "&& window.buranoPage().legal.length > 0")
    assert _page_state(page)["board"] == "burano" and page.locator("#board .board-blocks").count() == 1
    # a reload of the other game's URL finds it with its own kind again
    page.goto(f"{live_server}/?kind=burano-text&players=2&seed=1&seats=human,random&tab=editor")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    assert _page_state(page)["tab"] == "play"   # no editor for this game: the play tab instead
    assert _page_state(page)["game"]["kind"] == "burano-text"


def _check_goofspiel_honest(payload, session, hidden_moves):
    """Seat A's page: every Goofspiel view is A's, with no other seat's bid of this round; no hidden bid
    in the log."""
    for view in views_in(payload, "goofspiel-position/1"):
        assert view["view"] == "A", "the page received a view that is not its seat's"
        for i, seat in enumerate(view["seats"][1:], 1):
            assert seat["bid"] in (None, "?"), f"seat {i}'s bid reached the page: {seat['bid']}"
    if isinstance(payload, dict) and "log" in payload:
        for i in hidden_moves:
            if i < len(payload["log"]):
                assert session.record.steps[i].move not in payload["log"][i], f"hidden bid {i} reached the page"


def test_a_whole_goofspiel_game_against_a_bot_on_the_generic_board(live_server, page):
    """The second game, chosen in the form: its player range, no editor, the generic board; played to
    the end against an ISMCTS bot (and a random one) by clicking the move buttons; nothing of the bots'
    secret bids reaches the page."""
    page.add_init_script(RECORD_RESPONSES)
    page.goto(f"{live_server}/")
    page.wait_for_function("window.buranoReady")
    page.select_option("#kind", "goofspiel")
    assert page.locator("#players option").all_inner_texts() == ["2", "3", "4", "5"]
    assert page.locator("#players").input_value() == "2"
    assert page.locator("#tabs button[data-tab='editor']").is_hidden()
    assert page.evaluate("document.querySelectorAll('#bot-specs option.own').length") == 0   # no greedy here
    page.select_option("#players", "3")   # with 3, B's bid is secret until the round ends (C's reveals it)
    page.fill("#spec-B", "ismcts:iterations=200,threads=1")
    page.fill("#spec-C", "random")
    page.click("#new-game")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    state = _page_state(page)
    assert state["game"]["kind"] == "goofspiel" and state["board"] == "generic" and "kind=goofspiel" in page.url
    assert page.locator("#status").inner_text().startswith("Goofspiel · your move")
    screenshot(page, "goofspiel-start")

    def bids_of_the_hand(view, legal):
        assert legal == [f"bid {card}" for card in view["seats"][0]["hand"]]
    rng = random.Random(3)
    state, bids = click_through_generic(page, "goofspiel-position/1", lambda _view, legal: rng.choice(legal),
                                        bids_of_the_hand)
    screenshot(page, "goofspiel-over")
    assert page.locator("#result").inner_text().startswith("Game over")
    session = _server_game(live_server, state["game"]["id"]).session
    assert session.is_over() and session.record.seats[1].player.startswith("ismcts")
    assert bids == sum(1 for step in session.record.steps if step.actor == "A") >= 12
    record = json.loads(page.evaluate("fetch(document.querySelector('#download').href).then(r => r.text())"))
    assert record["game"] == "goofspiel" and record["view"] == "A"
    hidden_moves = [i for i, step in enumerate(session.record.steps)
                    if step.seen_by is not None and "A" not in step.seen_by]
    assert hidden_moves, "the bot's bids were all public: the check would prove nothing"
    received = page.evaluate("window.__received")
    for text in received:
        _check_goofspiel_honest(json.loads(text), session, hidden_moves)


def test_the_goofspiel_honest_check_finds_a_leak():
    """The check above can fail: a full position, or another seat's bid in A's view, are caught."""
    from burano_ai.session import GameSession
    session = GameSession(3, 4, ["human", "random", "random"], game="goofspiel")
    session.advance()
    session.play(0, session.legal_moves(0)[0])
    session.advance(should_stop=lambda: session.state.to_dict()["seats"][1]["bid"] is not None)
    hidden = [i for i, s in enumerate(session.record.steps) if s.seen_by is not None and "A" not in s.seen_by]
    assert hidden
    with pytest.raises(AssertionError):
        _check_goofspiel_honest({"view": session.state.to_dict()}, session, hidden)
    leaked = session.state.to_dict(0)
    leaked["seats"][1]["bid"] = session.state.to_dict()["seats"][1]["bid"]
    with pytest.raises(AssertionError):
        _check_goofspiel_honest({"view": leaked}, session, hidden)
    with pytest.raises(AssertionError):
        _check_goofspiel_honest({"log": [session.narrate(s, 1) for s in session.record.steps]}, session, hidden)
    _check_goofspiel_honest({"view": session.state.to_dict(0), "log": [session.narrate(s, 0) for s in session.record.steps]},
                            session, hidden)
