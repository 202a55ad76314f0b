"""The zip the verify page runs (replay/in_browser): the same bytes from the same sources, whole (CPython
with nothing but the zip and the standard library gives siege verify's reports byte for byte), what make
install built, and an orjson stand-in that reads what orjson reads and refuses what it refuses."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.in_browser import bundle, entry
from replay.in_browser import orjson as stand_in
from replay.verify import PASSES, file_lines, verify
from tests.browser.verify_page import server_report, without_parser_words
from tests.service.exports import TAMPERS, UNSUPPORTED, UNUSABLE, repinned

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
TAMPERED_FROM = GOLDEN / "epic-2" / "epic-extra-climb-fight-client-seed-undo-unknown-command.jsonl"
# in a process with no site-packages (-S) and no environment (-I): each file's report, one JSON line each
ALONE = """
import sys
sys.path.insert(0, sys.argv[1])
from replay.in_browser.entry import verify_file
import orjson
assert orjson.__file__.startswith(sys.argv[1]), orjson.__file__
for path in sys.argv[2:]:
    print(verify_file(path, lambda done, total: None))
"""


def test_the_zip_is_the_same_bytes_each_time_and_holds_every_rules_source() -> None:
    first, second = bundle.zipped(), bundle.zipped()
    names = zipfile.ZipFile(io.BytesIO(first)).namelist()
    sources = [p for p in (ROOT / "rules").rglob("*") if p.suffix in bundle.RULES_FILES]
    sources = [p for p in sources if "__pycache__" not in p.parts]

    assert first == second and bundle.digest(first) == bundle.digest()
    assert names == sorted(names)
    assert {p.relative_to(ROOT).as_posix() for p in sources} <= set(names)
    libraries = {"cloudevents/__init__.py", "dateutil/parser/isoparser.py", "mypy_extensions.py"}
    assert {"orjson.py", "replay/verify.py", *libraries} <= set(names)
    assert [n for n in names if n.endswith((".so", ".pyc"))] == []
    assert {info.date_time for info in zipfile.ZipFile(io.BytesIO(first)).infolist()} == {bundle.MOMENT}


def test_the_zip_make_install_built_is_the_one_these_sources_give() -> None:
    built = bundle.default_dir() / bundle.BUNDLE
    if not built.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"CI must build the in-browser verifier: no {built} (`make install`)")
        pytest.skip(f"no {built}: `make install` builds it")
    manifest = json.loads((bundle.default_dir() / bundle.MANIFEST).read_text())

    assert bundle.digest(built.read_bytes()) == bundle.digest() == manifest["sha256"]


def test_the_zip_alone_gives_the_reports_siege_verify_gives(tmp_path: Path) -> None:
    """CPython with only the zip and the standard library (the stand-in in orjson's place): nothing the
    verifier imports is left out, and every report is the same bytes, tampered copies included."""
    zipfile.ZipFile(io.BytesIO(bundle.zipped())).extractall(tmp_path / "zip")
    files = sorted(GOLDEN.glob("*/*.jsonl"))[::8]
    for n, data in enumerate(_copies(TAMPERED_FROM.read_bytes().splitlines(keepends=True))):
        files.append(tmp_path / f"copy-{n}.jsonl")
        files[-1].write_bytes(data)

    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", ALONE, str(tmp_path / "zip"), *map(str, files)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )

    assert done.returncode == 0, done.stderr[-3000:]
    reports = done.stdout.splitlines()
    assert len(reports) == len(files)
    for path, report in zip(files, reports, strict=True):
        assert without_parser_words(report) == without_parser_words(server_report(path.read_bytes())), path


def _copies(lines: list[bytes]) -> list[bytes]:
    """Every tampered, unusable and unsupported copy the tests make of an export's lines."""
    copies = [b"".join(make(lines)) for make, _, _ in TAMPERS.values()]
    copies += [b"".join(make(lines)) for make in UNUSABLE.values()]
    return copies + [b"".join(repinned(lines, pins)) for pins in UNSUPPORTED.values()]


def test_keeping_the_first_pass_for_the_second_changes_no_report_and_the_progress_still_ends_at_the_total(
    tmp_path: Path,
) -> None:
    """The browser keeps what the first pass read rather than reading the file again (entry.KEEP_BYTES)."""
    files = sorted(GOLDEN.glob("*/*.jsonl"))
    for n, data in enumerate(_copies(TAMPERED_FROM.read_bytes().splitlines(keepends=True))):
        files.append(tmp_path / f"copy-{n}.jsonl")
        files[-1].write_bytes(data)
    for path in files:
        read: list[int] = []
        kept = verify(file_lines(path, read.append), keep=read.append)
        again = verify(file_lines(path, lambda n: None))
        assert kept.wire() == again.wire(), path
        if kept.status == "verified":
            assert sum(read) == PASSES * path.stat().st_size, path  # each pass told its bytes once


def test_the_warm_up_exports_are_golden_files_and_verify() -> None:
    """What the page folds at start-up (entry.warm_up): one export of each ruleset, held to the corpus."""
    samples = sorted(entry.WARM_UP.glob("*.jsonl"))
    golden = {path.read_bytes() for path in GOLDEN.glob("*/*.jsonl")}
    names = zipfile.ZipFile(io.BytesIO(bundle.zipped())).namelist()

    assert [path.stem for path in samples] == ["epic", "pathfinder"]
    assert all(path.read_bytes() in golden for path in samples)
    assert {f"{bundle.WARM_UP}/{path.name}" for path in samples} <= set(names)
    assert entry.warm_up() == ["verified", "verified"]


TRICKY = [
    b"NaN",
    b"[Infinity]",
    b"[-Infinity]",
    b"1e400",
    b"-1e400",
    b'"\\ud800"',
    b'"\\udc00"',
    b'"\\ud83d\\ude00"',
    b'"\\ud83d\\u0041"',
    b'"\\\\ud800"',
    b'"\\ud800\\ud800"',
    b"\xef\xbb\xbf{}",
    b"\xff",
    b'{"a":1,"a":2}',
    b" [1] ",
    b"[1,]",
    b"12345678901234567890",
    b"-0",
    b"1.5e-7",
    b'"\\u0000"',
    b"",
]


def _read(loads: object, raw: bytes) -> tuple[str, object]:
    try:
        return "ok", loads(raw)  # type: ignore[operator]
    except ValueError:
        return "refused", None


@pytest.mark.parametrize("raw", TRICKY)
def test_the_stand_in_reads_what_orjson_reads_and_refuses_what_it_refuses(raw: bytes) -> None:
    assert _read(stand_in.loads, raw) == _read(orjson.loads, raw)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(value=JSON_VALUES, ascii_only=st.booleans())
def test_the_stand_in_reads_any_json_as_orjson_does(value: object, ascii_only: bool) -> None:
    raw = json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
    assert repr(_read(stand_in.loads, raw)) == repr(_read(orjson.loads, raw))


def test_the_stand_in_writes_nothing_so_canonical_json_is_json_dumps() -> None:
    with pytest.raises(TypeError):
        stand_in.dumps({"a": 1}, option=stand_in.OPT_SORT_KEYS)
