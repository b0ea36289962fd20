"""Venice 2099's entry in the game registry (`burano_ai.games`): what the services may know of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from burano_ai.core.fields import position_dict
from burano_ai.core.options import check_player_count, openspiel_engine
from burano_ai.core.game import BotDeclaration, Declaration, GameOption, StepEffect, StepVisibility, import_game_class
from burano_ai.core.people import PeopleSide, result_lines
from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.core.seeds import SplitMix64
from burano_ai.games.venice_2099 import rules
from burano_ai.games.venice_2099.data import MAX_PLAYERS, MIN_PLAYERS
from burano_ai.games.venice_2099.position import FORMAT as POSITION_FORMAT
from burano_ai.games.venice_2099.position import position_from_dict
from burano_ai.games.venice_2099.render import render as _render

_D = rules.DEFAULT_OPTIONS
#: The rule flags of spec §10.10 (`rules.Options`), the game's options besides the player count:
#: keyword arguments of `new_game` and of both Game classes.
GAME_OPTIONS: Mapping[str, GameOption] = MappingProxyType({
    "forecast_values": GameOption("forecast_values", "choice", _D.forecast_values,
                                  "VD-1: forecast cards 3-8 and X (no 2s sink), or 2-8 (no X sinks)",
                                  choices=rules.FORECAST_VALUES),
    "move_dirs": GameOption("move_dirs", "int", _D.move_dirs, "VD-2: directions of a normal move, 8 or 4",
                            low=4, high=8, values=(4, 8)),
    "diagonal_squeeze": GameOption("diagonal_squeeze", "bool", _D.diagonal_squeeze,
                                   "VD-3: a diagonal step may pass between two blocked squares"),
    "gondola_move_is_step1": GameOption("gondola_move_is_step1", "bool", _D.gondola_move_is_step1,
                                        "VD-4: a gondola move replaces the normal move (false: an extra move)"),
    "rescue_to_platform": GameOption("rescue_to_platform", "bool", _D.rescue_to_platform,
                                     "VD-5: a rescue may also go to a free platform"),
    "placement_round_robin": GameOption("placement_round_robin", "bool", _D.placement_round_robin,
                                        "VD-6: figures are placed one at a time round robin (false: seat by seat)"),
    "treasure_supply": GameOption("treasure_supply", "int", _D.treasure_supply,
                                  "VD-8: treasure tokens per colour (0: unlimited)", low=0,
                                  high=rules.MAX_TREASURE_SUPPLY),
    "auto_apply_forced": GameOption("auto_apply_forced", "bool", _D.auto_apply_forced,
                                    "§10.5: a decision with one legal move is made at once"),
})


@dataclass(frozen=True)
class Venice2099Spec(Declaration, PeopleSide):
    """The `core.game.GameSpec` of Venice 2099 (hidden hands, chance at setup only, 2-5 players).

    A Game takes the rule flags of spec §10.10 (`rules.Options`) besides the player count;
    `new_game` passes them on as keyword arguments.
    """

    key: str = "venice-2099"
    title: str = "Venice 2099"
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    default_players: int = 3
    position_format: str = POSITION_FORMAT
    implementations: dict[str, str] = field(default_factory=lambda: {
        "compiled": "burano_ai.games.venice_2099._core:Game",
        "reference": "burano_ai.games.venice_2099.reference:Game",
    })
    capabilities: frozenset[str] = frozenset({"hidden_information", "native_search", "heuristic_playout",
                                              "web_board", "openspiel"})
    web_board: str = "games/venice-2099/board.js"
    game_options = GAME_OPTIONS      # a class attribute, not a field (`core.game.GameOption`)
    #: The search prior (`heuristic.prior`) is off by default: at equal iterations it did not win clearly
    #: more than the search without it (docs/strength.md, Venice 2099); `pyramid_bias=1` turns it on.
    #: Values within 0.10 of the suggestion's are reported tied: independent searches value Venice's moves
    #: further apart than any other game's, and 0.10 is where more margin stops reporting more of its seed
    #: splits as ties (bench/tie_calibration.py; docs/strength.md, "A tie margin per game").
    search_defaults = MappingProxyType({"prior_bias": 0.0, "tie_margin": 0.10})

    def game_class(self, implementation: str = "compiled"):
        return import_game_class(self, implementation)

    def openspiel_game(self, num_players: int, implementation: str = "compiled"):
        """The cached pyspiel game of `burano_ai.games.venice_2099.openspiel` for our `implementation`
        (a wrapped State plays by its own Game, whatever its rule flags)."""
        from burano_ai.games.venice_2099.openspiel import game_for
        return game_for(num_players, openspiel_engine(self, implementation))

    def openspiel_unwrap(self, wrapped):
        """`AdapterState.inner`: our State inside the pyspiel State."""
        return wrapped.inner

    def new_game(self, num_players: int, implementation: str = "compiled", **options: Any):
        """A Game of `implementation` for `num_players` players; `options` are §10.10's flags
        (`forecast_values`, `move_dirs`, `diagonal_squeeze`, `gondola_move_is_step1`,
        `rescue_to_platform`, `placement_round_robin`, `treasure_supply`, `auto_apply_forced`).

        Raises:
            OptionError: a player count out of range or a wrong flag (one line, named).
        """
        check_player_count(self, num_players)
        rules.check_options(options)
        return self.game_class(implementation)(num_players, **options)

    # --- engine side
    score_name: str = "points"
    chance_kinds: tuple[str, ...] = rules.CHANCE_KIND_NAMES
    unseen_texts: frozenset[str] = frozenset()

    def load_position(self, data: Mapping[str, Any], game_factory=None):
        """Validate a `venice-2099-position/1` object and build its State; return (State, view seat or None).

        A one-seat view's hidden hands are filled with a consistent deal (`position` module docstring).
        `game_factory` (default: the compiled Game) is called with the players and the position's rule
        flags as keywords (those that differ from the defaults).

        Raises:
            PositionError: a field is wrong (the message names it).
        """
        pos, view = position_from_dict(data)
        factory = game_factory or self.game_class("compiled")
        flags = {k: v for k, v in pos.options.to_dict().items() if getattr(rules.DEFAULT_OPTIONS, k) != v}
        state = factory(pos.num_players, **flags).state_from_position(pos)
        return state, (None if view < 0 else view)

    def step_visibility(self, state, action: int) -> StepVisibility:
        """A dealt card is seen by the seat it goes to only (§9); every other step is public."""
        if state.is_chance_node():
            kind, where = state.setup_cursor()
            if kind == rules.CHANCE_DEAL:
                seat = where % state.num_players
                return StepVisibility(rules.CHANCE_KIND_NAMES[kind], seat, (seat,))
            return StepVisibility(rules.CHANCE_KIND_NAMES[kind], None, None)
        return StepVisibility(None, None, None)

    def hidden_in_export(self, steps: Sequence[Any], seat: int) -> set[int]:
        """The cards dealt to the other seats (a card dealt to another seat is never shown as dealt)."""
        letter = SEAT_LETTERS[seat]
        return {i for i, step in enumerate(steps) if step.is_chance and not step.visible_to(letter)}

    def resample_for_record(self, state, seat: int, later: Sequence[Any], seed: int, game_factory=None):
        """The other hands redrawn so that every card the record's `later` steps show another seat playing
        is in that seat's hand: each hand is its later plays plus cards drawn by §10.3's sampler
        (`rules.resample_hands`) from the rest of what `seat` cannot see, ranked at least that seat's last
        play, the later ones counted (so every later play is of its lowest card, §5.4). None during the
        deal (its hidden steps are the hands) or when the later plays cannot come from these hands."""
        if state.is_chance_node() or state.phase == rules.PHASE_SETUP:
            return None
        data = state.to_dict()
        options = rules.check_options(data["options"])
        card_of = {rules.card_text(k, options).upper(): k for k in range(rules.NUM_CARDS)}
        n = state.num_players
        hands = [[card_of[t.upper()] for t in entry["hand"]] for entry in data["seats"]]
        unseen = {k for p in range(n) if p != seat for k in hands[p]} | \
            {card_of[t.upper()] for t in data["set_aside"]}
        bound = [0] * n
        for letter, text in data["played"]:
            p = SEAT_LETTERS.index(letter)
            bound[p] = max(bound[p], rules.card_vi(card_of[text.upper()], options))
        plays: list[list[int]] = [[] for _ in range(n)]
        for i, step in enumerate(later):
            words = (step.move or "").split()
            if step.is_chance or len(words) != 2 or words[0].lower() != "play":
                continue
            # a move list names no actors (the engine protocol's moves form): the next step's is the player to move
            actor = step.actor if step.actor is not None else \
                SEAT_LETTERS[state.current_player()] if i == 0 else None
            if actor is None or actor == SEAT_LETTERS[seat]:
                continue
            p = SEAT_LETTERS.index(actor)
            k = card_of.get(words[1].upper())
            if k is None or k not in unseen or any(k in cards for cards in plays):
                return None
            plays[p].append(k)
            bound[p] = max(bound[p], rules.card_vi(k, options))
        opponents = [(p, len(hands[p]) - len(plays[p]), bound[p]) for p in range(n) if p != seat]
        if any(size < 0 for _, size, _ in opponents):
            return None
        pool = sorted(unseen - {k for cards in plays for k in cards})
        try:
            rest = rules.resample_hands(pool, opponents, options, SplitMix64(seed))
        except AssertionError:
            return None
        for p, cards in rest.items():
            data["seats"][p]["hand"] = [rules.card_text(k, options) for k in sorted(cards + plays[p])]
        held = {k for p in range(n) if p != seat for k in rest[p] + plays[p]}
        data["set_aside"] = [rules.card_text(k, options) for k in sorted(unseen - held)]
        world = self.load_position(data, game_factory)[0]
        return world if world.to_json(seat) == state.to_json(seat) else None

    def narrate_step(self, step, hidden: bool) -> str:
        """``setup: remove P``, ``setup: K5@a1``, ``deal to B: K3`` (``a card is dealt to B`` hidden),
        ``A: d4-f6``."""
        if step.is_chance:
            if step.kind == rules.CHANCE_KIND_NAMES[rules.CHANCE_DEAL]:
                who = step.seat or "a seat"
                if hidden or step.move is None:
                    return f"a card is dealt to {who}"
                return f"deal to {who}: {step.move.split()[-1]}"
            return f"setup: {step.move}" if step.move is not None else f"a chance event ({step.kind or 'chance'})"
        return f"{step.actor}: {step.move}"

    def step_effects(self, before, after, action: int | None = None) -> list[StepEffect]:
        """What a step changed, in words: coins paid and tokens taken, gondola cards used, the district
        a card sinks with its coins and any figure on it, the rescue, every seat's score change (§7 on the
        board as it stands: public), and at the end the final scoring by category and the tie-break."""
        from burano_ai.games.venice_2099.narration import step_effects
        return step_effects(self, before, after, action)

    def describe_result(self, state) -> list[str]:
        """The final scoring by seat and category (§7), then the winner and the tie-break that decided."""
        from burano_ai.games.venice_2099.narration import result_breakdown
        return result_breakdown(state) + result_lines(self, state)

    def describe_move(self, state, action: int) -> str:
        """A move in people's words: ``move the figure on d4 to f6 (green 7)``."""
        from burano_ai.games.venice_2099.narration import describe_move
        return describe_move(state, action)

    def why_illegal(self, state, action: int) -> str | None:
        """A placement's reason (`narration.why_illegal`): the square is taken, or the value is the seat's already."""
        from burano_ai.games.venice_2099.narration import why_illegal
        return why_illegal(state, action)

    def move_notes(self, state) -> list[str]:
        """What the next decision costs and why moves are missing (prices, gondola cards, the lowest card)."""
        from burano_ai.games.venice_2099.narration import move_notes
        return move_notes(state)

    def bots(self) -> Mapping[str, Any]:
        """The game's heuristic bot: ``greedy`` (`burano_ai.games.venice_2099.greedy.choose_greedy`)."""
        from burano_ai.games.venice_2099.greedy import COIN_WEIGHT, choose_greedy
        return {"greedy": BotDeclaration(
            choose_greedy, {"coin_weight": COIN_WEIGHT},
            summary="one move ahead: its expected final score over the deals its view allows (a few "
                    "seeded samples), minus the best opponent's; a coin counts ``coin_weight``.")}

    # --- people side

    def render(self, position: dict[str, Any] | str, width: int | None = None) -> str:
        """The board as plain text (`render.render`): at most 80 columns and 18 lines, the same at any `width`."""
        position = position_dict(position)
        return _render(position) + "\n"

    def phase_label(self, position: dict[str, Any]) -> str:
        """`turn 5`, `placement`, `setup` or `over`."""
        phase = position["phase"]
        if phase in ("setup", "over"):
            return phase
        if phase == "place":
            return "placement"
        return f"turn {position['turn'] + 1}"

    def turn_label(self, position: dict[str, Any]) -> str:
        """`turn 5, buy`, `turn 5, rescue by C`."""
        phase = position["phase"]
        if phase == "over":
            return "game over"
        if phase in ("setup", "place"):
            return "setup" if phase == "setup" else "placement"
        if phase == "rescue":
            return f"turn {position['turn'] + 1}, rescue by {position['to_move']}"
        return f"turn {position['turn'] + 1}, {phase}"

    def chance_label(self, position: dict[str, Any]) -> str:
        return "setup"

    def score_columns(self, state) -> list[tuple[str, list[str]]]:
        """Points as the board stands (§7), then the tie-break: figures on the board (VD-10)."""
        n = state.num_players
        return [("points", [str(x) for x in state.scores()]),
                ("figures", [str(state.figures_on_board(p)) for p in range(n)])]

    def describe_scores(self, scores: Sequence[float]) -> str:
        return ", ".join(f"{SEAT_LETTERS[p]} {x:g} points" for p, x in enumerate(scores))


SPEC = Venice2099Spec()
