"""Venice 2099 for people and bots: moves in people's words, every coin/token/gondola/sinking/figure/score
change of a step narrated, the final scoring broken down with the tie-break, the move notes, the greedy bot."""

from __future__ import annotations

import random

import pytest

from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games import get_spec
from burano_ai.games.venice_2099 import rules
from burano_ai.games.venice_2099.greedy import choose_greedy
from burano_ai.random_play import random_action
from .helpers import build, sq

SPEC = get_spec("venice-2099")


def effects(before, action):
    after = before.clone()
    after.apply_action(action)
    return [e.text for e in SPEC.step_effects(before, after, action)], after


def test_a_purchase_is_told_with_its_price_pile_and_token():
    s = build(4, {"a1": "P4", "e1": "K6"}, {0: ["a1", "e1"], 1: ["h8"]}, phase="buy", coins_on={"e1": 3})
    action = s.string_to_action("buy e1")
    assert SPEC.describe_move(s, action) == "buy a black treasure at e1 for 4 coins"
    told, _ = effects(s, action)
    assert f"A pays 4 coins onto e1 (it holds 7): A has {s.coins[0] - 4}" in told
    assert "A takes 1 black treasure (9 left in the supply)" in told
    assert "points as the board stands: A -3" in told     # 4 coins for a token worth 1 while 8 black stand


def test_a_sinking_tells_the_lost_coins_and_the_figure_and_the_rescue():
    s = build(4, {"b2": "G3"}, {0: ["a1"], 1: ["a8"], 2: ["b2", "h8"]}, hands={0: ["G3"]}, phase="card",
              coins_on={"b2": 3}, gondolas={2: 1})
    action = s.string_to_action("play G3")
    assert SPEC.describe_move(s, action) == "play G3: green 3 on b2 sinks and its 3 coins, taking C's figure with it"
    told, after = effects(s, action)
    # the move's words say what sinks; the effects only what they do not (issue 34: told twice before)
    assert "the 3 coins on b2 leave the game" in told and not any("sinks" in t for t in told)
    assert "C's figure on b2 falls into the water: C may rescue it with a gondola card" in told
    assert any("C -3" in t for t in told)                  # C's figure no longer scores the 3
    rescue = after.string_to_action("rescue c1")
    assert SPEC.describe_move(after, rescue).startswith("rescue the figure by gondola to c1 (")
    told, _ = effects(after, rescue)
    assert "C uses a gondola card (0 left)" in told and any(t.startswith("C's figure is rescued to c1") for t in told)
    told, _ = effects(after, rules.DECLINE_RESCUE)
    assert "C's figure drowns: removed for good" in told


def test_every_change_of_every_step_of_random_games_is_narrated():
    for n in (2, 3, 5):
        rng = random.Random(n)
        s = SPEC.new_game(n, "reference").new_initial_state()
        while not s.is_terminal():
            a = random_action(s, rng)
            if not s.is_chance_node():
                words = SPEC.describe_move(s, a)
                assert words and words != s.action_to_string(a) or a in (rules.PASS_MOVE,)
            told, after = effects(s, a)
            text = "\n".join(told)
            for p in range(n):
                L = SEAT_LETTERS[p]
                if after.coins[p] != s.coins[p]:
                    assert f"{L} pays" in text
                if after.tokens[p] != s.tokens[p]:
                    assert f"{L} takes" in text
                if after.gondolas[p] != s.gondolas[p]:
                    assert f"{L} uses a gondola card" in text
                if after.figures[p] != s.figures[p] and s.phase != rules.PHASE_PLACE and \
                        not (rules.MOVE0 <= a < rules.PASS_MOVE):
                    assert f"{L}'s figure" in text
            if any(x != y for x, y in zip(after.water, s.water)):   # the play's words tell the sinking
                assert " sinks" in text or " sinks" in SPEC.describe_move(s, a)
            if not s.is_chance_node() and after.scores() != s.scores():
                assert "points as the board stands" in text
            s = after
        assert "on the board (the tie-break)" in text and "surviving districts" in text
        assert any(t.startswith(SEAT_LETTERS[0] + " ") and "treasures" in t and "X districts" in t for t in told)
        assert any("wins" in t or "share the win" in t for t in told)


