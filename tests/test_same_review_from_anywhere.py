"""The same change gets the same review from anywhere: the verdict and the report are a function of the cards,
their git history and the base's configuration alone.

Never of the working directory, the spelling of the cards path (relative, absolute, ``./``, ``..``, through a
symbolic link), a ``.a2a-docgen.toml`` planted where the review happens to run, or the machine (time zone, locale,
hash seed, home directory, terminal width, umask). Built as users run it: a real repository in ``tmp_path`` (the
base on ``main``, the pull request's change on a branch, a configuration that accepts and lowers codes, which the
change tightens), then ``a2a-docgen diff`` from several directories and spellings in every format, and ``diff``
and ``build`` in fresh processes under varied environments.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from a2a_docgen.cli import main
from tests.support.history_repo import CardRepo, maps_card, weather_card
from tests.test_same_site_from_anywhere import differing, tree, working_directory

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

FORMATS = ("text", "json", "markdown", "github", "changelog")
SHA = "0123456789abcdef0123456789abcdef01234567"
LINKS = ("--repo-url", "https://github.com/acme/cards", "--head-sha", SHA)

PLANTED = """\
# planted beside the run: it must judge nothing
[diff]
version-policy = "off"

[diff.severity]
skill-removed = "off"
input-mode-removed = "off"
"""


def rules(expires: date, *, tightened: bool = False) -> str:
    """The team's configuration: it accepts the removal of ``radar`` until ``expires`` and lowers a narrowed
    input mode; the change's own (``tightened``) also raises description changes."""
    return (
        '[diff.severity]\ninput-mode-removed = "non-breaking"\n'
        + ('description-changed = "non-breaking"\n' if tightened else "")
        + "\n[[diff.accept]]\n"
        'agent = "Weather Agent"\nskill = "radar"\ncode = "skill-removed"\n'
        f'reason = "Radar moved to the maps agent"\nexpires = {expires.isoformat()}\n'
    )


@dataclass(frozen=True)
class Place:
    root: Path
    repo: CardRepo

    @property
    def cards(self) -> Path:
        return self.repo.cards

    @property
    def old(self) -> Path:
        return self.repo.root / "old"


