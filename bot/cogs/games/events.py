"""The bot's own events, raised with ``bot.dispatch(NAME, ...)`` and heard by any cog with
``commands.Cog.listener(f"on_{NAME}")``: how the game core tells the features what happened
without knowing them."""

from __future__ import annotations

# A live game has ended and left memory, its result stored (its record): the tournaments count
# it, the puzzles look for its missed wins.
ENDED = "ttt_game_ended"
# A game's deadline has come (its id).
DEADLINE = "ttt_deadline"
# A game's board fails to show the stored game (its id): it is shown again until it does.
BEHIND = "ttt_board_behind"
# A new board is on screen (its game id).
POSTED = "ttt_board_posted"
# A game whose board is moved by reactions was saved (the game record): the keys under the board
# follow it.
KEYED_SAVE = "ttt_keyed_game_saved"
