"""The plugin's options (``plugins: - a2a-docgen:`` in mkdocs.yml) and the checks on their values."""

from __future__ import annotations

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError

from a2a_docgen.errors import A2ADocgenError
from a2a_docgen.site.writer import check_relative_path

__all__ = ["AUTO_PREFIX", "A2ADocgenPluginConfig", "as_list", "join_url", "prefix_option"]

AUTO_PREFIX = "catalogue/"
"""Where the catalogue goes when the docs directory has a home page of its own and no prefix is set."""


class _SearchIndex(c.Choice[str]):
    """``pagefind`` or ``off``; YAML reads a bare ``off`` as ``false`` (and ``on`` as ``true``), so those count."""

    def __init__(self) -> None:
        super().__init__(("pagefind", "off"))

    def run_validation(self, value: object) -> str:
        if value is False:
            return "off"
        if value is True:
            return "pagefind"
        return super().run_validation(value)


class A2ADocgenPluginConfig(base.Config):  # type: ignore[no-untyped-call]
    """Options under ``plugins: - a2a-docgen:`` in mkdocs.yml."""

    cards = c.Type((str, list))
    """Card file or directory, or a list of them, relative to mkdocs.yml. Required."""
    templates = c.Optional(c.Type(str))
    """Directory of template overrides, relative to mkdocs.yml."""
    strict = c.Type(bool, default=False)
    """Fail the build when any card has a diagnostic (otherwise they are logged at INFO level)."""
    quiet = c.Type(bool, default=False)
    """Log only the errors of the cards (and the line by code), as ``check --quiet`` prints them."""
    nav = c.Type(bool, default=True)
    """Use the catalogue's navigation when mkdocs.yml has no ``nav``."""
    prefix = c.Optional(c.Type(str))
    """Directory of the docs tree the catalogue goes into (``catalogue/``); empty means the docs root. Not set:
    the docs root, or ``catalogue/`` when the docs directory has a home page of its own."""
    jobs = c.Optional(c.Type(int))
    """Processes that render agent pages (default: the CPUs available; 1 renders in the MkDocs process)."""
    search_index = c.Optional(_SearchIndex())
    """The catalogue search's index: ``pagefind`` (the default when Pagefind is installed) or ``off``."""
    jwks = c.Type((str, list), default=[])
    """JWK set file(s) of trusted keys, relative to mkdocs.yml (docs/signing.md)."""
    keys_file = c.Optional(c.Type(str))
    """Keys file pinning keys to agents or providers, relative to mkdocs.yml (``keys`` would shadow the
    ``keys()`` method of MkDocs' config mapping)."""
    require_signature = c.Type(bool, default=False)
    """Fail the build when a card has no signature that verifies with a trusted key."""
    publisher_domain = c.Optional(c.Type(str))
    """The domain under which the site's owner publishes the agents: ``ai-catalog.json`` then identifies them as
    ``urn:air:<domain>:a2a:<id>``. Leave it unset for a catalogue of other people's agents."""
    history = c.Type(bool, default=True)
    """The change history from git on the agent pages, "What's new" and the feeds (off outside a git work tree)."""


def as_list(value: object) -> list[str]:
    if value is None or value == []:
        raise PluginError("a2a-docgen: the 'cards' option is required (a path or a list of paths)")
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(item, str) and item for item in items):
        raise PluginError("a2a-docgen: 'cards' must be a path or a list of paths")
    return [str(item) for item in items]


def prefix_option(value: str) -> str:
    value = value.strip("/")
    if not value:
        return ""
    try:
        return check_relative_path(value) + "/"
    except A2ADocgenError as exc:
        raise PluginError(f"a2a-docgen: prefix: {exc}") from exc


def join_url(site_url: str | None, prefix: str) -> str | None:
    if not site_url:
        return None
    return site_url.rstrip("/") + "/" + prefix if prefix else site_url
