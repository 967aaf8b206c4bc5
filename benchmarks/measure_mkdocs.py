"""Run the MkDocs CLI in this process and record the build's peak memory (this process and the workers it
started, ``peak.build_usage``) and its CPU time: measure_mkdocs.py OUT.json ARGS..."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mkdocs.__main__ import cli

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peak import build_usage


def main() -> None:
    out = Path(sys.argv[1])
    try:
        cli.main(args=sys.argv[2:], prog_name="mkdocs", standalone_mode=False)
    finally:
        out.write_text(json.dumps(build_usage()), encoding="utf-8")


if __name__ == "__main__":
    main()
