"""Benchmark: whole site builds as users run them, with the targets of docs/performance.md.

    .venv/bin/python benchmarks/run.py                  # the targets (about 15 minutes on 2 cores)
    .venv/bin/python benchmarks/run.py --all            # and search, speed code, Zensical (about an hour)
    .venv/bin/python benchmarks/run.py --quick          # small sizes, for a smoke run (no report written)
    .venv/bin/python benchmarks/run.py --card-sizes     # only build time and memory against one card's size

Measures, on the synthetic catalogue (benchmarks/synthetic.py), each build in a new Python process:

  (a) the plugin build of N x 10 (Material + its search, the repository's mkdocs.yml; Pagefind on, with and
      without a site home page of its own, and on one core), wall and CPU time, against a plain
      `mkdocs build` of the same pages written by `a2a-docgen build`, side by side (benchmarks/builds.py);
  (b) `mkdocs serve` after one card edit: the rebuild against the full build (benchmarks/builds.py);
  (c) plugin builds at N/10, N and 5 N agents: time, peak memory, page weight, search index;
  (d) the largest page of a 5,000-agent catalogue, as the plugin makes it (benchmarks/page_sizes.py);
  (e) `a2a-docgen build` again with nothing changed, and after one card changed: the files rewritten;
  (e') every page of the N x 10 catalogue through each candidate converter (benchmarks/converters.py);
  (f) with --search: the catalogue search and filter in headless Chromium at 1,000 agents (benchmarks/search.py);
  (g) with --speed-code: what each piece of speed code saves on the 1,000-agent build (benchmarks/speed_code.py);
  (h) with --zensical: the 1,000-agent catalogue built by Zensical (benchmarks/zensical_build.py);
  (i) the change history: the plugin build of 5 N agents with 50 commits, with and without it
      (benchmarks/history.py).

Prints the report (--output FILE writes it too); docs/performance.md takes the rows that changed, with the
machine and the date. Every number is from this run, on this machine: nothing is carried over.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import builds
import converters
import history
import page_sizes
import speed_code
from synthetic import write_catalogue
from zensical_build import ZensicalBuild, zensical_build
from zensical_build import report as zensical_report

from a2a_docgen.catalog import load_catalog
from a2a_docgen.render import render_catalog
from a2a_docgen.site.pagefind import find_pagefind
from a2a_docgen.site.writer import write_site

TWO_CORES = (0.9, 1.25)
ONE_CORE = (1.0, 1.0)
"""The plugin build against a plain one (docs/performance.md): at most these times its wall and CPU time."""
HERE = Path(__file__).resolve().parent
MEASURE = HERE / "measure_mkdocs.py"
SPEED_CODE_KEEP = 3.0
"""Percent of the whole build a piece of speed code must save to stay."""


@dataclass
class SiteBuild:
    agents: int
    skills: int
    seconds: float
    peak_mib: float
    pages: int
    median_kib: float
    max_kib: float
    index_kib: float


@dataclass
class Rebuilds:
    noop: int
    """Files a rebuild of unchanged cards rewrote."""
    changed: list[str]
    """Files a one-card change rewrote."""
    other_agents: list[str]
    """Of those, files of other agents (should be none)."""


def rebuilds(cards_dir: Path, out_dir: Path) -> Rebuilds:
    """``a2a-docgen build`` three times: the first build, a no-op, then a change to one card."""
    write_site(render_catalog(load_catalog([cards_dir])), out_dir)
    noop = write_site(render_catalog(load_catalog([cards_dir])), out_dir)
    paths = sorted(cards_dir.glob("*.json"))
    card_path = paths[len(paths) // 2]
    card = json.loads(card_path.read_text(encoding="utf-8"))
    card["description"] += " Changed."
    card["skills"][0]["tags"] = [*card["skills"][0]["tags"], "benchmark-change"]
    card_path.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    site = render_catalog(load_catalog([cards_dir]))
    change = write_site(site, out_dir)
    (own,) = {
        p.split("/")[1]
        for p, data in site.files.items()
        if p.endswith("/card.json") and data == card_path.read_bytes()
    }
    others = [p for p in change.written if p.startswith("agents/") and p.split("/")[1] != own]
    return Rebuilds(len(noop.written), sorted(change.written), others)


def site_build(work: Path, agents: int, skills: int) -> SiteBuild:
    """One plugin build of the repository's mkdocs.yml (Pagefind off: it runs after the pages, see --search)."""
    cards = work / f"cards-{agents}x{skills}"
    write_catalogue(cards, agents, skills)
    docs = work / f"docs-{agents}x{skills}"
    docs.mkdir()
    config = work / f"mkdocs-{agents}x{skills}.yml"
    config.write_text(builds._config(cards, docs, search_index="off"), encoding="utf-8")
    site = work / f"site-{agents}x{skills}"
    result = work / f"measure-{agents}x{skills}.json"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, str(MEASURE), str(result), "build", "-q", "-f", str(config), "-d", str(site)]
    start = time.perf_counter()
    subprocess.run(command, check=True, env=env, capture_output=True)
    seconds = time.perf_counter() - start
    sizes = [p.stat().st_size for p in (site / "agents").rglob("index.html")]
    index = site / "search" / "search_index.json"
    return SiteBuild(
        agents=agents,
        skills=skills,
        seconds=seconds,
        peak_mib=json.loads(result.read_text(encoding="utf-8"))["max_rss_kib"] / 1024,
        pages=sum(1 for _ in site.rglob("*.html")),
        median_kib=statistics.median(sizes) / 1024,
        max_kib=max(sizes) / 1024,
        index_kib=index.stat().st_size / 1024 if index.exists() else 0.0,
    )


