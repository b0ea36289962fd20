"""Narration of every change (`GameSpec.step_effects`, `burano_ai/games/burano/narration.py`) and the
move language for people (`GameSpec.describe_move`, `move_notes`; `burano_ai/games/burano/words.py`).

Each consequence kind is found in seeded games and checked against what the rules say it must be,
computed here from the position dicts alone (roof, lace coin square, bumps, earning and the no-move
coin, island majority, lace scoring, the final scoring); the tie-break on constructed end positions;
every narrated amount against the full states' difference; and the hidden-information check: the
narration a seat reads is the same in every world that seat cannot tell apart from the real one.
"""

from __future__ import annotations

import random
import re
import time

import pytest

from burano_ai.core.game import StepEffect
from burano_ai.core.people import result_lines, score_effects
from burano_ai.games import all_specs, get_spec
from burano_ai.games.burano.data.buildings import BUILDING_CARDS
from burano_ai.games.burano.data.roofs import FLAT_ROOF_VP, MAJORITY_ROOF_VP
from burano_ai.games.burano.data.turn import (
    BUMP_COINS, ISLAND_MAJORITY_VP, LACE_PAID_VP, MOVE_COSTS, NO_MOVE_COINS, RECALL_COINS)
from burano_ai.games.burano.narration import amounts, format_entries, step_entries
from burano_ai.games.burano.words import describe_move, move_notes, status_words
from burano_ai.record import (GameRecord, describe_step, narrate_parts, narrate_step, record_effects,
                               record_narration, step_words)
from burano_ai.session import GameSession

BURANO = get_spec("burano")
GOOFSPIEL = get_spec("goofspiel")


def seeded_steps(players: int, seed: int, spec=BURANO):
    """(before, action, after) for every step of a random game of `spec` from `seed`."""
    state = spec.new_game(players).new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            action = rng.choice([a for a, _ in state.chance_outcomes()])
        else:
            action = rng.choice(state.legal_actions())
        before = state.clone()
        state.apply_action(action)
        yield before, action, state.clone()


#: Steps of four seeded games (2, 3 and 4 players), computed once, and their bookings.
_GAMES: list = []
_ENTRIES: dict[int, list] = {}


def all_steps():
    if not _GAMES:
        for players, seed in ((2, 42), (3, 7), (4, 3), (2, 5)):
            _GAMES.extend(seeded_steps(players, seed))
    return _GAMES


def entries_of(before, action, after) -> list:
    """`step_entries` of a step, once per step of `all_steps`."""
    key = id(before)
    if key not in _ENTRIES:
        _ENTRIES[key] = step_entries(before, after, action)
    return _ENTRIES[key]


def find(predicate, count: int = 1):
    """The first `count` steps (before, action, after) whose `predicate(before, text, after)` holds."""
    found = [(b, a, c) for b, a, c in all_steps() if predicate(b, b.action_to_string(a), c, a)]
    assert len(found) >= count, "the seeded games have no such step: choose other seeds"
    return found[:count]


def seat_delta(before, after, p: int) -> tuple[int, int]:
    old, new = before.to_dict()["seats"][p], after.to_dict()["seats"][p]
    return new["vp"] - old["vp"], new["coins"] - old["coins"]


def booked(before, action, after, reason: str) -> dict[int, tuple[int, int]]:
    """Per seat, the (VP, coins) the ledger books to reasons containing `reason`."""
    out: dict[int, tuple[int, int]] = {}
    for e in entries_of(before, action, after):
        if reason in e.reason:
            vp, coins = out.get(e.seat, (0, 0))
            out[e.seat] = (vp + e.vp, coins + e.coins)
    return out


# -- each consequence kind ------------------------------------------------------------------------


