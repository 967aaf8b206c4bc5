"""What each piece of speed code saves on a whole plugin build (issue: keep only what saves 5% or more).

    python benchmarks/speed_code.py [--agents 1000] [--skills 10] [--repeat 3] [--no-pagefind] [--json]

Builds the synthetic catalogue with the repository's mkdocs.yml (Material, its search plugin and the
a2a-docgen plugin with its Pagefind index, the configuration users get; ``--no-pagefind`` leaves it out) once
as shipped and once with each piece of speed code turned off, each build in a fresh Python process,
interleaved, the fastest of ``--repeat`` runs counting, in wall time and in CPU time (the build and every
process it waited for). A piece stays where it saves at least 5% of either. A variant turns its piece off from the outside (the driver below patches the
module before MkDocs starts), so the product carries no switch for the benchmark:

- ``gc-pause``: ``collector.collector_paused`` (the collector off while pages are rendered and converted, and
  while a history's versions are read);
- ``workers``: forked render and conversion workers (the plugin's ``jobs: 1``);
- ``pretty-json``: the hand-written ``pretty_json`` (``json.dumps`` writes the same bytes);
- ``taint-bypass``: ``_taint_fields`` making copies without the dataclass ``__init__``;
- ``ascii-paths``: the ASCII fast paths of ``clean_text`` and of the deceptive-text rule;
- ``inline-memo``: markdown-it-py's inline step remembering short texts (``html/inline_memo.py``);
- ``late-pages``: the pages no other page needs (``site/plugin/cache.LatePages``) converted during MkDocs' page
  loop, on the cores it leaves idle, instead of in the one pass before it;
- ``fence-find``: ``llms-full.txt``'s fences found by ``str.find`` rather than a regular expression over
  every run of backticks;
- under ``mkdocs serve`` only (``--serve``, which measures these by default, with ``fence-find``): the serve
  caches, each turned off alone (``serve-cards``, ``serve-views``, ``serve-templates``, ``serve-html``,
  ``serve-theme-code``, ``serve-kept``, ``serve-copies``), and ``search-after-build`` (Pagefind run before
  the build returns, as in a plain build).

``--variants a,b`` measures the shipped build and those variants only. ``--serve`` times ``mkdocs serve``'s
rebuild after one card edit instead of a whole build (``builds._SERVE``; the ``workers`` variant changes
nothing there: a rebuild under serve forks none).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from builds import _SERVE, _config  # noqa: E402
from synthetic import write_catalogue  # noqa: E402

DESCRIPTIONS = {
    "gc-pause": "the garbage collector paused while pages are rendered and converted (`collector.py`)",
    "workers": "forked render and conversion workers (`render/parallel.py`; plugin option `jobs: 1`)",
    "pretty-json": "the hand-written `pretty_json` (`text/jsonio.py`; `json.dumps` writes the same bytes)",
    "taint-bypass": "`_taint_fields` copying model objects without their dataclass `__init__` (`render/pages.py`)",
    "ascii-paths": "the ASCII fast paths of `clean_text` and of the deceptive-text rule",
    "inline-memo": "markdown-it-py's inline step remembering short texts (`html/inline_memo.py`)",
    "late-pages": "pages no other page needs converted during MkDocs' page loop (`site/plugin/cache.LatePages`)",
    "fence-find": "`llms-full.txt`'s fences found by `str.find`, not a regular expression (`render/discovery._fence`)",
    "serve-cards": "serve: each card validated again only when its bytes changed (`catalog.CardCache`)",
    "serve-views": "serve: the views and Markdown of agents whose cards did not change kept (`render/reuse.py`)",
    "serve-templates": "serve: our template environments kept, each template compiled once (`render/env.TemplateEnvs`)",
    "serve-html": "serve: a page converted again only when its Markdown changed (`site/plugin/cache.HtmlCache`)",
    "serve-theme-code": "serve: the theme's compiled templates kept (`site/plugin/cache.TemplateCodeCache`)",
    "serve-kept": "serve: an unchanged page written back as the last build made it (`site/plugin/kept.py`)",
    "serve-copies": "serve: Pagefind's copies of unchanged agent pages kept (`site/plugin/search.IndexCopies`)",
    "search-after-build": "serve: Pagefind run after the build returns (`site/plugin/search.IndexAfterBuild`)",
}
SERVE_ONLY = frozenset(
    name for name in DESCRIPTIONS if name.startswith("serve-") or name == "search-after-build"
)
"""Pieces at work under ``mkdocs serve`` only (``--serve`` measures them)."""
"""What each variant turns off."""
VARIANTS = ("shipped", *DESCRIPTIONS)

PATCHES = r"""
import contextlib, json, re, sys, time

variant = sys.argv.pop(1)

