"""Our pages as HTML, converted by us with one fixed Markdown profile (never the site's extensions).

The catalogue pages are Markdown that a2a-docgen writes: card text encoded by ``render``, structure from our
templates. ``to_html`` turns one such page into the HTML a theme shows, with markdown-it-py configured as
CommonMark plus GFM tables, which is how GitHub shows the same file:

- raw HTML is off except ``<br>`` and ``<code>`` (the hard line break and the code our encoders write);
  any other tag in the source is shown as text, so card text stays text even if an encoder let a ``<`` through;
- links may go to http, https and mailto URLs, or to another page of the site (``resolve_link`` turns those
  into the engine's URLs and may validate them); images are not rendered at all (no tracking pixels);
- a heading's id is the ``{#id}`` written at its end (how our skill headings carry ``#skill-<slug>``), or a
  slug of its text that can never equal an element id of a theme; the permalink follows the site's settings;
- JSON, shell and Python code blocks are highlighted as the theme expects (Pygments' classes); consecutive labelled code blocks (a paragraph that
  is only a bold label, then a fence: the forms of one request) go in one ``a2a-requests`` box that site
  searches skip, as content tabs with mkdocs-material and one after another elsewhere;
- a GitHub alert (``> [!NOTE]``) becomes the admonition the themes style, and a list whose every item starts
  with a bold label (``- **Version:** …``) is a list of facts (``ul.a2a-facts``, ``li.a2a-fact-version``);
- a list item that starts with a bold grade letter (``- **B** [Agent](…)``, the home page's lists) shows it as
  a badge (``strong.a2a-grade.a2a-grade-b``);
- a list item of a bold count of agents and a list (``- **103 agents**``: a commit's agents on "What's new")
  holds the list folded under the count (``<details class="a2a-fold">``).

Card text can write none of these shapes: the encoders encode every ``*``, ``[`` and backtick fence in it.

Nothing here knows MkDocs: the plugin passes the theme's settings and a link resolver.
"""

from __future__ import annotations

import functools
import html
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from a2a_docgen.html.code_highlight import highlight_code
from a2a_docgen.html.inline_memo import ENV_KEY, InlineMemo, remembered_inline
from a2a_docgen.html.json_highlight import highlight_json
from a2a_docgen.render.escape import clobbers_theme, toc_id

__all__ = ["Flavour", "Heading", "HtmlPage", "InlineMemo", "Theme", "front_matter", "to_html"]

Flavour = Literal["material", "plain"]
"""``material``: mkdocs-material's markup (highlight wrappers, content tabs); ``plain``: the classic MkDocs
themes' (``<pre><code class="language-x">`` for highlight.js, no tabs)."""


@dataclass(frozen=True, slots=True)
class Theme:
    """What the HTML must look like for the site's theme."""

    flavour: Flavour = "plain"
    permalink: str | None = None
    """The permalink text after each heading (the toc extension's ``permalink``), or ``None`` for none."""
    permalink_title: str = "Permanent link"


@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    id: str
    text: str
    """The heading as plain text (not HTML)."""
    children: tuple[Heading, ...] = ()


