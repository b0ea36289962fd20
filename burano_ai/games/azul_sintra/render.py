"""Plain-text rendering of an Azul: Stained Glass of Sintra position for the terminal (fits 80 x 24).

It renders the position dict of `burano_ai.games.azul_sintra.position` (`state.to_dict(seat)`) and
says on its first line when the component data is the placeholder (it always is unless a corrected
data file was loaded).

A seat takes three lines: score, track and hits; each column's strip (`3a` = strip S3, face a) with
its 5 cells, placed pieces in lower case (a piece on a joker shows its own colour); each window
(`P-`: top pink, bottom empty) with `^` under the glazier. A strip back in the box is `--`. Every line
fits 80 columns whatever the player count (the factories, the centre, the bag and the tower are packed
into lines, never cut); `render_lines` gives them styled, each colour letter in its colour.
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


#: The terminal style of each colour letter (`render_lines`): P O Y B G in their colours.
COLOUR_STYLES = {"P": "bold bright_magenta", "O": "bold dark_orange", "Y": "bold yellow", "B": "bold bright_blue",
                 "G": "bold green"}
WIDTH = 80


def _styled(text: str, letters: str = "") -> list[tuple[str, str]]:
    """`text` as spans, each of `letters` (upper or lower case: a colour) in its colour's style."""
    spans: list[tuple[str, str]] = []
    for ch in text:
        style = COLOUR_STYLES.get(ch.upper(), "") if ch.upper() in letters else ""
        if spans and spans[-1][1] == style:
            spans[-1] = (spans[-1][0] + ch, style)
        else:
            spans.append((ch, style))
    return spans


def _pack(pieces: list[tuple[str, bool]], sep: str = "  ") -> list[list[tuple[str, bool]]]:
    """`pieces` (text, coloured) laid in lines of at most `WIDTH` characters, `sep` between two on a line."""
    lines: list[list[tuple[str, bool]]] = []
    width = 0
    for text, coloured in pieces:
        if lines and width + len(sep) + len(text) <= WIDTH:
            lines[-1] += [(sep, False), (text, coloured)]
            width += len(sep) + len(text)
        else:
            lines.append([(text, coloured)])
            width = len(text)
    return lines


def render_lines(d: dict[str, Any]) -> list[list[tuple[str, str]]]:
    """The board as lines of styled spans (the colour letters in their colours), each at most 80 characters:
    the head, the round and who is to move (the round's bonus colour in words, not a letter that reads as
    a seat), the factories, the centre, the bag, the tower, the round colours and the letters' legend
    (packed into as few lines as fit), then 3 lines per seat: a strip's cells in capitals, the pieces placed on
    it in lower case."""
    data = default_data() if d["data"] is None else data_from_dict(d["data"])
    letters = "".join(data.letters)
    names = dict(zip(data.letters, data.colour_names))
    n = d["players"]
    head = f"Azul: Stained Glass of Sintra, {n} players, side {d['side']}"
    if data.placeholder:
        head += " - PLACEHOLDER DATA"
    if d.get("view"):
        head += f" ({d['view']}'s view)"
    phase = d["phase"]
    if phase == "over":
        status = ["game over"]
    elif phase in ("setup", "refill"):
        status = [f"{phase} before round {d['round']}"]
    else:
        bonus = d["indicator"][d["round"] - 1]
        doing = f"keeps a piece of column {d['keep']['column']}" if phase == "keep" and d["keep"] else "to move"
        status = [f"round {d['round']}: {d['to_move']} {doing}", f"round bonus {names.get(bonus, bonus or '?')}"]
    status.append("first-player token in the centre" if d["token"] == "centre" else f"first-player token: {d['token']}")
    facs = " ".join(f"{i + 1}:{f or '-'}" for i, f in enumerate(d["factories"]))
    info = [(f"factories {facs}", True), (f"centre {d['centre'] or '-'}", True),
            ("bag " + " ".join(f"{k}{v}" for k, v in d["bag"].items()), True),
            ("tower " + " ".join(f"{k}{v}" for k, v in d["tower"].items()), True)]
    if d["keep"] is not None:
        info.append((f"to keep from column {d['keep']['column']}: {d['keep']['pieces']}", True))
    info.append(("colours " + " ".join(f"{ROMAN[i]}:{c or '?'}" for i, c in enumerate(d["indicator"])), True))
    info.append((" ".join(f"{k} {v}" for k, v in names.items()), True))
    out = [_styled(head[:WIDTH]), *[_styled("".join(t for t, _ in line)) for line in _pack([(x, False) for x in status], "; ")]]
    for line in _pack(info):
        spans: list[tuple[str, str]] = []
        for text, coloured in line:
            spans += _styled(text, letters if coloured else "")
        out.append(spans)
    for p, seat in enumerate(d["seats"]):
        out.append(_styled(f"{SEAT_LETTERS[p]}: {seat['score']} pts, track {seat['track']} "
                           f"({data.track[seat['track']]}), hits {seat['hits']}, glazier {seat['glazier']}"))
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
        out.append(_styled("   " + " ".join(strips), letters))
        out.append(_styled("   " + " ".join(windows), letters))
    assert all(sum(len(t) for t, _ in line) <= WIDTH for line in out)
    assert COLUMNS == 8
    return out


def render(d: dict[str, Any]) -> str:
    """`render_lines` as plain text: about 5 + 3 per seat lines of at most 80 characters."""
    return "\n".join("".join(t for t, _ in line).rstrip() for line in render_lines(d))
