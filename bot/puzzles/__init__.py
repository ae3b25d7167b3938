"""Puzzles: positions where the side to move wins by force, the daily puzzle, ratings and
streaks, and the wins players missed in their games kept as their server's puzzles.

Pure: ``model`` (attempts, players, how an attempt settles ratings and streaks). Storage:
``store`` (its schema step, statements and calls, written once for both databases). Discord
pieces without storage: ``board``. The cogs and their parts: ``command``, ``attempts``,
``answers``, ``posting`` (the daily post), ``missed`` (the missed wins of a finished game);
``extension`` builds them and registers the boards' custom-id prefix with the click router.
"""
