"""Screenshots of the web board for docs/web.md: play (with the last moves marked), analyse, the editor,
the generic board, replay, a 4-player late game at 900, 1280 and 1920 px.

    python scripts/web_screenshots.py [--out docs/web] [--width 1280 --height 800]

Starts `burano serve`'s app on a free local port, drives Debian's Chromium with Playwright (the launch
flags of tests/web/conftest.py) and writes one PNG per view. Every game and search is seeded, so the
pictures change only when the board does.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from burano_ai.web.server import BackgroundServer  # noqa: E402
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (the browser the tests use)


def late_game_position() -> dict:
    from burano_ai import Game
    from burano_ai.random_play import play_randomly
    state = Game(4).new_initial_state(seed=21)
    play_randomly(state, random.Random(4),
                  until=lambda s: s.season == 3 and s.round == 3 and s.current_player() >= 0 and s.phase == 2)
    return state.to_dict(2)   # seat C's view


def play_until(page, season: str, rng: random.Random) -> None:
    """Play seat A by clicking its listed moves (one action a turn, then done) until `season`."""
    while True:
        p = page.evaluate("window.buranoPage()")
        view = page.evaluate("window.buranoState()")
        if view["season"] == season and view["phase"] == "turn" and p["legal"] or p["game"]["over"]:
            return
        legal = p["legal"]
        moves = view.get("context", {}).get("moves", 0)
        move = "done" if "done" in legal and moves >= 1 else rng.choice([m for m in legal if m != "done"] or legal)
        page.locator(f'#legal button[data-move="{move}"]').click()
        page.wait_for_function("""([v]) => { const p = window.buranoPage();
            return p.game.version > v && !p.game.thinking && (p.game.over || p.legal.length > 0); }""",
                               arg=[p["game"]["version"]])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "web")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=800)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    args.out.mkdir(parents=True, exist_ok=True)
    server = BackgroundServer()
    url = server.url
    profile = tempfile.mkdtemp(prefix="burano-shots-")
    try:
        with sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
                viewport={"width": args.width, "height": args.height})
            page = context.new_page()
            page.set_default_timeout(30_000)

            def shot(name: str) -> None:
                page.mouse.move(0, 0)
                page.screenshot(path=str(args.out / f"{name}.png"))
                print(f"wrote {args.out / name}.png")

            # Play: a 3-player game against two bots, into the summer.
            page.goto(f"{url}/?players=3&seed=7&seats=human,random,greedy")
            page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
            play_until(page, "summer", random.Random(3))
            # The last moves marked (the bots' turns since our decision), one bot step hovered in the log.
            recent = page.locator("#log li.recent")
            build = [i for i, t in enumerate(recent.all_inner_texts()) if ": build " in t]
            if recent.count():
                recent.nth(build[-1] if build else recent.count() - 1).hover()
                page.screenshot(path=str(args.out / "marks.png"))
                print(f"wrote {args.out / 'marks.png'}")
            legal = page.evaluate("window.buranoPage().legal")
            take = next((m for m in legal if m.startswith("take")), None)
            if take is not None:   # a cube in the preparation area, so that builds are offered
                version = page.evaluate("window.buranoPage().game.version")
                page.locator(f'#legal button[data-move="{take}"]').click()
                page.wait_for_function("([v]) => window.buranoPage().game.version > v", arg=[version])
                legal = page.evaluate("window.buranoPage().legal")
            hover = next((m for m in legal if m.startswith("build")), legal[0])
            page.locator(f'#legal button[data-move="{hover}"]').hover()
            page.screenshot(path=str(args.out / "play.png"))
            print(f"wrote {args.out / 'play.png'} (hovering {hover!r})")

            # Analyse the same position.
            page.click("#hint")
            page.wait_for_function("(() => { const a = window.buranoPage().analysis; return a && a.reports >= 3; })()")
            page.click("#analysis-stop")
            page.wait_for_function("window.buranoPage().analysis.done")
            page.locator("#candidates tbody tr").first.hover()
            page.screenshot(path=str(args.out / "analyse.png"))
            print(f"wrote {args.out / 'analyse.png'}")

            # The editor with a loader message next to its field.
            page.goto(f"{url}/?tab=editor")
            page.wait_for_function("window.buranoPage().editorValid")
            page.select_option("#ed-players", "2")
            page.click("#ed-deal")
            page.wait_for_function("window.buranoPage().editorValid && window.buranoPage().editor.players === 2")
            for hole in ("d4", "f4", "d6"):
                page.locator(f'#board [data-key="hole:{hole}"]').click()
            page.fill("#ed-B-coins", "-2")
            page.dispatch_event("#ed-B-coins", "change")
            page.locator("#ed-error").wait_for(state="visible")
            shot("editor")

            # The generic board (a game without a board module): Goofspiel, five rounds into a 3-player game.
            page.goto(f"{url}/?kind=goofspiel&players=3&seed=4&seats=human;ismcts:iterations=200,threads=1;random")
            page.wait_for_function("window.buranoPage().game && window.buranoPage().legal.length > 0")
            rng = random.Random(4)
            for _ in range(5):
                p = page.evaluate("window.buranoPage()")
                page.locator(f'#board button.gb-move[data-move="{rng.choice(p["legal"])}"]').click()
                page.wait_for_function("""([v]) => { const p = window.buranoPage();
                    return p.game.version > v && !p.game.thinking && p.legal.length > 0; }""", arg=[p["game"]["version"]])
            page.locator("#board button.gb-move").nth(3).hover()
            shot("generic")

            # Replay of the example record, seen by seat B and annotated for B by the engine (`burano
            # analyse --seat B --iterations 1000 --seed 1`), at B's first flagged move.
            from burano_ai.analysis import analyse
            from burano_ai.record import GameRecord
            from burano_ai.search import Limit
            record = GameRecord.load(ROOT / "burano_ai" / "games" / "burano" / "data" / "examples" / "game-2p.json")
            analyse(record, seat="B", limit=Limit(iterations=1000), seed=1).annotate(record)
            flagged = next((i for i, step in enumerate(record.steps) if (step.annotations or {}).get("flag")), 200)
            page.goto(f"{url}/?tab=replay")
            page.fill("#rp-json", record.to_json())
            page.select_option("#rp-seat", "B")
            page.click("#rp-open")
            page.wait_for_function("window.buranoPage().replay && window.buranoPage().replay.plies > 0")
            page.evaluate(f"(() => {{ const s = document.querySelector('#rp-slider'); s.value = {flagged}; "
                          "s.dispatchEvent(new Event('input')); })()")
            page.wait_for_function(f"window.buranoPage().replay.ply === {flagged}")
            shot("replay")

            # A 4-player late game (seat C's view) at three sizes (at 900 px the side panel is folded).
            for width, height in ((900, 800), (1280, 800), (1920, 1080)):
                page.set_viewport_size({"width": width, "height": height})
                page.goto(f"{url}/?tab=editor")
                page.wait_for_function("window.buranoPage().editorValid")
                page.evaluate("""([text]) => { const box = document.querySelector('#ed-json'); box.value = text;
                                 box.dispatchEvent(new Event('input')); }""", [json.dumps(late_game_position())])
                page.wait_for_function("window.buranoState() && window.buranoState().season === 'winter' "
                                       "&& window.buranoPage().editorValid")
                shot(f"late-game-4p-{width}x{height}")
            context.close()
    finally:
        server.stop()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