if variant == "gc-pause":
    import a2a_docgen.render.catalog as render, a2a_docgen.site.plugin.cache as cache
    import a2a_docgen.history.read as history, a2a_docgen.history.prefill as prefill
    render.collector_paused = cache.collector_paused = contextlib.nullcontext
    history.collector_paused = prefill.collector_paused = contextlib.nullcontext
elif variant == "pretty-json":
    import json as _json
    import a2a_docgen.render.escape as escape, a2a_docgen.text.jsonio as jsonio
    def dumps(value, indent):
        return _json.dumps(value, indent=indent, ensure_ascii=False, allow_nan=False)
    escape.pretty_json = jsonio.pretty_json = dumps
elif variant == "taint-bypass":
    import a2a_docgen.render.pages as pages
    def through_init(value, kind, fields, memo):
        return kind(**{name: pages._taint(getattr(value, name), memo) if card else getattr(value, name)
                       for name, card in fields})
    pages._taint_fields = through_init
elif variant == "ascii-paths":
    import a2a_docgen.text.unicode as unicode, a2a_docgen.validate.rules as rules
    unicode._ASCII_NEEDS_CLEANING = re.compile("")  # always "needs cleaning": the general path
    rules.plain_ascii = lambda values: False
elif variant == "inline-memo":
    import a2a_docgen.html as html
    html._MD = html._parser(memo=False)
elif variant == "late-pages":
    import a2a_docgen.site.plugin.hooks as hooks
    hooks.A2ADocgenPlugin._late = lambda self, config, site, *, jobs: frozenset()
elif variant == "fence-find":
    import a2a_docgen.render.discovery as discovery
    def _fence(text):
        return "`" * max(3, max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    discovery._fence = _fence
elif variant == "serve-cards":
    from a2a_docgen.catalog import CardCache
    _load = CardCache.load
    CardCache.load = lambda self, card_file, limits: _load(CardCache(), card_file, limits)
elif variant == "serve-views":
    from a2a_docgen.render.reuse import RenderReuse
    _start = RenderReuse.start
    def start(self, env, *, overrides):
        self.views.clear()
        self.pages.clear()
        _start(self, env, overrides=overrides)
    RenderReuse.start = start
elif variant == "serve-templates":
    from a2a_docgen.render.env import TemplateEnvs
    _env = TemplateEnvs.env
    TemplateEnvs.env = lambda self, overrides=None: _env(TemplateEnvs(), overrides)
elif variant == "serve-html":
    from a2a_docgen.site.plugin.cache import HtmlCache
    _convert = HtmlCache.convert
    HtmlCache.convert = lambda self, *args, **kwargs: _convert(HtmlCache(), *args, **kwargs)
elif variant == "serve-theme-code":
    from a2a_docgen.site.plugin.cache import TemplateCodeCache
    TemplateCodeCache.load_bytecode = lambda self, bucket: None
elif variant == "serve-kept":
    from a2a_docgen.site.plugin.kept import KeptPages
    KeptPages.lookup = lambda self, page, html: None
elif variant == "serve-copies":
    from a2a_docgen.site.plugin.search import IndexCopies
    IndexCopies.keep = lambda self, path: False
elif variant == "search-after-build":
    from a2a_docgen.site.plugin.search import IndexAfterBuild
    IndexAfterBuild.start = lambda self, index: index()
"""
"""Each variant's piece turned off, from the outside (``python -c PATCHES + ... VARIANT ...``)."""

DRIVER = r"""
config_file, site_dir = sys.argv[1:3]

from mkdocs.commands.build import build
from mkdocs.config import load_config

config = load_config(config_file=config_file, site_dir=site_dir)
if variant == "workers":
    config.plugins["a2a-docgen"].config.jobs = 1
config.plugins.on_startup(command="build", dirty=False)
start = time.perf_counter()
try:
    build(config)
finally:
    config.plugins.on_shutdown()
print(json.dumps({"seconds": time.perf_counter() - start}))
"""


Timings = dict[str, list[dict[str, float]]]
"""Each variant's ``wall`` and ``cpu`` seconds, run by run."""


def _turns(variants: tuple[str, ...], repeat: int) -> Iterator[tuple[int, str]]:
    """(round, variant) in the order they run: the order turns by one each round, so no variant always runs
    first (or after the same one)."""
    for n in range(repeat):
        yield from ((n, variant) for variant in variants[n % len(variants) :] + variants[: n % len(variants)])


def _catalogue(work: Path, agents: int, skills: int) -> tuple[Path, Path]:
    """The synthetic cards and an empty docs directory under ``work``."""
    cards = work / "cards"
    write_catalogue(cards, agents, skills)
    docs = work / "docs"
    docs.mkdir()
    return cards, docs


def _fastest(times: Timings) -> dict[str, dict[str, float]]:
    return {v: {k: min(run[k] for run in runs) for k in ("wall", "cpu")} for v, runs in times.items()}


def measure(
    agents: int, skills: int, repeat: int, variants: tuple[str, ...] = VARIANTS, *, pagefind: bool = True
) -> dict[str, dict[str, float]]:
    """The fastest wall and CPU time of each variant's whole build (``shipped`` first), in seconds: a new
    process each, timed from outside (CPU: the build and every process it waited for, workers and Pagefind)."""
    with tempfile.TemporaryDirectory(prefix="a2a-docgen-speed-") as tmp:
        work = Path(tmp)
        cards, docs = _catalogue(work, agents, skills)
        config = work / "mkdocs.yml"
        config.write_text(
            _config(cards, docs, search_index="pagefind" if pagefind else "off"), encoding="utf-8"
        )
        times: Timings = {v: [] for v in variants}
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        for _, variant in _turns(variants, repeat):
            # Each starts with the last build's site deleted and its writes on disk: a build writes hundreds
            # of megabytes, which the next one would otherwise pay for.
            site = work / "site"
            shutil.rmtree(site, ignore_errors=True)
            os.sync()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-c", PATCHES + DRIVER, variant, str(config), str(site)],
                check=False,
                capture_output=True,
                text=True,
                env=env,
            )
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if done.returncode != 0:
                raise SystemExit(f"{variant}: the build failed:\n{done.stderr[-3000:]}")
            cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            times[variant].append({"wall": wall, "cpu": cpu})
    return _fastest(times)


