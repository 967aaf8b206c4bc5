"""Static safety checker for a built HTML site (stdlib only).

Walks every ``.html`` file of a site directory and reports anything that could run script, navigate, phish,
restyle the page or clobber the theme's DOM, plus (for mkdocs-material and Zensical) the HTML fragments
stored in ``search/search_index.json`` or ``search.json``. It does not run JavaScript: it proves that the
*static* output is inert.

    violations = check_site(Path("site"))
    for v in violations:
        print(v)          # site/agents/x/index.html:12:5: event-handler: attribute 'onerror' on <img>

Also a command: ``python -m tests.support.site_checker SITE [--baseline CLEAN_SITE] [--strict]``
(exit 0 clean, 1 with violations, 2 on a usage error).

What counts as the theme's own inline script: a script whose text matches one of the inline scripts of the
installed MkDocs / mkdocs-material templates (``{{ ... }}`` parts may vary), or whose hash appears in a
baseline site built from benign input with the same configuration.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

__all__ = [
    "DEFAULT_SCRIPT_SRC_ALLOW",
    "SAFE_SCHEMES",
    "Violation",
    "check_html",
    "check_search_index",
    "check_site",
    "main",
    "theme_script_signatures",
    "url_scheme",
]

SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
"""URL schemes allowed in any URL attribute (plus scheme-less, i.e. relative, URLs)."""

DEFAULT_SCRIPT_SRC_ALLOW: tuple[re.Pattern[str], ...] = (
    # The built-in MkDocs theme loads highlight.js from cdnjs.
    re.compile(
        r"https://cdnjs\.cloudflare\.com/ajax/libs/highlight\.js/[0-9.]+/(?:languages/)?[A-Za-z0-9_-]+\.min\.js"
    ),
)

URL_ATTRIBUTES = frozenset(
    {
        "action",
        "background",
        "cite",
        "codebase",
        "data",
        "dynsrc",
        "formaction",
        "href",
        "icon",
        "longdesc",
        "lowsrc",
        "manifest",
        "ping",
        "poster",
        "src",
        "xlink:href",
    }
)
SRCSET_ATTRIBUTES = frozenset({"srcset", "imagesrcset"})

NEVER_ELEMENTS = frozenset(
    {
        "applet",
        "base",
        "embed",
        "fencedframe",
        "frame",
        "frameset",
        "iframe",
        "isindex",
        "keygen",
        "math",
        "noembed",
        "noframes",
        "object",
        "plaintext",
        "portal",
        "template",
        "xmp",
        # SVG elements that run script or embed HTML
        "animate",
        "animatemotion",
        "animatetransform",
        "discard",
        "foreignobject",
        "handler",
        "listener",
        "set",
    }
)
"""Elements no MkDocs theme or Markdown extension emits; their presence anywhere is a finding."""

CONTENT_FORBIDDEN = frozenset(
    {"button", "dialog", "form", "input", "link", "meta", "option", "select", "style", "textarea"}
)
"""Elements allowed in the theme's chrome but never in the page content (inputs have exceptions below)."""

MARKDOWN_ELEMENTS = frozenset(
    {
        "a", "abbr", "aside", "b", "blockquote", "br", "button", "caption", "cite", "code", "col", "colgroup",
        "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3", "h4",
        "h5", "h6", "hr", "i", "img", "input", "ins", "kbd", "label", "li", "mark", "nav", "ol", "p", "path",
        "pre", "q", "s", "samp", "section", "small", "span", "strong", "sub", "summary", "sup", "svg",
        "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr", "u", "ul", "var", "wbr",
    }
)  # fmt: skip
"""What Python-Markdown, its usual extensions and the themes put inside the content (``strict`` mode), and
our copy button (any other button is a ``content-element``)."""

VOID_ELEMENTS = frozenset(
    {
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    }
)
RCDATA_ELEMENTS = ("title", "textarea")
"""Elements whose content the browser reads as text, never as tags."""

