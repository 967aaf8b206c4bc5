"""The context encoders: fixture files, properties over hostile text, and the real engines.

Every encoder output is checked by parsing, never by grepping: with markdown-it-py (CommonMark + tables, what
GitHub shows), with Python-Markdown and the extensions a Material site enables (what MkDocs publishes), and
with Jinja (what mkdocs-macros runs over a page).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import markdown
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jinja2 import Environment

from a2a_docgen.limits import DEFAULT_LIMITS
from a2a_docgen.model import JSONValue
from a2a_docgen.render.escape import (
    EMPTY,
    FILTERS,
    html_attr,
    json_fence,
    md_code,
    md_inline,
    md_link,
    md_table_row,
    md_text,
    md_title,
    md_url,
)
from a2a_docgen.site.plugin import prefixed_slugify
from a2a_docgen.text.jsonio import pretty_json
from a2a_docgen.text.unicode import clean_text, invisible_characters, strip_invisible
from a2a_docgen.text.urls import safe_url

try:
    from tests.support import markdown_tokens as mt
except ImportError:  # tests/ itself on sys.path (pytest's rootdir-less import mode)
    from support import markdown_tokens as mt  # type: ignore[no-redef]

FIXTURES = Path(__file__).parent / "fixtures" / "escape"
SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
OUR_HTML = frozenset({"<code>", "</code>", "<br>"})
CANARY = "CANARY-7f3a9c-not-for-publication"
JINJA = Environment(keep_trailing_newline=True)

PAYLOADS: tuple[str, ...] = (
    "<script>alert(document.domain)</script>",
    "<img src=x onerror=alert(document.domain)>",
    "<svg onload=alert(1)>",
    '<iframe src="javascript:alert(1)"></iframe>',
    "<details open ontoggle=alert(1)><summary>x</summary></details>",
    '<a href="javascript:alert(1)">click</a>',
    "<style>body{display:none}</style>",
    '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
    "<form action=https://evil.example><input name=password type=password></form>",
    "<!-- unterminated comment",
    "<textarea>",
    "\\<script>alert(1)\\</script>",
    "&lt;/title&gt;&lt;script&gt;alert('t')&lt;/script&gt;",
    "</title><script>alert('t2')</script>",
    "\"><script>alert('attr')</script>",
    "' onmouseover='alert(1)",
    "&#60;img src=x onerror=alert(1)&#62;",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "java&#x09;script:alert(1)",
    "&#106;avascript:alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    'https://ok.example/"onmouseover="alert(1)',
    "https://trusted.example@evil.example/",
    "x](javascript:alert(1)) [y",
    "[x][r]\n\n[r]: javascript:alert(1)",
    "<javascript:alert(1)>",
    "a | b | c | d",
    "cell\n\n# injected heading",
    "a` <img src=x onerror=alert(1)> `b",
    "x\n```\n\n<script>alert('fence')</script>\n\n```",
    "x\n````\n~~~\n# after fence",
    "# Injected H1",
    "text\n===",
    "text\n---",
    "> quote\n> more",
    "    indented code",
    "1. one\n2. two",
    "- [x] task",
    "[TOC]",
    "*[Agent]: <img src=x onerror=alert(1)>\n\nAgent",
    "Note[^1]\n\n[^1]: <img src=x onerror=alert(1)>",
    "Term\n:   Definition",
    'Click me\n{: onclick="alert(1)" }',
    '[ok](https://ok.example/){: href="javascript:alert(1)" onclick="alert(1)" }',
    "Title {: #__config }",
    "__config",
    'Overlay\n{: style="position:fixed;top:0;left:0;width:100%;height:100%" }',
    '<div markdown="1" onclick="alert(1)">**bold**</div>',
    '--8<-- "secret.txt"',
    "--8<--\nsecret.txt\n--8<--",
    '--8<-- "/etc/passwd"',
    '-8<- "mkdocs.yml"',
    ';--8<-- "secret.txt"',
    "{{ 1111*7 }}",
    "{% for x in range(3) %}LOOP{% endfor %}",
    "{{ self.__init__.__globals__.__builtins__.__import__('os').getcwd() }}",
    '!!! danger "Official security notice"\n    Send your token to https://evil.example',
    '??? note "x"\n    hidden',
    '=== "Tab"\n    tab',
    ":material-check-decagram: Verified",
    "www.evil.example https://evil.example/login @admin #1",
    "++ctrl+alt+del++ ==mark== ~~del~~ ^^ins^^ $x^2$",
    "Safe\u202egnp.exe",
    "zero\u200bwidth\u200d\ufeff",
    "nul\u0000byte\u0007bell\u001b[31m",
    "line\u2028sep\u2029para\u0085nel",
    "\U0001f600 emoji \u0301combining",
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    "",
    "   ",
    "\\",
    "`",
    "&",
    "&amp;lt;b&amp;gt;",
    "mkdocs search results",
    "__drawer",
    "Home",
)

URL_PAYLOADS: tuple[str, ...] = (
    "https://trusted.example@evil.example/",
    "http://[::1]:99999/",
    "https://exa mple.com/",
    "https://example.com/\u202e/",
    "//evil.example/x",
    "HTTPS://EXAMPLE.COM/%0d%0a",
    "https://example.com/" + "a" * (DEFAULT_LIMITS.max_url_chars - 19),
    "https://ok.example/{{ 7*7 }}/--8<--/`x`/<b>/[x](y)",
    "mailto:ops@example.com?body=--8<--",
    "\ud800",
)
MORE_PAYLOADS: tuple[str, ...] = (
    "fixed in 0123456789abcdef0123456789abcdef01234567 (octo/site#1, @octo, !2)",
    "a. first\niv) fourth",
    "title: </title><script>alert(1)</script>\n\nbody",
    "/// admonition | Title\nbody\n///",
    "1st 2nd (c) 1/2 c/o +/- =/= <-- -->",
)
ALL_PAYLOADS = PAYLOADS + URL_PAYLOADS + MORE_PAYLOADS


# --------------------------------------------------------------------------------------------------------------
# Fixture files (markdown-it-py style)

_CODEPOINT = re.compile(r"\\u\{([0-9A-Fa-f]{1,6})\}")


def _decode(text: str) -> str:
    return _CODEPOINT.sub(lambda m: chr(int(m.group(1), 16)), text)


def read_fixture_file(path: Path) -> list[tuple[int, str, str, str]]:
    """``(line, title, input, expected)`` for each case of a fixture file.

    A case is a title line, a ``.`` line, the input, a ``.`` line, the expected output and a ``.`` line; other
    lines are comments. ``\\u{XXXX}`` in the input or expected text stands for that code point.
    """
    lines = path.read_text(encoding="utf-8").split("\n")
    cases: list[tuple[int, str, str, str]] = []
    i = 0
    while i < len(lines) - 1:
        if not (lines[i] and lines[i] != "." and lines[i + 1] == "."):
            i += 1
            continue
        title, first = lines[i], i + 1
        blocks: list[str] = []
        j = i + 2
        for _ in range(2):
            start = j
            while j < len(lines) and lines[j] != ".":
                j += 1
            if j == len(lines):
                raise ValueError(f"{path.name}:{first}: unterminated case {title!r}")
            blocks.append("\n".join(lines[start:j]))
            j += 1
        cases.append((first, title, _decode(blocks[0]), _decode(blocks[1])))
        i = j
    return cases


def _link_case(source: str) -> str:
    text, _, url = source.partition("\n")
    return md_link(text, url)


def _safe_url_case(source: str) -> str:
    return safe_url(source) or "REJECTED"


def _safe_mailto_case(source: str) -> str:
    return safe_url(source, allow_mailto=True) or "REJECTED"


RUNNERS: dict[str, Callable[[str], str]] = {
    "clean_text": clean_text,
    "clean_text_keep_newlines": lambda s: clean_text(s, keep_newlines=True),
    "html_attr": html_attr,
    "json_fence": lambda s: json_fence(json.loads(s)),
    "md_code": md_code,
    "md_inline": md_inline,
    "md_link": _link_case,
    "md_text": md_text,
    "md_title": md_title,
    "md_url": md_url,
    "safe_url": _safe_url_case,
    "safe_url_mailto": _safe_mailto_case,
}

FIXTURE_CASES = [
    pytest.param(path.stem, source, expected, id=f"{path.name}:{line}")
    for path in sorted(FIXTURES.glob("*.md"))
    for line, _title, source, expected in read_fixture_file(path)
]


def test_every_fixture_file_has_a_runner() -> None:
    assert {path.stem for path in FIXTURES.glob("*.md")} == set(RUNNERS)
    assert len(FIXTURE_CASES) > 100


@pytest.mark.parametrize(("name", "source", "expected"), FIXTURE_CASES)
def test_fixture(name: str, source: str, expected: str) -> None:
    assert RUNNERS[name](source) == expected


def test_fixture_reader_rejects_an_unterminated_case(tmp_path: Path) -> None:
    path = tmp_path / "broken.md"
    path.write_text("title\n.\ninput\n.\nexpected\n", encoding="utf-8")
    with pytest.raises(ValueError, match="unterminated"):
        read_fixture_file(path)


# --------------------------------------------------------------------------------------------------------------
# Unit behaviour not expressed as fixtures


def test_clean_text_cuts_with_an_ellipsis_and_never_splits_a_marker() -> None:
    assert clean_text("abcdef", max_len=4) == "abc\u2026"
    assert clean_text("abc", max_len=3) == "abc"
    assert clean_text("ab   cdef", max_len=4) == "ab\u2026"
    assert clean_text("ab\u202ecdef", max_len=6) == "ab\u2026"
    assert clean_text("ab\u202ecdef", max_len=12) == "ab\u27e8U+202E\u27e9c\u2026"
    with pytest.raises(ValueError, match="max_len"):
        clean_text("abc", max_len=0)


def test_encoders_cut_long_text() -> None:
    assert md_inline("a" * 400) == "a" * 299 + "\u2026"
    assert md_title("b" * 400) == "b" * 119 + "\u2026"
    assert md_inline("x y", max_len=2) == "x\u2026"
    assert md_text("word " * 5000).endswith("\u2026")
    assert len(md_text("w" * 30_000)) == 20_000


def test_invisible_characters_reports_what_clean_text_marks() -> None:
    text = "a\u202eb\u00adc \U0001f469\u200d\U0001f4bb d\u200de \U000e0041"
    assert invisible_characters(text) == [
        (1, "U+202E RIGHT-TO-LEFT OVERRIDE"),
        (3, "U+00AD SOFT HYPHEN"),
        (11, "U+200D ZERO WIDTH JOINER"),
        (14, "U+E0041 TAG LATIN CAPITAL LETTER A"),
    ]
    assert invisible_characters("\u2065") == [(0, "U+2065")]
    assert invisible_characters("plain") == []
    assert strip_invisible(text) == "abc \U0001f469\U0001f4bb de "


def test_none_is_empty_and_other_types_are_refused() -> None:
    for encoder in (md_inline, md_text, md_title, md_code):
        assert encoder(None) == EMPTY
        with pytest.raises(TypeError, match="expected text"):
            encoder(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        clean_text(b"bytes")  # type: ignore[arg-type]
    assert md_url(None) == EMPTY
    assert md_link(None, None) == EMPTY


def test_safe_url_refuses_non_strings_and_long_urls() -> None:
    for value in (
        None,
        1,
        1.5,
        True,
        ["https://example.com/"],
        {"url": "https://example.com/"},
        b"https://x.y/",
    ):
        assert safe_url(value) is None
    longest = "https://example.com/" + "a" * (DEFAULT_LIMITS.max_url_chars - 20)
    assert safe_url(longest) == longest
    assert safe_url(longest + "a") is None


def test_md_link_variants() -> None:
    assert md_link("Docs", None) == "Docs"
    assert md_link("Docs", "") == "Docs"
    assert md_link("Docs", "https://docs.example/x", show_host=True) == (
        "[Docs](https://docs.example/x) (docs&#46;example)"
    )
    assert md_link("Mail", "mailto:a@example.com", allow_mailto=True, show_host=True) == (
        "[Mail](mailto:a@example.com)"
    )
    assert md_link("Mail", "mailto:a@example.com") == (
        "Mail (<code>mailto&#58;a&#64;example&#46;com</code>, not a safe link)"
    )
    assert (
        md_link("Odd", {"url": 1}) == "Odd (<code>&#123;&#34;url&#34;&#58; 1&#125;</code>, not a safe link)"
    )
    assert md_url(12) == "<code>12</code> (not a safe link)"
    assert (
        md_url("mailto:a@example.com", allow_mailto=True) == "[a&#64;example&#46;com](mailto:a@example.com)"
    )


def test_md_table_row() -> None:
    assert md_table_row(["a", "", md_code("x|y")]) == "| a | \u2014 | <code>x&#124;y</code> |"
    for bad in (["a|b"], ["a\nb"], []):
        with pytest.raises(ValueError, match="table"):
            md_table_row(bad)


def test_json_fence_refuses_what_is_not_json() -> None:
    with pytest.raises(ValueError, match="Out of range float"):
        json_fence(float("nan"))
    with pytest.raises(ValueError, match="indent"):
        json_fence({}, indent=-1)
    assert json_fence({"a": "{{x}}"}, indent=0) == '```json\n{\n"a": "\\u007b{x}\\u007d"\n}\n```'


def test_html_attr_is_plain_html_escaping_plus_braces() -> None:
    assert html_attr("a\"b'c<d>e&f{g}\r\t") == "a&quot;b&#x27;c&lt;d&gt;e&amp;f&#123;g&#125;&#13;&#9;"


def test_filters_are_the_encoders_templates_use() -> None:
    assert set(FILTERS) == {
        "clean",
        "md_inline",
        "md_text",
        "md_title",
        "md_code",
        "md_link",
        "md_url",
        "json_fence",
        "html_attr",
        "md_table_row",
    }
    env = Environment(autoescape=False, keep_trailing_newline=True)
    env.filters.update(FILTERS)
    page = env.from_string(
        "# {{ name | md_title }}\n\n{{ desc | md_text }}\n\n| {{ tag | md_inline }} | {{ url | md_url }} |\n"
    ).render(name="<b>A</b>", desc="x\n\ny", tag="a | b", url="https://e.example/")
    assert page == (
        "# ‹b›A‹&#47;b›\n\nx\n\ny\n\n| a &#124; b | [https&#58;&#47;&#47;e&#46;example&#47;](https://e.example/) |\n"
    )


# --------------------------------------------------------------------------------------------------------------
# What a reader should see


def _visible_line(s: str, max_len: int) -> str:
    """The text an encoded label shows: clean_text, whitespace collapsed, cut, or the em dash."""
    text = clean_text(" ".join(clean_text(s).split()), max_len=max_len)  # cleaned text only gets cut
    return text or EMPTY


def _visible_title(s: str) -> str:
    return _visible_line(s.replace("<", "\u2039").replace(">", "\u203a"), 120)


def _squeeze(text: str) -> str:
    return "".join(text.split())


def _expected_paragraphs(s: str) -> int:
    groups = re.split(r"\n\s*\n", clean_text(s, keep_newlines=True).strip())
    return sum(1 for group in groups if group.split())


# --------------------------------------------------------------------------------------------------------------
# markdown-it-py (CommonMark + GFM tables): properties over hostile text

_PIECES = (
    *PAYLOADS,
    "www.",
    "(c)",
    "(tm)",
    "1/2",
    "c/o",
    "-->",
    "--8<--",
    "-8<-",
    "{{",
    "}}",
    "{%",
    "{#",
    ":smile:",
    "https://",
    "javascript:",
    "\n\n",
    "\n",
    "1. ",
    "2) ",
    "    ",
    "|",
    "`",
    "```",
    "~~~",
    "<br>",
    "&#60;",
    "&amp;",
    "](",
    "![",
    "[^1]:",
    "*[",
    "{:",
    "!!! ",
    "??? ",
    "=== ",
    "@user",
    "#12",
    "!12",
    "?12",
    "\\",
)
_CHARS = st.sampled_from(
    [
        *"abcostwWx019 \t\n\r",
        *"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
        *"\u202e\u200b\u200d\u2028\u0085\x00\x1b\u00a0\u00e9\u0301",
        *"\U0001f469\U000e0041\ud800\ufeff\u3000\uff57",
    ]
)
HOSTILE = st.lists(st.one_of(st.text(_CHARS, max_size=6), st.sampled_from(_PIECES)), max_size=8).map("".join)
JSON_VALUES: st.SearchStrategy[JSONValue] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | HOSTILE
    | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(HOSTILE, children, max_size=4),
    max_leaves=12,
)
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _assert_inert_markdown(md: str, allowed_hrefs: frozenset[str] = frozenset()) -> None:
    """No raw HTML but ours, links only to allowed hrefs, no snippets line and no Jinja syntax."""
    assert {t.content for t in mt.html_tokens(md)} <= OUR_HTML, md
    for href in mt.links(md):
        assert href in allowed_hrefs, (href, md)
        assert urlsplit(href).scheme in SAFE_SCHEMES
    assert not re.search(r"^[ \t]*;*-+8<", md, re.MULTILINE), md
    assert not re.search(r"\{[{%#]", md), md
    assert JINJA.from_string(md).render() == md


def _block_types(md: str) -> list[str]:
    return [t.type for t in mt.parse(md)]


@PROPERTY
@given(HOSTILE)
def test_md_inline_is_inert_in_every_context(s: str) -> None:
    out = md_inline(s)
    visible = _visible_line(s, 300)
    assert "\n" not in out
    paragraph = f"Before {out} after.\n"
    _assert_inert_markdown(paragraph)
    assert _block_types(paragraph) == ["paragraph_open", "inline", "paragraph_close"]
    assert mt.inline_text(paragraph) == [f"Before {visible} after."]
    at_line_start = f"{out}\n"
    _assert_inert_markdown(at_line_start)
    assert mt.inline_text(at_line_start) == [visible]
    table = f"| h1 | h2 |\n| --- | --- |\n| {out} | end |\n"
    _assert_inert_markdown(table)
    assert mt.table_rows(table) == [["h1", "h2"], [visible, "end"]]
    link = f"[{out}](https://example.com/)\n"
    _assert_inert_markdown(link, frozenset({"https://example.com/"}))
    assert mt.links(link) == ["https://example.com/"]
    assert mt.inline_text(link) == [visible]


@PROPERTY
@given(HOSTILE)
def test_md_title_stays_one_heading(s: str) -> None:
    heading = f"## {md_title(s)}\n"
    _assert_inert_markdown(heading)
    assert _block_types(heading) == ["heading_open", "inline", "heading_close"]
    assert mt.headings(heading) == [(2, _visible_title(s))]
    assert not set(_visible_title(s)) & {"<", ">"}


@PROPERTY
@given(HOSTILE)
def test_md_code_holds_only_our_code_tags(s: str) -> None:
    out = md_code(s)
    for md in (f"{out}\n", f"Id: {out} end\n", f"| {out} | x |\n| - | - |\n"):
        _assert_inert_markdown(md)
    visible = _visible_line(s, 300)
    expected = visible if visible == EMPTY else f"<code>{visible}</code>"
    assert mt.inline_text(f"{out}\n") == [expected]


@PROPERTY
@given(HOSTILE)
def test_md_text_is_paragraphs_of_the_same_text(s: str) -> None:
    out = md_text(s)
    md = f"{out}\n"
    _assert_inert_markdown(md)
    types = _block_types(md)
    assert set(types) == {"paragraph_open", "inline", "paragraph_close"}
    assert types.count("paragraph_open") == max(1, _expected_paragraphs(s))
    shown = "".join(mt.inline_text(md, with_html=False))
    assert _squeeze(shown) == (_squeeze(clean_text(s)) or EMPTY)
    # In a list item or after other text the encoded lines still start nothing.
    _assert_inert_markdown(f"Intro line\n{out}\n")


@settings(PROPERTY, max_examples=50)
@given(HOSTILE, HOSTILE)
def test_md_link_only_links_to_safe_urls(text: str, url: str) -> None:
    for candidate in (url, f"https://example.com/{url}", f"mailto:{url}"):
        for allow_mailto in (False, True):
            out = md_link(text, candidate, allow_mailto=allow_mailto)
            safe = safe_url(candidate, allow_mailto=allow_mailto)
            allowed = frozenset({safe}) if safe else frozenset()
            md = f"See {out} now.\n"
            _assert_inert_markdown(md, allowed)
            assert len(mt.links(md)) == (1 if safe else 0)
            _assert_inert_markdown(f"| {out} | x |\n| - | - |\n", allowed)
            _assert_inert_markdown(f"{md_url(candidate, allow_mailto=allow_mailto)}\n", allowed)


URLISH = st.builds(
    "{}{}{}".format,
    st.sampled_from(
        ["https://", "http://", "HTTPS://", "javascript:", "mailto:", "data:", "//", "", "ftp://"]
    ),
    st.lists(st.sampled_from([*"abcXYZ09.-_:@[]%\u00fc\u00df\u3002\uff0e", "xn--", "::1"]), max_size=14).map(
        "".join
    ),
    HOSTILE,
)


@PROPERTY
@given(st.one_of(URLISH, HOSTILE))
def test_safe_url_results_revalidate_and_hold_nothing_dangerous(url: str) -> None:
    for allow_mailto in (False, True):
        safe = safe_url(url, allow_mailto=allow_mailto)
        if safe is None:
            continue
        assert safe_url(safe, allow_mailto=allow_mailto) == safe
        assert safe.isascii()
        assert not set(safe) & set(" \t\r\n\"'<>`{}[]()|\\^*")
        parts = urlsplit(safe)
        assert parts.scheme in SAFE_SCHEMES
        if parts.scheme == "mailto":
            assert allow_mailto
            assert "?" not in safe
        else:
            assert parts.hostname
            assert "@" not in parts.netloc


@PROPERTY
@given(JSON_VALUES)
def test_json_fence_round_trips_and_never_closes_early(value: JSONValue) -> None:
    fence = json_fence(value)
    for md in (f"{fence}\n", f"Example:\n\n{fence}\n\nAfter {md_inline('x')}\n"):
        found = mt.fences(md)
        assert len(found) == 1
        info, content = found[0]
        assert info == "json"
        assert json.loads(content) == value
        assert not mt.html_tokens(md)
        assert not re.search(r"^[ \t]*;*-+8<", md, re.MULTILINE)
        assert not re.search(r"\{[{%#]|[}%#]\}", md)
        assert JINJA.from_string(md).render() == md
    assert all(ch == "\n" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Zl", "Zp") for ch in fence)


@PROPERTY
@given(JSON_VALUES, st.integers(min_value=0, max_value=4))
def test_pretty_json_is_json_dumps_byte_for_byte(value: JSONValue, indent: int) -> None:
    assert pretty_json(value, indent) == json.dumps(value, indent=indent, ensure_ascii=False, allow_nan=False)


def test_pretty_json_leaves_what_is_not_plain_json_to_json_dumps() -> None:
    value = {"t": ("a", (), [(1.5, None)]), "e": {}, "n": [True, False, -0.0, 10**30]}
    assert pretty_json(value, 2) == json.dumps(value, indent=2, ensure_ascii=False)  # tuples are arrays
    assert (
        pretty_json({1: {"k": 2}}, 1) == '{\n "1": {\n  "k": 2\n }\n}'
    )  # json.dumps turns the key into text
    with pytest.raises(ValueError, match="Out of range float"):
        pretty_json([1, {"x": float("inf")}], 2)
    with pytest.raises(TypeError, match="not JSON serializable"):
        pretty_json({"x": {1, 2}}, 2)


@PROPERTY
@given(HOSTILE)
def test_clean_text_output_is_printable_nfc_and_stable(s: str) -> None:
    out = clean_text(s)
    assert out == unicodedata.normalize("NFC", out)
    assert clean_text(out) == out
    assert not invisible_characters(out)
    assert all(unicodedata.category(ch) not in ("Cc", "Cs") for ch in out)
    kept = clean_text(s, keep_newlines=True)
    assert all(ch == "\n" or unicodedata.category(ch) not in ("Cc", "Cs", "Zl", "Zp") for ch in kept)


# --------------------------------------------------------------------------------------------------------------
# Python-Markdown with the extensions a Material site enables (what MkDocs publishes)

MATERIAL_EXTENSIONS = [
    "abbr",
    "admonition",
    "attr_list",
    "def_list",
    "footnotes",
    "md_in_html",
    "tables",
    "toc",
    "pymdownx.arithmatex",
    "pymdownx.caret",
    "pymdownx.details",
    "pymdownx.emoji",
    "pymdownx.highlight",
    "pymdownx.inlinehilite",
    "pymdownx.keys",
    "pymdownx.magiclink",
    "pymdownx.mark",
    "pymdownx.smartsymbols",
    "pymdownx.snippets",
    "pymdownx.superfences",
    "pymdownx.tabbed",
    "pymdownx.tasklist",
    "pymdownx.tilde",
]
_VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "wbr"})


class _Html(HTMLParser):
    """Tags, attributes and decoded text of an HTML fragment, with the text of every element by tag."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text_by_tag: dict[str, list[str]] = {}
        self.text = ""
        self._open: list[str] = []
        self.feed(source)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in _VOID:
            self._open.append(tag)
            self.text_by_tag.setdefault(tag, []).append("")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if tag in self._open:
            del self._open[len(self._open) - 1 - self._open[::-1].index(tag)]

    def handle_data(self, data: str) -> None:
        self.text += data
        for tag in set(self._open):
            self.text_by_tag[tag][-1] += data

    def texts(self, tag: str) -> list[str]:
        return [text.strip() for text in self.text_by_tag.get(tag, [])]


