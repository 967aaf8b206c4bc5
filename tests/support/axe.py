"""axe-core accessibility checks of an open page, with exclusions that name a rule and an element.

    violations = axe_violations(page, exclusions=THEME_EXCLUSIONS["material"])
    assert not serious(violations), report(violations)

axe-core comes from the PyPI package ``axe-playwright-python`` (it bundles ``axe.min.js``; nothing is
downloaded), injected into the page as a script. An exclusion drops the nodes of one rule that are inside
elements matching a selector; a rule is never switched off for the whole page.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Page

__all__ = ["AXE_OPTIONS", "Exclusion", "axe_violations", "report", "serious"]

AXE_OPTIONS: dict[str, Any] = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    },
    "resultTypes": ["violations"],
}


@dataclass(frozen=True)
class Exclusion:
    """Nodes of ``rule`` inside an element matching ``selector`` are not reported; ``reason`` says why."""

    rule: str
    selector: str
    reason: str


def axe_script() -> str:
    from axe_playwright_python.base import AXE_SCRIPT

    return str(AXE_SCRIPT)


_FILTERED_RUN = """async ([options, exclusions]) => {
  const results = await axe.run(document, options);
  const excluded = (rule, target) => {
    const selector = target[target.length - 1];
    const node = typeof selector === "string" ? document.querySelector(selector) : null;
    return node !== null && exclusions.some(([r, s]) => r === rule && node.closest(s) !== null);
  };
  return results.violations
    .map(v => ({...v, nodes: v.nodes.filter(n => !excluded(v.id, n.target))}))
    .filter(v => v.nodes.length > 0)
    .map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => ({target: n.target, html: n.html.slice(0, 200),
                                          summary: (n.failureSummary || "").slice(0, 300)}))}));
}"""


def axe_violations(page: Page, *, exclusions: Iterable[Exclusion] = ()) -> list[dict[str, Any]]:
    """Run axe-core on the page as it is now; the violations left after ``exclusions``."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_script())
    pairs = [[e.rule, e.selector] for e in exclusions]
    result: list[dict[str, Any]] = page.evaluate(_FILTERED_RUN, [AXE_OPTIONS, pairs])
    return result


def serious(violations: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The violations of impact ``serious`` or ``critical``."""
    return [v for v in violations if v.get("impact") in ("serious", "critical")]


def report(violations: Sequence[dict[str, Any]]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']}")
        lines.extend(
            f"    {node['target']} {node['html']}\n      {node['summary']}" for node in v["nodes"][:5]
        )
    return "\n".join(lines)
