"""The search tree: plain Python nodes keyed by global action ids, and its compact exported form.

One tree serves the searching seat's information sets (SO-ISMCTS). A node is reached by the sequence
of *decisions* from the root; chance outcomes and other seats' secret choices are not edges (they
are sampled in each iteration and "pass through" the node), so a node merges every world that the same
decisions lead to. Each child holds the statistics of the edge into it, from the point of view of the
seat that chose that edge.

The exported form (`export_plan`) keeps what results need — the root's children and the searching
seat's decisions down to the end of its current turn — as nested tuples that pickle cheaply; trees
from root-parallel workers are merged in that form (`merge_plans`).
"""

from __future__ import annotations

from burano_ai.core.seats import parse_seat
from burano_ai.core.errors import PositionError

UNKNOWN = -9   # `Node.player` before the node was reached at a decision
NO_CHANCE = -1  # `Node.chance` of an edge that no chance event followed


def check_root(root, seat: int) -> int:
    """Return `seat` (an int or a letter) if a search for it can start at `root`, else raise.

    Both searchers call this first: a root with nothing to choose would leave a tree with no edge
    (and the native tree would read an empty action list).

    Raises:
        PositionError: the game is over at `root`, `root` is a chance node, or the seat to move has no
            legal action (a malformed position).
        ValueError: `seat` is not the seat to move.
        TypeError / OptionError: `seat` is not a seat of this game (`enums.parse_seat`).
    """
    seat = parse_seat(seat, root.num_players)
    if root.is_terminal():
        raise PositionError("cannot search a finished game: the root is terminal")
    if root.is_chance_node():
        raise PositionError("cannot search from a chance node: apply its outcome first (the root must be "
                            "a decision)")
    if root.current_player() != seat:
        raise ValueError(f"seat {seat} is not to move at the root (current player {root.current_player()})")
    if not root.legal_actions():
        raise PositionError(f"seat {seat} is to move at the root but has no legal action: the position is "
                            f"malformed")
    return seat


class Node:
    """A decision node and the statistics of the edge that leads into it.

    Attributes:
        children: action id -> child Node, or None before the node's first visit as a decision.
        player: seat that decides at this node (set on the first visit).
        visits: iterations that took the edge into this node.
        avail: iterations in which that edge was legal when its parent was visited (availability).
        value: summed reward, for the seat that chose the edge, of the iterations through it.
        ends_turn: the edge ended its chooser's turn (`State.turn_id()` changed across it; Burano:
            `done` in the turn phase, or the last cube of the chooser's pyramid): a plan stops here.
        chance: the game's chance kind (`State.chance_kind`) of a chance event seen between this edge
            and the next decision (the first one seen, in any iteration), or NO_CHANCE: a plan marks
            the step after it as depending on luck.
        prior: action id -> prior probability for the choices at this node (`State.prior`), or None.
        secret: with `Params.secret` "ucb" or "exp3", the bandits of the other seats' secret choices in the round of
            simultaneous choices that begins at this node: (seat, that seat's earlier choices in the round) ->
            action id -> [visits, availability, summed reward for that seat]; None before the first.
    """

    __slots__ = ("children", "player", "visits", "avail", "value", "ends_turn", "chance", "prior", "secret")

    def __init__(self) -> None:
        self.children: dict[int, Node] | None = None
        self.player = UNKNOWN
        self.visits = 0
        self.avail = 0
        self.value = 0.0
        self.ends_turn = False
        self.chance = NO_CHANCE
        self.prior: dict[int, float] | None = None
        self.secret: dict[tuple[int, tuple[int, ...]], dict[int, list]] | None = None

    def __repr__(self) -> str:
        n = 0 if self.children is None else len(self.children)
        return f"Node(player={self.player}, visits={self.visits}, avail={self.avail}, value={self.value:.2f}, " \
               f"children={n})"

    def count(self) -> int:
        """Nodes in this subtree (this one included)."""
        total, stack = 0, [self]
        while stack:
            node = stack.pop()
            total += 1
            if node.children:
                stack.extend(node.children.values())
        return total


# Exported plan tree: {action: (visits, value, avail, ends_turn, player, chance, {sub-plan})}.
# A child's sub-plan is filled only while it is the searching seat's decision inside the current turn;
# `chance` is `Node.chance` (a ChanceKind value, or NO_CHANCE).
PlanTree = dict


def export_plan(root: Node, seat: int, max_nodes: int = 20000) -> PlanTree:
    """Export the root's children and, below them, the seat's own decisions until its turn ends."""
    budget = [max_nodes]

    def walk(node: Node) -> PlanTree:
        out: PlanTree = {}
        if not node.children:
            return out
        # Most visited first, so that the node budget keeps the part that matters.
        for action, child in sorted(node.children.items(), key=lambda kv: -kv[1].visits):
            budget[0] -= 1
            follow = not child.ends_turn and child.player == seat and budget[0] > 0
            sub = walk(child) if follow else {}
            out[action] = (child.visits, child.value, child.avail, child.ends_turn, child.player, child.chance, sub)
        return out

    return walk(root)


def merge_plans(plans: list[PlanTree]) -> PlanTree:
    """Sum exported plan trees of independent searches edge by edge."""
    merged: PlanTree = {}
    for plan in plans:
        for action, (visits, value, avail, ends, player, chance, sub) in plan.items():
            if action in merged:
                v0, val0, av0, e0, p0, c0, s0 = merged[action]
                merged[action] = (v0 + visits, val0 + value, av0 + avail, e0 or ends,
                                  p0 if p0 != UNKNOWN else player, c0 if c0 != NO_CHANCE else chance,
                                  merge_plans([s0, sub]))
            else:
                merged[action] = (visits, value, avail, ends, player, chance, merge_plans([sub]) if sub else {})
    return merged


def best_edge(plan: PlanTree) -> int | None:
    """The most visited action of a plan level (ties: higher mean value, then lower action id)."""
    best, best_key = None, None
    for action, (visits, value, *_rest) in plan.items():
        key = (visits, value / visits if visits else 0.0, -action)
        if best_key is None or key > best_key:
            best, best_key = action, key
    return best


def principal_variation(plan: PlanTree, seat: int) -> list[tuple[int, int, int]]:
    """Follow the most visited edges while the seat decides and its turn goes on:
    [(action, visits, chance)] (`chance`: the ChanceKind seen after the step, or NO_CHANCE)."""
    line: list[tuple[int, int, int]] = []
    level = plan
    while level:
        action = best_edge(level)
        if action is None:
            break
        visits, _value, _avail, ends, player, chance, sub = level[action]
        if visits == 0:
            break
        line.append((action, visits, chance))
        if ends or player != seat:
            break
        level = sub
    return line
