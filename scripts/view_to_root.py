"""Time and count what `burano suggest FILE` does between reading a one-seat view and starting the search.

Runs in whatever burano_ai is importable (so the same script measures an older checkout with
``PYTHONPATH=/path/to/old``): it goes through the command line's own loading path and the engine's
`suggest`, stops it where the search would start (`run_search`), and reports the median time and the
number of JSON parses (`json.loads`), JSON dumps and Python position objects built on the way.

    python scripts/view_to_root.py [FILE] [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class _Stop(Exception):
    pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=None, help="a one-seat view (default: the built-in example)")
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    import cli
    import burano_ai
    from burano_ai import engine
    path = Path(args.file) if args.file else Path(burano_ai.__file__).parent / "games" / "burano" / "data" / "examples" / "midgame-4p-C.json"

    counts = {"json.loads": 0, "json.dumps": 0, "positions built": 0}
    real_loads, real_dumps = json.loads, json.dumps

    def loads(*a, **k):
        counts["json.loads"] += 1
        return real_loads(*a, **k)

    def dumps(*a, **k):
        counts["json.dumps"] += 1
        return real_dumps(*a, **k)

    if hasattr(cli, "_load"):                                    # after the re-layering: every Position
        from burano_ai.games.burano.position import Position as Counted
    else:                                                        # before: reference States
        from burano_ai.games.burano.reference.state import State as Counted
    real_init = Counted.__init__

    def init(self, *a, **k):
        counts["positions built"] += 1
        real_init(self, *a, **k)

    def stop(*_a, **_k):
        raise _Stop

    engine.run_search = stop

    def once() -> None:
        try:
            if hasattr(cli, "_load"):                             # after the re-layering
                state, view = cli._load(path)[-2:]                # (spec,) state, view
                engine.suggest(state, view=view)
            else:                                                 # before: the CLI's own loading, then text again
                text = cli._read_text(path)
                state = cli.load_state(text)
                view = cli._position_view(text)
                engine.suggest(state if view is None else text)
        except _Stop:
            return
        raise RuntimeError("the search did not start")

    once()
    json.loads, json.dumps, Counted.__init__ = loads, dumps, init
    once()
    json.loads, json.dumps, Counted.__init__ = real_loads, real_dumps, real_init
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        once()
        times.append(time.perf_counter() - t0)
    print(json.dumps({"tree": str(Path(cli.__file__).resolve().parent), "file": path.name,
                      "median_us": round(statistics.median(times) * 1e6, 1), **counts}))


if __name__ == "__main__":
    sys.exit(main())
