"""File names and anchors derived from card ids, safe on every filesystem.

A card id is hostile text: ``../../etc/passwd``, ``/abs``, ``CON``, ``a/b``, 300 characters, or two spellings
of one name (NFC and NFD, with and without a zero-width space). The scheme::

    identity_key(id) = NFC(id without invisible or bidi characters)        what "the same id" means
    stem = NFKD(key) -> ASCII -> lower -> runs of [^a-z0-9] -> "-" -> strip "-" -> first 40 -> "x" if empty
    slug = stem + "-" + sha256(namespace + "\\0" + key)[:10]

A slug always matches ``[a-z0-9-]{3,51}``: no separator, dot, drive letter or hidden file; never a Windows device
name (the hash suffix is always there); deterministic (no counters, so re-runs and diffs stay stable). The hash
is over the case-preserving key while the stem is lower case, so ``Foo`` and ``foo`` get different slugs that do
not collide on case-insensitive filesystems.

Duplicates are not renamed: two ids with the same ``identity_key`` in one namespace would share a slug, and the
validator reports them (``duplicate-skill-id``) instead of numbering one of them. The renderer anchors a repeated
skill id by the skill's position instead.

Distinct ids may still share a slug (same stem, same 40-bit hash prefix: a birthday search finds such a pair in
seconds). ``unique_slugs`` is the one place every family of pages and anchors gets its slugs: it compares the
final slugs, and every item of a clash gets a longer hash (neither keeps the short one, so no card can take the
slug of one it does not control), widening until all are distinct whatever the hash width.

``plain_slug`` is the same lower-casing without the hash, for names that are unique already (fetched hosts).
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata
from collections.abc import Sequence

from a2a_docgen.text.unicode import strip_invisible

__all__ = [
    "anchor",
    "identity_key",
    "plain_slug",
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


def _stem(key: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", key).encode("ascii", "ignore").decode("ascii")
    return plain_slug(ascii_text)[:_MAX_STEM].rstrip("-") or "x"


@functools.lru_cache(maxsize=65536)
def slug(s: str, namespace: str = "", width: int | None = None) -> str:
    """A file-name-safe, deterministic slug for ``s``, unique within ``namespace`` per ``identity_key`` as far as
    ``width`` hex digits of its hash tell (``unique_slugs`` makes sure).

    Namespace skills by their agent's slug and agents by their card file's key (``CardSource.key``), so equal
    ids in different cards do not collide.
    """
    key = identity_key(s)
    digest = hashlib.sha256(f"{namespace}\0{key}".encode("utf-8", "surrogatepass")).hexdigest()
    return f"{_stem(key)}-{digest[: width or _HASH_CHARS]}"


_WIDTHS = (20, 32, 64)
"""The hash widths a clashing slug is widened to, in turn."""


def unique_slugs(items: Sequence[tuple[str, str]]) -> tuple[list[str], list[tuple[int, ...]]]:
    """``slug(text, namespace)`` for each ``(text, namespace)``, all distinct, and the clashes found: groups of
    indexes that had one slug. Every member of a clash is widened (a longer hash; past the widest, its position
    in the clash), never only one, and the final slugs are compared again until none repeats. Items with the
    same ``identity_key`` and namespace are one thing and keep one slug."""
    identities = [(identity_key(text), namespace) for text, namespace in items]
    widths = [0] * len(items)
    result = [slug(text, namespace) for text, namespace in items]
    clashes: list[tuple[int, ...]] = []
    while True:
        owners: dict[str, dict[tuple[str, str], list[int]]] = {}
        for index, value in enumerate(result):
            owners.setdefault(value, {}).setdefault(identities[index], []).append(index)
        clashing = [groups for groups in owners.values() if len(groups) > 1]
        if not clashing:
            return result, clashes
        for groups in clashing:
            members = sorted(i for group in groups.values() for i in group)
            clashes.append(tuple(members))
            for order, identity in enumerate(sorted(groups)):
                for index in groups[identity]:
                    text, namespace = items[index]
                    if widths[index] < len(_WIDTHS):
                        result[index] = slug(text, namespace, _WIDTHS[widths[index]])
                        widths[index] += 1
                    else:  # a whole SHA-256 alike: told apart by rank (a letter ends it: no page number)
                        result[index] = f"{slug(text, namespace, _WIDTHS[-1])}-{order + 1}x"


def anchor(s: str, namespace: str = "", *, prefix: str = "skill") -> str:
    """An HTML id for ``s``: ``prefix-slug`` (``skill-search-1a2b3c4d5e``), never the raw id.

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
