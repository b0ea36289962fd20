"""Walking in Burano positions and data: the `walking-in-burano-position/1` JSON and its schema, one-seat
views and the hidden-return pool (WD-27), strict validation with one-line errors naming the field, the
card data file and its loader, random-game invariants at every player count, and the text board."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from burano_ai.core.errors import OptionError, PositionError
from burano_ai.games.walking_in_burano import data as D
from burano_ai.games.walking_in_burano.data import NUM_CARDS, card_level
from burano_ai.games.walking_in_burano.position import (
    Options, new_position, position_from_dict, position_from_json, position_to_dict,
)
from burano_ai.games.walking_in_burano.render import render_lines
from positions import check_every_view, set_item
from .helpers import SPEC, building, dealt, game, random_step

ROOT = Path(__file__).resolve().parents[3]
jsonschema = pytest.importorskip("jsonschema")
SCHEMA = json.loads((ROOT / "docs" / "walking-in-burano-position.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
OPTION_SETS = ({}, {"public_returns": True}, {"fewer_characters": True, "no_window_penalty": True},
               {"literal_cost": True, "first_player": 1, "boy_scoring": "sets"})


def positions(n, seed=0, every=7, **options):
    rng = random.Random(seed)
    s = game(n, **options).new_initial_state()
    ply = 0
    while True:
        if ply % every == 0 or s.is_terminal():
            yield s.clone()
        if s.is_terminal():
            return
        random_step(s, rng)
        ply += 1


# --- data --------------------------------------------------------------------------------------------

def test_the_rulebook_numbers():
    assert (D.NUM_CARDS, D.CARDS_PER_LEVEL, D.NUM_COLOURS, D.LEVELS) == (72, 24, 6, 3)
    assert (D.START_COINS, D.COIN_CAP, D.HAND_LIMIT, D.BONUS_TOKENS, D.SCAFFOLDS, D.MAX_HOUSES) == (4, 6, 3, 4, 2, 5)
    assert D.BUILD_COSTS == (1, 2, 2) and D.BUILD_COSTS_LITERAL == (1, 3, 3) and D.ROUND_GUARD == 30
    assert [sum(D.CHARACTER_COPIES[p]) for p in (2, 3, 4)] == [15, 22, 26]
    assert D.POLICE_TABLE == (0, 5, 9, 15) and D.SHOPOWNER_TABLE == (0, 2, 5, 9, 15)


def test_every_item_of_both_files_cites_the_spec():
    for name in ("rules.json", "placeholder.json"):
        raw = json.loads((D.HERE / name).read_text())
        items = {k: v for k, v in raw.items() if isinstance(v, dict)}
        assert items and all(v["source"].startswith("§") or v["source"].startswith("section") for v in items.values())


def test_the_placeholder_deck_is_pd1_and_says_so():
    d = D.default_data()
    assert d.placeholder and d.is_default and "PD-1" in d.name
    # spec §2.4 totals per level: W, P, F, C, K, L, H, X, shops
    for level, want in ((1, (36, 30, 24, 6, 6, 0, 0, 0, 12)), (2, (0, 24, 42, 12, 6, 12, 0, 18, 0)),
                        (3, (0, 30, 30, 6, 6, 0, 12, 12, 0))):
        cards = [c for c in d.cards if c.level == level]
        got = (sum(c.passersby for c in cards), sum(c.plants for c in cards), sum(c.flowers for c in cards),
               sum(c.cats for c in cards), sum(len(c.curtains) for c in cards), sum(c.lanterns for c in cards),
               sum(c.chimneys for c in cards), sum(c.closed_windows for c in cards),
               sum(c.shop_vp > 0 for c in cards))
        assert got == want, level
    assert (d.cards[5].template, d.cards[5].colour, d.cards[5].shop_type, d.cards[5].shop_vp) == ("G2", 1, 4, 2)
    assert d.cards[34].template == "M3" and d.cards[71].template == "R4" and d.cards[24].curtains == (1,)


def test_the_card_table_of_the_spec_matches_the_data():
    """Every row of the spec's 72-card table (§2.4) against placeholder.json."""
    spec = Path("/work/shared/rules/walking-in-burano.md")
    if not spec.exists():
        pytest.skip("the spec is not on this machine")
    rows = [line.split("|")[1:-1] for line in spec.read_text().splitlines()
            if line.startswith("| ") and len(line.split("|")) == 15 and line.split("|")[1].strip().isdigit()
            and line.split("|")[2].strip() in ("L1", "L2", "L3")]
    assert len(rows) == 72
    d = D.default_data()
    for row in rows:
        cells = [x.strip() for x in row]
        c = d.cards[int(cells[0])]
        assert cells[3] == c.template and int(cells[4]) == c.passersby and int(cells[5]) == c.plants
        assert int(cells[6]) == c.flowers and int(cells[7]) == c.cats and int(cells[9]) == c.lanterns
        assert int(cells[10]) == c.chimneys and int(cells[11]) == c.closed_windows
        k = cells[8]
        assert (k == "0" and not c.curtains) or (k[0] == "1" and c.curtains == ("ab".index(k[2]),))
        shop = cells[12]
        assert (shop == "-" and c.shop_vp == 0) or shop == f"{c.shop_type}/{c.shop_vp}"


