"""Render many pages in worker processes: the part of generation that more cores speed up.

Agent pages are independent of one another once the site views exist, and they are most of the rendering
work. Forked workers inherit the views (nothing is pickled on the way in); each renders a contiguous share
and sends the Markdown back, while this process renders the catalogue pages. The output does not depend on
the number of workers.

Forking is only safe in a process with a single thread (a lock held by another thread would stay locked in
the child: ``mkdocs serve`` runs a server thread; threads that C extensions start without Python's
``threading`` are not seen), and only done on Linux, where it is the usual way to
start workers. Everywhere else, for one job, or for a catalogue too small to repay starting workers, the
pages are rendered here, one after another.

Workers end when the process that started them ends, however it ends (``kill -9`` included): the kernel kills
each one when its parent dies (``PR_SET_PDEATHSIG``), and one whose parent died before that took effect ends
at once. Without this, a build killed mid-render leaves workers waiting for work forever (on the executor's
queue, or blocked writing a result nobody reads).
"""

from __future__ import annotations

import bisect
import ctypes
import functools
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType
from typing import Any, Generic, TypeVar

__all__ = [
    "MIN_PAGES_PER_WORKER",
    "PageWorkers",
    "default_jobs",
    "forking_is_safe",
    "in_workers",
    "worker_count",
]

MIN_PAGES_PER_WORKER = 25
"""Workers are only started for this many pages each or more (so at least 50 pages for two): below that,
starting them costs more than they save."""

_CHUNKS_PER_WORKER = 4  # smaller shares even out pages of unequal size
_BESIDE_NICE = 5
"""How much lower the scheduling priority of workers beside this process's own work is: that work is what the
build waits for."""

_worker_render: Callable[[int], Any] | None = None
"""In a forked worker only: the page function of the ``PageWorkers`` that started it, given to it by its first
step (``_start_worker``; inherited with the process, never pickled). The process that starts workers never
sets it: what a ``PageWorkers`` renders lives as long as the ``PageWorkers``."""

T = TypeVar("T")


def default_jobs() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def forking_is_safe() -> bool:
    """Whether worker processes may be forked from this process now."""
    return sys.platform.startswith("linux") and threading.active_count() == 1


