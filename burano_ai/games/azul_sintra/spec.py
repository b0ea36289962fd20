"""Azul: Stained Glass of Sintra's entry in the game registry (`burano_ai.games`): what the services may know of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from burano_ai.core.errors import PositionError
from burano_ai.core.fields import position_dict, position_view
from burano_ai.core.options import check_player_count, openspiel_engine
from burano_ai.core.game import BotDeclaration, Declaration, GameOption, StepEffect, StepVisibility, import_game_class
from burano_ai.core.people import PeopleSide
from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games.azul_sintra import rules
from burano_ai.games.azul_sintra.data import MAX_PLAYERS, MIN_PLAYERS, default_data, load_data
from burano_ai.games.azul_sintra.position import FORMAT as POSITION_FORMAT
from burano_ai.games.azul_sintra.position import position_from_dict
from burano_ai.games.azul_sintra.render import render as _render

#: What every interface says while the built-in data is in use (spec §0, AD-1, AD-4..AD-7).
PLACEHOLDER_NOTICE = ("placeholder data: the strip patterns, joker faces, window values, broken-glass "
                      "track and ornament layout are stand-ins for the lost originals (AD-4..AD-7)")

#: The game's options besides the player count (`core.game.GameOption`): keyword arguments of `new_game`
#: and of both Game classes.
GAME_OPTIONS: Mapping[str, GameOption] = MappingProxyType({
    "side": GameOption("side", "choice", "A", "the palace boards' side: A (ornaments) or B (windows x colour) "
                       "[RU:46, §9.1]", choices=("A", "B")),
    "first_player": GameOption("first_player", "int", 0, "the seat that starts, 0 = A (AD-17; must be below "
                               "the player count)", low=0, high=MAX_PLAYERS - 1),
    "data": GameOption("data", "data", None, "a corrected azul-sintra-data/1 file replacing the placeholder "
                       "component data (AD-4..AD-7)", load=lambda d: load_data(d).placeholder),
    # The spec's optional rules (`rules.Flags`; the defaults are the spec's rules).
    "joker_choice": GameOption("joker_choice", "bool", False, "also offer drafts that fill the jokers first "
                               "('F3 O>5j'; default: coloured cells first, AD-13)"),
    "indicator_to_tower": GameOption("indicator_to_tower", "bool", True, "the used round-indicator piece goes "
                                     "to the tower (AD-9, RU:196); false: it leaves the game (RU:160)"),
    "auto_keep": GameOption("auto_keep", "bool", False, "side A only: keep the first colour of a completed "
                            "strip without asking (score-neutral on side A, AD-24)"),
    "random_first_player": GameOption("random_first_player", "bool", False, "draw the first player at setup "
                                      "(AD-17) instead of first_player"),
})


@dataclass(frozen=True)
class AzulSintraSpec(Declaration, PeopleSide):
    """The `core.game.GameSpec` of Azul: Stained Glass of Sintra (perfect information, chance at refills).

    A Game takes `side` ("A" or "B"), `first_player` (AD-17) and `data` (a corrected component data
    file or object, `data.load_data`) besides the player count; `new_game` passes them on.
    """

    key: str = "azul-sintra"
    title: str = "Azul: Stained Glass of Sintra"
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    default_players: int = 2
    position_format: str = POSITION_FORMAT
    implementations: dict[str, str] = field(default_factory=lambda: {
        "compiled": "burano_ai.games.azul_sintra._core:Game",
        "reference": "burano_ai.games.azul_sintra.reference:Game",
    })
    capabilities: frozenset[str] = frozenset({"native_search", "heuristic_playout", "openspiel", "placeholder_data",
                                              "web_board"})
    web_board: str = "games/azul-sintra/board.js"
    placeholder_notice: str = PLACEHOLDER_NOTICE
    # The learned evaluation (docs/learning.md): the shipped net of the player count (nets/2p.json, 3p.json
    # and 4p.json: each SPRT H1 at 0.05 s a decision against the playout alone, docs/strength.md), blended
    # half and half with the heuristic playout. Values within 0.07 of the suggestion's are reported tied: the
    # margin that reports every split of 5 seeds as a tie at `burano suggest`'s default search (bench/
    # tie_calibration.py; docs/strength.md, "A tie margin per game").
    search_defaults = MappingProxyType({"net": "auto", "net_weight": 0.5, "tie_margin": 0.07})
    game_options = GAME_OPTIONS      # a class attribute, not a field (`core.game.GameOption`)

    def game_class(self, implementation: str = "compiled"):
        return import_game_class(self, implementation)

    def new_game(self, num_players: int, implementation: str = "compiled", *, side: str = "A",
                 first_player: int = 0, data: object = None, joker_choice: bool = False,
                 indicator_to_tower: bool = True, auto_keep: bool = False, random_first_player: bool = False):
        """A Game of `implementation` for `num_players` players (and the options of `GAME_OPTIONS`).

        Raises:
            OptionError: a parameter out of range or a wrong data file (one line, named).
        """
        check_player_count(self, num_players)
        return self.game_class(implementation)(num_players, side, first_player, data,
                                               joker_choice=joker_choice, indicator_to_tower=indicator_to_tower,
                                               auto_keep=auto_keep, random_first_player=random_first_player)

    def openspiel_game(self, num_players: int, implementation: str = "compiled"):
        """The cached pyspiel game of `burano_ai.games.azul_sintra.openspiel` for our `implementation`
        (it wraps States of any side and data: a wrapped State plays by its own Game)."""
        from burano_ai.games.azul_sintra.openspiel import game_for
        return game_for(num_players, openspiel_engine(self, implementation))

    def openspiel_unwrap(self, wrapped):
        """`AdapterState.inner`: our State inside the pyspiel State."""
        return wrapped.inner

    # --- engine side
    score_name: str = "points"
    chance_kinds: tuple[str, ...] = rules.CHANCE_KIND_NAMES
    unseen_texts: frozenset[str] = frozenset()

    def load_position(self, data: Mapping[str, Any], game_factory=None):
        """Validate an `azul-sintra-position/1` object and build its State; return (State, view seat or None).

        `game_factory` (default: the compiled Game) is called with (players, side, first_player, data, flags).

        Raises:
            PositionError: a field is wrong (the message names it).
        """
        pos = position_from_dict(data)
        factory = game_factory or self.game_class("compiled")
        game = factory(pos.num_players, pos.side, pos.first_player, None if pos.data.is_default else pos.data, pos.flags)
        state = game.state_from_position(pos)
        return state, position_view(data, pos.num_players)

    def step_visibility(self, state, action: int) -> StepVisibility:
        """Everything is public (perfect information, §11.1)."""
        if state.is_chance_node():
            return StepVisibility(rules.CHANCE_KIND_NAMES[state.chance_kind], None, None)
        return StepVisibility(None, None, None)

    def hidden_in_export(self, steps: Sequence[Any], seat: int) -> set[int]:
        """Nothing: every step is public."""
        return set()

    def narrate_step(self, step, hidden: bool) -> str:
        """``setup: S4@3``, ``setup: face b``, ``setup: indicator II P``, ``draw B``, ``A: F3 O>5``."""
        if step.is_chance:
            if step.move is None:
                return f"a chance event ({step.kind or 'chance'})"
            return step.move if step.kind == rules.CHANCE_KIND_NAMES[rules.CHANCE_DRAW] else f"setup: {step.move}"
        return f"{step.actor}: {step.move}"

    def step_effects(self, before, after, action: int | None = None) -> list[StepEffect]:
        """Every point with its reason (round bonus, window score, the track's −18), the broken-glass
        marker's moves, the final scoring per category and seat, and the result with its tie-break
        (`narration.step_effects`; all public)."""
        from burano_ai.games.azul_sintra.narration import step_effects
        return step_effects(before, after, action)

    def describe_result(self, state) -> list[str]:
        """The winner, or the tie-break that decided (AD-14, with each tied seat's loss to the track)."""
        from burano_ai.games.azul_sintra.narration import describe_result
        return describe_result(state)

    def bots(self) -> Mapping[str, Any]:
        """The game's heuristic bot: ``greedy`` (`burano_ai.games.azul_sintra.greedy.choose_greedy`)."""
        from burano_ai.games.azul_sintra.greedy import STRIP_WEIGHT, choose_greedy
        return {"greedy": BotDeclaration(
            choose_greedy, {"strip_weight": STRIP_WEIGHT},
            summary="one move ahead: score with the final scoring as it stands, plus ``strip_weight`` "
                    f"({STRIP_WEIGHT}) per piece on a strip.")}

    # --- people side

    def render(self, position: dict[str, Any] | str, width: int | None = None) -> str:
        """The board as plain text (`render.render`): at most 80 columns and 4 + 3 per seat lines, the same
        at any `width`; its first line names the placeholder data while it is in use."""
        position = position_dict(position)
        return _render(position) + "\n"

    def render_styled(self, position: dict[str, Any], width: int | None = None) -> list[list[tuple[str, str]]]:
        """`render`'s lines as styled spans: the colour letters in their colours (`render.render_lines`)."""
        from burano_ai.games.azul_sintra.render import render_lines
        return render_lines(position)

    def describe_move(self, state, action: int) -> str:
        """`take the 3 blue from factory 1 to column 2: 3 placed, 0 broken` (`words.describe_move`); the
        move text (`F1 B>2`) stays the notation."""
        from burano_ai.games.azul_sintra.words import describe_move
        return describe_move(state, action)

    def move_entry(self):
        """No short form; `help` explains the move codes (`words.MoveCodes`)."""
        from burano_ai.games.azul_sintra.words import MoveCodes
        return MoveCodes()

    def move_notes(self, state) -> list[str]:
        """What the move codes mean (`words.CODES`), at a draft."""
        from burano_ai.games.azul_sintra.words import CODES
        return [CODES] if not state.is_terminal() and state.phase_name() == "draft" else []

    def phase_label(self, position: dict[str, Any]) -> str:
        """`round 2`, `setup`, or `over`."""
        phase = position["phase"]
        if phase in ("setup", "over"):
            return phase
        return f"round {position['round']}"

    def turn_label(self, position: dict[str, Any]) -> str:
        """`round 2, keep`."""
        phase = position["phase"]
        if phase == "over":
            return "game over"
        return f"round {position['round']}, {phase}"

    def chance_label(self, position: dict[str, Any]) -> str:
        return "setup" if position["phase"] == "setup" else "draw"

    def score_columns(self, state) -> list[tuple[str, list[str]]]:
        """Points, then the tie-break: points lost to the broken-glass track (AD-14)."""
        n = state.num_players
        return [("points", [str(x) for x in state.scores()]),
                ("lost to track", [str(state.track_loss(p)) for p in range(n)])]

    def describe_scores(self, scores: Sequence[float]) -> str:
        return ", ".join(f"{SEAT_LETTERS[p]} {x:g} points" for p, x in enumerate(scores))

    def is_placeholder(self, position: dict[str, Any] | None = None) -> bool:
        """True while the built-in placeholder data is in use (a position with its own data: that data's flag)."""
        if position is None or position.get("data") is None:
            return default_data().placeholder
        return bool(position["data"].get("placeholder", False))


SPEC = AzulSintraSpec()
