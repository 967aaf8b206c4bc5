"""The Markdown engines our pages meet, each rendering a fragment to HTML, and a parser of that HTML.

- ``github``: cmark-gfm, GitHub's own engine (tables, strikethrough, autolinks, task lists, tag filter), raw
  HTML passed through so that any HTML it parsed shows up;
- ``commonmark``: markdown-it-py's CommonMark preset with tables;
- ``ours``: the plugin's sealed profile (``a2a_docgen.html``);
- ``mkdocs``: Python-Markdown with MkDocs' defaults (toc, tables, fenced_code);
- ``suite``: Python-Markdown with the extensions a Material or Zensical site enables and the whole pymdownx
  suite, critic, escapeall and fancylists included, markdown-include, and snippets able to read a directory
  of canary files. magiclink has its shorthand references on, so mentions and issue links would show;
- ``zensical``: Python-Markdown with Zensical's default profile exactly (``ZENSICAL_DEFAULTS``, as
  zensical 0.0.73 sets it when ``markdown_extensions`` is unset: twemoji as inline SVG, magiclink,
  smartsymbols, tabbed ...), the profile a user gets by deleting the one ``init`` writes;
- ``pymdownx``: MkDocs' defaults plus pymdownx.emoji, magiclink and smartsymbols with their own default
  settings (emoji as ``<img>`` from a CDN), as a MkDocs site might enable them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import cmarkgfm
import markdown
from cmarkgfm.cmark import Options
from markdown_it import MarkdownIt

from a2a_docgen.html import Theme, to_html

__all__ = ["CANARY", "ENGINES", "Html", "engine"]

CANARY = "CANARY-7f3a9c-not-for-publication"

SUITE_EXTENSIONS = [
    "abbr",
    "admonition",
    "attr_list",
    "def_list",
    "footnotes",
    "md_in_html",
    "tables",
    "toc",
    "markdown_include.include",
    "pymdownx.arithmatex",
    "pymdownx.betterem",
    "pymdownx.blocks.admonition",
    "pymdownx.blocks.details",
    "pymdownx.blocks.tab",
    "pymdownx.caret",
    "pymdownx.critic",
    "pymdownx.details",
    "pymdownx.emoji",
    "pymdownx.escapeall",
    "pymdownx.fancylists",
    "pymdownx.highlight",
    "pymdownx.inlinehilite",
    "pymdownx.keys",
    "pymdownx.magiclink",
    "pymdownx.mark",
    "pymdownx.progressbar",
    "pymdownx.saneheaders",
    "pymdownx.smartsymbols",
    "pymdownx.snippets",
    "pymdownx.superfences",
    "pymdownx.tabbed",
    "pymdownx.tasklist",
    "pymdownx.tilde",
]


def zensical_defaults() -> dict[str, dict[str, object]]:
    """Zensical's default Markdown profile (``zensical.config.DEFAULT_MARKDOWN_EXTENSIONS`` in 0.0.73, whose
    emoji index needs zensical itself: without it, pymdownx's own twemoji index, the same emoji)."""
    try:
        from zensical.config import DEFAULT_MARKDOWN_EXTENSIONS
    except ImportError:
        from pymdownx.emoji import to_svg, twemoji

        return {
            "abbr": {},
            "admonition": {},
            "attr_list": {},
            "def_list": {},
            "footnotes": {},
            "md_in_html": {},
            "toc": {"permalink": True},
            "pymdownx.arithmatex": {"generic": True},
            "pymdownx.betterem": {},
            "pymdownx.caret": {},
            "pymdownx.details": {},
            "pymdownx.emoji": {"emoji_generator": to_svg, "emoji_index": twemoji},
            "pymdownx.highlight": {
                "anchor_linenums": True,
                "line_spans": "__span",
                "pygments_lang_class": True,
            },
            "pymdownx.inlinehilite": {},
            "pymdownx.keys": {},
            "pymdownx.magiclink": {},
            "pymdownx.mark": {},
            "pymdownx.smartsymbols": {},
            "pymdownx.superfences": {"custom_fences": [{"name": "mermaid", "class": "mermaid"}]},
            "pymdownx.tabbed": {"alternate_style": True, "combine_header_slug": True},
            "pymdownx.tasklist": {"custom_checkbox": True},
            "pymdownx.tilde": {},
        }
    return {name: dict(config) for name, config in DEFAULT_MARKDOWN_EXTENSIONS.items()}


