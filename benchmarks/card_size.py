"""Build time and peak memory against the size of one card: is the cost per byte of card text linear and small?

    .venv/bin/python benchmarks/card_size.py          # or: benchmarks/run.py --card-sizes

One card of about 64 KiB, 256 KiB and 1 MiB (the default ``max_file_bytes``) in each of two shapes, each
built by ``a2a-docgen build -j 1`` in a fresh interpreter that reports its own peak RSS:

- ``skills``: the synthetic catalogue's skills (descriptions, tags, JSON examples, mode overrides), as many
  as the size needs (at most ``max_skills``);
- ``tags``: skills whose tags are all distinct short words: every tag gets a page of its own, the most
  pages a byte of card text can buy.

Prints one row per card, and for each shape the growth from 256 KiB to 1 MiB (4.0 is linear) and the cost
per KiB at 1 MiB.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import card

REPO = Path(__file__).resolve().parents[1]
SIZES = (64 << 10, 256 << 10, 1000 << 10)
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
    """A valid card of ``shape`` whose pretty JSON is close to ``size`` bytes (and below 1 MiB)."""
    if shape == "skills":
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
        return dict(value)
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


def _values(value: object) -> int:
    """JSON values in ``value``, as ``max_nodes`` counts them."""
    if isinstance(value, dict):
        return 1 + sum(_values(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(_values(v) for v in value)
    return 1


def build(card_value: dict[str, Any], work: Path) -> tuple[int, float, float, int]:
    """(bytes, seconds, peak MiB, pages) of one ``a2a-docgen build`` of the card alone."""
    cards = work / "cards"
    cards.mkdir(parents=True)
    path = cards / "card.json"
    path.write_text(json.dumps(card_value, indent=1), encoding="utf-8")
    out = work / "out"
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, "build", str(cards), "-o", str(out), "-j", "1"],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    *diagnostics, last = done.stdout.splitlines()
    if diagnostics:
        raise SystemExit(f"the {path.stat().st_size}-byte card is not clean: {diagnostics[:3]}")
    seconds, peak, _code = last.split()
    pages = sum(1 for _ in out.rglob("*.md"))
    return path.stat().st_size, float(seconds), float(peak), pages


def main() -> int:
    print("| shape | card | build time | peak memory | pages |")
    print("| --- | --- | --- | --- | --- |")
    summary = []
    with tempfile.TemporaryDirectory(prefix="a2a-docgen-card-size-") as tmp:
        for shape in ("skills", "tags"):
            rows = []
            for size in SIZES:
                measured = build(shaped(shape, size), Path(tmp) / f"{shape}-{size}")
                rows.append(measured)
                nbytes, seconds, peak, pages = measured
                print(f"| {shape} | {nbytes / 1024:.0f} KiB | {seconds:.2f} s | {peak:.0f} MiB | {pages} |")
            (b1, t1, _, _), (b2, t2, _, _) = rows[1], rows[2]
            summary.append(
                f"{shape}: t(1 MiB)/t(256 KiB) = {t2 / t1:.1f} for {b2 / b1:.1f}x the bytes; "
                f"{t2 / (b2 / 1024) * 1000:.1f} ms per KiB"
            )
    print()
    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
