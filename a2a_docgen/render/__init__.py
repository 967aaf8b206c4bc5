"""Render a catalogue into Markdown pages (no file I/O): ``render_catalog(catalog) -> RenderedSite``.

Site layout (paths relative to the docs root; every link between pages is relative and ends in ``.md``):

- ``index.md``: the agents table, counts, links to the index pages, notices about excluded or broken cards;
- ``agents/<slug>/index.md`` and ``agents/<slug>/card.json`` (the card's source, byte for byte as decoded):
  one page per agent, skills as sections anchored ``#skill-<slug(id)>``; at a name several cards share, a page
  listing them; ``badges/<slug>.json`` per agent. Every address is in one map (``paths.site_map``);
- ``tags/index.md`` and ``tags/<slug>.md``; ``media-types.md`` and ``media-types/<slug>.md``; ``security.md``;
  ``bindings.md``; ``excluded.md`` (always present). Tag and media-type pages list skills one line per agent.

The navigation lists the catalogue pages only, never one entry per agent, so it stays small at any scale.

The names below are imported on first use (``render.catalog`` and what it needs: Jinja2, the worker pool), so
importing one leaf of the package (``render.escape``, the encoders) loads that leaf alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from a2a_docgen.lazy import lazy_attributes

__all__ = [
    "DIALECTS",
    "NAV",
    "Dialect",
    "RenderReuse",
    "RenderedSite",
    "UnescapedOutputError",
    "render_catalog",
]

_EXPORTS = {
    "DIALECTS": "a2a_docgen.render.env",
    "Dialect": "a2a_docgen.render.env",
    "NAV": "a2a_docgen.render.kinds",
    "render_catalog": "a2a_docgen.render.catalog",
    "RenderReuse": "a2a_docgen.render.reuse",
    "RenderedSite": "a2a_docgen.render.site",
    "UnescapedOutputError": "a2a_docgen.render.env",
}

if TYPE_CHECKING:
    from a2a_docgen.render.catalog import render_catalog
    from a2a_docgen.render.env import DIALECTS, Dialect, UnescapedOutputError
    from a2a_docgen.render.kinds import NAV
    from a2a_docgen.render.reuse import RenderReuse
    from a2a_docgen.render.site import RenderedSite


__getattr__ = lazy_attributes(__name__, _EXPORTS)
