"""Named, frozen settings of the ``ismcts`` bot (``ismcts:preset=v0.1``): a search version kept playable so
that every change to the search default can be measured against it in one arena run.

A preset pins every `burano_ai.search.Params` value that defines the search (`Preset.params`, by keyword)
rather than inheriting `Params()`'s defaults, so changing a default leaves the preset as it was; a Params
field added later is pinned by one more line in the preset (``final_selection="visits"``). Keys given in
the bot spec override the preset's values (``ismcts:preset=v0.1,c=1.0``); the budget (``iterations``,
``time``) and ``workers`` are the spec's, as for the plain bot.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

from burano_ai.core.errors import OptionError


@dataclass(frozen=True)
class Preset:
    """A named search version: what it pins (one line) and its `Params` keyword values."""

    name: str
    pins: str
    params: Mapping[str, Any]


V0_1 = Preset(
    name="v0.1",
    pins="the search of release 0.1: UCB c = 0.7 with availability counts, reward 0.7 win share + 0.3 "
         "sigmoid(margin / 10), pyramid prior bias 1, heuristic C playouts, the most visited move, "
         "workers=W as W root-parallel processes with merged root statistics, one thread each",
    params=MappingProxyType(dict(exploration=0.7, root_exploration=None, root_ramp=0, win_weight=0.7,
                                 margin_scale=10.0, pyramid_bias=1.0, playout_policy="heuristic",
                                 final_selection="visits")),
)

#: Every preset by name.
PRESETS: Mapping[str, Preset] = MappingProxyType({p.name: p for p in (V0_1,)})


def get_preset(name: str) -> Preset:
    """The preset called `name`.

    Raises:
        OptionError: no such preset (the message lists the known ones).
    """
    try:
        return PRESETS[name]
    except KeyError:
        raise OptionError(f"unknown preset {name!r} (known presets: {', '.join(PRESETS)})") from None
