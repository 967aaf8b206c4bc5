"""Atom feeds (RFC 4287) of the change history: one for the catalogue, one per agent.

Written by our code, never through Markdown or a template: every string from a card or a commit is XML-escaped
here (and, inside the HTML of an entry's content, HTML-escaped first), after the pages' step 0 (``clean_text``):
an invisible or direction character of a card name, a commit subject or a file name reaches a feed reader as
the marker the pages show (``⟨U+202E⟩``), never raw, and no character XML 1.0 cannot carry is left. Dates come from the commits, entry ids from the commit and the card file (``entries.entry_id``), so the
same repository state gives the same bytes and an entry keeps its id from one build to the next.
"""

from __future__ import annotations

import html
import posixpath
import uuid
from collections.abc import Mapping, Sequence

from a2a_docgen.history.entries import UNKNOWN_DATE, HistoryEntry
from a2a_docgen.render.changes import FEED_ENTRIES, CommitChanges, entry_summary
from a2a_docgen.render.kinds.agents import AgentPage
from a2a_docgen.render.pages import SiteViews
from a2a_docgen.text.plural import plural
from a2a_docgen.text.unicode import clean_text

__all__ = [
    "ATOM_TYPE",
    "agent_feed",
    "agent_feed_paths",
    "atom_feed",
    "catalogue_feed",
    "feed_links",
    "page_url",
    "xml_text",
]

ATOM_TYPE = "application/atom+xml"
_FEED_NAMESPACE = uuid.UUID("0c2f8e8a-2d1e-4a8f-9a7e-a2a0d0c9e025")
_EPOCH = "1970-01-01T00:00:00Z"
"""An unknown commit date in a feed, which must give one: a reader sorts it last."""


def xml_text(value: str) -> str:
    """Text for an XML element or attribute value: as the pages show it (``clean_text``: printable, invisible
    and direction characters as markers, none of the characters XML 1.0 forbids), escaped."""
    return html.escape(clean_text(str(value)), quote=True)


def page_url(page: str) -> str:
    """A page's HTML address, directory style (``agents/x/index.md`` -> ``agents/x/``, ``a.md`` -> ``a/``)."""
    if page == "index.md" or page.endswith("/index.md"):
        return page.removesuffix("index.md")
    return page.removesuffix(".md") + "/"


def _href(target: str, feed_path: str, site_url: str | None) -> str:
    """``target`` (a site path) absolute under ``site_url``, else relative to the feed's directory."""
    if site_url:
        return site_url.rstrip("/") + "/" + target
    here = posixpath.dirname(feed_path)
    relative = posixpath.relpath(target or ".", here or ".")
    return relative + "/" if target.endswith("/") and not relative.endswith("/") else relative


_TITLE_CHARS = 160
"""A finding's message in a title is cut to this (the entry's content has it whole)."""
_TITLE_NAMES = 3
"""The agents a commit's title names."""


def _what_changed(entry: HistoryEntry) -> str:
    """What one agent's entry changed, for a title: the most severe change in the differ's words, then how
    many more, as the pages say it (``_history.md.jinja``'s ``what_changed``; card text: escaped by the
    caller)."""
    agent = entry.agent
    if entry.kind in ("added", "removed"):
        return f"{agent} {entry.kind}"
    if entry.kind == "moved":
        return f"{agent}: card file renamed to {entry.path}"
    changes = entry.changes
    if not changes:
        what = entry.label
    else:
        first = changes[0]
        message = first.message if len(first.message) <= _TITLE_CHARS else first.message[:_TITLE_CHARS] + "…"
        what = message + (f" (skill {first.skill})" if first.skill else "")
        if len(changes) > 1:
            what += f", and {plural(len(changes) - 1, 'more change')}"
    if entry.policy_count:
        what += f"; {plural(entry.policy_count, 'policy finding')}"
    return f"{agent}: {what}"


