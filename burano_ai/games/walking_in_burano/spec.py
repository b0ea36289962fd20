"""Walking in Burano's entry in the game registry (`burano_ai.games`): what the services may know of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from burano_ai.core.errors import OptionError, PositionError
from burano_ai.core.fields import position_dict, position_view
from burano_ai.core.options import check_player_count, openspiel_engine
from types import MappingProxyType

from burano_ai.core.game import BotDeclaration, Declaration, GameOption, StepVisibility, import_game_class
from burano_ai.core.people import PeopleSide
from burano_ai.core.seats import SEAT_LETTERS, parse_seat
from burano_ai.games.walking_in_burano import narration, rules
from burano_ai.games.walking_in_burano.data import (
    BOY_SCORINGS, CARDS_PER_LEVEL, MAX_PLAYERS, MIN_PLAYERS, data_from_dict, default_data,
)
from burano_ai.games.walking_in_burano.position import FORMAT as POSITION_FORMAT
from burano_ai.games.walking_in_burano.position import Options, position_from_dict
from burano_ai.games.walking_in_burano.render import render as _render

#: What every interface says while the built-in data is in use (spec §2.4, WD-1, WD-3).
PLACEHOLDER_NOTICE = ("placeholder data: the 72 floor cards are the spec's placeholder deck PD-1 (their symbols, "
                      "shop types and curtain kinds are stand-ins for the lost card faces, WD-1, WD-3)")


#: The game's options besides the player count (`core.game.GameOption`): keyword arguments of `new_game`
#: (`position.Options` and the card data).
GAME_OPTIONS: Mapping[str, GameOption] = MappingProxyType({
    "fewer_characters": GameOption("fewer_characters", "bool", False, "the beginners' variant without the shop "
                                   "owner, florist and gardener (§13, WD-26)"),
    "no_window_penalty": GameOption("no_window_penalty", "bool", False, "the beginners' variant without final "
                                    "scoring step D (§13, RU:191)"),
    "public_returns": GameOption("public_returns", "bool", False, "returned cards are shown face up: perfect "
                                 "information apart from chance (§14)"),
    "literal_cost": GameOption("literal_cost", "bool", False, "build costs 1/3/3 (totals 1/4/7), RU:108 read "
                               "literally (WD-4)"),
    "first_player": GameOption("first_player", "choice", "chance", "the seat that starts, or chance: drawn at "
                               "setup (WD-25)", choices=("chance",) + tuple(SEAT_LETTERS[:MAX_PLAYERS])),
    "boy_scoring": GameOption("boy_scoring", "choice", "literal", "how the Boy scores: literal (+2 per cat, "
                              "curtain, lantern or chimney, WD-11), distinct (+2 per symbol type present) or sets "
                              "(+2 per complete set of the four, WD-32)", choices=BOY_SCORINGS),
    "data": GameOption("data", "data", None, "a transcription of the real floor cards replacing the placeholder "
                       "deck PD-1 (walking-in-burano-data/1; WD-1, WD-3)",
                       load=lambda d: data_from_dict(d).placeholder),
})


@dataclass(frozen=True)
class WalkingInBuranoSpec(Declaration, PeopleSide):
    """The `core.game.GameSpec` of Walking in Burano (hidden hands and returns, chance deck order).

    A Game takes an `Options` (the §13 beginner variants `fewer_characters` and `no_window_penalty`,
    §14's `public_returns`, WD-4's `literal_cost`, WD-25's fixed `first_player`, WD-11's `boy_scoring`) and
    `data` (a card file or object, `data.load_data`) besides the player count; `new_game` takes them as
    keywords.
    """

    key: str = "walking-in-burano"
    title: str = "Walking in Burano"
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    default_players: int = 2
    position_format: str = POSITION_FORMAT
    implementations: dict[str, str] = field(default_factory=lambda: {
        "compiled": "burano_ai.games.walking_in_burano._core:Game",
        "reference": "burano_ai.games.walking_in_burano.reference:Game",
    })
    capabilities: frozenset[str] = frozenset({"hidden_information", "native_search", "heuristic_playout",
                                              "openspiel", "placeholder_data", "web_board"})
    web_board: str = "games/walking-in-burano/board.js"
    placeholder_notice: str = PLACEHOLDER_NOTICE
    game_options = GAME_OPTIONS      # a class attribute, not a field (`core.game.GameOption`)
    # The learned evaluation (docs/learning.md): the shipped net of the player count (nets/2p.json, 3p.json
    # and 4p.json, encoder version 2: each SPRT H1 at 0.05 s a decision against the playout alone,
    # docs/strength.md), blended half and half with the heuristic playout. Values within 0.06 of the
    # suggestion's are reported tied: the margin that reports every split of 5 seeds as a tie at `burano
    # suggest`'s default search (bench/tie_calibration.py; docs/strength.md, "A tie margin per game").
    search_defaults = MappingProxyType({"net": "auto", "net_weight": 0.5, "tie_margin": 0.06})

    def game_class(self, implementation: str = "compiled"):
        return import_game_class(self, implementation)

    def new_game(self, num_players: int, implementation: str = "compiled", *, fewer_characters: bool = False,
                 no_window_penalty: bool = False, public_returns: bool = False, literal_cost: bool = False,
                 first_player: int | str | None = "chance", boy_scoring: str = "literal", data: object = None):
        """A Game of `implementation` for `num_players` players with these options (`position.Options`).

        Raises:
            OptionError: a parameter out of range or a wrong data file (one line, named).
        """
        check_player_count(self, num_players)
        first = -1 if first_player in (None, "chance") else parse_seat(first_player, num_players, "first_player")
        if boy_scoring not in BOY_SCORINGS:
            raise OptionError(f"{self.title}: boy_scoring must be one of {', '.join(BOY_SCORINGS)}, "
                              f"not {boy_scoring!r:.40}")
        options = Options(fewer_characters, no_window_penalty, public_returns, literal_cost, first, boy_scoring)
        return self.game_class(implementation)(num_players, options, data)

    def openspiel_game(self, num_players: int, implementation: str = "compiled"):
        """The cached pyspiel game of `burano_ai.games.walking_in_burano.openspiel` for our `implementation`
        (it wraps States of any options and data: a wrapped State plays by its own Game)."""
        from burano_ai.games.walking_in_burano.openspiel import game_for
        return game_for(num_players, openspiel_engine(self, implementation))

    def openspiel_unwrap(self, wrapped):
        """`AdapterState.inner`: our State inside the pyspiel State."""
        return wrapped.inner

    # --- engine side
    score_name: str = "VP"
    #: The chance kinds, and the public part of a private return (`return-L2`: a card under the L2 deck).
    chance_kinds: tuple[str, ...] = rules.CHANCE_KIND_NAMES + rules.RETURN_KIND_NAMES
    unseen_texts: frozenset[str] = frozenset()

    def load_position(self, data: Mapping[str, Any], game_factory=None):
        """Validate a `walking-in-burano-position/1` object and build its State; return (State, view seat
        or None). `game_factory` (default: the compiled Game) is called with (players, options, data).

        Raises:
            PositionError: a field is wrong (the message names it).
        """
        pos = position_from_dict(data)
        factory = game_factory or self.game_class("compiled")
        game = factory(pos.num_players, pos.options, None if pos.data.is_default else pos.data)
        state = game.state_from_position(pos)
        return state, position_view(data, pos.num_players)

    def step_visibility(self, state, action: int) -> StepVisibility:
        """Everything is public (§14) except a returned card, seen by its returner only unless returns
        are public; the others see its level (the step's kind, `return-L2`)."""
        if state.is_chance_node():
            return StepVisibility(rules.CHANCE_KIND_NAMES[state.chance_kind], None, None)
        if rules.action_kind(action) == "return" and not state.options.public_returns:
            level = (action - rules.RETURN0) // CARDS_PER_LEVEL
            return StepVisibility(rules.RETURN_KIND_NAMES[level], None, (state.current_player(),))
        return StepVisibility(None, None, None)

    def hidden_in_export(self, steps: Sequence[Any], seat: int) -> set[int]:
        """Another seat's returns (which card went under a deck)."""
        letter = SEAT_LETTERS[seat]
        return {i for i, step in enumerate(steps) if not step.is_chance and not step.visible_to(letter)}

    def narrate_step(self, step, hidden: bool) -> str:
        """``draw 17``, ``first B``, ``A: take 3 L1-L2``, ``B returns a card under a deck`` (hidden)."""
        if step.is_chance:
            return step.move if step.move is not None else f"a chance event ({step.kind or 'chance'})"
        if hidden:
            level = f" the {step.kind[-2:]}" if step.kind else " a"
            return f"{step.actor} returns a card under{level} deck (hidden)"
        return f"{step.actor}: {step.move}"

    def step_effects(self, before, after, action: int | None = None):
        """Every coin, token, scaffold, character and card change with its reason, the round's end, the
        final scoring per seat and category and the result with its tie-break (`narration.step_effects`);
        a returned card's identity is told to its returner only."""
        return narration.step_effects(before, after, action)

    def describe_result(self, state) -> list[str]:
        """The final scoring per seat and category and the result with the tie-break that decided it."""
        return narration.describe_result(state)

    def describe_move(self, state, action: int) -> str:
        """The move in people's words (`narration.describe_move`)."""
        return narration.describe_move(state, action)

    def move_notes(self, state) -> list[str]:
        """The next placement's cost, coins and tokens left, the hand limit, the last round."""
        return narration.move_notes(state)

    def bots(self) -> Mapping[str, Any]:
        """The game's heuristic bot: ``greedy`` (`burano_ai.games.walking_in_burano.greedy.choose_greedy`)."""
        from burano_ai.games.walking_in_burano.greedy import COIN_WEIGHT, HAND_WEIGHT, PROGRESS_WEIGHT, choose_greedy
        return {"greedy": BotDeclaration(
            choose_greedy, {"coin_weight": COIN_WEIGHT, "hand_weight": HAND_WEIGHT, "progress_weight": PROGRESS_WEIGHT},
            summary="one decision ahead on an estimate of its final score: the scoring as the street stands, "
                    "the character each house is on its way to (more the nearer it is finished), cards in "
                    "hand that fit and coins while turns remain.")}

    # --- people side

    def render(self, position: dict[str, Any] | str, width: int | None = None) -> str:
        """The board as plain text (`render.render`): at most 80 columns and 24 lines for 2-4 players;
        its second line names the placeholder deck while it is in use."""
        position = position_dict(position)
        return _render(position, width) + "\n"

    def phase_label(self, position: dict[str, Any]) -> str:
        """`round 2`, `setup`, or `over`."""
        phase = position["phase"]
        if phase in ("deal", "first"):
            return "setup"
        if phase == "over":
            return "over"
        return f"round {position['round']}"

    def turn_label(self, position: dict[str, Any]) -> str:
        """`round 2, build`."""
        phase = position["phase"]
        if phase == "over":
            return "game over"
        if phase in ("deal", "first"):
            return "setup"
        last = " (last round)" if position["last_round"] else ""
        return f"round {position['round']}{last}, {phase}"

    def chance_label(self, position: dict[str, Any]) -> str:
        return {"deal": "setup deal", "first": "first player", "refill": "refill"}.get(position["phase"], "chance")

    def score_columns(self, state) -> list[tuple[str, list[str]]]:
        """VP as the streets stand, then the tie-breaks: coins and cats (§12)."""
        pos = position_from_dict(state.to_dict())
        from burano_ai.games.walking_in_burano import scoring
        keys = scoring.finishing_keys(pos)
        return [("VP", [str(k[0]) for k in keys]), ("coins", [str(k[1]) for k in keys]),
                ("cats", [str(k[2]) for k in keys])]

    def describe_scores(self, scores: Sequence[float]) -> str:
        return ", ".join(f"{SEAT_LETTERS[p]} {x:g} VP" for p, x in enumerate(scores))

    def example_position(self) -> str:
        """Seat A's view of a dealt 2-player start (seed 0): what `burano suggest --game walking-in-burano`
        searches with no file (a seat's view: the search must not see more than the seat)."""
        state = self.new_game(2, first_player=0).new_initial_state(0)
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        return state.to_json(0)

    def is_placeholder(self, position: dict[str, Any] | None = None) -> bool:
        """True while the built-in placeholder deck is in use (a position with its own data: that data's flag)."""
        if position is None or position.get("data") is None:
            return default_data().placeholder
        return bool(position["data"].get("placeholder", False))


SPEC = WalkingInBuranoSpec()
