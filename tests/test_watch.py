"""``a2a-docgen build --watch``: snapshots and polling (``a2a_docgen.site.watch``), then the command itself
in a child process: a change to a card or a template rewrites only the pages it changes, a broken card or
template is reported without ending the watch, Ctrl-C exits 0."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from a2a_docgen.cli import main
from a2a_docgen.history import read as history_read
from a2a_docgen.site import watch as site_watch
from a2a_docgen.site.watch import snapshot, wait_for_change, watched_paths
from tests.conftest import REPO
from tests.support.history_repo import story_repo

EXAMPLES = REPO / "examples" / "cards"


def test_a_snapshot_sees_edits_additions_and_removals(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    (cards / "sub").mkdir(parents=True)
    (cards / "a.json").write_text("{}", encoding="utf-8")
    (cards / "sub" / "b.json").write_text("{}", encoding="utf-8")
    first = snapshot([cards])
    assert snapshot([cards]) == first
    (cards / "a.json").write_text('{"name": "A"}', encoding="utf-8")
    second = snapshot([cards])
    assert second != first
    (cards / "sub" / "c.json").write_text("{}", encoding="utf-8")
    third = snapshot([cards])
    assert third != second
    (cards / "sub" / "b.json").unlink()
    assert snapshot([cards]) != third


def test_a_missing_path_and_a_single_file_are_watched(tmp_path: Path) -> None:
    card = tmp_path / "card.json"
    missing = snapshot([card])
    card.write_text("{}", encoding="utf-8")
    present = snapshot([card])
    assert present != missing
    os.utime(card, ns=(1, 1))
    assert snapshot([card]) != present


def test_the_output_directory_does_not_count(tmp_path: Path) -> None:
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "a.json").write_text("{}", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    before = snapshot([tmp_path], exclude=[out])
    (out / "index.md").write_text("# Built\n", encoding="utf-8")
    assert snapshot([tmp_path], exclude=[out]) == before
    assert snapshot([out], exclude=[out]) == frozenset()


def test_wait_for_change_returns_once_the_files_hold_still(tmp_path: Path) -> None:
    card = tmp_path / "a.json"
    card.write_text("{}", encoding="utf-8")
    start = snapshot([card])
    edits: list[Callable[[], object]] = [
        lambda: None,  # nothing yet
        lambda: card.write_text('{"a": 1}', encoding="utf-8"),  # the editor writes ...
        lambda: card.write_text('{"a": 12}', encoding="utf-8"),  # ... and writes again
        lambda: None,  # then holds still
    ]
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        edits[len(sleeps) - 1]()

    settled = wait_for_change([card], start, interval=0.5, sleep=sleep)
    assert settled == snapshot([card])
    assert sleeps == [0.5] * 4


def test_watched_paths_include_the_templates(tmp_path: Path) -> None:
    builtin = tmp_path / "builtin"
    builtin.mkdir()
    assert watched_paths(["cards"], "mine", builtin) == ["cards", "mine", str(builtin)]
    assert watched_paths(["a", "b"], None, tmp_path / "none") == ["a", "b"]


def test_interval_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    for value in ("0", "-1", "nan", "soon"):
        assert main(["build", "--watch", "--interval", value]) == 2
        assert "--interval" in capsys.readouterr().err


# -- the command ------------------------------------------------------------------------------------------------


def _sigint_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Watch:
    """``a2a-docgen build CARDS -o OUT --watch`` running in a child process."""

    def __init__(self, root: Path, *extra: str) -> None:
        self.cards = root / "cards"
        self.out = root / "out"
        self.err = root / "watch.err"
        self.stderr = self.err.open("w", encoding="utf-8")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "a2a_docgen",
                "build",
                str(self.cards),
                "-o",
                str(self.out),
                "-j",
                "1",
                "--watch",
                "--interval",
                "0.1",
                *extra,
            ],
            stdout=subprocess.DEVNULL,
            stderr=self.stderr,
            text=True,
            # SIGINT as in a terminal, whatever this run inherited: a run in the background or under nohup
            # ignores it, and an ignored signal stays ignored across exec, so Ctrl-C would never arrive.
            preexec_fn=_sigint_default,  # noqa: PLW1509 (the test starts no threads of its own)
        )

    def log(self) -> str:
        return self.err.read_text(encoding="utf-8")

    def wait_for(self, count: int, text: str, timeout: float = 60) -> None:
        """Until the log holds ``text`` ``count`` times."""
        deadline = time.monotonic() + timeout
        while self.log().count(text) < count:
            assert self.process.poll() is None, self.log()
            assert time.monotonic() < deadline, f"no {count} x {text!r} in:\n{self.log()}"
            time.sleep(0.05)

    def stop(self) -> int:
        self.process.send_signal(signal.SIGINT)
        code = self.process.wait(timeout=30)
        self.stderr.close()
        return code


@pytest.fixture
def watch(tmp_path: Path) -> Iterator[Callable[..., Watch]]:
    shutil.copytree(EXAMPLES, tmp_path / "cards")
    started: list[Watch] = []

    def start(*extra: str) -> Watch:
        started.append(Watch(tmp_path, *extra))
        return started[-1]

    yield start
    for running in started:
        if running.process.poll() is None:
            running.process.kill()
            running.process.wait()


def mtimes(root: Path) -> dict[str, int]:
    return {p.relative_to(root).as_posix(): p.stat().st_mtime_ns for p in root.rglob("*") if p.is_file()}


BUILT = " removed -> "


def test_a_card_change_rewrites_only_its_pages_and_ctrl_c_exits_0(watch: Callable[..., Watch]) -> None:
    running = watch()
    running.wait_for(1, BUILT)
    running.wait_for(1, "for changes (Ctrl-C to stop)")
    before = mtimes(running.out)
    directories = {d: d.stat().st_ino for d in (running.out, running.out / "agents", running.out / "tags")}
    card_path = running.cards / "unit-converter.json"
    card = json.loads(card_path.read_text(encoding="utf-8"))
    card["description"] += " Now with furlongs."
    card_path.write_text(json.dumps(card, indent=2), encoding="utf-8")
    running.wait_for(2, BUILT)
    after = mtimes(running.out)
    changed = sorted(p for p in after if after[p] != before.get(p))
    assert changed, running.log()
    assert all(
        p.startswith(("agents/unit-converter/", "badges/", "tags/", "media-types/")) or "/" not in p
        for p in changed
    ), changed
    assert "agents/unit-converter/index.md" in changed
    # the same directories, files replaced inside them: an engine's watcher (zensical serve) keeps seeing them
    assert {d: d.stat().st_ino for d in directories} == directories
    assert not any(p.startswith("agents/") and "unit-converter" not in p for p in changed), changed
    assert "Now with furlongs." in next(
        (running.out / p).read_text(encoding="utf-8") for p in changed if p.endswith("/index.md")
    )
    assert running.stop() == 0
    assert "stopped watching" in running.log()
    assert "Traceback" not in running.log()


def test_a_broken_card_or_template_is_reported_and_the_watch_goes_on(
    watch: Callable[..., Watch], tmp_path: Path
) -> None:
    templates = tmp_path / "templates"
    templates.mkdir()
    running = watch("--templates", str(templates), "--strict")
    running.wait_for(1, BUILT)
    running.wait_for(1, "for changes")
    (running.cards / "unit-converter.json").write_text('{"name": ', encoding="utf-8")
    running.wait_for(1, "--strict: ")
    shutil.copy(EXAMPLES / "unit-converter.json", running.cards / "unit-converter.json")
    running.wait_for(2, BUILT)
    (templates / "excluded.md.jinja").write_text("{% if %}\n", encoding="utf-8")
    running.wait_for(1, "template error")
    (templates / "excluded.md.jinja").write_text("# Nothing excluded here\n", encoding="utf-8")
    running.wait_for(3, BUILT)
    assert (running.out / "excluded.md").read_text(encoding="utf-8") == "# Nothing excluded here\n"
    assert running.stop() == 0


@pytest.mark.parametrize("watching", [True, False], ids=["watch", "plain"])
def test_a_watch_reads_the_history_of_a_head_once_and_a_plain_build_keeps_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], watching: bool
) -> None:
    """A card edited while watching (``HEAD`` unchanged): the rebuild takes the history the watch kept and
    reads no git log; two plain builds each read it."""
    repo, _ = story_repo(tmp_path / "repo")
    monkeypatch.setenv("A2A_DOCGEN_HISTORY_CACHE", "off")  # no snapshot file stands in for what is kept
    monkeypatch.chdir(repo.root)
    logs: list[object] = []
    real_log = history_read.read_log

    def counted_log(*args: object, **options: object) -> object:
        logs.append(args)
        return real_log(*args, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(history_read, "read_log", counted_log)

    def edit() -> None:
        card = json.loads((repo.cards / "maps.json").read_text(encoding="utf-8"))
        card["description"] = "Edited while watching."
        repo.write("maps.json", card)

    if watching:
        changes: list[str] = []

        def one_change(paths: list[str], state: object, **options: Any) -> object:
            if changes:
                raise KeyboardInterrupt
            changes.append("maps.json")
            edit()
            return site_watch.snapshot(paths, exclude=options["exclude"])

        monkeypatch.setattr(site_watch, "wait_for_change", one_change)
        assert main(["build", "cards", "-o", "out", "--watch"]) == 0
    else:
        assert main(["build", "cards", "-o", "out"]) == 0
        edit()
        assert main(["build", "cards", "-o", "out"]) == 0
    assert "error" not in capsys.readouterr().err
    page = next((repo.root / "out" / "agents").glob("maps-agent*/index.md")).read_text(encoding="utf-8")
    assert "Edited while watching." in page
    assert "## Changes" in page
    assert len(logs) == (1 if watching else 2)
