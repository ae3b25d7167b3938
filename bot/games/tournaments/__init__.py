"""Tournaments, pure: their games as values (record), pairing a Swiss round (swiss), pairing an
arena's free players and its points (arena), and the standings of both (standings)."""
