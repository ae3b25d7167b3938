"""The bot put together: its stores, built with every schema step (the core's and each
feature's, in order), and the bot built from its settings.

The one place that knows every feature's storage step; the core's stores are given the steps
and know none of them. A new feature with tables adds its step here, numbered after the last.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.client import ShardedTicTacToeBot, TicTacToeBot
from bot.compute.runner import EngineRunner
from bot.config import DEFAULT_SYNC, Settings
from bot.metrics import Metrics, StoreWatch
from bot.puzzles import sql as puzzles
from bot.storage import steps
from bot.storage.base import StorageError, Store
from bot.storage.dialect import ordered
from bot.storage.sqlite import SQLiteStore
from bot.tournaments import sql as tournaments

if TYPE_CHECKING:
    from bot.storage.postgres import PostgresStore

# Every schema step, 1 to 9: the games' (1 to 5, 9), puzzles (6), tournaments (7), the history
# of ratings (8).
STEPS = ordered([*steps.STEPS.items(), (6, puzzles.STEP), (7, tournaments.STEP)])


def sqlite_store(
    path: str | Path, *, busy_timeout: float = 5.0, sync: str = DEFAULT_SYNC
) -> SQLiteStore:
    """A store on a SQLite file, with every schema step."""
    return SQLiteStore(path, steps=STEPS, busy_timeout=busy_timeout, sync=sync)


def postgres_store(url: str, *, timeout: float = 1.0, pool_size: int = 10) -> PostgresStore:
    """A store on PostgreSQL, with every schema step; StorageError if asyncpg (an extra) is not
    installed."""
    try:
        from bot.storage.postgres import PostgresStore
    except ImportError as exc:
        raise StorageError("DATABASE_URL needs asyncpg: pip install 'tictactoe[postgres]'") from exc
    return PostgresStore(url, steps=STEPS, timeout=timeout, pool_size=pool_size)


def open_store(settings: Settings) -> Store:
    """The store the settings name: PostgreSQL at DATABASE_URL, else SQLite at DATABASE_PATH.

    A locked or stuck database must fail fast enough to still answer within Discord's 3 s, even
    where one click writes twice (a new game: its id, then the game): one second per statement.
    """
    if settings.database_url:
        store: Store = postgres_store(settings.database_url, timeout=1.0)
        return store
    return sqlite_store(settings.database_path, busy_timeout=1.0, sync=settings.database_sync)


def create_bot(
    settings: Settings,
    *,
    store: Store | None = None,
    engine: EngineRunner | None = None,
    freeze_heap: bool = False,
) -> TicTacToeBot:
    """Build the bot from its settings; tests pass their own store or engine runner.

    `freeze_heap` (for a long-lived process: the bot's own start, not a test that builds many
    bots) freezes the heap once the bot is ready (``gc.freeze``) and sets the collector's
    thresholds to `GC_THRESHOLDS`.
    """
    if store is None:
        store = open_store(settings)
    if engine is None:
        engine = EngineRunner(workers=settings.engine_workers)
    options: dict[str, Any] = {"freeze_heap": freeze_heap}
    if settings.metrics_port is not None:
        metrics = options["metrics"] = Metrics()
        store.watch = StoreWatch(metrics)
        options["http_trace"] = metrics.trace()
    shards = settings.shards
    if shards.auto:
        options.update(shard_count=shards.count, shard_ids=list(shards.ids))
        return ShardedTicTacToeBot(settings, store=store, engine=engine, **options)
    return TicTacToeBot(settings, store=store, engine=engine, **options)
