"""Stateless discord.py pieces: the board message and its custom ids, reading a board back,
replies and apologies, permissions, the command tree."""
