"""A block rule for the lists and one-line paragraphs our templates write, making the tokens markdown-it-py's
own rules make for them.

Our pages are full of short bullet lists: facts (``- **Version:** `1.2`  ``), quality findings, the changes of
an agent (an entry per line, its findings nested under it), tag and skill links. markdown-it-py's list rule
parses each item as a small document of its own (every block rule tried on every line, twice for the lines
that end a paragraph), which made lists half of an agent page's block parse and most of a history page's.
And a request's label (``**JSON-RPC v1.0 · curl**``), one of about 70 on an agent page, goes through every
block rule, the setext heading's included, before the paragraph rule takes it.

This rule takes two shapes only, where the tokens follow from the lines alone. A list:

- every item is one line, ``- `` then text that cannot open a block of its own (it starts with a letter, a
  digit that is not an ordered list's number, ``**`` and a character, one backtick and a character, or a ``[``
  that starts no link reference definition), at the left margin;
- an item may have a nested list of such items, every nested item of the list indented the same 2 to 5 spaces;
- no tab, no blank line inside; after it a blank line or the end, and then no line that could carry the list
  on (one that starts with ``-`` or is indented).

And a paragraph of one line of such text, at the left margin, with a blank line or the end after it.

Anything else (a list in a quote or in another list, a loose list, a list running into a paragraph) is left to
markdown-it-py's rules. The tokens are the ones its rules make, attribute for attribute (source maps, levels,
hidden paragraphs): ``tests/test_simple_blocks.py`` compares them on every corpus and on fuzzed Markdown.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it.common import utils
from markdown_it.rules_block import StateBlock

__all__ = ["simple_block"]

# How the paragraph rule trims a paragraph's text: markdown-it-py 4 trims CommonMark's whitespace, 3 Python's.
_trim: Callable[[str], str] = getattr(utils, "mdTrim", str.strip)

# The text of a line this rule takes (after "- " in a list): nothing a block rule could open a block with.
_PLAIN_START = re.compile(r"[A-Za-z]|\*\*[^\s*]|`[^`]|\[(?!.*\]:)|[0-9](?![0-9]{0,8}[.)])")
_NESTED = re.compile(r" {2,5}- ")


def simple_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """markdown-it-py block rule (before ``table``): a list or a paragraph of the shapes above, or ``False`` for
    markdown-it-py's own rules to parse."""
    if silent or state.level or state.blkIndent or state.listIndent != -1:
        return False  # not at the top of the page (in a quote or a list: level; parentType is unreliable)
    if state.md.options.get("tasklists", False):
        return False  # an item's "[x] " would be a checkbox (our profile has none)
    src = state.src
    first = src[state.bMarks[start] : state.eMarks[start]]
    if first.startswith("- "):
        return _list(state, start, end)
    if _PLAIN_START.match(first) and "\t" not in first and (start + 1 >= end or state.isEmpty(start + 1)):
        _paragraph(state, start, 0, hidden=False)
        state.line = start + 1
        return True
    return False


def _list(state: StateBlock, start: int, end: int) -> bool:
    src = state.src
    items: list[tuple[int, list[int]]] = []
    indent = 0  # of the nested items
    line = start
    while line < end:
        text = src[state.bMarks[line] : state.eMarks[line]]
        if "\t" in text:
            return False
        if text.startswith("- "):
            if not _PLAIN_START.match(text, 2):
                return False
            items.append((line, []))
        elif items and (nested := _NESTED.match(text)) is not None:
            if indent and nested.end() - 2 != indent:
                return False
            indent = nested.end() - 2
            if not _PLAIN_START.match(text, indent + 2):
                return False
            items[-1][1].append(line)
        else:
            break
        line += 1
    if not items or (line < end and not state.isEmpty(line)):
        return False
    after = state.skipEmptyLines(line)
    if after < end and (state.sCount[after] != 0 or src[state.bMarks[after]] == "-"):
        return False  # it might continue the list or its last item
    _push(state, items, indent, after)
    state.line = after
    return True


def _push(state: StateBlock, items: list[tuple[int, list[int]]], indent: int, after: int) -> None:
    """The tokens markdown-it-py's list rule makes for ``items`` (a tight list, so its paragraphs are hidden)."""
    _open(state, "bullet_list_open", "ul", [items[0][0], after])
    for index, (line, nested) in enumerate(items):
        item_end = items[index + 1][0] if index + 1 < len(items) else after
        _open(state, "list_item_open", "li", [line, item_end])
        _paragraph(state, line, 2)
        if nested:
            _open(state, "bullet_list_open", "ul", [nested[0], item_end])
            for position, inner in enumerate(nested):
                inner_end = nested[position + 1] if position + 1 < len(nested) else item_end
                _open(state, "list_item_open", "li", [inner, inner_end])
                _paragraph(state, inner, indent + 2)
                _close(state, "list_item_close", "li")
            _close(state, "bullet_list_close", "ul")
        _close(state, "list_item_close", "li")
    _close(state, "bullet_list_close", "ul")


def _open(state: StateBlock, kind: str, tag: str, lines: list[int]) -> None:
    token = state.push(kind, tag, 1)
    token.map = lines
    token.markup = "-"


def _close(state: StateBlock, kind: str, tag: str) -> None:
    state.push(kind, tag, -1).markup = "-"


def _paragraph(state: StateBlock, line: int, column: int, *, hidden: bool = True) -> None:
    """A paragraph of one line, its text from ``column`` on; ``hidden``: a tight list item's."""
    token = state.push("paragraph_open", "p", 1)
    token.map = [line, line + 1]
    token.hidden = hidden
    token = state.push("inline", "", 0)
    token.content = _trim(state.src[state.bMarks[line] + column : state.eMarks[line]])
    token.map = [line, line + 1]
    token.children = []
    state.push("paragraph_close", "p", -1).hidden = hidden