def test_a_roof_scores_by_its_kind_and_says_why():
    checked = 0
    for before, action, after in find(lambda b, t, a, x: b.phase_name() == "roof-bonus", 36):
        p = before.current_player()
        pending = before.to_dict()["context"]["pending_roof"]
        if after.to_dict()["context"]["pending_roof"] is not None:
            continue   # the bonus card is still being drawn: the roof scores on a later step
        kind = before.to_dict()["island"]["roofs"][pending]["kind"]
        lines = [e.text for e in BURANO.step_effects(before, after, action)]
        roof = booked(before, action, after, "roof")
        bonus_cards = any(BUILDING_CARDS[c][1] == 0 for c in after.players[p].buildings)
        if kind == "flat" and not bonus_cards:
            assert roof == {p: (FLAT_ROOF_VP, 0)}, lines
        if kind in ("island", "workshop") and roof:
            n = int(re.search(rf"(\d+) {kind} majorit", " ".join(lines)).group(1))
            assert roof[p][0] >= MAJORITY_ROOF_VP[min(3, n)]
            if not bonus_cards:
                assert roof.get(p, (0, 0))[0] == MAJORITY_ROOF_VP[min(3, n)]
        if not roof:   # nothing scored: a majority or fountains roof with none (rules: 0 VP)
            assert kind != "flat" and seat_delta(before, after, p)[0] == 0
        else:
            assert any(line.startswith(f"{'ABCD'[p]} +{roof[p][0]} VP ({kind} roof") for line in lines), lines
        checked += 1
    assert checked >= 5


def test_the_pieces_of_a_roof_move_name_the_tile_and_its_fields():
    before, action, after = find(lambda b, t, a, x: re.match(r"roof \d", t) is not None)[0]
    d = before.to_dict(before.current_player())
    slot = int(before.action_to_string(action).split()[1]) - 1
    tile = d["seats"][before.current_player()]["roof_slots"][slot]
    words = describe_move(before, action)
    assert f"roof {tile['kind']} {'-'.join(tile['fields'])}" in words
    a, b = before.action_to_string(action).split()[2].split("-")
    placed = {tuple(r["cells"]): r["fields"] for r in after.to_dict()["island"]["roofs"]}
    fields = placed.get((a, b)) or list(reversed(placed[(b, a)]))
    assert words.endswith(f"{fields[0]} on {a}, {fields[1]} on {b}"), (words, fields)


def test_a_fishing_trip_bumps_the_other_seats_workers_and_pays_them():
    for before, action, after in find(lambda b, t, a, x: bool(booked(b, x, a, "bumped from I")), 3):
        island = next(e.reason.split()[-1] for e in step_entries(before, after, action) if "bumped from I" in e.reason)
        for p, (vp, coins) in booked(before, action, after, "bumped from I").items():
            old = before.to_dict()["seats"][p]["islands"].get(island, 0)
            new = after.to_dict()["seats"][p]["islands"].get(island, 0)
            assert (vp, coins) == (0, BUMP_COINS) and new == old - 1
            assert f"{'ABCD'[p]} +{BUMP_COINS} coins (worker bumped from {island})" in \
                [e.text for e in BURANO.step_effects(before, after, action)]


def test_lace_on_a_coin_square_and_a_recall_pay_one_coin():
    before, action, after = find(lambda b, t, a, x: t.startswith("lace ") and bool(booked(b, x, a, "coin square")))[0]
    assert booked(before, action, after, "coin square") == {before.current_player(): (0, 1)}
    before, action, after = find(lambda b, t, a, x: t.startswith("recall "))[0]
    p = before.current_player()
    assert booked(before, action, after, "recall") == {p: (0, RECALL_COINS)}
    assert seat_delta(before, after, p) == (0, RECALL_COINS)


def test_income_earning_coins_move_costs_and_the_no_move_coin():
    before, action, after = find(lambda b, t, a, x: t == "done" and b.phase_name() == "turn"
                                 and b.to_dict()["context"]["moves"] == 0 and b.to_dict()["stage"] == "rounds")[0]
    p = before.current_player()
    assert booked(before, action, after, "no move this turn") == {p: (0, NO_MOVE_COINS)}
    for before, action, after in find(lambda b, t, a, x: t.startswith(("take ", "build ")), 30):
        p = before.current_player()
        moves = before.to_dict()["context"]["moves"]
        assert booked(before, action, after, "move of the turn") == {p: (0, MOVE_COSTS[moves])}
    before, action, after = find(lambda b, t, a, x: bool(booked(b, x, a, "earning")))[0]
    p = before.current_player()
    n = int(re.search(r"earning: (\d+) coin symbol", " ".join(e.reason for e in step_entries(before, after))).group(1))
    assert booked(before, action, after, "earning") == {p: (0, n)} and n > 0


