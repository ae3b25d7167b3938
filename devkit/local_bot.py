"""``python -m bot`` as a person runs it, against a local Discord on 127.0.0.1.

    python -m devkit.local_bot PORT

The real entry point (``bot.__main__.main``: settings from the environment, logging, signals)
with one change: discord.py's API base, gateway address and CDN point at the local server of
``devkit/localdiscord/``. ``LOCAL_REPLY_WAIT`` in the environment sets how long a click's
response waits for the bot's reply on 4x4 and 5x5 (``flow.REPLY_WAIT``; 0: every such reply
follows in an edit, the path a long search takes).
"""

from __future__ import annotations

import os
import sys

import discord
import yarl

from bot.__main__ import main
from bot.cogs.games import flow

if __name__ == "__main__":
    port = int(sys.argv[1])
    if "LOCAL_REPLY_WAIT" in os.environ:
        flow.REPLY_WAIT = float(os.environ["LOCAL_REPLY_WAIT"])
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.asset.Asset.BASE = f"http://127.0.0.1:{port}"  # its CDN: custom emoji images
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
    raise SystemExit(main([]))