def measure_serve(
    agents: int, skills: int, repeat: int, variants: tuple[str, ...] = VARIANTS, *, pagefind: bool = True
) -> dict[str, dict[str, float]]:
    """The fastest wall and CPU time of each variant's ``mkdocs serve`` rebuild after one card edit, until the
    build returns (``builds._SERVE``, in a new process each; no render workers under serve)."""
    with tempfile.TemporaryDirectory(prefix="a2a-docgen-speed-serve-") as tmp:
        work = Path(tmp)
        cards, docs = _catalogue(work, agents, skills)
        times: Timings = {v: [] for v in variants}
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        for n, variant in _turns(variants, repeat):
            copy = work / f"cards-{n}-{variant}"
            shutil.copytree(cards, copy)
            config = work / f"serve-{n}-{variant}.yml"
            search_index = "pagefind" if pagefind else "off"
            config.write_text(_config(copy, docs, search_index=search_index), encoding="utf-8")
            card = sorted(copy.glob("*.json"))[agents // 2]
            site = work / f"site-{n}-{variant}"
            command = [sys.executable, "-c", PATCHES + _SERVE, variant, str(config), str(site), str(card)]
            done = subprocess.run(command, check=False, capture_output=True, text=True, env=env)
            if done.returncode != 0:
                raise SystemExit(f"{variant}: the serve builds failed:\n{done.stderr[-3000:]}")
            timed = json.loads(done.stdout.strip().splitlines()[-1])
            times[variant].append({"wall": timed["rebuild"], "cpu": timed["rebuild_cpu"]})
            shutil.rmtree(site, ignore_errors=True)
            shutil.rmtree(copy, ignore_errors=True)
    return _fastest(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--agents", type=int, default=1000)
    parser.add_argument("--skills", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    parser.add_argument("--no-pagefind", action="store_true", help="the plugin's search_index: off")
    parser.add_argument("--variants", help="comma-separated variants to measure beside the shipped build")
    parser.add_argument(
        "--serve", action="store_true", help="time mkdocs serve's rebuild after one card edit instead"
    )
    args = parser.parse_args(argv)
    default = (v for v in VARIANTS[1:] if (v in SERVE_ONLY) == args.serve or v == "fence-find")
    chosen = tuple(args.variants.split(",")) if args.variants else tuple(default)
    unknown = set(chosen) - set(DESCRIPTIONS)
    if unknown:
        parser.error(f"unknown variants: {', '.join(sorted(unknown))} (known: {', '.join(DESCRIPTIONS)})")
    timed = measure_serve if args.serve else measure
    best = timed(args.agents, args.skills, args.repeat, ("shipped", *chosen), pagefind=not args.no_pagefind)
    if args.json:
        print(json.dumps(best, indent=2))
        return 0
    shipped = best["shipped"]
    search = "Pagefind off" if args.no_pagefind else "Pagefind on"
    what = "serve rebuild after one card edit" if args.serve else "whole build"
    print(f"{what}, {args.agents} agents x {args.skills} skills, {search}, fastest of {args.repeat}")
    print(f"{'variant':<14} {'wall s':>8} {'saves':>7} {'CPU s':>8} {'saves':>7}")
    for variant, measured in best.items():
        saves = {
            k: (measured[k] - shipped[k]) / measured[k] * 100 if variant != "shipped" else 0.0
            for k in ("wall", "cpu")
        }
        print(
            f"{variant:<14} {measured['wall']:>8.2f} {saves['wall']:>6.1f}% {measured['cpu']:>8.2f} "
            f"{saves['cpu']:>6.1f}%"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
