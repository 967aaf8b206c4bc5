"""Run the Zensical CLI in this process and record its peak memory: measure_zensical.py OUT.json ARGS...

Zensical builds in Rust inside this Python process (and calls back into Python to render Markdown); the peak
resident memory and the CPU time (all threads) of this process and of any process it started are recorded:
CPU time, unlike wall time, hardly depends on what else the machine is doing."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from zensical.main import cli

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peak import build_usage


def main() -> None:
    out = Path(sys.argv[1])
    try:
        cli.main(args=sys.argv[2:], prog_name="zensical", standalone_mode=False)
    finally:
        out.write_text(json.dumps(build_usage()), encoding="utf-8")


if __name__ == "__main__":
    main()
