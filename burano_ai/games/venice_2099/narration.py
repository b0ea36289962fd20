"""Venice 2099 in people's words: moves, what a step changed, the notes on the next decision, the final scoring.

Everything here reads public fields only (the board, coins, tokens, gondola cards, figures, played cards:
§9), so every effect is seen by every seat; the hands are never read.
"""

from __future__ import annotations

from burano_ai.core.game import StepEffect
from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games.venice_2099 import rules
from burano_ai.games.venice_2099.data import COLOUR_LETTERS, COLOUR_NAMES, NUM_COLOURS, token_value
from burano_ai.games.venice_2099.rules import (
    BOARD_WIDTH, BUY0, DECLINE_RESCUE, GONDOLA0, IN_WATER, LOST, MOVE0, PASS_BUY, PASS_MOVE, PHASE_BUY,
    PHASE_CARD, PHASE_MOVE, PHASE_PLACE, PHASE_RESCUE, PLACE0, PLATFORM, PLAY0, RESCUE0,
)


def district_words(d: int) -> str:
    """`black 5`, `turquoise X`."""
    return f"{COLOUR_NAMES[rules.district_colour(d)]} {rules.district_text(d)[1]}"


def square_words(state, s: int) -> str:
    """`d4 (black 5)`, `d4 (platform)`, `d4 (sunk black 5)`."""
    t = state.tiles[s]
    name = rules.square_name(s, state.n)
    if t == PLATFORM:
        return f"{name} (platform)"
    if t < 0:
        return name
    return f"{name} ({'sunk ' if state.water[s] else ''}{district_words(t)})"


def describe_move(state, action: int) -> str:
    """A move (or chance outcome) in people's words."""
    if state.is_chance_node():
        kind, where = state.setup_cursor()
        if kind == rules.CHANCE_COLOUR:
            return f"the 2-player game leaves out {COLOUR_NAMES[action]}"
        if kind == rules.CHANCE_LAYOUT:
            tile = "a platform" if action == PLATFORM else district_words(action)
            return f"{tile} is laid on {rules.square_name(where, state.n)}"
        return f"a card is dealt to {SEAT_LETTERS[where % state.num_players]}"
    p = state.to_move()
    if PLACE0 <= action < MOVE0:
        return f"place a figure on {square_words(state, action - PLACE0)}"
    if MOVE0 <= action < GONDOLA0:
        f, s = divmod(action - MOVE0, BOARD_WIDTH)
        return f"move the figure on {rules.square_name(state.figures[p][f], state.n)} to {square_words(state, s)}"
    if GONDOLA0 <= action < PASS_MOVE:
        f, s = divmod(action - GONDOLA0, BOARD_WIDTH)
        return f"gondola: the figure on {rules.square_name(state.figures[p][f], state.n)} to {square_words(state, s)}"
    if action == PASS_MOVE:
        return "move no figure"
    if BUY0 <= action < PASS_BUY:
        s = state.figures[p][action - BUY0]
        colour = COLOUR_NAMES[rules.district_colour(state.tiles[s])]
        price = state.price(s)
        return f"buy a {colour} treasure at {rules.square_name(s, state.n)} for {price} coin{'s' if price > 1 else ''}"
    if action == PASS_BUY:
        return "buy nothing"
    if PLAY0 <= action < RESCUE0:
        d = rules.card_district(action - PLAY0, state.options)
        s = state.tiles.index(d)
        on = state.occupant().get(s)
        figure = f", taking {SEAT_LETTERS[on[0]]}'s figure with it" if on else ""
        coins = state.coins_on[s]
        lost = f" and its {coins} coin{'s' if coins > 1 else ''}" if coins else ""
        return f"play {rules.district_text(d)}: {district_words(d)} on {rules.square_name(s, state.n)} sinks{lost}{figure}"
    if RESCUE0 <= action < DECLINE_RESCUE:
        return f"rescue the figure by gondola to {square_words(state, action - RESCUE0)}"
    if action == DECLINE_RESCUE:
        return "let the figure drown (keep the gondola card)"
    return state.action_to_string(action)


