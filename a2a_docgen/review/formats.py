"""Review findings as text, JSON, a pull-request comment (Markdown) or GitHub Actions annotations.

Messages carry card text (names, ids, URLs). Text, JSON and annotations pass it through ``printable`` so
no control or bidi character reaches a terminal or a log; the Markdown comment encodes it with
``md_inline`` so no card text can start Markdown or HTML syntax.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Literal

from a2a_docgen.render.escape import md_inline, md_link, md_table_row
from a2a_docgen.render.slug import anchor, slug
from a2a_docgen.report_formats import printable
from a2a_docgen.review.diff import SEVERITIES, Change, ChangeSeverity

__all__ = [
    "COMMENT_MARKER",
    "FORMATS",
    "ReviewFormat",
    "counts",
    "format_changes",
    "format_github",
    "format_json",
    "format_markdown",
    "format_text",
    "page_url",
    "summary",
]

ReviewFormat = Literal["text", "markdown", "json", "github"]
FORMATS: tuple[ReviewFormat, ...] = ("text", "markdown", "json", "github")

COMMENT_MARKER = "<!-- a2a-docgen-diff -->"
"""First line of the Markdown comment, so a workflow can find and update its previous comment."""

MARKDOWN_BUDGET = 60_000
"""Characters of Markdown at most (GitHub refuses comments over 65,536); the rest is summarised."""

DETAILS_AFTER = 10
"""With more non-breaking and info changes than this, each agent's list folds into ``<details>``."""

_ANNOTATION = {"breaking": "error", "non-breaking": "warning", "info": "notice"}
_TITLE = {"breaking": "Breaking change", "non-breaking": "Non-breaking change", "info": "Card change"}


def counts(changes: Sequence[Change]) -> dict[ChangeSeverity, int]:
    """Number of changes per severity, every severity present."""
    result = dict.fromkeys(SEVERITIES, 0)
    for change in changes:
        result[change.severity] += 1
    return result


def summary(changes: Sequence[Change]) -> str:
    """``3 changes: 1 breaking, 1 non-breaking, 1 info`` or ``no changes``."""
    if not changes:
        return "no changes"
    numbers = counts(changes)
    noun = "change" if len(changes) == 1 else "changes"
    return f"{len(changes)} {noun}: " + ", ".join(f"{numbers[s]} {s}" for s in SEVERITIES)


def _where(change: Change) -> str:
    return f"{change.agent} › {change.skill}" if change.skill is not None else change.agent


def format_text(changes: Sequence[Change]) -> str:
    """One line per change (``file:line: severity: agent › skill: message [code]``), then the summary."""
    lines = [
        printable(f"{c.file}:{c.line}: {c.severity}: {_where(c)}: {c.message} [{c.code}]") + "\n"
        for c in changes
    ]
    return "".join(lines) + summary(changes).capitalize() + ".\n"


def format_json(changes: Sequence[Change]) -> str:
    """A JSON array of change objects (``[]`` when nothing changed), with a final newline.

    Non-ASCII text stays readable; control, bidi and other invisible characters are ``\\uXXXX`` escapes.
    """
    text = json.dumps([c.to_json() for c in changes], ensure_ascii=False, indent=2)
    return printable(text, keep_newlines=True) + "\n"  # raw newlines are layout: strings have them escaped


def _github_data(value: str) -> str:
    return printable(value).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(value: str) -> str:
    return _github_data(value).replace(":", "%3A").replace(",", "%2C")


def format_github(changes: Sequence[Change]) -> str:
    """Workflow commands: ``::error`` for breaking, ``::warning`` non-breaking, ``::notice`` info.

    Each annotation sits on the changed line of the head card (of the base card for what was removed).
    """
    lines = []
    for c in changes:
        title = f"{_TITLE[c.severity]}: {c.code}"
        properties = ",".join(
            f"{key}={_github_property(value)}"
            for key, value in (
                ("file", c.file),
                ("line", str(c.line)),
                ("col", str(c.column)),
                ("title", title),
            )
        )
        lines.append(
            f"::{_ANNOTATION[c.severity]} {properties}::{_github_data(f'{_where(c)}: {c.message}')}\n"
        )
    return "".join(lines)


def page_url(site_url: str, agent: str, skill: str | None = None) -> str:
    """The page of an agent on the generated site (``<site>/agents/<slug>/``), with the skill's anchor."""
    agent_slug = slug(agent, "agent")
    url = f"{site_url.rstrip('/')}/agents/{agent_slug}/"
    return url + f"#{anchor(skill, agent_slug, prefix='skill')}" if skill is not None else url


