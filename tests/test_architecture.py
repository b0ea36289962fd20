"""The architecture contract (docs/architecture.md): one dependency direction, games behind a registry.

`lint-imports` checks the Python modules against the contracts in pyproject.toml ([tool.importlinter]):
the framework's layers, the framework reaching a game only through the registry, games independent
of each other, Burano's own layers, the reference models as oracles, no cycles. The compiled modules
are Cython source that import-linter cannot read, so their imports are checked here against the same
rules. The last tests prove the contracts bite: a copy of the package with one forbidden import (in
Python or in a .pyx) fails them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")

CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
LAYERS = [[m.strip() for m in re.split(r"[|:]", layer)] for layer in CONFIG["contracts"][0]["layers"]]
IMPORT = re.compile(r"^\s*(?:from\s+(burano_ai(?:\.\w+)*)\s+c?import|c?import\s+(burano_ai(?:\.\w+)*))", re.M)
GAMES = "burano_ai.games."


def lint_imports(cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([LINT_IMPORTS, "--no-cache"], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def layer_of(module: str) -> int | None:
    """Index of the framework layer holding `module` or an ancestor of it (0 = top), or None if unlayered."""
    if module == "burano_ai._rng":          # the shared RNG: a leaf below core (core._game seeds it)
        return len(LAYERS)
    for i, layer in enumerate(LAYERS):
        for name in layer:
            if module == name or module.startswith(name + "."):
                return i
    return None


def game_of(module: str) -> str | None:
    """The game package a module belongs to (`burano_ai.games.burano`), or None for the framework."""
    if not module.startswith(GAMES):
        return None
    return GAMES + module[len(GAMES):].split(".")[0]


def compiled_sources(src: Path) -> dict[str, list[Path]]:
    """Compiled module name -> its Cython source files (.pyx, and the .pxi files it includes)."""
    out: dict[str, list[Path]] = {}
    for pyx in src.rglob("*.pyx"):
        name = ".".join(pyx.relative_to(src).with_suffix("").parts)
        files = [pyx]
        for inc in re.findall(r'^include\s+"([^"]+)"', pyx.read_text(encoding="utf-8"), re.M):
            # as Cython looks: next to the .pyx, then on the include path (src_cython/, setup.py)
            files.append(pyx.parent / inc if (pyx.parent / inc).exists() else src / inc)
        out[name] = files
    return out


def compiled_violations(src: Path) -> list[str]:
    """Every import of a compiled module (or a .pxd it cimports) that breaks the contracts."""
    headers = {".".join(pxd.relative_to(src).with_suffix("").parts) for pxd in src.rglob("*.pxd")}
    problems = []
    for name, files in compiled_sources(src).items():
        own = layer_of(name)
        if own is None:
            problems.append(f"{name} is in no layer")
            continue
        for path in files:
            for m in IMPORT.finditer(path.read_text(encoding="utf-8")):
                imported = m.group(1) or m.group(2)
                if imported in ("burano_ai", name):
                    continue
                where = f"{path.name} ({name}) imports {imported}"
                if ".reference" in imported:
                    problems.append(f"{where}: the compiled cores and the search never import a reference model")
                if game_of(imported) is not None and game_of(imported) != game_of(name):
                    problems.append(f"{where}: " + ("games are independent of each other" if game_of(name)
                                                    else "the framework reaches a game only through the registry"))
                    continue
                if game_of(imported) is not None or imported.startswith(name.rsplit(".", 1)[0] + "."):
                    continue            # its own game or package
                target = layer_of(imported)
                if target is None and imported not in headers:
                    problems.append(f"{where}, which is in no layer")
                elif target is not None and target <= own:
                    problems.append(f"{where}, a layer that is not below it")
    return problems


def copy_of_the_package(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "burano_ai", tmp_path / "burano_ai",
                    ignore=shutil.ignore_patterns("*.so", "*.mode", "__pycache__"))
    shutil.copytree(ROOT / "src_cython", tmp_path / "src_cython")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_python_modules_keep_the_contract():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "broken" not in result.stdout.lower().replace("0 broken", "")


def test_compiled_modules_keep_the_contract():
    sources = compiled_sources(ROOT / "src_cython")
    assert {"burano_ai.search._native", "burano_ai.core._game", "burano_ai.games.burano._core",
            "burano_ai.games.goofspiel._core"} <= set(sources), sorted(sources)
    assert compiled_violations(ROOT / "src_cython") == []


def test_the_native_tree_cimports_no_game():
    text = (ROOT / "src_cython/burano_ai/search/_native.pyx").read_text(encoding="utf-8")
    assert not [m for m in IMPORT.finditer(text) if game_of(m.group(1) or m.group(2) or "")]


@pytest.mark.parametrize("where, line, broken", [
    ("search/limits.py", "from burano_ai.games.burano import reference", "never import them BROKEN"),
    ("search/limits.py", "from burano_ai.games.goofspiel import rules", "only through the registry BROKEN"),
    ("session.py", "import burano_ai.games.burano.notation", "only through the registry BROKEN"),
    ("games/goofspiel/rules.py", "from burano_ai.games.burano import enums", "independent of each other BROKEN"),
    ("core/seats.py", "from burano_ai import engine", "only the ones below it BROKEN"),
])
def test_a_forbidden_import_breaks_the_contract(tmp_path, where, line, broken):
    """The contracts are not decorative: one forbidden import in a copy of the package fails them."""
    copy = copy_of_the_package(tmp_path)
    with open(copy / "burano_ai" / where, "a", encoding="utf-8") as f:
        f.write(f"\n{line}  # noqa\n")
    result = lint_imports(copy, dict(os.environ, PYTHONPATH=str(copy)))
    assert result.returncode != 0
    assert broken in " ".join(result.stdout.split())


@pytest.mark.parametrize("pyx, line, problem", [
    ("search/_native.pyx", "from burano_ai.games.burano._core cimport State", "only through the registry"),
    ("games/goofspiel/_core.pyx", "import burano_ai.games.burano.actions as _A", "independent of each other"),
    ("games/burano/_core.pyx", "import burano_ai.games.burano.reference as _ref", "never import a reference model"),
    ("core/_game.pyx", "from burano_ai.search import params", "not below it"),
])
def test_a_forbidden_cimport_breaks_the_contract(tmp_path, pyx, line, problem):
    copy = copy_of_the_package(tmp_path)
    with open(copy / "src_cython" / "burano_ai" / pyx, "a", encoding="utf-8") as f:
        f.write(f"\n{line}\n")
    problems = compiled_violations(copy / "src_cython")
    assert len(problems) == 1 and problem in problems[0], problems


@pytest.mark.parametrize("module", ["burano_ai.search", "burano_ai.engine", "burano_ai.games.burano.notation",
                                    "burano_ai.games.goofspiel.position"])
def test_importing_the_upper_layers_does_not_load_a_reference_model(module):
    code = f"import sys, {module}; print(any('.reference' in m for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         timeout=120).stdout
    assert out.strip() == "False"


# ------------------------------------------------------------------------------------------------
# The contracts cover every registered game without naming it


#: The fields of a contract that say which modules it holds.
MODULE_FIELDS = ("source_modules", "forbidden_modules", "modules", "ancestors", "layers")


def game_packages() -> dict[str, str]:
    """Registered game key -> its package (`burano_ai.games.<folder>`), from its implementations' modules."""
    from burano_ai.games import all_specs
    return {spec.key: game_of(next(iter(spec.implementations.values())).split(":")[0]) for spec in all_specs()}


