"""The documents a user reads hold: the README stays short, every relative link in it and in docs/ leads to
a file of the repository (and to a heading of it, for `#anchor`), every rule id the code or the tests use has
an entry in docs/rules.md, and no production file cites a document the repository does not have."""

from __future__ import annotations

import re
import subprocess
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
RULES_DOC = DOCS / "rules.md"
README_MAX_LINES = 200

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+).+?\1", re.DOTALL)
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)  # http:, https:, mailto:

# a rule id, then the shorthands the code writes for several: PF-TIME-03/04 (both), PF-MOVE-01..06 (a range)
RULE_ID = re.compile(r"\b((?:PF|EP)-[A-Z]+(?:-[A-Z0-9]+)*)-(\d+)((?:(?:/|\.\.)\d+)*)")
RULE_SOURCES = (
    "rules",
    "schemas",
    "service",
    "workers",
    "summaries",
    "eventstore",
    "replay",
    "tests",
    "clients",
)
SKIPPED_DIRS = {"node_modules", "__pycache__"}
# an entry: a heading that starts with the id, or a line that starts with it in bold (`**EP-GEN-01** ...`)
ENTRY = re.compile(r"^(?:#{1,6}\s+|(?:[-*]\s+)?\*\*)((?:PF|EP)-[A-Z]+(?:-[A-Z0-9]+)*-\d+)\b", re.MULTILINE)

# documents a user of the repository does not have: the design, the style guide, the shared folder and the
# rules' own text in it (docs/rules.md says what each rule means instead)
ABSENT_DOCUMENTS = re.compile(r"DESIGN §|STYLE\.md|STYLE §|shared/|\bspec/[\w-]+\.(?:md|json)\b")
NOT_PRODUCTION = ("tests/",)  # where a test may name what it checks; its READMEs are read like docs/


def markdown_files() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


def prose(text: str) -> str:
    """The text with its code blocks and code spans blanked: a link or a heading in code is not one."""
    text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return CODE_SPAN.sub("", text)


def slug(heading: str) -> str:
    """The anchor a Markdown renderer (GitHub's) gives a heading: lowercased, punctuation dropped, spaces
    turned into hyphens (not collapsed)."""
    text = CODE_SPAN.sub(lambda m: m.group(0).strip("`"), heading)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text).lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor; a repeated heading gets -1, -2, ... as the renderer numbers them."""
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def relative_links(path: Path) -> Iterator[str]:
    for target in LINK.findall(prose(path.read_text(encoding="utf-8"))):
        if not EXTERNAL.match(target) and not target.startswith("/"):
            yield target


def broken_links() -> list[str]:
    broken = []
    for path in markdown_files():
        for target in relative_links(path):
            file_part, _, anchor = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path
            where = f"{path.relative_to(ROOT)}: {target}"
            if not linked.exists() or ROOT not in (linked, *linked.parents):
                broken.append(f"{where} (no such file)")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                broken.append(f"{where} (no such heading)")
    return broken


def expanded(family: str, first: str, rest: str) -> Iterator[str]:
    """`PF-TIME-03/04` is 03 and 04; `PF-MOVE-01..06` every id from 01 to 06."""
    numbers = [int(first)]
    for separator, number in re.findall(r"(/|\.\.)(\d+)", rest):
        numbers.extend([int(number)] if separator == "/" else range(numbers[-1] + 1, int(number) + 1))
    for number in numbers:
        yield f"{family}-{number:0{len(first)}d}"


def sources() -> Iterator[Path]:
    for folder in RULE_SOURCES:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".js") and not SKIPPED_DIRS & set(path.parts):
                yield path


def rule_ids_used() -> dict[str, str]:
    """Every rule id the code and the tests name, with one file that names it."""
    used: dict[str, str] = {}
    for path in sources():
        for family, first, rest in RULE_ID.findall(path.read_text(encoding="utf-8", errors="replace")):
            for rule in expanded(family, first, rest):
                used.setdefault(rule, str(path.relative_to(ROOT)))
    return used


def production_files() -> list[Path]:
    """What `git ls-files` lists outside tests/, and the READMEs in it: every file a release ships or runs,
    and every page a reader of the repository is sent to."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        ).stdout.decode()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the tracked files are unknown")
    names = [
        name
        for name in listed.split("\0")
        if name and (not name.startswith(NOT_PRODUCTION) or name.endswith("README.md"))
    ]
    return [ROOT / name for name in names if (ROOT / name).is_file()]


def citations_of_absent_documents() -> list[str]:
    hits = []
    for path in production_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a binary file cites nothing
        for number, line in enumerate(text.splitlines(), 1):
            for found in ABSENT_DOCUMENTS.findall(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {found}")
    return hits


def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; the rest belongs in docs/"


def test_the_slug_of_a_heading_is_the_renderers() -> None:
    assert slug("Live stream (Server-Sent Events)") == "live-stream-server-sent-events"
    assert slug("Export, import and the `siege` command line") == "export-import-and-the-siege-command-line"
    assert slug("GEN — general") == "gen--general"
    assert slug("4.2 The entry hash") == "42-the-entry-hash"


def test_every_relative_link_in_the_readme_and_docs_resolves() -> None:
    assert broken_links() == []


def test_the_link_check_finds_a_broken_link_and_a_missing_heading(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n[ok](#title) [gone](#nowhere) [file](missing.md) `[code](no.md)`\n")
    targets = list(relative_links(page))
    assert targets == ["#title", "#nowhere", "missing.md"]
    assert "title" in anchors(page) and "nowhere" not in anchors(page)


def test_shorthands_of_several_rule_ids_expand_to_each() -> None:
    assert list(expanded("PF-TIME", "03", "/04")) == ["PF-TIME-03", "PF-TIME-04"]
    assert list(expanded("PF-MOVE", "01", "..03")) == ["PF-MOVE-01", "PF-MOVE-02", "PF-MOVE-03"]
    assert list(expanded("PF-MAGIC", "01", "/02/06")) == ["PF-MAGIC-01", "PF-MAGIC-02", "PF-MAGIC-06"]


def test_every_rule_id_the_code_and_tests_use_has_an_entry_in_the_rules_reference() -> None:
    used = rule_ids_used()
    entries = set(ENTRY.findall(RULES_DOC.read_text(encoding="utf-8")))

    assert len(used) > 200  # the search found the ids: both rulesets' areas are cited across the code
    assert {f"{rule} (named in {path})" for rule, path in used.items() if rule not in entries} == set()


def test_no_production_file_cites_a_document_the_repository_does_not_have() -> None:
    assert citations_of_absent_documents() == []
