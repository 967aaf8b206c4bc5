"""Syntax highlighting for the shell and Python code blocks of our pages, as Pygments would mark them up.

The request tabs of an agent page hold code we generate (``render/snippets.py``): a curl or grpcurl command
with a JSON body, and an a2a-sdk Python program. Zensical and Material highlight such blocks with Pygments;
the plugin's pages get the same look from a scanner of the few token kinds that code has: comments, strings,
numbers, keywords, names and punctuation, with Pygments' short class names (``c1`` comment, ``s1``/``s2``
string, ``sd`` docstring, ``mi``/``mf`` number, ``k``/``kn``/``kc`` keyword, ``nb`` builtin, ``o`` operator,
``p`` punctuation, ``se`` line continuation), which the themes style. It takes a fraction of Pygments' time,
and a catalogue has tens of thousands of these blocks.

Every character of the text is kept, escaped: highlighting is cosmetic and never changes what the block says
(``tests/test_html.py`` checks that stripping the markup gives the text back).
"""

from __future__ import annotations

import functools
import re
from html import escape

__all__ = ["LANGUAGES", "highlight_code"]

_PYTHON_KEYWORDS = (
    *("and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else"),
    *("except", "finally", "for", "global", "if", "in", "is", "lambda", "nonlocal", "not", "or", "pass"),
    *("raise", "return", "try", "while", "with", "yield"),
)
_PYTHON_CONSTANTS = ("None", "True", "False")
_PYTHON_BUILTINS = ("print", "len", "str", "int", "dict", "list", "open", "range")

_PYTHON = re.compile(
    r"(?P<c1>#[^\n]*)"
    r'|(?P<sd>"""(?:[^"\\]|\\.|"(?!""))*"""|\'\'\'(?:[^\'\\]|\\.|\'(?!\'\'))*\'\'\')'
    r'|(?P<s2>[rbfu]{0,2}"(?:[^"\\\n]|\\.)*")'
    r"|(?P<s1>[rbfu]{0,2}'(?:[^'\\\n]|\\.)*')"
    r"|(?P<kn>\b(?:import|from)\b)"
    r"|(?P<kc>\b(?:" + "|".join(_PYTHON_CONSTANTS) + r")\b)"
    r"|(?P<k>\b(?:" + "|".join(_PYTHON_KEYWORDS) + r")\b)"
    r"|(?P<nb>\b(?:" + "|".join(_PYTHON_BUILTINS) + r")\b(?=\())"
    r"|(?P<mf>\b[0-9]+\.[0-9]+\b)"
    r"|(?P<mi>\b[0-9]+\b)"
    r"|(?P<n>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<o>[=+\-*/%<>!]=?|->)"
    r"|(?P<p>[()\[\]{},:.;@])"
    r"|(?P<text>\s+|.)",
    re.DOTALL,
)

_SHELL = re.compile(
    r"(?P<c1>(?<![^\s])#[^\n]*)"
    r"|(?P<s1>'[^']*')"
    r'|(?P<s2>"(?:[^"\\]|\\.)*")'
    r"|(?P<se>\\(?=\n|\Z))"
    r"|(?P<o><<-?|[|&;<>]+)"
    r"|(?P<text>\s+|[^\s'\"\\|&;<>#]+|.)",
    re.DOTALL,
)

LANGUAGES: dict[str, re.Pattern[str]] = {"python": _PYTHON, "sh": _SHELL}
"""The fence languages this module highlights, and their scanners."""


def highlight_code(text: str, language: str) -> str | None:
    """``text`` as HTML with Pygments' token classes, or ``None`` for a language it does not know.

    Line by line, each line's markup cached: the programs of a catalogue share most of their lines (imports,
    the client's set-up), so a build scans each distinct line once. No token of our code spans lines but a
    Python triple-quoted string, and a block that has one is scanned whole."""
    if language not in LANGUAGES:
        return None
    if language == "python" and ('"""' in text or "'''" in text):
        return _highlight(text, language)
    return "\n".join([_highlight(line, language) for line in text.split("\n")])


@functools.lru_cache(maxsize=65536)
def _highlight(text: str, language: str) -> str:
    out: list[str] = []
    for m in LANGUAGES[language].finditer(text):
        kind = m.lastgroup
        value = escape(m.group(0), quote=False)
        if kind in (None, "text", "n"):
            out.append(value)
        else:
            out.append(f'<span class="{kind}">{value}</span>')
    return "".join(out)