@pytest.fixture(scope="module")
def python_markdown(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], _Html]:
    """Render Markdown like a Material site would, with snippets able to read a directory holding secrets."""
    from material.extensions.emoji import to_svg, twemoji

    base = tmp_path_factory.mktemp("project")
    for name in ("secret.txt", "mkdocs.yml", ".env"):
        (base / name).write_text(f"{CANARY} {name}\n", encoding="utf-8")
    (base / "docs").mkdir()
    engine = markdown.Markdown(
        extensions=MATERIAL_EXTENSIONS,
        extension_configs={
            "pymdownx.snippets": {"base_path": [str(base)], "check_paths": False},
            "pymdownx.magiclink": {
                "repo_url_shorthand": True,
                "social_url_shorthand": True,
                "provider": "github",
                "user": "octo",
                "repo": "site",
            },
            "pymdownx.emoji": {"emoji_index": twemoji, "emoji_generator": to_svg},
            "toc": {"slugify": prefixed_slugify()},
        },
    )

    def render(text: str) -> _Html:
        html = engine.reset().convert(text)
        assert CANARY not in html, text
        return _Html(html)

    return render


def _assert_tags(page: _Html, allowed: set[str], hrefs: frozenset[str] = frozenset()) -> None:
    """Only the expected elements; attributes only where Markdown itself writes them."""
    for tag, attrs in page.tags:
        assert tag in allowed | {"sup"}, (tag, page.tags)  # sup: smartsymbols ordinals such as 1st
        for name, value in attrs.items():
            if tag == "a" and name == "href":
                assert value in hrefs, value
                assert urlsplit(value).scheme in SAFE_SCHEMES
            elif tag.startswith("h") and name == "id":
                assert str(value).startswith("h-")  # the plugin's prefixed toc slugify
            else:
                raise AssertionError(f"unexpected attribute {name}={value!r} on <{tag}>")
    assert sum(1 for tag, _ in page.tags if tag == "a") == len(hrefs)