def _edited(path, value):
    d = D.default_data().to_dict()
    set_item(d, path, value)
    return d


@pytest.mark.parametrize("path, value, message", [
    (("format",), "x", "data.format: expected"),
    (("cards", "value", 3, "level"), 2, "data.cards[3].level: ids 24..47 are the L2 cards"),
    (("cards", "value", 30, "shop"), {"type": 1, "vp": 3}, "data.cards[30].shop: shops are only on L1 cards"),
    (("cards", "value", 0, "shop"), {"type": 1, "vp": 4}, "data.cards[0].shop.vp: a shop is worth 2 or 3 VP"),
    (("cards", "value", 0, "curtains"), [2], "data.cards[0].curtains[0]: expected an int in 0..1"),
    (("cards", "value", 0, "colour"), 1, "data.cards: 3 L1 pink cards"),
    (("cards", "value", 0, "flowers"), -1, "data.cards[0].flowers: expected an int in 0..9"),
    (("cards", "value", 5, "id"), 6, "data.cards[5].id: cards are listed by id"),
    (("colours", "value"), ["pink"], "data.colours: expected 6..6 names"),
    (("cards", "value"), [], "data.cards: expected the 72 floor cards"),
])
def test_a_wrong_data_file_gets_a_one_line_error_naming_the_item(path, value, message):
    with pytest.raises(OptionError, match=message.replace("[", r"\[").replace("]", r"\]").replace(".", r"\.")) as e:
        D.data_from_dict(_edited(path, value))
    assert "\n" not in str(e.value)


def test_a_corrected_data_file_loads_through_the_game_and_the_position(tmp_path):
    d = D.default_data().to_dict()
    d["placeholder"] = False
    d["name"] = "transcribed"
    d["cards"]["value"][0]["passersby"] = 4
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(d))
    g = SPEC.new_game(2, "reference", data=str(path))
    assert g.data.cards[0].passersby == 4 and not g.data.placeholder
    s = g.new_initial_state()
    text = s.to_json()
    assert json.loads(text)["data"]["name"] == "transcribed"
    assert SPEC.load_position(json.loads(text))[0].data.cards[0].passersby == 4
    assert not SPEC.is_placeholder(json.loads(text)) and SPEC.is_placeholder()
    with pytest.raises(OptionError, match="cannot read"):
        SPEC.new_game(2, "reference", data=str(tmp_path / "missing.json"))


# --- positions -----------------------------------------------------------------------------------------

def test_the_schema_accepts_every_position_of_random_games_full_and_viewed():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    count = 0
    for n, options in zip((2, 3, 4, 2), OPTION_SETS):
        for s in positions(n, seed=n, every=9, **options):
            count += check_every_view(VALIDATOR, s)
    assert count > 300


