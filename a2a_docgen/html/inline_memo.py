"""markdown-it-py's inline step, remembering the tokens of short inline texts one conversion has parsed before.

Our pages repeat the same short lines many times over (a request's label, ``**Accepts:** `text/plain` (the
card's default)``, a tag's link): a 200-agent catalogue has about six inline texts for each distinct one, and
parsing them is about half of a page's conversion. Inline parsing is a function of the text alone, given the
parser and the page's link reference definitions: a text met again, on a page without definitions, gets
copies of the tokens it got the first time (copies: the page's own steps change its tokens afterwards).

The memo is an ``InlineMemo`` its caller makes for one conversion (a pass over a build's pages) and passes to
each page's ``to_html``; nothing is remembered between conversions, and a forked worker fills its own copy.
Texts longer than ``MAX_TEXT`` (card descriptions, mostly met once) are parsed as usual, and the memo starts
again when it holds ``MAX_TEXTS`` texts, so it stays small. ``tests/test_inline_memo.py`` converts pages both
ways and compares them.
"""

from __future__ import annotations

from markdown_it.rules_core import StateCore
from markdown_it.token import Token

__all__ = ["ENV_KEY", "MAX_TEXT", "MAX_TEXTS", "InlineMemo", "remembered_inline"]

MAX_TEXT = 160
"""The longest inline text remembered, in characters."""
MAX_TEXTS = 8192
"""The most texts remembered at once."""
ENV_KEY = "a2a_docgen_inline_memo"
"""Where a page's markdown-it environment holds the conversion's memo (none: every text is parsed)."""


class InlineMemo:
    """The tokens of the short inline texts of one conversion, by text; lives as long as its caller keeps it."""

    def __init__(self) -> None:
        self._tokens: dict[str, tuple[Token, ...]] = {}

    def __len__(self) -> int:
        return len(self._tokens)

    def __contains__(self, text: object) -> bool:
        return text in self._tokens

    def get(self, text: str) -> list[Token] | None:
        """Copies of the tokens remembered for ``text``, or ``None``."""
        known = self._tokens.get(text)
        return None if known is None else [_copy(child) for child in known]

    def remember(self, text: str, children: list[Token]) -> None:
        """Remember copies of ``text``'s tokens (the memo starts again when full)."""
        if len(self._tokens) >= MAX_TEXTS:
            self._tokens.clear()
        self._tokens[text] = tuple(_copy(child) for child in children)


def remembered_inline(state: StateCore) -> None:
    """The ``inline`` core rule of markdown-it-py, with the conversion's memo where the environment holds one
    (``ENV_KEY``; see the module docstring)."""
    md, env = state.md, state.env
    memo: InlineMemo | None = env.get(ENV_KEY)
    if env.get("references"):  # a definition on the page can turn [text] into a link
        memo = None
    for token in state.tokens:
        if token.type != "inline":
            continue
        if token.children is None:
            token.children = []
        text = token.content
        if memo is None or len(text) > MAX_TEXT:
            md.inline.parse(text, md, env, token.children)
            continue
        known = memo.get(text)
        if known is None:
            md.inline.parse(text, md, env, token.children)
            memo.remember(text, token.children)
        else:
            token.children.extend(known)


def _copy(token: Token) -> Token:
    """A copy of an inline token that shares nothing mutable with it (its attributes and meta)."""
    return Token(
        type=token.type,
        tag=token.tag,
        nesting=token.nesting,
        attrs=dict(token.attrs),
        map=None if token.map is None else list(token.map),
        level=token.level,
        children=None if token.children is None else [_copy(child) for child in token.children],
        content=token.content,
        markup=token.markup,
        info=token.info,
        meta=dict(token.meta),
        block=token.block,
        hidden=token.hidden,
    )
