"""A game's options besides its player count through the web API (`POST /api/games` "options",
`GET /api/games/kinds`): the new game is made with them, the seat's view and the record carry them, a
corrected data file drops the placeholder flag the board's caption reads, and every bad option is a 400
with one line naming it."""

from __future__ import annotations

import json

from burano_ai.record import GameRecord
from games.azul_sintra.helpers import corrected_data



def _corrected() -> dict:
    return corrected_data("corrected (web test)")


def _create(client, options=None, kind="azul-sintra", seed=4):
    body = {"kind": kind, "players": 2, "seats": ["human", "random"], "seed": seed}
    if options is not None:
        body["options"] = options
    return client.post("/api/games", json=body)


def _assert_error(response, *words: str) -> None:
    assert response.status_code == 400, (response.status_code, response.text)
    body = response.json()
    assert "\n" not in body["error"] and "Traceback" not in body["error"], body
    for word in words:
        assert word in body["error"], (word, body)


def test_the_kinds_list_each_games_options_for_the_form(client):
    kinds = {k["key"]: k for k in client.get("/api/games/kinds").json()["kinds"]}
    assert kinds["burano"]["options"] == []
    azul = {o["name"]: o for o in kinds["azul-sintra"]["options"]}
    assert azul["side"]["kind"] == "choice" and azul["side"]["choices"] == ["A", "B"] and azul["side"]["default"] == "A"
    assert azul["first_player"]["kind"] == "int" and (azul["first_player"]["low"], azul["first_player"]["high"]) == (0, 3)
    assert azul["data"]["kind"] == "data" and azul["data"]["default"] is None and azul["data"]["help"]


def test_a_new_game_of_the_options(client):
    options = {"side": "B", "first_player": 1, "data": _corrected()}
    response = _create(client, options)
    assert response.status_code == 200, response.text
    payload = response.json()
    view = payload["view"]
    assert view["side"] == "B" and view["data"] == _corrected()
    assert view["data"]["placeholder"] is False          # what the board's caption reads
    assert payload["setup"]["options"] == options
    token = payload["tokens"][payload["seat"]]
    record = client.get(f"/api/games/{payload['game']}/record", headers={"X-Burano-Token": token})
    assert record.status_code == 200
    saved = GameRecord.from_json(record.text)
    assert saved.options == options
    assert saved.replay().to_dict()["side"] == "B"
    plain = _create(client).json()
    assert "options" not in plain["setup"] and plain["view"]["data"] is None and plain["view"]["side"] == "A"


def test_bad_options_are_one_line_400s(client):
    _assert_error(_create(client, {"side": "C"}), "options.side: expected A or B, not 'C'")
    _assert_error(_create(client, {"colour": "red"}), "options: unknown option 'colour'", "side, first_player")
    _assert_error(_create(client, {"first_player": 3}), "options: azul-sintra first_player must be a seat 0..1")
    _assert_error(_create(client, {"data": {"format": "x"}}), "options.data: azul-sintra data.format")
    _assert_error(_create(client, {"data": "file.json"}), "options.data: expected a JSON object")
    _assert_error(_create(client, ["side"]), "options")
    _assert_error(_create(client, {"side": "B"}, kind="burano"), "Burano takes no options")


def test_a_bot_that_cannot_play_the_options_is_a_one_line_400_naming_its_seat(client):
    """OpenSpiel's bots and joker_choice (856 actions, 456 declared): refused before the game is made."""
    import pytest
    pytest.importorskip("pyspiel")
    body = {"kind": "azul-sintra", "players": 2, "seats": ["human", "openspiel-mcts:iterations=5"], "seed": 4,
            "options": {"joker_choice": True}}
    _assert_error(client.post("/api/games", json=body), "seats[1] (B)", "joker_choice")
    body["options"] = {"auto_keep": True}
    assert client.post("/api/games", json=body).status_code == 200


def test_the_new_game_form_offers_the_options_and_plays_by_them(live_server, page, tmp_path):
    """In Chromium: the form grows a field per declared option of the chosen game (none for Burano); a
    game started with side B and a corrected data file is drawn on side B without the placeholder caption."""
    from .conftest import screenshot
    corrected = tmp_path / "corrected.json"
    corrected.write_text(json.dumps(_corrected()), encoding="utf-8")
    page.goto(f"{live_server}/")
    page.wait_for_function("window.buranoReady === true")
    assert page.locator("#game-options [data-option]").count() == 0          # Burano: no options
    page.select_option("#kind", "azul-sintra")
    names = page.locator("#game-options [data-option]").evaluate_all("xs => xs.map(x => x.dataset.option)")
    assert {"side", "first_player", "data"} <= set(names)
    page.select_option("#opt-side", "B")
    page.set_input_files("#opt-data", str(corrected))
    page.click("#new-game")
    page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
    view = page.evaluate("window.buranoState()")
    assert view["side"] == "B" and view["data"]["placeholder"] is False
    assert page.locator("#board .az-caption").count() == 0
    assert "side B" in page.locator("#board").inner_text()
    screenshot(page, "options-azul-side-b")
    # without the file: the placeholder caption is back
    page.set_input_files("#opt-data", [])
    page.click("#new-game")
    page.wait_for_function("window.buranoState() && window.buranoState().data === null")
    assert page.locator("#board .az-caption").count() == 1
