"""The review as a pull-request comment in GitHub-flavoured Markdown.

Sections, each only when it has something: what the head's configuration would change (the base's judges
the change), the breaking changes (a table, or one open table per agent
when there are many: breaking changes are never folded), the version policy (folded below many breaking
changes), the card files that fail to load, the other changes per agent,
the accepted changes with their reasons, and the configuration warnings. Card text is encoded with the
``render.escape`` encoders, so it cannot start Markdown or HTML syntax, and ``review.markdown`` keeps
GitHub from turning it into mentions, issue references or emoji. The comment stays under GitHub's size
limit (what does not fit is counted, with a link to the full report).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from urllib.parse import quote

from a2a_docgen.render.escape import md_code, md_link, md_table_row
from a2a_docgen.render.paths import agent_dir
from a2a_docgen.review.codes import SEVERITIES
from a2a_docgen.review.diff import Change
from a2a_docgen.review.markdown import comment_text
from a2a_docgen.review.report import ReviewReport, SourceLinks, counts, has_news, plural
from a2a_docgen.slugs import AgentAddress

__all__ = ["COMMENT_MARKER", "MARKDOWN_BUDGET", "format_comment", "format_markdown", "page_url"]

COMMENT_MARKER = "<!-- a2a-docgen-diff -->"
"""First line of the Markdown comment, so a workflow can find and update its previous comment."""

MARKDOWN_BUDGET = 60_000
"""Characters of Markdown at most (GitHub refuses comments over 65,536); the rest is summarised."""

DETAILS_AFTER = 10
"""With more non-breaking and info changes than this, each agent's list folds into ``<details>``."""

GROUP_BREAKING_AFTER = 20
"""With more breaking changes than this, they are one folded table per agent instead of one table."""


def page_url(site_url: str, address: AgentAddress, skill: str | None = None) -> str:
    """The page of an agent on the generated site (``<site>/agents/<slug>/``), with the skill's anchor when the
    page has that skill (``address`` from ``slugs.site_addresses``: the slugs the site itself gives)."""
    url = f"{site_url.rstrip('/')}/{agent_dir(address.slug)}"
    anchor = address.skill_anchors.get(skill) if skill is not None else None
    return url + f"#{anchor}" if anchor is not None else url


_NO_AGENT_PAGE = frozenset({"agent-added", "agent-removed", "card-unreadable"})
"""Codes of an agent that has no page on the published site before the merge or none after it."""
_NO_SKILL_ANCHOR = frozenset({"skill-added", "skill-removed"})


class _Names:
    """Agent and skill names as Markdown, linked to their pages on the published site when it has them.

    ``--site-url`` is the site built from the base branch, and ``addresses`` its agents' slugs and anchors
    (``slugs.site_addresses`` of the base cards): agents and skills the base does not have (the change adds
    them) have no page there yet and are not linked; an agent whose name several base cards share links to the
    page that lists them, its skills to nothing (a name alone cannot say whose). Nor are
    agents and skills the change removes: the site is published again after the merge, without their pages
    and anchors, and the comment stays.
    """

    def __init__(
        self, site_url: str | None, addresses: Mapping[str, AgentAddress] | None, changes: Sequence[Change]
    ) -> None:
        self.site_url = site_url
        self.addresses = addresses if site_url is not None and addresses is not None else {}
        self.unlinked_agents = {c.agent for c in changes if c.code in _NO_AGENT_PAGE}
        self.unlinked_skills = {(c.agent, c.skill) for c in changes if c.code in _NO_SKILL_ANCHOR}

    def address(self, agent: str) -> AgentAddress | None:
        """The agent's address on the published site, or None when it has no page there before and after the
        merge."""
        return None if agent in self.unlinked_agents else self.addresses.get(agent)

    def agent(self, agent: str) -> str:
        address = self.address(agent)
        if self.site_url is None or address is None:
            return comment_text(agent)
        return md_link(agent, page_url(self.site_url, address))

    def skill(self, agent: str, skill: str | None) -> str:
        if skill is None:
            return "(agent)"
        address = self.address(agent)
        if (
            self.site_url is None
            or address is None
            or (agent, skill) in self.unlinked_skills
            or skill not in address.skill_anchors
        ):
            return comment_text(skill)
        return md_link(skill, page_url(self.site_url, address, skill))


