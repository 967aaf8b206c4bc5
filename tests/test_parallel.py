"""Rendering pages in worker processes: same pages, same order, errors surface, only forked when safe."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from a2a_docgen.render.parallel import MIN_PAGES_PER_WORKER, PageWorkers, _shares, worker_count

ENOUGH = 3 * MIN_PAGES_PER_WORKER
BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"

needs_fork = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="worker processes are only forked on Linux"
)


def in_fresh_process(body: str) -> dict[str, Any]:
    """Run ``body`` in a new interpreter (one thread, whatever this test process runs) and return the JSON
    object it prints as its last line."""
    script = textwrap.dedent(
        """
        import json, os, threading
        from a2a_docgen.errors import UsageError
        from a2a_docgen.render.parallel import PageWorkers, forking_is_safe

        def page(index):
            return f"# Page {index}\\n\\nrendered by {os.getpid()}\\n"

        def failing(index):
            if index == COUNT - 1:
                raise UsageError(f"template error on page {index}")
            return page(index)

        PARENT = os.getpid()

        class TwoArguments(Exception):  # pickles, but cannot be unpickled (its __init__ wants two)
            def __init__(self, first, second):
                super().__init__(f"{first} {second}")

        def dying(index):
            if index == COUNT // 2 and os.getpid() != PARENT:
                os._exit(3)  # as if killed: no exception, no result
            return page(index)

        def odd_failure(index):
            if index == COUNT // 2:
                raise TwoArguments("page", index)
            return page(index)

        def outcome(render, caught):
            with PageWorkers(render, COUNT, jobs=2) as workers:
                try:
                    workers.results()
                    error = None
                except caught as exc:
                    error = str(exc)
            return {"parallel": workers.parallel, "error": error}
        """
    )
    script += f"COUNT = {ENOUGH}\n" + textwrap.dedent(body)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def page(index: int) -> str:
    return f"# Page {index}\n\nrendered by {os.getpid()}\n"


@given(count=st.integers(0, 500), parts=st.integers(1, 64))
def test_shares_cover_the_range_in_order_and_evenly(count: int, parts: int) -> None:
    shares = _shares(count, parts)
    covered = [i for start, stop in shares for i in range(start, stop)]
    assert covered == list(range(count))
    sizes = [stop - start for start, stop in shares]
    assert len(shares) <= max(1, parts)
    if count:
        assert min(sizes) >= 1
        assert max(sizes) - min(sizes) <= 1


@needs_fork
def test_workers_render_every_page_in_order_in_other_processes() -> None:
    result = in_fresh_process(
        """
        with PageWorkers(page, COUNT, jobs=2) as workers:
            pages = workers.results()
        print(json.dumps({"parallel": workers.parallel, "pages": pages, "pid": os.getpid()}))
        """
    )
    assert result["parallel"]
    pages = result["pages"]
    assert [p.split("\n")[0] for p in pages] == [f"# Page {i}" for i in range(ENOUGH)]
    renderers = {p.rsplit(" ", 1)[1].strip() for p in pages}
    assert str(result["pid"]) not in renderers, "the pages were rendered in the calling process"
    # Shares go to whichever worker is free: on a busy machine one worker may take them all.
    assert 1 <= len(renderers) <= 2


def test_workers_beside_work_of_this_process_leave_it_a_cpu_and_one_of_them_pays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("a2a_docgen.render.parallel.forking_is_safe", lambda: True)
    # This process only waits for the pages: one worker would be this process's work moved elsewhere.
    assert worker_count(2 * MIN_PAGES_PER_WORKER - 1, 8) == 0
    assert worker_count(2 * MIN_PAGES_PER_WORKER, 2) == 2
    # This process keeps a CPU busy meanwhile: the workers take the others, one already pays.
    assert worker_count(MIN_PAGES_PER_WORKER, 2, beside=True) == 1
    assert worker_count(MIN_PAGES_PER_WORKER - 1, 2, beside=True) == 0
    assert worker_count(ENOUGH, 4, beside=True) == 3
    assert worker_count(ENOUGH, 1, beside=True) == 0
    monkeypatch.setattr("a2a_docgen.render.parallel.forking_is_safe", lambda: False)
    assert worker_count(ENOUGH, 2) == worker_count(ENOUGH, 2, beside=True) == 0


@needs_fork
def test_workers_beside_yield_to_this_process() -> None:
    """Workers beside this process's own work run at a lower priority than it; the others at its own."""
    result = in_fresh_process(
        """
        def state(index):
            return [os.getpid(), os.nice(0)]

        with PageWorkers(state, COUNT, jobs=2) as workers:
            plain = workers.results()
        with PageWorkers(state, COUNT, jobs=2, beside=True) as workers:
            beside = [workers.take(index) for index in range(COUNT)]
        print(json.dumps({"pid": os.getpid(), "nice": os.nice(0), "plain": plain, "beside": beside}))
        """
    )
    for pid, _ in result["plain"] + result["beside"]:
        assert pid != result["pid"]
    assert {nice for _, nice in result["plain"]} == {result["nice"]}
    assert {nice for _, nice in result["beside"]} == {min(result["nice"] + 5, 19)}
    assert len({pid for pid, _ in result["beside"]}) == 1, "two CPUs: one worker beside this process"


