"""API misuse (issue 10, findings 2 and 9): the public State API refuses what it cannot apply, never crashes.

Both implementations: `apply_action` checks legality (an id that is not legal, an outcome the chance node
does not offer, anything at the end) and raises IllegalMoveError with the state untouched; ids must be
ints, seats ints or letters, move text a str (TypeError otherwise). The searchers refuse a root with
nothing to choose, and the native tree survives a malformed position below the root: those tests run
in a child process, so that a crash fails the test instead of killing pytest.
"""

import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import burano_ai
from burano_ai.games.burano import actions as A
from burano_ai.games.burano.enums import ChanceKind
from burano_ai.core.errors import IllegalMoveError, OptionError
from burano_ai.games.burano.reference import Game as RefGame
from implementations import IMPLEMENTATIONS

EXAMPLE = Path(burano_ai.__file__).parent / "games" / "burano" / "data" / "examples" / "midgame-4p-C.json"
CHANCE_FAMILIES = {"CH_FISH": A.CH_FISH, "CH_BUILDING": A.CH_BUILDING, "CH_ROOF": A.CH_ROOF,
                   "CH_MARKERS": A.CH_MARKERS}


def load_example(implementation):
    return IMPLEMENTATIONS[implementation](4).state_from_json(EXAMPLE.read_text())


def snapshot(state):
    """What must not change when an apply is refused: the full dict, and the key where there is one."""
    return (state.to_dict(), state.key() if hasattr(state, "key") else None)


def offered(state):
    return state.chance_outcome_actions() if state.is_chance_node() else state.legal_actions()


def random_step(state, rng):
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def chance_kind(state):
    return state.to_position().chance_kind if hasattr(state, "to_position") else state.chance_kind


def assert_refused(state, action, error=IllegalMoveError, match=None):
    before = snapshot(state)
    with pytest.raises(error, match=match):
        state.apply_action(action)
    assert snapshot(state) == before


# --- finding 2: illegal ids used to corrupt memory outside the state


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_illegal_build_on_two_clones_is_refused(implementation):
    build = A.parse_action("build pink@a1")
    for state in (load_example(implementation), load_example(implementation)):
        assert build not in state.legal_actions()
        assert_refused(state, build, match=r"illegal move 'build pink@a1' in phase turn \(summer round 2\): "
                                            r"not legal here; legal here: done, ")
        state.clone().apply_action(state.legal_actions()[0])     # the state still works


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_chance_outcome_of_another_family_is_refused(implementation):
    state, rng = load_example(implementation), random.Random(3)
    while not (state.is_chance_node() and chance_kind(state) == ChanceKind.FISH_REFILL):
        assert not state.is_terminal(), "the seeded game never refilled the fish display"
        random_step(state, rng)
    outcomes = state.chance_outcome_actions()
    assert outcomes and all(A.CH_FISH <= a < A.CH_BUILDING for a in outcomes)
    for family, first in CHANCE_FAMILIES.items():
        if family != "CH_FISH":
            assert_refused(state, first, match=r"in phase chance \(fish-refill\) .*: not an outcome offered here")
    for species in range(A.SIZE["CH_FISH"]):
        if A.CH_FISH + species not in outcomes:     # a species the deck no longer holds
            assert_refused(state, A.CH_FISH + species)
    assert_refused(state, A.DONE, match="a player's move, but this is a chance node")
    state.apply_action(outcomes[0])


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_nothing_applies_at_the_end(implementation):
    state, rng = IMPLEMENTATIONS[implementation](2).new_initial_state(4), random.Random(4)
    while not state.is_terminal():
        random_step(state, rng)
    for action in (A.DONE, A.TAKE, A.CH_MARKERS, A.CH_FISH):
        assert_refused(state, action, match="in phase game-over: the game is over")


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_out_of_range_ids_are_refused(implementation):
    state = load_example(implementation)
    for action in (-1, A.NUM_ACTIONS, 10 ** 30, -(10 ** 30)):
        assert_refused(state, action, match=rf"illegal action id {action} in phase turn: ids are 0\.\.")


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_play_refuses_without_changing_the_state(implementation):
    state = load_example(implementation)
    before = snapshot(state)
    with pytest.raises(IllegalMoveError, match=r"illegal move 'Build Pink@A1' in phase turn"):
        state.play("  Build Pink@A1 ")
    assert snapshot(state) == before


