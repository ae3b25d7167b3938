"""The bot's extensions, each loaded by name (``bot.load_extension``); each ``setup()`` builds
its collaborators and passes them in."""
