"""Venice 2099's search prior: `heuristic.prior` (readable), `_core.prior_c` (C) and the GameOps pointer agree;
it reads only what the deciding seat knows; its chances and preferences mean what the docstring says;
the bot key `pyramid_bias=0` turns it off."""

from __future__ import annotations

import random

import pytest

from burano_ai.games.venice_2099 import heuristic, rules
from burano_ai.games.venice_2099.reference import Game as ReferenceGame
from burano_ai.games.venice_2099.rules import PHASE_CARD, PHASE_MOVE, PHASE_PLACE, PHASE_RESCUE, PLACE0, RESCUE0

from .helpers import build, card, d, sq

core = pytest.importorskip("burano_ai.games.venice_2099._core")
native = pytest.importorskip("burano_ai.search._native")


def _random_games(n, seeds):
    """(reference, compiled) pairs at every decision of seeded random games, in lockstep."""
    for seed in seeds:
        rng = random.Random(seed)
        r, c = ReferenceGame(n).new_initial_state(seed), core.Game(n).new_initial_state(seed)
        while not r.is_terminal():
            if r.is_chance_node():
                a = rng.choice([x for x, _ in r.chance_outcomes()])
            else:
                yield r, c
                a = rng.choice(r.legal_actions())
            r.apply_action(a)
            c.apply_action(a)


@pytest.mark.parametrize("n", [2, 3, 5])
def test_c_and_python_priors_agree_and_speak_only_for_the_seat_to_decide(n):
    """At every decision of seeded games: the reference's prior (`heuristic.prior`), the compiled State's
    (`prior_c`) and the C game interface's (`GameOpsC.prior`) are equal; a distribution over the legal
    moves in a place, move, buy or rescue; None for a card and for every seat not deciding."""
    seen = {PHASE_PLACE: 0, PHASE_MOVE: 0, PHASE_CARD: 0, PHASE_RESCUE: 0}
    for r, c in _random_games(n, range(4 if n == 2 else 2)):
        legal, actor = r.legal_actions(), r.current_player()
        p = r.prior(actor, legal)
        assert c.prior(actor, legal) == pytest.approx(p, rel=1e-12) if p else c.prior(actor, legal) is None
        assert native.prior(c, actor, legal) == pytest.approx(p, rel=1e-12) if p else \
            native.prior(c, actor, legal) is None
        if r.phase == PHASE_CARD:
            assert p is None
        else:
            assert set(p) == set(legal) and sum(p.values()) == pytest.approx(1.0) and min(p.values()) > 0
        for other in range(n):
            if other != actor:
                assert r.prior(other, legal) is None and c.prior(other, legal) is None
        if r.phase in seen:
            seen[r.phase] += 1
    assert seen[PHASE_PLACE] and seen[PHASE_MOVE] > 20 and seen[PHASE_CARD]
    if n == 5:
        assert seen[PHASE_RESCUE], "no rescue decision in these games: pick other seeds"


def test_the_prior_reads_no_hidden_card():
    """Redrawing the other hands (the search's determinizations) leaves the deciding seat's prior as it
    was: it depends on that seat's information set only."""
    checked = 0
    for r, c in _random_games(3, range(3)):
        if r.phase == PHASE_CARD:
            continue
        legal, actor = r.legal_actions(), r.current_player()
        p = c.prior(actor, legal)
        for seed in range(3):
            world = c.resample(actor, seed)
            assert world.prior(actor, legal) == pytest.approx(p, rel=1e-12)
        checked += 1
    assert checked > 50


