"""Writing the output when things go wrong: kill -9 at any point, two builds at once, a read-only or full disk.

The promise checked here: whenever a build dies, ``out_dir`` holds exactly the old or exactly the new output,
and the next run removes what the dead one left beside it.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from a2a_docgen.cli import main
from a2a_docgen.site import writer
from a2a_docgen.site.writer import MANIFEST_NAME, write_files

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "cards"

Tree = dict[str, bytes | None]


def tree(root: Path) -> Tree:
    """Every file (its bytes; a symbolic link as its target) and directory (None) below ``root``."""
    result: Tree = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            result[rel] = os.readlink(path).encode()
        elif path.is_dir():
            result[rel] = None
        else:
            result[rel] = path.read_bytes()
    return result


def siblings(out: Path, *keep: str) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name != out.name and p.name not in keep)


def site(version: int, agents: int) -> dict[str, bytes]:
    """A site of ``agents`` agents; two versions differ in changed, removed and added pages."""
    files = {"index.md": f"# Catalogue v{version}\n".encode(), "cards/shared.json": b'{"name": "S"}\n'}
    first = 0 if version == 1 else agents // 3
    for agent in range(first, first + agents):
        files[f"agents/a{agent:03d}/index.md"] = (
            f"# Agent {agent} (v{version if agent % 2 else 1})\n".encode()
        )
        files[f"agents/a{agent:03d}/card.json"] = f'{{"name": "A{agent}"}}\n'.encode()
    return files


OLD, NEW = site(1, 8), site(2, 8)


def prepare(tmp_path: Path) -> tuple[Path, Tree, Tree, Path]:
    """``out`` holding the old output and a user file; the old and the new trees; a pristine copy."""
    expected_new = tmp_path / "expected-new"
    pristine = tmp_path / "pristine-old"
    write_files(OLD, pristine)
    (pristine / "notes.md").write_text("mine\n")
    (pristine / "agents" / "a001" / "mine.txt").write_text("mine too\n")
    shutil.copytree(pristine, expected_new, symlinks=True)
    write_files(NEW, expected_new)
    out = tmp_path / "run" / "out"
    return out, tree(pristine), tree(expected_new), pristine


def reset(out: Path, pristine: Path) -> None:
    """``out`` (alone in its directory) holding a copy of ``pristine``."""
    shutil.rmtree(out.parent, ignore_errors=True)
    out.parent.mkdir()
    shutil.copytree(pristine, out, symlinks=True)


_STEPS = (
    "_clean_leftovers",
    "_carry_over",
    "_carry",
    "_stage_file",
    "_remove_empty_parents",
    "_switch",
    "_exchange",
)


def write_in_child_killed_at(step: int, out: Path) -> bool:
    """Fork; the child writes ``NEW`` into ``out`` and SIGKILLs itself at its ``step``-th step (each
    writer helper counts on entry and on return, and so does each ``rename`` and ``rmtree``). True when the
    child was killed, False when it finished first."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            count = [0]

            def tick() -> None:
                count[0] += 1
                if count[0] == step:
                    os.kill(os.getpid(), signal.SIGKILL)

            def counted(function: Callable[..., Any]) -> Callable[..., Any]:
                def run(*args: Any, **kwargs: Any) -> Any:
                    tick()
                    result = function(*args, **kwargs)
                    tick()
                    return result

                return run

            for name in _STEPS:
                setattr(writer, name, counted(getattr(writer, name)))
            writer.os.rename = counted(os.rename)  # type: ignore[assignment]
            writer.shutil.rmtree = counted(shutil.rmtree)  # type: ignore[assignment]
            write_files(NEW, out)
            tick()
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    return os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "two-renames"])
def test_kill_9_at_every_step_leaves_exactly_the_old_or_the_new_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exchange: bool
) -> None:
    if not exchange:  # the fallback where the system has no exchanging rename
        monkeypatch.setattr(writer, "_exchange", lambda a, b: (_ for _ in ()).throw(OSError(38, "ENOSYS")))
    out, old, new, pristine = prepare(tmp_path)
    outcomes = {"old": 0, "new": 0}
    step, kills = 0, 0
    while True:
        step += 3  # every third step: kills before, inside and after each helper and rename
        reset(out, pristine)
        killed = write_in_child_killed_at(step, out)
        if not killed:
            break
        kills += 1
        if not out.exists():  # only between the two renames of the fallback: the next run completes it
            assert not exchange
        else:
            found = tree(out)
            assert found in (old, new), f"killed at step {step}: a mix of old and new output"
            outcomes["old" if found == old else "new"] += 1
        write_files(NEW, out)  # the next run
        assert tree(out) == new
        assert siblings(out) == [], f"leftovers after step {step}"
    assert kills >= 20, kills
    assert outcomes["old"], outcomes
    assert outcomes["new"], outcomes
    print(f"kill -9 at {kills} steps: {outcomes}")


