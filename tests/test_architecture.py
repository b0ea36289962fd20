"""The architecture contract (docs/architecture.md): one dependency direction, no cycles.

`lint-imports` checks the Python modules against the contracts in pyproject.toml ([tool.importlinter]);
the compiled modules are Cython source that import-linter cannot read, so their imports are checked
here against the same layers. A third test proves the contract bites: a copy of the package with one
forbidden import fails it.
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

#: Where each compiled module sits among the layers (the layer of the Python module named).
COMPILED_LAYER = {
    "burano_ai.games.burano._core": "burano_ai.games.burano.reference",        # a rules implementation, beside the reference
    "burano_ai._rng": "burano_ai.core.errors",             # a leaf
    "burano_ai.core._game": "burano_ai.core.errors",       # the C game interface: a leaf
    "burano_ai.search._native": "burano_ai.search",   # the search's C half
    "burano_ai.games.goofspiel._core": "burano_ai.games.goofspiel",            # Goofspiel's rules implementation
    "burano_ai.games.goofspiel._ops_check": "burano_ai.games.goofspiel",       # its test helper for the C interface
}
#: C headers: .pxd files without a .pyx (`_types`, `_build`), declarations below every layer, no module.
C_HEADERS = {".".join(pxd.relative_to(ROOT / "src_cython").with_suffix("").parts)
             for pxd in (ROOT / "src_cython").rglob("*.pxd") if not pxd.with_suffix(".pyx").exists()}
IMPORT = re.compile(r"^\s*(?:from\s+(burano_ai(?:\.\w+)*)\s+c?import|c?import\s+(burano_ai(?:\.\w+)*))", re.M)


def lint_imports(cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([LINT_IMPORTS, "--no-cache"], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def layer_of(module: str) -> int | None:
    """Index of the layer holding `module` or an ancestor of it (0 = top), or None if unlayered."""
    for i, layer in enumerate(LAYERS):
        for name in layer:
            if module == name or module.startswith(name + "."):
                return i
    return None


def test_python_modules_keep_the_contract():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "broken" not in result.stdout.lower().replace("0 broken", "")


def compiled_sources() -> dict[str, list[Path]]:
    """Compiled module name -> its Cython source files (.pyx, and the .pxi files it includes)."""
    src = ROOT / "src_cython"
    out: dict[str, list[Path]] = {}
    for pyx in src.rglob("*.pyx"):
        name = ".".join(pyx.relative_to(src).with_suffix("").parts)
        files = [pyx]
        for inc in re.findall(r'^include\s+"([^"]+)"', pyx.read_text(encoding="utf-8"), re.M):
            files.append(pyx.parent / inc)
        out[name] = files
    return out


def test_compiled_modules_import_only_lower_layers():
    sources = compiled_sources()
    assert set(COMPILED_LAYER) <= set(sources), sorted(sources)
    for name, files in sources.items():
        own = layer_of(COMPILED_LAYER[name])
        for path in files:
            for m in IMPORT.finditer(path.read_text(encoding="utf-8")):
                imported = m.group(1) or m.group(2)
                if imported == "burano_ai" or imported in COMPILED_LAYER or imported in C_HEADERS or imported == name:
                    continue
                assert not imported.startswith("burano_ai.games.burano.reference"), \
                    f"{path.name}: the compiled core and search never import the reference model ({imported})"
                target = layer_of(imported)
                assert target is not None, f"{path.name} imports {imported}, which is in no layer"
                same_package = imported.startswith(name.rsplit(".", 1)[0] + ".") and "." in name
                assert target > own or same_package, \
                    f"{path.name} ({name}) imports {imported}, a layer that is not below it"


def test_a_forbidden_import_breaks_the_contract(tmp_path):
    """The contract is not decorative: the search importing the reference model fails it."""
    shutil.copytree(ROOT / "burano_ai", tmp_path / "burano_ai",
                    ignore=shutil.ignore_patterns("*.so", "*.mode", "__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    with open(tmp_path / "burano_ai" / "search" / "limits.py", "a", encoding="utf-8") as f:
        f.write("\nfrom burano_ai.games.burano import reference  # noqa\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    result = lint_imports(tmp_path, env)
    assert result.returncode != 0
    assert "never import it BROKEN" in " ".join(result.stdout.split())


@pytest.mark.parametrize("module", ["burano_ai.search", "burano_ai.engine", "burano_ai.games.burano.notation"])
def test_importing_the_upper_layers_does_not_load_the_reference(module):
    code = f"import sys, {module}; print(any(m.startswith('burano_ai.games.burano.reference') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