class _Sources:
    """Links to the file and line of each finding at the head commit (base-side ones at the base commit)."""

    def __init__(self, links: SourceLinks | None) -> None:
        self.links = links

    def path(self, file: str) -> str | None:
        """``file`` relative to the repository root with ``/``, or ``None`` outside it."""
        assert self.links is not None
        found = os.path.join(self.links.paths_from or os.curdir, file)
        relative = os.path.relpath(os.path.realpath(found), os.path.realpath(self.links.root))
        if relative == os.pardir or relative.startswith(os.pardir + os.sep) or os.path.isabs(relative):
            return None
        return relative.replace(os.sep, "/")

    def link(self, change: Change) -> str:
        """``[cards/a.json:12](…/blob/<sha>/cards/a.json#L12)``, or ``""`` without links."""
        if self.links is None:
            return ""
        path = self.path(change.file)
        if path is None:
            return ""
        base = change.side == "base" and self.links.base_sha is not None
        sha = self.links.base_sha if base else self.links.head_sha
        url = f"{self.links.repo_url}/blob/{sha}/{quote(path)}#L{change.line}"
        return md_link(f"{path}:{change.line}" + (" (base)" if base else ""), url)


def _code(change: Change) -> str:
    """The code, linked to its row in docs/review.md."""
    return f"[`{change.code}`]({change.docs_url})"  # both ours: a registered code and docs/review.md


def _message(change: Change) -> str:
    return comment_text(change.message, max_len=1000)


def _verdict(report: ReviewReport) -> str:
    if not has_news(report):
        return "### ✅ No changes to A2A agent cards"
    failing = [c for c in report.changes if c.severity == "breaking" and c.accepted is None]
    breaking = [c for c in failing if not c.policy]
    if breaking:
        return f"### ❌ {plural(len(breaking), 'breaking change')} to A2A agent cards"
    rules = [c for c in failing if c.configuration]
    if rules:
        return f"### ❌ The change to the review's configuration fails ({plural(len(rules), 'finding')})"
    if failing:
        return f"### ❌ The version policy fails ({plural(len(failing), 'finding')})"
    return "### ✅ No breaking changes to A2A agent cards"


def _headline(report: ReviewReport) -> str:
    """``**3** breaking · **1** non-breaking · **0** info · 2 agents · **1** accepted · **1** policy finding``."""
    changes = [c for c in report.changes if not c.policy]
    numbers = counts([c for c in changes if c.accepted is None])
    agents = len({c.agent for c in report.changes if not c.configuration})
    parts = [f"**{numbers[s]}** {s}" for s in SEVERITIES] + [plural(agents, "agent")]
    accepted = sum(1 for c in report.changes if c.accepted is not None)
    policy = sum(1 for c in report.changes if c.policy and c.accepted is None)
    if accepted:
        parts.append(f"**{accepted}** accepted")
    if policy:
        parts.append(f"**{policy}** {'policy finding' if policy == 1 else 'policy findings'}")
    if report.failures:
        parts.append(
            f"**{len(report.failures)}** {'file fails' if len(report.failures) == 1 else 'files fail'} to load"
        )
    return " · ".join(parts)


def format_markdown(
    changes: Sequence[Change],
    *,
    site_url: str | None = None,
    addresses: Mapping[str, AgentAddress] | None = None,
) -> str:
    """A pull-request comment for ``changes`` alone (see ``format_comment``)."""
    return format_comment(ReviewReport(changes=changes, site_url=site_url, addresses=addresses))


def format_comment(report: ReviewReport) -> str:
    """A pull-request comment: verdict, counts, then the sections of the module docstring."""
    out = [COMMENT_MARKER, _verdict(report), ""]
    if not has_news(report):
        return "\n".join(out)
    out += [_headline(report), ""]
    # Headings and the notes of what was left out come on top of the rows and lists counted here.
    budget = report.budget if report.budget is not None else MARKDOWN_BUDGET
    comment = _Comment(report, (budget or 1 << 62) - 1_000 - sum(len(line) + 1 for line in out))
    out += comment.rules()
    out += comment.breaking()
    out += comment.policy()
    out += comment.failures()
    out += comment.others()
    out += comment.accepted()
    out += comment.configuration()
    return "\n".join(out).rstrip("\n") + "\n"


