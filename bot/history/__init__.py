"""A player's history: their past games (each opened as a picture and a replay), their stats
and the server's leaderboard, and the rating chart.

Pure: ``chart`` (the chart drawn with Pillow, and its alt text). Storage: ``store`` (the reads
of a player's games and ratings, written once for both databases; the rating history itself is
written by the games' save, ``bot.storage.rating_history``). Discord pieces without storage:
``board`` (the history page and its buttons). The cogs: ``games`` (/tictactoe-history),
``stats`` (/tictactoe-stats, /tictactoe-leaderboard, with ``rating_chart``); ``extension``
loads them and registers the history page's custom-id prefix with the click router.
"""
