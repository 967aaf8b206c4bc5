"""The site projects ``a2a-docgen init`` writes: one configuration per site engine, as text (no file I/O).

- **Zensical** reads ``zensical.toml`` and runs no MkDocs plugin, so the catalogue's pages are generated into
  its ``docs_dir`` by ``a2a-docgen build`` first (``docs_dir`` must be inside the project: Zensical's rule).
  The configuration carries what the plugin would otherwise add: the catalogue's navigation and its
  stylesheet and script. No ``markdown_extensions``: Zensical's default profile is the one the pages are
  tested with (its ``attr_list`` gives skill headings their ``#skill-`` ids).
- **MkDocs** (``mkdocs.yml``) and **ProperDocs** (``properdocs.yml``, the maintained MkDocs 1.x fork) run the
  ``a2a-docgen`` plugin, which renders the cards at every build and adds the navigation and the assets itself.

Every configuration has search, a light/dark palette toggle, a copy button on code blocks and system fonts
(``font = false``: no request to Google Fonts). docs/engines.md documents the engines and what works on each.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from a2a_docgen.errors import UsageError
from a2a_docgen.render import NAV
from a2a_docgen.render.assets import SCRIPTS, STYLESHEETS
from a2a_docgen.render.exports import DEFAULT_SITE_NAME
from a2a_docgen.render.site import NavEntry

__all__ = [
    "ENGINES",
    "FAIL_ON_CARD_ERRORS",
    "Engine",
    "EngineName",
    "build_steps",
    "install_command",
    "pages_command",
    "pages_workflow",
    "project_files",
    "quoted",
    "serve_command",
]

EngineName = Literal["zensical", "mkdocs", "properdocs"]


@dataclass(frozen=True, slots=True)
class Engine:
    """What a project for one engine is made of, how it is built, and what its commands need installed."""

    name: EngineName
    title: str
    config: str
    """The configuration file, in the project directory."""
    command: str
    """The engine's command (``zensical build``, ``mkdocs serve`` ...)."""
    modules: tuple[tuple[str, str], ...]
    """What the engine's commands import, each module with the name a user knows it by (Pagefind, which every
    engine's install brings too, is found the way the search finds it: ``site.pagefind.find_pagefind``)."""
    extra: str
    """The a2a-docgen extra the commands need: ``material`` (Material for MkDocs and Pagefind) or ``search``
    (Pagefind, for ``a2a-docgen search-index``)."""
    packages: str
    """What to install beside a2a-docgen (pip arguments, quoted for a shell): the engine in the range the
    tests prove, where a2a-docgen's extra does not bring it."""
    plugin: bool
    """Whether the engine runs the a2a-docgen plugin (else: ``a2a-docgen build`` writes the pages first)."""


ZENSICAL_INSTALL = "'zensical>=0.0.73,<0.0.74'"
"""The Zensical releases the tests prove (the ``engines`` extra pins the same). Zensical 0.0.74 and later
load their theme from a separate package (``zensical-ui``) that the test environment cannot install, so a
plain ``pip install zensical`` would give a user a release nobody here has built a catalogue with.
``.ci/run zensical-newer`` fails once a later release becomes installable: then test it and move this."""

_MATERIAL = ("material", "Material for MkDocs")

ENGINES: dict[str, Engine] = {
    "mkdocs": Engine(
        "mkdocs",
        "MkDocs",
        "mkdocs.yml",
        "mkdocs",
        (("mkdocs", "MkDocs"), _MATERIAL),
        extra="material",
        packages="",  # MkDocs is a dependency of a2a-docgen itself
        plugin=True,
    ),
    "properdocs": Engine(
        "properdocs",
        "ProperDocs",
        "properdocs.yml",
        "properdocs",
        (("properdocs", "ProperDocs"), _MATERIAL),
        extra="material",
        packages="'properdocs>=1.6,<2'",
        plugin=True,
    ),
    "zensical": Engine(
        "zensical",
        "Zensical",
        "zensical.toml",
        "zensical",
        (("zensical", "Zensical"),),
        extra="search",
        packages=ZENSICAL_INSTALL,
        plugin=False,
    ),
}
"""The engines ``init`` knows, by the name ``--engine`` takes; the first is the default: the best site (the
plugin's: What's new, feed links, the catalogue search's index) in one command, from one install that brings
the releases the tests build with (MkDocs is a2a-docgen's own dependency; the ``material`` extra adds the
theme and Pagefind)."""


