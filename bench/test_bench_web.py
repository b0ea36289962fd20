"""The web board's speed: a move's round trip through the API, page load and click-to-board in Chromium.

    python -m pytest bench/test_bench_web.py --benchmark-only   # the API round trip (in process)
    python bench/test_bench_web.py                               # end to end in Debian's Chromium

Targets (issue 14): page load to an interactive board <= 1 s on localhost; a move's round trip
(click -> new board, bots excluded) <= 100 ms.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def client():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from burano_ai.web.app import create_app
    with TestClient(create_app(), base_url="http://127.0.0.1") as c:   # a loopback Host, as the board requires
        yield c


def test_move_round_trip_api(benchmark, client):
    """POST a pyramid move (seat A builds 14 in a row: no bot in between) and get the new payload."""
    def setup():
        game = client.post("/api/games", json={"players": 2, "seed": 1, "seats": ["human", "random"]}).json()
        client.headers["X-Burano-Token"] = game["tokens"]["A"]   # seat A's routes need its token
        for kind in ("pick island", "pick workshop", "pick flat"):
            game = client.post(f"/api/games/{game['game']}/move", json={"move": kind}).json()
        while not game["legal"]:
            game = client.get(f"/api/games/{game['game']}").json()
            time.sleep(0.01)
        return (game,), {}

    def move(game):
        response = client.post(f"/api/games/{game['game']}/move", json={"move": game["legal"][0]})
        assert response.status_code == 200

    benchmark.pedantic(move, setup=setup, rounds=30)


def browser_numbers(loads: int = 10, moves: int = 12) -> dict:
    """Page load to an interactive board and click-to-new-board times, measured in Chromium."""
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT))
    from burano_ai.web.server import BackgroundServer
    from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS
    server = BackgroundServer()
    url = server.url
    load_ms, move_ms = [], []
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(tempfile.mkdtemp(), executable_path=CHROMIUM,
                                                        args=CHROMIUM_ARGS, headless=True,
                                                        viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.goto(f"{url}/?tab=editor")   # warm up the server and the browser cache once
        for i in range(loads):
            page.goto(f"{url}/?players=2&seed={i}&seats=human,random")
            page.wait_for_function("document.querySelector('#board [data-key].legal') !== null", polling=5)
            load_ms.append(page.evaluate("performance.now()"))
        # The roof picks (each with its chance event), then seat A's pyramid: no bot moves in between.
        for _ in range(moves):
            ms = page.evaluate("""async () => {
                const p = window.buranoPage(); const v = p.game.version;
                const el = document.querySelector('#board [data-key].legal');
                const t0 = performance.now();
                el.dispatchEvent(new MouseEvent('click', {bubbles: true}));
                while (window.buranoPage().game.version === v) await new Promise(r => setTimeout(r, 0));
                await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));   // painted
                return performance.now() - t0;
            }""")
            move_ms.append(ms)
            if page.evaluate("window.buranoPage().game.thinking"):
                break
        context.close()
    server.stop()
    return {"load_ms": load_ms, "move_ms": move_ms}


if __name__ == "__main__":
    numbers = browser_numbers()
    for name, values in numbers.items():
        print(f"{name}: median {statistics.median(values):.0f}, max {max(values):.0f} over {len(values)} "
              f"({', '.join(f'{v:.0f}' for v in values)})")
