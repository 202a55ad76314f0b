"""The zip the verify page runs (replay/in_browser): the same bytes from the same sources, whole (CPython
with nothing but the zip, msgspec and the standard library gives siege verify's reports byte for byte), what
make install built, and an orjson stand-in that reads what orjson reads, refuses what it refuses and writes
canonical JSON's very bytes."""

from __future__ import annotations

import importlib.util
import io
import json
import math
import os
import random
import shutil
import struct
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import msgspec
import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eventstore import canonical
from replay.in_browser import bundle, entry
from replay.in_browser import orjson as stand_in
from replay.verify import PASSES, file_lines, verify
from tests.browser.verify_page import server_report, without_parser_words
from tests.service.exports import TAMPERS, UNSUPPORTED, UNUSABLE, repinned

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
TAMPERED_FROM = GOLDEN / "epic-2" / "epic-extra-climb-fight-client-seed-undo-unknown-command.jsonl"
# in a process with no site-packages (-S) and no environment (-I), the zip first and msgspec alone beside it
# (the page's /siege and /wheels): each file's report, one JSON line each
ALONE = """
import sys
sys.path[:0] = sys.argv[1:3]
from replay.in_browser.entry import verify_file
import msgspec, orjson
assert orjson.__file__.startswith(sys.argv[1]), orjson.__file__
assert msgspec.__file__.startswith(sys.argv[2]), msgspec.__file__
for path in sys.argv[3:]:
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
    """CPython with only the zip, msgspec and the standard library (the stand-in in orjson's place):
    nothing the verifier imports is left out, and every report is the same bytes, tampered copies included."""
    zipfile.ZipFile(io.BytesIO(bundle.zipped())).extractall(tmp_path / "zip")
    shutil.copytree(Path(msgspec.__file__).parent, tmp_path / "wheels" / "msgspec")
    files = sorted(GOLDEN.glob("*/*.jsonl"))[::8]
    for n, data in enumerate(_copies(TAMPERED_FROM.read_bytes().splitlines(keepends=True))):
        files.append(tmp_path / f"copy-{n}.jsonl")
        files[-1].write_bytes(data)

    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", ALONE, str(tmp_path / "zip"), str(tmp_path / "wheels"), *files],
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


@pytest.mark.parametrize("raw", TRICKY + [b"[%s,1234567890123456789]" % raw for raw in TRICKY if raw.strip()])
def test_the_stand_in_reads_what_the_servers_loads_reads_and_refuses_what_it_refuses(raw: bytes) -> None:
    """The server's canonical.loads reads a line with 19 digits in a row with json, not orjson: that path
    refuses what orjson refuses too (each tricky value is tried with such a run beside it)."""
    assert repr(_read(stand_in.loads, raw)) == repr(_read(canonical.loads, raw))


@settings(max_examples=300, deadline=None)
@given(value=st.recursive(st.integers() | st.text(), lambda inner: st.lists(inner, max_size=4), max_leaves=8))
def test_the_stand_in_keeps_integers_past_64_bits_ints_as_the_server_does(value: object) -> None:
    raw = json.dumps(value).encode()
    assert repr(stand_in.loads(raw)) == repr(canonical.loads(raw)) == repr(json.loads(raw))


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


def browser_canonical() -> ModuleType:
    """eventstore.canonical as the zip runs it: a copy of the module, loaded with the stand-in as orjson."""
    spec = importlib.util.find_spec("eventstore.canonical")
    assert spec is not None and spec.loader is not None
    copy = importlib.util.module_from_spec(spec)
    saved = sys.modules["orjson"]
    sys.modules["orjson"] = stand_in
    try:
        spec.loader.exec_module(copy)
    finally:
        sys.modules["orjson"] = saved
    assert copy.orjson is stand_in and copy._STAND_IN
    return copy


BROWSER = browser_canonical()


def json_dumps(value: object) -> str:
    """The definition of canonical JSON (eventstore/canonical.py)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=500, deadline=None)
@given(value=ANY_JSON)
def test_canonical_json_in_the_browser_is_json_dumps_byte_for_byte(value: object) -> None:
    """Any text (lone surrogates too), integers past 64 bits, floats of every size: msgspec's bytes where
    they are json.dumps', json.dumps where they may not be."""
    assert BROWSER.canonical_json(value) == json_dumps(value) == canonical.canonical_json(value)


def test_every_float_msgspec_writes_otherwise_is_left_to_json_dumps() -> None:
    """msgspec writes 1e16 and 0.00001 where json.dumps writes 1e+16 and 1e-05: each such float goes to
    json.dumps (random bit patterns, and the powers of ten on both sides of both thresholds)."""
    draw = random.Random(27)
    patterns = (struct.unpack("<d", draw.getrandbits(64).to_bytes(8, "little"))[0] for _ in range(20_000))
    mantissas = (1, 1.5, 9.999999, -1, -1.5, -9.999999)
    powers = (float(f"{m}e{e}") for m in mantissas for e in range(-330, 320))
    floats = [x for x in (*patterns, *powers) if math.isfinite(x)]
    for x in floats:
        for value in (x, [x], {"k": x}, [0, x], {"a": "1e5", "b": [x, x]}):
            assert BROWSER.canonical_json(value) == json_dumps(value), value


def test_what_msgspec_would_write_otherwise_raises_orjsons_type_error() -> None:
    class Text(str):
        pass

    for value in ("\ud800", {"\udc00": 1}, {1: "a"}, {None: 1}, Text("a"), 1e16, [1e16], {"a": 1e-7}):
        with pytest.raises(stand_in.JSONEncodeError):
            stand_in.dumps(value, option=canonical._FAST)
    assert stand_in.dumps({"b": [1, 2.5, "é"], "a": None}) == b'{"a":null,"b":[1,2.5,"\xc3\xa9"]}'
