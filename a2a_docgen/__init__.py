"""a2a-docgen: static documentation sites for A2A Agent Cards.

The flow is load -> model -> render -> site, with diff beside it::

    from a2a_docgen import load_catalog
    catalog = load_catalog(["cards/"])
    for diagnostic in catalog.diagnostics: ...
"""

from __future__ import annotations

__version__ = "0.1.0"