def search(agents: int, skills: int) -> dict[str, Any]:
    """benchmarks/search.py at this size, its numbers."""
    done = subprocess.run(
        [sys.executable, str(HERE / "search.py"), "--agents", str(agents), "--skills", str(skills), "--json"],
        check=True,
        capture_output=True,
        text=True,
    )
    numbers: dict[str, Any] = json.loads(done.stdout)
    return numbers


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import mkdocs

    return (
        f"{os.cpu_count()} cores ({cpu}), Python {platform.python_version()}, MkDocs {mkdocs.__version__}, "
        f"{platform.system()} {platform.machine()}"
    )


Row = tuple[str, str, str, bool]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--agents", type=int, default=200, help="agents of the main comparison (default 200)")
    parser.add_argument("--skills", type=int, default=10, help="skills per agent (default 10)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each timed build; the fastest counts")
    parser.add_argument("--huge", type=int, default=5000, help="agents for the largest-page measure")
    parser.add_argument("--quick", action="store_true", help="small sizes only, for a smoke run")
    parser.add_argument("--search", action="store_true", help="also measure the search in Chromium")
    parser.add_argument(
        "--speed-code", action="store_true", help="also time the build without each speed code"
    )
    parser.add_argument("--zensical", action="store_true", help="also build 5 N agents with Zensical")
    parser.add_argument("--all", action="store_true", help="--search, --speed-code and --zensical")
    parser.add_argument(
        "--card-sizes", action="store_true", help="only build time and memory against card size"
    )
    parser.add_argument("--output", type=Path, help="also write the report to this file")
    args = parser.parse_args(argv)
    if args.card_sizes:
        import card_size

        return card_size.main()
    if args.all:
        args.search = args.speed_code = args.zensical = True
    agents, skills = (20, 4) if args.quick else (args.agents, args.skills)
    small, large, huge = max(agents // 10, 2), agents * 5, (agents * 10 if args.quick else args.huge)
    repeat = 1 if args.quick else args.repeat

    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="a2a-docgen-bench-") as tmp:
        work = Path(tmp)
        indexed = find_pagefind() is not None  # the default configuration builds the Pagefind index
        configurations = [
            builds.measure(agents, skills, repeat, **{**options, "pagefind": indexed})
            for _, options in builds.CONFIGURATIONS
        ]
        scale = [site_build(work, n, skills) for n in (small, agents, large)]
        pages = page_sizes.measure(huge, skills)
        write_catalogue(work / "rebuild-cards", agents, skills)
        again = rebuilds(work / "rebuild-cards", work / "rebuild-out")
        converted = converters.measure(agents, skills)
        changes = history.measure(large, skills, 10 if args.quick else 50, repeat)
        found = search(large, skills) if args.search else None
        speed = speed_code.measure(large, skills, repeat) if args.speed_code else None
        zensical = None
        if args.zensical:
            (work / "zensical").mkdir()
            zensical = zensical_build(work / "zensical", large, skills)
    minutes = (time.perf_counter() - started) / 60
    load_after = os.getloadavg()[0]

    report = render_report(
        args,
        configurations,
        scale,
        pages,
        again,
        converted,
        found,
        speed,
        zensical,
        (load_before, load_after, minutes),
        changes,
    )
    print(report)
    if args.output is not None:
        args.output.write_text(report, encoding="utf-8")
    return 0


