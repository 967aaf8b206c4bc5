"""A sequence a view holds and a page makes: made the first time it is read, in the process that renders the
page (``render.parallel``), and otherwise the tuple it stands for.

The views of the catalogue are built in the build process before any worker starts; what only one agent's pages
read (its requests, ``calling.DeferredVariants``; its change entries, ``changes.ChangeViews``) is deferred so
the worker rendering those pages makes it. A template, the site's own overrides too, may measure it, index it,
iterate it, compare, hash, join and print it as the tuple.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar, overload

__all__ = ["Deferred"]

T = TypeVar("T")


class Deferred(Sequence[T]):
    """A sequence whose items ``made()`` gives (made once, by the subclass)."""

    __slots__ = ()

    def made(self) -> tuple[T, ...]:
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self.made())

    def __iter__(self) -> Iterator[T]:
        return iter(self.made())

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...
    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        return self.made()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Deferred):
            return self.made() == other.made()
        return self.made() == other

    def __hash__(self) -> int:
        return hash(self.made())

    def __add__(self, other: Sequence[T]) -> tuple[T, ...]:
        return self.made() + tuple(other)

    def __radd__(self, other: Sequence[T]) -> tuple[T, ...]:
        return tuple(other) + self.made()

    def __repr__(self) -> str:
        return repr(self.made())
