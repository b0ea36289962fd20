"""Goofspiel: the rules (worked examples), random-game invariants, the position JSON and views, the
registry entry, and the differential against OpenSpiel's `goofspiel` game for game.

Both implementations run every rules test (`impl` fixture); tests/games/goofspiel/test_core.py holds them
against each other move for move.
"""

from __future__ import annotations

import json
import random

import pytest

from burano_ai.core.errors import IllegalMoveError, OptionError, PositionError
from burano_ai.core.game import NO_TURN, DecisionMode, GameSpec, State
from burano_ai.core.seats import CHANCE, TERMINAL
from burano_ai.games import game_keys, get_spec
from burano_ai.games.goofspiel import reference, rules
from burano_ai.games.goofspiel.position import FORMAT

SPEC = get_spec("goofspiel")
IMPLEMENTATIONS = ("reference", "compiled")
CONFIGS = [(n, cards, order) for n in (2, 3, 4, 5) for cards in (2, 3, 6, 13) for order in rules.POINTS_ORDERS]


@pytest.fixture(params=IMPLEMENTATIONS)
def impl(request):
    """The Game class of one implementation."""
    return SPEC.game_class(request.param)


def random_game(game, seed: int, stop_after: int | None = None):
    """Play a seeded random game (uniform bids and prizes); returns the state and the actions applied."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    actions = []
    while not state.is_terminal() and (stop_after is None or len(actions) < stop_after):
        options = state.chance_outcome_actions() if state.is_chance_node() else state.legal_actions()
        a = rng.choice(options)
        state.apply_action(a)
        actions.append(a)
    return state, actions


# --- rules: worked examples ----------------------------------------------------------------------

def test_a_tied_highest_bid_takes_nothing_even_with_a_unique_lower_bid(impl):
    state = impl(3, 4, "descending").new_initial_state()
    assert state.prize == 4 and state.current_player() == 0
    for text in ("bid 4", "bid 4", "bid 2"):
        state.play(text)
    assert state.scores() == [0, 0, 0]
    assert state.won == [[], [], []]
    assert state.prize == 3 and state.hands == [[1, 2, 3], [1, 2, 3], [1, 3, 4]]


def test_the_single_highest_bid_takes_the_prize(impl):
    state = impl(3, 4, "ascending").new_initial_state()
    assert state.prize == 1
    for text in ("bid 2", "bid 4", "bid 3"):
        state.play(text)
    assert state.scores() == [0, 1, 0] and state.prize == 2


def test_descending_and_ascending_orders_have_no_chance_node(impl):
    for order, first in (("descending", 13), ("ascending", 1)):
        state = impl(2, 13, order).new_initial_state()
        seen = []
        while not state.is_terminal():
            assert not state.is_chance_node() and state.chance_outcomes() == []
            if state.current_player() == 0:
                seen.append(state.prize)
            state.apply_action(state.legal_actions()[0])
        assert seen[0] == first
        assert seen == sorted(seen, reverse=(order == "descending"))
        assert len(seen) == 12      # the 13th round plays itself


def test_random_order_reveals_each_prize_by_a_uniform_chance_node(impl):
    state = impl(2, 5).new_initial_state()
    assert state.current_player() == CHANCE and state.is_chance_node()
    assert state.chance_outcomes() == [(a, 0.2) for a in range(5)]
    assert state.legal_actions() == []
    state.play("prize 3")
    assert state.prize == 3 and state.current_player() == 0
    state.play("bid 1")
    state.play("bid 5")
    assert state.scores() == [0, 3]
    assert state.chance_outcomes() == [(0, 0.25), (1, 0.25), (3, 0.25), (4, 0.25)]


def test_the_last_round_plays_itself(impl):
    state = impl(2, 2, "random").new_initial_state()
    state.play("prize 1")
    state.play("bid 1")
    state.play("bid 2")
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.scores() == [2, 1]     # B took prize 1, then A's 2 beat B's 1 on prize 2
    assert state.returns() == [1.0, 0.0]


def test_returns_share_the_win_among_tied_leaders(impl):
    state = impl(3, 3, "descending").new_initial_state()
    # prize 3: A 3, B 1, C 2 -> A; prize 2: A 1, B 3, C 1 -> B; prize 1 plays itself: A 2, B 2, C 3 -> C
    for text in ("bid 3", "bid 1", "bid 2", "bid 1", "bid 3", "bid 1"):
        state.play(text)
    assert state.scores() == [3, 2, 1] and state.returns() == [1.0, 0.0, 0.0]
    state = impl(2, 2, "descending").new_initial_state()
    state.play("bid 2")
    state.play("bid 2")     # tie on 2, then tie on 1: nobody scores, everybody shares
    assert state.scores() == [0, 0] and state.returns() == [0.5, 0.5]
    assert state.finishing_key(0) == state.finishing_key(1) == (0,)


def test_the_state_api_beyond_openspiel(impl):
    state = impl(3, 6, "random").new_initial_state()
    assert isinstance(state, State)
    assert state.turn_id() == NO_TURN and state.decision_mode() == DecisionMode.OPEN
    assert state.prior(0, [0, 1]) is None
    assert state.estimated_scores() == [7.0, 7.0, 7.0]      # 21 points shared by 3
    state.play("prize 4")
    assert state.decision_mode() == DecisionMode.SECRET
    assert state.turn_id() == 0
    prior = state.prior(0, state.legal_actions())
    assert prior[3] == max(prior.values()) and sum(prior.values()) == pytest.approx(1.0)
    assert prior[2] == prior[4] and prior[0] < prior[1]
    state.play("bid 2")
    assert state.turn_id() == 1 and state.decision_mode() == DecisionMode.SECRET
    state.play("bid 3")
    state.play("bid 6")     # C takes 4
    assert state.estimated_scores() == [17 / 3, 17 / 3, 4 + 17 / 3]
    state.play("prize 1")
    assert state.turn_id() == 1 * rules.TURN_STRIDE + 0


def test_parameters_are_checked(impl):
    for args in ((1,), (6,), (2, 1), (2, 17), (2, 13, "shuffled"), (2.0,), (True,)):
        with pytest.raises(OptionError):
            impl(*args)
    game = impl(4, 9, "ascending")
    assert game.num_distinct_actions() == 9 and game.max_chance_outcomes() == 9
    assert game.max_game_length() == 8 * 4
    assert impl(2, 13).max_game_length() == 12 * 3


# --- moves: parsing, checking, refusing -----------------------------------------------------------

def test_illegal_moves_name_the_move_and_leave_the_state_untouched(impl):
    state = impl(2, 4, "random").new_initial_state()
    state.play("prize 2")
    state.play("bid 3")
    state.play("bid 1")          # B took nothing: A's 3 beat B's 1, A has 2 points
    assert state.scores() == [2, 0]
    state.play("prize 4")
    snapshot, key = state.to_json(), state.key()
    with pytest.raises(IllegalMoveError, match=r"^illegal move 'bid 3' in round 2 \(seat A bids on prize 4\): "
                                               r"cards in hand 1 2 4$"):
        state.play("bid 3")
    with pytest.raises(IllegalMoveError, match=r"expected 'bid N'"):
        state.play("prize 1")
    with pytest.raises(IllegalMoveError, match=r"invalid move 'bid seven'"):
        state.play("bid seven")
    with pytest.raises(IllegalMoveError, match=r"^illegal move 'bid 3' in round 2"):
        state.apply_action(2)
    for bad in (-1, 4, 99, 2 ** 80, -2 ** 80):
        with pytest.raises(IllegalMoveError):
            state.apply_action(bad)
    for bad in (1.0, True, "1", None):
        with pytest.raises(TypeError):
            state.apply_action(bad)
    assert state.to_json() == snapshot and state.key() == key
    state.play("bid 4")
    assert state.to_json() != snapshot
    with pytest.raises(IllegalMoveError, match=r"^illegal move 'bid 1' in round 2 \(seat B bids on prize 4\): "
                                               r"cards in hand 2 3 4$"):
        state.play("bid 1")
    end, _ = random_game(impl(2, 3), 1)
    with pytest.raises(IllegalMoveError, match="the game is over"):
        end.apply_action(0)


def test_numpy_integers_are_action_ids(impl):
    np = pytest.importorskip("numpy")
    state = impl(2, 5).new_initial_state()
    state.apply_action(np.int64(2))
    state.apply_action(np.int32(4))
    assert state.prize == 3 and state.bids == [5, 0]


def test_action_texts(impl):
    state = impl(2, 13).new_initial_state()
    assert state.action_to_string(4) == "prize 5"
    assert state.string_to_action(" Prize 13 ") == 12
    state.play("prize 13")
    assert state.action_to_string(6) == "bid 7"
    assert state.string_to_action("bid 1") == 0
    with pytest.raises(IllegalMoveError):
        state.string_to_action("bid 14")
    with pytest.raises(TypeError):
        state.string_to_action(7)


# --- random games: invariants at every ply --------------------------------------------------------

@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}p-{c[1]}-{c[2]}")
def test_random_games_keep_every_invariant(impl, config):
    n, cards, order = config
    game = impl(n, cards, order)
    all_cards = list(range(1, cards + 1))
    for seed in range(12):
        rng = random.Random(seed)
        state = game.new_initial_state()
        played = [[] for _ in range(n)]
        steps = 0
        while not state.is_terminal():
            state.check()
            legal = state.legal_actions()
            if state.is_chance_node():
                assert legal == [] and state.current_player() == CHANCE
                outcomes = state.chance_outcomes()
                assert outcomes and sum(p for _, p in outcomes) == pytest.approx(1.0)
                a = rng.choice([a for a, _ in outcomes])
            else:
                p = state.current_player()
                assert legal == [c - 1 for c in state.hands[p]] and legal
                assert state.legal_actions(p) == legal
                assert all(state.legal_actions(q) == [] for q in range(n) if q != p)
                a = rng.choice(legal)
                played[p].append(a + 1)
            state.apply_action(a)
            steps += 1
            hands_sizes = {len(h) for h in state.hands}
            assert len(hands_sizes) == 1
            assert all(x >= 0 for x in state.scores())
        state.check()
        assert steps <= game.max_game_length()
        assert state.legal_actions() == [] and state.chance_outcomes() == []
        assert state.hands == [[] for _ in range(n)] and state.prizes_left == [] and state.prize == 0
        won = sorted(c for w in state.won for c in w)
        assert len(set(won)) == len(won) and set(won) <= set(all_cards)
        assert state.scores() == [sum(w) for w in state.won]
        assert sum(state.scores()) == sum(won) <= sum(all_cards)
        shares = state.returns()
        assert sum(shares) == pytest.approx(1.0)
        best = max(state.scores())
        assert [s > 0 for s in shares] == [x == best for x in state.scores()]
        for p in range(n):      # every card bid once; the last one went in the round that plays itself
            assert len(set(played[p])) == len(played[p]) == cards - 1 and set(played[p]) < set(all_cards)


# --- JSON, views, information-set keys, resampling -----------------------------------------------

def test_json_round_trips_at_every_ply(impl):
    for config in [(2, 6, "random"), (3, 5, "descending"), (5, 4, "ascending")]:
        game = impl(*config)
        for seed in range(4):
            state = game.new_initial_state()
            rng = random.Random(seed)
            while True:
                text = state.to_json()
                again = game.state_from_json(text)
                assert again.to_json() == text and again.key() == state.key()
                assert json.loads(text)["format"] == FORMAT
                loaded, view = SPEC.load_position(json.loads(text))
                assert loaded.key() == state.key() and view is None
                assert SPEC.load_position_text(text, "reference").key() == state.key()
                if state.is_terminal():
                    break
                options = state.chance_outcome_actions() or state.legal_actions()
                state.apply_action(rng.choice(options))


def test_a_seat_view_hides_exactly_the_earlier_bids_of_this_round(impl):
    game = impl(4, 8, "random")
    state = game.new_initial_state()
    state.play("prize 6")
    state.play("bid 7")
    state.play("bid 2")
    state.play("bid 5")          # A, B, C have bid; D to bid
    full = state.to_dict()
    assert [s["bid"] for s in full["seats"]] == [7, 2, 5, None]
    for seat in range(4):
        view = state.to_dict(seat)
        assert view["view"] == "ABCD"[seat]
        bids = [s["bid"] for s in view["seats"]]
        assert bids == [full["seats"][p]["bid"] if p == seat else ("?" if p < 3 else None) for p in range(4)]
        for p in range(4):      # everything else is public
            assert {k: v for k, v in view["seats"][p].items() if k != "bid"} == \
                {k: v for k, v in full["seats"][p].items() if k != "bid"}
        assert {k: v for k, v in view.items() if k not in ("seats", "view")} == \
            {k: v for k, v in full.items() if k not in ("seats", "view")}
        loaded = game.state_from_json(json.dumps(view))
        assert loaded.information_state_key(seat) == state.information_state_key(seat)
        assert loaded.to_dict(seat) == view
        assert loaded.bids[seat] == state.bids[seat]
        assert all(loaded.bids[p] == loaded.hands[p][0] for p in range(3) if p != seat)   # the fill
    state.play("bid 1")          # the round resolves: everything public again
    assert state.to_dict(0)["seats"] == state.to_dict()["seats"]


def test_information_set_keys_ignore_exactly_the_hidden_bids(impl):
    game = impl(3, 6, "descending")
    a = game.new_initial_state()
    a.play("bid 1")
    b = game.new_initial_state()
    b.play("bid 4")
    assert a.key() != b.key()
    assert a.information_state_key(1) == b.information_state_key(1)
    assert a.information_state_key(2) == b.information_state_key(2)
    assert a.information_state_key(0) != b.information_state_key(0)       # A knows its own bid
    assert a.information_state_key(1) != a.information_state_key(2)       # keys name the viewer
    a.play("bid 2")
    b.play("bid 2")
    assert a.information_state_key(2) == b.information_state_key(2)
    assert a.information_state_key(1) == b.information_state_key(1)       # B bid 2 in both, A's bid hidden
    assert a.information_state_key(0) != b.information_state_key(0)
    c = game.new_initial_state()
    c.play("bid 4")
    c.play("bid 3")              # B bid otherwise: C cannot tell it from b either
    assert c.information_state_key(2) == b.information_state_key(2)
    assert c.information_state_key(1) != b.information_state_key(1)


def test_resample_redraws_only_what_the_seat_cannot_see(impl):
    game = impl(4, 10, "random")
    state = game.new_initial_state()
    for text in ("prize 7", "bid 1", "bid 9", "bid 4"):
        state.play(text)
    for seat in range(4):
        seen = set()
        for seed in range(60):
            sample = state.resample(seat, seed)
            sample.check()
            assert sample.information_state_key(seat) == state.information_state_key(seat)
            assert sample.to_dict(seat) == state.to_dict(seat)
            assert sample.bids[seat] == state.bids[seat]
            seen.add(tuple(sample.bids))
            assert state.resample(seat, seed).key() == sample.key()        # seeded
        hidden = [p for p in range(3) if p != seat]
        assert len(seen) > 10 if hidden else len(seen) == 1
    assert state.resample("D", 3).key() == state.resample(3, 3).key()
    with pytest.raises(OptionError):
        state.resample(4, 0)
    with pytest.raises(TypeError):
        state.resample(0, "x")


def test_clones_are_independent(impl):
    state = impl(2, 5).new_initial_state()
    state.play("prize 5")
    copy = state.clone()
    copy.play("bid 1")
    assert state.bids == [0, 0] and copy.bids == [1, 0]
    assert state.key() != copy.key()


BAD_POSITIONS = [
    ("format", lambda d: d.update(format="burano-position/1")),
    ("players", lambda d: d.update(players=6)),
    ("num_cards", lambda d: d.update(num_cards=17)),
    ("points_order", lambda d: d.update(points_order="up")),
    ("view", lambda d: d.update(view="E")),
    ("round", lambda d: d.update(round=3)),
    ("phase", lambda d: d.update(phase="chance")),
    ("prize", lambda d: d.update(prize=5)),
    ("prizes_left", lambda d: d.update(prizes_left=[1, 2])),
    ("seats", lambda d: d["seats"].pop()),
    ("seats[0]", lambda d: d["seats"][0].update(colour="red")),
    ("seats[1].hand", lambda d: d["seats"][1]["hand"].pop()),
    ("seats[1].hand[0]", lambda d: d["seats"][1]["hand"].__setitem__(0, 0)),
    ("seats[0].bid", lambda d: d["seats"][0].update(bid="?")),
    ("seats[2].bid", lambda d: d["seats"][2].update(bid=2)),
    ("seats[1].bid", lambda d: d["seats"][1].update(bid=5)),
    ("seats[0].points", lambda d: d["seats"][0].update(points=3)),
    ("seats[0].won", lambda d: d["seats"][0].update(won=[4], points=4)),
    ("extra", lambda d: d.update(extra=1)),
]


@pytest.mark.parametrize("field,spoil", BAD_POSITIONS, ids=[b[0] for b in BAD_POSITIONS])
def test_bad_positions_name_the_field(impl, field, spoil):
    game = impl(3, 4, "random")
    state = game.new_initial_state()
    state.play("prize 4")
    state.play("bid 2")
    d = state.to_dict()
    assert game.state_from_json(json.dumps(d)).to_json() == state.to_json()
    spoil(d)
    with pytest.raises(PositionError) as info:
        game.state_from_json(json.dumps(d))
    message = str(info.value)
    assert "\n" not in message
    assert f"position.{field}" in message or (field in ("players", "num_cards", "points_order")
                                              and field in message)


def test_positions_of_another_configuration_or_not_json_are_refused(impl):
    text = impl(2, 5).new_initial_state().to_json()
    with pytest.raises(PositionError, match="position.num_cards"):
        impl(2, 6).state_from_json(text)
    with pytest.raises(PositionError, match="not valid JSON"):
        impl(2, 5).state_from_json("{")
    with pytest.raises(PositionError, match="JSON object"):
        impl(2, 5).state_from_json("[]")
    with pytest.raises(TypeError):
        impl(2, 5).state_from_json(None)
    one_card = json.loads(impl(2, 2, "descending").new_initial_state().to_json())
    one_card.update(num_cards=2)
    for s in one_card["seats"]:
        s["hand"] = [1]
    with pytest.raises(PositionError, match="last round plays itself"):
        impl(2, 2, "descending").state_from_json(json.dumps(one_card))


# --- the registry entry ---------------------------------------------------------------------------

def test_the_registry_lists_goofspiel():
    assert "goofspiel" in game_keys()
    assert isinstance(SPEC, GameSpec)
    assert (SPEC.key, SPEC.min_players, SPEC.max_players, SPEC.default_players) == ("goofspiel", 2, 5, 2)
    assert SPEC.position_format == FORMAT
    assert SPEC.game_class("reference") is reference.Game
    game = SPEC.new_game(3, "compiled", num_cards=6, points_order="ascending")
    assert game.config() == (3, 6, "ascending")
    with pytest.raises(OptionError):
        SPEC.new_game(6)
    with pytest.raises(OptionError):
        SPEC.game_class("fast")
    assert {"native_search", "secret_moves", "hidden_information"} <= SPEC.capabilities


def test_render_shows_what_the_view_shows():
    state = reference.Game(3, 5).new_initial_state()
    state.play("prize 4")
    state.play("bid 5")
    text = SPEC.render(state.to_dict())
    assert "prize 4, seat B to bid" in text and "bid 5" in text
    view = SPEC.render(state.to_json(1))
    assert "bid ?" in view and "bid 5" not in view and "seat B's view" in view
    assert str(state) + "\n" == text


# --- OpenSpiel's goofspiel, game for game ---------------------------------------------------------

def pyspiel_games(n: int, cards: int, order: str):
    pyspiel = pytest.importorskip("pyspiel")
    params = {"players": n, "num_cards": cards, "points_order": order}
    return (pyspiel.load_game("goofspiel", dict(params, returns_type="total_points")),
            pyspiel.load_game("goofspiel", dict(params, returns_type="win_loss")))


def win_loss(shares: list[float]) -> list[float]:
    """OpenSpiel's win_loss returns from our shares: winners 1/k, the others -1/(n-k), all tied 0."""
    n, k = len(shares), sum(1 for s in shares if s > 0)
    if k == n:
        return [0.0] * n
    return [s if s > 0 else -1.0 / (n - k) for s in shares]


