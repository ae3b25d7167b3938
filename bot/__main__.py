"""Entry point: ``python -m bot`` or the ``tictactoe-bot`` console script."""

from __future__ import annotations

import sys


def main() -> int:
    """Start the bot (not built yet)."""
    print("tictactoe bot: not built yet", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
