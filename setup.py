"""Build the Cython core of burano-ai.

All static metadata is in pyproject.toml; this file only declares the
extension modules.  Every ``src_cython/burano_ai/**/<name>.pyx`` becomes the
extension named by its dotted path (``src_cython/burano_ai/search/_native.pyx``
-> ``burano_ai.search._native``); with no .pyx files the project builds as a
pure-Python package.  ``.pxd`` headers and ``.pxi`` files (Cython ``include``s
of ``_core.pyx``, one C compilation unit) are not modules: cythonize finds
them through ``include_path`` and the includes' directory.

Build modes
-----------
release (default)
    ``-O3``; Cython directives boundscheck, wraparound and initializedcheck
    off, cdivision on.
debug (environment ``BURANO_DEBUG=1``)
    ``-O0 -g``, boundscheck/wraparound/initializedcheck back on, and the C
    macro ``BURANO_DEBUG=1`` defined.  Cython code reads it through
    ``src_cython/burano_ai/_build.pxd`` (``BURANO_DEBUG_BUILD``), a verbatim
    C block, instead of the deprecated ``DEF``/``IF``/``compile_time_env``.

The two modes use separate build directories (``build/release``,
``build/debug``) so that switching modes never reuses generated C or object
files of the other mode (cythonize and build_ext only compare timestamps and
would otherwise keep a stale build).
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
CYTHON_SRC = "src_cython"  # relative: setuptools wants relative source paths
PACKAGE = "burano_ai"

DEBUG = os.environ.get("BURANO_DEBUG", "") == "1"
MODE = "debug" if DEBUG else "release"
BUILD_BASE = os.path.join("build", MODE)


def compiler_directives() -> dict[str, object]:
    """Cython directives for every extension module (set only here)."""
    return {
        "language_level": 3,
        "boundscheck": DEBUG,
        "wraparound": DEBUG,
        "initializedcheck": DEBUG,
        "cdivision": True,
    }


def extensions() -> list:
    """One Extension per src_cython/burano_ai/**/*.pyx, cythonized."""
    root = HERE / CYTHON_SRC
    pyx_files = sorted((root / PACKAGE).rglob("*.pyx"))
    if not pyx_files:
        return []

    # Imported only when there is something to compile; both are declared
    # in [build-system] requires.
    import numpy
    from Cython.Build import cythonize
    from setuptools import Extension

    if DEBUG:
        extra_compile_args = ["-O0", "-g", "-UNDEBUG"]
        define_macros = [("BURANO_DEBUG", "1")]
    else:
        extra_compile_args = ["-O3"]
        define_macros = []
    define_macros.append(("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"))

    exts = [
        Extension(
            ".".join(pyx.relative_to(root).with_suffix("").parts),
            sources=[pyx.relative_to(HERE).as_posix()],
            include_dirs=[CYTHON_SRC, numpy.get_include()],
            define_macros=define_macros,
            extra_compile_args=extra_compile_args,
        )
        for pyx in pyx_files
    ]
    return cythonize(
        exts,
        # .pxd files are looked up as burano_ai/<name>.pxd under src_cython/; .pxi next to the .pyx
        include_path=[CYTHON_SRC],
        compiler_directives=compiler_directives(),
        # Generated C stays out of the source tree, one folder per mode.
        build_dir=os.path.join(BUILD_BASE, "cython"),
        nthreads=min(len(exts), os.cpu_count() or 1) if len(exts) > 1 else 0,
        quiet=True,
    )


class ModeAwareBuildExt(build_ext):
    """build_ext that rebuilds a module whose existing binary was built in the other mode.

    Editable installs put the binaries next to the sources, where a debug and a release build would
    share one file: timestamps alone would keep a stale binary of the other mode. A `<binary>.mode`
    stamp records the mode of each binary; a mismatch forces a rebuild.
    """

    def run(self) -> None:
        stamps = [Path(self.get_ext_fullpath(ext.name) + ".mode") for ext in self.extensions]
        if any(stamp.exists() and stamp.read_text().strip() != MODE for stamp in stamps):
            self.force = True
        super().run()
        for stamp in stamps:
            if stamp.parent.exists():
                stamp.write_text(MODE + "\n")


setup(
    ext_modules=extensions(),
    cmdclass={"build_ext": ModeAwareBuildExt},
    options={
        "build": {"build_base": BUILD_BASE},
        # Compile the C of several extension modules in parallel.
        "build_ext": {"parallel": os.cpu_count() or 1},
    },
)
