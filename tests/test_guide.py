"""docs/adding-a-game.md stays true: its quoted code, paths, tables, commands and position are the code's.

Each check reads the guide's text and returns the problems it finds (empty: the guide is true), so the
same checks run on the guide and on doctored copies of it, which prove that each one bites:

- a fenced block after ``<!-- excerpt: PATH -->`` is PATH's text, verbatim;
- the cimports the guide lists are every name the shared ``_ops_glue.pxi`` uses from the headers;
- every backticked repository path exists (``build/`` is generated, placeholders like ``<key>`` skipped);
- the required-declaration table is ``core.game.DECLARATION``, in order, with Kuhn poker's values;
- the State API table names exactly the members of the ``core.game.State`` Protocol, the hook table
  the hooks of ``HistoryState``, and each row says truly whether Kuhn poker writes or inherits it;
- the ``GameSpec`` table names exactly the Protocol's members besides the declaration;
- every ``burano`` command parses with the real CLI, every other command names files that exist;
- a JSON block after ``<!-- position: KEY -->`` loads as that game's position and writes back the same.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import shlex
from pathlib import Path

import pytest

from burano_ai.core import game as core_game
from burano_ai.core.history import HistoryState
from burano_ai.games import get_spec
from burano_ai.games.kuhn_poker.game import State as KuhnState

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
#: A fenced block, with the HTML comment on the line before it if there is one.
BLOCK = re.compile(r"(?:<!-- (\w+): (\S+) -->\n)?```(\w*)\n(.*?)\n```", re.S)
#: A path in backticks: a slash, no spaces; placeholders (<key>, *) and URLs (leading /) are skipped.
PATH = re.compile(r"`([\w.-]+(?:/[\w.-]*)+)`")


def blocks(text: str, lang: str | None = None) -> list[tuple[str | None, str | None, str, str]]:
    """The fenced blocks of `text` as (marker kind, marker value, language, body), of `lang` if given."""
    found = [(m.group(1), m.group(2), m.group(3), m.group(4)) for m in BLOCK.finditer(text)]
    return [b for b in found if lang is None or b[2] == lang]


def section(text: str, heading: str) -> str:
    """The text under the `### heading` (or `## heading`) up to the next heading of any level."""
    start = text.index(heading + "\n")
    following = re.search(r"\n#{2,3} ", text[start + len(heading):])
    return text[start:start + len(heading) + (following.start() if following else len(text))]


def table_rows(text: str) -> list[list[str]]:
    """The body rows of the first Markdown table in `text`, as lists of cells."""
    lines = text[text.index("\n|"):].splitlines()[1:]
    lines = lines[:next((i for i, line in enumerate(lines) if not line.startswith("|")), len(lines))]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def member_names(cell: str) -> list[str]:
    """The member names a table cell writes in backticks: `x()`, `y(seat=None)`, `z`."""
    return re.findall(r"`(\w+)", cell)


def protocol_members(protocol: type) -> set[str]:
    return {n for n in vars(protocol) if not n.startswith("_")} | set(getattr(protocol, "__annotations__", {}))


# --- the checks


def excerpt_problems(text: str) -> list[str]:
    out = []
    marked = [b for b in blocks(text) if b[0] == "excerpt"]
    if not marked:
        out.append("no excerpt blocks: the guide quotes no code")
    for _kind, path, _lang, body in marked:
        file = ROOT / path
        if not file.is_file():
            out.append(f"excerpt of {path}: no such file")
        elif body not in file.read_text(encoding="utf-8"):
            lines = body.splitlines()
            wrong = next((line for line in lines if line not in file.read_text(encoding="utf-8")), lines[0])
            out.append(f"excerpt of {path} is not its text (first line that differs: {wrong.strip()!r})")
    for _kind, _value, _lang, body in [b for b in blocks(text, "python") if b[0] != "excerpt"]:
        try:
            ast.parse(body)
        except SyntaxError as exc:
            out.append(f"a python block does not parse: {exc}")
    return out


def _declared(pxd: Path) -> set[str]:
    src = pxd.read_text(encoding="utf-8")
    return set(re.findall(r"(?:ctypedef struct|cdef struct|cdef class)\s+(\w+)", src)) | \
        set(re.findall(r"^\s+([A-Z][A-Z0-9_]+)\s*=", src, re.M))


def cimport_problems(text: str) -> list[str]:
    """The guide's cimport block names every header name `_ops_glue.pxi` uses, and only names that exist."""
    listed = [body for kind, _v, _lang, body in blocks(text, "cython") if kind != "excerpt" and "cimport" in body]
    if len(listed) != 1:
        return [f"expected one cython block of cimports, found {len(listed)}"]
    cimported: dict[str, set[str]] = {}
    for module, names in re.findall(r"from\s+([\w.]+)\s+cimport\s+(\([^)]*\)|[^\n]*)", listed[0]):
        cimported.setdefault(module, set()).update(re.findall(r"\w+", names))
    out = []
    glue = set(re.findall(r"\w+", (ROOT / "src_cython/burano_ai/core/_ops_glue.pxi").read_text(encoding="utf-8")))
    for module in ("burano_ai.core._game", "burano_ai._rng"):
        declared = _declared(ROOT / "src_cython" / (module.replace(".", "/") + ".pxd"))
        for name in sorted((glue & declared) - cimported.get(module, set())):
            out.append(f"_ops_glue.pxi uses {name} from {module}, which the guide's cimports lack")
        for name in sorted(cimported.get(module, set()) - declared):
            out.append(f"the guide cimports {name} from {module}, which does not declare it")
    for name in sorted({n for n in glue if re.fullmatch(r"u?int\d+_t", n)} - cimported.get("libc.stdint", set())):
        out.append(f"_ops_glue.pxi uses {name}, which the guide does not cimport from libc.stdint")
    return out


