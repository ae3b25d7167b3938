"""How a finished game ended, in words, in the game's own language (the board's last line)."""

from __future__ import annotations

from gettext import NullTranslations

from bot.games import kinds
from bot.games import rules as play
from bot.games.record import Ending, GameRecord
from bot.i18n import translation


def _t(catalog: NullTranslations, msgid: str, /, **values: object) -> str:
    """Words in the catalog's language, placeholders filled (``pybabel`` keyword ``_t:2``)."""
    words = catalog.gettext(msgid)
    return words.format(**values) if values else words


def result(game: GameRecord, catalog: NullTranslations | None = None) -> str:
    """How a finished game ended, in words (in the game's language unless `catalog` says)."""
    catalog = catalog or translation(game.locale)
    winner = game.winner
    both = {
        "mark": game.look.mark(winner or "X"),
        "winner": f"<@{play.player_id(game, winner)}>" if winner else "",
        "loser": f"<@{play.player_id(game, play.other(winner))}>" if winner else "",
    }
    opponent = f"<@{play.opponent_id(game)}>"
    match game.ending:
        case Ending.WIN:
            line = kinds.of(game).line_names(game)
            return _t(catalog, "🏆 {mark} {winner} wins with {line}!", **both, line=line)
        case Ending.DRAW:
            return _t(catalog, "🤝 It's a draw.")
        case Ending.RESIGN:
            return _t(catalog, "🏳️ {loser} resigned. {mark} {winner} wins.", **both)
        case Ending.TIMEOUT:
            return _t(
                catalog, "⌛ {loser} ran out of time. {mark} {winner} wins by forfeit.", **both
            )
        case Ending.DECLINED:
            return _t(catalog, "{opponent} declined the challenge.", opponent=opponent)
        case Ending.WITHDRAWN:
            challenger = f"<@{game.challenger_id}>"
            return _t(catalog, "{challenger} withdrew the challenge.", challenger=challenger)
        case Ending.EXPIRED:
            return _t(
                catalog,
                "The challenge expired: {opponent} did not answer in time.",
                opponent=opponent,
            )
        case _:
            return _t(catalog, "This game was abandoned.")
