"""Context encoders: the only way card text reaches a generated page.

Card text is untrusted and the pages are read by three engines: Python-Markdown inside MkDocs (with whatever
extensions a site enables: attr_list, md_in_html, pymdownx.*, snippets, mkdocs-macros), CommonMark/GFM on GitHub,
and people reviewing the generated ``.md`` in pull requests. Each function here takes plain text and returns a
fragment that every one of those engines shows as that same text and never as structure: no raw HTML, no links we
did not make, no attribute lists, no snippet includes, no Jinja.

The one rule behind every encoder: ASCII punctuation is what starts syntax, so it is written as a decimal
character reference (``&#60;``). Python-Markdown and CommonMark both keep references as text, and neither the
snippets preprocessor nor Jinja sees ``--8<--`` or ``{{`` in them. Backslash escapes are never used: their set
depends on the engine and its extensions (``\\<`` is not an escape in Python-Markdown).

Every function is pure. Pick the encoder by context:

=================  ================================================================
``md_inline``      names, tags, table cells, link text (one line, everything encoded)
``md_text``        descriptions (paragraphs and line breaks kept, readable source)
``md_title``       headings and the page title (also safe in mkdocs-material ``<title>``)
``md_code``        ids and media types as ``<code>``
``md_link``        a link with a label; ``md_url`` a link showing its URL
``json_fence``     a JSON value as a fenced block that round-trips through ``json.loads``
``html_attr``      attribute values inside raw HTML that we write ourselves
=================  ================================================================

What the encoders build on and share with the rest of a2a-docgen lives in ``a2a_docgen.text``: step 0 cleaning
(``text.unicode.clean_text``, registered here as the ``clean`` filter), which URLs may be linked
(``text.urls.safe_url``) and JSON text (``text.jsonio.pretty_json``). This module only encodes for a context.
"""

from __future__ import annotations

import functools
import html
import json
import re
import unicodedata
from collections.abc import Callable, Sequence
from urllib.parse import urlsplit

from a2a_docgen.model import JSONValue
from a2a_docgen.text.jsonio import pretty_json
from a2a_docgen.text.unicode import clean_text, is_invisible, one_line, require_str
from a2a_docgen.text.urls import safe_url

__all__ = [
    "EMPTY",
    "FILTERS",
    "LINE_BREAK",
    "html_attr",
    "json_fence",
    "md_code",
    "md_heading",
    "md_inline",
    "md_link",
    "md_table_row",
    "md_text",
    "md_title",
    "md_url",
    "toc_id",
]

EMPTY = "\u2014"
"""What an encoder returns for empty text (an em dash): a table cell or heading is never blank."""

# --------------------------------------------------------------------------------------------------------------
# Markdown text

_PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
_ENTITY_TABLE = {ord(c): f"&#{ord(c)};" for c in _PUNCTUATION}
_DIGITS = frozenset("0123456789")
_ALNUM = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _encode_all(text: str) -> str:
    return text.translate(_ENTITY_TABLE)


def md_inline(s: str | None, *, max_len: int = 300) -> str:
    """One line of inert Markdown: for names, tags, versions, table cells and link text.

    Whitespace is collapsed and every ASCII punctuation character becomes ``&#NN;``, so nothing can start
    syntax in any engine, and the result is also valid HTML text. (The first digit of a 40-hex-digit run is
    encoded too, so magiclink does not turn it into a commit link.) ``None`` or blank text gives ``EMPTY`` (—).
    """
    if s is None:
        return EMPTY
    return _md_inline(require_str(s), max_len)


@functools.lru_cache(maxsize=16384)
def _md_inline(s: str, max_len: int) -> str:
    """``md_inline`` of text; cached, as names, tags, media types and scopes repeat across a catalogue."""
    text = one_line(s, max_len)
    return _break_commit_hashes(_encode_all(text)) if text else EMPTY


# A run of 40 lower-case hex digits is a commit hash that pymdownx.magiclink links to the site's repository.
_COMMIT_LIKE = re.compile(r"\b[0-9a-f](?=[0-9a-f]{39}\b)")
_LEADING_WORD = re.compile(r"[A-Za-z0-9-]*")


def _break_commit_hashes(encoded: str) -> str:
    return _COMMIT_LIKE.sub(lambda m: f"&#{ord(m.group(0))};", encoded)