def install_command(engine: Engine, *, source: str | None = None) -> str:
    """``pip install`` of everything the engine's commands need: a2a-docgen with its extra (from the package
    index, or from ``source``, a shell word such as ``$A2A_DOCGEN``) and the engine's own packages."""
    requirement = f"a2a-docgen[{engine.extra}]"
    spec = shlex.quote(requirement) if source is None else f'"{requirement} @ {source}"'
    return " ".join(word for word in ("pip install", spec, engine.packages) if word)


DOCS_DIR = "docs"
SITE_DIR = "site"
LIGHT_MEDIA = "(prefers-color-scheme: light)"
DARK_MEDIA = "(prefers-color-scheme: dark)"
"""The palettes' media queries: the theme starts in the scheme the reader's system asks for."""


def quoted(text: str) -> str:
    """``text`` as a double-quoted string that TOML and YAML both read back as ``text``.

    JSON's string syntax is a subset of both for text without control characters, which are refused (a
    site name or a path never needs one)."""
    if any(ord(c) < 32 or ord(c) == 127 for c in text):
        raise UsageError(f"{text!r}: control characters are not allowed here")
    return json.dumps(text, ensure_ascii=False)


def project_files(engine: Engine, *, cards: str, site_name: str = DEFAULT_SITE_NAME) -> dict[str, str]:
    """The text files of a new project, by path relative to its directory: the configuration and a
    ``.gitignore``. ``cards`` is the card directory (or file) relative to the project directory, POSIX style.
    For the plugin engines, ``docs/.gitkeep`` too: MkDocs needs ``docs_dir`` to exist, and git keeps no empty
    directory (the file is not published: MkDocs leaves out dotfiles)."""
    if engine.name == "zensical":
        files = {engine.config: zensical_toml(cards=cards, site_name=site_name)}
        files[".gitignore"] = (
            "# Built by `zensical build`, and Zensical's cache (`zensical build --clean` clears it)\n"
            f"/{SITE_DIR}/\n/.cache/\n"
            f"# /{DOCS_DIR}/ is written from the cards by `a2a-docgen build`: commit it to review the pages in\n"
            "# pull requests, or ignore it too:\n"
            f"# /{DOCS_DIR}/\n"
        )
        return files
    return {
        engine.config: mkdocs_yml(engine, cards=cards, site_name=site_name),
        ".gitignore": (
            f"# Built by `{engine.command} build`\n/{SITE_DIR}/\n"
            "# The caches of Material's social, privacy and optimize plugins, once you enable them\n/.cache/\n"
        ),
        f"{DOCS_DIR}/.gitkeep": "",
    }


def _toml_list(values: Sequence[str]) -> str:
    return "[" + ", ".join(quoted(value) for value in values) + "]"


def _toml_nav(nav: Sequence[NavEntry]) -> str:
    return "nav = [\n" + "".join(f"  {{ {quoted(e.title)} = {quoted(e.path)} }},\n" for e in nav) + "]\n"


PAGES_DIALECT = "material"
"""The Markdown dialect of the pages ``a2a-docgen build`` writes for Zensical: its default profile renders
``!!!`` admonitions and ``===`` content tabs (``render.env.Dialect``)."""


