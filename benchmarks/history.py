"""The change history's cost: a plugin build with the history against the same build without it.

    python benchmarks/history.py [--agents 1000] [--skills 10] [--commits 50] [--repeat 1]

Makes a git repository of the synthetic catalogue (benchmarks/synthetic.py) with ``git fast-import``, in
``--commits`` commits: the first adds every card, each later one changes every card (a skill added, a
description reworded, the input modes narrowed or widened again, a version bumped: each agent a different edit
in a commit), so each card file is changed by ``--commits`` commits and the history has ``agents x commits``
versions to read and classify. Then, each in a new process and interleaved, round by round:

- ``mkdocs build`` with the plugin (Material + search, the repository's mkdocs.yml), ``history: false``;
- the same build with ``history: true`` (the default) and no history cache: the first build of a fresh clone;
- the same again, with the cache that build wrote (``history.store``): every later build of the clone;
- the same with the cache a build of the commit before ``HEAD`` wrote: CI restoring the last build's cache
  (actions/cache) after a push, where the history of the new commit is read and the rest taken from the store;
- ``read_history`` alone, in this process: from nothing, again with ``HEAD`` unchanged (what a ``mkdocs serve``
  rebuild after a card edit pays), and from the cache file in a fresh state (a new process).

The fastest of ``--repeat`` runs counts. Prints one JSON object (``--markdown``: docs/performance.md's section and
row too); the target (docs/performance.md) is at most 30% added to the plugin build at 1,000 agents and 50
commits. ``--agents 200`` is the quick point to iterate with.
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
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from builds import _config  # noqa: E402
from synthetic import card  # noqa: E402

from a2a_docgen.history.cache_files import CACHE_ENV  # noqa: E402

TARGET = 0.30
"""The most the history may add to a plugin build."""


_EPOCH = 1_767_225_600
"""2026-01-01T00:00:00Z: the first commit's date; each later one is an hour on."""


def _changed(data: dict[str, Any], agent: int, step: int) -> dict[str, Any]:
    """One change to an agent's card, chosen by ``agent`` and ``step`` (a commit edits agents in different
    ways), always a change the differ reports: a skill added, a description reworded, the input modes narrowed
    or widened again, a version bump."""
    kind = (agent + step) % 4
    if kind == 0:
        data["skills"].append(
            {"id": f"extra-{step}", "name": f"Extra {step}", "description": "Added later.", "tags": ["extra"]}
        )
    elif kind == 1:
        data["description"] = data["description"].split(" Reworded")[0] + f" Reworded in step {step}."
    elif kind == 2:
        modes = data["defaultInputModes"]
        data["defaultInputModes"] = modes[:1] if len(modes) > 1 else [*modes, "application/json"]
    else:
        major, minor, patch = (int(part) for part in data["version"].split("."))
        data["version"] = f"{major}.{minor + 1}.{patch}"
    return data


def _fast_import_stream(agents: int, skills: int, commits: int, every: bool) -> Iterator[bytes]:
    """The repository as a ``git fast-import`` stream: commit 0 adds every card; each later commit changes
    every agent (``every``) or an equal share of them."""
    state = {n: card(n, skills) for n in range(agents)}
    later = max(commits - 1, 1)
    share = agents if every else -(-agents // later)
    for step in range(commits):
        if step == 0 or every:
            changed = range(agents)
        else:
            changed = range((step - 1) * share, min(step * share, agents))
        message = b"The catalogue" if step == 0 else f"Step {step}".encode()
        stamp = _EPOCH + step * 3600
        parts = [
            b"commit refs/heads/main\n",
            f"committer Benchmark <bench@example.com> {stamp} +0000\n".encode(),
            b"data %d\n%s\n" % (len(message), message),
        ]
        for agent in changed:
            if step:
                state[agent] = _changed(state[agent], agent, step)
            blob = (json.dumps(state[agent], indent=2) + "\n").encode()
            parts.append(b"M 100644 inline cards/agent-%04d.json\ndata %d\n%s\n" % (agent, len(blob), blob))
        yield b"".join(parts)


def make_repository(root: Path, agents: int, skills: int, commits: int, *, every: bool = True) -> Path:
    """The repository at ``root`` (cards in ``root/cards``, checked out); returns the cards directory.
    ``every``: each of the ``commits`` after the first changes every card (``agents x commits`` versions),
    else an equal share of them (``agents + commits - 1``-ish)."""
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True, capture_output=True)
    importer = subprocess.Popen(
        ["git", "fast-import", "--quiet", "--depth=50"], cwd=root, stdin=subprocess.PIPE
    )
    assert importer.stdin is not None
    for chunk in _fast_import_stream(agents, skills, commits, every):
        importer.stdin.write(chunk)
    importer.stdin.close()
    if importer.wait() != 0:
        raise RuntimeError("git fast-import failed")
    subprocess.run(["git", "checkout", "-q", "-f", "main"], cwd=root, check=True, capture_output=True)
    return root / "cards"