def targets(
    configurations: list[dict[str, Any]],
    scale: list[SiteBuild],
    pages: dict[str, Any],
    again: Rebuilds,
    found: dict[str, Any] | None,
) -> list[Row]:
    small, mid, large = scale
    growth = mid.seconds / small.seconds
    weight = mid.median_kib / small.median_kib
    largest = int(pages["largest_bytes"])
    rows: list[Row] = []
    for c in configurations:
        wall, cpu = ONE_CORE if c.get("cpus") else TWO_CORES
        rows.append(
            (
                f"plugin build vs plain `mkdocs build`, {c['agents']} x {c['skills']}, "
                f"{builds.configuration_name(c)}: wall, CPU (medians)",
                f"{c['wall_ratio']:.2f}x, {c['cpu_ratio']:.2f}x",
                f"<= {wall}x wall, <= {cpu}x CPU",
                c["wall_ratio"] <= wall and c["cpu_ratio"] <= cpu,
            )
        )
        if "serve" in c:
            rows.append(
                (
                    f"`mkdocs serve` after one card edit, {builds.configuration_name(c)}: wall, CPU",
                    f"{c['rebuild_vs_full']:.2f}x, {c['rebuild_vs_full_cpu']:.2f}x the full build",
                    "<= 0.25x",
                    c["rebuild_vs_full"] <= 0.25,
                )
            )
    rows += [
        (
            f"build time t({mid.agents})/t({small.agents})",
            f"{growth:.2f}",
            "<= 12",
            growth <= 12,
        ),
        (
            f"median agent page, {mid.agents} vs {small.agents} agents",
            f"{weight:.2f}x",
            "<= 1.25x",
            weight <= 1.25,
        ),
        (
            f"{large.agents} agents x {large.skills} skills",
            f"{large.seconds:.1f} s, peak memory {large.peak_mib:.0f} MiB",
            "< 60 s, < 1024 MiB",
            large.seconds < 60 and large.peak_mib < 1024,
        ),
        (
            f"largest page at {pages['agents']} agents",
            f"{largest / 1000:.0f} KB of HTML (`{pages['largest'][0]['path']}`)",
            "<= 300 KB",
            largest <= 300_000,
        ),
        ("`a2a-docgen build`, nothing changed", f"{again.noop} files rewritten", "0", again.noop == 0),
        (
            "`a2a-docgen build`, one card changed",
            f"{len(again.changed)} files rewritten, {len(again.other_agents)} of other agents",
            "that agent and the lists it is on",
            not again.other_agents,
        ),
    ]
    if found is not None:
        first = found["search_first_result_ms"]["median"]
        sent = found["search_first_bytes"]["median"]
        rows += [
            (
                f"first search result at {found['agents']} agents (Chromium)",
                f"{first:.0f} ms after the last keystroke (median of {len(found['words'])} words)",
                "<= 500 ms",
                first <= 500,
            ),
            ("bytes a first search transfers", f"{sent / 1000:.0f} KB", "<= 300 KB", sent <= 300_000),
        ]
    return rows