MARKDOWN_PROFILE = (
    "# The Markdown profile the catalogue's pages are tested with: what they use of Zensical's default one\n"
    "# (admonitions, content tabs, highlighted code, heading ids from attr_list) and nothing that acts on\n"
    "# text by itself: no emoji, magiclink or smartsymbols, so a card's :shortcode:, e-mail address or (c)\n"
    "# stays text, and no line anchors in code blocks (a third of a page's weight). Extensions of your own\n"
    "# go here too; keep these, and add no pymdownx.snippets or macros.\n"
    "[project.markdown_extensions.admonition]\n"
    "[project.markdown_extensions.attr_list]\n"
    "[project.markdown_extensions.toc]\n"
    "permalink = true\n"
    "[project.markdown_extensions.pymdownx.highlight]\n"
    "pygments_lang_class = true\n"
    "[project.markdown_extensions.pymdownx.superfences]\n"
    "[project.markdown_extensions.pymdownx.tabbed]\n"
    "alternate_style = true\n"
)
"""``zensical.toml``'s ``markdown_extensions`` (Zensical adds ``toc`` and ``tables`` to any list)."""


def pages_command(cards: str, docs: str) -> str:
    """The command that writes a Zensical project's pages: ``a2a-docgen build CARDS -o DOCS --dialect …``."""
    return f"a2a-docgen build {shlex.quote(cards)} -o {shlex.quote(docs)} --dialect {PAGES_DIALECT}"


def build_steps(engine: Engine, *, cards: str, project: str = "", config_option: str = "") -> list[str]:
    """The shell commands that build a project's site, run from ``project``'s parent (``""``: from the
    project itself): for Zensical, the pages, the engine's build and the catalogue search's index; for the
    plugin engines, the engine's build. ``config_option`` is ``-f CONFIG`` when not run from the project.
    ``init`` prints them, the configuration names them, the publishing workflows run them."""
    if engine.plugin:
        return [f"{engine.command} build{config_option}"]
    docs = f"{project}/{DOCS_DIR}" if project else DOCS_DIR
    site = f"{project}/{SITE_DIR}" if project else SITE_DIR
    return [
        pages_command(cards, docs),
        f"{engine.command} build{config_option}",
        f"a2a-docgen search-index {shlex.quote(site)}",
    ]


def serve_command(engine: Engine, *, project: str = "", config_option: str = "") -> str:
    """The command that serves the built site locally. Zensical's own server rebuilds the site without the
    search index, so its built directory is served as it is; the plugin engines serve with the index."""
    if engine.plugin:
        return f"{engine.command} serve{config_option}"
    site = f"{project}/{SITE_DIR}" if project else SITE_DIR
    return f"python3 -m http.server -d {shlex.quote(site)}"


A2A_DOCGEN_SOURCE = "git+https://github.com/a2a-docgen/a2a-docgen@main"
"""Where a publishing workflow installs a2a-docgen from: no release is on the package index yet, so the
repository (pin a commit or tag in place of ``main`` for reproducible builds)."""
WORKFLOW = ".github/workflows/pages.yml"

FAIL_ON_CARD_ERRORS = "FAIL_ON_CARD_ERRORS"
"""The publishing workflow's switch: ``"false"`` (as written) annotates the cards' errors and publishes the
catalogue with them, as every engine documents a card valid or not; ``"true"`` fails the job on any."""


