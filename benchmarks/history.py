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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from builds import _config  # noqa: E402
from synthetic import card  # noqa: E402

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