DANGEROUS_META = frozenset({"refresh", "set-cookie"})
CLOBBER_NAME_ELEMENTS = frozenset({"embed", "form", "iframe", "img", "object"})
"""Elements whose ``name`` becomes a property of ``document``."""

TEXT_ALIGN_STYLE = re.compile(r"\s*text-align\s*:\s*(?:left|right|center|justify)\s*;?\s*", re.IGNORECASE)

SEARCH_INDEX_TAGS = frozenset({"p", "code", "pre", "li", "ol", "ul", "sub", "sup"})
"""The only tags mkdocs-material's search plugin keeps in ``search_index.json`` text."""

_C0_OR_SPACE = "".join(chr(c) for c in range(0x21))
_TAB_NEWLINE = re.compile(r"[\t\n\r]")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_JINJA_EXPRESSION = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)
_SCRIPT_IN_TEMPLATE = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.DOTALL | re.IGNORECASE)


@dataclass(frozen=True, order=True)
class Violation:
    """One finding, located in a file of the site (1-based line and column)."""

    file: str
    line: int
    column: int
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.rule}: {self.message}"


def url_scheme(value: str) -> str | None:
    """The scheme a browser would see in ``value`` (already entity-decoded), lower-cased; None if relative.

    Follows the WHATWG URL parser's clean-up: leading/trailing C0 controls and spaces are stripped, and
    TAB/LF/CR are removed anywhere, so ``" java\\tscript:x"`` is ``javascript``.
    """
    cleaned = _TAB_NEWLINE.sub("", value.strip(_C0_OR_SPACE))
    match = _SCHEME.match(cleaned)
    return match.group(1).lower() if match else None


def _normalise_script(text: str) -> str:
    return " ".join(text.split())


def _script_hash(text: str) -> str:
    return hashlib.sha256(_normalise_script(text).encode("utf-8")).hexdigest()


def _template_to_pattern(body: str) -> re.Pattern[str] | None:
    """A regex matching what a template's inline script can render to; None for Jinja control blocks."""
    if "{%" in body:
        return None
    parts: list[str] = []
    position = 0
    normalised = _normalise_script(body)
    for match in _JINJA_EXPRESSION.finditer(normalised):
        parts.append(re.escape(normalised[position : match.start()]))
        if "tojson" in match.group(1):
            # a JSON value: tojson escapes <, >, & and ' so it cannot end the script
            parts.append(r'(?:"(?:[^"\\<]|\\.)*"|\{[^<]*?\}|\[[^<]*?\]|[-\w.]+)')
        else:
            parts.append(r"[^\"'\\<>\s]*")
        position = match.end()
    parts.append(re.escape(normalised[position:]))
    return re.compile("".join(parts))


def theme_script_signatures(template_dirs: Iterable[Path] | None = None) -> tuple[re.Pattern[str], ...]:
    """Patterns of the inline scripts found in theme templates (default: the installed themes)."""
    if template_dirs is None:
        template_dirs = _installed_theme_dirs()
    patterns: dict[str, re.Pattern[str]] = {}
    for directory in template_dirs:
        for template in sorted(directory.rglob("*.html")):
            text = template.read_text(encoding="utf-8", errors="replace")
            for match in _SCRIPT_IN_TEMPLATE.finditer(text):
                if re.search(r"\bsrc\s*=", match.group(1)):
                    continue
                pattern = _template_to_pattern(match.group(2))
                if pattern is not None:
                    patterns[pattern.pattern] = pattern
    return tuple(patterns[key] for key in sorted(patterns))


def _installed_theme_dirs() -> list[Path]:
    found: list[Path] = []
    for package, sub in (("material", "templates"), ("mkdocs", "themes"), ("zensical", "templates")):
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.submodule_search_locations:
            for location in spec.submodule_search_locations:
                candidate = Path(location, sub)
                if candidate.is_dir():
                    found.append(candidate)
    return found