def pages_workflow(engine: Engine, *, cards: str) -> str:
    """A GitHub Actions workflow that checks the cards (annotating the commit; failing on their errors only
    when ``FAIL_ON_CARD_ERRORS`` says so), builds the site of a project at the repository's root with the
    commands ``init`` prints (strictly) and publishes it on GitHub Pages."""
    steps = build_steps(engine, cards=cards)
    steps = [f"{step} --strict" if step.startswith(f"{engine.command} build") else step for step in steps]
    build = "".join(f"          {step}\n" for step in steps)
    return (
        "# Publishes the agent catalogue on GitHub Pages (Settings > Pages > Source: GitHub Actions), written by\n"
        "# `a2a-docgen init`. The project is the repository's root.\n"
        "name: Agent catalogue\n"
        "on:\n"
        "  push:\n"
        "    branches: [main]\n"
        "  workflow_dispatch:\n"
        "\n"
        "permissions:\n"
        "  contents: read\n"
        "  pages: write\n"
        "  id-token: write\n"
        "\n"
        "concurrency:\n"
        "  group: pages\n"
        "  cancel-in-progress: true\n"
        "\n"
        "jobs:\n"
        "  build:\n"
        "    runs-on: ubuntu-latest\n"
        "    env:\n"
        "      # a2a-docgen is not on PyPI yet: installed from its repository (pin a tag or commit for reproducible builds)\n"
        f"      A2A_DOCGEN: {quoted(A2A_DOCGEN_SOURCE)}\n"
        "      # Cards with errors are annotated on the commit and published all the same (each one's page says\n"
        '      # what is wrong). "true" fails the job on any card error instead, and then nothing is published.\n'
        f'      {FAIL_ON_CARD_ERRORS}: "false"\n'
        '      NO_MKDOCS_2_WARNING: "1"\n'
        "    steps:\n"
        "      - uses: actions/checkout@v4\n"
        "        with:\n"
        '          fetch-depth: 0   # the whole history: the agent pages\' "Changes" and the feeds need it\n'
        "      - uses: actions/setup-python@v5\n"
        "        with:\n"
        '          python-version: "3.12"\n'
        "      - name: Install\n"
        f"        run: {install_command(engine, source='$A2A_DOCGEN')}\n"
        "      - name: Check the cards\n"
        f'        # Exit status 1 is card errors: they fail the job only when {FAIL_ON_CARD_ERRORS} is "true". Any\n'
        "        # other failure (no cards, a bad option) always does.\n"
        "        run: |\n"
        f"          a2a-docgen check {shlex.quote(cards)} --format github ||\n"
        f'            {{ [ $? = 1 ] && [ "${FAIL_ON_CARD_ERRORS}" != true ]; }}\n'
        "      - name: Build the site\n"
        "        # The date a build stamps (MkDocs' sitemap) is the last commit's: a commit always builds the same bytes\n"
        "        run: |\n"
        '          export SOURCE_DATE_EPOCH="$(git log -1 --format=%ct)"\n'
        f"{build}"
        "      - uses: actions/upload-pages-artifact@v3\n"
        "        with:\n"
        f"          path: {SITE_DIR}\n"
        "  deploy:\n"
        "    needs: build\n"
        "    runs-on: ubuntu-latest\n"
        "    environment:\n"
        "      name: github-pages\n"
        "      url: ${{ steps.deployment.outputs.page_url }}\n"
        "    steps:\n"
        "      - id: deployment\n"
        "        uses: actions/deploy-pages@v4\n"
    )


def zensical_toml(*, cards: str, site_name: str) -> str:
    """``zensical.toml``: the catalogue's pages are generated into ``docs/`` before Zensical builds."""
    steps = "".join(f"#   {step}\n" for step in build_steps(ENGINES["zensical"], cards=cards))
    return (
        "# Zensical (https://zensical.org) site of an A2A agent catalogue, written by `a2a-docgen init`.\n"
        "#\n"
        "# Zensical runs no MkDocs plugins, so a2a-docgen writes the catalogue's pages into docs/ first. From\n"
        "# this directory:\n"
        "#\n"
        f"{steps}"
        "#\n"
        "# The first writes the pages from the cards, the second builds the site into site/, the third adds\n"
        "# the catalogue search's index (Pagefind) to it; `python3 -m http.server -d site` serves it. For a\n"
        "# live preview, keep the first running with --watch beside `zensical serve` (only the pages a change\n"
        "# alters are rewritten, and Zensical reloads them; its rebuilt site has no search index).\n"
        "\n"
        "[project]\n"
        f"site_name = {quoted(site_name)}\n"
        f'docs_dir = "{DOCS_DIR}"  # must be inside this directory (a Zensical rule)\n'
        f'site_dir = "{SITE_DIR}"\n'
        "# The catalogue's navigation: its index pages only. Agent pages are reached from them, so the\n"
        "# navigation stays this size however many agents the catalogue has.\n"
        f"{_toml_nav(NAV)}"
        "# The catalogue's stylesheet and script (the home page's filter), written by a2a-docgen build.\n"
        f"extra_css = {_toml_list(STYLESHEETS)}\n"
        f"extra_javascript = {_toml_list(SCRIPTS)}\n"
        "# Search is built in and on by default; list pages of the catalogue opt out of it themselves.\n"
        "\n"
        f"{MARKDOWN_PROFILE}"
        "\n"
        "[project.theme]\n"
        'features = ["content.code.copy", "content.tabs.link", "search.highlight"]\n'
        "font = false  # system fonts: no request to Google Fonts, works offline and under a strict CSP\n"
        "\n"
        "# Light and dark, following the reader's system setting until they choose with the toggle.\n"
        "[[project.theme.palette]]\n"
        f"media = {quoted(LIGHT_MEDIA)}\n"
        'scheme = "default"\n'
        'toggle.icon = "lucide/sun"\n'
        'toggle.name = "Switch to dark mode"\n'
        "\n"
        "[[project.theme.palette]]\n"
        f"media = {quoted(DARK_MEDIA)}\n"
        'scheme = "slate"\n'
        'toggle.icon = "lucide/moon"\n'
        'toggle.name = "Switch to light mode"\n'
    )


