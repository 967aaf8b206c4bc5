"""``a2a-docgen init``: a new site project for one site engine, ready to build.

Writes the engine's configuration (``a2a_docgen.site.scaffold``), a ``.gitignore`` and, unless ``--cards``
names cards of your own, the example cards into ``DIR/cards``; then prints the commands that build and serve
the site, after the ``pip install`` of what they need when something is missing here (each missing package
named). Nothing is ever overwritten: when a file to write exists, nothing is written (exit 2).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shlex
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

from a2a_docgen.errors import UsageError

if TYPE_CHECKING:
    from a2a_docgen.site.scaffold import Engine

HELP = "write a new site project for MkDocs, ProperDocs or Zensical"

DEFAULT_ENGINE = "mkdocs"

EXAMPLES = """\
examples:
  a2a-docgen init catalogue              # MkDocs + Material and the plugin, the example cards in catalogue/cards
  a2a-docgen init --cards cards/ site    # the same, building your cards
  a2a-docgen init --engine properdocs .  # ProperDocs + Material and the plugin, here
  a2a-docgen init --engine zensical catalogue    # Zensical: a2a-docgen build writes the pages it builds
  a2a-docgen init --github-pages .               # and a GitHub Pages workflow that builds and publishes it

exit status: 0 written, 2 usage error (a file to write exists, a bad option).
"""


def register(subparsers: Any) -> None:
    from a2a_docgen.site.scaffold import ENGINES

    parser: argparse.ArgumentParser = subparsers.add_parser(
        "init",
        help=HELP,
        description=textwrap.dedent(
            """\
            Write a site project for an A2A agent catalogue into DIR: the engine's configuration, with the
            catalogue's navigation, search, light and dark palettes, copy buttons on code blocks, no web
            fonts and the catalogue's stylesheet and script; a .gitignore; and the example cards in
            DIR/cards unless --cards names yours. MkDocs (the default) and ProperDocs run the a2a-docgen
            plugin; Zensical builds the pages a2a-docgen build writes into DIR/docs. Prints the commands
            that build and serve the site, and what to install first if something they need is missing.
            Existing files are never overwritten. See docs/engines.md."""
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("directory", metavar="DIR", help="the project directory (created if needed)")
    parser.add_argument(
        "--engine",
        choices=list(ENGINES),
        default=DEFAULT_ENGINE,
        help=f"the site engine (default {DEFAULT_ENGINE}: the plugin's site in one command)",
    )
    parser.add_argument(
        "--cards",
        metavar="PATH",
        help="your card directory (or file), which the project then builds from; default: a copy of the "
        "example cards in DIR/cards",
    )
    parser.add_argument("--site-name", metavar="NAME", help="the site's name (default: A2A agent catalogue)")
    parser.add_argument(
        "--github-pages",
        action="store_true",
        help="also write .github/workflows/pages.yml, which checks the cards, builds the site with the "
        "commands below and publishes it on GitHub Pages (for a project at the repository's root)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from a2a_docgen.commands.check import default_catalogue
    from a2a_docgen.render.exports import DEFAULT_SITE_NAME
    from a2a_docgen.site.scaffold import (
        ENGINES,
        SITE_DIR,
        WORKFLOW,
        install_command,
        pages_workflow,
        project_files,
    )

    engine = ENGINES[args.engine]
    project = Path(args.directory)
    if project.exists() and not project.is_dir():
        raise UsageError(f"{args.directory} exists and is not a directory")

    files: dict[str, bytes] = {}
    if args.cards is None:
        cards_for_config = "cards"
        cards_from_here = str(project / "cards")
        examples = sorted(default_catalogue().glob("*.json"))
        files.update((f"cards/{card.name}", card.read_bytes()) for card in examples)
    else:
        if not os.path.exists(args.cards):
            raise UsageError(f"--cards {args.cards}: no such file or directory")
        relative = os.path.relpath(os.path.abspath(args.cards), os.path.abspath(project))
        cards_for_config = Path(relative).as_posix()
        cards_from_here = args.cards
    texts = project_files(engine, cards=cards_for_config, site_name=args.site_name or DEFAULT_SITE_NAME)
    if args.github_pages:
        texts[WORKFLOW] = pages_workflow(engine, cards=cards_for_config)
    files.update((path, text.encode("utf-8")) for path, text in texts.items())

    existing = sorted(
        (path for path in files if os.path.lexists(project / path)),
        key=lambda path: (path != engine.config, path.startswith("cards/"), path),
    )
    if existing:
        shown = ", ".join(str(project / path) for path in existing[:5])
        more = f" and {len(existing) - 5} more" if len(existing) > 5 else ""
        raise UsageError(
            f"{shown}{more} already exist{'s' if len(existing) == 1 else ''}; nothing written "
            "(init never overwrites a file: move them, or choose another directory)"
        )
    for path, data in sorted(files.items()):
        target = project / path
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("xb") as handle:  # "x": a file that appeared meanwhile is not overwritten either
            handle.write(data)

    written = [path for path in sorted(files) if not path.startswith("cards/")]
    note = (
        f" and {len(files) - len(written)} example cards in {project / 'cards'}" if args.cards is None else ""
    )
    print(f"a2a-docgen init: wrote {', '.join(str(project / p) for p in written)}{note} ({engine.title})")
    print()
    missing = missing_packages(engine)
    if missing:
        print(f"Not installed in this environment: {', '.join(missing)}. Install what the commands need:")
        print()
        print(f"  {install_command(engine)}")
        print()
    commands = next_commands(engine.name, project, cards_from_here)
    print("Next, from this directory:" if not missing else "Then, from this directory:")
    print()
    for command in commands:
        print(f"  {command}")
    print()
    if engine.plugin:
        print(
            f"The first builds the site into {project / SITE_DIR}; the second serves it at http://127.0.0.1:8000/ "
            "and rebuilds it on every change to a card. Either one alone renders the catalogue."
        )
    else:
        config_option = commands[1].removeprefix("zensical build")
        print(
            "The third writes the catalogue search's index (Pagefind) into the built site; the last serves it "
            f"at http://localhost:8000/. For a live preview while editing, run `zensical serve{config_option}` "
            "beside the first command with --watch: each change to a card rewrites the pages it changes "
            "(zensical serve rebuilds the site without the search index)."
        )
    print(
        "Engines and what works on each: https://github.com/a2a-docgen/a2a-docgen/blob/main/docs/engines.md"
    )
    return 0


def missing_packages(engine: Engine) -> list[str]:
    """What the engine's commands need and this environment lacks, by the names a user knows (Material for
    MkDocs, Pagefind ...): its modules, and a Pagefind binary for the catalogue search's index."""
    from a2a_docgen.site.pagefind import find_pagefind

    missing = [title for module, title in engine.modules if importlib.util.find_spec(module) is None]
    if find_pagefind() is None:
        missing.append("Pagefind")
    return missing


def next_commands(engine: str, project: Path, cards: str) -> list[str]:
    """The commands, run from the current directory, that build the project and serve the site: the build
    steps (``site.scaffold.build_steps``), then the server."""
    from a2a_docgen.site.scaffold import ENGINES, build_steps, serve_command

    here = os.path.abspath(project) == os.path.abspath(os.curdir)
    prefix = "" if here else str(project)
    config_option = "" if here else f" -f {shlex.quote(str(project / ENGINES[engine].config))}"
    steps = build_steps(ENGINES[engine], cards=cards, project=prefix, config_option=config_option)
    return [*steps, serve_command(ENGINES[engine], project=prefix, config_option=config_option)]