def test_views_hide_exactly_the_others_pooled_cards_and_load_back_consistently():
    hidden_seen = 0
    g = game(3)
    for s in positions(3, seed=11, every=3):
        for seat in range(3):
            view = s.to_dict(seat)
            for p, entry in enumerate(view["seats"]):
                secret = [c for c in entry["hand"] if isinstance(c, str)]
                if p == seat:
                    assert not secret and entry["hand"] == s.seats[p].hand
                else:
                    assert len(secret) == sum(c in s.seats[p].pool for c in s.seats[p].hand)
                    hidden_seen += len(secret)
            for r, deck in enumerate(view["decks"]):
                for e, (card, owner, when) in zip(deck["under"], s.under[r]):
                    assert e["round"] == when + 1        # the round of a return is public (§14)
                    assert (e["card"] is None) == (owner != seat and card in s.seats[owner].pool)
            loaded = g.state_from_json(json.dumps(view))
            assert loaded.to_dict(seat) == view
            assert loaded.information_state_key(seat) == s.information_state_key(seat)
    assert hidden_seen > 10


def test_public_returns_hide_nothing():
    for s in positions(2, seed=3, every=5, public_returns=True):
        assert s.to_dict(0)["seats"] == s.to_dict(1)["seats"] == s.to_dict()["seats"]
        assert not any(seat.pool for seat in s.seats)


def test_returning_every_card_of_a_level_reveals_them_and_keeping_one_pools_them():
    s = building(dealt(2), coins=0, hand=[3, 10, 30, 40, 50])
    s.play("end")
    s.play("return 30")
    s.play("return 40")
    assert s.seats[0].pool == set() and s.to_dict(1)["decks"][1]["under"][-2:] == [
        {"card": 30, "by": "A", "round": 1}, {"card": 40, "by": "A", "round": 1}]
    t = building(dealt(2), coins=0, hand=[3, 10, 30, 40, 50])
    t.play("end")
    t.play("return 40")
    t.play("return 50")
    assert t.seats[0].pool == {30, 40}
    view = t.to_dict(1)
    assert view["seats"][0]["hand"] == [3, 10, "L2?"] and view["decks"][1]["under"][-1] == {"card": None, "by": "A",
                                                                                                   "round": 1}
    # placing the kept one settles it: the pool is gone
    t.seats[0].coins = 4
    t.to_move = 0
    t.phase = 3
    t.placed = 0
    t.play("place 10 right")
    t.play("place 30 h1")
    assert t.seats[0].pool == set()


def _valid():
    s = building(dealt(2), coins=4, hand=[3, 10, 30, 40, 50])
    s.play("end")
    s.play("return 40")
    return s.to_dict()