def test_one_job_renders_here() -> None:
    with PageWorkers(page, ENOUGH, jobs=1) as workers:
        assert not workers.parallel
        pages = workers.results()
    assert pages == [page(i) for i in range(ENOUGH)]


def test_a_small_catalogue_is_rendered_here() -> None:
    with PageWorkers(page, 2 * MIN_PAGES_PER_WORKER - 1, jobs=8) as workers:
        assert not workers.parallel


@needs_fork
def test_no_fork_while_another_thread_runs() -> None:
    result = in_fresh_process(
        """
        before = forking_is_safe()
        stop = threading.Event()
        thread = threading.Thread(target=stop.wait)
        thread.start()
        during = forking_is_safe()
        with PageWorkers(page, COUNT, jobs=2) as workers:
            pages = workers.results()
        stop.set()
        thread.join()
        print(json.dumps({"before": before, "during": during, "parallel": workers.parallel,
                          "same": pages == [page(i) for i in range(COUNT)]}))
        """
    )
    assert result == {"before": True, "during": False, "parallel": False, "same": True}


@needs_fork
def test_an_error_in_a_worker_is_raised_again_here() -> None:
    result = in_fresh_process("print(json.dumps(outcome(failing, UsageError)))")
    assert result == {"parallel": True, "error": f"template error on page {ENOUGH - 1}"}


@needs_fork
def test_render_catalog_gives_the_same_site_with_workers(tmp_path: Path) -> None:
    overrides = tmp_path / "templates"
    overrides.mkdir()
    (overrides / "agent.md.jinja").write_text("# Agent\n\n{{ nothing.here }}\n")
    result = in_fresh_process(
        f"""
        import sys
        from pathlib import Path
        sys.path.insert(0, {str(BENCHMARKS)!r})
        from synthetic import write_catalogue
        import a2a_docgen.render.catalog as render
        from a2a_docgen.catalog import load_catalog

        used = []
        class Recording(render.PageWorkers):
            def __enter__(self):
                used.append(self.parallel)
                return super().__enter__()
        render.PageWorkers = Recording

        write_catalogue(Path({str(tmp_path / "cards")!r}), COUNT, 3)
        catalog = load_catalog([{str(tmp_path / "cards")!r}])
        serial = render.render_catalog(catalog, jobs=1)
        parallel = render.render_catalog(catalog, jobs=2)
        try:
            render.render_catalog(catalog, jobs=2, templates_dir={str(overrides)!r})
            error = None
        except UsageError as exc:
            error = str(exc)
        print(json.dumps({{"used": used, "same": serial == parallel, "agents": len(catalog.cards),
                          "error": error}}))
        """
    )
    assert result == {
        "used": [False, True, True],
        "same": True,
        "agents": ENOUGH,
        "error": "template error: 'nothing' is undefined",
    }


@needs_fork
def test_requests_are_made_by_the_workers_that_render_the_agent_pages(tmp_path: Path) -> None:
    """The views leave each request to the agent page that shows it (``calling.DeferredVariants``): the build
    process makes none of them when the pages are rendered by workers, and the pages are those of one process."""
    result = in_fresh_process(
        f"""
        import sys
        from pathlib import Path
        sys.path.insert(0, {str(BENCHMARKS)!r})
        from synthetic import write_catalogue
        import a2a_docgen.render.calling as calling
        import a2a_docgen.render.catalog as render
        from a2a_docgen.catalog import load_catalog

        here = os.getpid()
        made_here = []
        real = calling.build_request  # what every request of a page is made by
        def counting(*arguments):
            if os.getpid() == here:
                made_here.append(arguments[2])
            return real(*arguments)
        calling.build_request = counting

        write_catalogue(Path({str(tmp_path / "cards")!r}), COUNT, 3)
        catalog = load_catalog([{str(tmp_path / "cards")!r}])
        parallel = render.render_catalog(catalog, jobs=2)
        in_workers = len(made_here)
        serial = render.render_catalog(catalog, jobs=1)
        print(json.dumps({{"in_workers": in_workers, "serial": len(made_here), "same": serial == parallel}}))
        """
    )
    assert result["in_workers"] == 0
    assert result["serial"] >= ENOUGH * 3  # one process: every skill's requests, made here
    assert result["same"]