@dataclass(frozen=True, slots=True)
class HtmlPage:
    """One page as HTML, held as UTF-8: our pages carry a few characters beyond Latin-1 (dashes, ellipses), which
    make a ``str`` of the whole page two bytes a character, and an agent page is a quarter of a megabyte of
    mostly ASCII. A site holds every page's HTML between conversion and writing, so this halves it; and a page
    converted by a worker crosses back as the bytes it is."""

    utf8: bytes
    """The HTML, encoded as UTF-8 (``html`` gives it as text)."""
    title: str | None
    """The first level-1 heading as plain text."""
    toc: tuple[Heading, ...]
    """Headings nested by level, as MkDocs' table of contents expects them."""
    ids: frozenset[str]
    """Every element id on the page (for anchor validation)."""
    links: tuple[str, ...] = field(default=())
    """The targets of the links that stay inside the site (other pages, anchors), as written; ``html`` holds a
    placeholder for each (see ``with_links``)."""
    boxes: tuple[tuple[int, int], ...] = field(default=())
    """Where the request boxes are in ``utf8`` (start and end offsets, in order), which ``indexed`` leaves out."""

    @property
    def html(self) -> str:
        return self.utf8.decode("utf-8")

    @property
    def indexed(self) -> str | None:
        """``html`` without its request boxes, the part a site search reads (``None``: the same as ``html``). The
        boxes carry ``data-pagefind-ignore``, so an index made from either is the same; they are most of an agent
        page's bytes, and an indexer that never sees them does a fraction of the work."""
        return self._indexed_utf8().decode("utf-8") if self.boxes else None

    def _indexed_utf8(self) -> bytes:
        if not self.boxes:
            return self.utf8
        starts = (0, *(end for _, end in self.boxes))
        ends = (*(start for start, _ in self.boxes), len(self.utf8))
        return b"".join(self.utf8[start:end] for start, end in zip(starts, ends, strict=True))

    def with_links(self, resolve: LinkResolver, *, indexed: bool = False) -> str:
        """The HTML (or, with ``indexed``, the part a search reads) with each link inside the site made a URL by
        ``resolve`` (``str`` keeps them as written)."""
        text = self._indexed_utf8() if indexed else self.utf8
        if not self.links:
            return text.decode("utf-8")
        # The placeholder holds the target as the HTML attribute does: escaped.
        urls = {
            escapeHtml(link).encode("utf-8"): escapeHtml(resolve(link)).encode("utf-8")
            for link in dict.fromkeys(self.links)
        }
        return _PLACEHOLDER.sub(lambda m: urls[m.group(1)], text).decode("utf-8")


LinkResolver = Callable[[str], str]

# A link inside the site, in ``HtmlPage.html``, until ``with_links`` resolves it. NUL never reaches the HTML
# otherwise: markdown-it replaces it in the source.
_PLACEHOLDER = re.compile(b"\x00([^\x00]*)\x00")

_ALLOWED_HTML = re.compile(r"<br\s*/?>|</?code>")
_EXPLICIT_ID = re.compile(r"[ \t]+\{#([a-z][a-z0-9-]*)\}[ \t]*$")
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
_ALLOWED_SCHEMES = frozenset({"http", "https", "mailto"})


def _validate_link(url: str) -> bool:
    scheme = _SCHEME.match(url)
    return scheme is None or scheme.group(1).lower() in _ALLOWED_SCHEMES


def _parser(*, memo: bool = True) -> MarkdownIt:
    """The profile's parser; ``memo``: its inline step uses the memo a page is converted with (``inline_memo``),
    which makes the tokens markdown-it-py's own inline step makes, sooner."""
    md = MarkdownIt("commonmark", {"html": True, "linkify": False, "typographer": False})
    md.enable("table")
    md.disable("image")
    md.validateLink = _validate_link  # type: ignore[method-assign]
    md.core.ruler.after("block", "a2a_explicit_ids", _explicit_ids)
    if memo:
        md.core.ruler.at("inline", remembered_inline)
    return md


def _explicit_ids(state: StateCore) -> None:
    """``## Title {#id}``: the id moves to the heading (before inline parsing sees the braces)."""
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            inline = tokens[index + 1]
            m = _EXPLICIT_ID.search(inline.content)
            if m is not None:
                token.attrSet("id", m.group(1))
                inline.content = inline.content[: m.start()]


_MD = _parser()


def slugify(text: str) -> str:
    """The id of a heading without an explicit one: Python-Markdown's toc slug of its text, prefixed with
    ``h-`` when that could equal a theme's id, is empty, or starts with a digit (the default theme's scrollspy
    looks each id up as a CSS selector, and ``#1a`` is not one)."""
    slug = toc_id(text)
    return f"h-{slug}".rstrip("-") if clobbers_theme(slug) or slug[:1].isdigit() else slug


