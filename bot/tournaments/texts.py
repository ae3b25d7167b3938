"""What /tictactoe-tournament and the announcement's buttons tell a member, privately (in English,
translated into the member's language when sent)."""

from __future__ import annotations

from bot.i18n import N_

NOT_HERE = N_("Tournaments are for servers that added me: add me to a server to run one there.")
NOT_ALLOWED = N_("Only members with the Manage Server permission can create a tournament.")
NOT_ORGANIZER = N_(
    "Only members with the Manage Server permission or the {role} role can create a tournament."
)
NOT_TEXT = N_("Tournaments run in a server's text channels: pick one with channel.")
RUNNING_HERE = N_("{channel} has a tournament already: wait until it is over to create another.")
BAD_START = N_(
    "I can't read the start time {text}: give a Discord timestamp such as <t:1767225600:f>, "
    "or leave it out to start with the Start button."
)
PAST_START = N_(
    "That start time has passed: pick a later one, or leave it out to start with the Start button."
)
WRONG_OPTION = N_("rounds is for Swiss tournaments and minutes for arenas: leave out the other.")
CREATED = N_("Tournament created in {channel}. Players join with the buttons on its message.")
NOT_POSTED = N_("I could not post the tournament's message in {channel}, so nothing was created.")
NONE_HERE = N_("There is no tournament in this channel now.")
JOINED = N_("You're in. Each of your games opens in its own thread here, and I'll ping you there.")
ALREADY = N_("You're in this tournament already.")
FULL = N_("This tournament is full.")
CLOSED = N_("This tournament has started or is over: you can't join it now.")
BACK = N_("Welcome back: you'll be paired as soon as someone else is free.")
LEFT = N_("You left the tournament.")
LEFT_SWISS = N_(
    "You left the tournament: you won't be paired again. Your games so far still count."
)
PAUSED = N_("You're paused: you won't get a new game until you press Join again. Your points stay.")
NOT_IN = N_("You're not playing in this tournament.")
ONLY_CREATOR = N_(
    "Only {player}, who created the tournament, or a member with Manage Server can start it."
)
TOO_FEW = N_("A tournament needs at least 2 players to start; {n} joined so far.")
STARTED = N_("This tournament has started already.")
STARTED_NOW = N_("The tournament has started: the first games are being set up.")
