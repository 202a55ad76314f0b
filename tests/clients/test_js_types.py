"""clients/js/siege.js type-checks: TypeScript reads its JSDoc (clients/js/tsconfig.json, strict) and finds
no error, so the types the README promises are the ones the code keeps."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TSC = ROOT / ".venv/node/node_modules/.bin/tsc"  # `make install` puts it there wherever npm is
CHECK_TIMEOUT_S = 120


@pytest.fixture(scope="module")
def tsc() -> Path:
    if TSC.exists():
        return TSC
    if shutil.which("npm") is not None:
        pytest.fail("no TypeScript in .venv/node although npm is here: run `make install`")
    pytest.skip("no npm on this machine to install TypeScript with")


def test_the_jsdoc_types_of_siege_js_check_strictly(tsc: Path) -> None:
    checked = subprocess.run(
        [str(tsc), "-p", str(ROOT / "clients/js")],
        capture_output=True,
        text=True,
        timeout=CHECK_TIMEOUT_S,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
