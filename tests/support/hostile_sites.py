"""MkDocs projects around the hostile corpus, and the example site, built once per test session.

Three configurations of the hostile catalogue: ``default`` (the built-in theme), ``material-ext``
(mkdocs-material with the usual extensions, ``pymdownx.snippets`` included, with canary files beside
mkdocs.yml) and ``material-macros`` (the same plus the mkdocs-macros plugin). Each project has an empty
``docs_dir``: every page comes from the a2a-docgen plugin. Builds run in parallel child processes.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from tests.support.mkdocs_build import Build, build_projects, snapshot

__all__ = [
    "ALL_CONFIGS",
    "CONFIGS",
    "CONFIG_CANARY",
    "CONTROL_PAGE",
    "ENV_CANARY",
    "HOSTILE",
    "LEAK_MARKERS",
    "PLAIN_CONFIGS",
    "REPO",
    "Sites",
    "build_sites",
    "generator",
    "html_pages",
    "html_path",
    "make_project",
]

REPO = Path(__file__).resolve().parents[2]
HOSTILE = REPO / "tests" / "data" / "hostile"
ENV_CANARY = "ENV-CANARY-5b1e0c2a"
"""Set in the build's environment; an evaluated ``os.environ`` payload would publish it."""
CONFIG_CANARY = "CONFIG-CANARY-90d4e7aa"
"""In mkdocs.yml (a comment and ``extra``); an included or evaluated config would publish it."""


def generator() -> ModuleType:
    """``tests/data/hostile/make_hostile.py`` as a module (payload lists, canary, malformed names)."""
    loaded = sys.modules.get("make_hostile")
    if loaded is not None:
        return loaded
    spec = importlib.util.spec_from_file_location("make_hostile", HOSTILE / "make_hostile.py")
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {HOSTILE / 'make_hostile.py'}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_hostile"] = module
    spec.loader.exec_module(module)
    return module


def template_markers() -> re.Pattern[str]:
    """What an evaluated Jinja payload of the corpus prints (``7777``, ``LOOPLOOP`` ...). A number counts only as
    a word of its own: slugs end in hex digits, which may hold "7777" by chance."""
    return re.compile(
        "|".join(
            rf"(?<![0-9A-Za-z]){re.escape(m)}(?![0-9A-Za-z])" if m.isdigit() else re.escape(m)
            for m in generator().JINJA_MARKERS
        )
    )


MATERIAL_EXTENSIONS = f"""
markdown_extensions:
  - abbr
  - admonition
  - attr_list
  - def_list
  - footnotes
  - md_in_html
  - tables
  - toc:
      permalink: true
  - pymdownx.details
  - pymdownx.superfences
  - pymdownx.highlight
  - pymdownx.inlinehilite
  - pymdownx.snippets
  - pymdownx.tabbed
  - pymdownx.tasklist
  - pymdownx.emoji:
      emoji_index: !!python/name:material.extensions.emoji.twemoji
      emoji_generator: !!python/name:material.extensions.emoji.to_svg
  - pymdownx.magiclink
  - pymdownx.mark
  - pymdownx.tilde
  - pymdownx.caret
  - pymdownx.keys
  - pymdownx.smartsymbols
  - pymdownx.arithmatex
extra:
  canary: {CONFIG_CANARY}
"""

# font: false keeps the theme from loading Google Fonts, so any off-host request is the content's doing.
MATERIAL_THEME = "theme:\n  name: material\n  font: false\n"
PLUGIN = "  - a2a-docgen:\n      cards: cards\n"
PLUGINS = "plugins:\n  - search\n{macros}" + PLUGIN

# Preprocessors that act on a page's raw text, code blocks included: critic marks, includes, mkdocs-macros
# with other delimiters, and a site hook with a syntax of its own (hooks/include.py).
PREPROCESSORS = """  - pymdownx.critic:
      mode: {critic}
  - markdown_include.include:
      base_path: .
"""
MACROS_BRACKETS = """  - macros:
      j2_variable_start_string: "[["
      j2_variable_end_string: "]]"
      j2_block_start_string: "[%"
      j2_block_end_string: "%]"
"""
MACROS_ANGLES = """  - macros:
      j2_variable_start_string: "<<"
      j2_variable_end_string: ">>"
      j2_block_start_string: "<%"
      j2_block_end_string: "%>"
"""
HOOK = (
    '"""A site hook with a syntax of its own: @@include FILE@@ becomes the content of FILE."""\n\n'
    "import pathlib\nimport re\n\n\n"
    "def on_page_markdown(markdown, page, config, files):\n"
    "    root = pathlib.Path(config.config_file_path).parent\n"
    '    return re.sub(r"@@include (\\S+)@@", lambda m: (root / m.group(1)).read_text(), markdown)\n'
)
HOOKS = "hooks:\n  - hooks/include.py\n"


