"""Card text as Markdown that GitHub shows as written: no mention, issue reference or emoji.

``md_inline`` makes card text inert for the Markdown engine: ``@octocat`` becomes ``&#64;octocat``. But
GitHub turns text into mentions, issue references and emoji *after* rendering, on the decoded text, so
``&#64;octocat`` still pings @octocat, ``owner/repo&#35;1`` links an issue and ``&#58;rotating_light&#58;``
is an emoji. ``comment_text`` breaks each such pattern with a zero-width space (``&#8203;``, as
Dependabot and Renovate write mentions in release notes) right after its trigger: the text reads the
same, and nothing in it notifies anyone.
"""

from __future__ import annotations

import re

from a2a_docgen.render.escape import md_inline

__all__ = ["comment_text", "github_inert"]

_BREAK = "&#8203;"

# In md_inline's output a trigger is the character itself or its numeric reference (never inside another
# reference: ``&#35;`` is preceded by ``&``).
_TRIGGERS = re.compile(
    r"(?:&#64;|&#x40;|@)(?=[A-Za-z0-9_])"  # @user, @org/team, an e-mail address's domain
    r"|(?:&#35;|&#x23;|(?<!&)#)(?=[0-9]|&#)"  # #1, owner/repo#1
    r"|(?<![A-Za-z0-9])(?:GH|gh)-(?=[0-9])"  # GH-1
    r"|(?:&#58;|&#x3a;|:)(?=[A-Za-z0-9_+-]+(?::|&#58;|&#x3a;))",  # :emoji:
    re.IGNORECASE,
)


def github_inert(markdown: str) -> str:
    """``markdown`` (made by the ``render.escape`` encoders) with GitHub's text autolinks broken."""
    return _TRIGGERS.sub(lambda m: m.group(0) + _BREAK, markdown)


def comment_text(text: str | None, *, max_len: int = 300) -> str:
    """Card text as one line of inert Markdown that GitHub neither links, mentions nor turns into emoji."""
    return github_inert(md_inline(text, max_len=max_len))