def test_the_season_end_island_majority_per_seat():
    steps = find(lambda b, t, a, x: b.to_dict()["stage"] == "rounds" and a.to_dict()["stage"] != "rounds", 6)
    for before, action, after in steps:
        d = before.to_dict()
        n = d["players"]
        expected = [0] * n
        for island in ("I1", "I2", "I3", "I4", "I5", "I6"):
            counts = [seat["islands"].get(island, 0) for seat in d["seats"]]
            best = max(counts)
            if best == 0:
                continue
            tied = [p for p in range(n) if counts[p] == best]
            ties_card = [p for p in tied if "island-ties" in d["seats"][p]["buildings"]]
            if len(tied) == 1 or ties_card:
                expected[(ties_card or tied)[0]] += ISLAND_MAJORITY_VP[n]
            else:
                for p in tied:
                    expected[p] += ISLAND_MAJORITY_VP[n] // len(tied)
        got = booked(before, action, after, "island majority")
        assert [got.get(p, (0, 0))[0] for p in range(n)] == expected
        season = d["season"]
        lines = [e.text for e in BURANO.step_effects(before, after, action)]
        for p in range(n):
            if expected[p]:
                assert any(line.startswith(f"{'ABCD'[p]} +{expected[p]} VP (end of {season}, island majority: I")
                           for line in lines), lines


def test_lace_scoring_pays_two_vp_a_worker_plus_the_union_bonus():
    for before, action, after in find(lambda b, t, a, x: bool(booked(b, x, a, ", lace: ")), 8):
        for e in step_entries(before, after, action):
            if ", lace: " in e.reason:
                paid = int(re.search(r"lace: (\d+) worker", e.reason).group(1))
                union = re.search(r"and (\d+) VP union bonus", e.reason)
                assert e.vp == paid * LACE_PAID_VP + (int(union.group(1)) if union else 0)


def test_the_final_scoring_is_broken_down_per_category_and_adds_up():
    finals = find(lambda b, t, a, x: a.is_terminal(), 4)
    for before, action, after in finals:
        entries = step_entries(before, after, action)
        final = [e for e in entries if e.group == "final"]
        assert final and all(e.reason != "final scoring" for e in final), "the breakdown fell back to a total"
        lines = [e.text for e in BURANO.step_effects(before, after, action)]
        for p in range(before.num_players):
            vp, coins = seat_delta(before, after, p)
            assert (sum(e.vp for e in entries if e.seat == p), sum(e.coins for e in entries if e.seat == p)) \
                == (vp, coins)
            total = after.to_dict()["seats"][p]["vp"]
            assert any(line.startswith(f"final scoring {'ABCD'[p]}:") and line.endswith(f"{total} VP in all")
                       for line in lines), lines
        assert lines[-1] in BURANO.describe_result(after)


def _end_position(vps, preps, coins):
    """A constructed end of a 2-player game: the seeded game's last position with the given VP,
    preparation-area cubes and coins."""
    end = find(lambda b, t, a, x: a.is_terminal() and a.num_players == 2)[0][2]
    d = end.to_dict()
    for seat, vp, prep, coin in zip(d["seats"], vps, preps, coins):
        seat["vp"], seat["coins"] = vp, coin
        seat["prep"] = {"pink": prep} if prep else {}
    return BURANO.load_position(d)[0]


def test_the_tie_break_is_named_with_each_count():
    assert BURANO.describe_result(_end_position((17, 17), (1, 3), (5, 5))) == \
        ["A and B tie on 17 VP; B wins the tie-break on cubes in the preparation area (A 1, B 3)"]
    assert BURANO.describe_result(_end_position((17, 17), (2, 2), (3, 6))) == \
        ["A and B tie on 17 VP and on cubes in the preparation area (2 each); B wins the tie-break on coins (A 3, B 6)"]
    assert BURANO.describe_result(_end_position((17, 17), (2, 2), (4, 4))) == \
        ["A and B tie on 17 VP, cubes in the preparation area and coins too (2 and 4 each): A and B share the win"]
    assert BURANO.describe_result(_end_position((20, 17), (0, 3), (0, 9))) == ["A wins with 20 VP"]
    assert BURANO.describe_result(find(lambda b, t, a, x: True)[0][0]) == []   # not over: nothing to say


def test_the_generic_result_and_score_changes_serve_any_game():
    """`core.people`'s fallbacks, on Goofspiel: every seat's score change from each reader's own views."""
    steps = list(seeded_steps(2, 3, GOOFSPIEL))
    changed = 0
    for before, action, after in steps:
        effects = score_effects(GOOFSPIEL, before, after)
        for p in range(2):
            delta = after.scores()[p] - before.scores()[p]
            if delta:
                changed += 1
                assert any(f"{'AB'[p]} +{delta:g} points" in e.text for e in effects)
    assert changed
    end = steps[-1][2]
    assert result_lines(GOOFSPIEL, end)[0].endswith(f"{max(end.scores()):g} points")


