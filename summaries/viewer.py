"""The viewer's words (service/viewer_files/terms.js): the catalogs' text, in every language, of the codes of
the term families each ruleset's viewer shows (`Told.viewer`). `python -m summaries.viewer` writes the file
to standard output; tests/service/test_viewer_page.py holds the shipped file to it byte for byte."""

from __future__ import annotations

import json

from summaries import TOLD
from summaries.catalogs import LANGUAGES, message

HEADER = (
    "// The catalogs' words for the codes the map and the log show"
    " (summaries/locales; a test keeps them equal)."
)


def shown() -> list[str]:
    """The message id of every code the viewer shows, ruleset by ruleset, family by family."""
    return [
        f"{family}.{code}" for told in TOLD.values() for family in told.viewer for code in told.terms[family]
    ]


def viewer_terms() -> dict[str, dict[str, str]]:
    """Language -> message id -> its text."""
    return {language: {msgid: message(language, msgid) for msgid in shown()} for language in LANGUAGES}


def terms_js() -> str:
    """terms.js as shipped: an ES module exporting `TERMS`."""
    return f"{HEADER}\nexport const TERMS = {json.dumps(viewer_terms(), indent=2, ensure_ascii=False)};\n"


if __name__ == "__main__":
    print(terms_js(), end="")
