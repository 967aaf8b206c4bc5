"""Run the MkDocs CLI in this process and record its peak memory: measure_mkdocs.py OUT.json ARGS..."""

from __future__ import annotations

import json
import resource
import sys
from pathlib import Path

from mkdocs.__main__ import cli


def main() -> None:
    out = Path(sys.argv[1])
    try:
        cli.main(args=sys.argv[2:], prog_name="mkdocs", standalone_mode=False)
    finally:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
        out.write_text(json.dumps({"max_rss_kib": peak}), encoding="utf-8")


if __name__ == "__main__":
    main()
