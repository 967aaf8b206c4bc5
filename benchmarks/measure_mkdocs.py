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
        out.write_text(json.dumps({"max_rss_kib": peak_kib()}), encoding="utf-8")


def peak_kib() -> int:
    """This process's own peak RSS: ru_maxrss also keeps the peak of the parent exec replaced."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return int(next(line for line in status if line.startswith("VmHWM:")).split()[1])
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


if __name__ == "__main__":
    main()
