"""markdown-it-py's inline step, remembering the tokens of short inline texts it has parsed before.

Our pages repeat the same short lines many times over (a request's label, ``**Accepts:** `text/plain` (the
card's default)``, a tag's link): a 200-agent catalogue has about six inline texts for each distinct one, and
parsing them is about half of a page's conversion. Inline parsing is a function of the text alone, given the
parser and the page's link reference definitions: a text met again, on a page without definitions, gets
copies of the tokens it got the first time (copies: the page's own steps change its tokens afterwards).
Texts longer than ``MAX_TEXT`` (card descriptions, mostly met once) are parsed as usual, and the memo starts
again when it holds ``MAX_TEXTS`` texts, so it stays small in every conversion worker.
``tests/test_inline_memo.py`` converts pages both ways and compares them.
"""

from __future__ import annotations

from markdown_it.rules_core import StateCore
from markdown_it.token import Token

__all__ = ["MAX_TEXT", "MAX_TEXTS", "remembered_inline"]

MAX_TEXT = 160
"""The longest inline text remembered, in characters."""
MAX_TEXTS = 8192
"""The most texts remembered at once."""

_MEMO: dict[str, tuple[Token, ...]] = {}


def remembered_inline(state: StateCore) -> None:
    """The ``inline`` core rule of markdown-it-py, with the memo (see the module docstring)."""
    md, env = state.md, state.env
    remember = not env.get("references")  # a definition on the page can turn [text] into a link
    for token in state.tokens:
        if token.type != "inline":
            continue
        if token.children is None:
            token.children = []
        text = token.content
        if not remember or len(text) > MAX_TEXT:
            md.inline.parse(text, md, env, token.children)
            continue
        known = _MEMO.get(text)
        if known is not None:
            token.children.extend(_copy(child) for child in known)
            continue
        md.inline.parse(text, md, env, token.children)
        if len(_MEMO) >= MAX_TEXTS:
            _MEMO.clear()
        _MEMO[text] = tuple(_copy(child) for child in token.children)


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


def clear() -> None:
    """Forget every text (for tests that compare conversions with and without the memo)."""
    _MEMO.clear()