def test_goofspiel_says_who_took_each_prize():
    for before, action, after in seeded_steps(2, 3, GOOFSPIEL):
        texts = [e.text for e in GOOFSPIEL.step_effects(before, after, action)]
        gained = [after.scores()[p] - before.scores()[p] for p in range(2)]
        told = sum(int(x) for line in texts for x in re.findall(r"[AB] \+(\d+) point", line))
        assert told == sum(gained)
        if before.current_player() == 0 and not before.is_chance_node():
            assert texts == []   # A's bid alone resolves nothing (and reveals nothing)


# -- every amount, in every game ------------------------------------------------------------------


def test_every_vp_and_coin_change_is_booked_to_a_reason():
    for before, action, after in all_steps():
        entries = step_entries(before, after, action)
        for p in range(before.num_players):
            assert (sum(e.vp for e in entries if e.seat == p), sum(e.coins for e in entries if e.seat == p)) \
                == seat_delta(before, after, p), before.action_to_string(action)
        assert all(e.reason for e in entries), [e for e in entries if not e.reason]


def test_the_step_is_found_when_the_action_is_not_given():
    for before, action, after in all_steps()[:400]:
        assert [e.text for e in BURANO.step_effects(before, after)] == \
            [e.text for e in BURANO.step_effects(before, after, action)]


def test_amounts_and_merged_lines():
    assert amounts(5, -3) == "+5 VP, -3 coins" and amounts(0, 1) == "+1 coin" and amounts(0, 0) == ""
    from burano_ai.games.burano.narration import Entry
    lines = format_entries([Entry(1, 0, 2, "worker bumped from I2"), Entry(1, 0, 2, "worker bumped from I2"),
                            Entry(0, 3, 0, "coins", "final"), Entry(0, 2, 0, "monument", "final")], [30, 10])
    assert lines == ["B +4 coins (worker bumped from I2)", "final scoring A: +3 VP (coins), +2 VP (monument): +5 VP, "
                     "30 VP in all"]


# -- what a seat may read ---------------------------------------------------------------------------


def _told(spec, before, action, after, seat: int) -> str:
    """The step from `before` to `after` as `seat` reads it: its text, its people's words, its effects."""
    return narrate_step(describe_step(before, action, spec.key), seat, spec.key,
                        spec.step_effects(before, after, action), step_words(before, action, spec.key))


@pytest.mark.parametrize("spec,players,seed", [(BURANO, 2, 42), (BURANO, 3, 7), (GOOFSPIEL, 3, 5)],
                         ids=["burano-2p", "burano-3p", "goofspiel-3p"])
def test_a_seats_narration_is_the_same_in_every_world_it_cannot_tell_apart(spec, players, seed):
    """For each step and seat X: X's narration of it (step text and effects) is unchanged when the
    position before it is resampled from X's view (`State.resample`) and the step replayed there (the
    same action when X sees it, any other offered one when X does not) to a position X sees as the real
    one after the step. A narration naming a hidden card or bid, or an effect computed from one,
    differs in some world and fails here."""
    rng = random.Random(seed)
    compared = hidden = 0
    for ply, (before, action, after) in enumerate(seeded_steps(players, seed, spec)):
        if spec is BURANO and players == 3 and ply % 3:
            continue
        step = describe_step(before, action, spec.key)
        for x in range(players):
            letter = "ABCDEF"[x]
            world = before.resample(x, rng.randrange(2**31))
            offered = [a for a, _ in world.chance_outcomes()] if world.is_chance_node() else world.legal_actions()
            if step.visible_to(letter):
                if action not in offered:
                    continue   # the move needs what the real world holds (another seat's hidden cards)
                other = action
            else:
                hidden += 1
                other = rng.choice(offered)
            other_step = describe_step(world, other, spec.key)
            moved = world.clone()
            moved.apply_action(other)
            if moved.to_dict(x) != after.to_dict(x):
                continue   # a world X tells apart after the step (its last bid reveals every bid of it)
            assert _told(spec, world, other, moved, x) == _told(spec, before, action, after, x), \
                f"step {ply} told to {letter}"
            compared += 1
    assert compared > 50 and hidden > 5