def path_problems(text: str) -> list[str]:
    out = []
    for path in sorted(set(PATH.findall(text))):
        if path.startswith("build/") or "<" in path:
            continue                        # generated by a build; a placeholder
        if not (ROOT / path).exists():
            out.append(f"the guide names {path}, which does not exist")
    return out


def declaration_problems(text: str) -> list[str]:
    rows = table_rows(section(text, "### 2.1 The required declaration (`core.game.DECLARATION`)"))
    names = [member_names(row[0])[0] for row in rows]
    out = [] if names == list(core_game.DECLARATION) else \
        [f"the declaration table lists {names}, core.game.DECLARATION is {list(core_game.DECLARATION)}"]
    spec = get_spec("kuhn-poker")
    for row in rows:
        name, value = member_names(row[0])[0], re.match(r"`([^`]*)`", row[1])
        if value is None:
            out.append(f"the declaration table gives no expression for Kuhn poker's {name}")
            continue
        for n in range(spec.min_players, spec.max_players + 1):
            try:
                written = eval(value.group(1), {"__builtins__": {}}, {"n": n})   # the guide's own text
            except Exception as exc:
                out.append(f"the declaration table's {value.group(1)!r} for {name}: {exc}")
                break
            if not hasattr(spec, name):
                out.append(f"Kuhn poker's spec has no {name}")
                break
            actual = getattr(spec, name)
            actual = actual(n) if callable(actual) else actual
            if written != (type(written)(actual) if isinstance(written, (set, dict, tuple)) else actual):
                out.append(f"the declaration table gives Kuhn poker's {name} as {value.group(1)}, "
                           f"the spec has {actual!r} ({n} players)")
                break
    return out


def state_table_problems(text: str) -> list[str]:
    out = []
    body = section(text, "### 2.2 The State API (`core.game.State`)")
    rows = table_rows(body)
    named = {name: row[2] for row in rows for name in member_names(row[0])}
    expected = protocol_members(core_game.State)
    for name in sorted(expected - set(named)):
        out.append(f"the State table lacks {name} (core.game.State has it)")
    for name in sorted(set(named) - expected):
        out.append(f"the State table names {name}, which core.game.State does not have")
    own = vars(KuhnState)
    state = get_spec("kuhn-poker").new_game(2).new_initial_state()     # `game` is an instance attribute
    for name, origin in named.items():
        if name not in expected:
            continue
        if origin == "game" and name not in own:
            out.append(f"the State table says Kuhn poker writes {name}; it inherits it")
        if origin.startswith("`HistoryState`") and (name in own or not hasattr(state, name)):
            out.append(f"the State table says {name} comes from HistoryState; it does not")
    hooks = table_rows(body[body.index("What a `HistoryState` subclass writes"):])
    for row in hooks:
        for name in member_names(row[0]):
            if not hasattr(HistoryState, name):
                out.append(f"the hook table names {name}, which HistoryState does not have")
            elif (row[1] == "written") != (name in own):
                out.append(f"the hook table says Kuhn poker's {name} is {row[1]}; it is not")
    return out


def spec_table_problems(text: str) -> list[str]:
    rows = table_rows(section(text, "### 2.3 The rest of `GameSpec`: defaults in `SpecBase`"))
    named = {name for row in rows for name in member_names(row[1])}
    expected = protocol_members(core_game.GameSpec) - set(core_game.DECLARATION)
    out = [f"the GameSpec table lacks {n}" for n in sorted(expected - named)]
    out += [f"the GameSpec table names {n}, which is not a GameSpec member besides the declaration"
            for n in sorted(named - expected)]
    spec = get_spec("kuhn-poker")
    out += [f"Kuhn poker's spec has no {n}" for n in sorted(named) if not hasattr(spec, n)]
    return out


def _cli_command():
    import typer
    import cli
    return typer.main.get_command(cli.app)


