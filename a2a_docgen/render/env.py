"""The Jinja environment that turns view models into Markdown.

Autoescape is off (HTML escaping is not a Markdown strategy); card text reaches a page only through the
encoders of ``a2a_docgen.render.escape``, registered as filters. To make that a checked rule rather than a
convention, the renderer hands templates card text as ``CardText`` (a ``str`` subclass), and the environment's
``finalize`` prints only plain ``str`` (what encoders return) and integers: ``{{ agent.name }}`` fails the build,
as does printing ``None``, a boolean, a list or a mapping (whose ``repr`` would carry card text), while
``{{ agent.name | md_inline }}`` prints the encoder's plain ``str``.

Templates are looked up in the user's directory first, then in the built-in ``templates/`` directory (shipped in
the wheel as ``a2a_docgen/templates``), so a site can override one page and keep the rest.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import jinja2

from a2a_docgen.errors import UsageError
from a2a_docgen.render.escape import FILTERS, OWN_IDS, md_link_text

__all__ = [
    "DIALECTS",
    "CardText",
    "Dialect",
    "TemplateEnvs",
    "UnescapedOutputError",
    "builtin_templates_dir",
    "relative_path",
    "template_env",
]


Dialect = Literal["github", "material"]
"""The Markdown syntax of our own structure (card text is encoded the same in both):

- ``github``: GitHub alerts (``> [!NOTE]``) and labelled code blocks (a bold label, then a fence), readable on
  GitHub and in pull-request review, and what the plugin's converter reads (it makes them admonitions and
  content tabs);
- ``material``: Python-Markdown admonitions (``!!! note``) and content tabs (``=== "curl"``, pymdownx.tabbed
  with superfences), which Zensical's default profile and Material for MkDocs render as such.
"""
DIALECTS: tuple[Dialect, ...] = ("github", "material")


class CardText(str):
    """Text that comes from a card. Templates must pass it through an encoder before printing it."""

    __slots__ = ()


class UnescapedOutputError(UsageError):
    """A template printed card text (or ``None``) without an encoding filter."""


def builtin_templates_dir() -> Path:
    """The shipped templates: ``a2a_docgen/templates`` in a wheel, the repository's ``templates/`` otherwise."""
    packaged = Path(__file__).parents[1] / "templates"
    if packaged.is_dir():
        return packaged
    return Path(__file__).parents[2] / "templates"


def _finalize(value: object) -> object:
    """Let through what a template may print: encoder output (plain ``str``) and whole numbers."""
    if isinstance(value, CardText):
        shown = value[:40]
        raise UnescapedOutputError(
            f"a template printed card text ({shown!r}) without an encoding filter; "
            "use md_inline, md_text, md_title, md_heading, md_code, md_link, md_url, md_page_link or json_fence"
        )
    if type(value) is str or (type(value) is int):
        return value
    if value is None:
        raise UnescapedOutputError("a template printed None; test the value or use an encoding filter")
    raise UnescapedOutputError(
        f"a template printed a {type(value).__name__}; print text through an encoder "
        "(json_fence for JSON values) and test booleans with if"
    )


def _quote_block(text: str) -> str:
    """Encoded Markdown as a blockquote (every line prefixed with ``>``)."""
    if isinstance(text, CardText):
        raise UnescapedOutputError("quote_block takes encoded text: apply md_text first")
    return "\n".join(f"> {line}" if line else ">" for line in text.split("\n"))


def _indent_block(text: str) -> str:
    """Encoded Markdown indented by four spaces (the body of an admonition or a content tab); blank lines stay
    empty."""
    if isinstance(text, CardText):
        raise UnescapedOutputError("indent_block takes encoded text: apply an encoder first")
    return "\n".join(f"    {line}" if line else "" for line in text.split("\n"))


_TAB_TITLE = re.compile(
    r"[A-Za-z0-9][A-Za-z0-9 (),+.\u00b7-]*"
)  # "JSON-RPC v1.0 · curl", "HTTP+JSON v0.3, binding assumed"


def _tab_title(label: str) -> str:
    """A content tab's title, ``"curl"``: our own labels only (plain words), never card text."""
    if isinstance(label, CardText) or not _TAB_TITLE.fullmatch(label):
        raise UnescapedOutputError(f"tab_title() takes a label of ours, not {label[:40]!r}")
    return f'"{label}"'


def relative_path(target: str, page: str) -> str:
    """``target`` (a path from the docs root, maybe with ``#fragment``) as a link from ``page``."""
    return _relative_to(target, page.rpartition("/")[0])


def _relative_to(target: str, here: str) -> str:
    """``target`` as a link from a page in directory ``here`` (``""`` for the docs root)."""
    path, hash_, fragment = target.partition("#")
    if not path:
        return target
    directory, _, name = path.rpartition("/")
    return _directory_prefix(directory, here) + name + hash_ + fragment


@functools.lru_cache(maxsize=16384)
def _directory_prefix(there: str, here: str) -> str:
    """The way from directory ``here`` to directory ``there`` (both from the docs root): ``""`` or ending in
    ``/``. Cached: a page links into a few directories, many times."""
    here_parts = here.split("/") if here else []
    there_parts = there.split("/") if there else []
    common = 0
    while (
        common < len(here_parts) and common < len(there_parts) and here_parts[common] == there_parts[common]
    ):
        common += 1
    return "../" * (len(here_parts) - common) + "".join(f"{part}/" for part in there_parts[common:])


