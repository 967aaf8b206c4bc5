"""The site writer: incremental, stale-page removal, atomic, contained."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest

from a2a_docgen.render.site import NavEntry, RenderedSite
from a2a_docgen.site import writer
from a2a_docgen.site.writer import MANIFEST_NAME, SiteWriteError, read_manifest, write_files, write_site


def make_site(**pages: str) -> RenderedSite:
    """Pages given as keyword arguments, ``__`` standing for ``/`` (``agents__a__index_md``)."""
    return RenderedSite(
        pages={k.replace("__", "/").replace("_md", ".md"): v for k, v in pages.items()},
        files={"cards/a.json": b'{"name": "A"}\n'},
        nav=(NavEntry("Agents", "index.md"),),
    )


BASE = make_site(index_md="# Catalogue\n", agents__a__index_md="# A\n", agents__b__index_md="# B\n")


def snapshot(root: Path) -> dict[str, tuple[bytes, int, int] | None]:
    """Every file (bytes, mtime_ns, inode) and directory (None) below ``root``."""
    tree: dict[str, tuple[bytes, int, int] | None] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_dir():
            tree[rel] = None
        else:
            st = path.stat()
            tree[rel] = (path.read_bytes(), st.st_mtime_ns, st.st_ino)
    return tree


def siblings(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name != out.name)


def test_first_write_creates_files_and_manifest(tmp_path: Path) -> None:
    out = tmp_path / "docs"
    result = write_site(BASE, out)
    assert result.written == ["agents/a/index.md", "agents/b/index.md", "cards/a.json", "index.md"]
    assert result.unchanged == []
    assert result.removed == []
    assert (out / "agents/a/index.md").read_bytes() == b"# A\n"
    assert (out / "cards/a.json").read_bytes() == b'{"name": "A"}\n'
    listed = [line for line in (out / MANIFEST_NAME).read_text().splitlines() if not line.startswith("#")]
    assert listed == result.written
    assert siblings(out) == []  # no temporary directory left behind


def test_unchanged_files_are_not_rewritten(tmp_path: Path) -> None:
    out = tmp_path / "docs"
    write_site(BASE, out)
    before = snapshot(out)
    result = write_site(BASE, out)
    assert result.written == []
    assert result.removed == []
    assert result.unchanged == ["agents/a/index.md", "agents/b/index.md", "cards/a.json", "index.md"]
    assert snapshot(out) == before  # same bytes, mtime_ns and inode, manifest included


def test_only_changed_file_is_rewritten(tmp_path: Path) -> None:
    out = tmp_path / "docs"
    write_site(BASE, out)
    before = snapshot(out)
    changed = make_site(
        index_md="# Catalogue\n", agents__a__index_md="# A, new\n", agents__b__index_md="# B\n"
    )
    result = write_site(changed, out)
    assert result.written == ["agents/a/index.md"]
    after = snapshot(out)
    assert after["agents/a/index.md"] != before["agents/a/index.md"]
    assert after.pop("agents/a/index.md")[0] == b"# A, new\n"  # type: ignore[index]
    before.pop("agents/a/index.md")
    assert after == before


def test_stale_pages_and_their_empty_directories_are_removed(tmp_path: Path) -> None:
    out = tmp_path / "docs"
    write_site(BASE, out)
    result = write_site(make_site(index_md="# Catalogue\n", agents__a__index_md="# A\n"), out)
    assert result.removed == ["agents/b/index.md"]
    assert not (out / "agents/b").exists()
    assert (out / "agents/a/index.md").exists()
    assert "agents/b/index.md" not in (out / MANIFEST_NAME).read_text()


def test_user_files_survive(tmp_path: Path) -> None:
    out = tmp_path / "docs"
    write_site(BASE, out)
    (out / "about.md").write_text("mine\n")
    (out / "agents/b/notes.md").write_text("mine too\n")
    result = write_site(make_site(index_md="# Catalogue\n"), out)
    assert result.removed == ["agents/a/index.md", "agents/b/index.md"]
    assert (out / "about.md").read_text() == "mine\n"
    assert (out / "agents/b/notes.md").read_text() == "mine too\n"  # and its directory with it
    assert not (out / "agents/a").exists()


def test_user_file_at_a_generated_path_is_not_overwritten(tmp_path: Path) -> None:
    out = tmp_path / "docs"
    out.mkdir()
    (out / "index.md").write_text("my own home page\n")
    before = snapshot(out)
    with pytest.raises(SiteWriteError, match=r"index\.md exists and was not generated"):
        write_site(BASE, out)
    assert snapshot(out) == before
    assert siblings(out) == []


def test_identical_file_without_manifest_is_adopted(tmp_path: Path) -> None:
    out = tmp_path / "docs"
    out.mkdir()
    (out / "index.md").write_text("# Catalogue\n")
    result = write_site(BASE, out)
    assert result.unchanged == ["index.md"]
    assert "index.md" in (out / MANIFEST_NAME).read_text().splitlines()


def test_two_writes_give_identical_trees(tmp_path: Path) -> None:
    write_site(BASE, tmp_path / "one")
    write_site(BASE, tmp_path / "two")
    one = {k: v and v[0] for k, v in snapshot(tmp_path / "one").items()}
    two = {k: v and v[0] for k, v in snapshot(tmp_path / "two").items()}
    assert one == two


NEXT = make_site(index_md="# Catalogue v2\n", agents__a__index_md="# A\n", agents__c__index_md="# C\n")


@pytest.mark.parametrize(
    ("exception", "raised"),
    [(OSError(28, "No space left on device"), SiteWriteError), (KeyboardInterrupt(), KeyboardInterrupt)],
)
def test_failure_while_staging_leaves_out_dir_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exception: BaseException, raised: type[BaseException]
) -> None:
    out = tmp_path / "docs"
    write_site(BASE, out)
    before = snapshot(out)
    real_stage = writer._stage_file
    calls: list[str] = []

    def failing_stage(staged: Path, path: str, data: bytes, *made: set[Path]) -> None:
        calls.append(path)
        if len(calls) == 2:
            raise exception
        real_stage(staged, path, data, *made)

    monkeypatch.setattr(writer, "_stage_file", failing_stage)
    with pytest.raises(raised):
        write_site(NEXT, out)
    assert len(calls) == 2
    assert snapshot(out) == before
    assert siblings(out) == []


def test_failure_of_the_switch_leaves_out_dir_intact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "docs"
    write_site(BASE, out)
    before = snapshot(out)

    def refuse(first: Path, second: Path) -> None:
        raise PermissionError(13, "Permission denied", str(second))

    monkeypatch.setattr(writer, "_exchange", refuse)
    with pytest.raises(SiteWriteError, match=r"Permission denied.*left as it was"):
        write_site(NEXT, out)
    assert snapshot(out) == before
    assert siblings(out) == []


def tree(root: Path) -> dict[str, bytes | None]:
    return {k: v and v[0] for k, v in snapshot(root).items()}


def test_without_an_exchanging_rename_two_renames_are_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_site(NEXT, tmp_path / "expected")
    out = tmp_path / "docs"
    write_site(BASE, out)

    def unsupported(first: Path, second: Path) -> None:
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(writer, "_exchange", unsupported)
    write_site(NEXT, out)
    assert tree(out) == tree(tmp_path / "expected")
    assert siblings(out) == ["expected"]


def test_a_switch_that_died_between_its_renames_is_completed_by_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_site(NEXT, tmp_path / "expected")
    out = tmp_path / "docs"
    write_site(BASE, out)
    monkeypatch.setattr(writer, "_exchange", lambda a, b: (_ for _ in ()).throw(OSError(38, "ENOSYS")))
    real_rename = os.rename

    class Died(BaseException):
        pass

    def rename_then_die(source: Path, target: Path) -> None:
        real_rename(source, target)
        if Path(target).name == "old":
            raise Died

    monkeypatch.setattr(writer.os, "rename", rename_then_die)
    monkeypatch.setattr(writer.shutil, "rmtree", lambda *a, **k: None)  # as after kill -9: nothing cleaned
    with pytest.raises(Died):
        write_site(NEXT, out)
    monkeypatch.undo()
    assert not out.exists()
    assert write_site(NEXT, out).written == []  # the next run completed the switch first
    assert tree(out) == tree(tmp_path / "expected")
    assert siblings(out) == ["expected"]


def test_leftovers_of_a_dead_run_are_removed(tmp_path: Path) -> None:
    out = tmp_path / "docs"
    write_site(BASE, out)
    for leftover in (".a2a-docgen-work-docs-abc/new/agents", ".a2a-docgen-tmp-xyz/old/agents"):
        (tmp_path / leftover).mkdir(parents=True)
        (tmp_path / leftover / "index.md").write_text("half\n")
    before = tree(out)
    assert write_site(BASE, out).written == []
    assert tree(out) == before
    write_site(NEXT, out)
    assert siblings(out) == []


def test_ctrl_c_during_the_switch_is_held_back_and_the_output_is_complete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_site(NEXT, tmp_path / "expected")
    out = tmp_path / "docs"
    write_site(BASE, out)
    real_exchange = writer._exchange

    def exchange_with_sigint(first: Path, second: Path) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        real_exchange(first, second)

    monkeypatch.setattr(writer, "_exchange", exchange_with_sigint)
    # Python's own handler, as in an interactive run: a run in the background or under nohup starts with
    # SIGINT ignored, and the test must not depend on how it was started.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        result = write_site(NEXT, out)  # no KeyboardInterrupt: the output is complete
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # given back
    finally:
        signal.signal(signal.SIGINT, previous)
    assert result.interrupted
    assert tree(out) == tree(tmp_path / "expected")


def test_a_second_writer_waits_for_the_lock_then_fails_clearly(tmp_path: Path) -> None:
    out = tmp_path / "docs"
    busy = pytest.raises(SiteWriteError, match="another a2a-docgen build is writing")
    with writer.locked(out), busy, writer.locked(out, timeout=0.2):
        pass
    with writer.locked(out, timeout=0.2):  # released
        pass


def test_the_switch_keeps_inodes_of_unchanged_and_user_files(tmp_path: Path) -> None:
    out = tmp_path / "docs"
    write_site(BASE, out)
    (out / "mine.md").write_text("mine\n")
    os.symlink("mine.md", out / "link.md")
    before = snapshot(out)
    write_site(NEXT, out)
    after = snapshot(out)
    for path in ("mine.md", "agents/a/index.md", "cards/a.json"):
        assert after[path] == before[path]
    assert os.readlink(out / "link.md") == "mine.md"


@pytest.mark.parametrize(
    "path",
    ["/etc/passwd", "../outside.md", "agents/../../x.md", "a\\b.md", "", "a//b.md", "./a.md", "a/./b.md",
     "C:x.md", "a/b\x00.md", "a/\n.md", MANIFEST_NAME],
)  # fmt: skip
def test_unsafe_paths_are_rejected_before_anything_is_written(tmp_path: Path, path: str) -> None:
    out = tmp_path / "site" / "docs"
    with pytest.raises(SiteWriteError, match="refusing to write"):
        write_files({"index.md": b"x", path: b"evil"}, out)
    assert sorted(tmp_path.rglob("*")) == []


def test_file_and_directory_conflict_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(SiteWriteError, match="both a file and a directory"):
        write_files({"agents": b"x", "agents/a.md": b"y"}, tmp_path / "out")


def test_paths_differing_only_in_case_are_rejected(tmp_path: Path) -> None:
    with pytest.raises(SiteWriteError, match="only in case"):
        write_files({"Agent.md": b"x", "agent.md": b"y"}, tmp_path / "out")


def test_symlinked_directory_leading_outside_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    out = tmp_path / "docs"
    out.mkdir()
    (out / "agents").symlink_to(outside, target_is_directory=True)
    with pytest.raises(SiteWriteError, match="outside"):
        write_files({"agents/a.md": b"x"}, out)
    assert list(outside.iterdir()) == []


def test_tampered_manifest_cannot_remove_files_outside(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "x.md").write_text("keep me too\n")
    out = tmp_path / "docs"
    out.mkdir()
    (out / "link").symlink_to(outside, target_is_directory=True)
    (out / MANIFEST_NAME).write_text(f"../victim.txt\n{victim}\nlink/x.md\n")
    result = write_files({"index.md": b"x"}, out)
    assert result.removed == []
    assert victim.read_text() == "keep me\n"
    assert (outside / "x.md").read_text() == "keep me too\n"


def test_symlink_at_a_generated_path_is_replaced_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "target.md"
    outside.write_text("outside\n")
    out = tmp_path / "docs"
    write_files({"a.md": b"old"}, out)
    (out / "a.md").unlink()
    (out / "a.md").symlink_to(outside)
    write_files({"a.md": b"new"}, out)
    assert outside.read_text() == "outside\n"
    assert not (out / "a.md").is_symlink()
    assert (out / "a.md").read_bytes() == b"new"


def test_out_dir_that_is_a_file_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "out").write_text("x")
    with pytest.raises(SiteWriteError, match="not a directory"):
        write_files({"a.md": b"x"}, tmp_path / "out")


def test_in_place_writes_replace_files_inside_the_same_directories(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_files({"index.md": b"# Home\n", "agents/a/index.md": b"# A\n", "agents/b/index.md": b"# B\n"}, out)
    (out / "mine.md").write_text("# Mine\n", encoding="utf-8")
    inodes = {d: d.stat().st_ino for d in (out, out / "agents", out / "agents" / "a")}
    unchanged = (out / "index.md").stat().st_mtime_ns
    result = write_files({"index.md": b"# Home\n", "agents/a/index.md": b"# A, edited\n"}, out, in_place=True)
    assert result.written == ["agents/a/index.md"]
    assert result.removed == ["agents/b/index.md"]
    assert {d: d.stat().st_ino for d in inodes} == inodes
    assert (out / "agents" / "a" / "index.md").read_bytes() == b"# A, edited\n"
    assert not (out / "agents" / "b").exists()
    assert (out / "index.md").stat().st_mtime_ns == unchanged
    assert (out / "mine.md").read_text(encoding="utf-8") == "# Mine\n"
    assert read_manifest(out) == ["agents/a/index.md", "index.md"]
    assert not list(out.rglob("*.tmp"))
    with pytest.raises(SiteWriteError, match="not generated by a2a-docgen"):
        write_files({"index.md": b"# Home\n", "mine.md": b"# Ours\n"}, out, in_place=True)


def _status_calls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int) -> tuple[int, int]:
    """``stat``/``lstat`` calls of a first write of ``count`` pages, and of a write that finds them all unchanged."""
    calls = 0
    real_stat, real_lstat = os.stat, os.lstat

    def counted_stat(*args: Any, **kwargs: Any) -> os.stat_result:
        nonlocal calls
        calls += 1
        return real_stat(*args, **kwargs)

    def counted_lstat(*args: Any, **kwargs: Any) -> os.stat_result:
        nonlocal calls
        calls += 1
        return real_lstat(*args, **kwargs)

    site = RenderedSite(pages={f"tags/t{i}.md": f"# t{i}\n" for i in range(count)}, files={}, nav=())
    out = tmp_path / f"out-{count}"
    with monkeypatch.context() as patched:
        patched.setattr(os, "stat", counted_stat)
        patched.setattr(os, "lstat", counted_lstat)
        write_site(site, out)
        first, calls = calls, 0
        assert write_site(site, out).written == []
    return first, calls


def test_each_file_costs_one_status_call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A facet can have tens of thousands of pages: each costs one ``lstat`` more, whatever else a write does."""
    first_small, again_small = _status_calls(tmp_path, monkeypatch, 200)
    first_large, again_large = _status_calls(tmp_path, monkeypatch, 400)
    assert (first_large - first_small) / 200 <= 1.0
    assert (again_large - again_small) / 200 <= 1.0
