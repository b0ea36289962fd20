"""Fixtures shared by several test modules."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner


@pytest.fixture
def runner() -> CliRunner:
    """Typer's runner for `cli.app`, with stdout and stderr kept apart."""
    try:
        return CliRunner(mix_stderr=False)   # click < 8.2 mixes the streams unless told not to
    except TypeError:
        return CliRunner()