def test_refusals_are_worded_alike_and_change_nothing_in_random_games():
    """Property: at random positions of seeded games, every sampled id that is not offered is refused by
    both implementations with the same message, and neither state changes (core and reference in lockstep)."""
    for num_players, seed in ((2, 11), (3, 12), (4, 13)):
        core, ref = burano_ai.Game(num_players).new_initial_state(seed), RefGame(num_players).new_initial_state(seed)
        rng, ids = random.Random(seed), range(core.game.num_distinct_actions())
        checked = 0
        while not ref.is_terminal():
            if rng.random() < 0.08:
                legal = set(offered(ref))
                assert set(offered(core)) == legal
                key, ref_json = core.key(), ref.to_json()
                for action in rng.sample(ids, 25):
                    if action in legal:
                        continue
                    with pytest.raises(IllegalMoveError) as core_err:
                        core.apply_action(action)
                    with pytest.raises(IllegalMoveError) as ref_err:
                        ref.apply_action(action)
                    assert str(core_err.value) == str(ref_err.value)
                    assert core.key() == key
                    checked += 1
                assert core.full_key() == key and ref.to_json() == ref_json == core.to_json()
            action = rng.choice(offered(ref))
            ref.apply_action(action)
            core.apply_action(action)
        assert core.is_terminal() and checked > 100


def test_every_illegal_id_is_refused_by_the_core():
    """Property over the whole id range (the core only: it is fast), at positions of every phase met."""
    state, rng = burano_ai.Game(4).new_initial_state(21), random.Random(21)
    phases = set()
    while not state.is_terminal():
        if rng.random() < 0.03 or state.phase not in phases:
            phases.add(state.phase)
            fresh = state.clone()     # never asked for its legal actions: the check generates them itself
            legal, key = set(offered(state)), state.key()
            for action in range(state.game.num_distinct_actions()):
                if action not in legal:
                    for s in (state, fresh):
                        with pytest.raises(IllegalMoveError):
                            s.apply_action(action)
                elif rng.random() < 0.2:
                    state.clone().apply_action(action)
            assert state.key() == key == state.full_key() == fresh.key()
            state.check()
        random_step(state, rng)
    assert len(phases) >= 10


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_a_move_legal_a_moment_ago_is_refused_after_it_was_played(implementation):
    state = load_example(implementation)
    take = A.parse_action("take b1")
    assert take in state.legal_actions()
    state.apply_action(take)
    assert_refused(state, take, match="illegal move 'take b1'")


# --- finding 9: wrong types used to be coerced


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_action_ids_must_be_ints(implementation):
    state = load_example(implementation)
    for action in (1.9, 1.0, True, False, "take b1", None, [1]):
        assert_refused(state, action, TypeError, match="an action id must be an int")
    with pytest.raises(TypeError, match="an action id must be an int"):
        state.action_to_string(1.5)
    assert state.action_to_string(A.DONE) == "done"


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_numpy_integers_are_action_ids(implementation):
    np = pytest.importorskip("numpy")
    state = load_example(implementation)
    assert_refused(state, np.float64(A.DONE), TypeError)
    state.apply_action(np.int64(A.DONE))
    assert state.to_dict()["actor"] != "C"


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_move_text_must_be_a_str(implementation):
    state = load_example(implementation)
    before = snapshot(state)
    for text in (None, 3, b"done", A.DONE):
        with pytest.raises(TypeError, match="move text must be a str"):
            state.play(text)
        with pytest.raises(TypeError, match="move text must be a str"):
            state.string_to_action(text)
    assert snapshot(state) == before


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_seats_are_ints_or_letters(implementation):
    state = load_example(implementation)    # C (seat 2) to move
    assert state.information_state_key("C") == state.information_state_key(2) == state.information_state_key(" c ")
    assert state.legal_actions("C") == state.legal_actions(2) == state.legal_actions() != []
    assert state.legal_actions("A") == state.legal_actions(0) == []
    assert state.to_dict("B") == state.to_dict(1)
    assert json.loads(state.to_json("D")) == state.to_dict(3)
    assert state.resample("A", 5).to_dict() == state.resample(0, 5).to_dict()
    calls = {
        "information_state_key": lambda seat: state.information_state_key(seat),
        "legal_actions": lambda seat: state.legal_actions(seat),
        "resample": lambda seat: state.resample(seat, 0),
        "to_dict": lambda seat: state.to_dict(seat),
        "to_json": lambda seat: state.to_json(seat),
    }
    for name, call in calls.items():
        for seat in (2.7, 2.0, True, [2]):
            with pytest.raises(TypeError, match="must be a seat letter or a 0-based int"):
                call(seat)
        for seat in (4, -1, "E", "AB", ""):
            with pytest.raises(OptionError, match="is not a seat of this 4-player game"):
                call(seat)