_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)


def front_matter(markdown: str) -> str:
    """The front matter block a page starts with (``---`` lines included), or ``""``."""
    match = _FRONT_MATTER.match(markdown)
    return match.group(0) if match else ""


# A backtick fence that starts a line: its info string holds no backtick (CommonMark), and it ends at the first
# later line of at least as many backticks and nothing else.
_FENCE_OPEN = re.compile(r"^(`{3,})([^`\n]*)\n", re.MULTILINE)
_SET_ASIDE = "\x7fa2a-fence-"


def _set_fences_aside(markdown: str) -> tuple[str, list[tuple[str, str]]]:
    """``markdown`` with the content of every fence that starts a line taken out, and (info, content) of each
    in order. Code blocks are most of our pages and markdown-it looks at every character of its input in
    Python; without their content the blocks parse the same (a fence's content never changes what is around
    it) in a fraction of the time, and the renderer puts each content back."""
    fences: list[tuple[str, str]] = []
    out: list[str] = []
    pos = 0
    while (m := _FENCE_OPEN.search(markdown, pos)) is not None:
        ticks, info = m.group(1), m.group(2)
        close = _closing_fence(len(ticks)).search(markdown, m.end())
        end = close.end() if close is not None else len(markdown)
        content = markdown[m.end() : close.start()] if close is not None else markdown[m.end() :]
        out.append(markdown[pos : m.start()])
        out.append(f"{ticks}{_SET_ASIDE}{len(fences)}\n{ticks}")
        fences.append((info, content))
        pos = end
    if not fences:
        return markdown, fences
    out.append(markdown[pos:])
    return "".join(out), fences


@functools.lru_cache(maxsize=16)
def _closing_fence(ticks: int) -> re.Pattern[str]:
    return re.compile(rf"^ {{0,3}}`{{{ticks},}}[ \t]*$", re.MULTILINE)


def to_html(markdown: str, *, theme: Theme = Theme(), memo: InlineMemo | None = None) -> HtmlPage:
    """One page of ours as HTML, with its title, table of contents and ids (its front matter, settings for
    other engines, is not content). ``memo``: the inline memo of the conversion the page is part of (the same
    HTML, sooner, from the second page on)."""
    env: dict[str, Any] = {} if memo is None else {ENV_KEY: memo}
    source, fences = _set_fences_aside(_FRONT_MATTER.sub("", markdown, count=1))
    tokens = _MD.parse(source, env)
    for token in tokens:
        if token.type == "fence" and token.info.startswith(_SET_ASIDE):
            token.info, token.content = fences[int(token.info[len(_SET_ASIDE) :])]
    headings = _assign_ids(tokens)
    links = _mark_links(tokens)
    _mark_facts(tokens)
    _mark_grades(tokens)
    renderer = _Renderer(theme)
    body, boxes = _encoded(renderer.pieces(tokens, _MD.options, env))
    title = next((h.text for h in headings if h.level == 1), None)
    return HtmlPage(
        utf8=body,
        title=title,
        toc=_nest(headings),
        ids=frozenset(h.id for h in headings) | renderer.ids,
        links=tuple(links),
        boxes=boxes,
    )


def _encoded(pieces: Sequence[tuple[str, bool]]) -> tuple[bytes, tuple[tuple[int, int], ...]]:
    """The HTML of ``pieces`` (each with whether it is a request box) as UTF-8, and where the boxes are in it."""
    out: list[bytes] = []
    boxes: list[tuple[int, int]] = []
    size = 0
    for is_box, run in itertools.groupby(pieces, key=lambda piece: piece[1]):
        data = "".join(html for html, _ in run).encode("utf-8")
        if is_box:
            boxes.append((size, size + len(data)))
        out.append(data)
        size += len(data)
    return b"".join(out), tuple(boxes)


