"""``a2a-docgen search-index``: the catalogue search's Pagefind index, over a site an engine built.

The MkDocs plugin indexes the agent pages itself. A site built from ``a2a-docgen build`` output by another
engine (Zensical) gets the same search with this step after the engine's build: Pagefind reads the built
agent pages (``site.pagefind``) and writes its bundle into ``SITE/pagefind/``, and ``catalogue-filter.json``
is marked so the home page's script uses it (it asks for no index a site does not have).
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

from a2a_docgen.errors import UsageError

HELP = "index a built site's agent pages for the catalogue search (Pagefind)"

EXAMPLES = """\
examples:
  zensical build && a2a-docgen search-index site     # a Zensical project made by a2a-docgen init

exit status: 0 indexed, 1 Pagefind failed, 2 usage error (no catalogue in SITE, Pagefind not installed).
"""


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "search-index",
        help=HELP,
        description=textwrap.dedent(
            """\
            Write the catalogue search's Pagefind index of the agent pages of SITE, a site an engine built
            from a2a-docgen build output (Zensical: run it after zensical build). The home page's search
            box then shows full-text results, one per skill. The MkDocs plugin does this itself."""
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("site", metavar="SITE", help="the built site's directory (its catalogue's root)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from a2a_docgen.render.filter_index import FILTER_INDEX, SEARCH_INDEX_KEY
    from a2a_docgen.site.pagefind import (
        ENGINE_EXCLUDED,
        ENGINE_ROOT_SELECTOR,
        build_search_index,
        find_pagefind,
    )

    site = Path(args.site)
    filter_file = site / FILTER_INDEX
    if not filter_file.is_file():
        raise UsageError(f"{site}: no {FILTER_INDEX}; build the site from a2a-docgen build output first")
    binary = find_pagefind()
    if binary is None:
        raise UsageError("Pagefind is not installed (pip install 'a2a-docgen[search]')")
    index = build_search_index(
        site, executable=binary, root_selector=ENGINE_ROOT_SELECTOR, excluded=ENGINE_EXCLUDED
    )
    data = json.loads(filter_file.read_bytes())
    data[SEARCH_INDEX_KEY] = "pagefind"
    filter_file.write_bytes(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    print(f"a2a-docgen search-index: {index.pages} agent pages indexed -> {index.directory}", file=sys.stderr)
    return 0
