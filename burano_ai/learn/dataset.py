"""Training examples from self-play records: features of the positions and what became of them.

Every state a record passes through before the end (decisions and chance events alike: a search leaf
can be either) is an example, kept with probability `keep` (decisions) or `keep_chance` (chance
events), each from every seat's side (relative seats, so one net serves every seat). The features are
the compiled core's encoder (`State.encode`, equal to the game's Python encoder: tested).

Targets, for a net of n players, in the same relative seats (the encoded seat first):

- n win shares: ``blend * search + (1 - blend) * result``, where `search` is the per-seat win share the
  search reported at the next decision of the game (the decision's own search for a decision) and
  `result` the final win shares (`returns()`); at ``blend`` 0 the result alone;
- n final score margins (a seat's score minus the best other seat's) and n final scores, both divided
  by `score_scale` (the auxiliary targets: KataGo's score target).

Examples are grouped by game (`groups`), so a held-out split never puts positions of one game on both
sides.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from burano_ai.core.errors import OptionError
from burano_ai.core.seeds import derive
from burano_ai.learn.selfplay import replay_steps


@dataclass
class Dataset:
    """Features `x` (examples x features, float32), targets `y` (examples x 3n, float32) and the index of
    each example's game in `groups`."""

    x: np.ndarray
    y: np.ndarray
    groups: np.ndarray
    game: str
    players: int
    encoder_version: int
    score_scale: float
    games: int

    def __len__(self) -> int:
        return len(self.x)


def margins(scores: Sequence[float]) -> list[float]:
    """Each seat's score minus the best score among the other seats (the search's margin)."""
    out = []
    for p, s in enumerate(scores):
        others = [v for q, v in enumerate(scores) if q != p]
        out.append(s - max(others) if others else 0.0)
    return out


def build_dataset(records: Iterable[Mapping[str, Any]], score_scale: float, blend: float = 0.5,
                  keep: float = 1.0, keep_chance: float = 0.25, seed: int = 0) -> Dataset:
    """Encode the records' positions into a Dataset (see the module docstring).

    Raises:
        OptionError: no record, records of several games or player counts, a game without an encoder,
            or a blend / keep outside 0..1.
    """
    if not 0.0 <= blend <= 1.0 or not 0.0 <= keep <= 1.0 or not 0.0 <= keep_chance <= 1.0:
        raise OptionError("blend, keep and keep_chance must lie in 0..1")
    xs: list[list[float]] = []
    ys: list[list[float]] = []
    groups: list[int] = []
    game = players = None
    version = 0
    count = 0
    for g, record in enumerate(records):
        if game is None:
            game, players = record["game"], record["players"]
        elif (record["game"], record["players"]) != (game, players):
            raise OptionError(f"records of {game} {players}p and {record['game']} {record['players']}p cannot "
                              "train one net")
        count += 1
        n = players
        final = [float(v) for v in record["returns"]]
        scores = [float(v) for v in record["scores"]]
        margin = margins(scores)
        rng = random.Random(derive(seed, record["seed"]))
        # The search's per-seat shares at the next decision at or after each step.
        decisions = {d[0]: d[2] for d in record["decisions"] if d[2] is not None}
        nxt: list[Sequence[float] | None] = [None] * (len(record["actions"]) + 1)
        for i in range(len(record["actions"]) - 1, -1, -1):
            nxt[i] = decisions.get(i, nxt[i + 1])
        for i, state in replay_steps(record):
            if state.is_chance_node():
                if rng.random() >= keep_chance:
                    continue
            elif rng.random() >= keep:
                continue
            if version == 0:
                version = state.encoder_version
                if version == 0:
                    raise OptionError(f"{game} has no encoder: it cannot learn an evaluation")
            search = nxt[i] if nxt[i] is not None else final
            for q in range(n):
                order = [(q + k) % n for k in range(n)]
                xs.append(state.encode(q))
                ys.append([blend * search[p] + (1.0 - blend) * final[p] for p in order]
                          + [margin[p] / score_scale for p in order] + [scores[p] / score_scale for p in order])
                groups.append(g)
    if game is None:
        raise OptionError("no self-play game to learn from")
    return Dataset(np.asarray(xs, dtype=np.float32), np.asarray(ys, dtype=np.float32),
                   np.asarray(groups, dtype=np.int32), game, players, version, score_scale, count)
