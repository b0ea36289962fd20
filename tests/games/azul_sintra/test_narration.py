"""Azul: Stained Glass of Sintra's narration: every point booked to its reason, the final scoring per
category and seat, the broken-glass marker's moves, the tie-break named (issue 22 item 3).

Seeded random games on both implementations: at every step the bookings (`narration.step_entries`,
the reference model replayed with its scoring methods overridden) add up to each seat's score change,
no booking falls back to a bare total, and the amounts a line states match what its rule counts.
"""

from __future__ import annotations

import random
import re

import pytest

from burano_ai.games import get_spec
from burano_ai.games.azul_sintra.narration import Entry, describe_result, format_entries, step_entries
from burano_ai.record import GameRecord, record_narration
from burano_ai.random_play import random_step
from burano_ai.session import GameSession

SPEC = get_spec("azul-sintra")
CASES = [(2, "A", "compiled"), (2, "B", "reference"), (3, "B", "compiled"), (4, "A", "compiled")]


def seeded_steps(players: int, side: str, implementation: str, seed: int):
    """(before, action, after) for every step of a random game from `seed`."""
    state = SPEC.new_game(players, implementation, side=side).new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        before = state.clone()
        action = random_step(state, rng)
        yield before, action, state.clone()


@pytest.mark.parametrize("players, side, implementation", CASES)
def test_every_point_change_is_booked_to_a_reason_and_sums_up(players, side, implementation):
    kinds = set()
    for seed in range(2):
        for before, action, after in seeded_steps(players, side, implementation, seed):
            entries = step_entries(before, after, action)
            for p in range(players):
                assert sum(e.points for e in entries if e.seat == p) == after.scores()[p] - before.scores()[p]
            assert all(e.reason and e.reason != "final scoring" for e in entries), entries
            for e in entries:
                if "round bonus" in e.reason:
                    kinds.add("bonus")
                    assert e.points == int(re.search(r"bonus: (\d+) ", e.reason).group(1))
                elif "kept on the" in e.reason:
                    kinds.add("window")
                    assert e.points == sum(int(x) for x in re.findall(r"\b\d+ \((\d+)\)", e.reason))
                elif "bottom space" in e.reason:
                    kinds.add("track")
                    times = re.search(r"bottom space (\d+) times", e.reason)
                    assert e.points == -18 * (int(times.group(1)) if times else 1)
                elif e.group == "track":
                    kinds.add("marker")
                    assert e.points == 0 and "broken-glass marker" in e.reason
                elif e.group == "final":
                    kinds.add("final")
    assert kinds == {"bonus", "window", "track", "marker", "final"}


@pytest.mark.parametrize("players, side, implementation", CASES)
def test_the_final_scoring_is_broken_down_per_seat_and_category(players, side, implementation):
    before, action, after = list(seeded_steps(players, side, implementation, 7))[-1]
    entries = step_entries(before, after, action)
    lines = [e.text for e in SPEC.step_effects(before, after, action)]
    for p in range(players):
        final = [e.reason for e in entries if e.group == "final" and e.seat == p]
        assert final[0].endswith("left on the strips, 1 per 3") and final[1].startswith("broken-glass marker on")
        if side == "A":
            assert [r.split(":")[0] for r in final[2:]] == ["ornament of windows 1-2", "ornament of windows 3-4",
                                                          "ornament of windows 5-6", "ornament of windows 7-8"]
        else:
            assert len(final) == 3 and final[2].startswith("side B: ")
        letter = "ABCD"[p]
        assert any(line.startswith(f"final scoring {letter}: ") and
                   line.endswith(f", {after.scores()[p]} points in all") for line in lines), lines
    assert lines[-1] == SPEC.describe_result(after)[0]


