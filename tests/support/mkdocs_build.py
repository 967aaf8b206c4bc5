"""Build MkDocs projects in a child process, with limits, and read what they produced.

The build runs in ``python -m mkdocs`` (not in the test process): a hostile card that makes the build hang
or exhaust memory then fails one build instead of the test session. Several builds run in parallel.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

__all__ = ["Build", "build_cards_site", "build_projects", "content_shapes", "page_text", "snapshot"]

MEMORY_LIMIT = 3 * 1024**3
"""Address-space limit of one build (bytes)."""


@dataclass
class Build:
    """One finished build."""

    name: str
    project: Path
    site: Path
    returncode: int
    output: str
    """stdout and stderr together."""
    seconds: float


_LIMITED_MKDOCS = (
    "import resource, runpy, sys; "
    "resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit})); "
    "sys.argv = ['mkdocs', *sys.argv[1:]]; "
    "runpy.run_module('mkdocs', run_name='__main__')"
)


def build_projects(
    jobs: Mapping[str, tuple[Path, Path]],
    *,
    env: Mapping[str, str] | None = None,
    timeout: float = 180,
) -> dict[str, Build]:
    """``mkdocs build -f CONFIG -d SITE`` for each ``name: (CONFIG, SITE)``, in parallel child processes.

    Each build runs in the directory of its mkdocs.yml, under an address-space limit and a common timeout.
    """
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    started = time.monotonic()
    running: dict[str, subprocess.Popen[str]] = {}
    for name, (config, site) in jobs.items():
        launcher = [sys.executable, "-c", _LIMITED_MKDOCS.format(limit=MEMORY_LIMIT)]
        running[name] = subprocess.Popen(
            [*launcher, "build", "-f", str(config), "-d", str(site)],
            cwd=config.parent,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
    builds: dict[str, Build] = {}
    for name, process in running.items():
        try:
            output, _ = process.communicate(timeout=max(1.0, timeout - (time.monotonic() - started)))
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
            output += f"\n[killed after {timeout} s]"
        config, site = jobs[name]
        builds[name] = Build(
            name, config.parent, site, process.returncode, output, time.monotonic() - started
        )
    return builds


def build_cards_site(directory: Path, *, site_url: str = "") -> Path:
    """``mkdocs build`` of a site in ``directory`` whose plugin reads ``directory/cards`` (no search index, the
    default theme); asserts it succeeded and returns the built site."""
    (directory / "docs").mkdir(exist_ok=True)
    (directory / "mkdocs.yml").write_text(
        f"site_name: Cards\n{f'site_url: {site_url}' if site_url else ''}\ndocs_dir: docs\n"
        "plugins:\n  - a2a-docgen:\n      cards: cards\n      search_index: off\n",
        encoding="utf-8",
    )
    built = build_projects({"site": (directory / "mkdocs.yml", directory / "built")})["site"]
    assert built.returncode == 0, built.output
    return built.site


def snapshot(root: Path, *, exclude: Path | None = None) -> dict[str, bytes]:
    """Every file under ``root`` (not following links), by relative path, except those under ``exclude``."""
    files: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        if exclude is not None and (path == exclude or exclude in path.parents):
            continue
        if path.is_symlink():
            files[path.relative_to(root).as_posix()] = b"-> " + os.fsencode(os.readlink(path))
        elif path.is_file():
            files[path.relative_to(root).as_posix()] = path.read_bytes()
    return files


_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)

Shape = tuple[str, str, tuple[str, ...]]
"""An element as structure: tag, its classes (sorted, space-joined), its other attribute names (sorted)."""

_VALUE_ATTRIBUTES = frozenset({"alt", "class", "for", "href", "id", "src", "title"})
"""Attributes whose presence is expected to vary with content; they are not part of a shape."""


def _is_content_root(tag: str, attrs: dict[str, str | None]) -> bool:
    classes = (attrs.get("class") or "").split()
    return (tag == "article" and "md-content__inner" in classes) or attrs.get("role") == "main"


class _Content(HTMLParser):
    """Walks a page and reports what is inside the theme's content region."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.skip = 0
        self.all_text: list[str] = []
        self.content_text: list[str] = []
        self.shapes: set[Shape] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if self.depth or _is_content_root(tag, values):
            classes = " ".join(sorted((values.get("class") or "").split()))
            others = tuple(sorted(name for name in values if name not in _VALUE_ATTRIBUTES))
            self.shapes.add((tag, classes, others))
            if tag not in _VOID:
                self.depth += 1
        if tag in ("script", "style"):
            self.skip += 1

    def handle_endtag(self, tag: str) -> None:
        if self.depth and tag not in _VOID:
            self.depth -= 1
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.all_text.append(data)
            if self.depth:
                self.content_text.append(data)


def _parse(html_text: str) -> _Content:
    parser = _Content()
    parser.feed(html_text)
    parser.close()
    return parser


def page_text(html_text: str, *, content_only: bool = False) -> str:
    """The visible text of a page (entity-decoded, scripts left out), whitespace collapsed.

    ``content_only`` keeps the theme's content region only (``article.md-content__inner`` or
    ``[role=main]``).
    """
    parser = _parse(html_text)
    return " ".join(" ".join(parser.content_text if content_only else parser.all_text).split())


def content_shapes(html_text: str) -> set[Shape]:
    """The kinds of element inside the content region of a page (see ``Shape``)."""
    return _parse(html_text).shapes
