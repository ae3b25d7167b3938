"""Members of the playground's server who play by themselves (the regulars): challenged, they
accept; when a game of theirs waits for their move, they click a legal cell after a short pause,
as a person would. So one person with the page can play a friend game, or fill a tournament.

They read what a person reads: the bot's messages in the playground's channel and its threads,
and the buttons on them. A regular is asked by a message whose status (the first paragraph after
the title that names anyone) names them first: "@dave, your move", "@dave, @alice challenges
you". Asked, a regular clicks one of the message's enabled buttons that a rule picks, chosen at
random among them, ``PAUSE`` seconds later on the simulated clock. The rules built in
(`CELLS`, `ACCEPT`) know only the bot's custom ids, ``ttt:<game>:<cell>`` and the rest
(``discord_ui.board``), so they play any kind of board, in any channel or thread, a tournament's
games included. `Regulars.also_click` adds a rule (a tournament's Join button, say).

The playground's clock calls `Regulars.play` on every tick, between the page's actions.
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from simcord.backend.errors import BackendError, SetupError
from simcord.components import walk_components
from simcord.results import ResponseMessage

from bot.discord_ui.board import ACCEPT as ACCEPT_ACTION
from bot.discord_ui.board import PICK, parse_id
from bot.playground.channels import threads_under

if TYPE_CHECKING:
    from simcord import Env, MemberActor

log = logging.getLogger(__name__)
NAMES = ("dave", "erin", "frank", "grace")
PAUSE = (1.5, 4.0)  # seconds a regular takes before a click, at random between the two
NEWEST = 50  # messages a regular reads in each channel and thread, the newest
BUTTON, TEXT_DISPLAY = 2, 10  # Discord's component types
MENTION = re.compile(r"<@!?([0-9]+)>")


@dataclass(frozen=True, slots=True)
class Seen:
    """A button a regular sees on one of the bot's messages, with what the message says."""

    member_id: int
    channel_id: int
    message_id: int
    custom_id: str
    label: str
    text: str  # the message's words: its content and its text displays
    asked: bool  # the message's status names this member first (see the module's docstring)


Rule = Callable[[Seen], bool]


def _cell(seen: Seen) -> bool:
    parsed = parse_id(seen.custom_id)
    if parsed is None:
        return False
    what = parsed[1]
    return what.isdigit() or (what.startswith(PICK) and what[len(PICK) :].isdigit())


CELLS: Rule = lambda seen: seen.asked and _cell(seen)  # noqa: E731  a move: a cell, a small board
ACCEPT: Rule = lambda seen: (  # noqa: E731  a challenge to them
    seen.asked and (parse_id(seen.custom_id) or (0, ""))[1] == ACCEPT_ACTION
)


def words(message: Any) -> str:
    """What a message says: its content, then each text display of its components."""
    parts = [message.content] if message.content else []
    for component in walk_components(message.components):
        if component.get("type") == TEXT_DISPLAY and component.get("content"):
            parts.append(str(component["content"]))
    return "\n\n".join(parts)


def asked(text: str) -> int | None:
    """The member a message asks (see the module's docstring), or None."""
    paragraphs = text.split("\n\n")
    for paragraph in paragraphs[1:] if len(paragraphs) > 1 else paragraphs:
        named = MENTION.search(paragraph)
        if named is not None:
            return int(named.group(1))
    return None


def buttons(message: Any) -> Iterable[tuple[str, str]]:
    """The enabled buttons of a message that call the bot: (custom id, label)."""
    for component in walk_components(message.components):
        if component.get("type") == BUTTON and component.get("custom_id"):
            if component.get("disabled"):
                continue  # a real client cannot click it
            yield str(component["custom_id"]), str(component.get("label") or "")


@dataclass(frozen=True, slots=True)
class _Plan:
    at: float  # seconds on the simulated clock
    member: MemberActor
    channel_id: int
    message_id: int
    custom_id: str


class Regulars:
    """The regulars of one simulated server, reading its channel and the channel's threads."""

    def __init__(
        self,
        env: Env,
        members: Iterable[MemberActor],
        channel_id: int,
        *,
        pause: tuple[float, float] = PAUSE,
        rng: random.Random | None = None,
    ) -> None:
        self._env = env
        self.members = {member.id: member for member in members}
        self._channel_id = channel_id
        self._pause = pause
        self._rng = rng or random.Random()
        self.rules: list[Rule] = [CELLS, ACCEPT]
        self._plans: dict[tuple[int, int, str], _Plan] = {}
        self.clicks = 0  # clicks made, in all

    def also_click(self, rule: Rule) -> None:
        """Add a rule: a regular clicks a button it sees when `rule` says so."""
        self.rules.append(rule)

    def _wanted(self) -> dict[tuple[int, int, str], tuple[MemberActor, int, int, list[str]]]:
        """What each regular would click now: (member, message, message's state) -> the member,
        the channel, the message and the buttons its rules pick."""
        backend, wanted = self._env.backend, {}
        for channel_id in [self._channel_id, *threads_under(backend, self._channel_id)]:
            messages = backend.messages.get(channel_id, {})
            for message_id in sorted(messages)[-NEWEST:]:
                message = messages[message_id]
                if message.author_id != backend.bot_user.id or message.is_ephemeral:
                    continue
                offered = list(buttons(message))
                if not offered:
                    continue
                text = words(message)
                state = f"{message.edited_timestamp or message.timestamp}:{hash(text)}"
                named = asked(text)
                for member in self.members.values():
                    picked = [
                        custom_id
                        for custom_id, label in offered
                        if self._picks(
                            Seen(
                                member.id,
                                channel_id,
                                message_id,
                                custom_id,
                                label,
                                text,
                                named == member.id,
                            )
                        )
                    ]
                    if picked:
                        wanted[(member.id, message_id, state)] = (
                            member,
                            channel_id,
                            message_id,
                            picked,
                        )
        return wanted

    def _picks(self, seen: Seen) -> bool:
        return any(rule(seen) for rule in self.rules)

    async def play(self) -> int:
        """Plan a click for what the regulars were newly asked, make the clicks now due;
        returns how many were made."""
        now = self._env.backend.clock.elapsed
        wanted = self._wanted()
        for key in [key for key in self._plans if key not in wanted]:
            del self._plans[key]  # the message changed, or went: that click is no longer wanted
        for key, (member, channel_id, message_id, picked) in wanted.items():
            if key not in self._plans:
                at = now + self._rng.uniform(*self._pause)
                choice = self._rng.choice(picked)
                self._plans[key] = _Plan(at, member, channel_id, message_id, choice)
        made = 0
        for key, plan in sorted(self._plans.items(), key=lambda item: item[1].at):
            if plan.at > now:
                continue
            del self._plans[key]
            made += await self._click(plan)
        self.clicks += made
        return made

    async def _click(self, plan: _Plan) -> int:
        try:
            message = self._env.backend.get_message(plan.channel_id, plan.message_id)
            await plan.member.click(ResponseMessage(self._env, message), custom_id=plan.custom_id)
        except (SetupError, BackendError) as error:  # the button went or was disabled meanwhile
            log.debug("%s could not click %s: %s", plan.member.name, plan.custom_id, error)
            return 0
        return 1
