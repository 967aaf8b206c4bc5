"""The inline memo (``html.inline_memo``) changes nothing: every page converted with one, twice (the second time
from the memo), equals the page converted by markdown-it-py's own inline step, for every theme flavour: the
example catalogue, the hostile corpus, the real cards, the synthetic catalogue, pages of cards with hostile
text, and fuzzed Markdown (reference definitions included, which make a page's ``[text]`` a link). And it is
the caller's: a page converted without one leaves nothing remembered anywhere.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import a2a_docgen.html as html_module
from a2a_docgen.html import InlineMemo, Theme, inline_memo, to_html
from tests.support.page_corpora import CORPORA, HOSTILE_TEXTS, corpus_pages, hostile_text_pages

THEMES = (
    Theme(),
    Theme(flavour="material", permalink="\u00b6"),
    Theme(permalink="#", permalink_title="Link"),
)
_REFERENCE = html_module._parser(memo=False)


@contextlib.contextmanager
def _reference_parser() -> Iterator[None]:
    remembering = html_module._MD
    html_module._MD = _REFERENCE
    try:
        yield
    finally:
        html_module._MD = remembering


def assert_same(markdown: str, memo: InlineMemo, themes: tuple[Theme, ...] = THEMES[1:2]) -> None:
    """The memo changes tokens only, and a theme renders tokens, so one theme shows it on whole pages."""
    for theme in themes:
        with _reference_parser():
            expected = to_html(markdown, theme=theme)
        assert to_html(markdown, theme=theme, memo=memo) == expected
        assert to_html(markdown, theme=theme, memo=memo) == expected  # from the memo this time
        assert to_html(markdown, theme=theme) == expected  # the profile's parser without a memo


@pytest.mark.parametrize("corpus", CORPORA)
def test_the_corpora(corpus: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    memo = InlineMemo()
    for text in corpus_pages(corpus, request, tmp_path).values():
        assert_same(text, memo)
    assert len(memo) > 0  # our pages' lines were remembered


def test_the_memo_stays_bounded() -> None:
    memo = InlineMemo()
    to_html("\n\n".join(f"line {n}" for n in range(inline_memo.MAX_TEXTS + 10)), memo=memo)
    assert 0 < len(memo) <= inline_memo.MAX_TEXTS
    to_html("x" * (inline_memo.MAX_TEXT + 1), memo=memo)
    assert "x" * (inline_memo.MAX_TEXT + 1) not in memo


def test_a_page_with_reference_definitions_neither_reads_nor_fills_the_memo() -> None:
    memo = InlineMemo()
    to_html("[ref] and more\n", memo=memo)
    assert "[ref] and more" in memo
    page = to_html("[ref] and more\n\n[ref]: https://ref.example\n", memo=memo)
    assert 'href="https://ref.example"' in page.html
    assert len(memo) == 1


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=HOSTILE_TEXTS)
def test_pages_of_cards_with_hostile_text(
    tmp_path_factory: pytest.TempPathFactory, texts: dict[str, str]
) -> None:
    memo = InlineMemo()
    for text in hostile_text_pages(tmp_path_factory.mktemp("cards"), **texts).values():
        assert_same(text, memo)


_LINE = st.one_of(
    st.sampled_from(
        [
            "",
            "# Title {#top}",
            "## Skill *one* {#skill-one}",
            "### `code` heading",
            "Setext",
            "===",
            "- **Id:** `x`",
            "- **Tags:** [a](../tags/a.md), [b](b.md#x)",
            "  - nested",
            "1. first",
            "3) third",
            "> [!NOTE]",
            "> quoted *em* and __strong__",
            "| a | b |",
            "|:--|--:|",
            '| `x` | [y](https://y.example "t") |',
            "```json",
            "```",
            '{"a": 1}',
            "    indented code",
            "<https://auto.example/a%20b>",
            "<mailto:x@y.example>",
            "<x@y.example>",
            "[bad](javascript:alert(1))",
            "[intl](https://\u00e9x.example/\u00e4)",
            "![img](p.png)",
            "text\\*escaped\\* &amp; &#x202e; &copy;",
            "hard  ",
            "line<br>break <code>c</code> <b>no</b>",
            "***",
            "[ref]: https://ref.example",
            "[ref] and [ref][]",
        ]
    ),
    st.text(alphabet="ab *_`[]()#<>!&;{}|-:\\\n", max_size=30),
)


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(_LINE, max_size=14))
def test_fuzzed_markdown(lines: list[str]) -> None:
    """Any Markdown, with or without link reference definitions."""
    assert_same("\n".join(lines) + "\n", InlineMemo(), THEMES)
