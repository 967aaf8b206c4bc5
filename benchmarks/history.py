"""The change history's cost: a plugin build with the history against the same build without it.

    python benchmarks/history.py [--agents 1000] [--skills 10] [--commits 50] [--repeat 1]

Makes a git repository of the synthetic catalogue (benchmarks/synthetic.py) with ``--commits`` commits: the
first adds every card, each later one changes an equal share of the agents (a skill added, a description
reworded, an input mode dropped, a version bumped, in turn), so every agent changes at least once and the
history has ``agents + changed`` steps to classify. Then, each in a new process and interleaved:

- ``mkdocs build`` with the plugin (Material + search, the repository's mkdocs.yml), ``history: false``;
- the same build with ``history: true`` (the default);
- ``read_history`` alone, in this process, from nothing and again with ``HEAD`` unchanged (what a
  ``mkdocs serve`` rebuild after a card edit pays).

The fastest of ``--repeat`` runs counts. Prints one JSON object; the target (docs/performance.md) is at most
30% added to the plugin build at 1,000 agents and 50 commits.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from builds import _config  # noqa: E402
from synthetic import card, write_catalogue  # noqa: E402

TARGET = 0.30
"""The most the history may add to a plugin build."""


def _git(repo: Path, *argv: str, stamp: int = 0) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Benchmark",
        "GIT_AUTHOR_EMAIL": "bench@example.com",
        "GIT_COMMITTER_NAME": "Benchmark",
        "GIT_COMMITTER_EMAIL": "bench@example.com",
        "GIT_AUTHOR_DATE": f"{1_767_225_600 + stamp * 3600} +0000",
        "GIT_COMMITTER_DATE": f"{1_767_225_600 + stamp * 3600} +0000",
    }
    subprocess.run(["git", *argv], cwd=repo, env=env, check=True, capture_output=True)


def _changed(data: dict[str, Any], agent: int, step: int) -> dict[str, Any]:
    """One change to an agent's card, chosen by ``step``."""
    kind = step % 4
    if kind == 0:
        data["skills"].append(
            {"id": f"extra-{step}", "name": f"Extra {step}", "description": "Added later.", "tags": ["extra"]}
        )
    elif kind == 1:
        data["description"] = data["description"] + f" Reworded in step {step}."
    elif kind == 2:
        data["defaultInputModes"] = data["defaultInputModes"][:1]
    else:
        major, minor, patch = (int(part) for part in data["version"].split("."))
        data["version"] = f"{major}.{minor + 1}.{patch}"
    return data


def make_repository(root: Path, agents: int, skills: int, commits: int) -> Path:
    """The repository at ``root`` (cards in ``root/cards``); returns the cards directory."""
    cards = root / "cards"
    paths = write_catalogue(cards, agents, skills)
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "The catalogue", stamp=0)
    state = {n: card(n, skills) for n in range(agents)}
    later = max(commits - 1, 1)
    share = -(-agents // later)
    for step in range(1, commits):
        for agent in range((step - 1) * share, min(step * share, agents)):
            state[agent] = _changed(state[agent], agent, step)
            paths[agent].write_text(json.dumps(state[agent], indent=2) + "\n", encoding="utf-8")
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "--allow-empty", "-m", f"Step {step}", stamp=step)
    return cards


def _timed_build(config: Path, site: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the build and its render workers): the CPU time holds better than the wall
    time on a machine that is busy with other work."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(site)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, env=env, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _read_in_process(root: Path) -> dict[str, float]:
    from a2a_docgen.history.read import clear_cache, read_history

    clear_cache()
    start, cpu = time.perf_counter(), time.process_time()
    first = read_history(["cards"], base=str(root))
    cold, cold_cpu = time.perf_counter() - start, time.process_time() - cpu
    start = time.perf_counter()
    again = read_history(["cards"], base=str(root))
    warm = time.perf_counter() - start
    assert first.history is not None
    assert again.cached
    return {
        "read_cold": cold,
        "read_cold_cpu": cold_cpu,
        "read_same_head": warm,
        "entries": float(sum(len(h.entries) for h in first.history.agents.values())),
    }


def measure(agents: int, skills: int, commits: int, repeat: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="a2a-docgen-history-") as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        started = time.perf_counter()
        cards = make_repository(root, agents, skills, commits)
        made = time.perf_counter() - started
        empty = root / "empty-docs"
        empty.mkdir()
        configs = {}
        for history in (False, True):
            text = _config(cards, empty, search_index="off")
            text = text.replace(
                "search_index: off", f"search_index: off\n      history: {str(history).lower()}"
            )
            configs[history] = root / f"history-{history}.yml"
            configs[history].write_text(text, encoding="utf-8")
        times: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
        for n in range(repeat):
            for history in (False, True):
                times[history].append(_timed_build(configs[history], Path(tmp) / f"site-{history}-{n}"))
        read = _read_in_process(root)
    without, with_history = min(wall for wall, _ in times[False]), min(wall for wall, _ in times[True])
    cpu_without, cpu_with = min(cpu for _, cpu in times[False]), min(cpu for _, cpu in times[True])
    return {
        "agents": agents,
        "skills": skills,
        "commits": commits,
        "repository_made": made,
        "plugin_build_without": without,
        "plugin_build_with": with_history,
        "added": with_history / without - 1,
        "plugin_cpu_without": cpu_without,
        "plugin_cpu_with": cpu_with,
        "added_cpu": cpu_with / cpu_without - 1,
        "target": TARGET,
        **read,
    }


def target_row(h: dict[str, float]) -> tuple[str, str, str, bool]:
    """The row of docs/performance.md's targets."""
    return (
        f"change history, {h['agents']} agents x {h['commits']} commits (plugin build)",
        f"+{h['added'] * 100:.0f}% ({h['plugin_build_without']:.1f} s without, {h['plugin_build_with']:.1f} s with)"
        f"; CPU +{h['added_cpu'] * 100:.0f}%",
        f"<= +{TARGET * 100:.0f}%",
        h["added"] <= TARGET,
    )


def report(h: dict[str, float]) -> list[str]:
    """The section of docs/performance.md."""
    steps = h["entries"]
    return [
        f"## Change history: {h['agents']} agents x {h['skills']} skills, {h['commits']} commits",
        "",
        f"`python benchmarks/history.py --agents {h['agents']} --commits {h['commits']}`: a git repository of the",
        "synthetic catalogue, the first commit adding every card and each later one changing an equal share of the",
        f"agents ({steps:.0f} entries in all), built by the plugin with `history: false` and with `history: true`.",
        "",
        "| measure | seconds |",
        "| --- | --- |",
        f"| plugin build, `history: false` | {h['plugin_build_without']:.1f} |",
        f"| plugin build, `history: true` | {h['plugin_build_with']:.1f} (+{h['added'] * 100:.0f}%) |",
        f"| the same builds, CPU seconds (the build and its render workers) | {h['plugin_cpu_without']:.1f} "
        f"without, {h['plugin_cpu_with']:.1f} with (+{h['added_cpu'] * 100:.0f}%) |",
        f"| `read_history` alone, from nothing | {h['read_cold']:.1f} ({h['read_cold_cpu']:.1f} CPU) |",
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
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.agents, args.skills, args.commits, args.repeat), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