@pytest.mark.parametrize("config", [(2, 13, "random"), (2, 6, "descending"), (3, 5, "random"),
                                    (3, 8, "ascending"), (4, 7, "random"), (5, 9, "random"),
                                    (5, 3, "descending"), (2, 2, "random")],
                         ids=lambda c: f"{c[0]}p-{c[1]}-{c[2]}")
def test_openspiel_goofspiel_agrees_game_for_game(impl, config):
    n, cards, order = config
    points_game, winloss_game = pyspiel_games(n, cards, order)
    game = impl(n, cards, order)
    for seed in range(40):
        rng = random.Random(seed)
        ours = game.new_initial_state()
        theirs = [points_game.new_initial_state(), winloss_game.new_initial_state()]
        while not theirs[0].is_terminal():
            assert not ours.is_terminal()
            if theirs[0].is_chance_node():
                outcomes = theirs[0].chance_outcomes()
                assert ours.is_chance_node()
                assert [a for a, _ in ours.chance_outcomes()] == [a for a, _ in outcomes]
                assert [p for _, p in ours.chance_outcomes()] == pytest.approx([p for _, p in outcomes])
                a = rng.choice([a for a, _ in outcomes])
                ours.apply_action(a)
                for t in theirs:
                    t.apply_action(a)
                continue
            assert theirs[0].is_simultaneous_node()
            bids = []
            for p in range(n):
                assert ours.current_player() == p
                assert ours.legal_actions() == theirs[0].legal_actions(p)
                bids.append(rng.choice(ours.legal_actions()))
                ours.apply_action(bids[-1])
            for t in theirs:
                t.apply_actions(bids)
        assert ours.is_terminal()
        assert ours.scores() == theirs[0].returns()
        assert win_loss(ours.returns()) == pytest.approx(theirs[1].returns())