class _Comment:
    """The sections of one comment, drawing on one budget of characters."""

    def __init__(self, report: ReviewReport, budget: int) -> None:
        self.report = report
        self.names = _Names(report.site_url, report.addresses, report.changes)
        self.sources = _Sources(report.links)
        self.budget = _Budget(budget)
        self.open = [c for c in report.changes if c.accepted is None]

    def row(self, change: Change) -> str:
        cells = [
            self.names.agent(change.agent),
            self.names.skill(change.agent, change.skill),
            _message(change),
            _code(change),
        ]
        if self.report.links is not None:
            cells.append(self.sources.link(change))
        return md_table_row(cells)

    def table_head(self) -> list[str]:
        titles = ["Agent", "Skill", "Change", "Code", *(["Where"] if self.report.links is not None else [])]
        return [md_table_row(titles), md_table_row(["---"] * len(titles))]

    def breaking(self) -> list[str]:
        breaking = [c for c in self.open if c.severity == "breaking" and not c.policy]
        if not breaking:
            return []
        out = ["#### Breaking changes", ""]
        if len(breaking) <= GROUP_BREAKING_AFTER:
            rows = self.table_head() + [self.row(c) for c in breaking]
            return [*out, *self.budget.take(rows, len(breaking) + 2, "breaking changes", self.more), ""]
        # Many breaking changes: one open table per agent, so every breaking change stays in view.
        left = len(breaking)
        for agent, mine in _by_agent(breaking):
            head = [
                f"**{self.names.agent(agent)}** ({plural(len(mine), 'breaking change')})",
                "",
                *self.table_head(),
            ]
            # An agent's table starts only when its first row fits too: never a table head without rows.
            if not self.budget.room([*head, self.row(mine[0]), ""]):
                others = "breaking changes of other agents" if left < len(breaking) else "breaking changes"
                return [*out, self.more(left, others), ""]
            self.budget.fits([*head, ""])
            rows = self.budget.take_items(
                [self.row(c) for c in mine], "breaking changes of this agent", self.more
            )
            out += [*head, *rows, ""]
            left -= len(mine)
            if len(rows) < len(mine):
                return [*out, self.more(left, "breaking changes of other agents"), ""] if left else out
        return out

    @staticmethod
    def shown(kept: Sequence[str]) -> bool:
        """Whether ``_Budget.take_items`` kept an item, not only its note of what did not fit."""
        return bool(kept) and kept[0] != ""

    def more(self, count: int, what: str) -> str:
        """The note of what did not fit, pointing at the full report when there is one."""
        where = (
            f"the [full report]({self.report.full_report_url}) lists them"
            if self.report.full_report_url
            else "`a2a-docgen diff --format text` lists them"
        )
        return f"… and {count} more {what}; {where}."

    def item(self, change: Change, *, agent: bool = False, severity: bool = True) -> str:
        agent = agent and not change.configuration
        who = f"{self.names.agent(change.agent)} › " if agent and change.skill is not None else ""
        who = f"{self.names.agent(change.agent)}: " if agent and change.skill is None else who
        skill = f"{self.names.skill(change.agent, change.skill)}: " if change.skill is not None else ""
        link = self.sources.link(change)
        level = f"{change.severity} · " if severity else ""
        text = f"- {level}{_code(change)} · {who}{skill}{_message(change)}"
        return text + (f" ({link})" if link else "")

    def rules(self) -> list[str]:
        rules = [c for c in self.open if c.configuration]
        if not rules:
            return []
        items = self.budget.take_items([self.item(c) for c in rules], "configuration findings", self.more)
        note = "The base revision's configuration judges this change; the head's would change it as follows."
        return ["#### Changes to the review's configuration", "", note, "", *items, ""]

    def policy(self) -> list[str]:
        policy = [c for c in self.open if c.policy and not c.configuration]
        if not policy:
            return []
        items = self.budget.take_items(
            [self.item(c, agent=True) for c in policy], "policy findings", self.more
        )
        if not self.shown(items):
            return [self.more(len(policy), "policy findings"), ""]  # no section that holds only its note
        breaking = sum(1 for c in self.open if c.severity == "breaking" and not c.policy)
        if breaking > GROUP_BREAKING_AFTER:
            # The breaking changes come first; the version findings they cause are folded below them.
            summary = f"<details><summary>Version policy ({plural(len(policy), 'finding')})</summary>"
            return [summary, "", *items, "", "</details>", ""]
        return ["#### Version policy", "", *items, ""]

    def failures(self) -> list[str]:
        if not self.report.failures:
            return []
        unreadable = {c.file for c in self.report.changes if c.code == "card-unreadable"}
        reviewed = [failure.side == "head" and failure.file in unreadable for failure in self.report.failures]
        items = []
        for failure, in_review in zip(self.report.failures, reviewed, strict=True):
            mark = " · `card-unreadable`" if in_review else ""
            items.append(f"- {comment_text(failure.side)} · {md_code(failure.file)}{mark}")
            items += [
                f"  - line {d.line}, column {d.column}: {comment_text(d.message, max_len=500)} (`{d.code}`)"
                for d in failure.diagnostics
                if d.severity == "error"
            ]
        if all(reviewed):
            note = "Each is reviewed as `card-unreadable`; `a2a-docgen check` reports every problem."
        elif any(reviewed):
            note = (
                "Those marked `card-unreadable` are reviewed as such; the others are not part of the review. "
                "`a2a-docgen check` reports every problem."
            )
        else:
            note = "These files are not part of the review; `a2a-docgen check` reports every problem."
        return [
            "#### Card files that fail to load",
            "",
            note,
            "",
            *self.budget.take_items(items, "lines", self.more),
            "",
        ]

    def others(self) -> list[str]:
        rest = [c for c in self.open if c.severity != "breaking" and not c.policy]
        if not rest:
            return []
        out = ["#### Other changes", ""]
        breaking = sum(1 for c in self.open if c.severity == "breaking" and not c.policy)
        fold = len(rest) > DETAILS_AFTER or breaking > GROUP_BREAKING_AFTER  # many breaking: they come first
        shown = 0
        for agent, mine in _by_agent(rest):
            block = self.agent_block(agent, mine, fold=fold)
            if not self.budget.fits(block):
                if not shown:  # no heading over nothing but the note
                    return [self.more(len(rest), "other changes"), ""]
                out += [self.more(len(rest) - shown, "changes"), ""]
                break
            out += block
            shown += len(mine)
        return out

    def agent_block(self, agent: str, changes: Sequence[Change], *, fold: bool) -> list[str]:
        title = self.names.agent(agent)
        items = [self.item(c) for c in changes]
        if not fold:
            return [f"**{title}**", "", *items, ""]
        numbers = counts(changes)
        label = ", ".join(f"{numbers[s]} {s}" for s in SEVERITIES if numbers[s])
        # The summary is raw HTML: the agent name is md_inline text, which is also valid, fully escaped HTML.
        linked = self.names.site_url is not None and self.names.address(agent) is not None
        link = [f"Page: {title}", ""] if linked else []
        return [
            f"<details><summary><b>{comment_text(agent)}</b> ({label})</summary>",
            "",
            *link,
            *items,
            "",
            "</details>",
            "",
        ]

    def accepted(self) -> list[str]:
        accepted = [c for c in self.report.changes if c.accepted is not None]
        if not accepted:
            return []
        items = []
        for change in accepted:
            assert change.accepted is not None
            until = f" (until {change.accepted.expires.isoformat()})" if change.accepted.expires else ""
            items.append(
                self.item(change, agent=True)
                + f" — accepted: {comment_text(change.accepted.reason, max_len=500)}{until}"
            )
        kept = self.budget.take_items(items, "accepted changes", self.more)
        if not self.shown(kept):
            return [self.more(len(accepted), "accepted changes"), ""]
        heading = f"<details><summary>Accepted changes ({len(accepted)})</summary>"
        return [
            heading,
            "",
            *kept,
            "",
            "</details>",
            "",
        ]

    def configuration(self) -> list[str]:
        if not self.report.warnings:
            return []
        items = []
        for warning in self.report.warnings:
            where = f"{warning.file}:{warning.line}" if warning.line else warning.file
            items.append(f"- ⚠️ {md_code(where)}: {comment_text(warning.message, max_len=500)}")
        return ["#### Configuration", "", *self.budget.take_items(items, "warnings", self.more), ""]


