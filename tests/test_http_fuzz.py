"""The HTTP API campaign in CI (tests/http_fuzzing.py; long campaigns: scripts/fuzz_http.py): schemathesis
sends a few hundred generated requests, valid and broken, to every route of a real `burano serve`
(event streams aside). No 5xx, no request over the timeout, no traceback or internal error in the
server's log, the server still healthy, its memory bounded.
"""

from __future__ import annotations

import pytest

pytest.importorskip("schemathesis")
pytest.importorskip("fastapi")

import http_fuzzing as F  # noqa: E402


def test_schemathesis_finds_no_server_error(tmp_path):
    result = F.run(tmp_path, max_examples=5, seed=1)
    assert result["problems"] == [], result
    assert result["exit"] == 0
    assert result["cases"] >= 200, result          # the run really exercised the API
    assert result["operations"] >= 12


def test_every_post_route_has_a_request_body_schema():
    schema = F.openapi_schema()
    posts = [(path, method) for path, ops in schema["paths"].items() for method in ops if method == "post"]
    missing = [p for p in posts if "requestBody" not in schema["paths"][p[0]][p[1]]
               and not p[0].endswith("/stop")]
    assert posts and missing == []