class FakeStep:
    """A record step as `burano_ai.record.Step` shows it to the spec (actor, move, seen_by)."""

    def __init__(self, actor, move, seen_by=None):
        self.actor, self.move, self.seen_by = actor, move, seen_by

    @property
    def is_chance(self):
        return self.actor == "chance"

    def visible_to(self, letter):
        return self.seen_by is None or letter in self.seen_by


def test_the_spec_names_phases_and_narrates_steps():
    state = reference.Game(3, 5).new_initial_state()
    assert state.chance_kind_name() == "prize"
    with pytest.deprecated_call():                  # the old spelling (core.game.LABEL_FAMILY), still working
        assert SPEC.phase_name(state) == "prize"
    state.play("prize 4")
    assert state.phase_name() == "bid"
    with pytest.deprecated_call():
        assert SPEC.phase_name(state) == "bid"
    assert SPEC.decision_label(state, 0) == "round 1"
    assert SPEC.narrate_step(FakeStep("chance", "prize 4"), False) == "the prize is 4"
    assert SPEC.narrate_step(FakeStep("B", "bid 5", ["B"]), True) == "B bids (hidden)"
    assert SPEC.narrate_step(FakeStep("B", "bid 5", ["B"]), False) == "B: bid 5"
    assert SPEC.bots() == {} and SPEC.score_name == "points" and SPEC.chance_kinds == ("prize",)


