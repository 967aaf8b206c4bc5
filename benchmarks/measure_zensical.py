"""Run the Zensical CLI in this process and record its peak memory: measure_zensical.py OUT.json ARGS...

Zensical builds in Rust inside this Python process (and calls back into Python to render Markdown); the peak
resident memory and the CPU time (all threads) of this process and of any process it started are recorded:
CPU time, unlike wall time, hardly depends on what else the machine is doing."""

from __future__ import annotations

import json
import resource
import sys
from pathlib import Path

from zensical.main import cli

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peak import peak_kib


def main() -> None:
    out = Path(sys.argv[1])
    try:
        cli.main(args=sys.argv[2:], prog_name="zensical", standalone_mode=False)
    finally:
        own = resource.getrusage(resource.RUSAGE_SELF)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        # a child's ru_maxrss includes what it inherited from this process, which is within our own peak
        peak = max(peak_kib(), children.ru_maxrss)  # KiB on Linux
        cpu = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
        out.write_text(json.dumps({"max_rss_kib": peak, "cpu_seconds": cpu}), encoding="utf-8")


if __name__ == "__main__":
    main()
