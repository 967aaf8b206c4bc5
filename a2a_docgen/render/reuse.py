"""What one render may keep for the next (``mkdocs serve`` renders again after every edit).

An agent page's view depends on its card alone (with its slug, diagnostics, verification, grade and the site
URL), and so does its Markdown with the built-in templates (which never read the rest of ``site``). After one
card changed, the others keep both: only that agent's page is made again, with the lists (those depend on every
card and are always rendered). With templates of the site's own, which may read anything of ``site``, views
are reused and pages rendered again. The result is the same as a render from nothing: the tests compare them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import jinja2

from a2a_docgen.render.kinds.agents import AgentPage, ViewReuse

__all__ = ["RenderReuse"]


@dataclass
class RenderReuse:
    """Kept by the caller across renders of one catalogue; holds the last render's views and agent pages."""

    views: ViewReuse = field(default_factory=dict)
    pages: dict[str, tuple[AgentPage, str]] = field(default_factory=dict)
    """An agent page's path -> (the view it was rendered from, its Markdown)."""
    env: jinja2.Environment | None = None
    """The template environment the pages were rendered with."""

    def start(self, env: jinja2.Environment, *, overrides: bool) -> None:
        """Before a render with ``env``: forget the pages if the templates are not the ones they came from
        (another environment, a template file changed since Jinja loaded it, or the site's own templates)."""
        loaded = env.cache.values() if env.cache is not None else ()
        if overrides or env is not self.env or not all(t.is_up_to_date for t in loaded):
            self.pages.clear()
        self.env = None if overrides else env

    def page(self, agent: AgentPage) -> str | None:
        """The Markdown rendered last time from this very view, if any."""
        kept = self.pages.get(agent.path)
        return kept[1] if kept is not None and kept[0] is agent else None

    def keep(self, agents: tuple[AgentPage, ...], texts: list[str]) -> None:
        """Remember this render's agent pages (and only those; none with the site's own templates)."""
        if self.env is None:
            self.pages = {}
            return
        self.pages = {agent.path: (agent, text) for agent, text in zip(agents, texts, strict=True)}