def worker_count(count: int, jobs: int, *, beside: bool = False) -> int:
    """The workers ``PageWorkers`` starts for ``count`` pages on ``jobs`` CPUs; 0: the pages are rendered in
    this process. ``beside``: this process keeps a CPU busy with work of its own meanwhile, so the workers take
    the other CPUs, and one worker pays (without it the pages would wait for that work, in this process)."""
    if not forking_is_safe():
        return 0
    workers = min(jobs - 1 if beside else jobs, count // MIN_PAGES_PER_WORKER)
    return workers if workers >= (1 if beside else 2) else 0


_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _end_with_parent(parent: int) -> None:
    """Have the kernel kill this forked worker when ``parent`` (the process, single-threaded, that forked it)
    ends; end now if it already has (it died between the fork and the request, which is then never sent)."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no prctl: forking is only done on Linux, which has it
        pass
    if os.getppid() != parent:
        os._exit(1)


def _start_worker(parent: int, nice: int, render: Callable[[int], Any]) -> None:
    """A forked worker's first step: it ends with ``parent`` (``_end_with_parent``), renders with ``render``,
    at a lower priority (``nice``) when it works beside the caller's own work."""
    global _worker_render  # noqa: PLW0603 - this worker process's one page function
    _end_with_parent(parent)
    _worker_render = render
    if nice:
        os.nice(nice)


def _render_share(bounds: tuple[int, int]) -> list[Any]:
    render = _worker_render
    if render is None:  # only reachable if a child were started by other means than fork
        raise RuntimeError("page workers must be started by fork")
    return [render(index) for index in range(*bounds)]


def _shares(count: int, parts: int) -> list[tuple[int, int]]:
    """``range(count)`` cut into at most ``parts`` contiguous (start, stop) pairs of near-equal size."""
    parts = max(1, min(parts, count))
    step, extra = divmod(count, parts)
    bounds, start = [], 0
    for part in range(parts):
        stop = start + step + (1 if part < extra else 0)
        bounds.append((start, stop))
        start = stop
    return bounds


class PageWorkers(Generic[T]):
    """``render(0) ... render(count - 1)``, started on entry, collected by ``results()``.

    Use as a context manager; work done inside the ``with`` block runs while the workers render::

        with PageWorkers(render_agent, len(agents), jobs) as workers:
            ...  # render the other pages here
            agent_pages = workers.results()

    An exception raised by ``render`` in a worker is raised again by ``results()``. When workers are not used
    (see the module docstring), ``results()`` renders the pages in this process.
    """

    def __init__(
        self,
        render: Callable[[int], T],
        count: int,
        jobs: int,
        *,
        share: int | None = None,
        beside: bool = False,
    ) -> None:
        """``share``: the pages a worker renders at a time (default: a quarter of its part), for a caller that
        takes the pages one by one (``take``) and wants the first ones soon. ``beside``: this process has its
        own work to do meanwhile, which the workers leave a CPU to and yield to (``worker_count``), and the
        pages are wanted only later."""
        self._render = render
        self._count = count
        self._workers = worker_count(count, jobs, beside=beside)
        self._share = share
        self._nice = _BESIDE_NICE if beside else 0
        self._executor: ProcessPoolExecutor | None = None
        self._shares: list[tuple[int, int]] = []
        self._futures: dict[int, Future[list[T]]] = {}
        """Number of a share -> its future, until its pages are read (the future holds them)."""
        self._taken: dict[int, dict[int, T]] = {}
        """Number of a share -> its pages not taken yet, once ``take`` waited for it."""

    @property
    def parallel(self) -> bool:
        """Whether the pages are rendered by worker processes."""
        return self._workers > 0

    def __enter__(self) -> PageWorkers[T]:
        if self._workers:
            # With fork, the executor starts every worker here, before it starts its own thread; each inherits
            # its first step and the page function with the process (never pickled).
            self._executor = ProcessPoolExecutor(
                self._workers,
                mp_context=multiprocessing.get_context("fork"),
                initializer=functools.partial(_start_worker, os.getpid(), self._nice, self._render),
            )
            parts = self._workers * _CHUNKS_PER_WORKER
            if self._share is not None:
                parts = max(parts, -(-self._count // self._share))
            self._shares = _shares(self._count, parts)
            self._futures = {
                number: self._executor.submit(_render_share, bounds)
                for number, bounds in enumerate(self._shares)
            }
        return self

    def take(self, index: int) -> T:
        """One page, once (it is let go of here), waiting only for the share that holds it (the shares are
        rendered in index order); ``results`` is not for the same workers."""
        if self._executor is None:
            return self._render(index)
        number = bisect.bisect_right(self._shares, (index, self._count)) - 1
        pages = self._taken.get(number)
        if pages is None:
            start = self._shares[number][0]
            pages = self._taken[number] = dict(enumerate(self._share_pages(number), start))
        page = pages.pop(index)
        if not pages:
            del self._taken[number]
        return page

    def _share_pages(self, number: int) -> list[T]:
        try:
            return self._futures.pop(number).result()
        except BrokenProcessPool:
            # A worker died (killed, out of memory) or sent back an exception that cannot be unpickled:
            # render the share here, which gives its pages or the real exception.
            return [self._render(index) for index in range(*self._shares[number])]

    def results(self) -> list[T]:
        """The pages, in index order."""
        if self._executor is None:
            return [self._render(index) for index in range(self._count)]
        pages: list[T] = []
        for number in range(len(self._shares)):
            pages.extend(self._share_pages(number))
        return pages

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
        self._futures.clear()
        self._taken.clear()


def in_workers(work: Callable[[int], T], count: int, *, jobs: int) -> list[T]:
    """``[work(0), ..., work(count - 1)]`` by ``PageWorkers`` (in this process where they are not used)."""
    with PageWorkers(work, count, jobs) as workers:
        return workers.results()
