"""The stylesheet and script every catalogue site carries (``a2a_docgen/assets``), published under
``assets/a2a-docgen/``: the home page's filter, the catalogue search, and the look of our pages on phones and
in both colour schemes. The MkDocs plugin adds them to the theme; ``a2a-docgen init`` writes a site
configuration that does."""

from __future__ import annotations

from importlib import resources

__all__ = ["ASSET_DIR", "SCRIPTS", "STYLESHEETS", "asset_files"]

ASSET_DIR = "assets/a2a-docgen"
STYLESHEETS = (f"{ASSET_DIR}/catalogue.css",)
SCRIPTS = (f"{ASSET_DIR}/catalogue.js",)


def asset_files() -> dict[str, bytes]:
    """Every asset file, by its path in the site."""
    package = resources.files("a2a_docgen") / "assets"
    return {
        f"{ASSET_DIR}/{entry.name}": entry.read_bytes()
        for entry in sorted(package.iterdir(), key=lambda e: e.name)
        if entry.is_file() and entry.name.endswith((".css", ".js"))
    }