def test_narrated_amounts_match_each_seats_views():
    """Every VP and coin amount a seat reads equals the change its own views show."""
    for before, action, after in all_steps()[:1500]:
        lines = [e.text for e in BURANO.step_effects(before, after, action)]
        for x in range(before.num_players):
            old, new = before.to_dict(x)["seats"], after.to_dict(x)["seats"]
            for p in range(before.num_players):
                told = told_amounts(lines, "ABCD"[p])
                assert told == (new[p]["vp"] - old[p]["vp"], new[p]["coins"] - old[p]["coins"]), lines


def told_amounts(lines: list[str], letter: str) -> tuple[int, int]:
    """The VP and coins narrated for seat `letter` in effect lines (a final scoring line counted once)."""
    vp = coins = 0
    for line in lines:
        final = re.match(r"final scoring ([A-F]): (.*): [+-]\d+ VP", line)
        if final:
            if final.group(1) == letter:
                body = final.group(2)
                vp += sum(int(x) for x in re.findall(r"([+-]\d+) VP", body))
                coins += sum(int(x) for x in re.findall(r"([+-]\d+) coins?\b", body))
            continue
        m = re.match(rf"{letter} ((?:[+-]\d+ (?:VP|coins?)(?:, )?)+)", line)
        if m:
            vp += sum(int(x) for x in re.findall(r"([+-]\d+) VP", m.group(1)))
            coins += sum(int(x) for x in re.findall(r"([+-]\d+) coins?", m.group(1)))
    return vp, coins


# -- records, sessions ----------------------------------------------------------------------------


def test_records_and_sessions_tell_the_same_effects_and_exports_tell_them_too():
    session = GameSession(2, 42, ["random", "random"])
    session.advance()
    record = GameRecord.from_json(session.record.to_json())
    words, effects = record_narration(record)
    assert [[e.text for e in es] for es in effects] == [[e.text for e in es] for es in session.effects]
    assert words == session.words and any(words) and record_effects(record) == effects
    for seat in range(2):
        told = [narrate_step(s, seat, effects=e, words=w) for s, e, w in zip(record.steps, effects, words)]
        assert told == [session.narrate(s, seat) for s in session.record.steps]
    exported = record.for_seat(0)
    words, effects = record_narration(exported)
    told_export = [narrate_step(s, 0, effects=e, words=w) for s, e, w in zip(exported.steps, effects, words)]
    assert told_export == [session.narrate(s, 0) for s in session.record.steps]
    resumed = GameSession.resume(record)
    assert [resumed.narrate(s, 1) for s in resumed.record.steps] == [session.narrate(s, 1) for s in session.record.steps]
    assert record.to_dict()["steps"] == session.record.to_dict()["steps"]   # nothing derived is stored


def test_undo_forgets_the_effects_of_the_steps_taken_back():
    session = GameSession(2, 42, ["human", "random"])
    session.advance()
    while len(session.record.steps) < 60:
        session.play(0, session.legal_moves(0)[0])
        session.advance()
    session.undo(0)
    assert len(session.effects) == len(session.words) == len(session.record.steps)


def test_step_effects_are_public_in_burano_and_visible_to_everyone():
    for before, action, after in all_steps()[:300]:
        assert all(isinstance(e, StepEffect) and e.seen_by is None for e in BURANO.step_effects(before, after, action))


# -- the move language ----------------------------------------------------------------------------


def test_every_move_has_words_and_done_says_what_it_ends():
    said: dict[str, set[str]] = {}
    for before, action, _ in all_steps()[:3000]:
        if before.is_chance_node():
            continue
        text = before.action_to_string(action)
        words = describe_move(before, action)
        assert words and "?" not in words, (text, words)
        said.setdefault(before.phase_name() if text == "done" else text.split()[0], set()).add(words)
    assert said["turn"] >= {"end the turn"} or said["turn"] >= {"end the turn without a move: +1 coin"}
    for phase in ("port-trade", "lace", "recall"):
        if phase in said:
            assert not any("turn" in w for w in said[phase]), said[phase]
    assert all(w.startswith("spend 1 privilege") for w in said.get("privilege", ())), said.get("privilege")


