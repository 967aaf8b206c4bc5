"""Load a catalogue: find card files, read each, validate it, and locate every diagnostic.

Above both ``load`` (reading and normalising) and ``validate`` (the rules), which never import each other.
One bad file never stops the others: each file's problems become diagnostics, and a file that cannot be read
as a card at all is listed in ``Catalog.excluded``. ``a2a_docgen.load_catalog`` is this module's.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence

from a2a_docgen.limits import DEFAULT_LIMITS, Limits
from a2a_docgen.load import CardFile, discover, read_card_bytes, read_card_file, read_fetch_record
from a2a_docgen.model import AgentCard, Catalog, Diagnostic, FetchRecord, card_order
from a2a_docgen.signing import Trust, verify_catalog
from a2a_docgen.validate import validate_card, validate_catalog

__all__ = ["assemble_catalog", "load_card_bytes", "load_card_file", "load_catalog"]


def load_catalog(
    paths: Sequence[str | os.PathLike[str]],
    *,
    limits: Limits = DEFAULT_LIMITS,
    base: str | None = None,
    trust: Trust | None = None,
) -> Catalog:
    """Read every card under ``paths`` into a ``Catalog`` (cards sorted by name, diagnostics by place).

    Relative paths are read from ``base`` when given, and files are named as found under the paths given.
    ``trust`` (keys and signature options) is what signatures are verified against; without it they are
    still checked as far as no key is needed. Raises ``UsageError`` for a path that does not exist.
    """
    return assemble_catalog(
        ((*load_card_file(card_file, limits), card_file.display) for card_file in discover(paths, base=base)),
        trust=trust,
    )


def assemble_catalog(
    loaded: Iterable[tuple[AgentCard | None, list[Diagnostic], str]], *, trust: Trust | None = None
) -> Catalog:
    """Build a ``Catalog`` from per-file results ``(card or None, diagnostics, display path)``.

    Runs the cross-card rules, verifies signatures (``signing.verify_catalog``) and sorts, so every source of
    cards (files, a git revision) gives the same catalogue for the same content and keys.
    """
    cards: list[AgentCard] = []
    diagnostics: list[Diagnostic] = []
    excluded: list[str] = []
    for card, file_diagnostics, display in loaded:
        diagnostics.extend(file_diagnostics)
        if card is None:
            excluded.append(display)
        else:
            cards.append(card)
    cards.sort(key=card_order)
    diagnostics.extend(validate_catalog(cards))
    verifications, found = verify_catalog(cards, trust or Trust())
    diagnostics.extend(found)
    diagnostics.sort(key=Diagnostic.sort_key)
    return Catalog(
        cards=tuple(cards),
        diagnostics=tuple(diagnostics),
        excluded=tuple(excluded),
        verifications=verifications,
    )


def load_card_file(card_file: CardFile, limits: Limits) -> tuple[AgentCard | None, list[Diagnostic]]:
    """Read and validate one file; never raises for anything the file contains."""
    data = read_card_file(card_file, limits)
    if isinstance(data, Diagnostic):
        return None, [data]
    return load_card_bytes(
        data,
        display=card_file.display,
        root=card_file.root,
        relpath=card_file.relpath,
        limits=limits,
        fetched=read_fetch_record(card_file.path),
    )


def load_card_bytes(
    data: bytes,
    *,
    display: str,
    root: str = "",
    relpath: str = "",
    limits: Limits = DEFAULT_LIMITS,
    fetched: FetchRecord | None = None,
) -> tuple[AgentCard | None, list[Diagnostic]]:
    """Read and validate one card from bytes (a file, a git revision, an HTTP body). Never raises for its
    content: the card (``None`` when it cannot be documented) and its diagnostics. ``fetched``: the card's
    fetch sidecar, when there is one."""
    read = read_card_bytes(data, display=display, root=root, relpath=relpath, limits=limits, fetched=fetched)
    if isinstance(read, Diagnostic):
        return None, [read]
    validate_card(read.card, read.report, limits)
    return read.finish()
