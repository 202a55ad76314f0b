"""`python -m bench.profile_top FILE [N]`: the N frames of a py-spy raw profile with the most samples under
them (inclusive, each frame counted once per sample), as percentages of all samples."""

from __future__ import annotations

import re
import sys
from collections import Counter

LINE = re.compile(r":\d+\)")  # a frame is `function (file:line)`; lines apart, it is the same frame


def top(path: str, count: int) -> list[tuple[float, str]]:
    inclusive: Counter[str] = Counter()
    total = 0
    with open(path, encoding="utf-8") as raw:
        for line in raw:
            stack, _, samples = line.rstrip().rpartition(" ")
            if not stack:
                continue
            total += int(samples)
            for frame in {LINE.sub(")", f) for f in stack.split(";")}:
                inclusive[frame] += int(samples)
    return [(100 * n / total, frame) for frame, n in inclusive.most_common(count)]


if __name__ == "__main__":
    for share, frame in top(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40):
        print(f"{share:5.1f}%  {frame}")
