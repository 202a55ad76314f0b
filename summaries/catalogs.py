"""The message catalogs (gettext, domain `siege`): `summaries/locales/<lang>/LC_MESSAGES/siege.po`, compiled
to `.mo` by `make install`; a missing or stale `.mo` (an image built with plain `pip install`) is compiled
from its `.po` in memory on first use, with the same babel.messages code, so every process reads one text."""

from __future__ import annotations

from functools import cache
from io import BytesIO
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LOCALES = Path(__file__).resolve().parent / "locales"
DOMAIN = "siege"
LANGUAGES = ("en", "fr")  # en first: the default when Accept-Language names neither
DEFAULT = "en"


class MissingMessage(KeyError):
    """A message id with no text in a catalog: the completeness test keeps this from happening."""


def po_path(language: str) -> Path:
    return LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(language: str) -> Translations:
    po = po_path(language)
    mo = po.with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as compiled:
            return Translations(compiled, domain=DOMAIN)
    with po.open("rb") as source:
        catalog = read_po(source, locale=language, domain=DOMAIN)
    buffer = BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


def message(language: str, msgid: str) -> str:
    text: str = translations(language).gettext(msgid)
    if text == msgid:  # gettext answers the id itself when the catalog has no text for it
        raise MissingMessage(f"{language}: {msgid}")
    return text