def _prose_keeps(line: str, i: int, lead: int) -> bool:
    """Whether the punctuation at ``line[i]`` may stay literal in ``md_text``; ``lead`` is the length of the
    line's leading run of ASCII letters, digits and dashes.

    Nothing at the start of a line stays (that is where every block syntax and the snippets marker start). The
    rest is allowed only where no construct of CommonMark, GFM, Python-Markdown, the pymdownx extensions or
    MkDocs can begin; everything not listed here is encoded. The reasons:

    - ``, ' " ; %``: no inline syntax of their own (quotes only matter after ``](`` or inside tags, and ``[``,
      ``<`` are always encoded; ``;`` cannot close a reference because ``&`` is always encoded);
    - ``. ) :`` right after the line's first word: list markers (``1.``, ``1)``, fancylists ``a.``, ``iv)``)
      and MkDocs meta lines (``title: …`` at the top of a page);
    - ``.`` after ``www``: an autolink for GFM and magiclink;
    - ``(``: smartsymbols turns ``(c)``, ``(r)``, ``(tm)`` into symbols;
    - ``/``: smartsymbols fractions (``1/2``) and ``c/o``;
    - ``-``: only between two ASCII letters or digits (``real-time``); lists, rules, setext underlines, arrows
      ``-->`` and the snippets marker all need it elsewhere;
    - ``: ! ?``: only before a space or the end of the line; emoji ``:name:``, URLs ``https:``, images ``![``,
      magiclink ``!12``/``?12`` all need a character right after them.
    """
    ch = line[i]
    if i == 0:
        return False
    if ch in ",'\";%":
        return True
    before, after = line[i - 1], line[i + 1 : i + 2]
    if ch in ".):" and i <= lead:
        return False
    if ch in ".)":
        return not (ch == "." and line[max(0, i - 3) : i].lower() == "www")
    if ch == "(":
        return not line[i : i + 4].lower().startswith(("(c)", "(r)", "(tm)"))
    if ch == "/":
        fraction = before in _DIGITS and after in _DIGITS
        care_of = before in "cC" and after in ("o", "O")
        return not (fraction or care_of)
    if ch == "-":
        return before in _ALNUM and after in _ALNUM
    if ch in ":!?":
        return after in ("", " ")
    return False


_PUNCTUATION_CHAR = re.compile("[" + re.escape(_PUNCTUATION) + "]")


def _encode_prose(line: str) -> str:
    first_word = _LEADING_WORD.match(line)
    lead = first_word.end() if first_word else 0

    def encode(m: re.Match[str]) -> str:
        ch = m.group(0)
        return ch if _prose_keeps(line, m.start(), lead) else f"&#{ord(ch)};"

    return _break_commit_hashes(_PUNCTUATION_CHAR.sub(encode, line))


LINE_BREAK = "<br>"
"""The hard line break ``md_text`` writes at the end of a line inside a paragraph."""


def md_text(s: str | None, *, max_len: int = 20_000) -> str:
    """Long prose (descriptions) as inert, readable Markdown paragraphs.

    Blank lines separate paragraphs. A single newline inside a paragraph is kept as a hard line break
    (``<br>`` at the end of the line): card descriptions are plain text, and an author who writes one item per
    line means to see one item per line. ``<br>`` rather than two trailing spaces because editors and
    pre-commit hooks strip trailing whitespace. Each line is stripped and its whitespace collapsed, so no line is
    indented. A few punctuation characters stay literal where they cannot start syntax (see ``_prose_keeps``);
    the rest are encoded as in ``md_inline``. ``None`` or blank text gives ``EMPTY``.
    """
    if s is None:
        return EMPTY
    text = clean_text(require_str(s), keep_newlines=True, max_len=max_len)
    paragraphs: list[list[str]] = [[]]
    for raw_line in text.split("\n"):
        line = " ".join(raw_line.split())
        if line:
            paragraphs[-1].append(_encode_prose(line))
        elif paragraphs[-1]:
            paragraphs.append([])
    blocks = [(LINE_BREAK + "\n").join(lines) for lines in paragraphs if lines]
    return "\n\n".join(blocks) if blocks else EMPTY


_TITLE_LOOKALIKES = str.maketrans({"<": "\u2039", ">": "\u203a"})


def md_title(s: str | None, *, max_len: int = 120) -> str:
    """Heading or page-title text: ``md_inline`` after ``<`` → ``‹`` and ``>`` → ``›``.

    mkdocs-material writes ``page.title | striptags`` into ``<title>``, and ``striptags`` decodes references:
    an encoded ``&#60;/title&#62;`` would become a real tag there. Look-alike characters survive decoding.
    """
    if s is None:
        return EMPTY
    return md_inline(require_str(s).translate(_TITLE_LOOKALIKES), max_len=max_len)


