"""Syntax highlighting for the JSON code blocks of our pages, as Pygments would mark them up.

Every JSON block of a catalogue page is pretty-printed JSON that we wrote (examples, request bodies), so a
scanner of JSON tokens is all it takes: strings (a string followed by ``:`` is a key), numbers, ``true``,
``false``, ``null``, and punctuation. The classes are Pygments' short names, which the themes style
(mkdocs-material through its ``.highlight`` rules): ``nt`` key, ``s2`` string, ``mi``/``mf`` integer/float,
``kc`` constant, ``p`` punctuation. Whitespace stays unmarked. Pygments itself takes about ten times as long
on the same text, and a catalogue has tens of thousands of these blocks.

Text that is not JSON after all (a template override may put anything in a ``json`` fence) is returned
escaped, unmarked: highlighting is cosmetic and never changes what the block says.
"""

from __future__ import annotations

import functools
import re
from html import escape

__all__ = ["highlight_json"]

_TOKEN = re.compile(
    r"""(?P<string>"(?:[^"\\]|\\.)*")(?P<key>\s*:)?"""
    r"""|(?P<number>-?(?:0|[1-9][0-9]*)(?P<fraction>(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?))"""
    r"""|(?P<constant>true|false|null)"""
    r"""|(?P<punctuation>[{}\[\],:]+)"""
    r"""|(?P<space>\s+)""",
    re.DOTALL,
)


def highlight_json(text: str) -> str:
    """``text`` (JSON) as HTML with Pygments' token classes; escaped, unmarked text when it does not scan."""
    return _highlight(text)


@functools.lru_cache(maxsize=4096)
def _highlight(text: str) -> str:
    out: list[str] = []
    pos = 0
    end = len(text)
    while pos < end:
        m = _TOKEN.match(text, pos)
        if m is None:
            return escape(text, quote=False)
        kind = m.lastgroup
        if m.group("string") is not None:
            value = escape(m.group("string"), quote=False)
            key = m.group("key")
            if key is not None:
                out.append(f'<span class="nt">{value}</span>')
                spaces = key[:-1]
                out.append(f'{spaces}<span class="p">:</span>')
            else:
                out.append(f'<span class="s2">{value}</span>')
        elif m.group("number") is not None:
            cls = "mf" if m.group("fraction") else "mi"
            out.append(f'<span class="{cls}">{m.group("number")}</span>')
        elif kind == "constant":
            out.append(f'<span class="kc">{m.group(kind)}</span>')
        elif kind == "punctuation":
            out.append(f'<span class="p">{m.group(kind)}</span>')
        else:
            out.append(m.group(0))
        pos = m.end()
    return "".join(out)
