"""One root exception for everything the library raises on purpose.

Library code never prints or exits: it raises these (or returns diagnostics), and ``cli.py`` turns them
into one line of text and an exit code.
"""

from __future__ import annotations


class A2ADocgenError(Exception):
    """Root of every error a2a-docgen raises on purpose. ``str(err)`` is a complete, user-facing message."""


class UsageError(A2ADocgenError):
    """The command was called wrongly (bad path, bad option value). Exit code 2."""


class BuildFailed(A2ADocgenError):
    """A build could not finish (for example ``--strict`` with diagnostics). Exit code 1."""


class FetchError(A2ADocgenError):
    """A card could not be fetched from an agent."""
