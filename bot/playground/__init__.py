"""The playground: the real bot in a browser page, against a simulated Discord on 127.0.0.1.

``cli`` parses the options and prints the address; ``world`` builds the bot, the simulated
server and its page; ``clock`` keeps the simulated time on the wall clock; ``pages``
lets every page that opens in, on the newest message; ``tournaments`` has the regulars fill a
tournament announced there; ``served`` serves SimCord's page with the
playground's command box (Discord's keys, the options' descriptions) and look (``web/``).
"""