def test_the_words_of_each_rule():
    lines = format_entries([
        Entry(0, 2, "round bonus: 2 yellow on the strip completed in column 5, round III's colour"),
        Entry(0, 5, "yellow kept on the top cell; window 5 (2) + occupied windows to its right: 6 (2), 8 (1)"),
        Entry(1, 0, "3 pieces broken: broken-glass marker 0 → -4", "track"),
        Entry(1, -18, "1 piece broken: the broken-glass marker reached the bottom space (-18, back to the top, now "
                      "on 0)"),
        Entry(0, 2, "7 pieces left on the strips, 1 per 3", "final"),
        Entry(0, -8, "broken-glass marker on -8", "final"),
        Entry(0, 23, "ornament of windows 1-2: 4 cells filled", "final")], totals=[40, 0])
    assert lines == [
        "A +2 points (round bonus: 2 yellow on the strip completed in column 5, round III's colour)",
        "A +5 points (yellow kept on the top cell; window 5 (2) + occupied windows to its right: 6 (2), 8 (1))",
        "B: 3 pieces broken: broken-glass marker 0 → -4",
        "B -18 points (1 piece broken: the broken-glass marker reached the bottom space (-18, back to the top, now on "
        "0))",
        "final scoring A: +2 (7 pieces left on the strips, 1 per 3), -8 (broken-glass marker on -8), +23 (ornament "
        "of windows 1-2: 4 cells filled): +17 points, 40 points in all"]


def _end(scores, hits, tracks):
    """The last position of a seeded 2-player game with the given scores, -18 hits and track spaces."""
    end = list(seeded_steps(2, "A", "compiled", 3))[-1][2].to_dict()
    for seat, score, hit, track in zip(end["seats"], scores, hits, tracks):
        seat["score"], seat["hits"], seat["track"] = score, hit, track
    return SPEC.load_position(end)[0]


def test_the_tie_break_is_named_with_each_seat_s_loss_to_the_track():
    rule = "points lost to the broken-glass track (18 per bottom space reached + the marker's final value)"
    # T21: X hit -18 once and ends on the top space; Y never hit and ends on space 7 (-14): Y wins
    assert describe_result(_end((30, 30), (1, 0), (0, 7))) == [f"A and B tie on 30 points; B wins the tie-break on "
                                                               f"fewer {rule}: A 18, B 14"]
    assert describe_result(_end((30, 30), (0, 0), (3, 3))) == [f"A and B tie on 30 points and on {rule}, 4 each: "
                                                               "A and B share the win"]
    assert describe_result(_end((31, 30), (0, 0), (0, 0))) == ["A wins with 31 points"]
    assert describe_result(SPEC.new_game(2).new_initial_state()) == []


def test_records_and_sessions_narrate_azul_through_the_game_s_own_effects():
    session = GameSession(2, 5, ["greedy", "greedy"], game="azul-sintra")
    session.advance()
    record = GameRecord.from_json(session.record.to_json())
    _, effects = record_narration(record)
    texts = [e.text for es in effects for e in es]
    assert any("kept on the" in t for t in texts) and any(t.startswith("final scoring B: ") for t in texts)
    assert texts[-1] == SPEC.describe_result(session.state)[0]
    assert [[e.text for e in es] for es in effects] == [[e.text for e in es] for es in session.effects]


def test_burano_replay_tells_the_final_scoring_and_the_winner(tmp_path):
    """`burano random-game --record` then `burano replay`: the listing carries the game's own effects."""
    from typer.testing import CliRunner

    import cli
    runner = CliRunner()
    path = tmp_path / "game.json"
    made = runner.invoke(cli.app, ["random-game", "--game", "azul-sintra", "-n", "2", "-s", "4", "-q", "-r",
                                   str(path), "--option", "auto_keep=true"])
    assert made.exit_code == 0, made.output
    shown = runner.invoke(cli.app, ["replay", str(path)])
    assert shown.exit_code == 0, shown.output
    assert "final scoring A: " in shown.output and "final scoring B: " in shown.output
    assert "broken-glass marker" in shown.output and "kept on the" in shown.output
    # seed 4 ends level on points: the tie-break is named with each seat's loss to the track (AD-14)
    assert "A and B tie on -61 points; A wins the tie-break on fewer points lost to the broken-glass track" \
        in shown.output


