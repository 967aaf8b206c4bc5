"""The readable encoders, checked in every engine our pages meet (``tests/support/engines.py``).

For each hostile payload and each place card text goes (a sentence, the start of a line, a list item, a table
cell, a heading, a code span, link text, a paragraph of prose, a quote, a JSON block), every engine must show
exactly the text a reader should see, inside exactly the elements we wrote: no tag, attribute, link or included
file that came from the card. Hypothesis adds random mixtures of the constructs every engine knows.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jinja2 import Environment

from a2a_docgen.model import JSONValue
from a2a_docgen.render.escape import (
    EMPTY,
    clean_text,
    code_safe,
    json_fence,
    md_code,
    md_inline,
    md_link,
    md_text,
    md_title,
    md_url,
    safe_url,
)
from tests.support.engines import ENGINES, Html, engine
from tests.support.payloads import ALL_PAYLOADS, HOSTILE, JSON_VALUES

ALL_ENGINES = list(ENGINES)
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# GitHub's e-mail autolink (cmark-gfm, checked on its engine): a domain of letters, digits, ".", "-" and "_"
# with a "." in it, not ending in ".", "-" or "_", any label empty ("ops@example.c" at a title cut at its
# length, "0@.a")
_EMAIL = re.compile(r"[A-Za-z0-9._+-]+@[A-Za-z0-9._-]*\.[A-Za-z0-9._-]*(?<![-_.])")


def visible_line(s: str, max_len: int = 300) -> str:
    text = clean_text(" ".join(clean_text(s).split()), max_len=max_len)
    return text or EMPTY


def visible_title(s: str) -> str:
    return visible_line(s.replace("<", "\u2039").replace(">", "\u203a"), 120)


def squeeze(text: str) -> str:
    return "".join(text.split())


def _autolink(href: str, text: str, engine_name: str) -> bool:
    """An engine's own autolink: an http(s) or mailto link whose text is the address it goes to. Only GitHub
    may make one of card text (it links addresses in any text node, references decoded); magiclink's
    (Zensical's default profile) are prevented by the encoders: a card's e-mail address stays text."""
    scheme, _, rest = href.partition(":")
    if engine_name != "github":
        return False
    if scheme == "mailto":
        return bool(_EMAIL.fullmatch(rest)) and text in (rest, href)
    return scheme in ("http", "https") and text.rstrip("/") in (
        href.rstrip("/"),
        rest.lstrip("/").rstrip("/"),
    )


def check_elements(page: Html, allowed: Iterable[str], hrefs: Iterable[str] = (), where: str = "") -> None:
    """Only ``allowed`` elements; links only to ``hrefs`` (or an engine's autolink of an address the text
    shows); attributes only the ones an engine writes itself."""
    # sup: smartsymbols ordinals (1st), typography only; wbr: where our profile lets a long code span wrap;
    # button: our profile's copy button after a URL in code (mkdocs-material).
    allowed_tags = {*allowed, "sup", "wbr", "button"}
    links = set(hrefs)
    link_texts = iter(page.texts("a"))
    for tag, attrs in page.tags:
        if tag == "a":
            text = next(link_texts)
            href = str(attrs.get("href"))
            if attrs.get("class") == "headerlink" and href.startswith("#"):
                continue  # the permalink of a heading (toc's permalink option)
            if href not in links:
                assert _autolink(href, text, page.engine), (where, href, text, page.source)
                continue
        assert tag in allowed_tags, (where, tag, page.source)
        for name, value in attrs.items():
            if (
                (tag == "a" and name in ("href", "rel", "class", "title"))
                or (tag[0] == "h" and name == "id")
                or (
                    tag == "button"
                    and name in ("class", "type", "title", "aria-label", "data-clipboard-text")
                )
            ):
                continue
            raise AssertionError((where, f"unexpected {name}={value!r} on <{tag}>", page.source))


def assert_inline_inert(s: str, name: str) -> None:
    out = md_inline(s)
    assert "\n" not in out
    visible = visible_line(s)
    page = engine(name, f"Before {out} after.\n")
    check_elements(page, {"p", "code", "a"}, where="sentence")
    assert page.texts("p") == [f"Before {visible} after."], name
    page = engine(name, f"{out}\n")
    check_elements(page, {"p", "code", "a"}, where="line start")
    assert page.texts("p") == [visible], name
    page = engine(name, f"- {out}\n- end\n")
    check_elements(page, {"ul", "li", "p", "code", "a"}, where="list item")
    assert page.texts("li") == [visible, "end"], name
    page = engine(name, f"| h1 | h2 |\n| --- | --- |\n| {out} | end |\n")
    check_elements(page, {"table", "thead", "tbody", "tr", "th", "td", "code", "a"}, where="cell")
    assert page.texts("td") == [visible, "end"], name


def assert_title_inert(s: str, name: str) -> None:
    title = md_title(s)
    page = engine(name, f"## {title}\n")
    check_elements(page, {"h2", "code", "a"}, where="heading")
    assert page.texts("h2") == [visible_title(s)], name
    if name in ("ours", "suite"):  # engines that read an explicit id
        page = engine(name, f"## {title} {{#skill-x-0123456789}}\n")
        assert page.texts("h2") == [visible_title(s)], name
        assert [attrs.get("id") for tag, attrs in page.tags if tag == "h2"] == ["skill-x-0123456789"]


def assert_code_inert(s: str, name: str) -> None:
    out = md_code(s)
    visible = visible_line(s)
    page = engine(name, f"Id: {out} end\n")
    check_elements(page, {"p", "code"}, where="code")
    assert page.texts("p") == [f"Id: {visible} end"], name
    if visible != EMPTY:
        assert page.texts("code") == [visible], name
    page = engine(name, f"| h1 | h2 |\n| --- | --- |\n| {out} | end |\n")
    assert page.texts("td") == [visible, "end"], name


def assert_links_inert(s: str, name: str) -> None:
    page = engine(name, md_link(s, "https://example.com/") + "\n")
    check_elements(page, {"p", "a"}, {"https://example.com/"}, where="link text")
    shown = visible_line(s)
    assert page.texts("a") == [shown if shown != EMPTY else "https://example.com/"], name
    for allow_mailto in (False, True):
        safe = safe_url(s, allow_mailto=allow_mailto)
        hrefs = {safe} if safe else set()
        for md in (md_link("Docs", s, allow_mailto=allow_mailto), md_url(s, allow_mailto=allow_mailto)):
            page = engine(name, md + "\n")
            check_elements(page, {"p", "a", "code"}, hrefs, where="url")
            ours = [
                attrs.get("href") for tag, attrs in page.tags if tag == "a" and attrs.get("href") in hrefs
            ]
            assert len(ours) == len(hrefs), (name, md)


def _paragraphs(s: str) -> int:
    groups = re.split(r"\n\s*\n", clean_text(s, keep_newlines=True).strip())
    return max(1, sum(1 for group in groups if group.split()))


def assert_text_inert(s: str, name: str) -> None:
    out = md_text(s)
    page = engine(name, out + "\n")
    check_elements(page, {"p", "br", "code", "a"}, where="prose")
    assert squeeze(page.text) == (squeeze(clean_text(s)) or EMPTY), name
    assert len(page.texts("p")) == _paragraphs(s), name
    quoted = "\n".join(f"> {line}" if line else ">" for line in out.split("\n"))
    page = engine(name, f"Intro.\n\n{quoted}\n")
    check_elements(page, {"p", "br", "code", "a", "blockquote"}, where="quote")
    assert squeeze(page.text) == "Intro." + (squeeze(clean_text(s)) or EMPTY), name


def assert_fence_inert(value: JSONValue, name: str) -> None:
    page = engine(name, json_fence(value) + "\n")
    for tag, attrs in page.tags:
        assert tag in {"div", "pre", "span", "code"}, (name, tag)
        assert set(attrs) <= {"class", "lang", "tabindex"}, (name, attrs)
    assert json.loads(page.text_by_tag["code"][0]) == value


CHECKS = {
    "inline": assert_inline_inert,
    "title": assert_title_inert,
    "code": assert_code_inert,
    "links": assert_links_inert,
    "text": assert_text_inert,
}


@pytest.mark.parametrize("name", ALL_ENGINES)
@pytest.mark.parametrize("check", list(CHECKS))
@pytest.mark.parametrize("payload", ALL_PAYLOADS, ids=range(len(ALL_PAYLOADS)))
def test_payloads_are_inert(payload: str, check: str, name: str) -> None:
    CHECKS[check](payload, name)


@pytest.mark.parametrize("name", ALL_ENGINES)
@pytest.mark.parametrize("payload", ALL_PAYLOADS, ids=range(len(ALL_PAYLOADS)))
def test_json_blocks_are_inert(payload: str, name: str) -> None:
    value: JSONValue = {"payload": payload, "list": [payload, 1], "nested": {payload: None}}
    assert_fence_inert(value, name)


@PROPERTY
@given(HOSTILE)
def test_hostile_text_is_inert_everywhere(s: str) -> None:
    for name in ALL_ENGINES:
        for check in CHECKS.values():
            check(s, name)


_JINJA = Environment(keep_trailing_newline=True)


@pytest.mark.parametrize("payload", ALL_PAYLOADS, ids=range(len(ALL_PAYLOADS)))
def test_no_template_syntax_outside_code(payload: str) -> None:
    """Outside code spans nothing opens a Jinja (or ``[[``/``<<``-delimited) expression; code spans are
    covered by the pages' ``render_macros: false``."""
    for out in (md_inline(payload), md_title(payload), md_text(payload), md_link(payload, "https://e.com/")):
        prose = re.sub(r"`[^`]*`", "", out)
        assert not re.search(r"\{[{%#]|\[\[|<<", prose), out
        assert _JINJA.from_string(out).render() == out


READABLE = {
    "Customs Pre-Arrival Notice": "Customs Pre-Arrival Notice",
    "Version 3.4.0, text/plain and customs:file": "Version 3.4.0, text/plain and customs:file",
    "It's 50% off; really?": "It's 50% off; really?",
    "snake_case_name": "snake_case_name",
    "Docs at https://docs.example.com/a_b.": "Docs at `https://docs.example.com/a_b`.",
    "Mail support@example.com (24/7)": "Mail support&#64;example.com (24/7)",
    "A > B, x-y, C#, 2+2=4": "A > B, x-y, C#, 2+2=4",
}


@pytest.mark.parametrize(("text", "expected"), READABLE.items())
def test_plain_text_stays_literal(text: str, expected: str) -> None:
    assert md_text(text) == expected
    assert md_inline(text) == expected


@pytest.mark.parametrize(
    "value", ["3.4.0", "text/plain", "customs:file", "X-Partner-Key", "https://a.example/x?y=1#z"]
)
def test_code_like_values_are_backtick_spans(value: str) -> None:
    assert md_code(value) == f"`{value}`"
    assert code_safe(value)


@given(st.text(max_size=30))
def test_code_safe_text_is_one_code_span_in_every_engine(s: str) -> None:
    if not code_safe(s):
        return
    for name in ALL_ENGINES:
        page = engine(name, f"Id: `{s}` end\n")
        assert [tag for tag, _ in page.tags] == ["p", "code"], (name, s)


def assert_fragments_inert(a: str, b: str, name: str) -> None:
    """Two fragments encoded apart and set side by side by a template stay two plain texts: nothing pairs
    across them (``$…$``, ``~…~``, ``(c)``, ``:smile:``, ``&amp;``)."""
    va, vb = visible_line(a), visible_line(b)
    for md, expected in (
        (f"{md_inline(a)} ({md_inline(b)})", f"{va} ({vb})"),
        (f"{md_inline(a)}, {md_inline(b)}", f"{va}, {vb}"),
        (f"**Tags:** {md_inline(a)} and {md_code(b)}", f"Tags: {va} and {vb}"),
        (f"- {md_link(a, 'https://example.com/')}: {md_inline(b)}", None),
    ):
        page = engine(name, md + "\n")
        check_elements(page, {"p", "code", "a", "strong", "ul", "li"}, {"https://example.com/"}, where=md)
        if expected is not None:
            assert page.texts("p") == [expected], (name, md)


@PROPERTY
@given(HOSTILE, HOSTILE)
def test_fragments_side_by_side_are_inert(a: str, b: str) -> None:
    for name in ALL_ENGINES:
        assert_fragments_inert(a, b, name)


@PROPERTY
@given(JSON_VALUES)
def test_json_blocks_round_trip_in_every_engine(value: JSONValue) -> None:
    for name in ALL_ENGINES:
        assert_fence_inert(value, name)


_DIALECT_PAGE = (
    '{% import "_macros.md.jinja" as m with context %}'
    '{% call m.admonition("note") %}The skill accepts {{ text | md_inline }}, no text.{% endcall %}\n\n'
    "{{ m.variants(variants) }}\n"
)


def _dialect_page(payload: str, dialect: str) -> str:
    from a2a_docgen.render.env import CardText, template_env
    from a2a_docgen.render.escape import json_text

    body = json_text({"text": payload})
    variants = [
        {"label": "Request body", "language": "json", "code": body},
        {"label": "curl", "language": "sh", "code": f"curl -d @- <<'EOF'\n{body}\nEOF"},
    ]
    template = template_env().from_string(_DIALECT_PAGE)
    return template.render(text=CardText(payload), variants=variants, dialect=dialect, page_path="index.md")


@pytest.mark.parametrize(
    ("dialect", "name"), [("material", "zensical"), ("material", "suite"), ("github", "ours")]
)
@pytest.mark.parametrize("payload", ALL_PAYLOADS, ids=range(len(ALL_PAYLOADS)))
def test_payloads_are_inert_in_admonitions_and_tabs(payload: str, dialect: str, name: str) -> None:
    """Card text in a note and in the request tabs of each dialect, through the engines that read it: one
    admonition whose text is ours around the payload's, one tab set of two blocks, the JSON intact."""
    page = engine(name, _dialect_page(payload, dialect))
    allowed = {"div", "p", "code", "pre", "span", "input", "label", "a"}
    assert page.tag_names() <= allowed | {"wbr", "button", "sup"}, page.source
    admonitions = [a for t, a in page.tags if t == "div" and "admonition" in str(a.get("class")).split()]
    assert len(admonitions) == 1, page.source
    assert page.texts("p")[:2] == ["Note", f"The skill accepts {visible_line(payload)}, no text."], (
        page.source
    )
    tabs = [a for t, a in page.tags if t == "div" and "tabbed-set" in str(a.get("class")).split()]
    assert len(tabs) == 1, page.source
    assert page.texts("label") == ["Request body", "curl"]
    assert json.loads(page.text_by_tag["pre"][0]) == {"text": payload}
    for tag, attrs in page.tags:
        if tag == "a":
            assert attrs.get("class") == "headerlink" or str(attrs.get("href", "")).startswith("#"), attrs