def render_report(
    args: argparse.Namespace,
    configurations: list[dict[str, Any]],
    scale: list[SiteBuild],
    pages: dict[str, Any],
    again: Rebuilds,
    converted: dict[str, Any],
    found: dict[str, Any] | None,
    speed: dict[str, float] | None,
    zensical: ZensicalBuild | None,
    run: tuple[float, float, float],
    changes: dict[str, float] | None = None,
) -> str:
    load_before, load_after, minutes = run
    flags = [f for f, on in (("--search", found), ("--speed-code", speed), ("--zensical", zensical)) if on]
    command = " ".join(["python benchmarks/run.py", *(["--quick"] if args.quick else []), *flags])
    rows = targets(configurations, scale, pages, again, found)
    if changes is not None:
        rows.append(history.target_row(changes))
    if zensical is not None:
        rows.append(
            (
                f"{zensical.agents} agents x {zensical.skills} skills in Zensical",
                f"built in {zensical.cold_seconds:.0f} s; search: {zensical.missing_entries} entries missing,"
                f" largest field {zensical.max_field_words} of {zensical.word_limit} words",
                "builds, search complete",
                zensical.search_works,
            )
        )
    lines = [
        "# Performance",
        "",
        "Every number below is from one run of the benchmark on the machine named, all in that run: whole",
        "builds as users run them, each in a new Python process, the fastest of several runs where a target",
        "compares two times. Other work on the machine slows every timing; the ratios hold better than the",
        "absolute times.",
        "",
        f"- Command: `{command}` (from the repository root, with the `test` extras installed); it took"
        f" {minutes:.0f} min",
        f"- Machine: {machine()}; load average {load_before:.1f} at the start, {load_after:.1f} at the end",
        f"- Catalogue: synthetic, deterministic (`benchmarks/synthetic.py`): N agents x {scale[0].skills} skills, half",
        "  v1.0 and half v0.3 cards, JSON-string examples, skill-level mode overrides and OAuth2 scopes.",
        "- Site: the repository's `mkdocs.yml` (Material for MkDocs, its search plugin, the a2a-docgen plugin).",
        "",
        "## Targets",
        "",
        "| measure | result | target | met |",
        "| --- | --- | --- | --- |",
        *[
            f"| {name} | {value} | {target} | {'yes' if ok else '**no**'} |"
            for name, value, target, ok in rows
        ],
        "",
        *_sealed_section(configurations),
        *_scale_section(scale),
        *_pages_section(pages),
        *_rebuild_section(again),
        *converters.report(converted),
        *(history.report(changes) if changes is not None else []),
    ]
    if found is not None:
        lines += _search_section(found)
    if speed is not None:
        lines += _speed_section(speed, scale[2])
    if zensical is not None:
        lines += zensical_report(zensical)
    return "\n".join(lines).rstrip("\n") + "\n"


def _sealed_section(configurations: list[dict[str, Any]]) -> list[str]:
    c = configurations[0]
    return [
        f"## The plugin against a plain build ({c['agents']} agents x {c['skills']} skills)",
        "",
        "The plain build is `mkdocs build` of the pages `a2a-docgen build` writes (Python-Markdown converts them, the",
        "search plugin parses their HTML, no Pagefind index); the plugin build loads, renders and converts the cards",
        "itself (search entries from the model, the Pagefind index when installed). Both in new processes,",
        "interleaved round by round; CPU time counts every process a build waited for (workers, Pagefind).",
        "",
        *builds.report_lines(configurations),
        "",
        "The renderer makes Markdown only; the plugin converts the pages at their final paths once each, in one",
        "pass (forked workers where that pays), and keeps their HTML by final path: under `mkdocs serve` a rebuild",
        "validates only the changed cards, renders only the changed agents and converts only the pages whose",
        "Markdown changed.",
        "",
    ]


