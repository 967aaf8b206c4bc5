"""The MkDocs plugin ``a2a-docgen``: the catalogue of Agent Cards as pages of the site, sealed.

The only package of a2a-docgen that imports MkDocs. ``on_config`` loads and renders the catalogue with the
library (``load_catalog``, ``render_catalog``); ``on_files`` adds the pages and files to the site.

**Sealed pages.** Our pages never pass through the site's Markdown pipeline. A page's source, as MkDocs and
every other plugin or hook sees it (``on_page_read_source``, ``on_page_markdown``, the file's content), is
its front matter alone (our words, never card text), and its title is set after ``on_page_markdown``; the plugin converts the real Markdown itself (``a2a_docgen.html``: markdown-it-py with one fixed
profile, never the site's ``markdown_extensions``) and hands MkDocs the HTML, the table of contents, the
title and the page's anchors. So no preprocessor a site enables (snippets, macros with any delimiters,
critic, includes, a hook with a syntax of its own) ever sees card text, and MkDocs still does the rest:
theme, navigation, permalinks, link and anchor validation, sitemap, ``on_page_content`` for other plugins.
Search entries come from the model (``RenderedSite.search``) instead of a search plugin parsing our HTML.

```yaml
plugins:
  - search
  - a2a-docgen:
      cards: examples/cards      # a path or a list of paths, relative to mkdocs.yml
```
"""

from a2a_docgen.site.plugin.hooks import A2ADocgenPlugin
from a2a_docgen.site.plugin.options import A2ADocgenPluginConfig

__all__ = ["A2ADocgenPlugin", "A2ADocgenPluginConfig"]