def test_the_next_moves_cost_and_an_unaffordable_move_are_explained():
    state = find(lambda b, t, a, x: b.phase_name() == "turn" and b.to_dict()["context"]["moves"] == 1)[0][0]
    d = state.to_dict()
    d["seats"][state.current_player()]["coins"] = 1
    poor, _ = BURANO.load_position(d)
    assert "take, build, roof: the second move of the turn needs 3 coins, you have 1 coin" in move_notes(poor)
    assert not any(poor.action_to_string(a).startswith(("take", "build", "roof")) for a in poor.legal_actions())
    d["seats"][state.current_player()]["coins"] = 7
    rich, _ = BURANO.load_position(d)
    assert "the second move of the turn (take, build or roof) costs 3 coins; you have 7 coins" in move_notes(rich)


def test_status_lines_are_in_words():
    before = find(lambda b, t, a, x: b.phase_name() == "fish-draw")[0][0]
    d = before.to_dict(before.current_player())
    words = status_words(d)
    ctx = d["context"]
    assert any(w.startswith(f"fishing at {ctx['fish_island']}: {ctx['fish_matches']} match") for w in words)
    from burano_ai.games.burano.render import render_position
    board = render_position(d)
    assert "pending:" not in board and "fish_matches" not in board and "fishing at" in board


def test_all_specs_have_the_new_hooks():
    for spec in all_specs():
        state = spec.new_game(spec.default_players).new_initial_state(1)
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        assert all(spec.describe_move(state, a) for a in state.legal_actions())
        assert isinstance(spec.move_notes(state), list)
        assert spec.describe_result(state) == []


# -- the terminal -----------------------------------------------------------------------------------


def test_burano_play_narrates_every_score_change_of_the_bots_turns(tmp_path):
    """`burano play` in a pseudo-terminal, A against the random bot to the end: for every step A did not
    make whose VP or coins changed in A's views, each consequence is on the screen and the amounts
    told add up to the changes A's views show; the end names the result. A types some moves in
    people's words (`End the turn without a move: +1 coin`), which the table accepts."""
    import os

    from pty_helpers import spawn_cli, type_a_game

    pytest.importorskip("pexpect")
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", COLUMNS="140", LINES="50")
    seed = 11
    record_path = tmp_path / "game.json"
    child, transcript = spawn_cli(tmp_path, ["play", "--players", "2", "--you", "A", "--bots", "random",
                                             "--seed", str(seed), "--record", str(record_path)],
                                  env=env, rows=50, columns=140, timeout=60)
    shadow = GameSession(2, seed, ["human", "random"])
    shadow.advance()
    spoken = 0

    def choose(_moves, legal):
        nonlocal spoken
        words = shadow.describe_legal(0)
        ending = [i for i, w in enumerate(words) if w.startswith("end the turn")]
        if ending and spoken < 3:   # people's words as input
            spoken += 1
            return words[ending[0]].capitalize(), legal[ending[0]]
        return "1", legal[0]
    type_a_game(child, shadow, 0, choose)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-Za-z]|\r", "", transcript.getvalue())
    assert child.exitstatus == 0, text[-3000:]
    assert shadow.is_over() and spoken == 3
    screen = " ".join(text.split())

    record = GameRecord.load(record_path)
    assert [s.to_dict() for s in record.steps] == [s.to_dict() for s in shadow.record.steps]
    effects = record_effects(record)
    views = [state.to_dict(0) for _, state in record.positions()]
    changed = 0
    for i, step in enumerate(record.steps):
        if step.actor == "A":
            continue
        told = [e.text for e in effects[i] if e.visible_to(0)]
        for p, letter in enumerate("AB"):
            old, new = views[i]["seats"][p], views[i + 1]["seats"][p]
            delta = (new["vp"] - old["vp"], new["coins"] - old["coins"])
            assert told_amounts(told, letter) == delta, (i, step, told)
            changed += delta != (0, 0)
        for line in told:
            assert " ".join(line.split()) in screen, f"step {i} ({step.move}): {line!r} was not on the screen"
    assert changed > 20
    for line in BURANO.describe_result(record.replay()):
        assert line in screen


def test_the_web_payload_carries_the_words_the_notes_and_the_narrated_log():
    from burano_ai.web.games import GameHub, seat_payload
    game = GameHub().create("burano", 2, 7, ["human", "random"])
    for _ in range(40):   # A's moves until a step of the bot or of chance changed something
        deadline = time.monotonic() + 120
        while game._running and time.monotonic() < deadline:   # the bot thread plays its turn
            time.sleep(0.01)
        payload = seat_payload(game, 0)
        if any(" — " in line for line in payload["log"]) or payload["over"]:
            break
        game.play(0, payload["legal"][0])
    assert len(payload["legal_words"]) == len(payload["legal"]) > 0
    assert payload["legal_words"] == game.session.describe_legal(0)
    assert payload["notes"] == game.session.move_notes(0)
    assert any(" — " in line for line in payload["log"])
    assert payload["log"] == [game.session.narrate(s, 0) for s in game.session.record.steps]


