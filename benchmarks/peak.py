"""Peak resident memory, for the benchmark's measurers: of this process, and of a build (this process and the
processes it started and waited for).

``ru_maxrss`` of this process is not it: on Linux, ``exec`` carries over the peak of the image it replaces, so a
measurer started by a large parent (the benchmark holding a 5,000-agent catalogue) reports the parent's size.
``VmHWM`` in ``/proc/self/status`` belongs to this process alone.
"""

from __future__ import annotations

import resource


def peak_kib() -> int:
    """Peak resident memory of this process in KiB (``ru_maxrss`` where there is no ``/proc``)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return int(next(line for line in status if line.startswith("VmHWM:")).split()[1])
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def build_peak_kib() -> int:
    """Peak resident memory of a build run in this process, in KiB: the larger of this process's own peak and
    the largest peak of a process it waited for (render and conversion workers, Pagefind). A forked worker's
    peak counts the pages it shares with this process, so the two are not added."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux
    return max(peak_kib(), children)


def build_usage() -> dict[str, float]:
    """What a measurer records of the build it ran: ``max_rss_kib`` (``build_peak_kib``) and ``cpu_seconds``
    (user and system time of this process and of every process it waited for)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    return {"max_rss_kib": build_peak_kib(), "cpu_seconds": cpu}
