"""The Foundry module type-checks strictly against foundry-vtt-types (clients/foundry/tsconfig.json:
`strict`, `checkJs`), its Foundry calls are really checked (each one made wrong fails), and the zip
`make foundry-module` builds holds a module.json with Foundry's manifest fields, its files, and values of
the types fvtt-types gives a module's data."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOUNDRY = ROOT / "clients/foundry"
TSC = FOUNDRY / "node_modules/.bin/tsc"  # `make install` runs `npm ci` there wherever npm is
MISUSE = Path(__file__).parent / "foundry" / "misuse.js"
CHECK_TIMEOUT_S = 240

# Foundry's module manifest (ModuleManifestData, the fields BaseModule's schema defines, API v13): the keys
# a module.json may have
MANIFEST_FIELDS = {
    "id",
    "title",
    "description",
    "authors",
    "url",
    "license",
    "readme",
    "bugs",
    "changelog",
    "flags",
    "media",
    "version",
    "compatibility",
    "scripts",
    "esmodules",
    "styles",
    "languages",
    "packs",
    "packFolders",
    "documentTypes",
    "relationships",
    "socket",
    "manifest",
    "download",
    "protected",
    "exclusive",
    "persistentStorage",
    "coreTranslation",
    "library",
}
LANGUAGE_FIELDS = {"lang", "name", "path", "system", "module", "flags"}
AUTHOR_FIELDS = {"name", "email", "url", "discord", "flags"}


@pytest.fixture(scope="module")
def tsc() -> Path:
    if TSC.exists():
        return TSC
    if shutil.which("npm") is not None:
        pytest.fail(
            "no foundry-vtt-types in clients/foundry/node_modules although npm is here: run `make install`"
        )
    pytest.skip("no npm on this machine to install TypeScript and foundry-vtt-types with")


def typecheck(tsc: Path, project: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(tsc), "-p", str(project)], capture_output=True, text=True, timeout=CHECK_TIMEOUT_S, check=False
    )


def vendor() -> None:
    """siege.js and terms.js beside the scripts, as the build vendors them (they are not kept in git)."""
    subprocess.run([sys.executable, str(FOUNDRY / "build.py"), "--vendor-only"], check=True, timeout=60)


def project(directory: Path, files: list[Path]) -> Path:
    """A tsconfig in `directory` checking `files` with the module's options and its fvtt-types."""
    config = {
        "extends": str(FOUNDRY / "tsconfig.json"),
        "compilerOptions": {"typeRoots": [str(FOUNDRY / "node_modules")]},
        "include": [],
        "files": [str(f) for f in files],
    }
    (directory / "tsconfig.json").write_text(json.dumps(config))
    return directory


def test_the_module_type_checks_strictly_against_foundry_vtt_types(tsc: Path) -> None:
    vendor()
    checked = typecheck(tsc, FOUNDRY)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    config = json.loads((FOUNDRY / "tsconfig.json").read_text())
    assert config["compilerOptions"]["strict"] and config["compilerOptions"]["checkJs"]
    assert config["compilerOptions"]["types"] == ["fvtt-types"]


def test_each_foundry_call_made_wrong_fails_to_type_check(tsc: Path, tmp_path: Path) -> None:
    vendor()
    checked = typecheck(tsc, project(tmp_path, [MISUSE, FOUNDRY / "types/foundry-config.d.ts"]))
    lines = MISUSE.read_text().splitlines()
    calls = {n for n, line in enumerate(lines, start=1) if line and not line.startswith("//")}
    failed = {int(n) for n in re.findall(r"misuse\.js\((\d+),\d+\): error", checked.stdout)}
    assert failed == calls, checked.stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("foundry-module")
    url = "https://siege.example.org/foundry/v1"
    subprocess.run(
        ["make", "--no-print-directory", "foundry-module", f"FOUNDRY_OUT={out}", f"FOUNDRY_URL={url}"],
        cwd=ROOT,
        check=True,
        timeout=120,
    )
    return out


def zipped_manifest(built: Path) -> tuple[dict[str, Any], set[str], zipfile.ZipFile]:
    archive = zipfile.ZipFile(built / "siege-foundry.zip")
    return json.loads(archive.read("module.json")), set(archive.namelist()), archive


def test_the_zip_holds_a_manifest_with_foundrys_fields_and_every_file_it_names(built: Path) -> None:
    manifest, names, archive = zipped_manifest(built)
    assert set(manifest) <= MANIFEST_FIELDS, set(manifest) - MANIFEST_FIELDS
    assert re.fullmatch(r"[a-z0-9-]+", manifest["id"]) and manifest["title"] and manifest["version"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", manifest["version"])
    assert manifest["compatibility"] == {"minimum": "12", "verified": "13"}
    assert all(set(author) <= AUTHOR_FIELDS and author["name"] for author in manifest["authors"])
    for path in [*manifest["esmodules"], *manifest["styles"]]:
        assert path in names, path
    assert {language["lang"] for language in manifest["languages"]} == {"en", "fr"}
    for language in manifest["languages"]:
        assert set(language) <= LANGUAGE_FIELDS and language["path"] in names
        json.loads(archive.read(language["path"]))
    # where Foundry finds it: the manifest served beside the zip is the zip's own, and names the zip
    assert manifest["manifest"] == "https://siege.example.org/foundry/v1/module.json"
    assert manifest["download"] == "https://siege.example.org/foundry/v1/siege-foundry.zip"
    assert json.loads((built / "module.json").read_text()) == manifest
    # siege.js and the catalogs' terms are vendored at build time, byte for byte
    assert archive.read("scripts/siege.js") == (ROOT / "clients/js/siege.js").read_bytes()
    assert archive.read("scripts/terms.js") == (ROOT / "service/viewer_files/terms.js").read_bytes()
    # every module the scripts import is in the zip: none is left behind in the source tree
    for name in names:
        if name.endswith(".js"):
            text = archive.read(name).decode()
            for imported in re.findall(r'from "(\.[^"]+)"', text):
                assert _normal(f"{Path(name).parent.as_posix()}/{imported}") in names, (name, imported)
    assert not {n for n in names if n.startswith(("node_modules", "types/", "package"))}


def _normal(path: str) -> str:
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


def test_the_manifest_values_have_the_types_of_a_modules_data(tsc: Path, built: Path, tmp_path: Path) -> None:
    """The zip's module.json as a literal that must satisfy fvtt-types' BaseModule.CreateData (Foundry's
    schema for a module's data): a number where Foundry wants a version string is refused, for one."""
    manifest, _, _ = zipped_manifest(built)
    wrong = {**manifest, "compatibility": {"minimum": 12, "verified": "13"}}
    module_data = "foundry.packages.BaseModule.CreateData"
    source = (
        f"export const manifest = ({json.dumps(manifest)}) satisfies {module_data};\n"
        f"export const wrong = ({json.dumps(wrong)}) satisfies {module_data};\n"
    )
    (tmp_path / "manifest.ts").write_text(source)
    checked = typecheck(tsc, project(tmp_path, [tmp_path / "manifest.ts"]))
    errors = re.findall(r"manifest\.ts\((\d+),\d+\): error", checked.stdout)
    assert errors == ["2"], checked.stdout  # the built manifest passes, the wrong one does not