def matches(expression: str, module: str) -> bool:
    """Whether import-linter's module expression (`*` one name, `**` any number) holds `module` or an
    ancestor of it (contracts treat modules as packages)."""
    pattern = re.escape(expression).replace(r"\*\*", r"[\w.]+").replace(r"\*", r"\w+")
    return re.fullmatch(pattern + r"(\..+)?", module) is not None


def contracts_naming_a_game(contracts: list[dict], packages: list[str]) -> list[str]:
    """Every module expression of a contract that is not one game's own (`containers`) naming a game."""
    found = []
    for contract in contracts:
        if contract.get("containers"):
            continue                    # a game's own layers, inside its package
        for field in MODULE_FIELDS:
            for entry in contract.get(field, []):
                for expression in re.split(r"[|:]", entry):
                    expression = expression.strip()
                    if any(expression == p or expression.startswith(p + ".") for p in packages):
                        found.append(f"{contract['name']}: {field} names {expression}")
    return found


def test_no_contract_names_a_game_one_by_one():
    """The generic contracts are written with wildcards: adding a game changes none of them."""
    assert contracts_naming_a_game(CONFIG["contracts"], list(game_packages().values())) == []


def test_a_contract_naming_a_game_is_found():
    """The check above bites: a list of games written one by one is reported, entry by entry."""
    contract = {"name": "oracles", "source_modules": ["burano_ai.search", "burano_ai.games.goofspiel.position"],
                "forbidden_modules": ["burano_ai.games.*.reference"]}
    assert contracts_naming_a_game([contract], list(game_packages().values())) == \
        ["oracles: source_modules names burano_ai.games.goofspiel.position"]


@pytest.mark.parametrize("key", sorted(game_packages()))
def test_every_registered_game_is_under_every_contract(key):
    """A game the wildcards miss (a reference model elsewhere than `<game>.reference`) fails here, not
    silently in `lint-imports`."""
    from burano_ai.games import get_spec
    spec, package = get_spec(key), game_packages()[key]
    by_name = {c["name"]: c for c in CONFIG["contracts"]}
    assert any(matches(e, package) for e in by_name["Games are independent of each other"]["modules"])
    assert any(matches(e, package) for e in by_name["No import cycles between the modules of any package"]["ancestors"])
    assert any(matches(e, package) for e in by_name["The framework reaches a game only through the registry"]
               ["forbidden_modules"])
    reference = spec.implementations.get("reference", "").split(":")[0]
    for name in ("The reference models are oracles: the search, the engine and the position layers never import them",
                 "Bots and the arena take the rules they are given"):
        forbidden = by_name[name]["forbidden_modules"]
        assert not reference or any(matches(e, reference) for e in forbidden), f"{name}: {reference} is not covered"
