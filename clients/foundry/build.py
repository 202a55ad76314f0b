"""Build the Foundry VTT module: vendor siege.js (and the catalogs' terms) beside its scripts, then write the
installable zip and the manifest Foundry installs it from. `make foundry-module` runs it; stdlib only."""

from __future__ import annotations

import argparse
import json
import shutil
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
# copied at build time, never kept in git: the module ships the client the service serves, as it is
VENDORED = {
    ROOT / "clients/js/siege.js": HERE / "scripts/siege.js",
    ROOT / "service/viewer_files/terms.js": HERE / "scripts/terms.js",
}
PACKAGED = ("module.json", "README.md", "scripts", "lang", "styles")
ZIP_NAME = "siege-foundry.zip"
FIXED_TIME = (2026, 1, 1, 0, 0, 0)  # every entry's date: the same sources make the same zip


def vendor() -> None:
    for source, target in VENDORED.items():
        if not target.exists() or target.read_bytes() != source.read_bytes():
            shutil.copyfile(source, target)


def manifest(base_url: str) -> dict[str, object]:
    """module.json with the addresses the manifest and the zip will be served at."""
    data: dict[str, object] = json.loads((HERE / "module.json").read_text(encoding="utf-8"))
    base = base_url.rstrip("/")
    return {**data, "url": base, "manifest": f"{base}/module.json", "download": f"{base}/{ZIP_NAME}"}


def files() -> list[Path]:
    found: list[Path] = []
    for name in PACKAGED:
        path = HERE / name
        found.extend(sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path])
    return found


def build(out: Path, base_url: str) -> Path:
    """Write out/siege-foundry.zip (module.json at its root) and out/module.json, the manifest to serve."""
    vendor()
    out.mkdir(parents=True, exist_ok=True)
    described = json.dumps(manifest(base_url), indent=2, ensure_ascii=False) + "\n"
    target = out / ZIP_NAME
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in files():
            name = path.relative_to(HERE).as_posix()
            entry = zipfile.ZipInfo(name, FIXED_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, described if name == "module.json" else path.read_bytes())
    (out / "module.json").write_text(described, encoding="utf-8")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "build/foundry")
    parser.add_argument(
        "--url", default="https://siege.example.org/foundry", help="where both files are served"
    )
    parser.add_argument(
        "--vendor-only", action="store_true", help="copy siege.js and terms.js, build nothing"
    )
    args = parser.parse_args()
    if args.vendor_only:
        vendor()
        return
    print(build(args.out, args.url))


if __name__ == "__main__":
    main()