@needs_fork
def test_history_pages_and_feeds_are_rendered_with_their_agent_pages(tmp_path: Path) -> None:
    """Each agent's history pages and feed come from the worker that renders its page, and so do the views of
    its entries (``changes.ChangeViews``): the build process makes only the catalogue's feed and no agent's
    views, and the site is the one a single process renders."""
    result = in_fresh_process(
        f"""
        import sys
        from pathlib import Path
        sys.path.insert(0, {str(BENCHMARKS)!r})
        from history import make_repository
        import a2a_docgen.render.feeds as feeds
        import a2a_docgen.render.changes as changes
        import a2a_docgen.render.catalog as render
        from a2a_docgen.catalog import load_catalog
        from a2a_docgen.history.read import read_history

        here = os.getpid()
        feeds_here = []
        real = feeds.atom_feed
        def counting(**arguments):
            if os.getpid() == here:
                feeds_here.append(arguments["feed_path"])
            return real(**arguments)
        feeds.atom_feed = counting
        views_here = []
        real_views = changes._Making.views
        def views(self):
            if os.getpid() == here and self.taint is not None:
                views_here.append(len(self.entries))
            return real_views(self)
        changes._Making.views = views

        root = Path({str(tmp_path / "repo")!r})
        root.mkdir()
        os.environ["A2A_DOCGEN_HISTORY_CACHE"] = "off"
        make_repository(root, COUNT, 2, 8)
        catalog = load_catalog(["cards"], base=str(root))
        history = read_history(["cards"], base=str(root)).history
        parallel = render.render_catalog(catalog, jobs=2, history=history)
        in_workers = list(feeds_here)
        views_in_workers = len(views_here)
        serial = render.render_catalog(catalog, jobs=1, history=history)
        print(json.dumps({{"in_workers": in_workers, "serial": len(feeds_here) - len(in_workers),
                          "views": views_in_workers, "views_serial": len(views_here),
                          "histories": sum("/history" in path for path in parallel.pages),
                          "same": serial == parallel}}))
        """
    )
    assert result["in_workers"] == ["whats-new.xml"]
    assert result["views"] == 0
    assert result["views_serial"] == ENOUGH  # every agent's, in one process
    assert result["serial"] == ENOUGH + 1  # every agent's feed and the catalogue's, in one process
    assert result["histories"] == ENOUGH
    assert result["same"]


@needs_fork
def test_a_dead_worker_s_pages_are_rendered_here() -> None:
    result = in_fresh_process(
        """
        with PageWorkers(dying, COUNT, jobs=2) as workers:
            pages = workers.results()
        print(json.dumps({"parallel": workers.parallel, "titles": [p.split("\\n")[0] for p in pages]}))
        """
    )
    assert result == {"parallel": True, "titles": [f"# Page {i}" for i in range(ENOUGH)]}


@needs_fork
def test_an_exception_that_cannot_cross_processes_is_raised_as_it_is() -> None:
    result = in_fresh_process("print(json.dumps(outcome(odd_failure, TwoArguments)))")
    assert result == {"parallel": True, "error": f"page {ENOUGH // 2}"}


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie, ended but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@needs_fork
@pytest.mark.parametrize("beside", [False, True])
def test_workers_end_when_the_build_is_killed(tmp_path: Path, beside: bool) -> None:
    """``kill -9`` of the process that started the workers, while one renders a page that never ends and the
    others wait for work: no worker is left running."""
    script = textwrap.dedent(
        f"""
        import os, time
        from pathlib import Path
        from a2a_docgen.render.parallel import PageWorkers

        seen = Path({str(tmp_path)!r})

        def page(index):
            (seen / str(os.getpid())).touch()
            if index == 0:
                time.sleep(3600)
            return index

        with PageWorkers(page, {ENOUGH}, jobs={3 if beside else 2}, beside={beside}) as workers:
            workers.results()
        """
    )
    build = subprocess.Popen([sys.executable, "-c", script], cwd=Path(__file__).resolve().parents[1])
    try:
        expected = 2
        deadline = time.monotonic() + 60
        while len(list(tmp_path.iterdir())) < expected and time.monotonic() < deadline:
            assert build.poll() is None, "the build ended before its workers started"
            time.sleep(0.05)
        workers = [int(path.name) for path in tmp_path.iterdir()]
        assert len(workers) == expected, workers
        time.sleep(0.2)  # the worker that is done waits for more work
    finally:
        build.kill()
        build.wait(timeout=30)
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in workers if _alive(pid)]
    for pid in left:  # do not leave them running even when the test fails
        os.kill(pid, signal.SIGKILL)
    assert left == [], "workers outlived the build that started them"


@needs_fork
def test_a_worker_whose_parent_ended_before_it_started_ends_at_once() -> None:
    result = in_fresh_process(
        """
        from a2a_docgen.render.parallel import _end_with_parent

        codes = []
        for parent in (os.getpid(), -1):  # -1: not the worker's parent any more
            child = os.fork()
            if child == 0:
                _end_with_parent(parent)
                os._exit(0)
            codes.append(os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]))
        print(json.dumps({"codes": codes}))
        """
    )
    assert result == {"codes": [0, 1]}