def _with_preprocessors(critic: str) -> str:
    """The Material extensions plus critic (in ``critic`` mode) and markdown-include."""
    return MATERIAL_EXTENSIONS.replace("extra:\n", PREPROCESSORS.format(critic=critic) + "extra:\n")


CONFIGS = {
    "default": PLUGINS.format(macros=""),
    "material-ext": MATERIAL_THEME + PLUGINS.format(macros="") + MATERIAL_EXTENSIONS,
    "material-macros": MATERIAL_THEME + PLUGINS.format(macros="  - macros\n") + MATERIAL_EXTENSIONS,
    "material-brackets": MATERIAL_THEME
    + PLUGINS.format(macros=MACROS_BRACKETS)
    + _with_preprocessors("view")
    + HOOKS,
    "material-angles": MATERIAL_THEME
    + PLUGINS.format(macros=MACROS_ANGLES)
    + _with_preprocessors("accept")
    + HOOKS,
}

PLAIN_CONFIGS = {"plain-material": "material-ext", "plain-brackets": "material-brackets"}
"""Projects whose docs_dir is written by ``a2a-docgen build`` and built by MkDocs *without* the plugin (the
committed-Markdown path), with the named configuration's theme and extensions."""

ALL_CONFIGS = [*CONFIGS, *PLAIN_CONFIGS]

LEAK_MARKERS = (generator().CANARY, ENV_CANARY, CONFIG_CANARY, "root:x:0:0")


