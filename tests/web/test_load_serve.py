"""scripts/load_serve.py, briefly: a few simulated players play whole games through the HTTP API (event
streams included) against a real `burano serve`, which is killed with SIGKILL mid-run and restarted on its
store; nothing answered is lost, no request fails, and every finished game's kept record replays. The
figures of a full run (50 players, minutes) are in docs/reliability.md."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from signal_helpers import terminal_signals

REPO = Path(__file__).resolve().parents[2]


def test_a_short_load_run_with_a_kill_9_loses_nothing(tmp_path):
    out = tmp_path / "load.json"
    run = subprocess.run([sys.executable, "scripts/load_serve.py", "--players", "4", "--seconds", "5",
                          "--kill-at", "2.5", "--think", "0", "--kinds", "goofspiel", "--json", str(out)],
                         cwd=REPO, capture_output=True, text=True, timeout=240, preexec_fn=terminal_signals)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    report = json.loads(out.read_text())
    assert report["errors"] == 0 and report["lost_games"] == 0 and report["lost_steps"] == 0
    assert report["games_checked"] >= 4 and report["steps_checked"] > 0 and "restart_s" in report
    assert report["moves"]["count"] > 0 and report["reads"]["count"] > 0 and report["stream_events"] > 0
    assert report["finished"] >= 1 and report["replayed"] == report["finished_in_store"] >= 1
    assert report["rss_mb"]["max"] > 0
