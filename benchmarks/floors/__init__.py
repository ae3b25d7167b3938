"""The floors: the least a discord.py bot can do for the benchmarks' traffic, to measure the
project's bot against.

- `game_bot` (a script, run in a process of its own): the same `/tictactoe` and board as the
  project's bot, games in a dict; ``--plain`` builds the board as plain data, ``--durable`` adds
  one durable save of each change (`store`). Ultimate's rules and board are in `games`, its
  engine calls in `ultimate_engine`.
- `puzzle_bot` (a script): the same for `/tictactoe-puzzle` (`puzzle_load.py`).
- `tournament_bot` (a script): a Swiss through Discord, each game in its thread, with the same
  calls to Discord as the project's bot and nothing else (`tournament_swiss.py`).
- `compare`: the rounds that run the project's bot and the floors interleaved on the same
  workload, and their tables (`load.py --modes floor,gc,speed,pays`).

Each floor speaks to the local Discord exactly as the project's bot does (`wire.bot_process`:
same address changes, same commands on stdin), so the two compare like for like.
"""