def _figure_effects(before, after) -> list[str]:
    out = []
    for p in range(before.num_players):
        who = SEAT_LETTERS[p]
        for f, (x, y) in enumerate(zip(before.figures[p], after.figures[p])):
            if x == y:
                continue
            if x >= 0 and y == IN_WATER:
                out.append(f"{who}'s figure on {rules.square_name(x, before.n)} falls into the water: "
                           f"{who} may rescue it with a gondola card")
            elif x >= 0 and y == LOST:
                out.append(f"{who}'s figure on {rules.square_name(x, before.n)} drowns: removed for good")
            elif x == IN_WATER and y == LOST:
                out.append(f"{who}'s figure drowns: removed for good")
            elif x == IN_WATER and y >= 0:
                out.append(f"{who}'s figure is rescued to {square_words(after, y)}")
    return out


def step_effects(spec, before, after, action: int | None = None) -> list[StepEffect]:
    """Every coin, token, gondola card, sinking, figure and score change of one step (all public, §9),
    then the final scoring and the result after the last step."""
    texts: list[str] = []
    n = before.num_players
    played = None if action is None or not PLAY0 <= action < RESCUE0 else \
        rules.card_district(action - PLAY0, before.options)
    for s in range(before.n * before.n):
        if after.water[s] and not before.water[s]:
            lost = before.coins_on[s]
            coins = f"{lost} coin{'s' if lost > 1 else ''}"
            name = rules.square_name(s, before.n)
            if before.tiles[s] == played:       # the move's words say what sinks: only what they do not
                if lost:
                    texts.append(f"the {coins} on {name} leave the game")
                continue
            texts.append(f"{district_words(before.tiles[s])} on {name} sinks"
                         + (f": its {coins} leave the game" if lost else ""))
    for p in range(n):
        who = SEAT_LETTERS[p]
        paid = before.coins[p] - after.coins[p]
        if paid:
            onto = [s for s in range(before.n * before.n) if after.coins_on[s] > before.coins_on[s]]
            where = f" onto {rules.square_name(onto[0], before.n)} (it holds {after.coins_on[onto[0]]})" if onto else ""
            texts.append(f"{who} pays {paid} coin{'s' if paid > 1 else ''}{where}: {who} has {after.coins[p]}")
        for c in range(NUM_COLOURS):
            got = after.tokens[p][c] - before.tokens[p][c]
            if got:
                left = "" if after.supply[c] < 0 else f" ({after.supply[c]} left in the supply)"
                texts.append(f"{who} takes {got} {COLOUR_NAMES[c]} treasure{'s' if got > 1 else ''}{left}")
        used = before.gondolas[p] - after.gondolas[p]
        if used:
            texts.append(f"{who} uses a gondola card ({after.gondolas[p]} left)")
    texts += _figure_effects(before, after)
    if not before.is_chance_node():
        old, new = before.scores(), after.scores()
        changes = [f"{SEAT_LETTERS[p]} {new[p] - old[p]:+d}" for p in range(n) if new[p] != old[p]]
        if changes:
            texts.append("points as the board stands: " + ", ".join(changes))
    effects = [StepEffect(t) for t in texts]
    if after.is_terminal():
        from burano_ai.core.people import result_lines
        effects += [StepEffect(line) for line in result_breakdown(after) + result_lines(spec, after)]
    return effects


def result_breakdown(state) -> list[str]:
    """§7 by category for every seat, after the surviving districts and each colour's token value."""
    if not state.is_terminal():
        return []
    k = state.surviving()
    colours = [c for c in range(NUM_COLOURS) if c != state.removed_colour]
    lines = ["surviving districts (token value): " + ", ".join(
        f"{COLOUR_NAMES[c]} {k[c]} ({token_value(k[c])})" for c in colours)]
    for p in range(state.num_players):
        b = state.final_breakdown(p)
        tokens = " ".join(f"{state.tokens[p][c]}{COLOUR_LETTERS[c]}x{token_value(k[c])}"
                          for c in colours if state.tokens[p][c])
        lines.append(f"{SEAT_LETTERS[p]} {sum(b.values())} points: treasures {b['treasures']}"
                     f"{' (' + tokens + ')' if tokens else ''}, figures {b['figures']}, X districts "
                     f"{b['X districts']}, coins {b['coins']}; {state.figures_on_board(p)} figure"
                     f"{'s' if state.figures_on_board(p) != 1 else ''} on the board (the tie-break)")
    return lines


