"""The wheel carries everything a user's install needs: the package, its templates, its entry points."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(REPO)],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        pytest.fail(f"building the wheel failed:\n{result.stdout}\n{result.stderr}")
    (path,) = out.glob("a2a_docgen-*.whl")
    return zipfile.ZipFile(path)


@pytest.mark.slow
def test_wheel_ships_every_template(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    templates = sorted(p.name for p in (REPO / "templates").glob("*.jinja"))
    assert templates, "no templates in the repository"
    for template in templates:
        assert f"a2a_docgen/templates/{template}" in names


@pytest.mark.slow
def test_wheel_ships_the_example_catalogue(wheel: zipfile.ZipFile) -> None:
    """Commands run on the embedded example when given no cards, also from an installed wheel."""
    names = set(wheel.namelist())
    cards = sorted(p.name for p in (REPO / "examples" / "cards").glob("*.json"))
    assert cards
    for card in cards:
        assert f"a2a_docgen/examples/cards/{card}" in names


@pytest.mark.slow
def test_wheel_ships_every_module_and_entry_points(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    for module in sorted((REPO / "a2a_docgen").rglob("*.py")):
        assert module.relative_to(REPO).as_posix() in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = wheel.read(entry_points).decode()
    assert "a2a-docgen = a2a_docgen.cli:main" in text
    assert "a2a-docgen = a2a_docgen.site.plugin:A2ADocgenPlugin" in text
    assert "tests/" not in " ".join(names)


def test_the_version_is_the_one_pyproject_declares() -> None:
    from a2a_docgen.version import __version__

    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    declared = re.search(r'^version = "([^"]+)"$', pyproject, re.MULTILINE)
    assert declared is not None
    assert __version__ == declared.group(1)
