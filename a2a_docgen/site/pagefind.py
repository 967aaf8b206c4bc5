"""The catalogue search: a Pagefind index of the agent pages of a built site.

The home page's search box (``assets/catalogue.js``) loads ``pagefind/pagefind.js`` from the catalogue's
root when it is there and searches the agent pages with it: full text, every skill a result of its own,
a few kilobytes a query on any static host. This module writes that bundle after a site is built.

    index = build_search_index(Path("site"))      # the catalogue's root directory in the built site
    index.pages                                   # agent pages indexed

Pagefind (PyPI ``pagefind[bin]``, the ``search`` extra) ships a native binary; it is run directly, found
the way the ``pagefind`` package finds it (``PAGEFIND_BINARY_PATH``, ``pagefind_bin_extended``,
``pagefind_bin``, then ``pagefind`` on ``PATH``). Running the binary rather than ``python -m pagefind`` (which
only ``exec``-s the same binary) gives its own exit status and output, and works when only ``pagefind_bin``
or a system binary is installed. The Python API is not used: it indexes one record at a time with a pause
after each.

Only the catalogue's agent pages are read (``--glob agents/*/index.html``, ``--root-selector
.a2a-page-agent``), so a site's own pages are never indexed, whatever attributes they carry: Pagefind alone
would index every page marked ``data-pagefind-body`` (and, on a site where no page is, every page). Within
an agent page Pagefind indexes the element marked
``data-pagefind-body`` (the plugin marks the agent page's content, not the theme's navigation), skips
``data-pagefind-ignore`` and ``EXCLUDED``, and reads the ``data-pagefind-filter`` facets.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from a2a_docgen.errors import A2ADocgenError

__all__ = [
    "AGENT_PAGES_GLOB",
    "ENGINE_EXCLUDED",
    "ENGINE_ROOT_SELECTOR",
    "PAGEFIND_DIR",
    "SearchIndex",
    "build_search_index",
    "find_pagefind",
]

PAGEFIND_DIR = "pagefind"
"""The bundle's directory under the catalogue's root (``catalogue.js`` looks for ``pagefind/pagefind.js``)."""
AGENT_PAGES_GLOB = "agents/*/index.html"
"""The agent pages, relative to the catalogue's root, with and without MkDocs' directory URLs."""
ROOT_SELECTOR = ".a2a-page-agent"
"""The element the plugin wraps an agent page's content in: a file without it (a site's own page that happens
to be under ``agents/``) is skipped, whatever Pagefind attributes it carries."""
EXCLUDED = (".headerlink", ".a2a-requests", ".a2a-copy")
"""Left out of the index: permalink marks, the ready-to-send requests (the request body repeats the example,
curl and Python code is the same on every page; the box also carries ``data-pagefind-ignore``) and copy
buttons."""
ENGINE_ROOT_SELECTOR = "article.md-content__inner"
"""The content of an agent page built by an engine from ``a2a-docgen build`` output (Zensical, Material):
the page without the theme's navigation. Only files matching ``AGENT_PAGES_GLOB`` are read."""
ENGINE_EXCLUDED = (".headerlink", ".tabbed-set", ".md-clipboard", ".a2a-copy")
"""Left out there: permalink marks, the request tabs (as the plugin's ``.a2a-requests``) and copy buttons."""
TIMEOUT = 1800.0
"""Seconds Pagefind may take (about 5 s for 1,000 agents of 10 skills on two cores)."""

_INDEXED_PAGES = re.compile(r"Indexed ([0-9,]+) pages?")


@dataclass(frozen=True)
class SearchIndex:
    """A written Pagefind bundle."""

    directory: Path
    pages: int
    """Pages Pagefind reports as indexed (-1 when its output did not say)."""
    output: str
    """What Pagefind printed."""


def find_pagefind() -> Path | None:
    """The Pagefind binary, or None when it is not installed."""
    try:
        from pagefind.service import get_executable  # the pagefind package's own search
    except ImportError:
        pass
    else:
        found = get_executable()
        if found is not None and found.is_file():
            return found
    try:
        from pagefind_bin import get_executable as bin_executable
    except ImportError:
        pass
    else:
        try:
            return Path(bin_executable())
        except (FileNotFoundError, OSError):
            pass
    system = shutil.which("pagefind_extended") or shutil.which("pagefind")
    return Path(system) if system else None


def build_search_index(
    catalogue_dir: Path,
    *,
    executable: Path | None = None,
    timeout: float = TIMEOUT,
    root_selector: str = ROOT_SELECTOR,
    excluded: tuple[str, ...] = EXCLUDED,
    output: Path | None = None,
) -> SearchIndex:
    """Index the agent pages under ``catalogue_dir`` into ``catalogue_dir/pagefind/`` (or ``output``, when the
    pages read are copies laid out as the catalogue is): the plugin's pages by default; an engine's
    (``ENGINE_ROOT_SELECTOR``, ``ENGINE_EXCLUDED``) for a site built from ``a2a-docgen build`` output.

    Raises ``A2ADocgenError`` when Pagefind is missing, fails or times out.
    """
    binary = executable or find_pagefind()
    if binary is None:
        raise A2ADocgenError("Pagefind is not installed (pip install 'a2a-docgen[search]')")
    if not catalogue_dir.is_dir():
        raise A2ADocgenError(f"{catalogue_dir} is not a directory")
    argv = [
        os.fspath(binary),
        "--site",
        os.fspath(catalogue_dir),
        "--glob",
        AGENT_PAGES_GLOB,
        "--root-selector",
        root_selector,
        "--exclude-selectors",
        ", ".join(excluded),
        *(
            ["--output-path", os.fspath(output.absolute())]
            if output is not None
            else ["--output-subdir", PAGEFIND_DIR]
        ),
    ]
    try:
        result = subprocess.run(
            argv,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=timeout,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as exc:
        raise A2ADocgenError(f"Pagefind did not finish within {timeout:.0f} s") from exc
    except OSError as exc:
        raise A2ADocgenError(f"cannot run Pagefind ({binary}): {exc}") from exc
    printed = (result.stdout + result.stderr).strip()
    if result.returncode != 0:
        tail = "\n".join(printed.splitlines()[-20:])
        raise A2ADocgenError(f"Pagefind failed (exit {result.returncode}):\n{tail}")
    found = _INDEXED_PAGES.search(printed)
    pages = int(found.group(1).replace(",", "")) if found else -1
    return SearchIndex(output if output is not None else catalogue_dir / PAGEFIND_DIR, pages, printed)