def test_a_move_is_narrated_with_its_words_where_the_reader_sees_it():
    session = GameSession(2, 42, ["random", "random"])
    session.advance()
    steps = session.record.steps
    lace_end = next(i for i, s in enumerate(steps) if s.move == "done" and session.words[i] == "stop placing lace workers")
    assert session.narrate(steps[lace_end], 1).startswith(f"{steps[lace_end].actor}: done (stop placing lace workers)")
    build = next(i for i, s in enumerate(steps) if s.move.startswith("build "))
    assert re.match(r"[AB]: build \w+@\w+ \(level \d, (fishing|lace|earning)\)", session.narrate(steps[build], None))
    hidden = next(i for i, s in enumerate(steps) if s.actor == "B" and not s.visible_to("A"))
    assert session.narrate(steps[hidden], 0) == "B places a pyramid cube (hidden)"   # no words, no colour


def test_a_goofspiel_replay_on_the_web_is_told_in_goofspiel_s_words():
    """Regression: the web replay narrated every record with Burano's words (a Goofspiel prize read
    `chance: prize 7` instead of `the prize is 7`)."""
    from burano_ai.web.replay import Replay
    session = GameSession(2, 3, ["random", "random"], game="goofspiel")
    session.advance()
    replay = Replay("r1", GameRecord.from_json(session.record.to_json()), 0)
    told = replay.summary()["steps"]
    assert told == [session.narrate(s, 0) for s in session.record.steps]
    assert told[0].startswith("the prize is ") and any("takes it" in line for line in told)


#: A rules id: a spec section (§5.3), a decision (VD-10, WD-11, AD-22, RD-26), a rulebook line (RU:96, RB:121).
RULES_ID = re.compile(r"§\s?\d|\b[A-Z]{1,2}D-\d|\bRU:\d|\bRB:\d")


#: Slips a reader trips on (issue 34, item 13): `a orange`, `1 coins`, `... 0 more`, a move's words wrapped in
#: a second pair of brackets (`end (the build (1 card placed))`).
SLIPS = {"an article": re.compile(r"\ba (?:[aeio]\w|un\w|8\b|X\b)"),
         "a plural of one": re.compile(r"\b1 (?:coins|points|cards|fish cards|pieces|tokens|figures|cubes|workers|"
                                       r"moves|scaffolds|VP s)\b"),
         "nothing more": re.compile(r"\b0 more\b"),
         "words in brackets twice": re.compile(r"^\w: \w+ \(\w+ the build \(")}


@pytest.mark.parametrize("game", [s.key for s in all_specs()])
def test_what_a_player_reads_names_no_rules_ids(game):
    """Issue 34, item 13: the narration read '(§5.3 3c)', '(the tie-break, VD-10)', 'Boy rule ... (WD-11)',
    rules ids a player cannot look up, and slips (`SLIPS`); a return was told twice, by its step and by an
    effect saying the same. Every step's narration as every seat reads it, the moves in words, the notes and
    the result of a game at the smallest and largest player count carry none of them."""
    spec = get_spec(game)
    for players in (spec.min_players, spec.max_players):
        session = GameSession(players, 1, ["human"] + ["random"] * (players - 1), game=game)
        rng = random.Random(1)
        read: list[str] = []
        while True:
            session.advance()
            if session.is_over():
                break
            read += session.describe_legal(0) + session.move_notes(0)
            session.play(0, rng.choice(session.legal_moves(0)))
        for i, step in enumerate(session.record.steps):
            for seat in range(players):
                text, told = narrate_parts(step, seat, game, session.effects[i], session.words[i])
                assert not [effect for effect in told if effect in text or text.endswith(effect)], (text, told)
                read.append(narrate_step(step, seat, game, session.effects[i], session.words[i]))
        read += spec.describe_result(session.state)
        assert not [text for text in read if RULES_ID.search(text)], [t for t in read if RULES_ID.search(t)][:5]
        for slip, pattern in SLIPS.items():
            assert not [text for text in read if pattern.search(text)], (slip, [t for t in read
                                                                               if pattern.search(t)][:5])