@pytest.mark.parametrize("edit, message", [
    (lambda d: d.update(format="x"), "position.format: expected"),
    (lambda d: d.update(players=5), "position.players: expected an int in 2..4"),
    (lambda d: d.pop("market"), "position.market: missing field"),
    (lambda d: d.update(extra=1), "position.extra: unknown field"),
    (lambda d: d.update(phase="dance"), "position.phase: expected one of"),
    (lambda d: d.update(round=31), "position.round: expected an int in 1..30"),
    (lambda d: d["market"][0].append(None), "position.market.L1: expected 3 slots"),
    (lambda d: d["market"][0].__setitem__(0, 30), "position.market.L1: card 30 is an L2 card"),
    (lambda d: d["seats"][0].update(coins=9), r"position.seats\[0\].coins: expected an int in 0..8"),
    (lambda d: d["seats"][1].update(coins=7), r"position.seats\[1\].coins: 7 is not 0..6"),
    (lambda d: d["seats"][0].update(tokens=5), r"position.seats\[0\].tokens: expected an int in 0..4"),
    (lambda d: d["seats"][1].update(hand=[1, 2, 5, 6]), r"position.seats\[1\].hand: 4 cards; at most 3"),
    (lambda d: d["seats"][0].update(hand=[50, 3, 10]), r"position.seats\[0\].hand: cards are listed in ascending"),
    (lambda d: d["seats"][1].update(hand=[3]), "position.seats: card 3 is in two places"),
    (lambda d: d["seats"][1].update(street=[{"floors": [None, 24, None], "character": None, "pending": False}]),
     r"position.seats\[1\].street\[0\].floors: an upper floor without support"),
    (lambda d: d["seats"][1].update(street=[{"floors": ["S", None, None], "character": None, "pending": False}]),
     r"position.seats\[1\].street\[0\].floors: a house holds at least one real card"),
    (lambda d: d["seats"][1].update(street=[{"floors": [1, "S", None], "character": None, "pending": False}]),
     r"position.seats\[1\].street\[0\].floors: a free scaffold in the street"),
    (lambda d: d["seats"][1].update(street=[{"floors": [1, 25, "S"], "character": None, "pending": False}]),
     r"position.seats\[1\].street\[0\].floors: a scaffold is never at L3"),
    (lambda d: (d["seats"][1].update(street=[{"floors": [1, 25, None], "character": "mayor", "pending": False}]),
                d["characters"].update(mayor=0)),
     r"position.seats\[1\].street\[0\].character: only finished houses"),
    (lambda d: d["characters"].update(mayor=0), "position.characters.mayor: 0 left and 0 in streets"),
    (lambda d: d["decks"][1]["under"].append({"card": 5, "by": "B"}), r"position.decks\[1\].under\[1\]: card 5 is an L1"),
    (lambda d: d["decks"][1]["under"][0].update(round=2), r"position.decks\[1\].under\[0\].round: round 2 is not a round "
                                                          "played so far"),
    (lambda d: d["decks"][1]["under"][0].update(round=0), r"position.decks\[1\].under\[0\].round: expected an int in 1..30"),
    (lambda d: d["seats"][0].update(pool=[3]), r"position.seats\[0\].pool: the L1 pool holds nothing uncertain"),
    (lambda d: d["seats"][1].update(pool=[30]), r"position.seats\[1\].pool: card 30 is neither in the hand"),
    (lambda d: d["decks"][0].update(shuffled=3), r"position.decks\[0\].shuffled: 3, but"),
    (lambda d: d.update(discard=[1], players=3), "position"),
    (lambda d: d.update(placed=2, phase="acquire"), "position.placed: 0..3 cards placed, and only during"),
    (lambda d: d.update(returned=[40, 50]), r"position.returned: card 50 returned in this step is not under"),
    (lambda d: d.update(to_move=None), "position.to_move: a seat moves exactly"),
    (lambda d: d.update(view="A"), None),
])
def test_a_malformed_or_impossible_position_gets_a_one_line_error_naming_the_field(edit, message):
    d = _valid()
    edit(d)
    if message is None:
        position_from_dict(d)          # A's own view of the full position is a valid view
        return
    with pytest.raises(PositionError, match=message) as e:
        position_from_dict(copy.deepcopy(d))
    assert "\n" not in str(e.value)


def test_cards_returned_together_keep_their_round_and_their_order():
    """Two L2 cards returned in one step lie under the deck ascending with their round (WD-22, §14): the
    position says so, refuses them the other way round, and reads a position written without rounds (each
    entry then stands alone)."""
    s = building(dealt(2), coins=0, hand=[3, 10, 30, 40, 50])
    s.play("end")
    s.play("return 30")
    s.play("return 40")
    d = s.to_dict()
    assert d["decks"][1]["under"] == [{"card": 30, "by": "A", "round": 1}, {"card": 40, "by": "A", "round": 1}]
    swapped = copy.deepcopy(d)
    swapped["decks"][1]["under"][0]["card"], swapped["decks"][1]["under"][1]["card"] = 40, 30
    with pytest.raises(PositionError, match=r"position.decks\[1\].under\[1\]: card 30 after a higher card returned "
                                            r"in the same step"):
        position_from_dict(swapped)
    for e in swapped["decks"][1]["under"]:
        del e["round"]
    loaded = position_from_dict(swapped)
    assert [e[2] for e in loaded.under[1]] == [-1, -1]
    assert "round" not in json.dumps(position_to_dict(loaded)["decks"])


