"""The benchmark's synthetic catalogue: deterministic, and valid, so the benchmark times the work of valid cards."""

from __future__ import annotations

import sys
from pathlib import Path

from a2a_docgen.catalog import load_catalog

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from synthetic import write_catalogue


def test_the_same_size_gives_the_same_bytes(tmp_path: Path) -> None:
    first = write_catalogue(tmp_path / "a", 6, 4)
    second = write_catalogue(tmp_path / "b", 6, 4)
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]


def test_every_card_loads_without_a_diagnostic_in_both_eras(tmp_path: Path) -> None:
    write_catalogue(tmp_path, 6, 10)
    catalog = load_catalog([tmp_path])
    assert [(d.file, d.code, d.pointer) for d in catalog.diagnostics] == []
    assert len(catalog.cards) == 6
    assert sorted({card.era for card in catalog.cards}) == ["0.3", "1.0"]
    skills = [skill for card in catalog.cards for skill in card.skills]
    assert len(skills) == 60
    assert any(skill.effective_input_modes.origin == "skill" for skill in skills)
    assert any(skill.effective_output_modes.origin == "skill" for skill in skills)
    assert any(skill.effective_security.origin == "skill" for skill in skills)
    assert any(example.is_json for skill in skills for example in skill.examples)


def test_the_history_benchmark_changes_every_agent_and_each_change_is_classified(tmp_path: Path) -> None:
    from history import make_repository

    from a2a_docgen.history.read import read_history

    make_repository(tmp_path, 8, 2, 5)
    read = read_history(["cards"], base=str(tmp_path))
    assert read.history is not None
    assert len(read.history.agents) == 8
    for agent in read.history.agents.values():  # added, then changed by every commit: all classified work
        assert [e.kind for e in agent.entries] == ["changed"] * 4 + ["added"]
        assert all(entry.findings for entry in agent.entries[:4])
