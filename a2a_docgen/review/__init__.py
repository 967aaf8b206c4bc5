"""Review a change to Agent Cards: what it breaks for the clients of those agents.

``review_catalogs(base, head, config=...)`` compares two catalogues on the normalised model and returns
classified, located ``Change`` findings (after the configuration's severities and accepted changes, then
the version policy) with the configuration's warnings; ``diff_catalogs`` returns the findings alone.
``a2a_docgen.review.config`` reads ``.a2a-docgen.toml``, ``a2a_docgen.review.formats`` writes reports as
text, JSON, a pull-request comment, GitHub annotations or a changelog (``changelog_markdown``, which takes
findings and returns Markdown, for a site's change history too), ``a2a_docgen.review.compare`` holds the
comparisons, one module per family of codes, and ``a2a_docgen.review.git`` reads the base side from a git
revision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from a2a_docgen.lazy import lazy_attributes
from a2a_docgen.review.config import ReviewConfig, load_config
from a2a_docgen.review.diff import CODES, SEVERITIES, Change, ChangeSeverity, diff_catalogs, review_catalogs

if TYPE_CHECKING:
    from a2a_docgen.review.changelog import changelog_markdown

# The changelog writes Markdown through the renderer's encoders: loaded when asked for, so the differ alone
# (the site's change history reads it) does not import the renderer.
__getattr__ = lazy_attributes(__name__, {"changelog_markdown": "a2a_docgen.review.changelog"})

__all__ = [
    "CODES",
    "SEVERITIES",
    "Change",
    "ChangeSeverity",
    "ReviewConfig",
    "changelog_markdown",
    "diff_catalogs",
    "load_config",
    "review_catalogs",
]
