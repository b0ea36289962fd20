"""Burano's entry in the game registry (`burano_ai.games`): what the services may know of it."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from burano_ai.core.fields import position_view
from burano_ai.core.options import check_player_count, openspiel_engine
from burano_ai.core.game import BotDeclaration, Declaration, StepVisibility, import_game_class, unrevealed_moves
from burano_ai.core.people import PeopleSide
from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games.burano.data.colours import MAX_PLAYERS, MIN_PLAYERS, PLAYER_COLOURS
from burano_ai.games.burano.enums import ChanceKind, Stage
from burano_ai.games.burano.notation import FORMAT as POSITION_FORMAT

#: Chance kinds that belong to one seat (its draw), named in the step's `seat`.
_SEAT_CHANCE = frozenset({ChanceKind.FISH_DRAW, ChanceKind.BUILDING_DRAW, ChanceKind.ROOF_TILE})
#: How a record narrates the public chance events ({who}: the step's seat, {what}: the outcome).
_CHANCE_TEXT = {
    "fish-refill": "the fish display is refilled: {what}",
    "building-draw": "{who} draws the building {what}",
    "building-refill": "the building display is refilled: {what}",
    "roof-tile": "{who} draws the roof tile {what}",
    "markers": "the action markers are set: {what}",
}


#: The built-in position of `burano suggest` (in data/examples/).
EXAMPLE_POSITION = "midgame-4p-C.json"


@dataclass(frozen=True)
class BuranoSpec(Declaration, PeopleSide):
    """The `core.game.GameSpec` of Burano (EmperorS4, 2015)."""

    key: str = "burano"
    title: str = "Burano"
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    default_players: int = 4
    position_format: str = POSITION_FORMAT
    implementations: dict[str, str] = field(default_factory=lambda: {
        "compiled": "burano_ai.games.burano._core:Game",
        "reference": "burano_ai.games.burano.reference:Game",
    })
    capabilities: frozenset[str] = frozenset({
        "native_search", "hidden_information", "secret_moves", "heuristic_playout", "web_board",
        "web_editor", "openspiel",
    })
    score_name: str = "vp"
    chance_kinds: tuple[str, ...] = ChanceKind.labels()
    unseen_texts: frozenset[str] = frozenset({"fish: ?", "pyramid ?"})
    # The learned evaluation (docs/learning.md): the shipped net of the player count (nets/4p.json, encoder
    # version 1: SPRT H1 at 0.05 s a decision against the playout alone, docs/strength.md), blended half and
    # half with the heuristic playout; the playout alone where no net is shipped (2 and 3 players). The tie
    # margin stays the default 0.05: it reports every split of 5 seeds as a tie at `burano suggest`'s default
    # search (bench/tie_calibration.py; docs/strength.md, "A tie margin per game").
    search_defaults = MappingProxyType({"net": "auto", "net_weight": 0.5, "tie_margin": 0.05})

    def game_class(self, implementation: str = "compiled"):
        """The Game class of `implementation` ("compiled" or "reference")."""
        return import_game_class(self, implementation)

    def new_game(self, num_players: int, implementation: str = "compiled"):
        """A Game of `implementation` for `num_players` players."""
        check_player_count(self, num_players)
        return self.game_class(implementation)(num_players)

    # --- engine side: positions, records, bots, arena (engine, protocol, record, session, arena)

    def load_position(self, data: Mapping[str, Any], game_factory=None):
        """Validate a `burano-position/1` object (`notation.position_from_dict`) and build its State with
        `game_factory` (default: the compiled Game); return (State, view seat or None)."""
        from burano_ai.games.burano.notation import position_from_dict
        position = position_from_dict(data)
        factory = game_factory or self.game_class("compiled")
        state = factory(position.num_players).state_from_position(position)
        return state, position_view(data, position.num_players)

    def step_visibility(self, state, action: int) -> StepVisibility:
        """Rules spec §1, §4.1, §5.1: a blind fish draw is seen by its drawer only, a pyramid cube by its
        builder only (until every pyramid is done); everything else is public."""
        if state.is_chance_node():
            kind = ChanceKind(state.chance_kind)
            seat = state.actor if kind in _SEAT_CHANCE else None
            return StepVisibility(kind.label, seat, (seat,) if kind == ChanceKind.FISH_DRAW else None)
        actor = state.current_player()
        return StepVisibility(None, None, (actor,) if state.stage == Stage.PYRAMID else None)

    def hidden_in_export(self, steps: Sequence[Any], seat: int) -> set[int]:
        """Another seat's blind fish draws, and its pyramid steps while that pyramid is still being built
        when the record ends (the private moves after the last public one): a finished pyramid is
        revealed to all."""
        letter = SEAT_LETTERS[seat]
        open_pyramid = unrevealed_moves(steps)
        return {i for i, step in enumerate(steps)
                if not step.visible_to(letter) and (step.kind == ChanceKind.FISH_DRAW.label or i in open_pyramid)}

    def narrate_step(self, step, hidden: bool) -> str:
        """``B: take b5``, ``B draws a fish card from the deck`` (hidden), ``A draws tuna from the deck``,
        ``the fish display is refilled: squid``, ``C places a pyramid cube (hidden)``."""
        what = "" if step.move is None else step.move.split(":", 1)[-1].strip()
        if step.is_chance:
            if step.kind == ChanceKind.FISH_DRAW.label:
                who = step.seat or "?"
                return f"{who} draws a fish card from the deck" if hidden else f"{who} draws {what} from the deck"
            return _CHANCE_TEXT.get(step.kind or "", "chance: {what}").format(who=step.seat or "", what=what)
        if hidden:
            return f"{step.actor} places a pyramid cube (hidden)"
        return f"{step.actor}: {step.move}"

    def step_effects(self, before, after, action: int | None = None):
        """Every VP and coin gained or paid with its reason, the final scoring per seat and category, and
        the result with its tie-break (`narration.step_effects`): public, so every seat reads them."""
        from burano_ai.games.burano.narration import step_effects
        return step_effects(before, after, action)

    def describe_result(self, state) -> list[str]:
        """`A and B tie on 17 VP; B wins the tie-break on cubes in the preparation area (A 1, B 3)`."""
        from burano_ai.games.burano.narration import describe_result
        return describe_result(state)

    def openspiel_game(self, num_players: int, implementation: str = "compiled"):
        """The cached pyspiel game of `burano_ai.games.burano.openspiel` for our `implementation`."""
        from burano_ai.games.burano.openspiel import game_for
        return game_for(num_players, openspiel_engine(self, implementation))

    def openspiel_unwrap(self, wrapped):
        """`BuranoState.burano_state` (None before the deal)."""
        return wrapped.burano_state

    def bots(self) -> Mapping[str, BotDeclaration]:
        """Burano's heuristic bot: ``greedy`` (`burano_ai.games.burano.greedy.choose_greedy`)."""
        from burano_ai.games.burano.greedy import choose_greedy
        return {"greedy": BotDeclaration(
            choose_greedy, {"samples": 3, "depth": 4},
            summary="one move ahead with a fixed heuristic. Keys: ``samples`` (chance completions averaged "
                    "per move, 3), ``depth`` (sub-decisions followed, 4).")}

    # --- people side: terminal rendering, move entry, score columns (cli, play)

    def render(self, position, width: int | None = None):
        """The board as plain text (`render.render_position`): islands, route, workshop, every seat; the
        compact layout (80 columns) when `width` is below `render.WIDE`."""
        from burano_ai.games.burano.render import render_position
        return render_position(position, width)

    def render_styled(self, position, width: int | None = None) -> list[list[tuple[str, str]]]:
        """`render`'s lines as styled spans: cube letters in their colours, seat letters in bold."""
        from burano_ai.games.burano.render import render_lines
        return [line.spans for line in render_lines(position, width)]

    def render_legal_actions(self, state) -> str:
        """The legal moves grouped by verb, or the chance outcomes with their probabilities."""
        from burano_ai.games.burano.render import render_legal_actions
        return render_legal_actions(state)

    def describe_move(self, state, action: int) -> str:
        """`roof island orange-white from slot 2: orange on g5, white on e5`, `end the turn`, `stop placing
        lace workers` (`words.describe_move`); the move text stays the notation."""
        from burano_ai.games.burano.words import describe_move
        return describe_move(state, action)

    def describe_moves(self, state, actions: list[int]) -> list[str]:
        """`describe_move` of each of `actions`, the seat's view read once (`words.describe_moves`)."""
        from burano_ai.games.burano.words import describe_moves
        return describe_moves(state, actions)

    def move_notes(self, state) -> list[str]:
        """What the next move costs and why moves are missing (`words.move_notes`)."""
        from burano_ai.games.burano.words import move_notes
        return move_notes(state)

    def phase_label(self, position) -> str:
        """`spring r1` in the rounds, else the season and stage (`setup`, `summer pyramid`, ...)."""
        if position["stage"] == "setup":
            return "setup"
        if position["stage"] == "rounds":
            return f"{position['season']} r{position['round']}"
        return f"{position['season']} {position['stage']}"

    def turn_label(self, position) -> str:
        """`spring round 1, rounds (turn)`: the season and round, the stage and the phase."""
        where = position["season"] if position["stage"] != "rounds" else \
            f"{position['season']} round {position['round']}"
        return f"{where}, {position['stage']} ({position['phase']})"

    def chance_label(self, position) -> str:
        """The pending chance event's kind (`fish`, `roof-tile`, ...)."""
        return position["context"]["chance"]

    def seat_label(self, seat: int) -> str:
        """`A (blue)`: the letter and the player colour."""
        return f"{SEAT_LETTERS[seat]} ({PLAYER_COLOURS[seat]})"

    def score_columns(self, state) -> list[tuple[str, list[str]]]:
        """VP, coins and the cubes in the preparation area (the order of finish's three keys)."""
        seats = state.to_dict()["seats"]
        return [("VP", [str(seat["vp"]) for seat in seats]),
                ("coins", [str(seat["coins"]) for seat in seats]),
                ("prep cubes", [str(sum(seat["prep"].values())) for seat in seats])]

    def describe_scores(self, scores) -> str:
        """`A 34 VP, B 20 VP`."""
        return ", ".join(f"{SEAT_LETTERS[p]} {v} VP" for p, v in enumerate(scores))

    def example_position(self) -> str:
        """Seat C's view of a 4-player summer position (`data/examples/midgame-4p-C.json`)."""
        from importlib import resources
        return resources.files("burano_ai.games.burano.data").joinpath("examples", EXAMPLE_POSITION) \
            .read_text(encoding="utf-8")

    def move_entry(self):
        """A whole pyramid in one line (`entry.PyramidLine`)."""
        from burano_ai.games.burano.entry import ENTRY
        return ENTRY

    # --- web side: the board module (web)

    #: The SVG board and its editor tools, under burano_ai/web/static/.
    web_board: str = "games/burano/board.js"


SPEC = BuranoSpec()