def test_the_result_names_the_tie_break_when_it_decides():
    s = build(2, {}, {0: ["a1"], 1: ["a2"]}, check=False)
    s.phase = rules.PHASE_OVER
    platform = s.tiles.index(rules.PLATFORM)
    for x in range(36):
        if s.tiles[x] != rules.PLATFORM and rules.district_vi(s.tiles[x]) != 0:
            s.water[x] = True
    s.figures[0] = [platform, [x for x in range(36) if s.is_land(x)][0], rules.LOST]
    s.figures[1] = [[x for x in range(36) if s.is_land(x)][1], rules.LOST, rules.LOST]
    s.coins = [5, 5]
    assert s.scores()[0] == s.scores()[1]
    lines = SPEC.describe_result(s)
    assert lines[-1] == f"A and B tie on {s.scores()[0]} points; A wins on the game's tie-break"


def test_move_notes_say_what_a_decision_costs_and_why_moves_are_missing():
    s = build(3, {"a1": "G5", "c1": "==", "e1": "K6"}, {0: ["a1", "c1", "e1"]}, phase="buy",
              coins_on={"e1": 7}, coins={0: 5})
    assert SPEC.move_notes(s) == ["a1: green for 1; c1: a platform, no buying; e1: black costs 8, A has 5 coins"]
    s.phase = rules.PHASE_MOVE
    assert SPEC.move_notes(s)[0].startswith("2 gondola cards")


@pytest.mark.parametrize("n", [2, 3])
def test_the_greedy_bot_beats_random_play(n):
    wins = 0.0
    games = 6
    for g in range(games):
        rng = random.Random(g)
        s = SPEC.new_game(n, "reference").new_initial_state()
        seat = g % n
        while not s.is_terminal():
            if s.is_chance_node():
                o = s.chance_outcomes()
                s.apply_action(rng.choices([a for a, _ in o], [p for _, p in o])[0])
                continue
            p, legal = s.current_player(), s.legal_actions()
            if p == seat:
                world = SPEC.load_position(s.to_dict(p))[0]
                a = choose_greedy(world, p, legal, random.Random(g * 1000 + len(s.played)), {})
                assert a in legal
            else:
                a = rng.choice(legal)
            s.apply_action(a)
        wins += s.returns()[seat]
    assert wins >= games - 1, wins


def test_the_greedy_bot_reads_only_its_view():
    s = build(3, {"d4": "G5"}, {0: ["d4"], 1: ["a1"], 2: ["h8"]}, phase="buy")
    other = s.resample(0, 7)
    assert other.hands != s.hands
    picks = []
    for state in (s, other):
        world = SPEC.load_position(state.to_dict(0))[0]
        picks.append(choose_greedy(world, 0, state.legal_actions(), random.Random(1), {}))
    assert picks[0] == picks[1]
    assert sq(s, "d4") in s.figures[0]


def test_setup_steps_in_words_never_name_a_dealt_card():
    s = SPEC.new_game(2, "reference").new_initial_state()
    assert SPEC.describe_move(s, 3) == "the 2-player game leaves out turquoise"
    s.apply_action(3)
    assert SPEC.describe_move(s, rules.PLATFORM) == "a platform is laid on a1"
    rng = random.Random(1)
    while s.setup_cursor()[0] == rules.CHANCE_LAYOUT:
        s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
    k = s.chance_outcomes()[0][0]
    assert SPEC.describe_move(s, k) == "a card is dealt to A"
    visibility = SPEC.step_visibility(s, k)
    assert visibility.kind == "deal" and visibility.seat == 0 and visibility.seen_by == (0,)
