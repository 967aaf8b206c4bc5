"""a2a-docgen: static documentation sites for A2A Agent Cards.

The flow is load -> model -> render -> site, with diff beside it::

    from a2a_docgen import load_catalog, render_catalog, diff_catalogs

    catalog = load_catalog(["cards/"])
    for diagnostic in catalog.diagnostics:
        print(diagnostic.file, diagnostic.line, diagnostic.code, diagnostic.message)
    site = render_catalog(catalog)          # {path: markdown}, no file I/O
    changes = diff_catalogs(load_catalog(["old/"]), catalog)

The names below are imported on first use, so ``a2a-docgen --help`` stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from a2a_docgen.lazy import lazy_attributes
from a2a_docgen.version import __version__

_EXPORTS = {
    "load_catalog": "a2a_docgen.catalog",
    "render_catalog": "a2a_docgen.render",
    "write_site": "a2a_docgen.site.writer",
    "diff_catalogs": "a2a_docgen.review.diff",
    "Change": "a2a_docgen.review.diff",
    "fetch_card": "a2a_docgen.fetch",
    "Limits": "a2a_docgen.limits",
    "A2ADocgenError": "a2a_docgen.errors",
    "Catalog": "a2a_docgen.model",
    "AgentCard": "a2a_docgen.model",
    "AgentSkill": "a2a_docgen.model",
    "Diagnostic": "a2a_docgen.model",
    "RenderedSite": "a2a_docgen.render.site",
}

__all__ = [
    "A2ADocgenError",
    "AgentCard",
    "AgentSkill",
    "Catalog",
    "Change",
    "Diagnostic",
    "Limits",
    "RenderedSite",
    "__version__",
    "diff_catalogs",
    "fetch_card",
    "load_catalog",
    "render_catalog",
    "write_site",
]

if TYPE_CHECKING:
    from a2a_docgen.catalog import load_catalog
    from a2a_docgen.errors import A2ADocgenError
    from a2a_docgen.fetch import fetch_card
    from a2a_docgen.limits import Limits
    from a2a_docgen.model import AgentCard, AgentSkill, Catalog, Diagnostic
    from a2a_docgen.render import render_catalog
    from a2a_docgen.render.site import RenderedSite
    from a2a_docgen.review.diff import Change, diff_catalogs
    from a2a_docgen.site.writer import write_site


__getattr__ = lazy_attributes(__name__, _EXPORTS)
