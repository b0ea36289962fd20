"""Plain-text rendering of an Azul: Stained Glass of Sintra position for the terminal (fits 80 x 24).

It renders the position dict of `burano_ai.games.azul_sintra.position` (`state.to_dict(seat)`) and
says on its first line when the component data is the placeholder (it always is unless a corrected
data file was loaded).

A seat takes three lines: score, track and hits; each column's strip (`3a` = strip S3, face a) with
its 5 cells, placed pieces in lower case (a piece on a joker shows its own colour); each window
(`P-`: top pink, bottom empty) with `^` under the glazier. A strip back in the box is `--`.
"""

from __future__ import annotations

from typing import Any

from burano_ai.core.seats import SEAT_LETTERS
from burano_ai.games.azul_sintra.data import COLUMNS, data_from_dict, default_data
from burano_ai.games.azul_sintra.rules import ROMAN


def _cells(face: str, pieces: str, jokers: str) -> str:
    """The face's 5 cells with the placed pieces in lower case (coloured cells first, then jokers)."""
    out = list(face)
    for ch in pieces:
        i = next(i for i, x in enumerate(out) if x == ch)
        out[i] = ch.lower()
    for ch in jokers:
        i = next(i for i, x in enumerate(out) if x == "J")
        out[i] = ch.lower()
    return "".join(out)


def render(d: dict[str, Any]) -> str:
    """About 4 + 3 per seat lines of at most 80 characters."""
    data = default_data() if d["data"] is None else data_from_dict(d["data"])
    n = d["players"]
    head = f"Azul: Stained Glass of Sintra, {n} players, side {d['side']}"
    if data.placeholder:
        head += " - PLACEHOLDER DATA"
    if d.get("view"):
        head += f" ({d['view']}'s view)"
    phase = d["phase"]
    ind = " ".join(f"{ROMAN[i]}:{c or '?'}" for i, c in enumerate(d["indicator"]))
    if phase == "over":
        status = "game over"
    elif phase in ("setup", "refill"):
        status = f"{phase} before round {d['round']}"
    else:
        status = (f"round {d['round']}, {d['to_move']} to {'keep a piece' if phase == 'keep' else 'move'}, "
                  f"bonus {d['indicator'][d['round'] - 1]}")
    token = "token in centre" if d["token"] == "centre" else f"token: {d['token']}"
    lines = [head[:80], f"{status}; {token}; indicator {ind}"[:80]]
    facs = " ".join(f"{i + 1}:{f or '-'}" for i, f in enumerate(d["factories"]))
    lines.append(f"factories {facs}  centre {d['centre'] or '-'}"[:80])
    bag = " ".join(f"{k}{v}" for k, v in d["bag"].items())
    tower = " ".join(f"{k}{v}" for k, v in d["tower"].items())
    keep = "" if d["keep"] is None else f"  keep from column {d['keep']['column']}: {d['keep']['pieces']}"
    lines.append(f"bag {bag}  tower {tower}{keep}"[:80])
    for p, seat in enumerate(d["seats"]):
        lines.append(f"{SEAT_LETTERS[p]}: {seat['score']} pts, track {seat['track']} "
                     f"({data.track[seat['track']]}), hits {seat['hits']}, glazier {seat['glazier']}")
        strips, windows = [], []
        for k, col in enumerate(seat["columns"]):
            top, bottom = col["window"]
            if col["strip"] is None or col["face"] is None:
                strips.append("?? ?????")
            elif bottom is not None:
                strips.append("-- -----")
            else:
                face = data.faces[col["strip"] - 1]["ab".index(col["face"])]
                strips.append(f"{col['strip']}{col['face']} {_cells(face, col['pieces'], col['jokers'])}")
            mark = "^" if seat["glazier"] == k + 1 else " "
            windows.append(f"{mark}{k + 1}:{top or '-'}{bottom or '-'}".ljust(8))
        lines.append("   " + " ".join(strips))
        lines.append("   " + " ".join(windows))
    assert all(len(line) <= 80 for line in lines)
    assert COLUMNS == 8
    return "\n".join(lines)
