"""`python -m bench.cli_rss CMD...`: run a command as our only child; print its time and peak RSS."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time


def main(command: list[str]) -> None:
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    seconds = time.perf_counter() - start
    max_rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # Linux reports KiB
    tail = done.stderr.decode(errors="replace")[-500:]
    print(json.dumps({"exit": done.returncode, "seconds": seconds, "max_rss_mb": max_rss_mb, "stderr": tail}))


if __name__ == "__main__":
    main(sys.argv[1:])
