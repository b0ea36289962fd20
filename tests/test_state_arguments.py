"""Issue 35, G01 and G09: every public State method of every game checks its arguments (both implementations).

A library user's mistake is one of the project's errors (`BuranoError` for a value, `TypeError` for a
type), never a crash, a read out of bounds or an IndexError/OverflowError/ValueError from inside. Each
test here failed on the code before the fix (the crashes in a child process, so that the test fails
instead of pytest dying): `State.prior(seat, [10**9])` killed the compiled Venice 2099 and Azul cores
with SIGSEGV; ids past the last action returned a probability read out of bounds; `set_from` with an
oversized list wrote past Walking in Burano's C arrays (SIGSEGV); `price(square)` read out of bounds.
The Python-only poker games (one implementation, `core.history.HistoryState`) have their own section at
the end: the same hostile seats, ids, seeds, indents and huge ints over every public method (each was an
IndexError, or a seat -1 / an id -1 read from the end, before issue 32's fix). The property-based
campaign over every public method, single-implementation games included, is tests/test_state_fuzz.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from burano_ai.core.errors import BuranoError, IllegalMoveError, OptionError, PositionError
from burano_ai.games import get_spec
from signal_helpers import terminal_signals
from state_fuzzing import game_keys, single_keys     # compared games (compiled + reference); one implementation

IMPLEMENTATIONS = ("compiled", "reference")
HUGE = 10 ** 5000      # str() of it raises ValueError (Python's 4,300-digit limit)


def at_decision(key: str, implementation: str = "compiled", players: int | None = None, seed: int = 1):
    """A state of game `key` at its first decision (chance resolved by the first outcome)."""
    spec = get_spec(key)
    state = spec.new_game(players or spec.default_players, implementation).new_initial_state(seed)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def run_child(code: str) -> subprocess.CompletedProcess:
    """`code` in a fresh interpreter (this checkout's code): a crash is a failed assertion, not a dead pytest."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120, cwd=Path(__file__).parent.parent, preexec_fn=terminal_signals)


# --- G01: the segfault and the reads out of bounds ------------------------------------------------


@pytest.mark.parametrize("key", game_keys())
def test_prior_of_huge_and_past_the_end_ids_is_an_error_not_a_crash(key):
    """The issue's repro: prior(seat, [10**9]) and ids of ±2**31, 689 and 5000 (past the last action)."""
    done = run_child(f"""
        from burano_ai.core.errors import OptionError
        from burano_ai.games import get_spec
        spec = get_spec({key!r})
        for implementation in ("compiled", "reference"):
            s = spec.new_game(spec.default_players, implementation).new_initial_state(1)
            while s.is_chance_node():
                s.apply_action(s.chance_outcomes()[0][0])
            n = s.game.num_distinct_actions()
            for ids in ([10**9], [2**31], [-(2**31)], [-1], [n], [689], [5000], [2**64], [10**30]):
                try:
                    got = s.prior(s.current_player(), ids)
                except OptionError as e:       # Burano has 1,407 ids: 689 is one, not legal here
                    assert "out of range" in str(e) if not 0 <= ids[0] < n else "not a legal move" in str(e), e
                else:
                    raise AssertionError(f"{{implementation}} prior{{ids}} -> {{got}}")
        print("ok")
    """)
    assert done.returncode == 0 and done.stdout.strip() == "ok", (done.returncode, done.stderr[-2000:])


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("key", game_keys())
def test_prior_takes_only_legal_ids_of_the_seat_to_decide(key, implementation):
    state = at_decision(key, implementation)
    while len(state.legal_actions()) == state.game.num_distinct_actions():      # Goofspiel's first bids
        state.apply_action(state.legal_actions()[0])
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
    seat, legal = state.current_player(), state.legal_actions()
    illegal = next(a for a in range(state.game.num_distinct_actions()) if a not in legal)
    with pytest.raises(OptionError, match=f"action {illegal} is not a legal move here"):
        state.prior(seat, legal[:1] + [illegal])
    with pytest.raises(OptionError, match="given twice"):
        state.prior(seat, [legal[0], legal[0]])
    with pytest.raises(OptionError, match="more than the"):
        state.prior(seat, list(range(state.game.num_distinct_actions() + 1)))
    for bad in ([1.5], ["x"], [None], [True]):
        with pytest.raises(TypeError, match="action id must be an int"):
            state.prior(seat, bad)
    for bad in (None, 5, "abc", {1: 2}, iter(legal)):
        with pytest.raises(TypeError, match="list or tuple of action ids"):
            state.prior(seat, bad)
    other = (seat + 1) % state.num_players
    assert state.prior(other, legal) is None          # a seat not deciding: None, as before
    assert state.prior(seat, []) is None
    prior = state.prior(seat, legal)
    assert prior is None or set(prior) == set(legal)


def test_set_from_with_an_oversized_list_is_refused_before_any_c_array_is_written():
    """Walking in Burano's `set_from` wrote `returned` past its C array (SIGSEGV on main)."""
    done = run_child("""
        from burano_ai.core.errors import PositionError
        from burano_ai.games import get_spec
        s = get_spec("walking-in-burano").new_game(2).new_initial_state(1)
        pos = s.to_position()
        pos.returned = list(range(70)) * 50
        key = s.key()
        try:
            s.set_from(pos)
        except PositionError as e:
            assert "returned" in str(e), e
        else:
            raise AssertionError("accepted")
        assert s.key() == key
        print("ok")
    """)
    assert done.returncode == 0 and done.stdout.strip() == "ok", (done.returncode, done.stderr[-2000:])


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_venice_price_of_a_square_off_the_board_is_an_error(implementation):
    """The compiled `price(s)` read `coins[s]` for any s (price(10**6) was 1, price(-5) was 0)."""
    state = at_decision("venice-2099", implementation)
    squares = state.n * state.n
    assert state.price(0) == state.coins_on[0] + 1 if implementation == "reference" else state.price(0) >= 1
    for square in (squares, -1, -5, 10**6, 2**64):
        with pytest.raises(OptionError, match="square .* is out of range"):
            state.price(square)
    with pytest.raises(TypeError):
        state.price(1.0)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_set_from_and_from_position_take_only_a_position_of_this_game(implementation):
    for key in ("azul-sintra", "walking-in-burano", "venice-2099"):
        state = at_decision(key, implementation)
        game = state.game
        other = at_decision("goofspiel", implementation)
        for bad in (None, 5, "x", {}, state.to_dict(), other.clone()):
            with pytest.raises(TypeError, match="must be a"):
                type(state).from_position(bad, game)
        if implementation == "compiled":
            for bad in (None, 5, state.to_dict()):
                with pytest.raises(TypeError):
                    state.set_from(bad)
            with pytest.raises(TypeError):
                type(state).from_position(state.to_position(), None)
        bigger = get_spec(key).new_game(get_spec(key).default_players + 1, implementation)
        with pytest.raises(PositionError, match="does not belong to this game"):
            type(state).from_position(state.clone() if implementation == "reference" else state.to_position(), bigger)


def test_burano_from_position_checks_the_position_as_the_reader_does():
    """The compiled Burano `from_position` copied any Position into fixed-size C arrays."""
    import burano_ai
    from burano_ai import State

    state = burano_ai.Game(2).new_initial_state(3)
    pos = state.to_position()
    pos.actor = 9                       # an index past the players array
    with pytest.raises(PositionError):
        State.from_position(pos)
    pos = state.to_position()
    pos.players[0].roof_slots = [None] * 40
    with pytest.raises(PositionError):
        State.from_position(pos)
    with pytest.raises(TypeError, match="must be a Position"):
        State.from_position(state.to_dict())
    assert State.from_position(state.to_position()).to_dict() == state.to_dict()


# --- G09: seats out of range ----------------------------------------------------------------------

BAD_SEATS = (-2, 9, 2**31, 2**64, -(2**64), HUGE, "Z", "", "AB")


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("key", game_keys())
def test_seats_out_of_range_are_option_errors_everywhere(key, implementation):
    """finishing_key and prior raised IndexError/OverflowError (Burano's reference read seat -1 as the
    last seat); every seat-taking method now refuses alike."""
    state = at_decision(key, implementation)
    legal = state.legal_actions()
    calls = {
        "finishing_key": lambda seat: state.finishing_key(seat),
        "prior": lambda seat: state.prior(seat, legal),
        "legal_actions": lambda seat: state.legal_actions(seat),
        "to_dict": lambda seat: state.to_dict(seat),
        "to_json": lambda seat: state.to_json(seat),
        "information_state_key": lambda seat: state.information_state_key(seat),
        "resample": lambda seat: state.resample(seat, 0),
    }
    for name in ("final_breakdown", "track_loss", "figures_on_board", "alive_figures", "bound", "hand_size",
                 "pyramid_count", "workers_off_ring", "island_majorities", "workshop_majorities",
                 "character_types", "playable_cards", "can_reset", "side_score", "arrows", "covered_colours",
                 "sail_destinations", "workshop_workers"):
        if hasattr(state, name):
            calls[name] = getattr(state, name)
    for name, call in calls.items():
        for seat in BAD_SEATS + (() if name == "prior" else (-1,)):   # prior(CHANCE, ...) is None
            with pytest.raises(OptionError, match="is not a seat of this"):
                call(seat)
        for seat in (1.0, True, None if name not in ("to_dict", "to_json", "legal_actions") else 1.5, [0]):
            with pytest.raises(TypeError):
                call(seat)


# --- the other arguments: kinds, indents, huge ints, helpers -----------------------------------------


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("key", game_keys())
def test_chance_kind_names_indents_and_huge_ints(key, implementation):
    state = at_decision(key, implementation)
    for kind in (99, -1, 2**64, HUGE):
        with pytest.raises(OptionError, match="chance kind .* out of range"):      # was IndexError
            state.chance_kind_name(kind)
    for kind in (1.5, "0", True):
        with pytest.raises(TypeError):
            state.chance_kind_name(kind)
    assert state.chance_kind_name(0) == state.chance_kind_name(0)
    for indent in (10**9, -1, HUGE):
        with pytest.raises(OptionError, match="indent"):                           # 10**9 asked for gigabytes
            state.to_json(None, indent)
    for indent in ("  ", 1.5, True):
        with pytest.raises(TypeError):
            state.to_json(None, indent)
    assert state.to_json(None, 2).startswith("{\n  ")
    # An int past Python's 4,300-digit str() limit: the message must not try to print it (ValueError).
    with pytest.raises(IllegalMoveError, match="about 5,001 digits"):
        state.apply_action(HUGE)
    with pytest.raises(IllegalMoveError):
        state.action_to_string(-HUGE)
    for call in (lambda: state.legal_actions(HUGE), lambda: state.finishing_key(-HUGE)):
        with pytest.raises(OptionError, match="about 5,001 digits"):
            call()
    with pytest.raises(TypeError):
        state.resample(0, [HUGE])


REFERENCE_HELPERS = [
    # (game, method, arguments): each was an IndexError / AttributeError / a silent wrap-around before
    ("burano", "top_level", (-(2**31),)), ("burano", "build_level", (HUGE,)), ("burano", "matches", (0, 2**63)),
    ("burano", "is_free", (0, 14)), ("burano", "is_supported", (0, -1)), ("burano", "house", (0, 13)),
    ("burano", "can_sail", (0, 10**9)), ("burano", "swap_partners", (0, 9, 0)), ("burano", "swap_picks", (0, -1)),
    ("burano", "has_card", (7, 0)), ("burano", "roof_stack", (7,)), ("burano", "visible_symbols", (5, 0)),
    ("azul-sintra", "accepts", (0, 8, 0)), ("azul-sintra", "accepts", (0, 0, 5)), ("azul-sintra", "candidates", (3, 0)),
    ("azul-sintra", "joker_order_matters", (0, -1, 0)), ("azul-sintra", "side_score", (5,)),
    ("walking-in-burano", "deck_size", (0,)), ("walking-in-burano", "deck_size", (1000,)),
    ("walking-in-burano", "shuffled", (4,)), ("walking-in-burano", "column_levels", (1000,)),
    ("walking-in-burano", "target_ok", (0, 29, -3)), ("walking-in-burano", "breaks_soft_rule", (1, 57, 21)),
    ("walking-in-burano", "character_types", (2**63,)), ("walking-in-burano", "owner_of_pooled", (500,)),
    ("walking-in-burano", "normalise_pool", (0, 9)),
    ("venice-2099", "is_land", (-1,)), ("venice-2099", "is_land", (64,)), ("venice-2099", "playable_cards", (9,)),
    ("venice-2099", "final_breakdown", (0, [True])), ("venice-2099", "final_breakdown", (0, [1] * 64)),
]


@pytest.mark.parametrize("key,method,args", REFERENCE_HELPERS, ids=lambda v: v if isinstance(v, str) else None)
def test_the_reference_models_helpers_check_their_arguments(key, method, args):
    """The reference States' own public helpers (rules queries) raised IndexError, AttributeError or read
    a negative index as one from the end."""
    state = at_decision(key, "reference")
    before = state.to_dict()
    with pytest.raises((BuranoError, TypeError)):
        getattr(state, method)(*args)
    assert state.to_dict() == before


@pytest.mark.parametrize("key", game_keys())
def test_copy_fields_from_and_rescue_squares_take_their_own_types(key):
    """The reference Positions' `copy_fields_from` read attributes of anything (AttributeError)."""
    state = at_decision(key, "reference")
    for bad in (None, "x", {}, at_decision("goofspiel" if key != "goofspiel" else "azul-sintra", "reference")):
        with pytest.raises(TypeError, match="must be a"):
            state.clone().copy_fields_from(bad)
    if key == "venice-2099":
        for bad in ("x", 5, [1]):
            with pytest.raises(TypeError):
                state.rescue_squares(bad)


# --- the single-implementation games (the Python-only poker games) ---------------------------------

SEAT_METHODS = ("finishing_key", "legal_actions", "to_dict", "to_json", "information_state_key", "info",
                "action_strings")


def alone_at_decision(key: str, players: int | None = None):
    spec = get_spec(key)
    return at_decision(key, next(iter(spec.implementations)), players)


@pytest.mark.parametrize("key", single_keys())
def test_single_implementation_games_refuse_bad_seats_everywhere(key):
    state = alone_at_decision(key)
    before = state.to_dict()
    for name in SEAT_METHODS + ("resample", "prior"):
        call = {"resample": lambda seat: state.resample(seat, 0),
                "prior": lambda seat: state.prior(seat, state.legal_actions())}.get(name, getattr(state, name))
        for seat in BAD_SEATS + (() if name == "prior" else (-1,)):     # prior(CHANCE, ...) is None
            with pytest.raises(OptionError, match="is not a seat of this"):
                call(seat)
        for seat in (1.0, True, [0]) + ((None,) if name in ("finishing_key", "resample", "prior") else ()):
            with pytest.raises(TypeError):
                call(seat)
    assert state.to_dict() == before


@pytest.mark.parametrize("key", single_keys())
def test_single_implementation_games_refuse_bad_ids_kinds_seeds_and_indents(key):
    state = alone_at_decision(key)
    before = state.to_dict()
    n = state.game.num_distinct_actions()
    for action in (-1, n, 99, 2**31, -(2**63), 10**30):               # -1 read the last text from the end
        with pytest.raises(IllegalMoveError, match="out of range"):
            state.action_to_string(action)
        with pytest.raises(IllegalMoveError):
            state.clone().apply_action(action)
    for action in (HUGE, -HUGE):
        for call in (state.action_to_string, state.clone().apply_action):
            with pytest.raises(IllegalMoveError, match="about 5,001 digits"):
                call(action)
    for action in (1.5, "0", None, True, [0]):
        for call in (state.action_to_string, state.clone().apply_action):
            with pytest.raises(TypeError, match="action id must be an int"):
                call(action)
    chance = get_spec(key).new_game(2, next(iter(get_spec(key).implementations))).new_initial_state(0)
    with pytest.raises(IllegalMoveError, match="out of range"):      # a deal's ids: below max_chance_outcomes
        chance.action_to_string(chance.game.max_chance_outcomes())
    for kind in (len(state.CHANCE_KINDS), -1, 99, 2**64, HUGE):
        with pytest.raises(OptionError, match="chance kind .* out of range"):
            state.chance_kind_name(kind)
    for kind in (1.5, "0", True):
        with pytest.raises(TypeError):
            state.chance_kind_name(kind)
    for seed in (None, 1.5, "1", True, [1]):
        with pytest.raises(TypeError, match="seed"):
            state.resample(0, seed)
        with pytest.raises(TypeError, match="seed"):
            state.game.new_initial_state(seed)
    assert state.resample(0, HUGE).information_state_key(0) == state.information_state_key(0)
    assert state.resample(0, -(2**70)).information_state_key(0) == state.information_state_key(0)
    for indent in (10**9, -1, HUGE):
        with pytest.raises(OptionError, match="indent"):
            state.to_json(None, indent)
    for indent in ("  ", 1.5, True):
        with pytest.raises(TypeError):
            state.to_json(None, indent)
    for legal in ([n], [-1], [HUGE], [0, 0], list(range(n + 1))):
        with pytest.raises(OptionError):
            state.prior(state.current_player(), legal)
    for legal in ([1.5], ["x"], [True], None, "ab", iter([0])):
        with pytest.raises(TypeError):
            state.prior(state.current_player(), legal)
    for text in ("", "9" * 5000, "-" + "9" * 4400, "\x00", "bet bet"):
        with pytest.raises(IllegalMoveError):
            state.clone().play(text)
    for text in (None, 5, b"bet"):
        with pytest.raises(TypeError):
            state.string_to_action(text)
    assert state.to_dict() == before


@pytest.mark.parametrize("key", single_keys())
def test_single_implementation_games_load_only_their_own_positions(key):
    state = alone_at_decision(key)
    game = state.game
    for bad in ("", "{", "[]", "null", '{"format": "x"}', "9" * 5000, b"\xff"):
        with pytest.raises(PositionError):
            game.state_from_json(bad)
    for bad in (None, 5, {}):
        with pytest.raises((TypeError, PositionError)):
            game.state_from_json(bad)
    data = state.to_dict()
    for field, value in (("players", 9), ("players", 10**40), ("players", True), ("history", ["?"]),
                         ("history", [5]), ("view", "Z"), ("view", 2**64), ("info", {"pot": -1})):
        with pytest.raises(PositionError):
            game.state_from_json(json.dumps({**data, field: value}))
    with pytest.raises(PositionError):                                  # a 5,000-digit player count
        game.state_from_json(json.dumps({**data, "players": 0}).replace('"players": 0', '"players": ' + "9" * 5000))
