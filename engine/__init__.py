"""Pure, synchronous tic-tac-toe engine for boards from 3x3 to 5x5 (k in a row)."""