def _title(group: CommitChanges) -> str:
    """An entry's title: what changed (``Weather Agent: the skill is gone ("Alerts") ...``), or for a commit
    that changed many agents its headline and the first names (``103 agents removed: A, B, C and 100 more``);
    `` (breaking)`` after a breaking one."""
    if len(group.changes) == 1:
        title = _what_changed(group.entry)
    else:
        names = [view.entry.agent for view in group.changes[:_TITLE_NAMES]]
        rest = len(group.changes) - len(names)
        title = f"{group.headline}: {', '.join(names)}" + (f" and {rest} more" if rest else "")
    return title + (" (breaking)" if group.breaking else "")


def _commit_id(commit: str) -> str:
    """The Atom id of a commit's entry that tells many agents' changes (one agent's keeps its ``entry.id``)."""
    return f"urn:uuid:{uuid.uuid5(_FEED_NAMESPACE, f'commit:{commit}')}"


def _group_content(group: CommitChanges) -> str:
    """A commit that changed many agents as HTML: its headline and each agent's summary (their pages and feeds
    list the findings)."""
    e = html.escape
    entry = group.entry
    items = "".join(f"<li>{e(view.entry.agent)}: {e(view.summary)}</li>" for view in group.changes)
    parts = [f"<p>{e(group.headline)}. Commit {e(entry.short)}: {e(entry.subject)}</p>", f"<ul>{items}</ul>"]
    if group.commit_link:
        parts.append(f'<p><a href="{e(group.commit_link)}">The commit</a></p>')
    return "".join(parts)


def _content(entry: HistoryEntry, commit_link: str | None) -> str:
    """The entry as HTML (escaped once here, and once more as the element's text)."""
    e = html.escape
    parts = [f"<p>{e(entry_summary(entry))}. Commit {e(entry.short)}: {e(entry.subject)}</p>"]
    if entry.findings:
        items = "".join(
            f"<li><strong>{'policy finding, ' if f.policy else ''}{e(f.severity)}</strong>: {e(f.message)}"
            + (f" (skill <code>{e(f.skill)}</code>)" if f.skill else "")
            + "</li>"
            for f in entry.findings
        )
        parts.append(f"<ul>{items}</ul>")
    if entry.moved_from:
        parts.append(
            f"<p>File <code>{e(entry.moved_from)}</code> renamed to <code>{e(entry.path)}</code>.</p>"
        )
    if entry.version_after is not None and entry.version_before is not None:
        parts.append(
            f"<p>Version <code>{e(entry.version_before)}</code> to <code>{e(entry.version_after)}</code>.</p>"
        )
    if commit_link:
        parts.append(f'<p><a href="{e(commit_link)}">The commit</a></p>')
    return "".join(parts)


