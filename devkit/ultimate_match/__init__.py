"""Ultimate tic-tac-toe matches for `ultimate.py`: the engine against an independent baseline.

- `uct`: the baseline, a plain UCT search written in C (``uct.c``), compiled on first use into
  ``.build/`` here and loaded with ctypes.
- `games`: the rules cross-check between the two, one game, and many games in processes.
"""