class _Names:
    """Agent and skill names as Markdown, linked to their pages on the published site when it has them.

    ``--site-url`` is the site built from the base branch, so agents and skills the change adds have no
    page there yet and are not linked.
    """

    def __init__(self, site_url: str | None, changes: Sequence[Change]) -> None:
        self.site_url = site_url
        self.new_agents = {c.agent for c in changes if c.code == "agent-added"}
        self.new_skills = {(c.agent, c.skill) for c in changes if c.code == "skill-added"}

    def agent(self, agent: str) -> str:
        if self.site_url is None or agent in self.new_agents:
            return md_inline(agent)
        return md_link(agent, page_url(self.site_url, agent))

    def skill(self, agent: str, skill: str | None) -> str:
        if skill is None:
            return "(agent)"
        if self.site_url is None or agent in self.new_agents or (agent, skill) in self.new_skills:
            return md_inline(skill)
        return md_link(skill, page_url(self.site_url, agent, skill))


def _message(change: Change) -> str:
    return md_inline(change.message, max_len=1000)


def _verdict(changes: Sequence[Change]) -> str:
    numbers = counts(changes)
    if not changes:
        return "### ✅ No changes to A2A agent cards"
    if numbers["breaking"]:
        noun = "change" if numbers["breaking"] == 1 else "changes"
        return f"### ❌ {numbers['breaking']} breaking {noun} to A2A agent cards"
    return "### ✅ No breaking changes to A2A agent cards"


def format_markdown(changes: Sequence[Change], *, site_url: str | None = None) -> str:
    """A pull-request comment: verdict, counts, a table of breaking changes, then the rest per agent."""
    out = [COMMENT_MARKER, _verdict(changes), ""]
    if not changes:
        return "\n".join(out)
    numbers = counts(changes)
    agents = len({c.agent for c in changes})
    out += [
        " · ".join(f"**{numbers[s]}** {s}" for s in SEVERITIES)
        + f" · {agents} {'agent' if agents == 1 else 'agents'}",
        "",
    ]
    # Headings and the notes of what was left out come on top of the rows and lists counted here.
    names = _Names(site_url, changes)
    budget = _Budget(MARKDOWN_BUDGET - 1_000 - sum(len(line) + 1 for line in out))
    breaking = [c for c in changes if c.severity == "breaking"]
    if breaking:
        out += ["#### Breaking changes", ""]
        rows = [md_table_row(["Agent", "Skill", "Change", "Code"]), md_table_row(["---"] * 4)]
        rows += [
            md_table_row([names.agent(c.agent), names.skill(c.agent, c.skill), _message(c), f"`{c.code}`"])
            for c in breaking
        ]
        out += budget.take(rows, len(breaking) + 2, "breaking changes")
        out.append("")
    rest = [c for c in changes if c.severity != "breaking"]
    if rest:
        out += ["#### Other changes", ""]
        fold = len(rest) > DETAILS_AFTER
        shown = 0
        for agent in sorted({c.agent for c in rest}, key=lambda a: (a.casefold(), a)):
            mine = [c for c in rest if c.agent == agent]
            block = _agent_block(agent, mine, names, fold=fold)
            if not budget.fits(block):
                out += [f"… and {len(rest) - shown} more changes; see the job log.", ""]
                break
            out += block
            shown += len(mine)
    return "\n".join(out).rstrip("\n") + "\n"


def _agent_block(agent: str, changes: Sequence[Change], names: _Names, *, fold: bool) -> list[str]:
    title = names.agent(agent)
    items = []
    for c in changes:
        where = f"{names.skill(c.agent, c.skill)}: " if c.skill is not None else ""
        items.append(f"- {c.severity} · `{c.code}` · {where}{_message(c)}")
    if not fold:
        return [f"**{title}**", "", *items, ""]
    numbers = counts(changes)
    label = ", ".join(f"{numbers[s]} {s}" for s in SEVERITIES if numbers[s])
    # The summary is raw HTML: the agent name is md_inline text, which is also valid, fully escaped HTML.
    linked = names.site_url is not None and agent not in names.new_agents
    link = [f"Page: {title}", ""] if linked else []
    return [
        f"<details><summary><b>{md_inline(agent)}</b> ({label})</summary>",
        "",
        *link,
        *items,
        "",
        "</details>",
        "",
    ]


class _Budget:
    """Characters left for the comment."""

    def __init__(self, left: int) -> None:
        self.left = left

    def fits(self, lines: Sequence[str]) -> bool:
        size = sum(len(line) + 1 for line in lines)
        if size > self.left:
            return False
        self.left -= size
        return True

    def take(self, rows: Sequence[str], total: int, what: str) -> list[str]:
        """As many rows as fit (the first two are the table head), then a note of what was left out."""
        kept: list[str] = []
        for row in rows:
            if not self.fits([row]):
                shown = max(len(kept) - 2, 0)
                return [*kept, "", f"… and {total - 2 - shown} more {what}; see the job log."]
            kept.append(row)
        return kept


def format_changes(
    changes: Sequence[Change], output_format: ReviewFormat, *, site_url: str | None = None
) -> str:
    """Changes in one of ``FORMATS``."""
    if output_format == "json":
        return format_json(changes)
    if output_format == "github":
        return format_github(changes)
    if output_format == "markdown":
        return format_markdown(changes, site_url=site_url)
    return format_text(changes)
