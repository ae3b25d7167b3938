"""Tournaments: Swiss and arena, each game in a thread of its own, as a feature of the bot.

Pure (no Discord, no asyncio, no storage): a tournament and who may join (``tournament``), its
games as values (``record``), pairing a Swiss round (``swiss``) and an arena's free players
(``arena``), the standings of both (``standings``). Storage: ``store`` (its schema step, its
statements and calls, written once for both databases). Discord pieces without storage:
``board`` (the announcement, the podium and the buttons) and ``texts``. The cogs and their parts:
``command``, ``entry``, ``director``, ``tables``, ``announcer``, ``held``, ``checks``;
``extension`` builds them and registers the buttons' custom-id prefix with the click router.
"""