def atom_feed(
    *,
    title: str,
    feed_path: str,
    page_path: str,
    changes: Sequence[CommitChanges],
    updated: str,
    site_url: str | None,
    site_name: str,
    own_page: str | None = None,
    card_key: str | None = None,
) -> bytes:
    """The feed at ``feed_path`` for the page ``page_path`` (a Markdown path), of ``changes`` (latest first,
    one entry each).

    ``updated``: the feed's date when it has no entry (the history's ``HEAD``). ``own_page``: every entry's page
    (an agent's feed), else each entry's agent page (``ChangeView.agent_path``), or ``page_path`` for an agent
    that is gone or a commit that changed many agents. ``card_key``: an agent's feed is identified by its card
    file (``CardSource.key``), not its address, so it keeps its id when the page moves."""
    if card_key is not None:
        feed_id = f"urn:uuid:{uuid.uuid5(_FEED_NAMESPACE, f'{site_url or site_name}:card:{card_key}')}"
    elif site_url:
        feed_id = _href(feed_path, feed_path, site_url)
    else:
        feed_id = f"urn:uuid:{uuid.uuid5(_FEED_NAMESPACE, f'{site_name}:{feed_path}')}"
    known = (group.entry.date for group in changes if group.entry.date != UNKNOWN_DATE)
    newest = next(known, updated)
    out = [
        '<?xml version="1.0" encoding="utf-8"?>\n',
        '<feed xmlns="http://www.w3.org/2005/Atom">\n',
        f"  <id>{xml_text(feed_id)}</id>\n",
        f'  <title type="text">{xml_text(title)}</title>\n',
        f"  <updated>{xml_text(newest if newest != UNKNOWN_DATE else _EPOCH)}</updated>\n",
        f"  <author><name>{xml_text(site_name)}</name></author>\n",
        f'  <link rel="self" type="{ATOM_TYPE}" href="{xml_text(_href(feed_path, feed_path, site_url))}"/>\n',
        f'  <link rel="alternate" type="text/html" '
        f'href="{xml_text(_href(page_url(page_path), feed_path, site_url))}"/>\n',
        "  <generator>a2a-docgen</generator>\n",
    ]
    hrefs: dict[str, str] = {}  # page -> its address from the feed (an agent's feed has one page)
    for group in changes:
        entry = group.entry
        single = len(group.changes) == 1
        page = own_page or (group.first.agent_path if single else None) or page_path
        href = hrefs.get(page)
        if href is None:
            href = hrefs[page] = xml_text(_href(page_url(page), feed_path, site_url))
        content = _content(entry, group.commit_link) if single else _group_content(group)
        out += [
            "  <entry>\n",
            f"    <id>{xml_text(entry.id if single else _commit_id(entry.commit))}</id>\n",
            f'    <title type="text">{xml_text(_title(group))}</title>\n',
            f"    <updated>{xml_text(entry.date if entry.date != UNKNOWN_DATE else _EPOCH)}</updated>\n",
            f'    <link rel="alternate" type="text/html" href="{href}"/>\n',
        ]
        if group.commit_link:
            out.append(f'    <link rel="related" type="text/html" href="{xml_text(group.commit_link)}"/>\n')
        out += [
            f'    <category term="{xml_text(group.severity)}" label="{xml_text(group.severity)}"/>\n',
            f'    <content type="html">{xml_text(content)}</content>\n',
            "  </entry>\n",
        ]
    out.append("</feed>\n")
    return "".join(out).encode("utf-8")


def catalogue_feed(views: SiteViews, *, site_url: str | None, site_name: str) -> dict[str, bytes]:
    """The catalogue's feed, by path (none without a history)."""
    history = views.history
    if history is None:
        return {}
    return {
        history.feed_path: atom_feed(
            title=f"{site_name}: what's new",
            feed_path=history.feed_path,
            page_path=history.page_path,
            changes=history.recent[:FEED_ENTRIES],
            updated=history.source.head_date,
            site_url=site_url,
            site_name=site_name,
        )
    }


def agent_feed(
    views: SiteViews, agent: AgentPage, *, site_url: str | None, site_name: str
) -> dict[str, bytes]:
    """An agent's feed, by path (none without a history): made with the agent's page, where it is rendered."""
    changes = agent.changes
    if views.history is None or changes is None:
        return {}
    return {
        changes.feed_path: atom_feed(
            title=f"{agent.card.name or 'Unnamed agent'}: changes",
            feed_path=changes.feed_path,
            page_path=agent.path,
            changes=[CommitChanges((view,)) for view in changes.entries[:FEED_ENTRIES]],
            updated=views.history.source.head_date,
            site_url=site_url,
            site_name=site_name,
            own_page=agent.path,
            card_key=agent.card.source.key,
        )
    }


def agent_feed_paths(views: SiteViews) -> list[str]:
    """The path of every feed ``agent_feed`` makes."""
    if views.history is None:
        return []
    return [agent.changes.feed_path for agent in views.agents if agent.changes is not None]


def feed_links(views: SiteViews, pages: Mapping[str, str]) -> dict[str, str]:
    """The feed each page links to in its head: an agent's pages (in its directory) their agent's, every other
    page the catalogue's."""
    if views.history is None:
        return {}
    by_directory = {
        posixpath.dirname(agent.changes.feed_path): agent.changes.feed_path
        for agent in views.agents
        if agent.changes is not None
    }
    catalogue = views.history.feed_path
    return {path: by_directory.get(posixpath.dirname(path), catalogue) for path in sorted(pages)}
