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


def test_campaign_repro_a_record_step_seat_that_is_a_list():
    # scripts/fuzz_protocol.py --seed 3 (stream 3000105, line 84): a record whose step has "seat": [...]
    # was an internal error (TypeError in the record loader) with a traceback on stderr; now one error line.
    import io
    import json

    from burano_ai.protocol import EngineServer
    record = json.loads((F.RECORDS / "blunder-2p.json").read_text())
    record["steps"][0]["seat"] = ["A"]
    out = io.StringIO()
    server = EngineServer(out, threads=1)
    server.handle_line(json.dumps({"id": "r", "position": record, "maxIterations": 5}))
    server.serve(io.BytesIO(b""))
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == 1 and answers[0]["id"] == "r"
    assert "seat" in answers[0]["error"] and "internal error" not in answers[0]["error"]


@pytest.mark.parametrize("seed", [3000096, 3000105])
def test_campaign_streams_pass(seed):
    # 3000096: a query and a control line with one id (the oracle's false finding); 3000105: the above.
    F.run_stream(F.stream_lines(seed, 500))