def test_two_player_sink_chances_are_the_resampler_s_frequencies():
    """With 2 players a district's chance to sink is exact: 1 for the seat's own card, 0 for a card
    played or below the opponent's last play, else the frequency of its card in the opponent's
    resampled hand."""
    state = next(c for r, c in _random_games(2, [7]) if r.phase == PHASE_MOVE and len(r.played) >= 6)
    ref = ReferenceGame(2).state_from_json(state.to_json())
    seat = ref.current_player()
    chance = heuristic.sink_chances(ref, seat)
    other = 1 - seat
    trials = 4000
    counts = [0] * len(chance)
    for seed in range(trials):
        for k in state.resample(seat, seed).hands[other]:
            counts[rules.card_district(k)] += 1
    for k in ref.hands[seat]:
        assert chance[rules.card_district(k)] == 1.0
    for _, k in ref.played:
        assert chance[rules.card_district(k)] == 0.0
    for k in ref.deck():
        if k not in ref.hands[seat]:
            assert chance[rules.card_district(k)] == pytest.approx(counts[rules.card_district(k)] / trials, abs=0.04)


def test_the_preference_shuns_a_district_the_seat_itself_will_sink():
    """Two figures of equal footing: the seat holds the card of the K6 its first figure stands on, so
    moving it to the safe platform is preferred to staying, and its preference for squares follows worth
    times survival (the X of a colour worth more than a district it will sink)."""
    s = build(2, {"a1": "K6", "b1": "==", "c1": "G5", "d1": "PX"},
              {0: ["a1", "c1"], 1: ["f6"]}, hands={0: ["K6"]}, phase="move")
    chance = heuristic.sink_chances(s, 0)
    assert chance[d("K6")] == 1.0
    assert heuristic.square_worth(s, sq(s, "a1"), chance) == 0.0
    assert heuristic.square_worth(s, sq(s, "b1"), chance) == heuristic.PLATFORM_WORTH
    legal = s.legal_actions()
    prior = s.prior(0, legal)
    to_platform = rules.MOVE0 + 64 * 0 + sq(s, "b1")
    assert to_platform in legal and prior[to_platform] > prior[rules.PASS_MOVE]
    assert card("K6") in s.hands[0]


def test_a_rescue_prefers_a_square_to_declining():
    """In a rescue the owner's prior puts each free square above `no rescue` (`DECLINE_VALUE`)."""
    for r, c in _random_games(5, range(2)):
        if r.phase == PHASE_RESCUE:
            legal = r.legal_actions()
            p = r.prior(r.current_player(), legal)
            assert all(p[a] > p[rules.DECLINE_RESCUE] for a in legal if RESCUE0 <= a < rules.DECLINE_RESCUE)
            return
    pytest.skip("no rescue in these games")


def test_the_prior_is_off_by_default_and_pyramid_bias_turns_it_on():
    """The game's default search (`search_defaults`: prior_bias 0) is what its bots and `suggest` run; the
    bot key `pyramid_bias=1` (or `Params()`) turns the prior on, and a placement's search then differs."""
    from burano_ai.bots import make_bot
    from burano_ai.engine import suggest
    from burano_ai.games import get_spec
    from burano_ai.search.limits import Limit
    from burano_ai.search.params import Params

    assert get_spec("venice-2099").search_defaults["prior_bias"] == 0.0
    assert make_bot("ismcts:iterations=10", 1, game="venice-2099").params.prior_bias == 0.0
    assert make_bot("ismcts:iterations=10,pyramid_bias=1", 1, game="venice-2099").params.prior_bias == 1.0
    assert make_bot("ismcts:iterations=10", 1, game="azul-sintra").params.prior_bias == 1.0

    state = next(c for r, c in _random_games(2, [3]) if r.phase == PHASE_PLACE)
    limit = Limit(iterations=400)
    visits = lambda res: {m.action: m.visits for m in res.candidates}     # noqa: E731
    default = suggest(state, limit=limit, seed=1, threads=1)
    without = suggest(state, limit=limit, params=Params(prior_bias=0.0), seed=1, threads=1)
    with_prior = suggest(state, limit=limit, params=Params(), seed=1, threads=1)
    assert visits(default) == visits(without) != visits(with_prior)
    assert visits(suggest(state.to_json(), limit=limit, seed=1, threads=1)) == visits(without)     # a position text
    assert all(PLACE0 <= a < PLACE0 + 64 for a in visits(with_prior))
