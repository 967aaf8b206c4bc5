"""The context encoders: fixture files (markdown-it-py style) and the behaviour fixtures cannot show.

Inertness in every engine our pages meet is proven in tests/test_escape_engines.py; this file shows what the
encoders write, case by case, so that a reviewer can read the rules as examples.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from jinja2 import Environment

from a2a_docgen.render.escape import (
    EMPTY,
    FILTERS,
    LEFT_OUT,
    code_safe,
    json_fence,
    md_code,
    md_fence,
    md_heading,
    md_inline,
    md_link,
    md_table_row,
    md_text,
    md_title,
    md_url,
)
from a2a_docgen.text.preprocessor import preprocessor_syntax
from a2a_docgen.text.unicode import clean_text
from a2a_docgen.text.urls import safe_url

FIXTURES = Path(__file__).parent / "fixtures" / "escape"
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


RUNNERS: dict[str, Callable[[str], str]] = {
    "clean_text": clean_text,
    "clean_text_keep_newlines": lambda s: clean_text(s, keep_newlines=True),
    "json_fence": lambda s: json_fence(json.loads(s)),
    "md_code": md_code,
    "md_inline": md_inline,
    "md_link": _link_case,
    "md_text": md_text,
    "md_title": md_title,
    "md_url": md_url,
    "safe_url": lambda s: safe_url(s) or "REJECTED",
    "safe_url_mailto": lambda s: safe_url(s, allow_mailto=True) or "REJECTED",
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


def test_encoders_cut_long_text() -> None:
    assert md_inline("a" * 400) == "a" * 299 + "\u2026"
    assert md_title("b" * 400) == "b" * 119 + "\u2026"
    assert md_inline("x y", max_len=2) == "x\u2026"
    assert md_text("word " * 5000).endswith("\u2026")
    assert len(md_text("w" * 30_000)) == 20_000


def test_none_is_empty_and_other_types_are_refused() -> None:
    for encoder in (md_inline, md_text, md_title, md_code):
        assert encoder(None) == EMPTY
        with pytest.raises(TypeError, match="expected text"):
            encoder(42)  # type: ignore[arg-type]
    assert md_url(None) == EMPTY
    assert md_link(None, None) == EMPTY


def test_md_link_variants() -> None:
    assert md_link("Docs", None) == "Docs"
    assert md_link("Docs", "") == "Docs"
    assert md_link("Docs", "https://docs.example/x", show_host=True) == (
        "[Docs](https://docs.example/x) (docs.example)"
    )
    assert md_link("Mail", "mailto:a@example.com", allow_mailto=True, show_host=True) == (
        "[Mail](mailto:a@example.com)"
    )
    assert md_link("Mail", "mailto:a@example.com") == "Mail (`mailto:a@example.com`, not a safe link)"
    assert md_link("Odd", {"url": 1}) == "Odd (`{'url': 1}`, not a safe link)"
    assert md_url(12) == "`12` (not a safe link)"
    assert md_url("mailto:a@example.com", allow_mailto=True) == "[a&#64;example.com](mailto:a@example.com)"


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
    assert json_fence({"a": "{{x}} {-- y"}, indent=0) == '```json\n{\n"a": "\\u007b{x}} \\u007b-- y"\n}\n```'


def test_md_fence_leaves_out_code_with_preprocessor_syntax() -> None:
    assert md_fence("echo `x`", "sh") == "```sh\necho `x`\n```"
    assert md_fence("a ``` b", "sh").startswith("````sh\n")
    for bad in ("--8<-- 'x'", "x {{ y }}", "x {-- y", "a\x00b"):
        shown = md_fence(bad, "sh")  # never raises: one card's request never breaks a build
        assert shown == f"```text\n{LEFT_OUT}\n```"
        assert preprocessor_syntax(shown) is None


def test_code_spans_only_where_every_engine_agrees() -> None:
    assert code_safe("application/json")
    for text in ("a`b", "a|b", " x", "x {-- y", "{!f!}", "{{ x }}", "#!python x", "x &amp", "a\x00b", ""):
        assert not code_safe(text), text


def test_md_heading_labels_only_text_that_could_clobber_a_theme_id() -> None:
    assert md_heading("Weather", "Agent") == "Weather"
    assert md_heading("__config", "Agent") == "Agent: &#95;&#95;config"
    assert md_heading("search", "Agent") == "Agent: search"
    assert md_heading("Weather", "Agent", always=True) == "Agent: Weather"
    with pytest.raises(ValueError, match="label"):
        md_heading("x", "__config")


def test_filters_are_the_encoders_templates_use() -> None:
    assert set(FILTERS) == {
        "md_inline",
        "md_text",
        "md_title",
        "md_code",
        "md_link",
        "md_link_text",
        "md_url",
        "json_fence",
        "md_fence",
        "md_heading",
    }
    env = Environment(autoescape=False, keep_trailing_newline=True)
    env.filters.update(FILTERS)
    page = env.from_string(
        "# {{ name | md_title }}\n\n{{ desc | md_text }}\n\n| {{ tag | md_inline }} | {{ url | md_url }} |\n"
    ).render(name="<b>A</b>", desc="x\n\ny", tag="a | b", url="https://e.example/")
    assert page == "# ‹b›A‹/b›\n\nx\n\ny\n\n| a &#124; b | [https://e.example/](https://e.example/) |\n"


def test_a_character_reference_never_straddles_the_end_of_a_url() -> None:
    """The punctuation cut off a URL's end could complete a reference the URL began: the page would show the
    character it names (a raw U+202E, a ">") instead of the text."""
    from a2a_docgen.html import to_html

    for text, shown in (
        ("www.pay.example/&#x202e;", "www.pay.example/&amp;#x202e;"),
        ("see https://x.example/a&#x202e; now", "see https://x.example/a&amp;#x202e; now"),
        ("www.&lt;/title&gt;...", "www.&amp;lt;/title&amp;gt;..."),
    ):
        html = to_html(md_inline(text) + "\n").html
        assert "\u202e" not in html
        assert shown in html, (text, html)


def test_card_text_never_reaches_our_own_heading_ids() -> None:
    """An agent named "Agents" must not get the id the home page's script hooks onto, nor a skill's anchor."""
    from a2a_docgen.html import to_html
    from a2a_docgen.render.escape import OWN_IDS

    names = (
        "Agents",
        "Details",
        "Card quality",
        "Problems",
        "Signatures",
        "Changes",
        "Requests",
        "Extended card",
    )
    for name in (*names, "skill-search-0c87cc390f"):
        heading = to_html(f"# {md_heading(name, 'Agent')}\n").toc[0].id
        assert heading not in OWN_IDS, name
        assert not heading.startswith("skill-"), name


def test_a_template_gives_no_heading_id_but_ours() -> None:
    """``heading_id`` takes the ids of ``OWN_IDS`` and skill anchors only: an id a template gives is one card text
    is kept from."""
    from a2a_docgen.render.env import UnescapedOutputError, template_env

    heading_id = template_env().globals["heading_id"]
    assert heading_id("changes") == "{#changes}"
    assert heading_id("skill-search-0c87cc390f") == "{#skill-search-0c87cc390f}"
    with pytest.raises(UnescapedOutputError, match="OWN_IDS"):
        heading_id("history")
