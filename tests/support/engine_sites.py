"""Sites of a catalogue built by each site engine from the projects ``a2a-docgen init`` writes, and the facts
read back from their HTML.

Engines: ``zensical`` (``a2a-docgen build`` into ``docs/``, then ``zensical build``), ``mkdocs`` and
``properdocs`` (Material theme, the a2a-docgen plugin). Each engine runs in a child process of the test
interpreter (the ``engines`` extra installs all three beside the test dependencies), under a memory limit
and a timeout. Without an engine the tests that need it are skipped, or fail when
``A2A_DOCGEN_REQUIRE_ENGINES=1`` (set in CI).

The facts are compared with what the catalogue says (the model) and with the Markdown the renderer wrote,
never with strings written into the test: any cards can be built and checked this way
(``A2A_DOCGEN_ENGINE_CARDS=DIR`` replaces the example catalogue).
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

from a2a_docgen.cli import main
from a2a_docgen.site.scaffold import ENGINES as SCAFFOLD_ENGINES
from a2a_docgen.site.scaffold import build_steps
from tests.support.mkdocs_build import MEMORY_LIMIT, snapshot

__all__ = [
    "ENGINES",
    "REQUIRE_ENV",
    "EngineBuild",
    "HtmlPage",
    "build_project",
    "engine_missing",
    "init_project",
    "parse_page",
    "require_engine",
]

ENGINES = ("zensical", "mkdocs", "properdocs")
REQUIRE_ENV = "A2A_DOCGEN_REQUIRE_ENGINES"

_MODULES = {
    "zensical": ("zensical",),
    "mkdocs": ("mkdocs", "material"),
    "properdocs": ("properdocs", "material"),
}
_CONFIGS = {"zensical": "zensical.toml", "mkdocs": "mkdocs.yml", "properdocs": "properdocs.yml"}

_LIMITED = (
    "import resource, runpy, sys; "
    "resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit})); "
    "sys.argv = [{module!r}, *sys.argv[1:]]; "
    "runpy.run_module({module!r}, run_name='__main__')"
)


def engine_missing(engine: str) -> str | None:
    """Why ``engine`` cannot run in this interpreter, or ``None``."""
    missing = [m for m in _MODULES[engine] if importlib.util.find_spec(m) is None]
    if missing:
        return f"{engine} is not installed (module {', '.join(missing)}; pip install -e '.[engines]')"
    return None


def require_engine(engine: str) -> None:
    """Skip the test without the engine, or fail it when the environment demands every engine."""
    reason = engine_missing(engine)
    if reason is None:
        return
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{reason}, and {REQUIRE_ENV}=1 requires the engine tests to run")
    pytest.skip(f"{reason} (set {REQUIRE_ENV}=1 to make this a failure)")


def init_project(project: Path, engine: str, cards: Path, *, site_name: str | None = None) -> Path:
    """``a2a-docgen init --engine ENGINE --cards CARDS PROJECT``; returns the configuration file."""
    argv = ["init", "--engine", engine, "--cards", str(cards), str(project)]
    if site_name is not None:
        argv += ["--site-name", site_name]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(argv)
    assert code == 0, out.getvalue()
    return project / _CONFIGS[engine]


@dataclass
class EngineBuild:
    """One build of a project: the engine's output and what changed in the project."""

    engine: str
    project: Path
    site: Path
    returncode: int
    output: str
    seconds: float
    """Wall time of the whole build (for Zensical: ``a2a-docgen build`` and ``zensical build``)."""
    changed_outside: list[str] = field(default_factory=list)
    """Files of the project created or changed outside docs/, site/ and Zensical's .cache/."""

    def check(self) -> Path:
        """The site directory; fails the test with the build log when the build failed."""
        assert self.returncode == 0, f"{self.engine} build failed:\n{self.output[-6000:]}"
        return self.site


