"""Load a catalogue: find card files, read each, validate it, and locate every diagnostic.

Above both ``load`` (reading and normalising) and ``validate`` (the rules), which never import each other.
One bad file never stops the others: each file's problems become diagnostics, and a file that cannot be read
as a card at all is listed in ``Catalog.excluded``. ``a2a_docgen.load_catalog`` is this module's.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from a2a_docgen.collector import collector_paused
from a2a_docgen.limits import DEFAULT_LIMITS, Deadline, Limits
from a2a_docgen.load import CardFile, discover, read_card_bytes, read_card_file, read_fetch_record
from a2a_docgen.model import AgentCard, Catalog, Diagnostic, FetchRecord, card_order
from a2a_docgen.signing import Trust, verify_catalog
from a2a_docgen.validate import validate_card, validate_catalog

__all__ = ["CardCache", "assemble_catalog", "load_card_bytes", "load_card_file", "load_catalog", "load_files"]


def load_catalog(
    paths: Sequence[str | os.PathLike[str]],
    *,
    limits: Limits = DEFAULT_LIMITS,
    base: str | None = None,
    trust: Trust | None = None,
    cache: CardCache | None = None,
) -> Catalog:
    """Read every card under ``paths`` into a ``Catalog`` (cards sorted by name, diagnostics by place).

    Relative paths are read from ``base`` when given, and files are named as found under the paths given.
    ``trust`` (keys and signature options) is what signatures are verified against; without it they are
    still checked as far as no key is needed. ``cache``, kept by the caller from one load to the next
    (``mkdocs serve``), gives a file whose bytes did not change its last card and diagnostics without reading
    and validating it again; the rules across cards and signature verification always run. The catalogue is
    the same either way. Raises ``UsageError`` for a path that does not exist.
    """
    return load_files(discover(paths, base=base), limits=limits, trust=trust, cache=cache)


def load_files(
    files: Sequence[CardFile],
    *,
    limits: Limits = DEFAULT_LIMITS,
    trust: Trust | None = None,
    cache: CardCache | None = None,
) -> Catalog:
    """``load_catalog`` of files already found (``load.discover``)."""
    with collector_paused():  # every card's model and diagnostics: many objects, no cycles
        if cache is None:
            loaded = [(*load_card_file(card_file, limits), card_file.display) for card_file in files]
        else:
            loaded = [(*cache.load(card_file, limits), card_file.display) for card_file in files]
            cache.keep_only(files)
        catalog = assemble_catalog(loaded, trust=trust)
    names = {card_file.display: card_file.relpath for card_file in files}
    return replace(catalog, excluded_names={path: names[path] for path in catalog.excluded})


@dataclass(frozen=True, slots=True)
class _Loaded:
    data: bytes | Diagnostic
    where: tuple[str, str, str]
    limits: Limits
    fetched: FetchRecord | None
    card: AgentCard | None
    diagnostics: tuple[Diagnostic, ...]


class CardCache:
    """One card file's last load (its bytes, and the card and diagnostics they gave), by display path.

    A file is read every time (its bytes are the key: no clock is trusted), and validated again only when
    they, its fetch sidecar or the limits changed. Cards are frozen values, so the same card object serves
    both loads; a card's own diagnostics depend on its bytes alone (the rules across cards run on every load).
    """

    def __init__(self) -> None:
        self._loaded: dict[str, _Loaded] = {}

    def load(self, card_file: CardFile, limits: Limits) -> tuple[AgentCard | None, list[Diagnostic]]:
        """``load_card_file(card_file, limits)``, from the last load when nothing it reads changed."""
        data = read_card_file(card_file, limits)
        fetched = read_fetch_record(card_file.path) if isinstance(data, bytes) else None
        where = (card_file.root, card_file.relpath, card_file.key)
        last = self._loaded.get(card_file.display)
        if (
            last is not None
            and last.data == data
            and last.where == where
            and last.limits == limits
            and last.fetched == fetched
        ):
            return last.card, list(last.diagnostics)
        card, diagnostics = _load_read(data, card_file, limits, fetched)
        self._loaded[card_file.display] = _Loaded(data, where, limits, fetched, card, tuple(diagnostics))
        return card, diagnostics

    def keep_only(self, files: Sequence[CardFile]) -> None:
        """Forget the files that are no longer found."""
        found = {card_file.display for card_file in files}
        for display in [display for display in self._loaded if display not in found]:
            del self._loaded[display]


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
    fetched = read_fetch_record(card_file.path) if isinstance(data, bytes) else None
    return _load_read(data, card_file, limits, fetched)


def _load_read(
    data: bytes | Diagnostic, card_file: CardFile, limits: Limits, fetched: FetchRecord | None
) -> tuple[AgentCard | None, list[Diagnostic]]:
    if isinstance(data, Diagnostic):
        return None, [data]
    return load_card_bytes(
        data,
        display=card_file.display,
        root=card_file.root,
        relpath=card_file.relpath,
        key=card_file.key,
        limits=limits,
        fetched=fetched,
    )


def load_card_bytes(
    data: bytes,
    *,
    display: str,
    root: str = "",
    relpath: str = "",
    key: str = "",
    limits: Limits = DEFAULT_LIMITS,
    fetched: FetchRecord | None = None,
    deadline: Deadline | None = None,
) -> tuple[AgentCard | None, list[Diagnostic]]:
    """Read and validate one card from bytes (a file, a git revision, an HTTP body). Never raises for its
    content: the card (``None`` when it cannot be documented) and its diagnostics. ``key``: the file's identity key
    (``CardSource.key``). ``fetched``: the card's fetch sidecar, when
    there is one. ``deadline``: when checking must stop (``validate_card``)."""
    read = read_card_bytes(
        data, display=display, root=root, relpath=relpath, key=key, limits=limits, fetched=fetched
    )
    if isinstance(read, Diagnostic):
        return None, [read]
    validate_card(read.card, read.report, limits, deadline)
    return read.finish()