def test_an_export_hides_only_the_bids_of_the_open_round():
    steps = [FakeStep("chance", "prize 4"), FakeStep("A", "bid 1", ["A"]), FakeStep("B", "bid 2", ["B"]),
             FakeStep("C", "bid 3"),                    # the last bid resolves the round: public
             FakeStep("chance", "prize 2"), FakeStep("A", "bid 5", ["A"]), FakeStep("B", "bid 4", ["B"])]
    assert SPEC.hidden_in_export(steps, 0) == {6}
    assert SPEC.hidden_in_export(steps, 1) == {5}
    assert SPEC.hidden_in_export(steps, 2) == {5, 6}
    assert SPEC.hidden_in_export(steps[:4], 2) == set()
    fixed = steps[1:4] + steps[5:6]                     # a fixed order: no prize steps between rounds
    assert SPEC.hidden_in_export(fixed, 1) == {3}


def test_the_step_visibility_of_bids_and_prizes():
    from burano_ai.core import game as core_game
    if not hasattr(core_game, "StepVisibility"):
        pytest.skip("core.game.StepVisibility (the records' interface) is not on this branch yet")
    state = reference.Game(3, 5).new_initial_state()
    assert SPEC.step_visibility(state, 3) == core_game.StepVisibility("prize", None, None)
    state.play("prize 4")
    assert SPEC.step_visibility(state, 0).seen_by == (0,)
    state.play("bid 1")
    assert SPEC.step_visibility(state, 0).seen_by == (1,)
    state.play("bid 2")
    assert SPEC.step_visibility(state, 0).seen_by is None


def test_the_people_side():
    text = SPEC.example_position()
    state, view = SPEC.load_position(json.loads(text))
    assert view == 1 and state.to_json(1) == text
    assert state.current_player() == 1 and state.round == 3
    assert SPEC.render_legal_actions(state) == "bids for B: 1 3 4 5 7 8 9 10 11 12\n"
    d = json.loads(text)
    assert SPEC.phase_label(d) == "round 4" and SPEC.turn_label(d) == "round 4, prize 10"
    assert SPEC.chance_label(d) == "prize" and SPEC.seat_label(1) == "B"
    assert SPEC.score_columns(state) == [("points", ["9", "13"]), ("prizes won", ["2 7", "13"])]
    assert SPEC.describe_scores([7, 15]) == "A 7 points, B 15 points"
    assert SPEC.move_entry() is None
    chance = reference.Game(2, 4).new_initial_state()
    assert SPEC.render_legal_actions(chance) == "prizes left (1/4 each): 1 2 3 4\n"
    end, _ = random_game(reference.Game(2, 3), 0)
    assert SPEC.render_legal_actions(end) == "no legal moves: the game is over\n"
    assert SPEC.phase_label(end.to_dict()) == "over" and SPEC.turn_label(end.to_dict()) == "game over"