def mkdocs_yml(engine: Engine, *, cards: str, site_name: str) -> str:
    """``mkdocs.yml`` or ``properdocs.yml``: the a2a-docgen plugin renders the cards at every build."""
    first = {
        "mkdocs": (
            "# Site of an A2A agent catalogue for MkDocs 1.x (https://www.mkdocs.org), written by `a2a-docgen init`.\n"
            "# MkDocs 1.6 is no longer maintained: ProperDocs, its maintained fork, builds this file unchanged\n"
            "# (`properdocs build -f mkdocs.yml`; `a2a-docgen init --engine properdocs` names it properdocs.yml).\n"
        ),
        "properdocs": (
            "# Site of an A2A agent catalogue for ProperDocs, the maintained MkDocs 1.x fork\n"
            "# (https://properdocs.org), written by `a2a-docgen init`.\n"
        ),
    }[engine.name]
    return (
        first + "#\n"
        "# The a2a-docgen plugin renders the cards at every build, and again on every change under\n"
        f"# `{engine.command} serve`: nothing to generate first. It adds the catalogue's navigation (while this\n"
        "# file has no nav), its stylesheet and script (assets/a2a-docgen/) and its search entries. Pages of\n"
        "# your own go in docs/; with an index.md of your own there, the catalogue moves under catalogue/.\n"
        "\n"
        f"site_name: {quoted(site_name)}\n"
        f"docs_dir: {DOCS_DIR}\n"
        f"site_dir: {SITE_DIR}\n"
        "\n"
        "theme:\n"
        "  name: material\n"
        "  font: false  # system fonts: no request to Google Fonts, works offline and under a strict CSP\n"
        "  features:\n"
        "    - content.code.copy\n"
        "    - content.tabs.link  # one choice of request tab (binding and form) for the whole page\n"
        "    - search.highlight\n"
        "  palette:  # light and dark, following the reader's system setting until they choose\n"
        f"    - media: {quoted(LIGHT_MEDIA)}\n"
        "      scheme: default\n"
        "      toggle:\n"
        "        icon: material/weather-night\n"
        "        name: Switch to dark mode\n"
        f"    - media: {quoted(DARK_MEDIA)}\n"
        "      scheme: slate\n"
        "      toggle:\n"
        "        icon: material/weather-sunny\n"
        "        name: Switch to light mode\n"
        "\n"
        "plugins:\n"
        "  - search\n"
        "  - a2a-docgen:\n"
        f"      cards: {quoted(cards)}  # relative to this file\n"
        "      # Each card diagnostic is a line of the build log (hundreds for a large catalogue); `quiet: true`\n"
        "      # logs the errors only (a line by code still counts every diagnostic). The agent pages show them\n"
        f"      # all, and so does `a2a-docgen check {shlex.quote(cards)}`.\n"
        "      # quiet: true\n"
        "\n"
        "# For your own pages (the plugin converts the catalogue's pages itself, whatever is listed here).\n"
        "markdown_extensions:\n"
        "  - toc:\n"
        "      permalink: true\n"
        "  - tables\n"
        "  - fenced_code\n"
    )