@dataclass
class _Options:
    site_dir: Path | None = None
    strict: bool = False
    allowed_hashes: frozenset[str] = frozenset()
    signatures: tuple[re.Pattern[str], ...] = ()
    script_src_allow: tuple[re.Pattern[str], ...] = DEFAULT_SCRIPT_SRC_ALLOW
    safe_schemes: frozenset[str] = SAFE_SCHEMES


@dataclass
class _Open:
    tag: str
    content_root: bool


class _PageChecker(HTMLParser):
    def __init__(self, display: str, page: Path | None, options: _Options) -> None:
        super().__init__(convert_charrefs=True)
        self.display = display
        self.page = page
        self.options = options
        self.violations: list[Violation] = []
        self.stack: list[_Open] = []
        self.content_roots = 0
        self.ids: dict[str, tuple[int, int]] = {}
        self.script: tuple[dict[str, str], tuple[int, int], bool] | None = None
        self.script_text: list[str] = []
        self.rcdata_start: tuple[int, int] | None = None

    # -- helpers -----------------------------------------------------------------------------------------
    def _flag(self, rule: str, message: str, position: tuple[int, int] | None = None) -> None:
        line, offset = position or self.getpos()
        self.violations.append(Violation(self.display, line, offset + 1, rule, message))

    @property
    def in_content(self) -> bool:
        return self.content_roots > 0

    # -- parser callbacks ------------------------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, self_closing=False)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, self_closing=True)

    def _start(self, tag: str, attrs: list[tuple[str, str | None]], *, self_closing: bool) -> None:
        values = {name: value or "" for name, value in attrs}
        self._check_element(tag, values)
        for name, value in attrs:
            self._check_attribute(tag, name, value or "")
        if tag == "script":
            self.script = (values, self.getpos(), self.in_content)
            self.script_text = []
        if tag in RCDATA_ELEMENTS and not self_closing:
            self.set_cdata_mode(tag)
            self.rcdata_start = self.getpos()
        if self_closing or tag in VOID_ELEMENTS:
            return
        root = tag == "article" and "md-content__inner" in values.get("class", "").split()
        root = root or values.get("role") == "main"
        self.stack.append(_Open(tag, root))
        self.content_roots += root

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self.script is not None:
            self._check_script("".join(self.script_text))
            self.script = None
        if tag in RCDATA_ELEMENTS:
            self.clear_cdata_mode()
            self.rcdata_start = None
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index].tag == tag:
                self.content_roots -= sum(entry.content_root for entry in self.stack[index:])
                del self.stack[index:]
                return

    def handle_data(self, data: str) -> None:
        if self.script is not None:
            self.script_text.append(data)

    def close(self) -> None:
        super().close()
        if self.script is not None:  # unterminated: the rest of the document is script
            self._check_script("".join(self.script_text))
            self.script = None
        if self.cdata_elem in RCDATA_ELEMENTS and self.rcdata_start is not None:
            self._flag(
                "unterminated",
                f"<{self.cdata_elem}> never ends: it swallows the rest of the page",
                self.rcdata_start,
            )

    # -- rules -------------------------------------------------------------------------------------------
    def _check_element(self, tag: str, attrs: dict[str, str]) -> None:
        if tag in NEVER_ELEMENTS:
            self._flag("forbidden-element", f"<{tag}> is never produced by a theme or by Markdown")
        elif tag == "meta":
            equiv = attrs.get("http-equiv", "").strip().lower()
            if equiv in DANGEROUS_META:
                self._flag("meta-http-equiv", f'<meta http-equiv="{equiv}">')
            elif self.in_content:
                self._flag("content-element", "<meta> inside the page content")
        elif self.in_content and tag in CONTENT_FORBIDDEN and not _markdown_input(tag, attrs):
            self._flag("content-element", f"<{tag}> inside the page content")
        elif self.options.strict and self.in_content and tag not in MARKDOWN_ELEMENTS | {"script"}:
            self._flag("unexpected-element", f"<{tag}> is not something Markdown produces")
        if self.in_content and tag in CLOBBER_NAME_ELEMENTS and "name" in attrs:
            self._flag("dom-clobbering", f"name={attrs['name']!r} on <{tag}> inside the page content")

    def _check_attribute(self, tag: str, name: str, value: str) -> None:
        if name.startswith("on"):
            self._flag("event-handler", f"attribute {name!r} on <{tag}>")
        elif name in ("srcdoc", "formaction"):
            self._flag("forbidden-attribute", f"attribute {name!r} on <{tag}>")
        if name in URL_ATTRIBUTES:
            self._check_url(tag, name, value)
        elif name in SRCSET_ATTRIBUTES:
            for candidate in value.split(","):
                words = candidate.split()
                if words:
                    self._check_url(tag, name, words[0])
        if name == "style" and self.in_content and not TEXT_ALIGN_STYLE.fullmatch(value):
            self._flag("inline-style", f"style={value[:80]!r} on <{tag}> inside the page content")
        if name == "id":
            self._check_id(value)

    def _check_url(self, tag: str, name: str, value: str) -> None:
        scheme = url_scheme(value)
        if scheme is not None and scheme not in self.options.safe_schemes:
            self._flag("url-scheme", f"{name}={value[:80]!r} on <{tag}> has scheme {scheme!r}")

    def _check_id(self, value: str) -> None:
        position = self.getpos()
        first = self.ids.get(value)
        if first is None:
            self.ids[value] = position
        else:
            self._flag("duplicate-id", f"id {value!r} already used at {first[0]}:{first[1] + 1}", position)

    def _check_script(self, text: str) -> None:
        assert self.script is not None
        attrs, position, in_content = self.script
        if in_content:
            self._flag("script", "<script> inside the page content", position)
        elif "src" in attrs:
            self._check_script_src(attrs["src"], position)
        elif not self._theme_inline_script(text):
            snippet = _normalise_script(text)[:80]
            self._flag("script", f"inline <script> is not one of the theme's: {snippet!r}", position)

    def _check_script_src(self, src: str, position: tuple[int, int]) -> None:
        if any(pattern.fullmatch(src) for pattern in self.options.script_src_allow):
            return
        path = src.strip().split("?", 1)[0].split("#", 1)[0]
        if url_scheme(src) is not None or path.startswith(("//", "\\")) or "\\" in path:
            self._flag("script", f"<script src={src!r}> is not a URL inside the site", position)
            return
        site, page = self.options.site_dir, self.page
        if site is None or page is None:
            return
        # root-relative URLs (404.html without site_url) resolve against the site root
        target = (site / path.lstrip("/")) if path.startswith("/") else (page.parent / path)
        if not (target.resolve().is_file() and target.resolve().is_relative_to(site.resolve())):
            self._flag("script", f"<script src={src!r}> does not name a file of the site", position)

    def _theme_inline_script(self, text: str) -> bool:
        if _script_hash(text) in self.options.allowed_hashes:
            return True
        normalised = _normalise_script(text)
        return any(pattern.fullmatch(normalised) for pattern in self.options.signatures)


