"""The project's bot in a process of its own against the local Discord, measured from inside.

- `bot_process` (a script): the real bot (``create_bot``, the real discord.py) pointed at the
  local Discord, with the instruments of `measure` in its process, commanded over stdin
  (``begin``, ``end``, ``memory-begin``, ``memory-end``, ``rss``, ``stop``: one JSON line each).
- `client`: that process started, commanded and stopped (`WireBot`), the players through the
  local Discord's gateway (`WireDriver`), and one measured run (`wire_run`).
- `memory`: memory per live game in the bot's process (`wire_memory`).

The local Discord itself lives in ``devkit/localdiscord`` (shared with the tests). The
tests' own bot process (``devkit/local_game.py``: ``python -m bot`` exactly as a person
runs it, settings from the environment, stopped with SIGINT) is a different thing on purpose;
see benchmarks/README.md.
"""
