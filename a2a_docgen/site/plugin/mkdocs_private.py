"""Every use of MkDocs' and mkdocs-material's private names and internals: the one module that touches them.

The plugin hands MkDocs a page it converted itself, which MkDocs has no public API for. Each touch is a function
named for what it does; docs/architecture.md ("MkDocs' private names") says which hook relies on which.
``tests/test_mkdocs_private.py`` checks each against the versions the project pins (MkDocs 1.6.1, Material
9.8.2) and fails by name when one changes; ``tests/test_layers.py`` checks that no other module touches them.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any, Literal

import jinja2
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import TableOfContents, get_toc

from a2a_docgen.html import Heading

__all__ = [
    "SearchRecord",
    "add_template",
    "cache_theme_code",
    "resolve_links",
    "seal",
    "take_over_index",
    "title_set",
    "toc",
]

Render = Callable[[MkDocsConfig, Files], None]
SearchRecord = tuple[str, str, str, tuple[str, ...]]
"""One search entry as MkDocs' and Material's indexes take it: location, title, text, tags (plain text)."""
_MARK = "a2a_docgen"


def seal(page: Page, render: Render) -> None:
    """MkDocs calls ``render`` for ``page`` instead of converting its Markdown (``_populate_page`` calls
    ``page.render(config, files)``); ``render`` sets ``page.content`` itself."""
    page.render = render  # type: ignore[method-assign,assignment]


def title_set(page: Page) -> bool:
    """Whether the page has a title from before its Markdown is read (the nav's, a plugin's): ``Page.title`` is
    a ``weak_property`` whose value, once set, lives in the instance's ``__dict__``."""
    return "title" in vars(page)


def resolve_links(
    links: Sequence[str], page: Page, files: Files, config: MkDocsConfig
) -> tuple[dict[str, str], dict[File, dict[str, str]]]:
    """The URL MkDocs makes of each link of ``page`` (validating it: a missing page or anchor is logged as it
    logs any page's), and the links to anchors it found, by MkDocs' own link rewriting."""
    from mkdocs.structure.pages import _RelativePathTreeprocessor

    resolver = _RelativePathTreeprocessor(page.file, files, config)
    urls = {link: resolver.path_to_url(link) for link in dict.fromkeys(links)}
    return urls, resolver.links_to_anchors


def toc(headings: Sequence[Heading]) -> TableOfContents:
    """Our headings as MkDocs' table of contents (``get_toc`` takes ``_TocToken``s, a private ``TypedDict``)."""
    return get_toc([_toc_token(heading) for heading in headings])  # type: ignore[misc]


def _toc_token(heading: Heading) -> dict[str, Any]:
    return {
        "level": heading.level,
        "id": heading.id,
        "name": html.escape(heading.text, quote=False),
        "children": [_toc_token(child) for child in heading.children],
    }


def take_over_index(plugin: object, records_for: Callable[[Page], Sequence[SearchRecord] | None]) -> None:
    """Have a search plugin's index take ``records_for(page)`` for a page instead of parsing its HTML (``None``:
    a page of the site's own, parsed as usual). Both MkDocs' ``search`` and mkdocs-material's index a page
    through ``search_index.add_entry_from_context`` (a new index each build); MkDocs' adds an entry with
    ``_add_entry(title=, text=, loc=)``, Material keeps its entries in the list ``entries`` and reads titles,
    text and tags as HTML, so they are escaped for it. Other search plugins are left alone."""
    index = getattr(plugin, "search_index", None)
    original = getattr(index, "add_entry_from_context", None)
    if index is None or original is None or getattr(original, _MARK, False):
        return
    kind: Literal["material", "mkdocs"]
    if isinstance(getattr(index, "entries", None), list):
        kind = "material"
    elif callable(getattr(index, "_add_entry", None)):
        kind = "mkdocs"
    else:
        return

    def add_entry_from_context(page: Page) -> None:
        records = records_for(page)
        if records is None:
            original(page)
            return
        for location, title, text, tags in records:
            if kind == "mkdocs":
                index._add_entry(title=title, text=text, loc=location)
                continue
            record: dict[str, Any] = {
                "location": location,
                "title": html.escape(title, quote=False),
                "text": html.escape(text, quote=False),
            }
            if tags:  # Material appends every string of a result with innerHTML, tags included
                record["tags"] = [html.escape(tag, quote=False) for tag in tags]
            index.entries.append(record)

    setattr(add_entry_from_context, _MARK, True)
    index.add_entry_from_context = add_entry_from_context


def add_template(env: jinja2.Environment, name: str, source: str) -> None:
    """The theme's environment finds the template ``name`` (``source``) before the theme's own: a loader put
    in front of the one MkDocs gave it (once per environment; MkDocs makes one per build)."""
    loader = env.loader
    if loader is None or getattr(loader, _MARK, False):
        return
    env.loader = jinja2.ChoiceLoader([jinja2.DictLoader({name: source}), loader])
    setattr(env.loader, _MARK, True)


def cache_theme_code(env: jinja2.Environment, cache: jinja2.BytecodeCache) -> bool:
    """The theme's environment keeps its compiled templates in ``cache``, unless it already has a cache of its
    own (then ``False``)."""
    if env.bytecode_cache is not None:
        return False
    env.bytecode_cache = cache
    return True
