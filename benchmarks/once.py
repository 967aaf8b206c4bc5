"""One timed generation or floor in a fresh interpreter, as one `a2a-docgen build` is: no warm caches.

    python benchmarks/once.py generation CARDS OUT JOBS
    python benchmarks/once.py floor CARDS OUT FILES

prints the timings as one JSON object (the fields of run.Generation).
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import floor, generation


def main(argv: list[str]) -> None:
    kind, cards, out, count = argv
    timed = generation if kind == "generation" else floor
    print(json.dumps(dataclasses.asdict(timed(Path(cards), Path(out), int(count)))))


if __name__ == "__main__":
    main(sys.argv[1:])
