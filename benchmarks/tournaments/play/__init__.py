"""A Swiss tournament played through the local Discord, for `tournament_swiss.py`.

- `members`: a server's members who create, join, start and play a Swiss by its buttons and
  their boards' cells, at people's pace (`Swiss`); when the local Discord saw a result shown
  and a board posted.
- `runs`: one tournament through the project's bot (`wire.client.WireBot`), measured round by
  round (time from the last result to the next boards, requests by kind), and the plain floor
  (`floors/game_bot.py --plain`) playing as many games at the same pace; each run's CPU.
"""