def make_project(root: Path, name: str, *, benign: bool = False) -> Path:
    """A project with the corpus in ``cards/``, an empty docs_dir and canary files beside mkdocs.yml.

    ``benign`` puts the generator's benign card in ``cards/`` instead (project ``benign-<name>``). For a
    name of ``PLAIN_CONFIGS`` the mkdocs.yml has no a2a-docgen plugin (see ``write_plain_docs``).
    """
    project = root / (f"benign-{name}" if benign else name)
    if benign:
        (project / "cards").mkdir(parents=True)
        for filename, data in generator().benign_outputs().items():
            (project / "cards" / filename).write_bytes(data)
    else:
        shutil.copytree(HOSTILE, project / "cards", ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (project / "docs").mkdir()
    canary = generator().CANARY
    (project / "secret.txt").write_text(f"{canary} secret.txt\n", encoding="utf-8")
    (project / ".env").write_text(f"API_TOKEN={canary}-env\n", encoding="utf-8")
    config = CONFIGS[PLAIN_CONFIGS[name]].replace(PLUGIN, "") if name in PLAIN_CONFIGS else CONFIGS[name]
    if name in PLAIN_CONFIGS:
        config = config.replace(
            HOOKS, ""
        )  # a hook's own syntax is only covered with the plugin (sealed pages)
    if HOOKS in config:
        (project / "hooks").mkdir()
        (project / "hooks" / "include.py").write_text(HOOK, encoding="utf-8")
    (project / "mkdocs.yml").write_text(
        f"# {CONFIG_CANARY}\nsite_name: Hostile catalogue\ndocs_dir: docs\n{config}", encoding="utf-8"
    )
    return project


def write_plain_docs(project: Path) -> tuple[int, str, list[str]]:
    """Run ``a2a-docgen build cards -o docs`` in ``project``.

    Returns its exit code, its output and the files it changed outside ``docs/`` (there should be none).
    """
    before = snapshot(project)
    result = subprocess.run(
        [sys.executable, "-m", "a2a_docgen", "build", "cards", "-o", "docs"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    after = snapshot(project)
    outside = sorted(
        path
        for path in set(before) | set(after)
        if not path.startswith("docs/") and before.get(path) != after.get(path)
    )
    return result.returncode, result.stdout + result.stderr, outside


CONTROL_PAGE = """# Raw payloads

<img src="x" onerror="alert('control')">

[click](javascript:alert('control'))

--8<-- "secret.txt"

{{ 1111*7 }} {% for x in range(2) %}LOOP{% endfor %}
"""
"""Payloads written straight into a page of the ``control`` project: the checks must catch every one."""


PREPROCESSOR_CONTROL_PAGE = """# Raw preprocessor payloads

@@include secret.txt@@

{!.env!}

[[ 1111*7 ]] [% for x in range(2) %]LOOP[% endfor %]

Kept {-- deleted --} and {++ added ++}.
"""
"""Payloads for the preprocessors of ``material-brackets``, written straight into a page: each must act."""


def make_control_project(root: Path) -> Path:
    """The ``material-macros`` project with a benign card and one hand-written page of raw payloads."""
    project = make_project(root, "material-macros", benign=True)
    (project / "docs" / "raw.md").write_text(CONTROL_PAGE, encoding="utf-8")
    return project


def make_preprocessor_control_project(root: Path) -> Path:
    """The ``material-brackets`` project (critic, includes, macros with [[ ]], a hook) with a benign card and a
    hand-written page of raw payloads for those preprocessors."""
    project = make_project(root, "material-brackets", benign=True)
    (project / "docs" / "raw.md").write_text(PREPROCESSOR_CONTROL_PAGE, encoding="utf-8")
    return project


class Sites:
    """The builds of one session: the hostile configurations, their benign twins (``benign-<config>``), a
    ``control`` site with raw payloads and, when the repository has one, its example site (``example``)."""

    def __init__(
        self,
        root: Path,
        builds: dict[str, Build],
        before: dict[str, bytes],
        plain: dict[str, tuple[int, str, list[str]]],
    ) -> None:
        self.root = root
        self.builds = builds
        self.before = before
        """Every file under ``root`` before the MkDocs builds (plain projects: after ``a2a-docgen build``)."""
        self.after = {
            name: snapshot(build.project, exclude=build.site)
            for name, build in builds.items()
            if name in ALL_CONFIGS
        }
        """Every file of each hostile project after its build, its site excluded."""
        self.plain = plain
        """For each plain project: ``a2a-docgen build``'s exit code, output and files changed outside docs/."""

    def site(self, name: str) -> Path:
        """The site directory of a successful build (fails the test with the build log otherwise)."""
        build = self.builds[name]
        if build.returncode != 0:
            raise AssertionError(f"{name} build failed (exit {build.returncode}):\n{build.output[-4000:]}")
        return build.site


def build_sites(root: Path, *, example: bool = True) -> Sites:
    """Make the hostile projects under ``root`` and build them (and the example site) in parallel."""
    projects = {name: make_project(root / "projects", name) for name in ALL_CONFIGS}
    plain = {name: write_plain_docs(projects[name]) for name in PLAIN_CONFIGS}
    before = snapshot(root)
    for name in CONFIGS:
        projects[f"benign-{name}"] = make_project(root / "benign", name, benign=True)
    projects["control"] = make_control_project(root / "control")
    projects["control-preprocessors"] = make_preprocessor_control_project(root / "control")
    jobs = {name: (project / "mkdocs.yml", project / "site") for name, project in projects.items()}
    if example and (REPO / "mkdocs.yml").is_file():
        jobs["example"] = (REPO / "mkdocs.yml", root / "example-site")
    builds = build_projects(jobs, env={"A2A_ENV_CANARY": ENV_CANARY})
    return Sites(root, builds, before, plain)


def html_path(markdown_path: str) -> str:
    """Where MkDocs (``use_directory_urls``) writes the page of a Markdown source."""
    stem = markdown_path.removesuffix(".md")
    if stem == "index" or stem.endswith("/index"):
        return stem + ".html"
    return stem + "/index.html"


def html_pages(site: Path) -> dict[str, str]:
    """Every HTML page of a site, by path relative to it."""
    return {
        p.relative_to(site).as_posix(): p.read_text(encoding="utf-8") for p in sorted(site.rglob("*.html"))
    }
