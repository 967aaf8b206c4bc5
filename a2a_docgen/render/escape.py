"""Card text as readable, inert Markdown: each character is encoded only where it would start syntax.

Our pages are read by people (as source, in pull requests) and by engines: with the MkDocs plugin, by our own
fixed profile (``a2a_docgen.html``); without it, by GitHub (CommonMark + GFM), by Python-Markdown with MkDocs'
defaults and the pymdownx suite (Zensical's default profile is a subset of it), with mkdocs-macros switched off
by each page's front matter. So a character is written as a character reference (``&lt;``, ``&#42;``) only
where it could start a construct of one of those engines. Everything else, and all of our own words, stays
literal: ``3.4.0``, ``text/plain``, ``customs:file`` and ``Pre-Arrival`` read as they are.

The rules, for text outside code spans (each encoder says where it is used):

- always encoded: ``<`` (HTML, autolinks, the snippets marker ``--8<--``), ``` ` ``` (code), ``*``,
  ``[`` and ``]`` (links, footnotes, task lists, ``[TOC]``), ``{`` (attribute lists, critic marks, includes,
  template expressions), ``|`` (tables), ``\\`` (escapes; pymdownx.escapeall makes any character after it
  an escape);
- ``&`` before something that reads as a reference (``&amp;``, ``&#60;``);
- ``_`` unless between two letters or digits (``snake_case`` stays: no engine reads emphasis inside a word);
- ``~``, ``^`` and ``$`` when the text holds two or more of them (strikethrough, sub- and superscript, math);
  ``==``, ``++`` (mark, keys) and the smartsymbols ``-->``, ``(c)``, ``(tm)``, ``(r)``, ``c/o``, ``+/-``,
  ``=/=`` and fractions such as ``1/2``;
- ``:`` that opens an emoji shortcode (``:smile:``); the ``.`` of a ``www.`` that is not part of a URL; ``#``, ``!`` and ``?`` before a digit and ``@`` before
  a name (pymdownx.magiclink's shorthand references and its e-mail links: ``ops&#64;example.com``), and the first character of a 40-digit commit hash;
- at the start of a line (and of a list item or table cell): punctuation that starts a block in some engine
  (``# > - + * = _ ~ | : ! ? [ / $``), and the ``.`` or ``)`` of a list marker (``1.``, ``a)``, ``iv.``); lines
  never start with spaces;
- a heading's trailing ``#`` (Python-Markdown strips it).

URLs in text (``https://…``, ``www.…``) become code spans, so no engine links them and they stay literal.
Code-like values (ids, media types, scopes, header names, versions) are backtick code spans wherever their text
allows; one that holds a backtick, a ``|`` or a critic, include or template opener is written as ``<code>``
with its punctuation encoded, which every engine shows the same.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Sequence
from urllib.parse import urlsplit

from a2a_docgen.model import JSONValue
from a2a_docgen.text.jsonio import pretty_json
from a2a_docgen.text.preprocessor import OPENER, preprocessor_syntax
from a2a_docgen.text.unicode import clean_text, one_line, require_str
from a2a_docgen.text.urls import safe_url

__all__ = [
    "EMPTY",
    "FILTERS",
    "LEFT_OUT",
    "LINE_BREAK",
    "code_safe",
    "json_fence",
    "json_text",
    "md_code",
    "md_fence",
    "md_heading",
    "md_inline",
    "md_link",
    "md_link_text",
    "md_table_row",
    "md_text",
    "md_title",
    "md_url",
]

EMPTY = "\u2014"
"""What an encoder returns for empty text (an em dash): a table cell or heading is never blank."""

LINE_BREAK = "<br>"
"""The hard line break inside a paragraph of ``md_text`` (two trailing spaces would not survive editors)."""

_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_NAMED = {"<": "&lt;", "&": "&amp;"}
_ALWAYS = frozenset("<`*[]{|\\~^$")
_CANDIDATE = re.compile(
    r"[!#$&(*+\-/:<=?@\[\\\]^_`{|}~]|(?<=[wW]{3})\.|(?<![0-9a-fA-F])[0-9a-f](?=[0-9a-f]{39}(?![0-9a-fA-F]))"
)
# What makes an "&" a character reference: a name and ";", or any "#": Python-Markdown reads a numeric
# reference without its ";" ("&#x09"), and an "&#" that starts none can swallow the text after it
_ENTITY_AFTER = re.compile(r"#|[A-Za-z][A-Za-z0-9]*;")
_EMOJI_AFTER = re.compile(r"[A-Za-z0-9_+\-]+:")
_SMART_WORDS = re.compile(r"(?i)(?:c|r|tm)(?=\)|$)")
_SMART_PARENS = ("(c)", "(r)", "(tm)")
_SMART_OPENINGS = frozenset({"(c", "(r", "(tm"})
_FRACTIONS = frozenset(
    ["1/4", "1/2", "3/4", "1/3", "2/3", "1/5", "2/5", "3/5", "4/5", "1/6", "5/6", "1/8", "3/8", "5/8", "7/8"]
)
_LIST_MARKER = re.compile(r"(?:[0-9]{1,9}|[A-Za-z]|[ivxlcdm]+|[IVXLCDM]+)[.)](?=[ \t]|$)")
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]{0,31}://[^\s<>]+|(?<![\w@.])www\.[^\s<>]+|xmpp:[^\s<>]+")
_URL_TRAILING = ".,:;!?*_~'\""
_BREAK_AUTOLINK = re.compile(r":(?=//)|(?<=^xmpp):|(?<=[wW]{3})\.")


def _ref(ch: str) -> str:
    return _NAMED.get(ch) or f"&#{ord(ch)};"


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _encode_char(text: str, i: int) -> bool:
    """Whether ``text[i]`` (a candidate character) must be encoded, away from the start of a line."""
    ch = text[i]
    before = text[i - 1] if i else ""
    after = text[i + 1 : i + 2]
    if ch in _ALWAYS:
        return True
    if ch == "&":
        return _ENTITY_AFTER.match(text, i + 1) is not None
    if ch == "_":
        return not (before.isalnum() and after.isalnum())
    if ch == "=":
        return before == "=" or after == "=" or text.startswith("/=", i + 1)
    if ch == "+":
        return before == "+" or after == "+" or text.startswith("/-", i + 1)
    if ch == "-":
        return text.startswith("->", i + 1)
    if ch == "(":  # "(c)", or a "(c" at the end that a ")" of ours would complete
        rest = text[i : i + 4].lower()
        return rest.startswith(_SMART_PARENS) or rest in _SMART_OPENINGS
    if ch == "/":
        if before in "cC" and after in "oO":
            # smartsymbols' \bc/o\b: a letter or digit beside it keeps it plain; an "_" does not, since ours
            # is encoded there and an encoded character reads as a word's end
            return not (text[i - 2 : i - 1].isalnum() or text[i + 2 : i + 3].isalnum())
        if before.isdigit() and after.isdigit():  # smartsymbols: a fraction not inside a longer number
            edges = text[i - 2 : i - 1] + text[i + 2 : i + 3]
            return text[i - 1 : i + 2] in _FRACTIONS and not any(e.isdigit() for e in edges)
        return False
    if ch == ":":
        return _EMOJI_AFTER.match(text, i + 1) is not None
    if ch in "#!?":
        return after.isdigit()
    if ch == ".":  # "www." that is not a whole URL (those become code): still an autolink for some engines
        # after a letter or digit only: GitHub links a "www." after "_" (one of GFM's delimiters) too
        return not text[i - 4 : i - 3].isalnum()
    if ch == "@":  # a mention, or an e-mail address that magiclink (Zensical's default profile) would link
        return _is_word(after)
    # The first digit of a 40-hex-digit run: a commit that magiclink would link.
    return ch.isalnum()


def _encode_run(text: str, following: str = "") -> str:
    """``text`` (no URL in it) with its candidate characters encoded where ``_encode_char`` says, judged with
    the ``following`` text of the line in view: a character reference may straddle the end of ``text`` (a
    URL's ``&#x202e`` before the ``;`` cut off it), and the page would decode it."""
    out: list[str] = []
    last = 0
    context = text + following if following else text
    for m in _CANDIDATE.finditer(text):
        i = m.start()
        if _encode_char(context, i):
            out.append(text[last:i])
            out.append(_ref(text[i]))
            last = i + 1
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


_LOOKAHEAD = 64
"""How far past a fragment ``_encode_run`` looks for the end of a character reference (the longest is shorter)."""


def _split_url(m: re.Match[str]) -> str:
    """A URL found in text, without the sentence punctuation after it (which GFM keeps out of links too)."""
    url = m.group(0)
    # One pass from the end, the parentheses counted once: linear whatever the URL's shape.
    opened, closed = url.count("("), url.count(")")
    end = len(url)
    while end and (url[end - 1] in _URL_TRAILING or (url[end - 1] == ")" and opened < closed)):
        closed -= url[end - 1] == ")"
        end -= 1
    return url[:end]


def _encode_line(line: str, *, line_start: bool) -> str:
    """One line of text (whitespace already collapsed) as inert Markdown: URLs as code spans, the rest
    through ``_encode_run``."""
    parts: list[str] = []
    pos = 0
    for m in _URL.finditer(line):
        url = _split_url(m)
        end = m.start() + len(url)
        parts.append(_encode_run(line[pos : m.start()], line[m.start() : m.start() + _LOOKAHEAD]))
        if code_safe(url):
            parts.append(f"`{url}`")
        else:  # no code span can hold it: break every autolink in it at its scheme separator or "www."
            encoded = _encode_run(url, line[end : end + _LOOKAHEAD])
            parts.append(_BREAK_AUTOLINK.sub(lambda b: _ref(b.group(0)), encoded))
        pos = end
    if pos:
        parts.append(_encode_run(line[pos:]))
        encoded = "".join(parts)
    else:
        encoded = _encode_run(line)
    encoded = _guard_smart_word(line, encoded)
    return _guard_line_start(encoded) if line_start else encoded


def _guard_smart_word(line: str, encoded: str) -> str:
    """A fragment that is ``c``, ``r`` or ``tm``, or starts with one and ``)``, could complete a smartsymbols
    ``(c)`` with a parenthesis of ours before it: its letter or parenthesis is encoded."""
    m = _SMART_WORDS.match(line)
    if m is None:
        return encoded
    at = 0 if m.end() == len(line) else m.end()
    return encoded[:at] + _ref(encoded[at]) + encoded[at + 1 :]


_OUR_REFERENCE = re.compile(r"&(?:lt|amp|#[0-9]+);")
# The characters that can start a block in some engine: headings, quotes, lists, rules, setext underlines,
# fences, HTML, tables, definitions, admonitions, details, reference definitions, blocks, math, attributes.
_BLOCK_STARTS = frozenset("#>-+*=_`~<|:!?[/$\\{")


def _guard_line_start(encoded: str) -> str:
    """The line (already encoded) with what could start a block encoded: punctuation first, or the dot or
    parenthesis of a list marker."""
    if not encoded:
        return encoded
    first = encoded[0]
    if first in _BLOCK_STARTS and first != "`" and not _OUR_REFERENCE.match(encoded):
        return _ref(first) + encoded[1:]
    m = _LIST_MARKER.match(encoded)
    if m is not None:
        end = m.end() - 1
        return encoded[:end] + _ref(encoded[end]) + encoded[end + 1 :]
    return encoded


def md_inline(s: str | None, *, max_len: int = 300) -> str:
    """One line of text (a name, a tag, a label, link text, a table cell) as inert Markdown; ``EMPTY`` (—)
    for ``None`` or blank text. It may start a line or a list item."""
    if s is None:
        return EMPTY
    return _md_inline(require_str(s), max_len)


@functools.lru_cache(maxsize=16384)
def _md_inline(s: str, max_len: int) -> str:
    text = one_line(s, max_len)
    if not text:
        return EMPTY
    return _encode_line(text, line_start=True)


_TITLE_LOOKALIKES = str.maketrans({"<": "\u2039", ">": "\u203a"})
_TRAILING_HASHES = re.compile(r"#+$")


def md_title(s: str | None, *, max_len: int = 120) -> str:
    """Heading and page-title text: ``md_inline`` after ``<`` → ``‹`` and ``>`` → ``›`` (mkdocs-material
    decodes a title's references into ``<title>``), with a trailing ``#`` encoded."""
    if s is None:
        return EMPTY
    encoded = md_inline(require_str(s).translate(_TITLE_LOOKALIKES), max_len=max_len)
    return _TRAILING_HASHES.sub(lambda m: "&#35;" * len(m.group(0)), encoded)


# Ids the themes a site may use give their own elements (MkDocs, ReadTheDocs, mkdocs-material), which a
# heading must never take: a duplicate id breaks the theme's script (DOM clobbering). Material's all start
# with "__", covered by the "_" prefix.
THEME_IDS = frozenset(
    {
        "404-page-not-found",
        "content",
        "content_search",
        "hljs-dark",
        "hljs-light",
        "main-content",
        "navbar-collapse",
        "search",
        "theme-menu",
        "toc-collapse",
        "top",
    }
)
OWN_IDS = frozenset(
    {"agents", "card-quality", "changes", "details", "extended-card", "problems", "requests", "signatures"}
)
"""The explicit heading ids our templates give (``heading_id`` takes no other, besides skill anchors), so no
heading of card text takes one; the home page's script hooks onto ``agents``."""
_THEME_ID_PREFIXES = ("_", "mkdocs", "skill-", "a2a-")
"""Ids starting so are a theme's, or ours (skill anchors, our classes and scripts)."""
_TOC_DROPPED = re.compile(r"[^\w\s-]")
_TOC_SEPARATORS = re.compile(r"[-\s]+")


def toc_id(text: str) -> str:
    """The id Python-Markdown's toc extension gives a heading showing ``text`` (its default ``slugify``,
    without the ``_1`` it appends to a repeated id): ASCII letters, digits, ``_`` and ``-``, lower case."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _TOC_SEPARATORS.sub("-", _TOC_DROPPED.sub("", ascii_text).strip().lower())


def clobbers_theme(heading_id: str) -> bool:
    """Whether a heading id could equal an element id of a theme or one of ours (or is empty): card text never
    reaches an id our templates, scripts or anchors use."""
    return (
        not heading_id
        or heading_id in THEME_IDS
        or heading_id in OWN_IDS
        or heading_id.startswith(_THEME_ID_PREFIXES)
    )


def md_heading(s: str | None, label: str, *, always: bool = False, max_len: int = 120) -> str:
    """Heading text from a card: ``md_title(s)``, after ``label: `` when ``always`` or when the id an engine
    would derive from the text alone could clobber a theme's element (``__config``, ``search``). ``label``
    is our own word (``Agent``), so the labelled heading's id starts with it."""
    import html

    if clobbers_theme(toc_id(label)) or not label.replace(" ", "").isalpha():
        raise ValueError(f"a heading label must be plain words whose id is safe: {label!r}")
    title = md_title(s, max_len=max_len)
    if not always and not clobbers_theme(toc_id(html.unescape(title))):
        return title
    return f"{label}: {title}"


def md_text(s: str | None, *, max_len: int = 20_000) -> str:
    """Prose (descriptions) as inert, readable paragraphs: blank lines separate paragraphs, a single newline
    is a hard line break (``<br>`` at the end of the line), every line is stripped and starts nothing."""
    if s is None:
        return EMPTY
    text = clean_text(require_str(s), keep_newlines=True, max_len=max_len)
    paragraphs: list[list[str]] = [[]]
    for raw_line in text.split("\n"):
        line = " ".join(raw_line.split())
        if line:
            paragraphs[-1].append(_encode_line(line, line_start=True))
        elif paragraphs[-1]:
            paragraphs.append([])
    blocks = [(LINE_BREAK + "\n").join(lines) for lines in paragraphs if lines]
    return "\n\n".join(blocks) if blocks else EMPTY


# -- code ------------------------------------------------------------------------------------------------------

# A backtick or "|" would end the span or split a table cell; preprocessors act inside code spans too (critic,
# includes, templates); "#!lang" or ":::lang" starts inline highlighting; an "&name" at the end could become a
# reference with a ";" that follows the span.
# ... and a character reference without its ";", which Python-Markdown completes inside a code span
_CODE_UNSAFE = re.compile(
    r"[`|\x00]|\{[-+~=>!{%#]|^(?:#!|:::)|&[#A-Za-z0-9]*$|&#[xX]?[0-9A-Fa-f]+(?![0-9A-Fa-f;])"
)


def code_safe(text: str) -> bool:
    """Whether ``text`` can be a backtick code span in every engine: printable, no backtick or ``|`` (a table
    cell would split), no critic, include or template opener (preprocessors act inside code spans too), no
    inline-highlight prefix (``#!lang``), no surrounding space."""
    return bool(text) and text.isprintable() and text == text.strip() and _CODE_UNSAFE.search(text) is None


def md_code(s: str | None, *, max_len: int = 300) -> str:
    """A code-like value (an id, a media type, a scope, a header, a version) as a backtick code span, or,
    when ``code_safe`` refuses it, as ``<code>`` with every punctuation character encoded."""
    if s is None:
        return EMPTY
    return _md_code(require_str(s), max_len)


_ALL_PUNCTUATION = {ord(c): _ref(c) for c in _PUNCTUATION}


@functools.lru_cache(maxsize=16384)
def _md_code(s: str, max_len: int) -> str:
    text = one_line(s, max_len)
    if not text:
        return EMPTY
    if code_safe(text):
        return f"`{text}`"
    return f"<code>{text.translate(_ALL_PUNCTUATION)}</code>"


def md_table_row(cells: Sequence[str]) -> str:
    """``| a | b |`` from cells that are already encoded; a blank cell becomes ``EMPTY``.

    Raises ``ValueError`` for a cell holding a newline or ``|``: that is unencoded text, which would break the
    row.
    """
    if not cells:
        raise ValueError("a table row needs at least one cell")
    out: list[str] = []
    for cell in cells:
        if "\n" in cell or "\r" in cell or "|" in cell:
            raise ValueError(f"table cell is not encoded: {cell[:40]!r}")
        out.append(cell.strip() or EMPTY)
    return "| " + " | ".join(out) + " |"


# -- links -----------------------------------------------------------------------------------------------------


def _refused(label: str | None, value: object) -> str:
    shown = md_code(value if isinstance(value, str) else repr(value))
    return f"{label} ({shown}, not a safe link)" if label else f"{shown} (not a safe link)"


def md_link_text(s: str | None) -> str:
    """Link text: ``md_inline`` with no code span inside (a URL as a label stays plain text)."""
    if s is None:
        return EMPTY
    text = one_line(s, 300)
    if not text:
        return EMPTY
    label = _guard_smart_word(text, _encode_run(text))
    # "[=" opens a progress bar for pymdownx.progressbar ("[=0/0]"): a label's first "=" is encoded
    return "&#61;" + label[1:] if label.startswith("=") else label


def md_link(text: str | None, url: object, *, allow_mailto: bool = False, show_host: bool = False) -> str:
    """``[text](url)`` with the URL made safe by ``safe_url``; a refused URL is shown as code followed by
    "not a safe link", never linked. Blank text shows the URL (``md_url``); no URL gives the text alone.
    ``show_host`` adds the host in parentheses, so a reader sees where a friendly label goes."""
    if text is None or not one_line(text, 300):
        return md_url(url, allow_mailto=allow_mailto)
    label = md_link_text(text)
    if url is None or url == "":
        return label
    safe = safe_url(url, allow_mailto=allow_mailto)
    if safe is None:
        return _refused(label, url)
    link = f"[{label}]({safe})"
    if show_host and not safe.startswith("mailto:"):
        return f"{link} ({urlsplit(safe).hostname})"
    return link


def md_url(url: object, *, allow_mailto: bool = False) -> str:
    """A link that shows its own (safe) URL; a mailto link shows the address. Refused URLs as in
    ``md_link``; ``None`` or ``""`` give ``EMPTY``."""
    if url is None or url == "":
        return EMPTY
    safe = safe_url(url, allow_mailto=allow_mailto)
    if safe is None:
        return _refused(None, url)
    return f"[{md_link_text(safe.removeprefix('mailto:'))}]({safe})"


# -- JSON ------------------------------------------------------------------------------------------------------

_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
# Inside a JSON string, a brace that opens a preprocessor's syntax: template expressions ({{ {% {#}, critic
# marks ({-- {++ {~~ {== {>>) and includes ({!). Its \u escape is the same JSON value.

_NON_ASCII = re.compile("[\x7f-\U0010ffff]")
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp", "Zs"})


@functools.lru_cache(maxsize=4096)
def _json_char(ch: str) -> str:
    """A character of a JSON string as written in a block: itself, or a ``\\u`` escape when it is a control,
    format (invisible, bidi), separator or surrogate character, which would hide or break the text."""
    if unicodedata.category(ch) not in _HIDDEN_CATEGORIES and ch not in "\ufffe\uffff":
        return ch
    code = ord(ch)
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def _harden_string(m: re.Match[str]) -> str:
    token = OPENER.sub(r"\\u007b", m.group(0))
    return _NON_ASCII.sub(lambda c: _json_char(c.group(0)), token) if not token.isascii() else token


def json_text(value: JSONValue, *, indent: int = 2) -> str:
    """A JSON value pretty-printed (key order kept) for a code block: ``json.loads`` gives ``value`` back.

    Preprocessors read code blocks too, so inside strings a brace that opens template, critic or include syntax
    and every invisible or line-separating character is a ``\\u`` escape, and no line can be a snippets marker
    (pretty-printed lines start with indentation, then a quote, bracket, brace, digit or letter). Raises
    ``ValueError`` for NaN or infinity.
    """
    if indent < 0:
        raise ValueError("indent must be 0 or more")
    text = pretty_json(value, indent)
    if "{" in text or not text.isascii():
        text = _JSON_STRING.sub(_harden_string, text)
    return text


LEFT_OUT = (
    "# Left out: this code would carry card text that Markdown preprocessors (Jinja, mkdocs-macros, Zensical,\n"
    "# snippets) read as their own syntax. check reports it (preprocessor-syntax)."
)
"""What a code block shows instead of code it cannot carry."""


def md_fence(code: str, language: str) -> str:
    """``code`` (generated by us, card text only inside it as data) in a backtick fence longer than any
    backtick run inside, no trailing newline. Code that holds Markdown preprocessor syntax (a snippets marker,
    a template, critic or include opener, a NUL: ``text.preprocessor``) cannot be published, nor rewritten
    without changing what it does: the block says it is left out instead (``LEFT_OUT``), and ``check`` reports
    the card text (``preprocessor-syntax``)."""
    if preprocessor_syntax(code) is not None:
        return f"```text\n{LEFT_OUT}\n```"
    longest = max((len(run) for run in re.findall("`+", code)), default=0) if "`" in code else 0
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{code}\n{fence}"


def json_fence(value: JSONValue, *, indent: int = 2) -> str:
    """``json_text`` of ``value`` in a fence with info ``json``."""
    return md_fence(json_text(value, indent=indent), "json")


FILTERS: dict[str, Callable[..., str]] = {
    "md_inline": md_inline,
    "md_text": md_text,
    "md_title": md_title,
    "md_code": md_code,
    "md_link": md_link,
    "md_link_text": md_link_text,
    "md_url": md_url,
    "json_fence": json_fence,
    "md_fence": md_fence,
    "md_heading": md_heading,
}
"""The encoders under the names templates use (``{{ skill.name | md_inline }}``)."""