def _by_agent(changes: Sequence[Change]) -> list[tuple[str, list[Change]]]:
    """The changes of each agent, agents sorted by name (case-insensitively)."""
    agents = sorted({c.agent for c in changes}, key=lambda a: (a.casefold(), a))
    return [(agent, [c for c in changes if c.agent == agent]) for agent in agents]


class _Budget:
    """Characters left for the comment."""

    def __init__(self, left: int) -> None:
        self.left = left

    def room(self, lines: Sequence[str]) -> bool:
        """Whether ``lines`` would fit (nothing is spent)."""
        return sum(len(line) + 1 for line in lines) <= self.left

    def fits(self, lines: Sequence[str]) -> bool:
        """Spend the characters of ``lines`` when they fit."""
        if not self.room(lines):
            return False
        self.left -= sum(len(line) + 1 for line in lines)
        return True

    def take(self, rows: Sequence[str], total: int, what: str, more: Callable[[int, str], str]) -> list[str]:
        """As many rows as fit (the first two are the table head), then ``more``'s note of what was left out."""
        kept: list[str] = []
        for row in rows:
            if not self.fits([row]):
                shown = max(len(kept) - 2, 0)
                return [*kept, "", more(total - 2 - shown, what)]
            kept.append(row)
        return kept

    def take_items(self, items: Sequence[str], what: str, more: Callable[[int, str], str]) -> list[str]:
        """As many list items as fit, then ``more``'s note of how many were left out."""
        kept: list[str] = []
        for item in items:
            if not self.fits([item]):
                return [*kept, "", more(len(items) - len(kept), what)]
            kept.append(item)
        return kept
