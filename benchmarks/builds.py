"""Whole site builds, as users run them: the plugin against a plain MkDocs build, and `mkdocs serve` rebuilds.

    python benchmarks/builds.py [--agents 200] [--skills 10] [--repeat 3]

Measures, side by side in one run, on the synthetic catalogue (benchmarks/synthetic.py):

- **plugin build**: `mkdocs build` with the a2a-docgen plugin rendering the cards (Material + search, the
  repository's mkdocs.yml), from an empty docs directory;
- **plain build**: `mkdocs build` of the same pages written by `a2a-docgen build` (the same `site_src/`), without
  the plugin: MkDocs converts them with Python-Markdown and its search plugin indexes their HTML;
- **serve rebuild**: in one process, as `mkdocs serve` does: a full build, then one card edited and the site
  rebuilt with a fresh configuration and the same plugin instance (MkDocs keeps plugins that define
  ``on_startup``), while another thread runs (as the server's does, so no render workers are forked). Each
  build is timed until it returns (the browser reloads then) and until the catalogue search is written too
  (under serve, Pagefind indexes after the build has returned).

Each build runs in a new Python process, the plugin's and the plain one interleaved round by round, so both meet
the same machine. Wall time and CPU time (user + system of the build and every process it waited for: render and
conversion workers, Pagefind) are both recorded: on a shared machine wall time says how busy the others were, CPU
time says how much work the build did. Medians of ``--repeat`` rounds, and the fastest.

Configurations: ``--pagefind`` (the default a user gets, with the ``search`` extra: the plugin's Pagefind index
built after the pages; the plain build has none), ``--own-home`` (the site has its own ``docs/index.md``, so the
catalogue goes under ``catalogue/``, for the plain build too), ``--cpus 0`` (every build under ``taskset``: what a
one-core runner gets). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from synthetic import write_catalogue  # noqa: E402

from a2a_docgen.render import NAV as CATALOGUE_NAV  # noqa: E402

NAV = "nav:\n" + "".join(f"  - {entry.title}: {entry.path}\n" for entry in CATALOGUE_NAV)

_SERVE = r"""
import json, resource, sys, threading, time
from pathlib import Path
from mkdocs.commands.build import build
from mkdocs.config import load_config

config_file, site_dir, card = sys.argv[1:4]

def get_config():
    return load_config(config_file=config_file, site_dir=site_dir)

def cpu():
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime

config = get_config()
config.plugins.on_startup(command="serve", dirty=False)
start, start_cpu = time.perf_counter(), cpu()
build(config)
full, full_cpu = time.perf_counter() - start, cpu() - start_cpu
plugin = config.plugins["a2a-docgen"]
plugin.serve_caches.search_index.wait()  # the first build's search index, made after the build returned
full_searchable, full_searchable_cpu = time.perf_counter() - start, cpu() - start_cpu
stop = threading.Event()
server = threading.Thread(target=stop.wait)  # the server's thread, as under mkdocs serve
server.start()
path = Path(card)
data = json.loads(path.read_text(encoding="utf-8"))
data["description"] = data.get("description", "") + " Edited."
path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
config = get_config()
start, start_cpu = time.perf_counter(), cpu()
build(config)
rebuild, rebuild_cpu = time.perf_counter() - start, cpu() - start_cpu
plugin.serve_caches.search_index.wait()
searchable, searchable_cpu = time.perf_counter() - start, cpu() - start_cpu
stop.set()
server.join()
config.plugins.on_shutdown()
print(json.dumps({"full": full, "rebuild": rebuild, "full_cpu": full_cpu, "rebuild_cpu": rebuild_cpu,
                  "searchable": searchable, "searchable_cpu": searchable_cpu,
                  "full_searchable": full_searchable, "full_searchable_cpu": full_searchable_cpu}))
