"""The synthetic catalogue built by Zensical from the project ``a2a-docgen init`` writes (run.py --zensical).

    .venv/bin/python benchmarks/zensical_build.py 1000 10       # 1,000 agents x 10 skills, as JSON on stdout
    .venv/bin/python benchmarks/run.py --zensical               # the report's section, with the other measures

Steps, each in a new process and timed: ``a2a-docgen init --engine zensical``, ``a2a-docgen build CARDS -o
docs`` (the pages), ``zensical build`` with an empty cache (cold), then ``zensical build`` again with its cache
(warm, as ``zensical serve`` rebuilds). Reports peak memory of the cold build, the site, and the search
index: its size, entries, and the largest number of words in one field against Zensical's limit (a field
of more token positions than 2^(30 - max(15, ceil(log2 entries))) fails the build), and whether every agent
page and every skill section has its entry.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import write_catalogue

MEASURE = Path(__file__).resolve().parent / "measure_zensical.py"


@dataclass
class ZensicalBuild:
    agents: int
    skills: int
    version: str
    generate_seconds: float
    """``a2a-docgen build``: load, render and write the pages."""
    cold_seconds: float
    """``zensical build`` with no cache."""
    cold_cpu_seconds: float
    """Its CPU time, every thread counted (the wall time of a build on an otherwise idle machine is about
    this divided by the cores it keeps busy)."""
    warm_seconds: float
    """``zensical build`` again, nothing changed, with its cache."""
    peak_mib: float
    """Peak resident memory of the cold build (the Zensical process and any it started)."""
    pages: int
    docs_mib: float
    site_mib: float
    cache_mib: float
    search_kib: float
    search_entries: int
    max_field_words: int
    word_limit: int
    largest_entry: str
    missing_entries: int
    """Agent pages and skill sections without a search entry (0 when search works)."""

    @property
    def search_works(self) -> bool:
        return self.missing_entries == 0 and self.max_field_words <= self.word_limit


def _size(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def _timed(argv: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(
            f"{' '.join(argv)} failed ({done.returncode}):\n{done.stdout}{done.stderr}"[-6000:]
        )
    return seconds


def word_limit(entries: int) -> int:
    """The token positions Zensical's search index allows in one field, for this many entries."""
    return int(2 ** (30 - max(15, math.ceil(math.log2(max(entries, 2))))))


def search_stats(site: Path) -> tuple[float, int, int, str, set[str]]:
    """search.json's size in KiB, its entries, the most words in one field and where, and the locations."""
    index_file = site / "search.json"
    index = json.loads(index_file.read_text(encoding="utf-8"))
    separator = re.compile(index["config"]["separator"])
    most, where = 0, ""
    for item in index["items"]:
        for name in ("title", "text"):
            words = [w for w in separator.split(re.sub(r"<[^>]+>", " ", item.get(name) or "")) if w]
            if len(words) > most:
                most, where = len(words), f"{item['location'] or '(home)'} {name}"
    locations = {item["location"] for item in index["items"]}
    return index_file.stat().st_size / 1024, len(index["items"]), most, where, locations


def zensical_build(work: Path, agents: int, skills: int) -> ZensicalBuild:
    cards = work / f"cards-{agents}x{skills}"
    write_catalogue(cards, agents, skills)
    project = work / f"zensical-{agents}x{skills}"
    python = sys.executable
    _timed(
        [python, "-m", "a2a_docgen", "init", "--engine", "zensical", "--cards", str(cards), str(project)],
        work,
    )
    generate = _timed(
        [python, "-m", "a2a_docgen", "build", str(cards), "-o", "docs", "--dialect", "material"], project
    )
    shutil.rmtree(project / ".cache", ignore_errors=True)
    result = project / "measure.json"
    cold = _timed([python, str(MEASURE), str(result), "build", "-f", "zensical.toml"], project)
    measured = json.loads(result.read_text(encoding="utf-8"))
    peak_kib, cpu = measured["max_rss_kib"], measured["cpu_seconds"]
    warm = _timed([python, "-m", "zensical", "build", "-f", "zensical.toml"], project)
    site = project / "site"
    # the catalogue search's index, the step init prints after the engine's build
    _timed([python, "-m", "a2a_docgen", "search-index", "site"], project)
    keep = os.environ.get("A2A_DOCGEN_KEEP_SITE")
    if keep:  # for benchmarks/search.py --site
        shutil.copytree(site, keep, dirs_exist_ok=True)
    kib, entries, most, where, locations = search_stats(site)

    from a2a_docgen.catalog import load_catalog
    from a2a_docgen.render.exports import agent_paths

    expected = set()
    for paths in agent_paths(load_catalog([cards])):
        expected.add(paths.page_url)
        expected.update(f"{paths.page_url}#{anchor}" for anchor in paths.skill_anchors)
    version = subprocess.run(
        [python, "-m", "zensical", "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()
    return ZensicalBuild(
        agents=agents,
        skills=skills,
        version=version,
        generate_seconds=generate,
        cold_seconds=cold,
        cold_cpu_seconds=cpu,
        warm_seconds=warm,
        peak_mib=peak_kib / 1024,
        pages=sum(1 for _ in site.rglob("*.html")),
        docs_mib=_size(project / "docs") / 2**20,
        site_mib=_size(site) / 2**20,
        cache_mib=_size(project / ".cache") / 2**20,
        search_kib=kib,
        search_entries=entries,
        max_field_words=most,
        word_limit=word_limit(entries),
        largest_entry=where,
        missing_entries=len(expected - locations),
    )


def report(z: ZensicalBuild) -> list[str]:
    """The Markdown section of docs/performance.md."""
    return [
        f"## Zensical (`--zensical`): {z.agents} agents x {z.skills} skills",
        "",
        f"The project `a2a-docgen init --engine zensical` writes, built with Zensical {z.version} and its default"
        " Markdown profile: first `a2a-docgen build CARDS -o docs`, then `zensical build`, each in a new process.",
        "",
        "| measure | result |",
        "| --- | --- |",
        f"| `a2a-docgen build` (the pages) | {z.generate_seconds:.1f} s, {z.docs_mib:.0f} MiB of Markdown and files |",
        f"| `zensical build`, cold (no cache) | {z.cold_seconds:.1f} s ({z.cold_cpu_seconds:.0f} s of CPU time),"
        f" peak memory {z.peak_mib:.0f} MiB |",
        f"| `zensical build` again, with its cache | {z.warm_seconds:.1f} s |",
        f"| site | {z.pages} HTML pages, {z.site_mib:.0f} MiB; cache `.cache/` {z.cache_mib:.0f} MiB |",
        f"| search index (`search.json`) | {z.search_kib:.0f} KiB, {z.search_entries} entries"
        f" ({z.search_kib * 1024 / (z.agents * z.skills):.0f} B per skill) |",
        f"| largest field of the index | {z.max_field_words} words ({z.largest_entry}); Zensical's limit at"
        f" {z.search_entries} entries: {z.word_limit} |",
        f"| agent pages and skill sections without a search entry | {z.missing_entries} |",
        "",
        "List pages of the catalogue (tags, media types, security kinds, bindings, later pages of long lists)"
        " carry `search: exclude: true`, and long lists are split over pages of bounded size, so no field of"
        " the search index grows with the catalogue.",
        "",
    ]


def main(argv: list[str]) -> int:
    agents, skills = int(argv[0]), int(argv[1])
    with tempfile.TemporaryDirectory(prefix="a2a-docgen-zensical-") as tmp:
        result = zensical_build(Path(tmp), agents, skills)
    print(json.dumps(dataclasses.asdict(result), indent=2))
    return 0 if result.search_works else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
