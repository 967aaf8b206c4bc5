"""The block rule for our lists and one-line paragraphs (``html.simple_blocks``) makes the tokens markdown-it-py's
own rules make, attribute for attribute (source maps, levels, hidden paragraphs): on the pages of the example
catalogue, the hostile corpus, the real cards, the synthetic catalogue, a change history with hostile commit
messages, cards with hostile text, and fuzzed Markdown shaped like our lists and not quite. And it takes our
pages' lists: they parse the same with markdown-it-py's list rule turned off.
"""

from __future__ import annotations

import copy
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

import a2a_docgen.html as html_module
from a2a_docgen.history.read import clear_cache, read_history
from tests.conftest import REPO
from tests.support.history_repo import CardRepo, maps_card, story_repo
from tests.support.page_corpora import CORPORA, HOSTILE_TEXTS, corpus_pages, hostile_text_pages, pages_of
from tests.support.payloads import ALL_PAYLOADS

REFERENCE = html_module._parser(lists=False, memo=False)
SHORTCUT = html_module._parser(memo=False)


def tokens_of(md: MarkdownIt, markdown: str) -> list[Any]:
    """Every attribute of every token, children included, of a page as ``to_html`` parses it."""
    source, _ = html_module._set_fences_aside(html_module._FRONT_MATTER.sub("", markdown, count=1))
    return _dump(md.parse(source, {}))


def _dump(tokens: list[Token]) -> list[Any]:
    return [
        (
            t.type,
            t.tag,
            t.nesting,
            t.attrs,
            t.map,
            t.level,
            None if t.children is None else _dump(t.children),
            t.content,
            t.markup,
            t.info,
            t.meta,
            t.block,
            t.hidden,
        )
        for t in tokens
    ]


def assert_same(markdown: str) -> None:
    assert tokens_of(SHORTCUT, markdown) == tokens_of(REFERENCE, markdown)


@pytest.mark.parametrize("corpus", CORPORA)
def test_the_corpora(corpus: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    for text in corpus_pages(corpus, request, tmp_path).values():
        assert_same(text)


def _history_pages(repo: CardRepo) -> dict[str, str]:
    clear_cache()
    read = read_history(["cards"], base=str(repo.root))
    assert read.history is not None, read.message
    cwd = os.getcwd()
    os.chdir(repo.root)
    try:
        return pages_of([Path("cards")], history=read.history)
    finally:
        os.chdir(cwd)


_GIT = subprocess.run(["git", "--version"], capture_output=True, check=False).returncode == 0


@pytest.mark.skipif(not _GIT, reason="git is not installed")
def test_the_pages_of_a_change_history(tmp_path: Path) -> None:
    repo, _ = story_repo(tmp_path / "repo")
    pages = _history_pages(repo)
    assert any(path.endswith("/history.md") for path in pages)
    for text in pages.values():
        assert_same(text)


def _storable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@pytest.mark.skipif(not _GIT, reason="git is not installed")
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    messages=st.lists(
        # A commit message is text git stores as UTF-8: no lone surrogates (a str only Python can hold)
        st.sampled_from([payload for payload in ALL_PAYLOADS if _storable(payload)])
        | st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30),
        min_size=1,
        max_size=3,
    )
)
def test_a_change_history_with_hostile_commit_messages(
    tmp_path_factory: pytest.TempPathFactory, messages: list[str]
) -> None:
    repo = CardRepo(tmp_path_factory.mktemp("repo"))
    card = maps_card()
    repo.write("maps.json", card)
    repo.commit("Start")
    for number, message in enumerate(messages):
        card = copy.deepcopy(card)
        card["version"] = f"1.{number + 1}.0"
        repo.write("maps.json", card)
        subject = message.replace("\x00", "")
        repo.commit(subject if subject.strip() else "x")  # git refuses an empty message
    for text in _history_pages(repo).values():
        assert_same(text)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=HOSTILE_TEXTS)
def test_pages_of_cards_with_hostile_text(
    tmp_path_factory: pytest.TempPathFactory, texts: dict[str, str]
) -> None:
    for text in hostile_text_pages(tmp_path_factory.mktemp("cards"), **texts).values():
        assert_same(text)