COPY_BUTTON_ATTRIBUTES = frozenset({"class", "type", "title", "aria-label", "data-clipboard-text"})
"""The attributes of the copy button a2a-docgen writes after a URL (``a2a_docgen.html``), and no others."""


def _markdown_input(tag: str, attrs: dict[str, str]) -> bool:
    """Inputs that Markdown extensions emit: disabled task-list checkboxes and pymdownx.tabbed radios (ours
    too), and a2a-docgen's copy button: a plain button, no form, no action but the theme's clipboard."""
    if tag == "button":
        return (
            set(attrs) == COPY_BUTTON_ATTRIBUTES
            and attrs["class"] == "a2a-copy md-icon"
            and attrs["type"] == "button"
            and url_scheme(attrs["data-clipboard-text"]) in {"http", "https"}
        )
    if tag != "input":
        return False
    kind = attrs.get("type", "").lower()
    if kind == "checkbox" and "disabled" in attrs:
        return True
    return kind == "radio" and re.fullmatch(r"__tabbed_\d+", attrs.get("name", "")) is not None


def check_html(
    text: str,
    *,
    display: str = "<html>",
    page: Path | None = None,
    site_dir: Path | None = None,
    strict: bool = False,
    allowed_hashes: Iterable[str] = (),
    signatures: Sequence[re.Pattern[str]] | None = None,
    script_src_allow: Sequence[re.Pattern[str]] = DEFAULT_SCRIPT_SRC_ALLOW,
    safe_schemes: Iterable[str] = SAFE_SCHEMES,
) -> list[Violation]:
    """Check one HTML document. ``page``/``site_dir`` let relative ``<script src>`` be resolved."""
    options = _Options(
        site_dir=site_dir,
        strict=strict,
        allowed_hashes=frozenset(allowed_hashes),
        signatures=tuple(theme_script_signatures() if signatures is None else signatures),
        script_src_allow=tuple(script_src_allow),
        safe_schemes=frozenset(safe_schemes),
    )
    return _check_document(text, display, page, options)


