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

__all__ = ["Build", "build_projects", "page_text", "snapshot"]

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


class _Text(HTMLParser):
    def __init__(self, region_only: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.region_only = region_only
        self.depth = 0
        self.skip = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        is_region = (tag == "article" and "md-content__inner" in (values.get("class") or "").split()) or (
            values.get("role") == "main"
        )
        if (self.depth or is_region) and tag not in _VOID:
            self.depth += 1
        if tag in ("script", "style"):
            self.skip += 1

    def handle_endtag(self, tag: str) -> None:
        if self.depth:
            self.depth -= 1
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip and (self.depth or not self.region_only):
            self.parts.append(data)


def page_text(html_text: str, *, content_only: bool = False) -> str:
    """The visible text of a page (entity-decoded, scripts left out), whitespace collapsed.

    ``content_only`` keeps the theme's content region only (``article.md-content__inner`` or
    ``[role=main]``).
    """
    parser = _Text(content_only)
    parser.feed(html_text)
    parser.close()
    return " ".join(" ".join(parser.parts).split())
