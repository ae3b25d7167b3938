"""``python -m bot.playground``: the playground, with no Discord token."""

from __future__ import annotations

from bot.playground.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
