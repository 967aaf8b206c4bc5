"""Rendering pages in worker processes: same pages, same order, errors surface, only forked when safe."""

from __future__ import annotations

import os
import sys
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from a2a_docgen.errors import UsageError
from a2a_docgen.render.parallel import MIN_PAGES_PER_WORKER, PageWorkers, _shares, forking_is_safe

ENOUGH = 3 * MIN_PAGES_PER_WORKER

needs_fork = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="worker processes are only forked on Linux"
)


def _single_threaded() -> None:
    if threading.active_count() > 1:
        pytest.skip("another thread is running in this test process: forking would not be safe")


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
    _single_threaded()
    with PageWorkers(page, ENOUGH, jobs=2) as workers:
        assert workers.parallel
        pages = workers.results()
    assert [p.split("\n")[0] for p in pages] == [f"# Page {i}" for i in range(ENOUGH)]
    renderers = {p.rsplit(" ", 1)[1].strip() for p in pages}
    assert str(os.getpid()) not in renderers, "the pages were rendered in this process"
    assert len(renderers) == 2


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
    _single_threaded()
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not forking_is_safe()
        with PageWorkers(page, ENOUGH, jobs=2) as workers:
            assert not workers.parallel
            assert workers.results() == [page(i) for i in range(ENOUGH)]
    finally:
        stop.set()
        thread.join()
    assert forking_is_safe()


def failing(index: int) -> str:
    if index == ENOUGH - 1:
        raise UsageError(f"template error on page {index}")
    return page(index)


@needs_fork
def test_an_error_in_a_worker_is_raised_again_here() -> None:
    _single_threaded()
    with PageWorkers(failing, ENOUGH, jobs=2) as workers:
        assert workers.parallel
        with pytest.raises(UsageError, match=f"page {ENOUGH - 1}"):
            workers.results()