def command_problems(text: str) -> list[str]:
    """Each line of a bash block: `burano` commands parse with the CLI (not run); the others' files exist."""
    out = []
    group = None
    for _kind, _value, _lang, body in blocks(text, "bash"):
        for line in body.splitlines():
            words = shlex.split(line, comments=True)
            env = [w for w in words if re.fullmatch(r"[A-Z_]+=\S*", w)]
            words = words[len(env):]
            if not words:
                continue
            if words[0] == "burano":
                group = group or _cli_command()
                command = group.get_command(None, words[1]) if len(words) > 1 else None
                if command is None:
                    out.append(f"{line!r}: no such burano command")
                    continue
                try:
                    command.make_context(words[1], words[2:])
                except Exception as exc:      # click's usage errors (typer vendors its own click)
                    out.append(f"{line!r}: {exc}")
            elif words[:3] == ["python", "-m", "pytest"]:
                for arg in words[3:]:
                    if not arg.startswith("-") and "/" in arg and not (ROOT / arg.split("::")[0]).exists():
                        out.append(f"{line!r}: no {arg}")
            elif words[0] == "python" and len(words) > 2 and words[1].endswith(".py"):
                script = ROOT / words[1]
                if not script.is_file():
                    out.append(f"{line!r}: no {words[1]}")
                    continue
                if words[1] == "setup.py" and importlib.util.find_spec(f"setuptools.command.{words[2]}") is None:
                    out.append(f"{line!r}: setuptools has no command {words[2]}")
                for assignment in env:
                    name = assignment.partition("=")[0]
                    if name not in script.read_text(encoding="utf-8"):
                        out.append(f"{line!r}: {words[1]} does not read {name}")
            else:
                out.append(f"{line!r}: a command this test does not know how to check")
    return out


def position_problems(text: str) -> list[str]:
    out = []
    for _kind, key, _lang, body in [b for b in blocks(text, "json") if b[0] == "position"]:
        try:
            data = json.loads(body)
            state, seat = get_spec(key).load_position(data)
        except Exception as exc:
            out.append(f"the {key} position does not load: {exc}")
            continue
        if state.to_dict(seat) != data:
            out.append(f"the {key} position loads, but writes back as {state.to_json(seat)}")
    return out


CHECKS = [excerpt_problems, cimport_problems, path_problems, declaration_problems, state_table_problems,
          spec_table_problems, command_problems, position_problems]


@pytest.mark.parametrize("check", CHECKS, ids=[c.__name__ for c in CHECKS])
def test_the_guide_is_true(check):
    assert check(GUIDE) == []


def _doctored(old: str, new: str) -> str:
    assert GUIDE.count(old) >= 1, f"the doctoring target {old!r} is not in the guide"
    return GUIDE.replace(old, new, 1)


DOCTORED = [
    # quoted code that drifted from its file
    (excerpt_problems, "        self.ante = [1] * n\n", "        self.ante = [2] * n\n", "is not its text"),
    (excerpt_problems, "<!-- excerpt: burano_ai/games/kuhn_poker/spec.py -->",
     "<!-- excerpt: burano_ai/games/kuhn_poker/specs.py -->", "no such file"),
    # a cimport dropped, one invented
    (cimport_problems, "OPS_PLAYOUT_DEAD_END,\n", "\n", "OPS_PLAYOUT_DEAD_END"),
    (cimport_problems, "from burano_ai._rng cimport Rng", "from burano_ai._rng cimport Rng, rng_magic",
     "rng_magic"),
    # a path that moved
    (path_problems, "`tests/openspiel_lockstep.py`", "`tests/openspiel_lockstep_gone.py`", "does not exist"),
    # a declaration member renamed, a value that drifted
    (declaration_problems, "| `utility` |", "| `utility_model` |", "core.game.DECLARATION is"),
    (declaration_problems, '| `title` | `"Kuhn poker"` |', '| `title` | `"Kuhn Poker"` |', "title"),
    (declaration_problems, "`(2, n + 1)`", "`(2, n + 2)`", "action_counts"),
    (declaration_problems, "`(-2, 2 * (n - 1))`", "`(-2, 2 * n)`", "payoff_range"),
    # a State member missing, one invented, one's origin wrong
    (state_table_problems, "| `clone()` | an independent copy | `HistoryState` |\n", "", "lacks clone"),
    (state_table_problems, "| `clone()` |", "| `clone()`, `copy_to()` |", "copy_to"),
    (state_table_problems, "| `returns()` | per the utility model: win shares, or payoffs | game |",
     "| `returns()` | per the utility model: win shares, or payoffs | `HistoryState` |", "returns"),
    (state_table_problems, "| `_revealed()` | written |", "| `_revealed()` | inherited |", "_revealed"),
    # a GameSpec member missing
    (spec_table_problems, "`why_illegal`, ", "", "lacks why_illegal"),
    # a command that no longer parses
    (command_problems, "burano random-game --game kuhn-poker --seed 1",
     "burano random-game --game kuhn-poker --seed 1 --fast", "--fast"),
    (command_problems, "python -m pytest -q tests/games/kuhn_poker\n",
     "python -m pytest -q tests/games/kuhn\n", "no tests/games/kuhn"),
    # a position that does not load
    (position_problems, '"history": ["?", "deal J", "pass", "bet"]', '"history": ["?", "deal J", "bet", "bet", "x"]',
     "does not load"),
]


@pytest.mark.parametrize("check,old,new,problem", DOCTORED,
                         ids=[f"{c.__name__}-{i}" for i, (c, *_rest) in enumerate(DOCTORED)])
def test_a_doctored_guide_fails(check, old, new, problem):
    found = check(_doctored(old, new))
    assert any(problem in p for p in found), found