@pytest.mark.parametrize("payload", ALL_PAYLOADS)
def test_payloads_render_inert_with_python_markdown(
    payload: str, python_markdown: Callable[[str], _Html]
) -> None:
    visible = _visible_line(payload, 300)

    page = python_markdown(f"Before {md_inline(payload)} after.")
    _assert_tags(page, {"p"})
    assert page.texts("p") == [f"Before {visible} after."]

    page = python_markdown(md_inline(payload))
    _assert_tags(page, {"p"})
    assert page.texts("p") == [visible]

    page = python_markdown(f"| h1 | h2 |\n| --- | --- |\n| {md_inline(payload)} | end |")
    _assert_tags(page, {"table", "thead", "tbody", "tr", "th", "td"})
    assert page.texts("td") == [visible, "end"]

    page = python_markdown(f"## {md_title(payload)}")
    _assert_tags(page, {"h2"})
    assert page.texts("h2") == [_visible_title(payload)]

    page = python_markdown(f"Id: {md_code(payload)}")
    _assert_tags(page, {"p"} if visible == EMPTY else {"p", "code"})
    assert page.texts("p") == [f"Id: {visible}"]

    page = python_markdown(md_link(payload, "https://example.com/"))
    _assert_tags(page, {"p", "a"}, frozenset({"https://example.com/"}))
    assert page.texts("a") == [visible if visible != EMPTY else "https://example.com/"]

    for allow_mailto in (False, True):
        safe = safe_url(payload, allow_mailto=allow_mailto)
        hrefs = frozenset({safe}) if safe else frozenset()
        for md in (
            md_link("Docs", payload, allow_mailto=allow_mailto),
            md_url(payload, allow_mailto=allow_mailto),
        ):
            _assert_tags(python_markdown(md), {"p", "a", "code"}, hrefs)

    page = python_markdown(md_text(payload))
    _assert_tags(page, {"p", "br"})
    assert _squeeze(page.text) == (_squeeze(clean_text(payload)) or EMPTY)
    assert len(page.texts("p")) == max(1, _expected_paragraphs(payload))

    value: JSONValue = {"payload": payload, "list": [payload, 1], "nested": {payload: None}}
    page = python_markdown(json_fence(value))
    _assert_tags_in_fence(page)
    assert json.loads(page.texts("code")[0]) == value


