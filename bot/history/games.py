"""/tictactoe-history: a player's recent games, privately, paged, each opened from a menu as its
final picture and its animated replay (privately too). Every answer goes through the
interaction (its response, then its webhook), so it works in every place: servers with and
without the bot, DMs and group DMs.

Which games: the played games of this server (outside servers: of DMs and group DMs, and there
only those the asker played in too, since nobody else shares those places).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _l
from discord.ext import commands

from bot.cogs.games.command import VARIANT_CHOICES
from bot.discord_ui import replies, time_limits
from bot.discord_ui.picture import game_files, refused_upload
from bot.games.record import PLAYED, GameRecord, Status
from bot.history import board as history
from bot.history.stats import STORAGE_APOLOGY, where_said
from bot.history.store import HistoryStore
from bot.i18n import N_, translation
from bot.storage.base import StorageError, Store, in_time

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]

GONE = N_("I can't find that game any more.")
NO_MOVES = N_("That game has no moves stored, so there is no picture of it to show.")
REFUSED = N_("Discord would not take the pictures of that game just now; please try again later.")


class HistoryCog(commands.Cog):
    """A player's past games, each with its picture and replay."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.history_store = HistoryStore(store)

    @app_commands.command(
        name=_l("tictactoe-history"),
        description=_l(
            "Show a player's recent games, and open any of them as a picture and a replay."
        ),
    )
    @app_commands.rename(player=_l("player"), variant=_l("variant"))
    @app_commands.describe(
        player=_l("Whose games to show (default: yours)"),
        variant=_l("Classic or ultimate games (default: both)."),
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def history(
        self,
        interaction: Interaction,
        player: discord.Member | discord.User | None = None,
        variant: str | None = None,
    ) -> None:
        """Show a player's recent games, and open any of them as a picture and a replay."""
        target = player or interaction.user
        if target.bot:
            await replies.tell(
                interaction,
                N_(
                    "{player} is a bot: bots don't keep a tic-tac-toe record.",
                    player=target.mention,
                ),
            )
            return
        page = self._page(interaction, target.id, history.known_kind(variant), 0)
        await self._answer(interaction, "/tictactoe-history", page)

    @commands.Cog.listener()
    async def on_ttt_history_click(self, interaction: Interaction, custom_id: str) -> None:
        """A page button or the menu of a history message (handed on by the click listener)."""
        page, player = history.parse_page(custom_id), history.parse_open(custom_id)
        if page is not None:
            work = self._page(interaction, *page, edit=True)
        elif player is not None:
            work = self._open(interaction, player)
        else:
            work = replies.tell(interaction, GONE)
        await self._answer(interaction, f"history click on {custom_id!r}", work)

    async def _answer(self, interaction: Interaction, what: str, work: Any) -> None:
        """Run one answer; a store or Discord failure is one private line, a bug is logged."""
        try:
            await work
        except StorageError as error:
            log.debug("%s: %s", what, error)
            await replies.tell_safely(interaction, STORAGE_APOLOGY)
        except Exception as error:
            if replies.discords_trouble(error):
                log.warning("%s: Discord refused an answer: %s", what, error)
            else:
                log.exception("%s by %s failed", what, interaction.user.id)
            if not replies.too_late(error):
                await replies.apologize(interaction)

    async def _page(
        self,
        interaction: Interaction,
        player: int,
        kind: str | None,
        offset: int,
        *,
        edit: bool = False,
    ) -> None:
        """A page of the player's games: a new private message, or the clicked one changed."""
        asker = interaction.user.id
        with_id = asker if interaction.guild_id is None and player != asker else None
        games = await in_time(
            self.history_store.player_games(
                interaction.guild_id,
                player,
                with_id=with_id,
                kind=kind,
                limit=history.PAGE + 1,
                offset=offset,
            )
        )
        locale = str(interaction.locale)
        text, view = history.listing(
            player, games, kind=kind, offset=offset, where=where_said(interaction), locale=locale
        )
        none = discord.AllowedMentions.none()
        if edit:
            await time_limits.answer(
                interaction,
                interaction.response.edit_message(
                    content=text, view=view or history.Plain([]), allowed_mentions=none
                ),
            )
        else:
            await time_limits.answer(
                interaction,
                interaction.response.send_message(
                    text, view=view or discord.utils.MISSING, ephemeral=True, allowed_mentions=none
                ),
            )

    async def _open(self, interaction: Interaction, player: int) -> None:
        """The chosen game's final picture and replay, privately."""
        data: dict[str, Any] = dict(interaction.data or {})
        chosen = str((data.get("values") or [""])[0])
        known = chosen.isdigit() and len(chosen) <= 18  # a game id, not a forged number
        game = await in_time(self.store.load_game(int(chosen))) if known else None
        if game is None or not _may_see(interaction, game):
            await replies.tell(interaction, GONE)
            return
        if not game.moves:
            await replies.tell(interaction, NO_MOVES)
            return
        # Drawing a long game's replay may take longer than the response's window: it follows.
        await time_limits.answer(
            interaction, interaction.response.defer(ephemeral=True, thinking=True)
        )
        locale = str(interaction.locale)
        files = await game_files(game, locale)
        said = history.line(game, player).render(translation(locale))
        try:
            await time_limits.call(
                interaction.followup.send(
                    f"#{game.id} · {said}",
                    files=files,
                    ephemeral=True,
                    allowed_mentions=discord.AllowedMentions.none(),
                ),
                "the pictures",
            )
        except discord.HTTPException as error:
            if not refused_upload(error):
                raise
            log.warning("game %s's pictures: Discord refused them: %s", game.id, error)
            await replies.tell_safely(interaction, REFUSED)


def _may_see(interaction: Interaction, game: GameRecord) -> bool:
    """Whether the game is one a history in this place lists: played, of this server (outside
    servers: one the asker played)."""
    if game.status is not Status.FINISHED or game.ending not in PLAYED:
        return False
    if game.guild_id != interaction.guild_id:
        return False
    return game.guild_id is not None or interaction.user.id in (game.x_id, game.o_id)
