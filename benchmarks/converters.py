"""Why the plugin converts with markdown-it-py: every page of a synthetic catalogue through each candidate.

    .venv/bin/python benchmarks/converters.py [AGENTS] [SKILLS]     # JSON on stdout (default 200 x 10)

The same Markdown (what `a2a-docgen build` writes) converted by:

- Python-Markdown with the extensions of the repository's mkdocs.yml (toc with permalinks, tables,
  fenced_code): what a plain `mkdocs build` runs on our pages;
- markdown-it-py with the plugin's profile (`a2a_docgen.html.to_html`: ids, facts, links, Material markup);
- cmarkgfm (GitHub's C implementation of CommonMark and GFM), HTML only.

CPU seconds, the fastest of two passes, in this process. cmarkgfm is two orders of magnitude faster, but
it gives HTML, not tokens: the profile's work (telling card text from our syntax to allow links, set ids,
mark facts and theme markup) would have to happen on HTML in which card text is already decoded.
"""

from __future__ import annotations

import gc
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cmarkgfm
import markdown
from cmarkgfm.cmark import Options
from synthetic import write_catalogue

from a2a_docgen.catalog import load_catalog
from a2a_docgen.html import Theme, to_html
from a2a_docgen.render import render_catalog

MATERIAL = Theme(flavour="material", permalink="¶")

CANDIDATES: dict[str, Callable[[str], str]] = {
    "Python-Markdown (toc, tables, fenced_code: the repository's mkdocs.yml)": lambda text: markdown.markdown(
        text, extensions=["toc", "tables", "fenced_code"], extension_configs={"toc": {"permalink": True}}
    ),
    "markdown-it-py with the plugin's profile": lambda text: to_html(text, theme=MATERIAL).html,
    "cmarkgfm (C; HTML only, no tokens)": lambda text: cmarkgfm.github_flavored_markdown_to_html(
        text, options=Options.CMARK_OPT_UNSAFE
    ),
}


def measure(agents: int, skills: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="a2a-docgen-converters-") as tmp:
        write_catalogue(Path(tmp), agents, skills)
        site = render_catalog(load_catalog([tmp]))
    pages = [text for path, text in sorted(site.pages.items()) if str(path).endswith(".md")]
    seconds: dict[str, float] = {}
    for name, convert in CANDIDATES.items():
        passes = []
        for _ in range(2):
            gc.collect()
            start = time.process_time()
            for page in pages:
                convert(page)
            passes.append(time.process_time() - start)
        seconds[name] = min(passes)
    return {
        "agents": agents,
        "skills": skills,
        "pages": len(pages),
        "markdown_bytes": sum(len(page.encode("utf-8")) for page in pages),
        "cpu_seconds": seconds,
    }


def report(result: dict[str, Any]) -> list[str]:
    fastest = min(result["cpu_seconds"].values())
    return [
        f"## Converters ({result['agents']} agents x {result['skills']} skills)",
        "",
        f"Every Markdown page of the catalogue ({result['pages']} pages, {result['markdown_bytes'] / 1e6:.1f} MB)"
        " converted to HTML in one process, CPU time, fastest of two passes (`benchmarks/converters.py`):",
        "",
        "| converter | CPU time | vs the fastest |",
        "| --- | --- | --- |",
        *[
            f"| {name} | {seconds:.2f} s | {seconds / fastest:.0f}x |"
            for name, seconds in result["cpu_seconds"].items()
        ],
        "",
        "The plugin uses markdown-it-py: its token stream is what lets the profile tell card text from our own",
        "syntax (links allowed only where we wrote them, heading ids, facts, theme markup), which HTML from a C",
        "converter no longer shows once card text is decoded into it. cmarkgfm would make conversion almost free",
        "but move that work to an HTML post-processor, the kind of code the sealed pages exist to avoid.",
        "",
    ]


def main(argv: list[str]) -> int:
    agents, skills = (int(argv[0]), int(argv[1])) if len(argv) >= 2 else (200, 10)
    print(json.dumps(measure(agents, skills), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
