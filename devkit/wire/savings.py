"""The bot's per-click savings, each of which ``bot_process.py --without PART`` takes away to
measure what it gives (`load.py --modes pays`): `WITHOUT` names them and says what the bot does
then; `without` takes one away from a bot built for the benchmark.
"""

from __future__ import annotations

import collections
from typing import Any

import discord

# What `--without` can take away: each name, and what the bot does then.
WITHOUT = {
    "gateway": "parses every message event and caches messages, as discord.py does by default",
    "one-response": "shows a 4x4 or 5x5 reply in a second edit (REPLY_WAIT 0)",
    "quick-engine": "asks every 4x4 or 5x5 move of the process pool (no quick_move)",
}


def without(bot: discord.Client, part: str) -> None:
    """Take one of the bot's per-click savings away (`WITHOUT`)."""
    if part == "gateway":
        state: Any = bot._connection
        for event in ("MESSAGE_CREATE", "MESSAGE_UPDATE"):
            state.parsers[event] = getattr(state, f"parse_{event.lower()}")
        state.max_messages = 1000  # discord.py's default
        state._messages = collections.deque(maxlen=state.max_messages)
    elif part == "one-response":
        from bot.cogs.games import flow

        flow.REPLY_WAIT = 0.0
    elif part == "quick-engine":
        from bot.games import kinds

        runner: Any = bot.engine  # type: ignore[attr-defined]
        found_at_once = runner.quick_move

        async def quick_move(game: Any, *, level: str, seed: int) -> int | None:
            if kinds.of(game).searches(game):
                return None  # every 4x4 or 5x5 move a search's round trip to the pool
            return await found_at_once(game, level=level, seed=seed)

        runner.quick_move = quick_move
    elif part:
        raise SystemExit(f"--without takes {', '.join(WITHOUT)}, not {part!r}")