def _write(path: Path, card: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")


def change_under_review(root: Path, expires: date) -> Place:
    """``root/repo``: ``main`` holds the base (``cards/``, its copy ``old/`` for comparing two directories, the
    team's ``.a2a-docgen.toml``, another one in ``docs/``); the checked-out branch ``change`` removes a skill,
    narrows an input mode, rewrites a description and tightens the configuration. Beside the repository:
    ``elsewhere/`` with a planted configuration, ``unrelated/`` with none, and ``link`` to the cards."""
    repo = CardRepo(root / "repo")
    weather, maps = weather_card(), maps_card()
    weather["skills"].append({"id": "radar", "name": "Radar", "description": "Rain maps.", "tags": ["maps"]})
    for cards in (repo.cards, repo.root / "old"):
        _write(cards / "weather.json", weather)
        _write(cards / "nested" / "maps.json", maps)
    (repo.root / ".a2a-docgen.toml").write_text(rules(expires), encoding="utf-8")
    (repo.root / "docs").mkdir()
    (repo.root / "docs" / ".a2a-docgen.toml").write_text(PLANTED, encoding="utf-8")
    repo.commit("The cards and the team's rules")
    repo.git("checkout", "-q", "-b", "change")
    weather["skills"].pop()
    weather["defaultInputModes"] = ["text/plain"]
    maps["description"] = "Finds places and routes."
    _write(repo.cards / "weather.json", weather)
    _write(repo.cards / "nested" / "maps.json", maps)
    (repo.root / ".a2a-docgen.toml").write_text(rules(expires, tightened=True), encoding="utf-8")
    repo.commit("Radar goes, JSON input goes, a new maps description, stricter rules")
    for name in ("elsewhere", "unrelated"):
        (root / name).mkdir()
    (root / "elsewhere" / ".a2a-docgen.toml").write_text(PLANTED, encoding="utf-8")
    (root / "link").symlink_to(repo.cards, target_is_directory=True)
    return Place(root, repo)


def review(cwd: Path, argv: list[str]) -> tuple[int, str]:
    """``a2a-docgen diff ARGV`` run from ``cwd``: its exit code and standard output."""
    out, err = io.StringIO(), io.StringIO()
    with working_directory(cwd), redirect_stdout(out), redirect_stderr(err):
        code = main(["diff", *argv])
    assert "Traceback" not in err.getvalue()
    return code, out.getvalue()


MODES = ("base-ref", "since-default-branch", "two directories")


def arguments(mode: str, cards: str, old: str, output_format: str) -> list[str]:
    extra = [*LINKS] if output_format == "markdown" else []
    if mode == "base-ref":
        sides = ["--base-ref", "main", cards]
    elif mode == "since-default-branch":
        sides = ["--since-default-branch", cards]
    else:
        sides = [old, cards]
    return [*sides, "--format", output_format, *extra]


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Place:
    return change_under_review(tmp_path_factory.mktemp("review"), date(2999, 12, 31))


@pytest.fixture(scope="module")
def reference(place: Place) -> dict[tuple[str, str], tuple[int, str]]:
    """Each mode's and format's review, run from the repository's root with ``cards``."""
    return {
        (mode, output_format): review(place.repo.root, arguments(mode, "cards", "old", output_format))
        for mode in MODES
        for output_format in FORMATS
    }


def test_the_reference_review_is_judged_by_the_teams_rules(
    reference: dict[tuple[str, str], tuple[int, str]],
) -> None:
    code, out = reference["base-ref", "json"]
    found = {c["code"]: c for c in json.loads(out)["changes"]}
    assert found["skill-removed"]["accepted"]["file"] == ".a2a-docgen.toml"
    assert found["input-mode-removed"]["severity"] == "non-breaking"
    assert (found["config-tightened"]["file"], found["config-tightened"]["line"]) == (".a2a-docgen.toml", 3)
    assert found["description-changed"]["file"] == "cards/nested/maps.json"
    assert code == 0
    assert reference["since-default-branch", "json"] == (code, out)
    code, out = reference["two directories", "json"]
    assert {c["code"] for c in json.loads(out)["changes"]} >= {"skill-removed", "input-mode-removed"}
    assert code == 0  # the working tree's file: radar's removal accepted, JSON input lowered
    assert "blob/" + SHA + "/cards/nested/maps.json#L" in reference["base-ref", "markdown"][1]


WORKING_DIRECTORIES = ("repo", "repo/cards", "repo/cards/nested", "repo/docs", "elsewhere", "unrelated", "")


@pytest.mark.parametrize("cwd", WORKING_DIRECTORIES)
def test_every_working_directory_gives_the_same_review(
    place: Place, reference: dict[tuple[str, str], tuple[int, str]], cwd: str
) -> None:
    here = place.root / cwd
    cards, old = os.path.relpath(place.cards, here), os.path.relpath(place.old, here)
    for mode in MODES:
        for output_format in FORMATS:
            got = review(here, arguments(mode, cards, old, output_format))
            assert got == reference[mode, output_format], (mode, output_format)


def spelled(place: Place, target: Path, here: Path, *, absolute: bool, link: bool, detour: bool, dot: bool,
            slash: bool) -> str:  # fmt: skip
    """One way a user names ``target`` from ``here``."""
    if link and target == place.cards:
        target = place.root / "link"
    if detour:  # a way round through a directory below: cards/nested/..
        target = target / "nested" / ".."
    text = str(target) if absolute else os.path.relpath(target, here)
    if dot and not absolute and not text.startswith(".."):
        text = os.path.join(".", text)
    return text + "/" if slash else text


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    cwd=st.sampled_from(WORKING_DIRECTORIES),
    mode=st.sampled_from(MODES),
    output_format=st.sampled_from(FORMATS),
    absolute=st.booleans(),
    link=st.booleans(),
    detour=st.booleans(),
    dot=st.booleans(),
    slash=st.booleans(),
)
@example(cwd="elsewhere", mode="base-ref", output_format="github", absolute=True, link=True, detour=False,
         dot=False, slash=False)  # fmt: skip
def test_any_spelling_from_any_directory_gives_the_same_review(
    place: Place,
    reference: dict[tuple[str, str], tuple[int, str]],
    cwd: str,
    mode: str,
    output_format: str,
    absolute: bool,
    link: bool,
    detour: bool,
    dot: bool,
    slash: bool,
) -> None:
    here = place.root / cwd
    way = {"absolute": absolute, "link": link, "detour": detour, "dot": dot, "slash": slash}
    cards = spelled(place, place.cards, here, **way)
    old = spelled(place, place.old, here, **way)
    assert review(here, arguments(mode, cards, old, output_format)) == reference[mode, output_format], cards


def test_a_configuration_planted_where_the_review_runs_judges_nothing(
    place: Place, reference: dict[tuple[str, str], tuple[int, str]]
) -> None:
    """Beside the cards' repository, and in a directory of it above no card: neither is nearer the cards."""
    for cwd in (place.root / "elsewhere", place.repo.root / "docs"):
        code, out = review(cwd, arguments("two directories", str(place.cards), str(place.old), "json"))
        assert (code, out) == reference["two directories", "json"]
        assert "version-not-bumped" not in out
        assert '"skill-removed"' in out