def test_a_hidden_card_outside_another_seat_s_view_is_refused():
    d = dealt(2).to_dict()
    d["seats"][0]["hand"] = ["L2?"]
    with pytest.raises(PositionError, match=r"position.seats\[0\].hand\[0\]: a hidden card is only allowed"):
        position_from_dict(d)
    with pytest.raises(PositionError, match="position: not valid JSON"):
        position_from_json("{")


# --- random games ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "public", "beginner", "literal"])
def test_random_games_keep_every_invariant(players, options):
    """Every card in one place, no negative count, scaffolds and characters conserved, legal actions empty
    only at chance nodes and the end, chance probabilities summing to 1, views and keys consistent."""
    g = game(players, **options)
    for seed in range(4):
        rng = random.Random(seed)
        s = g.new_initial_state()
        plies = 0
        while not s.is_terminal():
            s.check()
            located = s.located_cards()
            assert len(located) == len(set(located))
            assert len(located) + sum(len(s.shuffled(lv)) for lv in (1, 2, 3)) == NUM_CARDS
            assert all(0 <= seat.coins and 0 <= seat.tokens <= 4 and seat.free_scaffolds() >= 0 for seat in s.seats)
            if s.is_chance_node():
                assert not s.legal_actions() and abs(sum(p for _, p in s.chance_outcomes()) - 1) < 1e-9
            else:
                assert s.legal_actions()
                if s.phase == 2:          # a turn boundary: §15.9's limits
                    assert all(seat.coins <= 6 and len(seat.hand) <= 3 for seat in s.seats)
            if plies % 11 == 0:
                assert s.resample(0, plies).to_dict(0) == s.to_dict(0)
                assert g.state_from_json(s.to_json()).key() == s.key()
            random_step(s, rng)
            plies += 1
        assert s.legal_actions() == [] and s.chance_outcomes() == []
        assert sorted(s.returns()) == sorted(s.returns()) and abs(sum(s.returns()) - 1) < 1e-9
        assert s.round < 30


def test_resample_redeals_the_pool_and_keeps_the_view():
    changed = 0
    for s in positions(2, seed=7, every=2):
        for seat in range(2):
            other = s.resample(seat, 99)
            other.check()
            assert other.to_dict(seat) == s.to_dict(seat)
            assert other.information_state_key(seat) == s.information_state_key(seat)
            changed += other.to_json() != s.to_json()
    assert changed > 0


# --- the text board -------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_board_fits_80_by_24_and_names_the_placeholder(players):
    for s in positions(players, seed=1, every=25):
        for seat in (None, 0):
            lines = render_lines(s.to_dict(seat))
            assert len(lines) <= 24 and max(len(x) for x in lines) <= 80
            assert "PLACEHOLDER" in lines[1]
            assert SPEC.render(s.to_dict(seat), 80).rstrip("\n").split("\n") == lines


@pytest.mark.parametrize("players", [3, 4])
def test_six_cards_in_hand_are_all_on_the_board_with_streets_two_a_row(players):
    """Two streets a row have 39 columns each: a hand of six cards (three kept, three just taken) was cut
    at the 39th column, its last card lost."""
    view = next(positions(players, seed=1, every=25)).to_dict(0)
    view["seats"][0]["hand"] = [10, 11, 12, 13, 14, 15]
    view["seats"][1]["hand"] = [66, 67, 68, "L3?", "L3?", "L2?"]
    text = "\n".join(render_lines(view))
    assert "10BG3 11BG4 12YG1 13YG2 14YG3 15YG4" in text and "66OR3 67OR4 68UR1 L3? L3? L2?" in text, text


def test_a_seeded_new_position_is_a_dealt_start_the_game_plays_from():
    for n in (2, 3, 4):
        pos = new_position(n, seed=5)
        assert position_to_dict(pos) == position_to_dict(new_position(n, seed=5)) != position_to_dict(
            new_position(n, seed=6))
        assert pos.phase == 2 and pos.to_move == pos.first_player and sum(
            c >= 0 for row in pos.market for c in row) == 3 * (n + 1)
        state = game(n).state_from_json(json.dumps(position_to_dict(pos)))
        assert state.legal_actions() and len(state.legal_actions()) == 5 * (n + 1)
    assert new_position(3, 1, Options(first_player=2)).first_player == 2