@jinja2.pass_context
def _relative(context: jinja2.runtime.Context, target: str) -> str:
    """``rel(target)`` in templates: ``target`` relative to the page being rendered (``page_path``)."""
    return relative_path(_site_path(target, "rel"), str(context["page_path"]))


@jinja2.pass_context
def _page_link(context: jinja2.runtime.Context, text: str | None, target: str) -> str:
    """``text | md_page_link(target)``: a link to a page of the site, ``[md_inline(text)](rel(target))``."""
    return _page_link_from(
        text, _site_path(target, "md_page_link"), str(context["page_path"]).rpartition("/")[0]
    )


def _site_path(target: str, name: str) -> str:
    """``target``, refused when it is card text: link targets are site paths the views build (from slugs),
    and card text put into ``(...)`` could close the link and add one of its own."""
    if isinstance(target, CardText):
        raise UnescapedOutputError(
            f"{name}() was given card text ({target[:40]!r}) as a link target; link to a page path of the site, "
            "or use md_link or md_url for a URL from a card"
        )
    return target


@functools.lru_cache(maxsize=65536)
def _page_link_from(text: str | None, target: str, here: str) -> str:
    """``md_page_link`` on a page in directory ``here``; cached, as the facet pages of one directory (tags,
    media types) link the same agents and skills many times."""
    return f"[{md_link_text(text)}]({_relative_to(target, here)})"


_ID = re.compile(r"[a-z][a-z0-9-]*")


def _heading_id(anchor: str) -> str:
    """``{#anchor}`` at the end of a heading: its id where the engine reads attributes (our profile, attr_list),
    plain text elsewhere. Only ids we build, never card text: a skill's anchor, or one of ``OWN_IDS``, which
    headings of card text never take (a new heading id is added there, in its one home)."""
    if isinstance(anchor, CardText) or not _ID.fullmatch(anchor):
        raise UnescapedOutputError(f"heading_id() takes an id made of slugs, not {anchor[:40]!r}")
    if anchor not in OWN_IDS and not anchor.startswith("skill-"):
        raise UnescapedOutputError(f"heading_id({anchor!r}): not one of escape.OWN_IDS, nor a skill's anchor")
    return "{#" + anchor + "}"


def template_env(overrides: str | Path | None = None) -> jinja2.Environment:
    """A new environment in which user templates in ``overrides`` (if given) shadow the built-in ones."""
    return _new_env(_search_path(overrides))


class TemplateEnvs:
    """The template environments of the renders of one caller (``mkdocs serve``'s rebuilds, ``build --watch``),
    so each template is compiled once, not once per render; lives as long as the caller keeps it.

    An environment is given again while the files under ``overrides`` are the same (Jinja recompiles a
    built-in template whose file changed); any change to them gives a new one. Do not modify an environment.
    """

    def __init__(self) -> None:
        self._envs: dict[tuple[str, ...], tuple[tuple[tuple[str, bytes], ...], jinja2.Environment]] = {}
        """(working directory, *search path) -> (the override files when the environment was made, it)."""

    def env(self, overrides: str | Path | None = None) -> jinja2.Environment:
        search = _search_path(overrides)
        try:
            key = tuple(os.path.abspath(path) for path in search)  # a relative path depends on the directory
            fingerprint = _contents(search[0]) if overrides is not None else ()
        except OSError:  # an unreadable file, a deleted working directory: an environment of its own, unkept
            return _new_env(search)
        kept = self._envs.get(key)
        if kept is None or kept[0] != fingerprint:
            kept = self._envs[key] = (fingerprint, _new_env(search))
        return kept[1]


def _contents(directory: str) -> tuple[tuple[str, bytes], ...]:
    """Every file under ``directory`` and its bytes (templates are small; modification times can repeat),
    following symbolic links to directories as Jinja's loader does (each real directory once)."""
    found: list[tuple[str, bytes]] = []
    seen: set[str] = set()
    for root, dirs, files in os.walk(directory, followlinks=True):
        real = os.path.realpath(root)
        if real in seen:
            dirs.clear()
            continue
        seen.add(real)
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as handle:
                found.append((os.path.relpath(path, directory), handle.read()))
    return tuple(sorted(found))


def _search_path(overrides: str | Path | None) -> tuple[str, ...]:
    search: list[str] = []
    if overrides is not None:
        directory = Path(overrides)
        if not directory.is_dir():
            raise UsageError(f"{overrides}: the templates directory does not exist")
        search.append(str(directory))
    search.append(str(builtin_templates_dir()))
    return tuple(search)


def _new_env(search: tuple[str, ...]) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(list(search)),
        autoescape=False,  # noqa: S701 -- Markdown, not HTML: card text goes through the encoders
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=_finalize,
        auto_reload=True,
    )
    filters: Mapping[str, Any] = FILTERS
    env.filters.update(filters)
    env.filters["quote_block"] = _quote_block
    env.filters["indent_block"] = _indent_block
    env.filters["tab_title"] = _tab_title
    env.filters["md_page_link"] = _page_link
    env.globals["rel"] = _relative
    from a2a_docgen.render.kinds import template_paths  # here: the kinds' views import this module

    env.globals["paths"] = template_paths()  # every kind's fixed pages: rel(paths.TAGS)
    env.globals["heading_id"] = _heading_id
    return env
