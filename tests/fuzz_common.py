"""What the fuzzing harnesses share (tests/fuzzing.py, state_fuzzing.py, protocol_fuzzing.py,
http_fuzzing.py): the `Finding` they raise and the resident-memory reading of a child process.

Test/tool code, imported as a top-level module (tests/ is on the path of the tests and the scripts).
"""

from __future__ import annotations

from pathlib import Path


class Finding(Exception):
    """A property violation: `kind` names the oracle that failed ('exception', 'invariant', 'divergence',
    'hang', 'memory' ...), `message` what it saw."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind, self.message = kind, message


def rss_mb(pid: int) -> float:
    """The resident memory of process `pid` in MiB (0.0 once it has gone: /proc no longer has it)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0
