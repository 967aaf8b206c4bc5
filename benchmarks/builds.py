"""Whole site builds, as users run them: the plugin against a plain MkDocs build, and `mkdocs serve` rebuilds.

    python benchmarks/builds.py [--agents 200] [--skills 10] [--repeat 3]

Measures, side by side in one run, on the synthetic catalogue (benchmarks/synthetic.py):

- **plugin build**: `mkdocs build` with the a2a-docgen plugin rendering the cards (Material + search, the
  repository's mkdocs.yml), from an empty docs directory;
- **plain build**: `mkdocs build` of the same pages written by `a2a-docgen build` (the same `site_src/`), without
  the plugin: MkDocs converts them with Python-Markdown and its search plugin indexes their HTML;
- **serve rebuild**: in one process, as `mkdocs serve` does: a full build, then one card edited and the site
  rebuilt with a fresh configuration and the same plugin instance (MkDocs keeps plugins that define
  ``on_startup``), while another thread runs (as the server's does, so no render workers are forked).

Each build runs in a new Python process; the fastest of ``--repeat`` runs counts (other work on the machine only
ever adds time). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from synthetic import write_catalogue  # noqa: E402

NAV = """nav:
  - Home: index.md
  - Tags: tags/index.md
  - Media types: media-types.md
  - Security: security.md
  - Protocol bindings: bindings.md
  - Excluded cards: excluded.md
"""

_SERVE = r"""
import json, sys, threading, time
from pathlib import Path
from mkdocs.commands.build import build
from mkdocs.config import load_config

config_file, site_dir, card = sys.argv[1:4]

def get_config():
    return load_config(config_file=config_file, site_dir=site_dir)

config = get_config()
config.plugins.on_startup(command="serve", dirty=False)
start = time.perf_counter()
build(config)
full = time.perf_counter() - start
stop = threading.Event()
server = threading.Thread(target=stop.wait)  # the server's thread, as under mkdocs serve
server.start()
path = Path(card)
data = json.loads(path.read_text(encoding="utf-8"))
data["description"] = data.get("description", "") + " Edited."
path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
config = get_config()
start = time.perf_counter()
build(config)
rebuild = time.perf_counter() - start
stop.set()
server.join()
config.plugins.on_shutdown()
print(json.dumps({"full": full, "rebuild": rebuild}))
"""


def _config(cards: Path | None, docs: Path, *, search_index: str | None = None) -> str:
    """The repository's mkdocs.yml, reading ``cards`` with the plugin (or, for ``None``, without it), with the
    plugin's ``search_index`` option when given."""
    lines = []
    skip_plugin = False
    for line in (REPO / "mkdocs.yml").read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if line.startswith("docs_dir:"):
            lines.append(f"docs_dir: {docs}")
        elif stripped.startswith("- a2a-docgen"):
            skip_plugin = cards is None
            if not skip_plugin:
                lines.append(line)
        elif stripped.startswith("cards:"):
            if not skip_plugin:
                indent = line[: len(line) - len(line.lstrip())]
                lines.append(f"{indent}cards: {cards}")
                if search_index is not None:
                    lines.append(f"{indent}search_index: {search_index}")
        else:
            skip_plugin = skip_plugin and line.startswith("      ")
            lines.append(line)
    text = "\n".join(lines) + "\n"
    return text + (NAV if cards is None else "")


def _timed_build(config: Path, site: Path) -> float:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(site)]
    start = time.perf_counter()
    subprocess.run(command, check=True, env=env, capture_output=True)
    return time.perf_counter() - start


def measure(agents: int, skills: int, repeat: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="a2a-docgen-builds-") as tmp:
        work = Path(tmp)
        cards = work / "cards"
        write_catalogue(cards, agents, skills)
        plain_docs = work / "plain-docs"
        subprocess.run(
            [sys.executable, "-m", "a2a_docgen", "build", str(cards), "-o", str(plain_docs)],
            check=True,
            capture_output=True,
        )
        empty = work / "empty-docs"
        empty.mkdir()
        plugin_config = work / "plugin.yml"
        # Pagefind off: it indexes the built site afterwards, the same work with or without the plugin
        plugin_config.write_text(_config(cards, empty, search_index="off"), encoding="utf-8")
        plain_config = work / "plain.yml"
        plain_config.write_text(_config(None, plain_docs), encoding="utf-8")
        plugin: list[float] = []
        plain: list[float] = []
        for n in range(repeat):  # interleaved, so both meet the same machine
            plugin.append(_timed_build(plugin_config, work / f"plugin-site-{n}"))
            plain.append(_timed_build(plain_config, work / f"plain-site-{n}"))
        serve = []
        for n in range(repeat):
            copy = work / f"serve-cards-{n}"
            shutil.copytree(cards, copy)
            config = work / f"serve-{n}.yml"
            config.write_text(_config(copy, empty, search_index="off"), encoding="utf-8")
            card = sorted(copy.glob("*.json"))[agents // 2]
            done = subprocess.run(
                [sys.executable, "-c", _SERVE, str(config), str(work / f"serve-site-{n}"), str(card)],
                check=True,
                capture_output=True,
                text=True,
                env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
            )
            serve.append(json.loads(done.stdout.strip().splitlines()[-1]))
    best_serve = min(serve, key=lambda s: s["rebuild"])
    return {
        "agents": agents,
        "skills": skills,
        "plugin_build": min(plugin),
        "plain_build": min(plain),
        "plugin_vs_plain": min(plugin) / min(plain),
        "serve_full": best_serve["full"],
        "serve_rebuild": best_serve["rebuild"],
        "rebuild_vs_full": best_serve["rebuild"] / min(plugin),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--agents", type=int, default=200)
    parser.add_argument("--skills", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.agents, args.skills, args.repeat), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
