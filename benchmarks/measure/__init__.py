"""The load benchmarks' measurements: what the players do, and the instruments that time it.

- `instruments`: clocks, loop lag, collector pauses, save timings, CPU of processes and
  threads, memory by owner, reading a board message (nothing of SimCord; used in the
  benchmark's process and inside the bot's process of `wire.bot_process`).
- `simcord_kit`: the SimCord side (``load.py --discord simcord``, the bot in the benchmark's own
  process): the players' actions emitted, the answers timed, SimCord kept light.
- `scenario`: the games, the players and the traffic patterns (burst, eager, spread, alone),
  the same whichever Discord the bot talks to.
- `run`: what one run measured, and its figures.
- `profiling`: where a bot process's CPU goes, by part of the click path (``--profile``).
"""
