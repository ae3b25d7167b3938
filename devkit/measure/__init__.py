"""The load benchmarks' measurements: what the players do, and the instruments that time it.

- `instruments`: clocks, loop lag, collector pauses, save timings, CPU of processes and
  threads (nothing of SimCord; used in the benchmark's process and inside the bot's process
  of `wire.bot_process`); `memory`: memory by owner; `boards`: reading a board message.
- `simcord_kit`: the SimCord side (``load.py --discord simcord``, the bot in the benchmark's own
  process): the players' actions emitted, the answers timed, SimCord kept light;
  `simcord_runs`: `load.py`'s runs that way; `engine_lag`: its engine mode.
- `scenario`: the games and the players, the same whichever Discord the bot talks to;
  `traffic`: the traffic patterns (burst, eager, spread, alone).
- `run`: what one run measured, and its figures; `load_report`: `load.py`'s tables.
- `profiling`: where a bot process's CPU goes, by part of the click path (``--profile``).
"""
