"""This process's own peak resident memory, for the benchmark's measurers.

``ru_maxrss`` is not it: on Linux, ``exec`` carries over the peak of the image it replaces, so a measurer
started by a large parent (the benchmark holding a 5,000-agent catalogue) reports the parent's size.
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
