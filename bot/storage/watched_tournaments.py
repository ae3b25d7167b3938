"""The tournament calls of a watched store (``bot.metrics.WatchedStore``): each passed to the
inner store, its failures counted by the watcher's ``_watch`` under the call's name."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot.games.tournaments.record import Bye, Game
from bot.games.tournaments.tournament import Entrant, Join, Pairing, Stage, Tournament

if TYPE_CHECKING:
    from bot.storage.base import Store


class WatchedTournaments:
    """Tournament calls passed through to ``inner``, watched."""

    if TYPE_CHECKING:
        inner: Store

        async def _watch(self, name: str, call: Callable[[], Awaitable[Any]]) -> Any: ...

    async def create_tournament(self, tournament: Tournament) -> Tournament:
        """Store a new tournament."""
        result: Tournament = await self._watch(
            "create_tournament", lambda: self.inner.create_tournament(tournament)
        )
        return result

    async def get_tournament(self, tournament_id: int) -> Tournament | None:
        """A stored tournament."""
        result: Tournament | None = await self._watch(
            "get_tournament", lambda: self.inner.get_tournament(tournament_id)
        )
        return result

    async def tournaments_running(
        self, guild_ids: Collection[int] | None = None
    ) -> list[Tournament]:
        """The open and running tournaments of these servers."""
        result: list[Tournament] = await self._watch(
            "tournaments_running", lambda: self.inner.tournaments_running(guild_ids)
        )
        return result

    async def tournaments_entered(self, guild_id: int, user_id: int) -> list[Tournament]:
        """A player's finished tournaments in a server."""
        result: list[Tournament] = await self._watch(
            "tournaments_entered", lambda: self.inner.tournaments_entered(guild_id, user_id)
        )
        return result

    async def start_tournament(
        self, tournament_id: int, *, at: datetime, ends_at: datetime | None = None,
        rounds: int | None = None,
    ) -> bool:  # fmt: skip
        """Start a tournament."""
        return bool(
            await self._watch(
                "start_tournament",
                lambda: self.inner.start_tournament(
                    tournament_id, at=at, ends_at=ends_at, rounds=rounds
                ),
            )
        )

    async def finish_tournament(self, tournament_id: int, stage: Stage = Stage.FINISHED) -> bool:
        """End a tournament."""
        return bool(
            await self._watch(
                "finish_tournament", lambda: self.inner.finish_tournament(tournament_id, stage)
            )
        )

    async def set_tournament_messages(
        self, tournament_id: int, *, message_id: int | None = None,
        final_message_id: int | None = None,
    ) -> None:  # fmt: skip
        """Keep a tournament's message ids."""
        await self._watch(
            "set_tournament_messages",
            lambda: self.inner.set_tournament_messages(
                tournament_id, message_id=message_id, final_message_id=final_message_id
            ),
        )

    async def join_tournament(
        self, tournament_id: int, user_id: int, *, rating: float | None = None,
        at: datetime | None = None,
    ) -> Join:  # fmt: skip
        """Add a player."""
        result: Join = await self._watch(
            "join_tournament",
            lambda: self.inner.join_tournament(tournament_id, user_id, rating=rating, at=at),
        )
        return result

    async def leave_tournament(self, tournament_id: int, user_id: int) -> bool:
        """Take a player out."""
        return bool(
            await self._watch(
                "leave_tournament", lambda: self.inner.leave_tournament(tournament_id, user_id)
            )
        )

    async def pause_entrant(self, tournament_id: int, user_id: int, paused: bool) -> bool:
        """Pause an entrant or bring them back."""
        return bool(
            await self._watch(
                "pause_entrant", lambda: self.inner.pause_entrant(tournament_id, user_id, paused)
            )
        )

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        """A tournament's entrants."""
        result: list[Entrant] = await self._watch(
            "entrants", lambda: self.inner.entrants(tournament_id)
        )
        return result

    async def start_round(
        self, tournament_id: int, round: int, pairs: tuple[tuple[int, int], ...],
        bye: int | None = None,
    ) -> bool:  # fmt: skip
        """Store a Swiss round."""
        return bool(
            await self._watch(
                "start_round", lambda: self.inner.start_round(tournament_id, round, pairs, bye)
            )
        )

    async def pair_arena(
        self, tournament_id: int, pairs: tuple[tuple[int, int], ...]
    ) -> list[Pairing]:
        """Store an arena's new games."""
        result: list[Pairing] = await self._watch(
            "pair_arena", lambda: self.inner.pair_arena(tournament_id, pairs)
        )
        return result

    async def attach_game(
        self, pairing: Pairing, *, game_id: int | None = None, thread_id: int | None = None
    ) -> Pairing | None:
        """Give a pairing its game and thread."""
        result: Pairing | None = await self._watch(
            "attach_game",
            lambda: self.inner.attach_game(pairing, game_id=game_id, thread_id=thread_id),
        )
        return result

    async def record_result(self, pairing: Pairing, result: float) -> bool:
        """Record a result once."""
        return bool(
            await self._watch("record_result", lambda: self.inner.record_result(pairing, result))
        )

    async def pairings(self, tournament_id: int) -> list[Pairing]:
        """A tournament's games with their ids."""
        result: list[Pairing] = await self._watch(
            "pairings", lambda: self.inner.pairings(tournament_id)
        )
        return result

    async def pairing_of_game(self, game_id: int) -> Pairing | None:
        """The tournament game a bot game is."""
        result: Pairing | None = await self._watch(
            "pairing_of_game", lambda: self.inner.pairing_of_game(game_id)
        )
        return result

    async def games_of(self, tournament_id: int) -> list[Game]:
        """A tournament's games."""
        result: list[Game] = await self._watch(
            "games_of", lambda: self.inner.games_of(tournament_id)
        )
        return result

    async def byes_of(self, tournament_id: int) -> list[Bye]:
        """A tournament's byes."""
        result: list[Bye] = await self._watch("byes_of", lambda: self.inner.byes_of(tournament_id))
        return result
