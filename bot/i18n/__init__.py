"""Words for people, in their language: messages in English marked for translation, and the
gettext catalogs that translate them (``bot/i18n/locales/<lang>/LC_MESSAGES/tictactoe.mo``).

Pure (no Discord): the game rules mark their refusals with ``N_`` and the bot translates them at
the edge, in the language of whoever reads them. A message keeps its values apart from its words
(``{player}`` placeholders, filled after translation), so a translator can move them around.

A Discord locale (``pt-BR``) is looked up as ``pt_BR``, then its base language ``pt``, then falls
back to the English source text. Catalogs are compiled with Babel (see docs/translating.md);
at run time only the standard library's ``gettext`` reads them.
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

DOMAIN = "tictactoe"
LOCALE_DIR = Path(__file__).parent / "locales"
ENGLISH = "en-US"


@dataclass(frozen=True, slots=True)
class Text:
    """A message in English with its values, put into words in a language when it is shown.

    A value may be a ``Text`` itself (translated in the same language). With ``plural``, the
    value ``n`` picks the form.
    """

    msgid: str
    values: Mapping[str, object] = field(default_factory=dict)
    plural: str | None = None

    def render(self, catalog: gettext.NullTranslations) -> str:
        """The message in the catalog's language, its placeholders filled."""
        if self.plural is None:
            words = catalog.gettext(self.msgid)
        else:
            words = catalog.ngettext(self.msgid, self.plural, int(str(self.values["n"])))
        if not self.values:
            return words
        values = {
            name: value.render(catalog) if isinstance(value, Text) else value
            for name, value in self.values.items()
        }
        return words.format(**values)

    def in_locale(self, locale: str | None) -> str:
        """The message in a Discord locale (``fr``, ``pt-BR``; None: English)."""
        return self.render(translation(locale))


def N_(msgid: str, /, **values: object) -> Text:
    """Mark a message for translation (found by ``pybabel extract``); translated when shown."""
    return Text(msgid, values)


def NP_(singular: str, plural: str, n: int, /, **values: object) -> Text:
    """Mark a message with a plural form chosen by `n` (a placeholder ``{n}`` as well)."""
    return Text(singular, {"n": n, **values}, plural)


def catalog_names(locale: str) -> list[str]:
    """The catalog folders to try for a Discord locale, most specific first."""
    name = locale.replace("-", "_")
    base = name.split("_", 1)[0]
    return [name] if base == name else [name, base]


@functools.lru_cache(maxsize=64)
def translation(locale: str | None) -> gettext.NullTranslations:
    """The catalog for a Discord locale: its own, else its base language's, else English.

    Cached: a click never reads a file once its language has been seen.
    """
    for name in catalog_names(locale or ENGLISH):
        path = LOCALE_DIR / name / "LC_MESSAGES" / f"{DOMAIN}.mo"
        if path.is_file():
            with path.open("rb") as file:
                return gettext.GNUTranslations(file)
    return gettext.NullTranslations()


@functools.cache
def shipped() -> list[str]:
    """The catalog folders shipped (``de``, ``pt_BR``, ...), sorted."""
    return sorted(p.name for p in LOCALE_DIR.iterdir() if (p / "LC_MESSAGES").is_dir())


def has_catalog(locale: str | None) -> bool:
    """True when a Discord locale is served by a shipped catalog (not the English fallback)."""
    return locale is not None and any(n in shipped() for n in catalog_names(locale))
