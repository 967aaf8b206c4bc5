"""File names and anchors derived from card ids, safe on every filesystem.

A card id is hostile text: ``../../etc/passwd``, ``/abs``, ``CON``, ``a/b``, 300 characters, or two spellings
of one name (NFC and NFD, with and without a zero-width space). The scheme::

    identity_key(id) = NFC(id without invisible or bidi characters)        what "the same id" means
    stem = NFKD(key) -> ASCII -> lower -> runs of [^a-z0-9] -> "-" -> strip "-"
    readable slug = stem, when it is not empty, at most 40 characters and not a Windows device name
    hashed slug = (first 40 of stem, or "x" if empty) + "-" + sha256(namespace + "\\0" + key)[:10]

A slug always matches ``[a-z0-9-]{1,51}`` with no ``--``: no separator, dot, drive letter or hidden file; never a
Windows device name (``con``, ``nul``, ``com1`` ...); deterministic (no counters, so re-runs and diffs stay
stable). A hash is over the case-preserving key while the stem is lower case, so ``Foo`` and ``foo`` get
different hashed slugs that do not collide on case-insensitive filesystems.

``unique_slugs`` is the one place every family of pages and anchors gets its slugs. An item is at its readable
slug (``tags/maps.md``) only while no other item of its family has the same stem; it compares the final slugs,
and every item of a clash moves on (readable to hashed, then a longer hash), neither keeps the address, so no
card can take the slug of one it does not control, and nothing rests on a hash's luck: distinct ids may share a
hashed slug (same stem, same 40-bit prefix: a birthday search finds such a pair in seconds), and are then
widened until all are distinct whatever the hash width.

Duplicates are not renamed: two ids with the same ``identity_key`` in one namespace share a slug, and the
validator reports them (``duplicate-skill-id``) instead of numbering one of them. The renderer anchors a repeated
skill id by the skill's position instead.

``plain_slug`` is the same lower-casing without the hash, for names that are unique already (fetched hosts).
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from collections.abc import Collection, Sequence

from a2a_docgen.text.unicode import strip_invisible

__all__ = [
    "WINDOWS_DEVICES",
    "anchor",
    "identity_key",
    "plain_slug",
    "readable_stem",
    "slug",
    "tag_key",
    "tag_slug",
    "unique_slugs",
]

_MAX_STEM = 40
_HASH_CHARS = 10
_ANCHOR_PREFIX = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


@functools.lru_cache(maxsize=65536)
def identity_key(s: str) -> str:
    """What makes two ids the same: NFC after removing invisible and bidi characters (case is kept)."""
    return unicodedata.normalize("NFC", strip_invisible(s))


@functools.lru_cache(maxsize=16)
def _not_kept(keep: str) -> re.Pattern[str]:
    return re.compile(f"[^a-z0-9{re.escape(keep)}]+")


def plain_slug(text: str, *, keep: str = "") -> str:
    """``text`` in lower case, each run of characters other than ``a-z``, ``0-9`` and those of ``keep`` made one
    ``-``, then ``-`` and ``keep`` stripped from both ends: ``plain_slug("A.B:8443", keep=".-") == "a.b-8443"``.

    No hash and no length limit: for names that are unique already (a host name), not for card ids.
    """
    return _not_kept(keep).sub("-", text.lower()).strip("-" + keep)


WINDOWS_DEVICES = frozenset(
    {"con", "prn", "aux", "nul", *(f"com{n}" for n in range(10)), *(f"lpt{n}" for n in range(10))}
)
"""Names Windows gives its devices, with any extension (``con.md`` too): never a bare slug, since ``site_src/``
is checked out on Windows."""


def _full_stem(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", identity_key(text)).encode("ascii", "ignore").decode("ascii")
    return plain_slug(ascii_text)


def _stem(key: str) -> str:
    return _full_stem(key)[:_MAX_STEM].rstrip("-") or "x"


def readable_stem(text: str) -> str | None:
    """The stem of ``text`` when it may be a slug on its own (``agents/weather/``): not empty, at most 40
    characters (a longer one is cut and hashed), not a Windows device name; else ``None``."""
    stem = _full_stem(text)
    if not stem or len(stem) > _MAX_STEM or stem in WINDOWS_DEVICES:
        return None
    return stem


@functools.lru_cache(maxsize=65536)
def slug(s: str, namespace: str = "", width: int | None = None, label: str | None = None) -> str:
    """A file-name-safe, deterministic slug for ``s``, unique within ``namespace`` per ``identity_key`` as far as
    ``width`` hex digits of its hash tell (``unique_slugs`` makes sure). Its stem is ``label``'s when given
    (the readable part), ``s``'s otherwise; the hash is always ``s``'s.

    Namespace skills by their agent's slug and agents by their card file's key (``CardSource.key``), so equal
    ids in different cards do not collide.
    """
    key = identity_key(s)
    digest = hashlib.sha256(f"{namespace}\0{key}".encode("utf-8", "surrogatepass")).hexdigest()
    return f"{_stem(key if label is None else label)}-{digest[: width or _HASH_CHARS]}"


_WIDTHS = (20, 32, 64)
"""The hash widths a clashing slug is widened to, in turn."""
_PAGE_SUFFIX = re.compile(r"(.+)-([1-9][0-9]*)")
"""``<list>-<n>``: page ``n`` of a list (``render.paging``), for ``n`` from 2."""


def _page_of(value: str, taken: Collection[str]) -> bool:
    """Whether ``value`` is the path stem of a further page of a list at one of ``taken`` (``maps-2``)."""
    match = _PAGE_SUFFIX.fullmatch(value)
    return match is not None and int(match.group(2)) >= 2 and match.group(1) in taken


def unique_slugs(
    items: Sequence[tuple[str, str]],
    *,
    labels: Sequence[str | None] | None = None,
    reserved: Collection[str] = frozenset(),
    paged: bool = False,
    readable: bool = True,
) -> tuple[list[str], list[tuple[int, ...]]]:
    """A slug for each ``(text, namespace)``, all distinct, and the clashes found: groups of indexes that had one
    slug. Items with the same ``identity_key`` and namespace are one thing and keep one slug.

    With ``labels`` (the readable text of each item, ``None`` for none), an item starts at its bare
    ``readable_stem`` (``weather``) unless that is ``None`` or ``reserved`` (a file of the directory:
    ``index``); otherwise, and every other item, at ``slug(text, namespace)``. The final slugs are compared and
    every member of a clash is widened (bare to hashed, then a longer hash; past the widest, its position in the
    clash), never only one, until none repeats: no item keeps an address another could also claim. Not
    ``readable``: the labels only name the hashed slugs' stems (an address that must not move when another item
    comes to read alike). ``paged``
    (the items are lists whose further pages add ``-2``, ``-3``: ``render.paging``): a slug that is such a
    page of another's, or of a ``reserved`` name's, is widened too."""
    identities = [(identity_key(text), namespace) for text, namespace in items]
    label_of = list(labels) if labels is not None else [None] * len(items)
    bare = [readable_stem(label) if label is not None and readable else None for label in label_of]
    levels = [0 if stem is not None and stem not in reserved else 1 for stem in bare]

    def at(index: int, level: int, order: int = 0) -> str:
        text, namespace = items[index]
        if level == 0:
            return bare[index] or ""
        if level <= len(_WIDTHS) + 1:
            width = _HASH_CHARS if level == 1 else _WIDTHS[level - 2]
            return slug(text, namespace, width, label_of[index])
        # a whole SHA-256 alike: told apart by rank (a letter ends it: no page number)
        return f"{slug(text, namespace, _WIDTHS[-1], label_of[index])}-{order + 1}x"

    result = [at(index, level) for index, level in enumerate(levels)]
    clashes: list[tuple[int, ...]] = []
    while True:
        owners: dict[str, dict[tuple[str, str], list[int]]] = {}
        for index, value in enumerate(result):
            owners.setdefault(value, {}).setdefault(identities[index], []).append(index)
        clashing = [groups for groups in owners.values() if len(groups) > 1]
        if paged:
            taken = {*owners, *reserved}
            clashing += [g for value, g in owners.items() if len(g) == 1 and _page_of(value, taken)]
        if not clashing:
            return result, clashes
        for groups in clashing:
            clashes.append(tuple(sorted(i for group in groups.values() for i in group)))
            for order, identity in enumerate(sorted(groups)):
                for index in groups[identity]:
                    levels[index] += 1
                    result[index] = at(index, levels[index], order)


def anchor(s: str, namespace: str = "", *, prefix: str = "skill") -> str:
    """An HTML id for ``s``, hashed: ``prefix-slug`` (``skill-search-1a2b3c4d5e``), never the raw id.

    The prefix keeps generated ids apart from a theme's own (``__config``, ``mkdocs-search-results``).
    """
    if not _ANCHOR_PREFIX.fullmatch(prefix):
        raise ValueError(f"anchor prefix must be lower-case letters, digits and inner dashes: {prefix!r}")
    return f"{prefix}-{slug(s, namespace)}"


@functools.lru_cache(maxsize=65536)
def tag_key(tag: str) -> str:
    """What makes two tags the same: ``identity_key``, whitespace collapsed, case folded.

    Unlike ids, tags are labels for grouping: ``Search`` and ``search`` are one tag and share one page.
    """
    return " ".join(identity_key(tag).split()).casefold()


def tag_slug(tag: str) -> str:
    """The slug of a tag's page; the same for every spelling with the same ``tag_key``."""
    return slug(tag_key(tag), namespace="tag")
