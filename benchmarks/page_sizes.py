"""The largest pages of a very large catalogue, as the plugin makes them.

    python benchmarks/page_sizes.py [--agents 5000] [--skills 10] [--json]

Renders the synthetic catalogue (benchmarks/synthetic.py) and converts every page with the plugin's own
converter (``a2a_docgen.html``, mkdocs-material flavour), as the plugin does inside ``mkdocs build``; then adds
the theme's page around the content (header, navigation, footer), measured on a real build of a small
catalogue with the repository's mkdocs.yml: the navigation lists the catalogue's index pages only, so that part
is the same at any size. A whole ``mkdocs build`` of 5,000 agents would say the same at ten times the cost.

Prints the largest pages (HTML bytes) and, with --json, the numbers as JSON. Target (docs/performance.md): no
page over 300 KB of HTML at 5,000 agents.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from builds import _config  # noqa: E402
from synthetic import write_catalogue  # noqa: E402

from a2a_docgen.catalog import load_catalog  # noqa: E402
from a2a_docgen.html import Theme  # noqa: E402
from a2a_docgen.render import render_catalog  # noqa: E402
from a2a_docgen.render.parallel import default_jobs  # noqa: E402
from a2a_docgen.site.plugin.cache import HtmlCache  # noqa: E402

TARGET_BYTES = 300_000
MATERIAL = Theme(flavour="material", permalink="¶")


def content_sizes(cards: Path) -> dict[str, int]:
    """Each page's converted content, in bytes, by page path."""
    site = render_catalog(load_catalog([cards]), jobs=default_jobs())
    html = HtmlCache().convert(site.pages, MATERIAL, jobs=default_jobs())  # as the plugin converts them
    return {path: len(page.html.encode("utf-8")) for path, page in html.items()}


def chrome_bytes(work: Path) -> int:
    """The most the theme's page adds around a page's content, on a real build of 20 agents."""
    cards = work / "small-cards"
    write_catalogue(cards, 20, 3)
    docs = work / "small-docs"
    docs.mkdir()
    config = work / "small.yml"
    config.write_text(_config(cards, docs, search_index="off"), encoding="utf-8")
    site = work / "small-site"
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(site)],
        check=True,
        capture_output=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    added = 0
    for path, content in content_sizes(cards).items():
        html_path = site / (path.removesuffix("index.md").removesuffix(".md") + "/index.html").lstrip("/")
        if path == "index.md":
            html_path = site / "index.html"
        if html_path.is_file():
            # the plugin wraps the content (facets, the catalogue's own markup): counted in the chrome
            added = max(added, html_path.stat().st_size - content)
    return added


def measure(agents: int, skills: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="a2a-docgen-pages-") as tmp:
        work = Path(tmp)
        chrome = chrome_bytes(work)
        cards = work / "cards"
        write_catalogue(cards, agents, skills)
        sizes = content_sizes(cards)
    largest = sorted(sizes.items(), key=lambda item: (-item[1], item[0]))[:8]
    return {
        "agents": agents,
        "skills": skills,
        "pages": len(sizes),
        "chrome_bytes": chrome,
        "largest": [{"path": path, "html_bytes": size + chrome} for path, size in largest],
        "largest_bytes": largest[0][1] + chrome,
        "target_bytes": TARGET_BYTES,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--agents", type=int, default=5000)
    parser.add_argument("--skills", type=int, default=10)
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args(argv)
    result = measure(args.agents, args.skills)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(
        f"{args.agents} agents x {args.skills} skills: {result['pages']} pages; theme around each: "
        f"{result['chrome_bytes'] / 1000:.0f} KB"
    )
    for row in result["largest"]:  # type: ignore[attr-defined]
        print(f"  {row['html_bytes'] / 1000:8.1f} KB  {row['path']}")
    return 0 if int(result["largest_bytes"]) <= TARGET_BYTES else 1  # type: ignore[call-overload]


if __name__ == "__main__":
    sys.exit(main())