def move_notes(state) -> list[str]:
    """What the next decision costs, and why moves are missing."""
    if state.is_terminal() or state.is_chance_node():
        return []
    p = state.to_move()
    phase = state.phase
    if phase == PHASE_PLACE:
        values = sorted({rules.district_text(state.tiles[x])[1] for x in state.figures[p]
                         if x >= 0 and state.tiles[x] != PLATFORM})
        if values:
            return [f"figures on districts need different values: {SEAT_LETTERS[p]} already has "
                    f"{', '.join(values)} (platforms are always allowed)"]
        return ["figures on districts need different values (platforms are always allowed)"]
    if phase == PHASE_MOVE:
        g = state.gondolas[p]
        if not g:
            return ["no gondola card: normal moves only (a straight line, stopped by water and figures)"]
        return [f"{g} gondola card{'s' if g > 1 else ''}: a gondola move goes to any free square "
                "instead of a normal move"]
    if phase == PHASE_BUY:
        notes = []
        for f in state.alive_figures(p):
            s = state.figures[p][f]
            name = rules.square_name(s, state.n)
            if not state.is_land(s):
                notes.append(f"{name}: a platform, no buying")
                continue
            c = rules.district_colour(state.tiles[s])
            price = state.price(s)
            if state.supply[c] == 0:
                notes.append(f"{name}: no {COLOUR_NAMES[c]} treasure left")
            elif state.coins[p] < price:
                notes.append(f"{name}: {COLOUR_NAMES[c]} costs {price}, {SEAT_LETTERS[p]} has {state.coins[p]} coins")
            else:
                notes.append(f"{name}: {COLOUR_NAMES[c]} for {price}")
        return ["; ".join(notes)] if notes else []
    if phase == PHASE_CARD:
        return ["the lowest card of the hand is played; its district sinks"]
    if phase == PHASE_RESCUE:
        return [f"{SEAT_LETTERS[p]}'s figure fell into the water: a rescue to a free district costs a gondola "
                f"card ({state.gondolas[p]} left)"]
    return []



def why_illegal(state, action: int) -> str | None:
    """Why `action`, a move of the game that is not legal now, is not, in words (None when no reason is
    known here: the caller says it is not legal). The placement's reasons: the square is taken, or the
    seat already has a figure on a district of that value (§3.1: figures on districts need different values)."""
    if state.is_terminal() or state.is_chance_node():
        return None
    p = state.to_move()
    if state.phase != PHASE_PLACE:
        return None
    if not rules.PLACE0 <= action < rules.MOVE0:
        return "it is the placement: place a figure on a free square (place d4)"
    s = action - rules.PLACE0
    if s >= state.n * state.n:
        return f"the city is {state.n} x {state.n} squares"
    name = rules.square_name(s, state.n)
    for q in range(state.num_players):
        if s in state.figures[q]:
            owner = "your" if q == p else f"{SEAT_LETTERS[q]}'s"
            return f"{name} is taken by {owner} figure"
    tile = state.tiles[s]
    if tile == PLATFORM:
        return None
    value = rules.district_text(tile)[1]
    mine = [rules.square_name(x, state.n) for x in state.figures[p]
            if x >= 0 and state.tiles[x] != PLATFORM and rules.district_text(state.tiles[x])[1] == value]
    if mine:
        a = "an" if value in ("8", "X") else "a"
        return (f"{name} is {a} {value} district and your figure on {mine[0]} already stands on {a} {value}: "
                "figures on districts need different values (a platform is always allowed)")
    return None
