"""Review a change to Agent Cards: what it breaks for the clients of those agents.

``diff_catalogs(base, head)`` compares two catalogues on the normalised model and returns classified,
located ``Change`` findings; ``a2a_docgen.review.formats`` writes them as text, JSON, a pull-request
comment or GitHub annotations, and ``a2a_docgen.review.git`` reads the base side from a git revision.
"""

from __future__ import annotations

from a2a_docgen.review.diff import CODES, SEVERITIES, Change, ChangeSeverity, diff_catalogs

__all__ = ["CODES", "SEVERITIES", "Change", "ChangeSeverity", "diff_catalogs"]