# Lines shaped like our lists and paragraphs, and lines one step off them: other markers, indents, tabs, text
# that opens a block (a heading, a quote, a fence, an ordered list, a reference definition, a setext underline).
_RISKY = st.text(alphabet="ab1 *_`[]():#>|<=-+.)!\\\t\u00a0", max_size=12)
_START = st.sampled_from(
    ["a", "Z", "**b", "`c", "[d](e)", "[f]: g", "7 ", "1. ", "12) ", "* ", "#", "> ", "<p>", ""]
)
_SAFE = st.sampled_from(["a", "Z", "**b", "`c", "[d](e)", "7 "])
_ITEM = st.builds(
    lambda s, t, nested: "\n".join([f"- {s}{t}", *nested]),
    _SAFE,
    _RISKY,
    st.lists(
        st.builds(lambda n, s, t: " " * n + f"- {s}{t}", st.sampled_from([2, 4]), _SAFE, _RISKY), max_size=3
    ),
)
_LIST = st.builds(
    lambda items, end: "\n".join(items) + end,
    st.lists(_ITEM, min_size=1, max_size=4),
    st.sampled_from(["\n", ""]),
)
"""A list of our shape (its items' text may end in anything; nested items' indents sometimes mixed), mostly with a
blank line after it."""
_LINE = st.one_of(
    _LIST,
    _LIST,
    st.builds(lambda s, t: f"- {s}{t}", _START, _RISKY),
    st.builds(lambda n, s, t: " " * n + f"- {s}{t}", st.integers(1, 7), _START, _RISKY),
    st.builds(lambda s, t: f"{s}{t}", _START, _RISKY),
    st.sampled_from(
        ["", "", "   ", "---", "===", "***", "```", "    code", "-", "- ", "+ x", "| a |", "|---|", "\t- t"]
    ),
    _RISKY,
)


@settings(max_examples=400, deadline=None)
@given(lines=st.lists(_LINE, max_size=12))
def test_fuzzed_markdown(lines: list[str]) -> None:
    assert_same("\n".join(lines) + "\n")
    assert_same("\n".join(lines))  # no newline at the end


def test_our_lists_and_labels_take_the_shortcut() -> None:
    """The pages of the example catalogue parse the same with markdown-it-py's list rule off: the shortcut took
    every list on them (and a test that could not fail otherwise can)."""
    no_lists = html_module._parser(memo=False)
    no_lists.disable("list")
    pages = pages_of([REPO / "examples" / "cards"])
    for text in pages.values():
        assert tokens_of(no_lists, text) == tokens_of(REFERENCE, text)
    assert any("\n- **" in text for text in pages.values())


@pytest.mark.parametrize(
    "markdown",
    [
        "- a\n- b\nlazy\n",  # the last item's paragraph goes on
        "- a\n\n- b\n",  # a loose list
        "- a\n\n  b\n",  # the item goes on after a blank line
        "- a\n  - b\n    - c\n",  # three levels
        "- a\n    - b\n  - c\n",  # nested items indented differently
        "- a\n      - b\n",  # indented code in the item
        "- [x]: y\n",  # a reference definition in the item
        "- 1. a\n",  # an ordered list in the item
        "text\n===\n",  # a setext heading
        "**label**\n```\ncode\n```\n",  # a paragraph a fence ends
        "> - a\n",  # a list in a quote
    ],
)
def test_shapes_it_leaves_to_markdown_it(markdown: str) -> None:
    """One step off our shapes: markdown-it-py's rules parse them (the tokens still agree)."""
    assert_same(markdown)
    no_lists = html_module._parser(memo=False)
    no_lists.disable("list")
    if markdown.lstrip("> ").startswith("- "):
        assert tokens_of(no_lists, markdown) != tokens_of(REFERENCE, markdown)


def test_a_parser_with_task_lists_leaves_the_lists_to_markdown_it() -> None:
    """markdown-it-py's ``tasklists`` option makes ``- [x] done`` a checkbox; our profile has it off, and where it
    is on the rule takes no list (the tokens still agree)."""
    reference = html_module._parser(lists=False, memo=False)
    shortcut = html_module._parser(memo=False)
    for md in (reference, shortcut):
        md.options["tasklists"] = True
    for markdown in ("- [x] done\n- [ ] to do\n", "- a\n  - [x] b\n"):
        assert tokens_of(shortcut, markdown) == tokens_of(reference, markdown)
