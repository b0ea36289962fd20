"""The engine's garbage stream in CI (tests/protocol_fuzzing.py; long campaigns: scripts/fuzz_protocol.py):
random bytes, broken and mutated JSON, queries of every position form and control lines into a real
`burano engine` over pipes. Every query ends with exactly one final line, every control line is answered,
pings are answered (no hang), no traceback, every output line matches the schema, memory stays bounded.
"""

from __future__ import annotations

import pytest

import protocol_fuzzing as F


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_garbage_stream_is_answered_line_by_line(seed):
    counts = F.run_stream(F.stream_lines(seed, 300))
    assert counts["queries"] > 50 and counts["controls"] > 20
    assert counts["final_reports"] > 10 and counts["errors"] > 100      # both paths were exercised
    assert counts["max_rss_mb"] < F.MAX_RSS_MB


def test_the_stream_is_a_function_of_its_seed():
    assert F.stream_lines(5, 60) == F.stream_lines(5, 60)
    assert F.stream_lines(5, 60) != F.stream_lines(6, 60)