def _plain_text(inline: Token) -> str:
    parts: list[str] = []
    for child in inline.children or ():
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts).strip()


def _assign_ids(tokens: Sequence[Token]) -> list[Heading]:
    used: dict[str, int] = {}
    headings: list[Heading] = []
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        text = _plain_text(tokens[index + 1])
        explicit = token.attrGet("id")
        base = str(explicit) if explicit else slugify(text)
        heading_id = base
        count = used.get(base, 0)
        while heading_id in used:
            count += 1
            heading_id = f"{base}_{count}"
        used[base] = count
        used[heading_id] = 0
        token.attrSet("id", heading_id)
        headings.append(Heading(int(token.tag[1]), heading_id, text))
    return headings


def _mark_facts(tokens: Sequence[Token]) -> None:
    """Give a list of facts (every item starts with a bold label such as ``**Version:**``) the class
    ``a2a-facts``, and each item ``a2a-fact-<label>``, for the catalogue's stylesheet. Only our templates
    write bold text (card text has every ``*`` encoded)."""
    for index, token in enumerate(tokens):
        if token.type != "bullet_list_open":
            continue
        labels: list[tuple[Token, str]] = []
        depth = 0
        for position in range(index + 1, len(tokens)):
            inner = tokens[position]
            if inner.type in ("bullet_list_open", "ordered_list_open"):
                depth += 1
            elif inner.type in ("bullet_list_close", "ordered_list_close"):
                if depth == 0:
                    break
                depth -= 1
            elif inner.type == "list_item_open" and depth == 0:
                label = _fact_label(tokens, position)
                if label is None:
                    labels = []
                    break
                labels.append((inner, label))
        if labels:
            token.attrSet("class", "a2a-facts")
            for item, label in labels:
                item.attrSet("class", f"a2a-fact-{label}")


_GRADE = re.compile(r"[A-F]")


def _mark_grades(tokens: Sequence[Token]) -> None:
    """Give a list item that starts with a bold grade letter (``- **B** [Agent](…)``: the home page's lists) the
    classes ``a2a-grade a2a-grade-b`` on that letter, for the catalogue's stylesheet to show it as a badge."""
    for index, token in enumerate(tokens):
        if token.type != "list_item_open" or index + 2 >= len(tokens):
            continue
        if tokens[index + 1].type != "paragraph_open" or tokens[index + 2].type != "inline":
            continue
        children = _significant(tokens[index + 2])
        if (
            len(children) > 3
            and [c.type for c in children[:3]] == ["strong_open", "text", "strong_close"]
            and _GRADE.fullmatch(children[1].content)
        ):
            children[0].attrSet("class", f"a2a-grade a2a-grade-{children[1].content.lower()}")


def _fact_label(tokens: Sequence[Token], item: int) -> str | None:
    """The slug of the bold label that starts list item ``tokens[item]`` (``Media types:`` → ``media-types``)."""
    if (
        item + 2 >= len(tokens)
        or tokens[item + 1].type != "paragraph_open"
        or tokens[item + 2].type != "inline"
    ):
        return None
    children = _significant(tokens[item + 2])
    if len(children) < 3 or [c.type for c in children[:3]] != ["strong_open", "text", "strong_close"]:
        return None
    text = children[1].content
    if not text.endswith(":"):
        return None
    return re.sub(r"[^a-z0-9]+", "-", text[:-1].lower()).strip("-") or None


def _nest(headings: Sequence[Heading]) -> tuple[Heading, ...]:
    """Headings as a tree: each heading's children are the deeper ones that follow it."""
    root: list[tuple[Heading, list[Any]]] = []
    stack: list[tuple[int, list[Any]]] = [(0, root)]
    for heading in headings:
        while stack[-1][0] >= heading.level:
            stack.pop()
        children: list[Any] = []
        stack[-1][1].append((heading, children))
        stack.append((heading.level, children))

    def build(items: list[tuple[Heading, list[Any]]]) -> tuple[Heading, ...]:
        return tuple(Heading(h.level, h.id, h.text, build(kids)) for h, kids in items)

    return build(root)


