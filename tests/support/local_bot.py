"""``python -m bot`` as a person runs it, against a local Discord on 127.0.0.1.

    python -m tests.support.local_bot PORT

The real entry point (``bot.__main__.main``: settings from the environment, logging, signals)
with one change: discord.py's API base and gateway address point at the local server of
``tests/support/localdiscord/``.
"""

from __future__ import annotations

import sys

import discord
import yarl

from bot.__main__ import main

if __name__ == "__main__":
    port = int(sys.argv[1])
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
    raise SystemExit(main([]))