"""


def _config(cards: Path | None, docs: Path, *, search_index: str | None = None, prefix: str = "") -> str:
    """The repository's mkdocs.yml, reading ``cards`` with the plugin (or, for ``None``, without it, the
    catalogue's navigation under ``prefix``), with the plugin's ``search_index`` option when given."""
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
    return text + (NAV.replace(": ", ": " + prefix) if cards is None else "")


Timed = dict[str, float]
"""``wall`` and ``cpu`` seconds of one build."""


def _timed_build(config: Path, site: Path, *, cpus: str | None = None) -> Timed:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(site)]
    if cpus is not None:
        command = ["taskset", "-c", cpus, *command]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, env=env, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return {"wall": wall, "cpu": cpu}


def _summary(runs: list[Timed]) -> dict[str, float]:
    """Median and fastest of each measure."""
    out: dict[str, float] = {}
    for key in runs[0]:
        values = [run[key] for run in runs]
        out[key] = statistics.median(values)
        out[f"{key}_min"] = min(values)
    return out


def _own_home(docs: Path) -> None:
    docs.mkdir(parents=True, exist_ok=True)
    (docs / "index.md").write_text("# Our site\n\nThe catalogue is under [catalogue](catalogue/index.md).\n")


def measure(
    agents: int,
    skills: int,
    repeat: int,
    *,
    pagefind: bool = False,
    own_home: bool = False,
    cpus: str | None = None,
    serve: bool = True,
) -> dict[str, Any]:
    """The plugin build against the plain build of the same pages (interleaved), and a serve rebuild."""
    search_index = "pagefind" if pagefind else "off"
    with tempfile.TemporaryDirectory(prefix="a2a-docgen-builds-") as tmp:
        work = Path(tmp)
        cards = work / "cards"
        write_catalogue(cards, agents, skills)
        plain_docs = work / "plain-docs"
        prefix = "catalogue/" if own_home else ""
        subprocess.run(
            [sys.executable, "-m", "a2a_docgen", "build", str(cards), "-o", str(plain_docs / prefix)],
            check=True,
            capture_output=True,
        )
        plugin_docs = work / "plugin-docs"
        plugin_docs.mkdir()
        if own_home:
            _own_home(plugin_docs)
            _own_home(plain_docs)
        plugin_config = work / "plugin.yml"
        plugin_config.write_text(_config(cards, plugin_docs, search_index=search_index), encoding="utf-8")
        plain_config = work / "plain.yml"
        plain_config.write_text(_config(None, plain_docs, prefix=prefix), encoding="utf-8")
        plugin: list[Timed] = []
        plain: list[Timed] = []
        for n in range(repeat):  # interleaved, so both meet the same machine; the order turns each round
            builds = [(plugin, plugin_config, "plugin"), (plain, plain_config, "plain")]
            for runs, config, name in builds if n % 2 == 0 else builds[::-1]:
                site = work / f"{name}-site"
                shutil.rmtree(site, ignore_errors=True)
                runs.append(_timed_build(config, site, cpus=cpus))
        served: list[dict[str, float]] = []
        for n in range(repeat if serve else 0):
            copy = work / f"serve-cards-{n}"
            shutil.copytree(cards, copy)
            config = work / f"serve-{n}.yml"
            config.write_text(_config(copy, plugin_docs, search_index=search_index), encoding="utf-8")
            card = sorted(copy.glob("*.json"))[agents // 2]
            command = [sys.executable, "-c", _SERVE, str(config), str(work / f"serve-site-{n}"), str(card)]
            done = subprocess.run(
                ["taskset", "-c", cpus, *command] if cpus is not None else command,
                check=True,
                capture_output=True,
                text=True,
                env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
            )
            served.append(json.loads(done.stdout.strip().splitlines()[-1]))
    plugin_time, plain_time = _summary(plugin), _summary(plain)
    result: dict[str, Any] = {
        "agents": agents,
        "skills": skills,
        "pagefind": pagefind,
        "own_home": own_home,
        "cpus": cpus,
        "rounds": repeat,
        "plugin": plugin_time,
        "plain": plain_time,
        "wall_ratio": plugin_time["wall"] / plain_time["wall"],
        "cpu_ratio": plugin_time["cpu"] / plain_time["cpu"],
        # the names benchmarks/run.py reports
        "plugin_build": plugin_time["wall_min"],
        "plain_build": plain_time["wall_min"],
        "plugin_vs_plain": plugin_time["wall_min"] / plain_time["wall_min"],
    }
    if served:
        serve_time = _summary(served)
        result.update(
            serve=serve_time,
            serve_full=serve_time["full_min"],
            serve_rebuild=serve_time["rebuild_min"],
            rebuild_vs_full=serve_time["rebuild"] / serve_time["full"],
            rebuild_vs_full_cpu=serve_time["rebuild_cpu"] / serve_time["full_cpu"],
            searchable_vs_full=serve_time["searchable"] / serve_time["full_searchable"],
            searchable_vs_full_cpu=serve_time["searchable_cpu"] / serve_time["full_searchable_cpu"],
        )
    return result


CONFIGURATIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("as users get it (Pagefind on)", {"pagefind": True, "own_home": False, "cpus": None}),
    (
        "with the site's own `docs/index.md` (a prefix; Pagefind on)",
        {"pagefind": True, "own_home": True, "cpus": None},
    ),
    (
        "on one core (`taskset -c 0`; Pagefind on)",
        {"pagefind": True, "own_home": False, "cpus": "0", "serve": False},
    ),
)
"""What docs/performance.md compares: the configuration users get by default, a site with a home page of its
own, and a one-core runner."""


def configuration_name(result: dict[str, Any]) -> str:
    for name, options in CONFIGURATIONS:
        if all(result.get(key) == options.get(key) for key in ("own_home", "cpus")) and result.get(
            "pagefind"
        ):
            return name
    return "Pagefind off" + (", own home page" if result.get("own_home") else "")


def report_lines(results: list[dict[str, Any]]) -> list[str]:
    """The Markdown table of measured configurations (medians of interleaved rounds)."""
    lines = [
        "| configuration | agents x skills | rounds | plugin build: wall, CPU | plain build: wall, CPU "
        "| plugin / plain: wall, CPU | serve rebuild / full build: wall, CPU | the same until searchable: wall |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in results:
        plugin, plain = r["plugin"], r["plain"]
        serve = (
            f"{r['serve']['rebuild']:.2f} s / {r['serve']['full']:.1f} s = {r['rebuild_vs_full']:.2f}x, "
            f"{r['serve']['rebuild_cpu']:.2f} s / {r['serve']['full_cpu']:.1f} s = {r['rebuild_vs_full_cpu']:.2f}x"
            if "serve" in r
            else "not measured"
        )
        searchable = (
            f"{r['serve']['searchable']:.2f} s / {r['serve']['full_searchable']:.1f} s = "
            f"{r['searchable_vs_full']:.2f}x"
            if "searchable_vs_full" in r
            else "not measured"
        )
        lines.append(
            f"| {configuration_name(r)} | {r['agents']} x {r['skills']} | {r['rounds']} "
            f"| {plugin['wall']:.1f} s, {plugin['cpu']:.1f} s | {plain['wall']:.1f} s, {plain['cpu']:.1f} s "
            f"| **{r['wall_ratio']:.2f}x**, **{r['cpu_ratio']:.2f}x** | {serve} | {searchable} |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--agents", type=int, default=200)
    parser.add_argument("--skills", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--pagefind", action="store_true", help="the plugin's Pagefind index on (the default)"
    )
    parser.add_argument("--own-home", action="store_true", help="the site has its own docs/index.md")
    parser.add_argument("--cpus", help="run every build under taskset -c CPUS (0: one core)")
    parser.add_argument("--no-serve", action="store_true", help="builds only, no serve rebuild")
    parser.add_argument(
        "--report", nargs="+", type=Path, help="print the Markdown table of these JSON results instead"
    )
    args = parser.parse_args(argv)
    if args.report:
        results = [json.loads(path.read_text(encoding="utf-8")) for path in args.report]
        print("\n".join(report_lines(results)))
        return 0
    result = measure(
        args.agents,
        args.skills,
        args.repeat,
        pagefind=args.pagefind,
        own_home=args.own_home,
        cpus=args.cpus,
        serve=not args.no_serve,
    )
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
