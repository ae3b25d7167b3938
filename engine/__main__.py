"""`python -m engine`: play in the terminal or analyse a position."""

from __future__ import annotations

import sys

from engine.cli import main

if __name__ == "__main__":
    sys.exit(main())