# Element ids of the themes a site may use (MkDocs, ReadTheDocs, Material), and id families they number; lower
# case, as a toc slug is. Material's own ids all start with "__", covered by the leading "_" rule.
_THEME_IDS = frozenset(
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
_THEME_ID_PREFIXES = ("_", "mkdocs")
_TOC_DROPPED = re.compile(r"[^\w\s-]")
_TOC_SEPARATORS = re.compile(r"[-\s]+")


def toc_id(text: str) -> str:
    """The id Python-Markdown's toc extension gives a heading showing ``text`` (its default ``slugify``, without
    the ``_1`` it appends to a repeated or empty id): ASCII letters, digits, ``_`` and ``-``, lower case."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return _TOC_SEPARATORS.sub("-", _TOC_DROPPED.sub("", ascii_text).strip().lower())


def _clobbers_theme(heading_id: str) -> bool:
    return not heading_id or heading_id in _THEME_IDS or heading_id.startswith(_THEME_ID_PREFIXES)


def md_heading(s: str | None, label: str, *, always: bool = False, max_len: int = 120) -> str:
    """Heading text from a card: ``md_title(s)``, after ``label: `` when ``always`` or when the toc id the text
    alone would get could clobber an element of the theme (``__config``, ``mkdocs-search-results``, ``search``).

    A site built without the plugin's heading-id prefix takes heading ids from the heading text, so a heading
    that starts with card text must not start with what a theme uses. ``label`` is our own word (``Agent``),
    whose id is safe: the labelled heading's id starts with it.
    """
    title = md_title(s, max_len=max_len)
    if not always and not _clobbers_theme(toc_id(html.unescape(title))):
        return title
    if not _safe_label(label):
        raise ValueError(f"a heading label must be plain words whose id is safe: {label!r}")
    return f"{label}: {title}"


@functools.lru_cache(maxsize=256)
def _safe_label(label: str) -> bool:
    """Whether ``label`` may start a heading (cached: templates use a handful, once per skill or scheme)."""
    return not _clobbers_theme(toc_id(label)) and label.isprintable() and not _PUNCTUATION_CHAR.search(label)


def md_code(s: str | None, *, max_len: int = 300) -> str:
    """An id or media type as ``<code>`` + ``md_inline(s)`` + ``</code>``; ``EMPTY`` (no code) when blank.

    Not a backtick code span: spans cannot contain references (so a backtick in the text would close them)
    and mkdocs-macros evaluates Jinja inside them.
    """
    text = md_inline(s, max_len=max_len)
    return text if text == EMPTY else f"<code>{text}</code>"


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


# --------------------------------------------------------------------------------------------------------------
# URLs


def _shown_value(value: object) -> str:
    """How a refused URL value is shown: strings as they are, other JSON values as JSON."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        return type(value).__name__


def _refused(label: str | None, value: object) -> str:
    shown = md_code(_shown_value(value))
    return f"{label} ({shown}, not a safe link)" if label else f"{shown} (not a safe link)"


def md_link(text: str | None, url: object, *, allow_mailto: bool = False, show_host: bool = False) -> str:
    """``[text](url)`` with both parts encoded, or, when ``safe_url`` refuses the URL, the text followed by the
    URL shown inertly as code and the words "not a safe link". Never a link to a refused URL.

    Without a URL (``None`` or ``""``) the text alone. Blank text falls back to ``md_url``. ``show_host`` adds the
    host after the link, so a reader sees where a link with a friendly label goes.
    """
    if text is None or not one_line(text, None):
        return md_url(url, allow_mailto=allow_mailto)
    label = md_inline(text)
    if url is None or url == "":
        return label
    safe = safe_url(url, allow_mailto=allow_mailto)
    if safe is None:
        return _refused(label, url)
    link = f"[{label}]({safe})"
    if show_host and not safe.startswith("mailto:"):
        return f"{link} ({md_inline(urlsplit(safe).hostname)})"
    return link


def md_url(url: object, *, allow_mailto: bool = False, max_len: int = 300) -> str:
    """A link whose text is the URL itself (in its safe form; a mailto link shows the address).

    A refused URL is shown as code followed by "not a safe link"; ``None`` or ``""`` give ``EMPTY``.
    """
    if url is None or url == "":
        return EMPTY
    safe = safe_url(url, allow_mailto=allow_mailto)
    if safe is None:
        return _refused(None, url)
    shown = safe.removeprefix("mailto:")
    return f"[{md_inline(shown, max_len=max_len)}]({safe})"


# --------------------------------------------------------------------------------------------------------------
# JSON

_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_SNIPPET_LINE = re.compile(r"^[ \t]*;*-+8<", re.MULTILINE)
_JSON_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp", "Zs"})


def _has_jinja_delimiter(text: str) -> bool:
    """Whether ``text`` holds ``{{ {% {# }} %} #}`` (substring tests: several times faster than a regex)."""
    if "{{" in text or "}}" in text:
        return True
    if "%" in text and ("{%" in text or "%}" in text):
        return True
    return "#" in text and ("{#" in text or "#}" in text)


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


@functools.lru_cache(maxsize=4096)
def _needs_json_escape(ch: str) -> bool:
    return ch != " " and (
        unicodedata.category(ch) in _JSON_ESCAPED_CATEGORIES or ch in "\ufffe\uffff" or is_invisible(ch)
    )


# The only characters of a JSON string literal that hardening may change: braces, and everything outside
# printable ASCII (``json.dumps`` already escapes C0 controls, and no other printable ASCII character is a
# control, separator or invisible).
_JSON_HARDENING_CANDIDATE = re.compile("[{}\x7f-\U0010ffff]")


def _harden_json_string(m: re.Match[str]) -> str:
    """One JSON string literal with braces that would form a Jinja delimiter, controls, separators and
    invisible characters written as ``\\uXXXX`` escapes: the same value, inert text."""
    token = m.group(0)

    def harden(c: re.Match[str]) -> str:
        ch, i = c.group(0), c.start()
        if ch == "{" and token[i + 1 : i + 2] in ("{", "%", "#"):
            return "\\u007b"
        if ch == "}" and token[i - 1 : i] in ("}", "%", "#"):
            return "\\u007d"
        return _json_escape(ch) if _needs_json_escape(ch) else ch

    return _JSON_HARDENING_CANDIDATE.sub(harden, token)


def json_fence(value: JSONValue, *, indent: int = 2) -> str:
    """A JSON value pretty-printed (key order kept) in a backtick fence with info ``json``, no trailing newline.

    pymdownx.snippets and mkdocs-macros run before fences are parsed, so the JSON text itself is made inert
    while ``json.loads`` of the fence content still gives ``value``: inside strings, braces that would form
    ``{{ {% {# }} %} #}`` and every control, separator, invisible or bidi character are ``\\u`` escapes.
    Pretty-printed JSON lines start with indentation and then a quote, bracket, brace, digit, ``-digit`` or
    ``t/f/n``, so no line can be a snippets marker; both properties are checked. The fence is longer than any
    backtick run inside. Put it on its own lines with a blank line before and after.

    Raises ``ValueError`` for NaN or infinity (not JSON) and for a negative ``indent``.
    """
    if indent < 0:
        raise ValueError("indent must be 0 or more (a compact dump could put }} between values)")
    text = pretty_json(value, indent)
    # Printable ASCII without a delimiter has nothing to harden (see _JSON_HARDENING_CANDIDATE) and stays as it
    # is; anything else is hardened and then checked again.
    if not (text.isascii() and "\x7f" not in text and not _has_jinja_delimiter(text)):
        text = _JSON_STRING.sub(_harden_json_string, text)
        if _has_jinja_delimiter(text):
            raise RuntimeError("pretty-printed JSON still holds a template delimiter")
    if "8<" in text and _SNIPPET_LINE.search(text):
        raise RuntimeError("pretty-printed JSON holds a snippets marker")
    longest = max((len(run) for run in re.findall("`+", text)), default=0) if "`" in text else 0
    fence = "`" * max(3, longest + 1)
    return f"{fence}json\n{text}\n{fence}"


# --------------------------------------------------------------------------------------------------------------
# Raw HTML we write ourselves

_ATTR_EXTRA = str.maketrans({"{": "&#123;", "}": "&#125;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def html_attr(s: str) -> str:
    """An attribute value for raw HTML that we generate: ``html.escape(quote=True)``, braces (for macros) and
    line breaks (so a blank line cannot end the HTML block) as references."""
    return html.escape(require_str(s), quote=True).translate(_ATTR_EXTRA)


FILTERS: dict[str, Callable[..., str]] = {
    "clean": clean_text,
    "md_inline": md_inline,
    "md_text": md_text,
    "md_title": md_title,
    "md_code": md_code,
    "md_link": md_link,
    "md_url": md_url,
    "json_fence": json_fence,
    "html_attr": html_attr,
    "md_table_row": md_table_row,
}
"""The encoders under the names templates use (``{{ skill.name | md_inline }}``)."""