_VOID = frozenset({"br", "hr", "img", "input", "meta", "link", "wbr"})


class Html(HTMLParser):
    """Tags, attributes and decoded text of an HTML fragment, with the text of every element by tag."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.engine = ""
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
        return [" ".join(text.split()) for text in self.text_by_tag.get(tag, [])]

    def tag_names(self) -> set[str]:
        return {tag for tag, _ in self.tags}


def _github(md: str) -> str:
    return cmarkgfm.github_flavored_markdown_to_html(md, options=Options.CMARK_OPT_UNSAFE)


@functools.cache
def _commonmark_parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def _commonmark(md: str) -> str:
    return _commonmark_parser().render(md)


def _ours(md: str) -> str:
    return to_html(md, theme=Theme("material")).with_links(str)


@functools.cache
def _canary_dir() -> Path:
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="a2a-docgen-engines-"))
    for name in ("secret.txt", "mkdocs.yml", ".env"):
        (base / name).write_text(f"{CANARY} {name}\n", encoding="utf-8")
    return base


@functools.cache
def _python_markdown(suite: bool) -> markdown.Markdown:
    if not suite:
        return markdown.Markdown(extensions=["toc", "tables", "fenced_code"])
    from material.extensions.emoji import to_svg, twemoji

    base = str(_canary_dir())
    return markdown.Markdown(
        extensions=SUITE_EXTENSIONS,
        extension_configs={
            "markdown_include.include": {"base_path": base},
            "pymdownx.snippets": {"base_path": [base], "check_paths": False},
            "pymdownx.magiclink": {
                "repo_url_shorthand": True,
                "social_url_shorthand": True,
                "provider": "github",
                "user": "octo",
                "repo": "site",
            },
            "pymdownx.emoji": {"emoji_index": twemoji, "emoji_generator": to_svg},
        },
    )


@functools.cache
def _zensical_markdown() -> markdown.Markdown:
    profile = zensical_defaults()
    return markdown.Markdown(extensions=["tables", *profile], extension_configs=profile)


@functools.cache
def _pymdownx_markdown() -> markdown.Markdown:
    return markdown.Markdown(
        extensions=[
            "toc",
            "tables",
            "fenced_code",
            "pymdownx.emoji",
            "pymdownx.magiclink",
            "pymdownx.smartsymbols",
        ]
    )


# Markup Zensical's profile writes itself, exactly: a heading's permalink, and each code line's span and anchor.
_OWN_MARKUP = re.compile(
    r'<a class="headerlink" href="#[\w-]+" title="Permanent link">&para;</a>'
    r'|<span id="__span-\d+-\d+">(?=<a id="__codelineno-)'
    r'|<a id="__codelineno-(\d+-\d+)" name="__codelineno-\1" href="#__codelineno-\1"></a>'
)


def _zensical(md: str) -> str:
    """Zensical's profile, without the markup it adds on its own to every heading and code line (the line
    spans' closing tags stay; the checks only count opening tags and text)."""
    return _OWN_MARKUP.sub("", _zensical_markdown().reset().convert(md))


def _pymdownx(md: str) -> str:
    return _pymdownx_markdown().reset().convert(md)


def _mkdocs(md: str) -> str:
    return _python_markdown(False).reset().convert(md)


def _suite(md: str) -> str:
    return _python_markdown(True).reset().convert(md)


ENGINES: dict[str, Callable[[str], str]] = {
    "github": _github,
    "commonmark": _commonmark,
    "ours": _ours,
    "mkdocs": _mkdocs,
    "suite": _suite,
    "zensical": _zensical,
    "pymdownx": _pymdownx,
}


def engine(name: str, md: str) -> Html:
    """``md`` rendered by the named engine, parsed; fails if a canary file's content was included."""
    rendered = ENGINES[name](md)
    assert CANARY not in rendered, (name, md, rendered)
    page = Html(rendered)
    page.engine = name
    return page
