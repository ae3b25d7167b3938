"""The playground's first minute, measured (figures printed, nothing asserted).

    python benchmarks/playground/playground_start.py [--runs 3]

Per run: seconds from starting ``python -m bot.playground`` (installed already) to its printed
address, then from that address to the first board on the page: Chromium (Debian's, headless)
opens the page, types ``/tictactoe`` and waits for the bot's board. A first run after an install
is measured by timing the README's first command to the same line by hand, e.g.

    time (python3 -m venv .venv && .venv/bin/pip install -e ".[playground]" &&
          .venv/bin/tictactoe-bot playground | grep -m1 "Playground ready")

then adding the page's part printed here.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from devkit.playground.page import last_message, run_command  # noqa: E402
from devkit.playground.process import NO_CHROMIUM, chromium, start_playground  # noqa: E402


def one_run(browser_path: str) -> tuple[float, float]:
    """(seconds to the printed address, seconds from the address to the first board)."""
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        playground = start_playground(cwd=Path(folder))
        ready = time.perf_counter()
        try:
            with sync_playwright() as driver:
                browser = driver.chromium.launch(executable_path=browser_path, headless=True)
                page = browser.new_page()
                page.goto(playground.url)
                run_command(page, "tictactoe")
                expect(last_message(page)).to_contain_text("your move", timeout=30_000)
                board = time.perf_counter()
                browser.close()
        finally:
            playground.stop()
    return ready - started, board - ready


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    path = chromium()
    if path is None:
        sys.exit(NO_CHROMIUM)
    runs = [one_run(path) for _ in range(args.runs)]
    for n, (to_url, to_board) in enumerate(runs, start=1):
        print(f"run {n}: address after {to_url:.2f} s, first board {to_board:.2f} s later")
    print(
        f"median: address {statistics.median(r[0] for r in runs):.2f} s, "
        f"first board {statistics.median(r[1] for r in runs):.2f} s after it"
    )


if __name__ == "__main__":
    main()