def _scale_section(scale: list[SiteBuild]) -> list[str]:
    lines = [
        "## Plugin builds at three sizes",
        "",
        "Peak memory is the peak resident memory of the build process or of a worker it started, whichever is",
        "larger (`benchmarks/peak.py`: a forked worker's pages are partly its parent's, so the two are not added).",
        "",
        "| agents x skills | build time | peak memory | HTML pages | median agent page | largest agent page"
        " | search index | index per skill |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for b in scale:
        per_skill = b.index_kib * 1024 / (b.agents * b.skills)
        lines.append(
            f"| {b.agents} x {b.skills} | {b.seconds:.1f} s | {b.peak_mib:.0f} MiB | {b.pages} |"
            f" {b.median_kib:.1f} KiB | {b.max_kib:.1f} KiB | {b.index_kib:.0f} KiB | {per_skill:.0f} B |"
        )
    lines += [
        "",
        "The navigation lists the catalogue's index pages only, never one entry per agent, so an agent page",
        "weighs the same in any catalogue; lists (home, tags, media types, security, scopes, bindings) are split",
        "into pages of bounded size (`render/layout.py`: 100 agents a page on the home page, 200 on a facet",
        "page), so no page grows with the catalogue. The search index (Material's, from the plugin's entries)",
        "grows with the number of skills; the catalogue search (Pagefind) loads only what a query needs.",
        "",
    ]
    return lines


def _pages_section(pages: dict[str, Any]) -> list[str]:
    return [
        f"## The largest pages at {pages['agents']} agents",
        "",
        f"Every page of a {pages['agents']}-agent catalogue ({pages['pages']} pages) converted by the plugin's own",
        f"converter, plus the theme around the content ({pages['chrome_bytes'] / 1000:.0f} KB, measured on a real"
        " build: the navigation lists index pages only, so it is the same at any size;"
        " `benchmarks/page_sizes.py`):",
        "",
        "| page | HTML |",
        "| --- | --- |",
        *[f"| `{row['path']}` | {row['html_bytes'] / 1000:.0f} KB |" for row in pages["largest"][:5]],
        "",
    ]


def _rebuild_section(again: Rebuilds) -> list[str]:
    return [
        "## What a rebuild rewrites",
        "",
        "`a2a-docgen build` compares bytes and leaves unchanged files alone, so `mkdocs serve`, `zensical serve`",
        "and pull-request diffs see only what changed. The one-card change (a description and a tag) rewrote:",
        "",
        *[f"- `{p}`" for p in again.changed],
        "",
    ]


def _search_section(f: dict[str, Any]) -> list[str]:
    requests = sorted(f["search_first_requests"].items(), key=lambda kv: -kv[1])
    return [
        f"## The catalogue search at {f['agents']} agents x {f['skills']} skills (`--search`)",
        "",
        "Headless Chromium on the built site served from 127.0.0.1 (`benchmarks/search.py`): a reader opens",
        f"the home page, looks at it for {f['pause_ms'] / 1000:.0f} s, then types a word"
        f" ({f['key_ms']} ms a key); timed from the last keystroke to the first result on screen.",
        "",
        "| measure | median | max |",
        "| --- | --- | --- |",
        f"| first result after the last keystroke | {f['search_first_result_ms']['median']:.0f} ms |"
        f" {f['search_first_result_ms']['max']:.0f} ms |",
        f"| the same, the word pasted the moment the page loaded | {f['search_first_result_at_once_ms']['median']:.0f}"
        f" ms | {f['search_first_result_at_once_ms']['max']:.0f} ms |",
        f"| a second query | {f['search_warm_result_ms']['median']:.0f} ms | {f['search_warm_result_ms']['max']:.0f}"
        " ms |",
        f"| bytes up to the first results | {f['search_first_bytes']['median'] / 1000:.0f} KB |"
        f" {f['search_first_bytes']['max'] / 1000:.0f} KB |",
        f"| filter by tag (the whole catalogue) | {f['filter_tag_ms']['median']:.0f} ms | {f['filter_tag_ms']['max']:.0f}"
        " ms |",
        f"| filter by text | {f['filter_text_ms']['median']:.0f} ms | {f['filter_text_ms']['max']:.0f} ms |",
        "",
        "What a first search loads (Pagefind's program starts loading once the page is idle):",
        "",
        *[f"- `{path}`: {n / 1000:.0f} KB" for path, n in requests],
        "",
        f"The Pagefind bundle is {f['pagefind_bundle_bytes'] / 1e6:.1f} MB on disk; `catalogue-filter.json`, which"
        f" the filter loads whole, is {f['filter_json_bytes'] / 1000:.0f} KB"
        f" ({f['filter_json_gzip_bytes'] / 1000:.0f} KB gzipped).",
        "",
    ]


def _speed_section(speed: dict[str, float], build: SiteBuild) -> list[str]:
    shipped = speed["shipped"]
    meaning = speed_code.DESCRIPTIONS
    lines = [
        f"## Speed code (`--speed-code`): {build.agents} agents x {build.skills} skills",
        "",
        "The whole plugin build with each piece of speed code turned off from the outside"
        " (`benchmarks/speed_code.py`), fastest of the runs; a piece stays only if it saves at least"
        f" {SPEED_CODE_KEEP:g}% of the build.",
        "",
        "| turned off | build | the piece saves | kept |",
        "| --- | --- | --- | --- |",
        f"| nothing (as shipped) | {shipped:.1f} s | | |",
    ]
    for name, seconds in speed.items():
        if name == "shipped":
            continue
        saves = (seconds - shipped) / seconds * 100
        lines.append(
            f"| {meaning[name]} | {seconds:.1f} s | {saves:.1f}% | {'yes' if saves >= SPEED_CODE_KEEP else 'no'} |"
        )
    lines.append("")
    return lines


if __name__ == "__main__":
    sys.exit(main())