def _assert_tags_in_fence(page: _Html) -> None:
    for tag, attrs in page.tags:
        assert tag in {"div", "pre", "span", "code"}, tag
        assert set(attrs) <= {"class"}, attrs
    assert [tag for tag, _ in page.tags].count("code") == 1


@pytest.mark.parametrize("payload", ALL_PAYLOADS)
def test_payloads_are_inert_for_commonmark_and_jinja(payload: str) -> None:
    visible = _visible_line(payload, 300)
    _assert_inert_markdown(f"Before {md_inline(payload)} after.\n")
    _assert_inert_markdown(f"## {md_title(payload)}\n")
    _assert_inert_markdown(f"{md_code(payload)}\n")
    _assert_inert_markdown(f"{md_text(payload)}\n")
    assert mt.table_rows(f"| a | b |\n| - | - |\n| {md_inline(payload)} | end |\n")[1] == [visible, "end"]
    for allow_mailto in (False, True):
        safe = safe_url(payload, allow_mailto=allow_mailto)
        allowed = frozenset({safe}) if safe else frozenset()
        _assert_inert_markdown(f"{md_link('Docs', payload, allow_mailto=allow_mailto)}\n", allowed)
        _assert_inert_markdown(f"{md_url(payload, allow_mailto=allow_mailto)}\n", allowed)
    fence = json_fence([payload])
    assert JINJA.from_string(fence).render() == fence
    assert [json.loads(content) for _, content in mt.fences(fence)] == [[payload]]


def _assert_md_text_in_python_markdown(render: Callable[[str], _Html], s: str) -> None:
    page = render(md_text(s))
    _assert_tags(page, {"p", "br"})
    assert _squeeze(page.text) == (_squeeze(clean_text(s)) or EMPTY)
    page = render(f"| {md_inline(s)} | x |\n| - | - |\n| {md_inline(s)} | y |")
    assert page.texts("td") == [_visible_line(s, 300), "y"]


@PROPERTY
@given(HOSTILE)
def test_hostile_text_is_inert_in_python_markdown(python_markdown: Callable[[str], _Html], s: str) -> None:
    _assert_md_text_in_python_markdown(python_markdown, s)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
@given(HOSTILE)
def test_hostile_text_is_inert_in_python_markdown_thoroughly(
    python_markdown: Callable[[str], _Html], s: str
) -> None:
    _assert_md_text_in_python_markdown(python_markdown, s)
