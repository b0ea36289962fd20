"""Fixtures shared by several test modules."""

from __future__ import annotations

import os
import tempfile

import pytest
from typer.testing import CliRunner

from signal_helpers import keep_ignoring_for_this_process_only


def pytest_configure(config) -> None:
    """Launched in the background or under nohup, the session ignores SIGINT/SIGQUIT/SIGHUP: keep ignoring
    them here, but let every child a test starts begin with a terminal's signals (`signal_helpers`).

    `burano serve` keeps its games under $XDG_STATE_HOME by default: the tests (and the servers they start)
    get a directory of their own, so they never read or write the user's games."""
    keep_ignoring_for_this_process_only()
    os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="burano-test-state-")


@pytest.fixture
def runner() -> CliRunner:
    """Typer's runner for `cli.app`, with stdout and stderr kept apart."""
    try:
        return CliRunner(mix_stderr=False)   # click < 8.2 mixes the streams unless told not to
    except TypeError:
        return CliRunner()
