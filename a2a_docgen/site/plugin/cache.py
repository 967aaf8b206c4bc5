"""The plugin's one conversion pass and its HTML cache, keyed by a page's final path.

The renderer only makes Markdown; the plugin converts the pages as the site has them (after the ``prefix``), once
each, here. Under ``mkdocs serve`` the cache is one of the serve caches: a rebuild converts only the pages whose Markdown
(or the theme's settings) changed, and forgets the pages the catalogue no longer has. The
pages left to convert are converted by forked workers when there are enough of them and forking is safe
(``render.parallel``; never under ``serve``, whose server runs a thread); the HTML is the same either way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import jinja2
import jinja2.bccache

from a2a_docgen.collector import collector_paused
from a2a_docgen.html import HtmlPage, InlineMemo, Theme, to_html
from a2a_docgen.render.parallel import PageWorkers, worker_count

__all__ = ["HtmlCache", "LatePages", "TemplateCodeCache"]


@dataclass(frozen=True, slots=True)
class _Kept:
    markdown: str
    theme: Theme
    html: HtmlPage


class HtmlCache:
    """Each page's HTML from its last conversion, by final path."""

    def __init__(self) -> None:
        self._kept: dict[str, _Kept] = {}

    @property
    def paths(self) -> frozenset[str]:
        """The final paths of the pages whose HTML is kept."""
        return frozenset(self._kept)

    def convert(
        self,
        pages: Mapping[str, str],
        theme: Theme,
        *,
        jobs: int,
        meanwhile: Sequence[Callable[[], None]] = (),
    ) -> dict[str, HtmlPage]:
        """Every page of ``pages`` (final path -> Markdown) as HTML, in the same order: the kept HTML where the
        Markdown and the theme are the same as last time, converted now otherwise. Afterwards the cache holds
        exactly these pages (a build that has no next one uses a cache of its own, let go of on return, so
        each page's HTML is the caller's alone). ``meanwhile``: work of this process, done while the workers
        convert (where it would wait for them), or first when there are none."""
        kept = self._kept
        html: dict[str, HtmlPage | None] = {}
        stale: list[str] = []
        for path, markdown in pages.items():
            last = kept.get(path)
            if last is not None and last.theme == theme and last.markdown == markdown:
                html[path] = last.html
            else:
                html[path] = None
                stale.append(path)
        sources = [pages[path] for path in stale]
        memo = InlineMemo()  # this pass's (each worker fills its own copy), gone with it

        def convert_one(index: int) -> HtmlPage:
            return to_html(sources[index], theme=theme, memo=memo)

        with collector_paused(), PageWorkers(convert_one, len(sources), jobs) as workers:
            for work in meanwhile:
                work()
            converted = workers.results()
        html.update(zip(stale, converted, strict=True))
        done = {path: page for path, page in html.items() if page is not None}
        self._kept = {path: _Kept(pages[path], theme, page) for path, page in done.items()}
        return done


class LatePages:
    """Pages converted by workers while MkDocs reads and writes the others, each taken when MkDocs writes it.

    MkDocs' page loop runs in one process; the pages no other page needs before its own turn (not in the
    navigation, whose titles every page shows, nor in a search index) can wait until then, so their conversion
    runs on the other cores during that loop instead of before it. The workers take the pages in the loop's
    order, a few at a time, at a lower priority than the loop, which is what the build waits for. The HTML is
    the same as the one conversion pass makes (``to_html``); without workers a page is converted when taken.
    """

    _SHARE = 16
    """Pages a worker converts at a time: the loop waits for at most one share at its first late page."""

    @staticmethod
    def pay(count: int, jobs: int) -> bool:
        """Whether ``count`` pages would be converted by workers beside the loop: else they would be converted
        in it, one after another, where the one pass before it converts them on every CPU."""
        return worker_count(count, jobs, beside=True) > 0

    def __init__(self) -> None:
        self._index: dict[str, int] = {}
        self._workers: PageWorkers[HtmlPage] | None = None

    def start(self, pages: Mapping[str, str], theme: Theme, *, jobs: int) -> None:
        """Start converting ``pages`` (final path -> Markdown, in the order MkDocs writes them)."""
        self.close()
        sources = list(pages.values())
        memo = InlineMemo()  # these pages' (each worker fills its own copy), gone with the workers

        def convert_one(index: int) -> HtmlPage:
            return to_html(sources[index], theme=theme, memo=memo)

        self._index = {path: n for n, path in enumerate(pages)}
        if sources:
            self._workers = PageWorkers(convert_one, len(sources), jobs, share=self._SHARE, beside=True)
            self._workers.__enter__()

    def __contains__(self, path: object) -> bool:
        return path in self._index

    @property
    def running(self) -> bool:
        """Whether workers convert the pages (until ``close``)."""
        return self._workers is not None and self._workers.parallel

    def take(self, path: str) -> HtmlPage:
        """The page's HTML (waiting for its worker if need be)."""
        assert self._workers is not None
        return self._workers.take(self._index[path])

    def close(self) -> None:
        """Stop the workers (a build's end, or its failure)."""
        if self._workers is not None:
            self._workers.__exit__(None, None, None)
        self._workers = None
        self._index = {}


class TemplateCodeCache(jinja2.BytecodeCache):
    """The theme's compiled templates, kept in memory across ``mkdocs serve`` rebuilds.

    MkDocs makes a new template environment for every build, so every rebuild compiles the theme's templates
    again (for Material, a good part of a rebuild). Jinja's own bytecode cache stores each template's code
    with the checksum of its source and uses it only while the source is the same, so an edited template (the
    site's ``custom_dir``) is compiled again.
    """

    def __init__(self) -> None:
        self._code: dict[tuple[str, str], bytes] = {}
        self._settings = ""

    def serve(self, env: jinja2.Environment) -> None:
        """Serve ``env`` from now on (``mkdocs_private.cache_theme_code``): code compiled under other settings
        (extensions, delimiters, whitespace control, finalize) is never given to it."""
        self._settings = repr(
            (
                sorted(env.extensions),
                env.block_start_string,
                env.block_end_string,
                env.variable_start_string,
                env.variable_end_string,
                env.comment_start_string,
                env.comment_end_string,
                env.line_statement_prefix,
                env.line_comment_prefix,
                env.trim_blocks,
                env.lstrip_blocks,
                env.newline_sequence,
                env.keep_trailing_newline,
                env.optimized,
                getattr(env.finalize, "__qualname__", repr(env.finalize)),
                getattr(env.autoescape, "__qualname__", repr(env.autoescape)),
            )
        )

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get((self._settings, bucket.key))
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[(self._settings, bucket.key)] = bucket.bytecode_to_string()