_RAW_TEXT = re.compile(r"(<(script|style|title|textarea)\b[^>]*>)(.*?)(</\2\s*>)", re.DOTALL | re.IGNORECASE)


def _unterminated_comments(text: str, display: str) -> list[Violation]:
    """``<!--`` with no ``-->`` after it: the browser hides the rest of the page."""
    # Blank out element contents the browser reads as text, keeping offsets and line breaks.
    masked = _RAW_TEXT.sub(lambda m: m.group(1) + re.sub(r"[^\n]", " ", m.group(3)) + m.group(4), text)
    opening = masked.rfind("<!--")
    if opening < 0 or "-->" in masked[opening + 4 :]:
        return []
    line = masked.count("\n", 0, opening) + 1
    column = opening - masked.rfind("\n", 0, opening)
    return [
        Violation(display, line, column, "unterminated", "comment never ends: it hides the rest of the page")
    ]


def _check_document(text: str, display: str, page: Path | None, options: _Options) -> list[Violation]:
    checker = _PageChecker(display, page, options)
    checker.feed(text)
    checker.close()
    return sorted(checker.violations + _unterminated_comments(text, display))


class _FragmentChecker(HTMLParser):
    """Search-index fragments: only a handful of attribute-less tags may appear."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in SEARCH_INDEX_TAGS:
            self.problems.append(f"<{tag}>")
        elif attrs:
            self.problems.append(f"<{tag}> with attributes {[name for name, _ in attrs]}")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)


def check_search_index(path: Path, *, display: str | None = None, key: str = "docs") -> list[Violation]:
    """A search index whose ``title``, ``text`` and ``tags`` are inserted into the page as HTML: mkdocs-material's
    ``search/search_index.json`` (entries under ``docs``) or Zensical's ``search.json`` (under ``items``)."""
    display = display or str(path)
    raw = path.read_text(encoding="utf-8")
    try:
        index = json.loads(raw)
    except ValueError as exc:
        return [Violation(display, 1, 1, "search-index", f"not JSON: {exc}")]
    docs = index.get(key) if isinstance(index, dict) else None
    if not isinstance(docs, list):
        return [Violation(display, 1, 1, "search-index", f"no {key!r} list")]
    violations: list[Violation] = []
    for number, doc in enumerate(docs):
        if not isinstance(doc, dict):
            continue
        location = str(doc.get("location", ""))
        offset = raw.find(json.dumps(location, ensure_ascii=False))
        line = raw.count("\n", 0, max(offset, 0)) + 1
        column = max(offset, 0) - raw.rfind("\n", 0, max(offset, 0))
        for field, value in _html_fields(doc):
            fragment = _FragmentChecker()
            fragment.feed(value)
            fragment.close()
            for problem in fragment.problems:
                violations.append(
                    Violation(
                        display,
                        line,
                        column,
                        "search-index",
                        f"{key}[{number}].{field} ({location!r}): {problem}",
                    )
                )
    return violations