def test_the_web_log_tells_the_game_s_own_effects():
    """The web board's log (`seat_payload`) is the session's narration, with Azul's reasons in it."""
    import time

    from burano_ai.web.games import GameHub, seat_payload
    game = GameHub().create("azul-sintra", 2, 5, ["human", "random"])
    for _ in range(400):                                      # A plays its first legal move each turn
        deadline = time.monotonic() + 120
        while game._running and time.monotonic() < deadline:  # the bot's turn
            time.sleep(0.01)
        payload = seat_payload(game, 0)
        if payload["over"]:
            break
        game.play(0, payload["legal"][0])
    assert payload["over"]
    assert payload["log"] == [game.session.narrate(s, 0) for s in game.session.record.steps]
    assert any("final scoring A: " in line for line in payload["log"])
    assert any("broken-glass marker" in line for line in payload["log"])


# ------------------------------------------------------------------------------------------------
# Moves in words, the board readable at 80 columns (issue 34, items 3, 6 and 8)

_WORDS = re.compile(r"^take the (\d+) (\w+)( and the first-player token)? from (the centre|factory \d) "
                    r"(?:to column (\d)(, jokers first)?: (\d+) placed, (\d+) broken|and break them: (\d+) broken)$")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_draft_reads_in_words_that_say_what_is_placed_and_what_breaks(players):
    """`F1 B>2` read as `take the 3 blue from factory 1 to column 2: 3 placed, 0 broken`: the counts are the
    ones the move then places on the column's strip and sends to the tower, at every draft of random games
    (the list of choices read the codes only, and said nothing of what would break)."""
    spec = get_spec("azul-sintra")
    rng = random.Random(players)
    state = spec.new_game(players).new_initial_state(players)
    drafts = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        d = state.to_dict()
        seat = "ABCD".index(d["to_move"])
        for action in state.legal_actions():
            words = spec.describe_move(state, action)
            assert words != state.action_to_string(action)
            m = _WORDS.match(words)
            if m is None:
                assert words.startswith(("keep the ", "reset: ")), words
                continue
            drafts += 1
            taken, colour = int(m.group(1)), m.group(2)
            letter = "POYBG"[("pink", "orange", "yellow", "blue", "green").index(colour)]
            after = state.clone()
            after.apply_action(action)
            a = after.to_dict()
            broken = a["tower"][letter] - d["tower"][letter]
            if a["phase"] != d["phase"]:      # a completed strip (keep) or the round's end moves more pieces
                continue
            if m.group(5) is None:
                assert int(m.group(9)) == taken == broken
                continue
            column = int(m.group(5)) - 1
            before_col, after_col = d["seats"][seat]["columns"][column], a["seats"][seat]["columns"][column]
            placed = len(after_col["pieces"] + after_col["jokers"]) - len(before_col["pieces"] + before_col["jokers"])
            assert (int(m.group(7)), int(m.group(8))) == (placed, broken) and placed + broken == taken, words
        state.apply_action(rng.choice(state.legal_actions()))
    assert drafts > 100


def test_the_board_names_the_bonus_colour_in_words_shows_the_centre_and_colours_its_letters():
    """The 4-player board cut its centre and its status at 80 columns, read `bonus G` (as if seat G) and had
    no colour: now every line fits, the centre is whole, the bonus is `round bonus green`, the letters come
    in their colours, and the move codes are explained in the notes under the choices."""
    from burano_ai.games.azul_sintra.render import COLOUR_STYLES
    spec = get_spec("azul-sintra")
    session = GameSession(4, 3, ["human", "random", "random", "random"], game="azul-sintra")
    session.advance()
    session.play(0, session.legal_moves(0)[-1])       # the centre fills
    session.advance()
    view = session.view(0)
    text = spec.render(view)
    assert all(len(line) <= 80 for line in text.splitlines())
    assert f"centre {view['centre']}" in text and len(view["centre"]) > 0
    colour = dict(zip("POYBG", ("pink", "orange", "yellow", "blue", "green")))[view["indicator"][view["round"] - 1]]
    assert f"round bonus {colour}" in text and "bonus G" not in text
    styled = spec.render_styled(view)
    assert {style for line in styled for t, style in line if t.strip() in "POYBG" and t.strip()} <= \
        set(COLOUR_STYLES.values())
    assert {style for line in styled for _, style in line} >= set(COLOUR_STYLES.values())
    assert any("factory 3's pink to column 4" in note and ">x: break them all" in note
               for note in session.move_notes(0))