def _mark_links(tokens: Sequence[Token]) -> list[str]:
    """Links inside the site get a placeholder (``HtmlPage.with_links``); external ones get ``rel``."""
    found: list[str] = []
    for token in tokens:
        for child in token.children or ():
            if child.type != "link_open":
                continue
            href = str(child.attrGet("href") or "")
            if _SCHEME.match(href):
                child.attrSet("rel", "nofollow noopener")
            else:
                child.attrSet("href", f"\x00{href}\x00")
                found.append(href)
    return found


_LABEL_ONLY = ("strong_open", "text", "strong_close")


class _Renderer:
    """markdown-it's HTML renderer with our rules for code, tabs, raw HTML and headings."""

    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        self.ids: set[str] = set()
        self.tab_sets = 0
        self._html = RendererHTML()

    def render(self, tokens: Sequence[Token], options: Any, env: Any) -> str:
        return "".join(html for html, _ in self.pieces(tokens, options, env))

    def pieces(self, tokens: Sequence[Token], options: Any, env: Any) -> list[tuple[str, bool]]:
        """The HTML of ``tokens`` in pieces, each with whether it is a request box."""
        out: list[tuple[str, bool]] = []
        index = 0
        count = len(tokens)
        while index < count:
            run = _labelled_fences(tokens, index)
            if run:
                out.append((self._requests(run, tokens), True))
                index = run[-1] + 4
                continue
            fold = _fold(tokens, index)
            if fold is not None:
                out.append((self._folded(tokens, index, fold, options, env), False))
                index = fold + 1
                continue
            alert = _alert(tokens, index)
            if alert is not None:
                kind, end = alert
                out.append((self._admonition(kind, tokens, index, end, options, env), False))
                index = end + 1
                continue
            out.append((self._token(tokens, index, options, env), False))
            index += 1
        return out

    def _admonition(
        self, kind: str, tokens: Sequence[Token], start: int, end: int, options: Any, env: Any
    ) -> str:
        """A GitHub alert (``> [!NOTE]``) as the admonition the themes style."""
        inline = tokens[start + 2]
        children = list(inline.children or [])
        rest = children[0].content[len(f"[!{kind.upper()}]") :].lstrip()
        skip = 1 if len(children) > 1 and children[1].type == "softbreak" and not rest else 0
        body = [*([_text_token(rest)] if rest else []), *children[1 + skip :]]
        inner = self._inline(body, options, env)
        title = f'<p class="admonition-title">{kind.capitalize()}</p>'
        html = f'<div class="admonition {kind}">\n{title}\n<p>{inner}</p>\n'
        return html + self.render(tokens[start + 4 : end], options, env) + "</div>\n"

    def _folded(self, tokens: Sequence[Token], start: int, end: int, options: Any, env: Any) -> str:
        """A list item of a counted label and a list (``_fold``), the list folded under the label."""
        label = escapeHtml(_significant(tokens[start + 2])[1].content)
        inner = self.render(tokens[start + 4 : end + 1], options, env)
        return (
            self._html.renderToken(tokens, start, options, env)
            + f'<details class="a2a-fold"><summary><strong>{label}</strong></summary>\n{inner}</details>\n'
        )

    def _token(self, tokens: Sequence[Token], index: int, options: Any, env: Any) -> str:
        token = tokens[index]
        kind = token.type
        if kind == "inline":
            return self._inline(token.children or [], options, env)
        if kind == "fence":
            return self._fence(token)
        if kind == "code_block":
            return self._code(token.content, "")
        if kind == "html_block":
            return f"<p>{escapeHtml(token.content)}</p>\n"
        if kind == "heading_close" and self.theme.permalink is not None:
            opening = tokens[index - 2]
            anchor = escapeHtml(str(opening.attrGet("id")))
            title = escapeHtml(self.theme.permalink_title)
            mark = escapeHtml(self.theme.permalink)
            return f'<a class="headerlink" href="#{anchor}" title="{title}">{mark}</a></{token.tag}>\n'
        return self._html.renderToken(tokens, index, options, env)

    def _inline(self, children: Sequence[Token], options: Any, env: Any) -> str:
        out: list[str] = []
        for index, child in enumerate(children):
            kind = child.type
            if kind == "text":
                out.append(escapeHtml(child.content))
            elif kind == "code_inline":
                out.append(self._code_span(child.content))
            elif kind == "softbreak":
                out.append("\n")
            elif kind == "hardbreak":
                out.append("<br>\n")
            elif kind == "html_inline":
                tag = child.content
                out.append(tag if _ALLOWED_HTML.fullmatch(tag) else escapeHtml(tag))
            else:
                out.append(self._html.renderToken(children, index, options, env))
        return "".join(out)

    def _code_span(self, content: str) -> str:
        """Inline code; a long token may wrap after ``/ . - _ :`` (``<wbr>``), and with mkdocs-material a URL
        gets a copy button."""
        shown = escapeHtml(content)
        if len(content) > _WRAP_AFTER_CHARS:
            shown = _BREAK_POINTS.sub(lambda m: m.group(0) + "<wbr>", shown)
        code = f"<code>{shown}</code>"
        if self.theme.flavour == "material" and _COPYABLE.fullmatch(content):
            value = escapeHtml(content)
            code += (
                f'<button class="a2a-copy md-icon" type="button" title="Copy to clipboard" '
                f'aria-label="Copy {value}" data-clipboard-text="{value}"></button>'
            )
        return code

    def _fence(self, token: Token) -> str:
        language = token.info.split(maxsplit=1)[0] if token.info.strip() else ""
        return self._code(token.content, language)

    def _code(self, content: str, language: str) -> str:
        safe_language = language if re.fullmatch(r"[A-Za-z0-9_+-]{1,32}", language) else ""
        if self.theme.flavour == "material":
            if safe_language == "json":
                body = highlight_json(content)
            else:
                body = highlight_code(content, safe_language) or escapeHtml(content)
            css = f"language-{safe_language} highlight" if safe_language else "highlight"
            return f'<div class="{css}"><pre tabindex="0"><span></span><code>{body}</code></pre></div>\n'
        css = f' class="language-{safe_language}"' if safe_language else ""
        return f'<pre tabindex="0"><code{css}>{escapeHtml(content)}</code></pre>\n'

    def _requests(self, run: Sequence[int], tokens: Sequence[Token]) -> str:
        """A run of labelled code blocks (the forms of one request) in one box that site searches skip: as
        content tabs with mkdocs-material, one block after another otherwise."""
        if self.theme.flavour == "material" and len(run) >= 2:
            inner = self._tabs(run, tokens)
        else:
            inner = "".join(
                f"<p><strong>{escapeHtml(_significant(tokens[start + 1])[1].content)}</strong></p>\n"
                + self._fence(tokens[start + 3])
                for start in run
            )
        return f'<div class="a2a-requests" data-pagefind-ignore="all" data-search-exclude>\n{inner}</div>\n'

    def _tabs(self, run: Sequence[int], tokens: Sequence[Token]) -> str:
        """mkdocs-material content tabs (pymdownx.tabbed, alternate style) from labelled code blocks."""
        self.tab_sets += 1
        number = self.tab_sets
        name = f"__tabbed_{number}"
        inputs: list[str] = []
        labels: list[str] = []
        blocks: list[str] = []
        for position, start in enumerate(run, start=1):
            label = escapeHtml(_significant(tokens[start + 1])[1].content)
            tab_id = f"{name}_{position}"
            self.ids.add(tab_id)
            checked = ' checked="checked"' if position == 1 else ""
            inputs.append(f'<input{checked} id="{tab_id}" name="{name}" type="radio" />')
            labels.append(f'<label for="{tab_id}">{label}</label>')
            blocks.append(f'<div class="tabbed-block">\n{self._fence(tokens[start + 3])}</div>\n')
        return (
            f'<div class="tabbed-set tabbed-alternate" data-tabs="{number}:{len(run)}">'
            + "".join(inputs)
            + f'<div class="tabbed-labels">{"".join(labels)}</div>\n'
            + f'<div class="tabbed-content">\n{"".join(blocks)}</div>\n</div>\n'
        )