def _timed_build(config: Path, site: Path, cache: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the build and its render workers): the CPU time holds better than the wall
    time on a machine that is busy with other work. ``cache``: the history's cache directory."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", CACHE_ENV: str(cache)}
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(site)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, env=env, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _read_in_process(root: Path, cache: Path) -> dict[str, float]:
    from a2a_docgen.history.cache import HistoryCache
    from a2a_docgen.history.read import read_history

    os.environ[CACHE_ENV] = str(cache)
    shutil.rmtree(cache, ignore_errors=True)
    kept = HistoryCache()  # what mkdocs serve keeps
    start, cpu = time.perf_counter(), time.process_time()
    first = read_history(["cards"], base=str(root), cache=kept)
    cold, cold_cpu = time.perf_counter() - start, time.process_time() - cpu
    start = time.perf_counter()
    again = read_history(["cards"], base=str(root), cache=kept)
    same_head = time.perf_counter() - start
    # A new process with the cache file: nothing kept in memory.
    start, cpu = time.perf_counter(), time.process_time()
    warm = read_history(["cards"], base=str(root))
    warm_wall, warm_cpu = time.perf_counter() - start, time.process_time() - cpu
    assert first.history is not None
    assert again.cached
    assert warm.history == first.history
    return {
        "read_cold": cold,
        "read_cold_cpu": cold_cpu,
        "read_warm": warm_wall,
        "read_warm_cpu": warm_cpu,
        "read_same_head": same_head,
        "entries": float(sum(len(h.entries) for h in first.history.agents.values())),
        "versions": float(_versions(root)),
    }


