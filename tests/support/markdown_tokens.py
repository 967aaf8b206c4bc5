"""Check generated Markdown by parsing it, not by grepping strings.

markdown-it-py with the CommonMark preset plus GFM tables (what GitHub shows to reviewers). Raw HTML stays
enabled, so unescaped card text shows up as ``html_inline`` / ``html_block`` tokens.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

__all__ = [
    "fences",
    "front_matter",
    "headings",
    "html_tokens",
    "inline_text",
    "links",
    "parse",
    "table_rows",
    "walk",
]


@cache
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)


def front_matter(md: str) -> str:
    """The YAML front matter of a page (``""`` when it has none): settings for engines, not content."""
    m = _FRONT_MATTER.match(md)
    return m.group(0) if m else ""


def parse(md: str) -> list[Token]:
    """The block-level token stream (inline tokens keep their ``children``) of the page's content: its front
    matter, which GitHub and the site engines read as settings, is left out."""
    return _parser().parse(_FRONT_MATTER.sub("", md, count=1))


def walk(tokens: list[Token]) -> Iterator[Token]:
    """Every token, depth first, children right after their inline parent."""
    for token in tokens:
        yield token
        if token.children:
            yield from walk(token.children)


def html_tokens(md: str) -> list[Token]:
    """All raw HTML tokens (``html_block`` and ``html_inline``)."""
    return [t for t in walk(parse(md)) if t.type in ("html_block", "html_inline")]


def links(md: str) -> list[str]:
    """The href of every link (and the src of every image), in document order."""
    found: list[str] = []
    for token in walk(parse(md)):
        if token.type == "link_open":
            found.append(str(token.attrGet("href")))
        elif token.type == "image":
            found.append(str(token.attrGet("src")))
    return found


def fences(md: str) -> list[tuple[str, str]]:
    """``(info, content)`` of every fenced code block."""
    return [(t.info, t.content) for t in walk(parse(md)) if t.type == "fence"]


def _text_of(inline: Token, *, with_html: bool = True) -> str:
    kinds = ("text", "code_inline", "html_inline") if with_html else ("text", "code_inline")
    parts: list[str] = []
    for child in inline.children or []:
        if child.type in kinds:
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
    return "".join(parts)


def inline_text(md: str, *, with_html: bool = True) -> list[str]:
    """The text of every inline run (paragraph, heading, cell), entities decoded; raw HTML tags are kept as
    written unless ``with_html`` is false; line breaks are ``\n``."""
    return [_text_of(t, with_html=with_html) for t in parse(md) if t.type == "inline"]


def headings(md: str) -> list[tuple[int, str]]:
    """``(level, text)`` of every heading."""
    tokens = parse(md)
    return [
        (int(token.tag[1:]), _text_of(tokens[i + 1]))
        for i, token in enumerate(tokens)
        if token.type == "heading_open"
    ]


def table_rows(md: str) -> list[list[str]]:
    """The cell texts of every table row (header rows included), in document order."""
    rows: list[list[str]] = []
    tokens = parse(md)
    for i, token in enumerate(tokens):
        if token.type == "tr_open":
            rows.append([])
        elif token.type in ("th_open", "td_open"):
            rows[-1].append(_text_of(tokens[i + 1]))
    return rows