_ALERT = re.compile(r"\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]")
_WRAP_AFTER_CHARS = 24
_BREAK_POINTS = re.compile(r"[/.\-_:](?!$)")
_COPYABLE = re.compile(r"https?://\S+")


def _significant(inline: Token) -> list[Token]:
    """An inline token's children without the empty text tokens markdown-it leaves around emphasis."""
    return [c for c in inline.children or () if not (c.type == "text" and not c.content)]


def _text_token(content: str) -> Token:
    return Token("text", "", 0, content=content)


def _alert(tokens: Sequence[Token], index: int) -> tuple[str, int] | None:
    """``(kind, index of the closing token)`` when ``tokens[index]`` opens a GitHub alert: a quote whose first
    line is ``[!NOTE]`` (or another kind). Card text never writes one (``[`` is always encoded)."""
    if tokens[index].type != "blockquote_open" or index + 2 >= len(tokens):
        return None
    inline = tokens[index + 2]
    if tokens[index + 1].type != "paragraph_open" or inline.type != "inline" or not inline.children:
        return None
    first = inline.children[0]
    m = _ALERT.match(first.content) if first.type == "text" else None
    if m is None or m.end() != len(first.content.split(" ", 1)[0]):
        return None
    depth = 0
    for end in range(index, len(tokens)):
        depth += tokens[end].nesting if tokens[end].type in ("blockquote_open", "blockquote_close") else 0
        if depth == 0:
            return m.group(1).lower(), end
    return None


