"""Check and build time against the size of one card, for ordinary and adversarial text: is every rule and
every page linear in the card's size, whatever the text's shape?

    .venv/bin/python benchmarks/card_size.py          # or: benchmarks/run.py --card-sizes
    .venv/bin/python benchmarks/card_size.py --shapes skills,similar --sizes 64,128

One card of 64, 128, 256, 512 and 1000 KiB (1 MiB is the default ``max_file_bytes``) in each shape, checked
(``a2a-docgen check --min-grade F``: every rule, the grade's included) and built (``a2a-docgen build -j 1``),
each in a fresh interpreter that reports its own time and peak RSS, the fastest of ``--repeat`` runs (3):

- ``skills``: ordinary text, the synthetic catalogue's skills (descriptions, tags, JSON examples, mode
  overrides), as many as the size needs (at most ``max_skills``); the baseline;
- ``tags``: skills whose tags are all distinct short words, the most tag pages a byte of card text could
  buy (a card's first 200 own tags get one, the rest are entries of the Tags index: ``slugs.paged_tags``);
- ``similar``: descriptions of random words of one to three letters over a two-letter alphabet: every pair
  has nearly the same length and shares nearly all its pairs of words, but no long run (the near-duplicate
  rule's worst case, ``difflib``'s too);
- ``undeclared``: thousands of declared schemes and as many requirements naming a near miss of each
  (the "did you mean" worst case);
- ``parens``: descriptions that are one parenthesis-heavy URL ending in punctuation (the URL splitter's);
- ``repeated``: descriptions of one word repeated.

Targets (docs/performance.md): for every shape, ``check`` and ``build`` of the 1 MiB card at most 10x the
per-KiB cost of ordinary text (``skills``), and doubling the size at most 2.3x the time. Prints one row per
card and command, then each target per shape.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import card

REPO = Path(__file__).resolve().parents[1]
SIZES = (64 << 10, 128 << 10, 256 << 10, 512 << 10, 1000 << 10)
SHAPES = ("skills", "tags", "similar", "undeclared", "parens", "repeated")
MAX_RATIO_TO_ORDINARY = 10.0
MAX_DOUBLING = 2.3
_TEXT_CHARS = 19_000  # under max_text_chars (20,000)
_CHILD = f"""
import sys, time
sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
from peak import peak_kib
from a2a_docgen.cli import main
start = time.perf_counter()
code = main(sys.argv[1:])
print(time.perf_counter() - start, peak_kib() / 1024, code)
"""


def shaped(shape: str, size: int) -> dict[str, Any]:
    """A card of ``shape`` whose pretty JSON is close to ``size`` bytes (and below 1 MiB)."""
    return dict(_SHAPES[shape](size))


def _ordinary(size: int) -> dict[str, Any]:
    per_skill = len(json.dumps(card(0, 20), indent=1)) // 20
    count = max(1, min(500, size // per_skill))
    value = card(0, count)
    base = len(json.dumps(value, indent=1))
    extra = max(0, (size - base) // count - 8)  # longer descriptions fill the rest, words as before
    for skill in value["skills"]:
        words = skill["description"].split()
        text = skill["description"]
        while len(text) < len(skill["description"]) + extra:
            text += " " + " ".join(words)
        skill["description"] = text[: len(skill["description"]) + extra].rstrip()
    return value


def _tags(size: int) -> dict[str, Any]:
    value = card(0, 1)
    template = value["skills"][0]
    per_skill = 100  # max_tags
    skills: list[dict[str, Any]] = []
    while len(skills) < 500:
        index = len(skills)
        skill = dict(template, id=f"tagged-{index}", tags=[f"t{index}x{j}" for j in range(per_skill)])
        skills.append(skill)
        candidate = dict(value, skills=skills)
        if len(json.dumps(candidate, indent=1)) > size or _values(candidate) > 49_000:  # max_nodes is 50,000
            skills.pop()
            break
    return dict(value, skills=skills)


def _with_descriptions(size: int, description: Any) -> dict[str, Any]:
    """Skills of the synthetic card whose descriptions ``description(index)`` fill ``size`` bytes."""
    value = card(0, 1)
    template = value["skills"][0]
    skills: list[dict[str, Any]] = []
    used = len(json.dumps(value, indent=1))
    while len(skills) < 500:
        text = description(len(skills))
        skill = dict(template, id=f"skill-{len(skills)}", name=f"Skill {len(skills)}", description=text)
        cost = len(json.dumps(skill, indent=1)) + 8
        if used + cost > size:
            room = size - used - (cost - len(text))
            if room > 100:
                skills.append(dict(skill, description=text[:room].rstrip(" .(") + "."))
            break
        skills.append(skill)
        used += cost
    return dict(value, skills=skills)


def _similar(size: int) -> dict[str, Any]:
    rng = random.Random(2)

    def description(_: int) -> str:
        words: list[str] = []
        length = 0
        while length < _TEXT_CHARS:
            words.append("".join(rng.choice("ab") for _ in range(rng.randint(1, 3))))
            length += len(words[-1]) + 1
        return " ".join(words)

    return _with_descriptions(size, description)


def _parens(size: int) -> dict[str, Any]:
    third = (_TEXT_CHARS - 40) // 4
    url = "https://p.example/" + "(" * third + ")" * (2 * third) + ".)" * (third // 2)
    return _with_descriptions(size, lambda i: f"See {url}")


def _repeated(size: int) -> dict[str, Any]:
    return _with_descriptions(size, lambda i: " ".join(["repeat"] * (_TEXT_CHARS // 7)))


def _undeclared(size: int) -> dict[str, Any]:
    value = card(0, 1)
    rng = random.Random(3)
    schemes: dict[str, Any] = {}
    requirements: list[dict[str, Any]] = []
    used = len(json.dumps(value, indent=1))
    while used < size - 300 and 7 * len(schemes) < 48_000:  # max_nodes is 50,000
        name = "".join(rng.choice("ab") for _ in range(40))
        schemes[name] = {"httpAuthSecurityScheme": {"scheme": "Bearer"}}
        requirements.append({"schemes": {name[:-1] + "c": {"list": []}}})
        used += 2 * len(name) + 160
    return dict(value, securitySchemes=schemes, securityRequirements=requirements)


_SHAPES = {
    "skills": _ordinary,
    "tags": _tags,
    "similar": _similar,
    "undeclared": _undeclared,
    "parens": _parens,
    "repeated": _repeated,
}


def _values(value: object) -> int:
    """JSON values in ``value``, as ``max_nodes`` counts them."""
    if isinstance(value, dict):
        return 1 + sum(_values(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(_values(v) for v in value)
    return 1


def fastest(
    command: str, card_value: dict[str, Any], work: Path, repeat: int
) -> tuple[int, float, float, int]:
    """``run`` ``repeat`` times (each in a fresh directory and interpreter), the fastest: other work on the machine
    only ever slows a run, so the fastest is the truest."""
    runs = [run(command, card_value, work / str(attempt)) for attempt in range(repeat)]
    return min(runs, key=lambda measured: measured[1])


def run(command: str, card_value: dict[str, Any], work: Path) -> tuple[int, float, float, int]:
    """(bytes, seconds, peak MiB, pages) of one ``a2a-docgen check`` or ``build`` of the card alone."""
    cards = work / "cards"
    cards.mkdir(parents=True)
    path = cards / "card.json"
    path.write_text(json.dumps(card_value, indent=1), encoding="utf-8")
    out = work / "out"
    argv = ["check", str(cards), "--min-grade", "F"] if command == "check" else ["build", str(cards)]
    argv += ["-o", str(out), "-j", "1"] if command == "build" else []
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, *argv],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    last = done.stdout.splitlines()[-1] if done.stdout else ""
    try:
        seconds, peak, _code = last.split()
        measured = float(seconds), float(peak)
    except ValueError:
        raise SystemExit(
            f"{command} of the {path.stat().st_size}-byte card failed: {done.stderr[-2000:]}"
        ) from None
    pages = sum(1 for _ in out.rglob("*.md")) if out.exists() else 0
    return path.stat().st_size, measured[0], measured[1], pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="check and build time against the size of one card")
    parser.add_argument("--shapes", default=",".join(SHAPES), help="comma-separated shapes (default: all)")
    parser.add_argument("--sizes", default=",".join(str(s >> 10) for s in SIZES), help="KiB, comma-separated")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, the fastest counts (default 3)")
    args = parser.parse_args(argv)
    shapes = [s for s in args.shapes.split(",") if s]
    sizes = [int(s) << 10 for s in args.sizes.split(",") if s]
    print("| shape | command | card | time | peak memory | pages |")
    print("| --- | --- | --- | --- | --- | --- |")
    times: dict[tuple[str, str], list[tuple[int, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="a2a-docgen-card-size-") as tmp:
        for shape in shapes:
            for size in sizes:
                value = shaped(shape, size)
                for command in ("check", "build"):
                    nbytes, seconds, peak, pages = fastest(
                        command, value, Path(tmp) / f"{shape}-{size}-{command}", max(1, args.repeat)
                    )
                    times.setdefault((shape, command), []).append((nbytes, seconds))
                    print(
                        f"| {shape} | {command} | {nbytes / 1024:.0f} KiB | {seconds:.2f} s | {peak:.0f} MiB "
                        f"| {pages} |",
                        flush=True,
                    )
    print()
    print("| shape | command | ms per KiB at the largest size | x ordinary | largest doubling | met |")
    print("| --- | --- | --- | --- | --- | --- |")
    for (shape, command), rows in times.items():
        per_kib = rows[-1][1] / (rows[-1][0] / 1024) * 1000
        ordinary = times.get(("skills", command))
        base = ordinary[-1][1] / (ordinary[-1][0] / 1024) * 1000 if ordinary else per_kib
        ratio = per_kib / base
        doubling = max(
            ((t2 / t1) / (b2 / b1) * 2 for (b1, t1), (b2, t2) in itertools.pairwise(rows)), default=0.0
        )
        met = ratio <= MAX_RATIO_TO_ORDINARY and doubling <= MAX_DOUBLING
        print(
            f"| {shape} | {command} | {per_kib:.2f} | {ratio:.1f} | {doubling:.2f} | {'yes' if met else '**no**'} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