def _html_fields(doc: dict[str, Any]) -> list[tuple[str, str]]:
    """The fields a theme inserts as HTML: ``title``, ``text`` and each of ``tags`` (Material appends
    every string of a result with ``innerHTML``)."""
    fields = [(name, doc[name]) for name in ("title", "text") if isinstance(doc.get(name), str)]
    tags = doc.get("tags")
    if isinstance(tags, list):
        fields.extend((f"tags[{n}]", tag) for n, tag in enumerate(tags) if isinstance(tag, str))
    return fields


def _is_material(site_dir: Path) -> bool:
    return any((site_dir / "assets" / "javascripts").glob("bundle.*.js"))


def baseline_hashes(baseline_dir: Path) -> frozenset[str]:
    """Hashes of every inline script of a clean site, to allow them in a site built the same way."""
    hashes: set[str] = set()
    for page in sorted(baseline_dir.rglob("*.html")):
        text = page.read_text(encoding="utf-8", errors="replace")
        for match in _SCRIPT_IN_TEMPLATE.finditer(text):
            if not re.search(r"\bsrc\s*=", match.group(1)):
                hashes.add(_script_hash(match.group(2)))
    return frozenset(hashes)


def check_site(
    site_dir: Path,
    *,
    baseline: Path | None = None,
    strict: bool = False,
    script_src_allow: Sequence[re.Pattern[str]] = DEFAULT_SCRIPT_SRC_ALLOW,
    safe_schemes: Iterable[str] = SAFE_SCHEMES,
) -> list[Violation]:
    """Check every HTML page of ``site_dir`` (and the material search index). Paths are shown relative."""
    site_dir = Path(site_dir)
    options = _Options(
        site_dir=site_dir,
        strict=strict,
        allowed_hashes=baseline_hashes(baseline) if baseline is not None else frozenset(),
        signatures=theme_script_signatures(),
        script_src_allow=tuple(script_src_allow),
        safe_schemes=frozenset(safe_schemes),
    )
    violations: list[Violation] = []
    for page in sorted(p for p in site_dir.rglob("*") if p.suffix.lower() in (".html", ".htm")):
        display = page.relative_to(site_dir).as_posix()
        text = page.read_bytes().decode("utf-8", errors="replace")
        violations.extend(_check_document(text, display, page, options))
    index = site_dir / "search" / "search_index.json"
    if index.is_file() and _is_material(site_dir):
        violations.extend(check_search_index(index, display="search/search_index.json"))
    zensical_index = site_dir / "search.json"
    if zensical_index.is_file() and _is_material(site_dir):  # Zensical's theme is Material's successor
        violations.extend(check_search_index(zensical_index, display="search.json", key="items"))
    return violations


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Report anything in a built site that could run script.")
    parser.add_argument("site", type=Path)
    parser.add_argument("--baseline", type=Path, help="a clean site built with the same configuration")
    parser.add_argument("--strict", action="store_true", help="also flag elements Markdown would not produce")
    parser.add_argument("--allow-script-src", action="append", default=[], metavar="REGEX")
    args = parser.parse_args(argv)
    if not args.site.is_dir() or (args.baseline is not None and not args.baseline.is_dir()):
        parser.print_usage(sys.stderr)
        print("site and baseline must be directories", file=sys.stderr)
        return 2
    allow = DEFAULT_SCRIPT_SRC_ALLOW + tuple(re.compile(p) for p in args.allow_script_src)
    violations = check_site(args.site, baseline=args.baseline, strict=args.strict, script_src_allow=allow)
    for violation in violations:
        print(f"VIOLATION {violation}")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
