"""``a2a-docgen init``'s printed commands, run verbatim in a fresh virtual environment, one per engine (slow).

A user's first steps: ``pip install a2a-docgen`` into a new virtual environment, ``a2a-docgen init``, then
what it prints. a2a-docgen is not on the package index yet, so two things differ from a user's: the first
install is a wheel built from this checkout, and in the ``pip install`` line ``init`` prints, the one word
``a2a-docgen[EXTRA]`` is replaced by that wheel with the same extra. Everything else (MkDocs, Material,
ProperDocs, Zensical, Pagefind's binary) comes from the package index as it does for a user, at the releases
pip picks today, and every other printed command runs verbatim, from the directory ``init`` ran in; the last
one, the server, is checked to be there, not started.

The project sits in a new git repository, committed before the build (the plugin reads the history): after
the build, ``git status`` shows nothing but what ``init``'s ``.gitignore`` leaves to commit (Zensical's
``docs/``).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from a2a_docgen.site.scaffold import ENGINES
from tests.conftest import REPO

pytestmark = pytest.mark.slow

INSTALL_TIMEOUT = 900
"""Seconds for one ``pip install`` (from pip's cache, well under a minute)."""


def _run(command: str, cwd: Path, env: dict[str, str], timeout: float = INSTALL_TIMEOUT) -> str:
    done = subprocess.run(
        ["bash", "-e", "-c", command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, f"{command}\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This checkout as the wheel a user would install."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--wheel-dir", str(out), str(REPO)],
        check=True,
        capture_output=True,
        timeout=INSTALL_TIMEOUT,
    )
    (built,) = out.glob("a2a_docgen-*.whl")
    return built


def _fresh_environment(venv: Path) -> dict[str, str]:
    """The environment of a shell with ``venv`` activated: nothing of this interpreter's packages."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"}}
    env["VIRTUAL_ENV"] = str(venv)
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    for role in ("AUTHOR", "COMMITTER"):
        env[f"GIT_{role}_NAME"] = "Catalogue Keeper"
        env[f"GIT_{role}_EMAIL"] = "keeper@example.org"
    return env


def _printed_commands(out: str) -> list[str]:
    """The commands ``init`` printed: its lines indented by two spaces, in order."""
    return [line[2:] for line in out.splitlines() if line.startswith("  ")]


def _from_the_checkout(install: str, wheel: Path) -> str:
    """The printed ``pip install`` line with ``a2a-docgen[EXTRA]`` replaced by this checkout's wheel."""
    words = shlex.split(install)
    assert words[:2] == ["pip", "install"], install
    ours = [i for i, word in enumerate(words) if word.startswith("a2a-docgen[")]
    assert len(ours) == 1, install
    words[ours[0]] = words[ours[0]].replace("a2a-docgen", str(wheel), 1)
    return shlex.join(words)


@pytest.mark.parametrize(
    ("engine", "missing"),
    [
        (None, "Material for MkDocs, Pagefind"),  # MkDocs comes with a2a-docgen: only the theme is missing
        ("properdocs", "ProperDocs, Material for MkDocs, Pagefind"),
        ("zensical", "Zensical, Pagefind"),
    ],
    ids=["default", "properdocs", "zensical"],
)
def test_the_printed_commands_build_the_site_in_a_fresh_environment(
    engine: str | None, missing: str, wheel: Path, tmp_path: Path
) -> None:
    env = _fresh_environment(tmp_path / "venv")
    _run(f"pip install -q {shlex.quote(str(wheel))}", tmp_path, env)
    work = tmp_path / "work"
    work.mkdir()
    _run("git init -q", work, env)
    option = f"--engine {engine} " if engine else ""
    out = _run(f"a2a-docgen init {option}catalogue", work, env, timeout=60)
    _run("git add -A && git commit -q -m 'A catalogue'", work, env)
    spec = ENGINES[engine or "mkdocs"]
    assert f"({spec.title})" in out
    assert f"Not installed in this environment: {missing}. Install what the commands need:" in out

    install, *steps, serve = _printed_commands(out)
    assert install.startswith("pip install "), out
    _run(_from_the_checkout(install, wheel), work, env)
    for step in steps:
        _run(step, work, env, timeout=600)
    program = shlex.split(serve)[0]
    assert program in {spec.command, "python3"}, serve
    assert shutil.which(program, path=env["PATH"]), serve

    site = work / "catalogue" / "site"
    assert (site / "index.html").is_file()
    assert len(list(site.glob("agents/*/index.html"))) == len(
        list((work / "catalogue" / "cards").glob("*.json"))
    )
    assert (site / "pagefind" / "pagefind.js").is_file()  # the catalogue search's index
    if spec.plugin:  # the history from the commit: What's new, and its feed linked from every page's head
        assert (site / "whats-new" / "index.html").is_file()
        assert 'type="application/atom+xml"' in (site / "index.html").read_text(encoding="utf-8")
    status = _run("git status --porcelain --untracked-files=normal", work, env, timeout=60).splitlines()
    assert status == ([] if spec.plugin else ["?? catalogue/docs/"])