# -- the machine ------------------------------------------------------------------------------------------


MACHINES: dict[str, tuple[str, ...]] = {
    "TZ": ("UTC", "Etc/GMT-14", "Etc/GMT+12", "Asia/Kolkata"),  # a day ahead, a day behind, half an hour
    "LC_ALL": ("C", "C.UTF-8", "tr_TR.UTF-8", ""),  # "": none set
    "PYTHONHASHSEED": ("0", "1", "random"),
    "COLUMNS": ("20", "300"),
}
REPO = Path(__file__).resolve().parents[1]


def machine_environment(drawn: dict[str, str], home: Path) -> dict[str, str]:
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in ("LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ", "COLUMNS", "PYTHONHASHSEED")
        and not name.startswith("GITHUB_")
    }
    environment.update({name: value for name, value in drawn.items() if value})
    environment["LANG"] = drawn.get("LC_ALL", "") or "C"
    environment["HOME"] = str(home)
    environment["PYTHONPATH"] = str(REPO)  # this checkout, whatever is installed
    return environment


def fresh_process(cwd: Path, argv: list[str], environment: dict[str, str], umask: int) -> tuple[int, bytes]:
    """``python -m a2a_docgen ARGV`` in a new process: its exit code and standard output."""
    done = subprocess.run(
        [sys.executable, "-m", "a2a_docgen", *argv],
        cwd=cwd,
        env=environment,
        capture_output=True,
        umask=umask,
        timeout=300,
        check=False,
    )
    assert b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")
    return done.returncode, done.stdout


@dataclass(frozen=True)
class Machine:
    place: Place
    reviews: dict[str, tuple[int, bytes]]
    """What the reference machine's review gives, by format (run once for every example)."""
    sites: dict[str, dict[str, bytes]]
    """The site the reference machine builds (built once for every example)."""


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    """The change, with an acceptance that lasts until today where the day is latest to begin (UTC-12): a
    review that took the machine's day for today's would see it expired east of there (UTC+14 is a day
    ahead at every hour), and one that reads the day in UTC sees the same everywhere."""
    latest = (datetime.now(timezone.utc) - timedelta(hours=12)).date()
    built = change_under_review(tmp_path, latest)
    home = tmp_path / "home"
    home.mkdir()
    (home / ".a2a-docgen.toml").write_text(PLANTED, encoding="utf-8")
    (home / ".gitconfig").write_text(
        "[core]\n\tquotePath = false\n[diff]\n\trenames = false\n", encoding="utf-8"
    )
    return Machine(built, {}, {})


REFERENCE_MACHINE = {"TZ": "Etc/GMT+12", "LC_ALL": "C.UTF-8", "PYTHONHASHSEED": "0", "COLUMNS": "80"}


def site_of(place: Place, name: str, environment: dict[str, str], umask: int) -> dict[str, bytes]:
    """The site ``build cards`` writes in a fresh process (the history included)."""
    out = place.root / "sites" / name
    shutil.rmtree(out, ignore_errors=True)
    code, _ = fresh_process(
        place.repo.root, ["build", "cards", "-o", str(out), "--quiet"], environment, umask
    )
    assert code == 0
    return tree(out)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    drawn=st.fixed_dictionaries({name: st.sampled_from(values) for name, values in MACHINES.items()}),
    umask=st.sampled_from([0o022, 0o077, 0o002, 0o000]),
    planted_home=st.booleans(),
)
@example(drawn={"TZ": "Etc/GMT-14", "LC_ALL": "tr_TR.UTF-8", "PYTHONHASHSEED": "1", "COLUMNS": "20"}, umask=0o077,
         planted_home=True)  # fmt: skip
def test_any_machine_gives_the_same_review_and_site(
    machine: Machine, drawn: dict[str, str], umask: int, planted_home: bool
) -> None:
    place = machine.place
    home = place.root / "home" if planted_home else place.root / "unrelated"
    reference = machine_environment(REFERENCE_MACHINE, place.root / "unrelated")
    environment = machine_environment(drawn, home)
    for output_format in ("json", "github", "markdown"):
        argv = ["diff", *arguments("base-ref", "cards", "old", output_format)]
        if output_format not in machine.reviews:
            machine.reviews[output_format] = fresh_process(place.repo.root, argv, reference, 0o022)
        got = fresh_process(place.repo.root, argv, environment, umask)
        assert got == machine.reviews[output_format], output_format
    if not machine.sites:
        machine.sites["reference"] = site_of(place, "reference", reference, 0o022)
    expected = machine.sites["reference"]
    assert any(path.endswith("changes.xml") for path in expected)  # with the history
    assert differing(expected, site_of(place, "drawn", environment, umask)) == []