def test_core_seat_and_kind_accessors_are_bounded():
    state = load_example("core")
    assert state.pyramid_count("C") == state.pyramid_count(2)
    for bad in (4, -1, 10 ** 6):
        with pytest.raises(OptionError):
            state.pyramid_count(bad)
        with pytest.raises(OptionError):
            state.workers_off_ring(bad)
        with pytest.raises(OptionError):
            state.roof_stack(bad)


# --- search roots and malformed positions (finding 1's crash in `burano suggest`, the search part)


def run_child(code):
    """Run `code` in a fresh interpreter: a crash is a failed assertion here, not a dead pytest."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=120, cwd=Path(__file__).parent.parent)
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


MALFORMED = """
import random
import burano_ai
from burano_ai import State
from burano_ai.games.burano.enums import Phase, Stage
from burano_ai.core.errors import PositionError
from burano_ai.search._native import NativeSearcher
from burano_ai.search.ismcts import Searcher
from burano_ai.search.params import Params

def refused(make, what):
    try:
        make()
    except PositionError as e:
        assert what in str(e), e
    else:
        raise AssertionError("accepted: " + what)

def pyramid_stage(game, seed):
    s, rng = game.new_initial_state(seed), random.Random(seed)
    while s.stage != Stage.PYRAMID:
        s.apply_action(s.chance_outcomes()[0][0] if s.is_chance_node() else rng.choice(s.legal_actions()))
    assert s.phase == Phase.PYRAMID
    return s

game = burano_ai.Game(3)
start = pyramid_stage(game, 1)
seat = start.actor
"""


def test_native_searcher_refuses_a_seat_with_no_legal_action():
    out = run_child(MALFORMED + """
# The example's crash: a pyramid decision whose actor has no cube left (the native tree read legal[0]).
# Built unchecked: `State.from_position` checks a position as the reader does and refuses this one.
pos = start.to_position()
pos.players[seat].reserve = [0] * len(pos.players[seat].reserve)
stuck = State._from_position_unchecked(pos, game)
assert stuck.legal_actions() == [] and stuck.current_player() == seat
for searcher in (NativeSearcher, Searcher):
    refused(lambda: searcher(stuck, seat, Params(), 0), "has no legal action")
refused(lambda: stuck.clone().playout(0), "no legal action")
refused(lambda: burano_ai.playouts(stuck, 3, 0), "no legal action")
# The issue's repro: the example in phase pyramid with no context (`burano suggest` died with SIGSEGV).
import json, pathlib
data = json.loads((pathlib.Path(burano_ai.__file__).parent / "games/burano/data/examples/midgame-4p-C.json").read_text())
data.update(phase="pyramid", context={})
def search_it():
    root = burano_ai.Game(4).state_from_json(json.dumps(data))   # a stricter loader may refuse it here
    NativeSearcher(root, root.current_player(), Params(), 0).run(iterations=1)