def build_cards(directory: Path, names: list[str]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for index, name in enumerate(names):
        card = json.loads((EXAMPLES / "unit-converter.json").read_text())
        card["name"] = name
        (directory / f"card-{index:03d}.json").write_text(json.dumps(card))
    return directory


def cli(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "a2a_docgen", *args],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@pytest.mark.slow
def test_kill_9_of_the_build_command_at_random_points(tmp_path: Path) -> None:
    """The real command in a child process, killed at random moments of its run, 25 times."""
    old_cards = build_cards(tmp_path / "old-cards", [f"Agent {i}" for i in range(60)])
    new_cards = build_cards(tmp_path / "new-cards", [f"Agent {i}" for i in range(20, 90)])
    out = tmp_path / "run" / "out"
    pristine = tmp_path / "pristine-old"
    expected = tmp_path / "expected-new"
    for target, cards in ((pristine, old_cards), (expected, old_cards), (expected, new_cards)):
        assert cli("build", str(cards), "-o", str(target), "-j", "1").wait(timeout=120) == 0
    old, new = tree(pristine), tree(expected)
    assert old != new
    start = time.monotonic()
    assert cli("build", str(new_cards), "-o", str(tmp_path / "timing"), "-j", "1").wait(timeout=120) == 0
    duration = time.monotonic() - start
    rng = random.Random(14)
    outcomes = {"old": 0, "new": 0}
    for _ in range(25):
        reset(out, pristine)
        process = cli("build", str(new_cards), "-o", str(out), "-j", "1")
        time.sleep(rng.uniform(0.3, 1.1) * duration)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
        found = tree(out)
        assert found in (old, new), "a mix of old and new output"
        outcomes["old" if found == old else "new"] += 1
        rerun = subprocess.run(
            [sys.executable, "-m", "a2a_docgen", "build", str(new_cards), "-o", str(out), "-j", "1"],
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert rerun.returncode == 0, rerun.stderr
        assert tree(out) == new
        assert siblings(out) == []
    print(f"kill -9 of build at random points, 25 times: {outcomes}")


def test_two_builds_into_one_directory_at_once_leave_no_orphan_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both read the manifest before either writes (forced with a barrier): without a lock, the pages of the
    first one to finish would be listed in no manifest, forever."""
    out = tmp_path / "out"
    one = {"index.md": b"# one\n", "agents/one/index.md": b"# one\n"}
    two = {"index.md": b"# two\n", "agents/two/index.md": b"# two\n"}
    write_files(one, out)
    barrier = threading.Barrier(2)
    real_read = writer.read_manifest

    def read_together(directory: str | os.PathLike[str]) -> list[str]:
        listed = real_read(directory)
        with contextlib.suppress(threading.BrokenBarrierError):  # the other build waits for the lock
            barrier.wait(timeout=1.5)
        return listed

    monkeypatch.setattr(writer, "read_manifest", read_together)
    errors: list[BaseException] = []

    def build(files: dict[str, bytes]) -> None:
        try:
            write_files(files, out)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=build, args=(files,)) for files in ({**one, "x.md": b"x\n"}, two)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    listed = set(real_read(out))
    generated = {p for p in tree(out) if tree(out)[p] is not None and p != MANIFEST_NAME}
    assert generated <= listed, f"pages no manifest owns: {sorted(generated - listed)}"


def test_a_build_waiting_for_the_lock_fails_with_a_clear_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(writer, "LOCK_TIMEOUT", 0.2)
    out = tmp_path / "out"
    with writer.locked(out):
        assert main(["build", str(EXAMPLES), "-o", str(out), "-j", "1"]) == 1
    assert "another a2a-docgen build is writing" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (OSError(28, "No space left on device"), "No space left"),
        (OSError(30, "Read-only file system"), "Read-only"),
    ],
)
def test_a_failing_file_system_is_a_clear_error_not_a_traceback(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    error: OSError,
    message: str,
) -> None:
    out = tmp_path / "out"
    assert main(["build", str(EXAMPLES), "-o", str(out), "-j", "1"]) == 0
    before = tree(out)
    (tmp_path / "more").mkdir()
    shutil.copy(EXAMPLES / "unit-converter.json", tmp_path / "more" / "x.json")

    def fail(*args: Any) -> None:
        raise error

    monkeypatch.setattr(writer, "_stage_file", fail)
    assert main(["build", str(EXAMPLES), str(tmp_path / "more"), "-o", str(out), "-j", "1"]) == 1
    err = capsys.readouterr().err
    assert message in err
    assert "left as it was" in err
    assert "Traceback" not in err
    assert tree(out) == before


def in_small_mount(script: str, size: str = "1m") -> subprocess.CompletedProcess[str]:
    """Run a shell ``script`` in a private mount namespace with a tmpfs of ``size`` at ``$MNT``."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare to mount a small file system")
    mnt = "/tmp/a2a-docgen-test-mnt"  # only inside the private namespace
    probe = subprocess.run(
        [
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "sh",
            "-c",
            f"mkdir -p {mnt} && mount -t tmpfs none {mnt}",
        ],
        capture_output=True,
        check=False,
    )
    if probe.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {probe.stderr.decode(errors='replace').strip()}")
    full = f"set -u\nmkdir -p {mnt}\nmount -t tmpfs -o size={size} none {mnt}\nMNT={mnt}\n{script}"
    return subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", full],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=300,
        check=False,
    )