def _run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float) -> tuple[int, str]:
    try:
        done = subprocess.run(
            argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired as exc:
        return 1, f"{exc.stdout or ''}{exc.stderr or ''}\n[killed after {timeout} s]"
    return done.returncode, done.stdout + done.stderr


def build_project(
    project: Path,
    engine: str,
    *,
    cards: str = "cards",
    env: dict[str, str] | None = None,
    timeout: float = 300,
    memory: int = MEMORY_LIMIT,
) -> EngineBuild:
    """Build ``project`` (made by ``init_project``) the way its configuration says, in child processes, with
    ``--strict``. ``cards`` is the card path as the Zensical project's build step names it."""
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    config = _CONFIGS[engine]
    before = snapshot(project)
    started = time.monotonic()
    output = ""
    code = 0
    launcher = [sys.executable, "-c", _LIMITED.format(limit=memory, module=engine)]
    steps: list[list[str]] = []
    # The commands init prints (and writes into the configuration), run from the project; the engine's
    # build strictly, under a memory limit.
    for step in build_steps(SCAFFOLD_ENGINES[engine], cards=cards, config_option=f" -f {config}"):
        program, *rest = shlex.split(step)
        if program == "a2a-docgen":
            steps.append([sys.executable, "-m", "a2a_docgen", *rest])
        elif program == engine and rest[:1] == ["build"]:
            steps.append([*launcher, "build", "--strict", *rest[1:]])
        else:
            raise AssertionError(f"unexpected build step: {step}")
    for argv in steps:
        code, text = _run(argv, project, environment, timeout)
        output += text
        if code != 0:
            break
    seconds = time.monotonic() - started
    after = snapshot(project, exclude=project / "site")
    outside = sorted(
        path
        for path in set(before) | set(after)
        if not path.startswith(("docs/", "site/", ".cache/")) and before.get(path) != after.get(path)
    )
    return EngineBuild(engine, project, project / "site", code, output, seconds, outside)


# -- reading a built page ------------------------------------------------------------------------------------


@dataclass
class Heading:
    level: int
    id: str | None
    text: str


@dataclass
class HtmlPage:
    """The content region of a built page (``article.md-content__inner`` in Material and Zensical, or the
    whole body): its headings, code blocks and text, and the text of each skill's section."""

    headings: list[Heading] = field(default_factory=list)
    code_blocks: list[str] = field(default_factory=list)
    """The text of every ``<pre>`` element, entities decoded, highlighting markup dropped."""
    text: str = ""
    """All visible text, whitespace collapsed."""
    sections: dict[str, str] = field(default_factory=dict)
    """Visible text from each level-2 heading with an id to the next level-2 heading, by that id."""
    head: str = ""
    """Visible text before the first of those headings (an agent page: the agent's summary)."""
    links: list[str] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)


_VOID = frozenset({"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"})


class _PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = HtmlPage()
        self.depth = 0  # inside the content region
        self.skip = 0  # inside script, style or a permalink
        self.stack: list[str] = []
        self.heading: tuple[int, str | None, list[str]] | None = None
        self.pre: list[str] | None = None
        self.pre_depth = 0
        self.texts: list[str] = []
        self.section: tuple[str, list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        classes = values.get("class", "").split()
        if not self.depth:
            if tag == "article" and "md-content__inner" in classes:
                self.depth = 1
            return
        if tag in _VOID:
            return
        self.depth += 1
        self.stack.append(tag)
        if values.get("id"):
            self.page.ids.append(values["id"])
        if tag == "a" and values.get("href"):
            self.page.links.append(values["href"])
        if tag in ("script", "style") or (tag == "a" and "headerlink" in classes) or self.skip:
            self.skip += 1
        if re.fullmatch(r"h[1-6]", tag):
            self.heading = (int(tag[1]), values.get("id") or None, [])
            if tag == "h2":
                self._close_section()
                if values.get("id"):
                    if not self.page.sections and self.section is None:
                        self.page.head = " ".join("".join(self.texts).split())
                    self.section = (values["id"], [])
        if tag == "pre":
            self.pre_depth += 1
            if self.pre is None:
                self.pre = []

    def handle_endtag(self, tag: str) -> None:
        if not self.depth or tag in _VOID:
            return
        if not self.stack:
            if tag == "article":  # the end of the content region
                self.depth = 0
            return
        while self.stack:
            open_tag = self.stack.pop()
            self.depth -= 1
            if self.skip:
                self.skip -= 1
            if open_tag == "pre":
                self.pre_depth -= 1
                if not self.pre_depth and self.pre is not None:
                    self.page.code_blocks.append("".join(self.pre))
                    self.pre = None
            if re.fullmatch(r"h[1-6]", open_tag) and self.heading is not None:
                level, ident, parts = self.heading
                self.page.headings.append(Heading(level, ident, " ".join("".join(parts).split())))
                self.heading = None
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self.depth or self.skip:
            return
        self.texts.append(data)
        if self.section is not None:
            self.section[1].append(data)
        if self.heading is not None:
            self.heading[2].append(data)
        if self.pre is not None:
            self.pre.append(data)

    def _close_section(self) -> None:
        if self.section is not None:
            ident, parts = self.section
            self.page.sections[ident] = " ".join("".join(parts).split())
            self.section = None

    def close(self) -> None:
        super().close()
        self._close_section()
        self.page.text = " ".join("".join(self.texts).split())


def parse_page(html_text: str) -> HtmlPage:
    """The content region of one built page (see ``HtmlPage``)."""
    parser = _PageParser()
    parser.feed(html_text)
    parser.close()
    return parser.page
