"""The GitHub Pages workflows ``a2a-docgen init --github-pages`` writes (and docs/publishing.md shows), one
per engine, run as a script: every ``run:`` step of the build job, in order, in the project ``init`` made.

The install step is the one thing not run (the tests have no network): each requirement it names must be
satisfied by what is installed here instead, so the workflow installs what the tests ran with. The other
steps run as written, with ``bash -e`` in the project directory, and must leave the site the upload step
publishes: every page, and the catalogue search's index, with a card that has errors among the examples
(the workflow publishes a catalogue valid or not, unless its ``FAIL_ON_CARD_ERRORS`` says otherwise).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

from a2a_docgen.cli import main
from a2a_docgen.site.scaffold import (
    A2A_DOCGEN_SOURCE,
    ENGINES,
    FAIL_ON_CARD_ERRORS,
    WORKFLOW,
    pages_workflow,
)
from tests.conftest import REPO
from tests.support.engine_sites import require_engine
from tests.support.history_repo import BASE_TIME, CardRepo


def _workflow(project: Path) -> dict[str, object]:
    data = yaml.safe_load((project / WORKFLOW).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _add_card_with_an_error(project: Path) -> Path:
    """An example card without its required ``version``, as a second agent of the project's catalogue."""
    card = json.loads((REPO / "examples" / "cards" / "unit-converter.json").read_text(encoding="utf-8"))
    card["name"] = "Unversioned converter"
    del card["version"]
    path = project / "cards" / "unversioned.json"
    path.write_text(json.dumps(card, indent=2), encoding="utf-8")
    return path


def _build_env(build: dict[str, object]) -> dict[str, str]:
    """The job's environment, with the programs the steps name from this one (a2a-docgen, the engine)."""
    env = {**os.environ, **{k: str(v) for k, v in build["env"].items()}}  # type: ignore[attr-defined]
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def _run_step(run: str, project: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-e", "-c", run],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _assert_installed(run: str, env: dict[str, str]) -> None:
    """``pip install ARGS``: each requirement is satisfied here (a2a-docgen from its repository: this one)."""
    words = shlex.split(run.replace("$A2A_DOCGEN", env["A2A_DOCGEN"]))
    assert words[:2] == ["pip", "install"], run
    for word in words[2:]:
        requirement = Requirement(word)
        version = metadata.version(requirement.name)
        if requirement.url is not None:
            assert requirement.name == "a2a-docgen"
            assert requirement.url == A2A_DOCGEN_SOURCE
            for extra in requirement.extras:  # the extras' packages are installed too
                for needed in metadata.requires("a2a-docgen") or []:
                    dependency = Requirement(needed)
                    if dependency.marker is not None and dependency.marker.evaluate({"extra": extra}):
                        metadata.version(dependency.name)
        else:
            assert requirement.specifier.contains(version, prereleases=True), (word, version)


@pytest.mark.slow
@pytest.mark.parametrize("engine", list(ENGINES))
def test_the_pages_workflow_builds_the_site_when_run_as_a_script(engine: str, tmp_path: Path) -> None:
    require_engine(engine)
    project = tmp_path / "repo"
    assert main(["init", "--engine", engine, "--github-pages", str(project)]) == 0
    _add_card_with_an_error(project)
    CardRepo(project).commit("Catalogue")  # as actions/checkout leaves it: one commit, made at BASE_TIME
    workflow = _workflow(project)
    build = workflow["jobs"]["build"]  # type: ignore[index]
    env = _build_env(build)
    ran = 0
    for step in build["steps"]:
        run = step.get("run")
        if run is None:
            continue
        if run.startswith("pip install"):
            _assert_installed(run, env)
            continue
        done = _run_step(run, project, env)
        assert done.returncode == 0, f"{run}\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
        ran += 1
    assert ran == 2  # the check, the build
    upload = next(s for s in build["steps"] if str(s.get("uses", "")).startswith("actions/upload-pages"))
    site = project / upload["with"]["path"]
    assert (site / "index.html").is_file()
    assert list(site.glob("agents/*/index.html"))
    assert (site / "pagefind" / "pagefind.js").is_file()
    assert list(site.glob("agents/unversioned-converter/index.html"))  # published, errors and all
    sitemap = site / "sitemap.xml"
    if sitemap.is_file():  # the time MkDocs stamps is the commit's, never the build's
        dates = set(re.findall(r"<lastmod>([^<]*)</lastmod>", sitemap.read_text(encoding="utf-8")))
        assert dates <= {"2026-01-01"}, dates  # BASE_TIME's day
    packed = site / "sitemap.xml.gz"  # MkDocs and ProperDocs
    if packed.is_file():
        stamp = packed.read_bytes()[4:8]  # the gzip header's time: the day MkDocs stamps
        assert int.from_bytes(stamp, "little") == BASE_TIME - BASE_TIME % 86400


def test_card_errors_are_annotated_and_fail_the_job_only_when_the_workflow_says_so(tmp_path: Path) -> None:
    """The check step: the card errors as annotations, and the job goes on to publish; with
    ``FAIL_ON_CARD_ERRORS: "true"`` it fails; a check that cannot run (no cards) fails it either way."""
    project = tmp_path / "repo"
    assert main(["init", "--github-pages", str(project)]) == 0
    _add_card_with_an_error(project)
    build = _workflow(project)["jobs"]["build"]  # type: ignore[index]
    assert build["env"][FAIL_ON_CARD_ERRORS] == "false"
    text = (project / WORKFLOW).read_text(encoding="utf-8")
    assert '"true" fails the job on any card error instead' in text  # the switch, explained where it is
    check = next(step["run"] for step in build["steps"] if step.get("name") == "Check the cards")
    env = _build_env(build)
    done = _run_step(check, project, env)
    assert done.returncode == 0, done.stderr
    assert "::error file=cards/unversioned.json,line=1,col=1,title=required-missing::" in done.stdout
    failing = _run_step(check, project, {**env, FAIL_ON_CARD_ERRORS: "true"})
    assert failing.returncode == 1
    assert "title=required-missing" in failing.stdout
    (project / "cards" / "unversioned.json").unlink()
    assert _run_step(check, project, {**env, FAIL_ON_CARD_ERRORS: "true"}).returncode == 0  # no error left
    for name in os.listdir(project / "cards"):
        (project / "cards" / name).unlink()
    (project / "cards").rmdir()
    gone = _run_step(check, project, env)
    assert gone.returncode != 0
    assert "cards: no such file or directory" in gone.stderr


def test_publishing_md_shows_the_workflows_init_writes() -> None:
    text = (REPO / "docs" / "publishing.md").read_text(encoding="utf-8")
    for engine in ENGINES.values():
        assert f"```yaml\n{pages_workflow(engine, cards='cards')}```\n" in text, engine.name