LIST_TREE = (
    "import hashlib, pathlib, sys; r = pathlib.Path(sys.argv[1]); "
    "print(sorted((str(p.relative_to(r)), hashlib.sha256(p.read_bytes()).hexdigest()) "
    "for p in r.rglob('*') if p.is_file()))"
)


@pytest.mark.parametrize(
    ("break_it", "message"),
    [
        ("mount -o remount,ro $MNT", "Read-only file system|is not writable"),
        ("dd if=/dev/zero of=$MNT/filler bs=4k 2>/dev/null", "No space left on device"),
    ],
    ids=["read-only", "full"],
)
def test_a_failing_file_system_is_a_clear_error_and_the_output_stays(
    tmp_path: Path, break_it: str, message: str
) -> None:
    """A real read-only or full file system (a small tmpfs in a private mount namespace)."""
    more = tmp_path / "more"
    more.mkdir()
    shutil.copy(EXAMPLES / "unit-converter.json", more / "x.json")
    py = sys.executable
    done = in_small_mount(
        f"""
        {py} -m a2a_docgen build {EXAMPLES} -o $MNT/out -j 1 2>/dev/null || exit 90
        {py} -c "{LIST_TREE}" $MNT/out > {tmp_path}/before
        {break_it}
        {py} -m a2a_docgen build {EXAMPLES} {more} -o $MNT/out -j 1; echo "exit=$?"
        {py} -c "{LIST_TREE}" $MNT/out > {tmp_path}/after
        ls -a $MNT
        """.replace("\n        ", "\n"),
    )
    assert "exit=1" in done.stdout, done
    assert re.search(message, done.stderr), done.stderr
    assert "Traceback" not in done.stderr
    assert (tmp_path / "before").read_text() == (tmp_path / "after").read_text()
    assert ".a2a-docgen-work" not in done.stdout  # nothing left beside the output


def test_sigint_after_the_switch_is_not_reported_as_interrupted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    real_switch = writer._switch

    def switch_then_sigint(*args: Any) -> None:
        real_switch(*args)
        os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(writer, "_switch", switch_then_sigint)
    assert main(["build", str(EXAMPLES), "-o", str(out), "-j", "1"]) == 0
    err = capsys.readouterr().err
    assert "interrupted" not in err
    assert "Ctrl-C came once the output was complete" in err
    assert (out / MANIFEST_NAME).is_file()


def test_the_summary_of_a_complete_build_survives_a_late_ctrl_c(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C once the output is complete (while the summary is printed) does not turn success into 130."""
    out = tmp_path / "out"
    from a2a_docgen.commands import build

    real_summary = build.summary

    def summary_interrupted(*args: Any) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(build, "summary", summary_interrupted)
    assert main(["build", str(EXAMPLES), "-o", str(out), "-j", "1"]) == 0
    monkeypatch.setattr(build, "summary", real_summary)
    assert (out / MANIFEST_NAME).is_file()