refused(search_it, "")
print("ok")
""")
    assert out.strip() == "ok"


def test_searchers_refuse_terminal_and_chance_roots():
    out = run_child(MALFORMED + """
s, rng = game.new_initial_state(2), random.Random(2)
while not s.is_chance_node():
    s.apply_action(rng.choice(s.legal_actions()))
for searcher in (NativeSearcher, Searcher):
    refused(lambda: searcher(s, 0, Params(), 0), "chance node")
while not s.is_terminal():
    s.apply_action(s.chance_outcomes()[0][0] if s.is_chance_node() else rng.choice(s.legal_actions()))
for searcher in (NativeSearcher, Searcher):
    refused(lambda: searcher(s, 0, Params(), 0), "terminal")
print("ok")
""")
    assert out.strip() == "ok"


def test_native_iterations_end_at_a_dead_end_below_the_root():
    """A malformed position whose dead end lies below the root: the actor must place three more cubes but
    holds one. Every iteration stops there (counted), none reads an empty list, the tree stays sound."""
    out = run_child(MALFORMED + """
pos = start.to_position()
pl = pos.players[seat]
colour = max(range(len(pl.reserve)), key=lambda c: pl.reserve[c])
pl.reserve = [1 if c == colour else 0 for c in range(len(pl.reserve))]
pos.pyramid_target = pos.pyramid_count(seat) + 3
bad = State._from_position_unchecked(pos, game)
assert len(bad.legal_actions()) == 1
native = NativeSearcher(bad, seat, Params(), 3)
native.run(iterations=200)
assert native.iterations == native.dead_ends == 200, (native.iterations, native.dead_ends)
assert list(native.summary()["root_stats"]) == bad.legal_actions()
python = Searcher(bad, seat, Params(), 3)
python.run(iterations=20)
assert python.iterations == python.dead_ends == 20
healthy = NativeSearcher(start, seat, Params(), 3)
healthy.run(iterations=200)
assert healthy.dead_ends == 0
print("ok")
""")
    assert out.strip() == "ok"


# ------------------------------------------------------------------------------------------------
# Found by the fuzz campaign (docs/reliability.md): seeds and kinds of other types escaped as
# ValueError/OverflowError, and the reference's resample took None (a seed from the OS: not reproducible).


BAD_SEEDS = ("x", None, 1.5, float("nan"), float("inf"), True)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_resample_takes_only_int_seeds(implementation, seed):
    state = IMPLEMENTATIONS[implementation](3).new_initial_state(2)
    with pytest.raises(TypeError, match="seed must be an int"):
        state.resample(0, seed)


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_playouts_take_only_int_seeds(seed):
    state = burano_ai.Game(2).new_initial_state(1)
    key = state.key()
    with pytest.raises(TypeError, match="seed must be an int"):
        state.playout(seed)
    assert state.key() == key
    with pytest.raises(TypeError, match="seed must be an int"):
        burano_ai.playouts(state, 2, seed)


def test_big_seeds_are_fine_and_repeatable():
    state = burano_ai.Game(2).new_initial_state(1)
    assert state.clone().playout(2**70) == state.clone().playout(2**70)
    assert burano_ai.playouts(state, 3, -(2**65)) == burano_ai.playouts(state, 3, -(2**65))


@pytest.mark.parametrize("kind,error", [(2**70, OptionError), (-(2**70), OptionError), (-1, OptionError),
                                        (4, OptionError), (float("nan"), TypeError), (float("inf"), TypeError),
                                        ("1", TypeError), (True, TypeError)], ids=repr)
def test_roof_stack_kind_is_checked(kind, error):
    with pytest.raises(error):
        burano_ai.Game(2).new_initial_state(1).roof_stack(kind)


@pytest.mark.parametrize("count,error", [(1.5, TypeError), (-1, OptionError), (10**12, OptionError)], ids=repr)
def test_playouts_count_is_checked(count, error):
    with pytest.raises(error):
        burano_ai.playouts(burano_ai.Game(2).new_initial_state(1), count)
