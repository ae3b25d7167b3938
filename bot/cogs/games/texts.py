"""What the game flow tells a clicker when a change could not be saved or shown (in English,
translated into the clicker's language when sent)."""

from __future__ import annotations

from bot.i18n import N_

NOT_SAVED = N_("Sorry, I could not save that just now, so nothing changed. Please try again.")
UNSHOWN = N_(
    "Saved, but Discord would not let me update the board just now; "
    "it will catch up on its own shortly."
)
BOARD_GONE = N_(
    "The board message was deleted, so this game has ended. Start a new one with /tictactoe."
)