def _versions(root: Path) -> int:
    """The card versions in the repository (blobs of card files in all commits)."""
    out = subprocess.run(
        ["git", "log", "--raw", "--no-abbrev", "--format=", "--", "cards"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return len({line.split()[3] for line in out.splitlines() if line.startswith(":")})


RUNS = ("without", "cold", "warm", "next")
"""The builds of a round: ``history: false``; the history with no cache (a fresh clone); the history with the
cache the cold build wrote (a local rebuild, ``mkdocs serve`` started again); the history with the cache of a
build of the commit before (CI with a cache, after a push)."""


def _previous_cache(root: Path, config: Path, site: Path, cache: Path) -> None:
    """The cache a build of the commit before ``HEAD`` leaves at ``cache``."""
    subprocess.run(["git", "checkout", "-q", "main~1"], cwd=root, check=True, capture_output=True)
    try:
        _timed_build(config, site, cache)
    finally:
        subprocess.run(["git", "checkout", "-q", "main"], cwd=root, check=True, capture_output=True)
        shutil.rmtree(site, ignore_errors=True)


def measure(agents: int, skills: int, commits: int, repeat: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="a2a-docgen-history-") as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        started = time.perf_counter()
        cards = make_repository(root, agents, skills, commits)
        made = time.perf_counter() - started
        empty = root / "empty-docs"
        empty.mkdir()
        cache = Path(tmp) / "history-cache"
        configs = {}
        for history in (False, True):
            text = _config(cards, empty, search_index="off")
            text = text.replace(
                "search_index: off", f"search_index: off\n      history: {str(history).lower()}"
            )
            configs[history] = root / f"history-{history}.yml"
            configs[history].write_text(text, encoding="utf-8")
        previous = Path(tmp) / "previous-cache"
        _previous_cache(root, configs[True], Path(tmp) / "site-previous", previous)
        times: dict[str, list[tuple[float, float]]] = {run: [] for run in RUNS}
        for n in range(repeat):
            for run in RUNS:
                if run == "cold":
                    shutil.rmtree(cache, ignore_errors=True)
                if run == "next":
                    shutil.rmtree(cache, ignore_errors=True)
                    shutil.copytree(previous, cache)
                site = Path(tmp) / f"site-{run}-{n}"
                times[run].append(_timed_build(configs[run != "without"], site, cache))
                shutil.rmtree(site, ignore_errors=True)
        read = _read_in_process(root, cache)
    wall = {run: min(w for w, _ in times[run]) for run in RUNS}
    cpu = {run: min(c for _, c in times[run]) for run in RUNS}
    return {
        "agents": agents,
        "skills": skills,
        "commits": commits,
        "repository_made": made,
        "plugin_build_without": wall["without"],
        "plugin_build_cold": wall["cold"],
        "plugin_build_warm": wall["warm"],
        "plugin_build_next": wall["next"],
        "added_cold": wall["cold"] / wall["without"] - 1,
        "added_warm": wall["warm"] / wall["without"] - 1,
        "added_next": wall["next"] / wall["without"] - 1,
        "plugin_cpu_without": cpu["without"],
        "plugin_cpu_cold": cpu["cold"],
        "plugin_cpu_warm": cpu["warm"],
        "plugin_cpu_next": cpu["next"],
        "added_cpu_cold": cpu["cold"] / cpu["without"] - 1,
        "added_cpu_warm": cpu["warm"] / cpu["without"] - 1,
        "added_cpu_next": cpu["next"] / cpu["without"] - 1,
        "target": TARGET,
        **read,
    }


def target_row(h: dict[str, float]) -> tuple[str, str, str, bool]:
    """The row of docs/performance.md's targets: the builds with a cache (every build after the first of a
    clone, and CI's after a push, with the last build's cache), in wall and CPU time; the first build of a fresh
    clone is in the row and the section (``report``)."""
    added = [h[f"added{cpu}_{run}"] for run in ("warm", "next") for cpu in ("", "_cpu")]
    return (
        f"change history, {h['agents']} agents x {h['commits']} commits (plugin build, with the history cache)",
        f"+{h['added_warm'] * 100:.0f}% ({h['plugin_build_without']:.1f} s without, "
        f"{h['plugin_build_warm']:.1f} s with), CPU +{h['added_cpu_warm'] * 100:.0f}%; after a new commit "
        f"+{h['added_next'] * 100:.0f}%, CPU +{h['added_cpu_next'] * 100:.0f}%; first build of a fresh "
        f"clone +{h['added_cold'] * 100:.0f}% (CPU +{h['added_cpu_cold'] * 100:.0f}%)",
        f"<= +{TARGET * 100:.0f}%",
        max(added) <= TARGET,
    )


def report(h: dict[str, float]) -> list[str]:
    """The section of docs/performance.md."""
    return [
        f"## Change history: {h['agents']} agents x {h['skills']} skills, {h['commits']} commits",
        "",
        f"`python benchmarks/history.py --agents {h['agents']} --commits {h['commits']}`: a git repository of the",
        "synthetic catalogue made with `git fast-import`, the first commit adding every card and each later one",
        f"changing every card ({h['versions']:.0f} card versions, {h['entries']:.0f} entries), built by the "
        "plugin with `history: false`, with `history: true` and no cache (the first build of a fresh clone), and",
        "with `history: true` again (the cache that build wrote), and with the cache a build of the commit",
        "before wrote (CI restoring its cache after a push). Each build is a new process.",
        "",
        "| measure | seconds |",
        "| --- | --- |",
        f"| plugin build, `history: false` | {h['plugin_build_without']:.1f} ({h['plugin_cpu_without']:.1f} CPU) |",
        f"| plugin build, `history: true`, no cache (fresh clone) | {h['plugin_build_cold']:.1f} "
        f"(+{h['added_cold'] * 100:.0f}%; {h['plugin_cpu_cold']:.1f} CPU, +{h['added_cpu_cold'] * 100:.0f}%) |",
        f"| plugin build, `history: true`, cache warm | {h['plugin_build_warm']:.1f} "
        f"(+{h['added_warm'] * 100:.0f}%; {h['plugin_cpu_warm']:.1f} CPU, +{h['added_cpu_warm'] * 100:.0f}%) |",
        f"| plugin build, `history: true`, the cache of the commit before (CI with a cache, after a push) | "
        f"{h['plugin_build_next']:.1f} (+{h['added_next'] * 100:.0f}%; {h['plugin_cpu_next']:.1f} CPU, "
        f"+{h['added_cpu_next'] * 100:.0f}%) |",
        f"| `read_history` alone, no cache | {h['read_cold']:.1f} ({h['read_cold_cpu']:.1f} CPU) |",
        f"| `read_history` alone, cache warm (a new process) | {h['read_warm']:.2f} ({h['read_warm_cpu']:.2f} CPU) |",
        f"| `read_history` again, `HEAD` unchanged (a `mkdocs serve` rebuild after a card edit) | "
        f"{h['read_same_head']:.3f} |",
        "",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--agents", type=int, default=1000)
    parser.add_argument("--skills", type=int, default=10)
    parser.add_argument("--commits", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument(
        "--markdown", action="store_true", help="print the section of docs/performance.md too"
    )
    args = parser.parse_args(argv)
    measured = measure(args.agents, args.skills, args.commits, args.repeat)
    print(json.dumps(measured, indent=2))
    if args.markdown:
        print("\n".join(report(measured)))
        print("| " + " | ".join(str(cell) for cell in target_row(measured)) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