_FOLD_LABEL = re.compile(r"[0-9][0-9,]* agents")


def _fold(tokens: Sequence[Token], index: int) -> int | None:
    """The index of the closing token of the nested list when ``tokens[index]`` opens a list item that holds
    only a bold count of agents (``**103 agents**``) and then a bullet list: a commit's agents on "What's new",
    which are folded under the count. Card text writes no bold text (``*`` is always encoded)."""
    if tokens[index].type != "list_item_open" or index + 4 >= len(tokens):
        return None
    paragraph, inline, closing, nested = tokens[index + 1 : index + 5]
    if not (
        paragraph.type == "paragraph_open"
        and inline.type == "inline"
        and closing.type == "paragraph_close"
        and nested.type == "bullet_list_open"
    ):
        return None
    children = _significant(inline)
    if tuple(c.type for c in children) != _LABEL_ONLY or not _FOLD_LABEL.fullmatch(children[1].content):
        return None
    depth = 0
    for end in range(index + 4, len(tokens)):
        if tokens[end].type in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif tokens[end].type in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
            if depth == 0:
                return end
    return None


def _labelled_fences(tokens: Sequence[Token], index: int) -> list[int]:
    """Start indexes of consecutive labelled code blocks from ``index``: a paragraph holding only a bold
    label, followed by a fence. Card text can write neither (emphasis markers and fences are encoded)."""
    run: list[int] = []
    while index + 3 < len(tokens):
        first, inline, last, fence = tokens[index : index + 4]
        children = _significant(inline)
        if not (
            first.type == "paragraph_open"
            and inline.type == "inline"
            and last.type == "paragraph_close"
            and fence.type == "fence"
            and tuple(child.type for child in children) == _LABEL_ONLY
        ):
            break
        run.append(index)
        index += 4
    return run


def plain(text: str) -> str:
    """``text`` as HTML text (for titles and search entries we build ourselves)."""
    return html.escape(text, quote=True)
