"""The plugin's own Markdown profile (``a2a_docgen.html``): what it lets through, and the theme markup it makes.

The catalogue's pages never pass through the site's Markdown extensions; this converter is the only thing
between our Markdown and the reader's browser, so each rule of its profile is pinned here. The hostile-site
tests check the same on whole builds.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from a2a_docgen.html import Theme, front_matter, to_html
from a2a_docgen.html.code_highlight import highlight_code
from a2a_docgen.html.json_highlight import highlight_json

MATERIAL = Theme(flavour="material", permalink="¶")
PLAIN = Theme(flavour="plain")


def test_raw_html_is_text_except_br_and_code() -> None:
    page = to_html("<script>alert(1)</script>\n\nA <img src=x onerror=alert(1)> b<br>c <code>d</code>\n")
    assert "<script>" not in page.html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.html
    assert "<img" not in page.html
    assert "&lt;img src=x onerror=alert(1)&gt;" in page.html
    assert "b<br>" in page.html
    assert "<code>d</code>" in page.html


@pytest.mark.parametrize(
    "target",
    ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,x", "vbscript:x", "file:///etc/passwd"],
)
def test_only_http_https_mailto_and_site_links(target: str) -> None:
    page = to_html(f"[x]({target})\n")
    assert "<a" not in page.html


def test_allowed_links_and_links_inside_the_site() -> None:
    page = to_html("[a](https://a.example/) [m](mailto:x@a.example) [p](../tags/index.md#h-x)\n")
    assert '<a href="https://a.example/" rel="nofollow noopener">' in page.html
    assert '<a href="mailto:x@a.example" rel="nofollow noopener">' in page.html
    assert page.links == ("../tags/index.md#h-x",)
    resolved = page.with_links(lambda link: link.replace("index.md", ""))
    assert '<a href="../tags/#h-x">p</a>' in resolved


def test_images_are_never_rendered() -> None:
    assert "<img" not in to_html("![pixel](https://tracker.example/p.gif)\n").html


def test_heading_ids_explicit_or_never_a_themes() -> None:
    page = to_html(
        "# Agent\n\n## Plan {#skill-plan}\n\n## __config\n\n## mkdocs search results\n", theme=MATERIAL
    )
    assert (
        '<h2 id="skill-plan">Plan<a class="headerlink" href="#skill-plan" title="Permanent link">¶</a></h2>'
        in (page.html)
    )
    ids = {h.id for h in page.toc[0].children}
    assert ids == {"skill-plan", "h-__config", "h-mkdocs-search-results"}
    assert to_html("# 1111*7 8 secret\n").toc[0].id == "h-11117-8-secret"  # an id is never a bad CSS selector
    assert page.title == "Agent"
    assert page.ids >= ids


def test_front_matter_is_settings_not_content() -> None:
    markdown = "---\nrender_macros: false\n---\n# Agent\n"
    assert front_matter(markdown) == "---\nrender_macros: false\n---\n"
    assert front_matter("# Agent\n") == ""
    page = to_html(markdown)
    assert "render_macros" not in page.html
    assert page.title == "Agent"


REQUEST = '**JSON-RPC**\n\n```json\n{"a": 1}\n```\n\n**curl**\n\n```sh\ncurl -sS https://a.example/\n```\n'


def test_a_request_in_several_forms_is_tabs_with_material() -> None:
    body = to_html(REQUEST, theme=MATERIAL).html
    assert body.startswith('<div class="a2a-requests" data-pagefind-ignore="all" data-search-exclude>\n')
    assert '<div class="tabbed-set tabbed-alternate" data-tabs="1:2">' in body
    assert re.findall(r'<label for="(__tabbed_1_\d)">([^<]*)</label>', body) == [
        ("__tabbed_1_1", "JSON-RPC"),
        ("__tabbed_1_2", "curl"),
    ]
    assert body.count('type="radio"') == 2
    assert body.count('checked="checked"') == 1
    second = to_html(REQUEST + "\ntext\n\n" + REQUEST, theme=MATERIAL)
    assert 'data-tabs="2:2"' in second.html
    assert "__tabbed_2_1" in second.ids


def test_a_request_is_one_block_after_another_with_the_default_theme() -> None:
    body = to_html(REQUEST, theme=PLAIN).html
    assert "tabbed" not in body
    assert "<input" not in body
    assert body.startswith('<div class="a2a-requests" data-pagefind-ignore="all" data-search-exclude>\n')
    assert '<p><strong>curl</strong></p>\n<pre tabindex="0"><code class="language-sh">curl' in body


def test_json_is_highlighted_for_material_and_classed_for_highlight_js() -> None:
    fence = '```json\n{"a": [1, 2.5, true, null, "x"]}\n```\n'
    material = to_html(fence, theme=MATERIAL).html
    assert material.startswith('<div class="language-json highlight"><pre tabindex="0"><span></span><code>')
    assert '<span class="nt">"a"</span>' in material
    assert '<span class="mf">2.5</span>' in material
    assert to_html(fence, theme=PLAIN).html.startswith('<pre tabindex="0"><code class="language-json">{')


def test_a_fence_language_cannot_inject_attributes() -> None:
    page = to_html('```json" onmouseover="alert(1)\n{}\n```\n', theme=PLAIN)
    assert "onmouseover" not in page.html.split("<code", 1)[1].split(">", 1)[0]


def test_alerts_become_admonitions() -> None:
    body = to_html("> [!NOTE]\n> The skill accepts `application/json`, no text.\n").html
    assert body == (
        '<div class="admonition note">\n<p class="admonition-title">Note</p>\n'
        "<p>The skill accepts <code>application/json</code>, no text.</p>\n</div>\n"
    )
    assert "admonition" not in to_html("> [NOTE]\n> not an alert\n").html


def test_lists_of_facts_are_classed_by_label() -> None:
    body = to_html(
        "- **Version:** `1.0`\n- **Media types:** `text/plain`\n\ntext\n\n- plain item\n- **x:** y\n"
    ).html
    assert '<ul class="a2a-facts">\n<li class="a2a-fact-version">' in body
    assert '<li class="a2a-fact-media-types">' in body
    assert "<ul>\n<li>plain item</li>" in body  # one item without a label: not a list of facts


def test_a_commit_s_agents_are_folded_under_their_count() -> None:
    body = to_html(
        "- **2026-01-02** · `abc` · 3 agents removed\n    - **3 agents**\n        - A (gone)\n"
        "        - B (gone)\n            - nested\n        - C (gone)\n- next\n"
    ).html
    assert body.count('<details class="a2a-fold"><summary><strong>3 agents</strong></summary>') == 1
    folded = body[body.index("<details") : body.index("</details>")]
    assert folded.count("<li>") == 4
    assert "C (gone)" in folded
    assert body.index("</details>") < body.index("<li>next</li>")
    # Another bold label, or a count without a list under it, is no fold.
    for other in ("- **Implicit flow**\n    - scopes\n", "- **3 agents**\n", "- **3 agents:** x\n    - y\n"):
        assert "<details" not in to_html(other).html


def test_a_grade_that_starts_a_list_item_is_a_badge() -> None:
    body = to_html(
        "- **B** [Unit](u.md): converts\n    - facts\n- **Version:** `1`\n- **G** not a grade\n"
    ).html
    assert '<li><strong class="a2a-grade a2a-grade-b">B</strong> <a' in body
    assert body.count("a2a-grade") == 2  # the two classes of the one badge
    assert "<strong>Version:</strong>" in body


def test_urls_in_code_get_a_copy_button_with_material_only() -> None:
    url = "https://agent.example/a2a/v1"
    material = to_html(f"`{url}` and `not-a-url`\n", theme=MATERIAL).html
    assert material.count("a2a-copy") == 1
    assert f'data-clipboard-text="{url}"' in material
    assert "a2a-copy" not in to_html(f"`{url}`\n", theme=PLAIN).html
    assert "a2a-copy" not in to_html("`javascript:alert(1)`\n", theme=MATERIAL).html


def test_long_code_spans_may_wrap_at_separators() -> None:
    body = to_html("`ledgerOAuth.example.com/scopes/expenses:write`\n").html
    assert "ledgerOAuth.<wbr>example" in body
    assert "scopes/<wbr>expenses:<wbr>write" in body
    assert "<wbr>" not in to_html("`text/plain`\n").html


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
    max_leaves=20,
)


@settings(deadline=None)
@given(JSON_VALUES)
def test_highlighting_never_changes_what_the_block_says(value: object) -> None:
    text = json.dumps(value, indent=2, ensure_ascii=False)
    marked = highlight_json(text)
    assert html.unescape(re.sub(r"</?span[^>]*>", "", marked)) == text
    assert re.fullmatch(r'(?:[^<]|<span class="(?:nt|s2|mi|mf|kc|p)">|</span>)*', marked)


def test_highlighting_matches_pygments() -> None:
    """The classes Pygments' JSON lexer gives the same pretty-printed JSON (what pymdownx.highlight writes)."""
    pygments = pytest.importorskip("pygments")
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import JsonLexer

    text = json.dumps({"query": "ferry", "n": [1, -2.5e3, True, None], "nested": {"k": 'v\\"q'}}, indent=2)
    theirs = pygments.highlight(text, JsonLexer(), HtmlFormatter(nowrap=True))

    def classes(marked: str) -> list[tuple[str, str]]:
        return [(c, html.unescape(t)) for c, t in re.findall(r'<span class="(\w+)">([^<]*)</span>', marked)]

    ours = classes(highlight_json(text))
    # Pygments marks whitespace (w) and splits punctuation per character; compare what both mark.
    theirs_marked = [(c, t) for c, t in classes(theirs) if c != "w"]
    assert "".join(t for _, t in ours) == "".join(t for _, t in theirs_marked)
    assert {t: c for c, t in ours if c != "p"} == {t: c for c, t in theirs_marked if c != "p"}


@settings(deadline=None)
@given(st.text(), st.sampled_from(["sh", "python"]))
def test_code_highlighting_never_changes_what_the_block_says(text: str, language: str) -> None:
    """Any text, not only the code we generate: every character kept, escaped, inside known classes."""
    marked = highlight_code(text, language)
    assert marked is not None
    assert html.unescape(re.sub(r"</?span[^>]*>", "", marked)) == text
    assert re.fullmatch(r'(?:[^<]|<span class="[a-z0-9]{1,3}">[^<]*</span>)*', marked)


def test_curl_and_python_are_highlighted_in_the_request_tabs() -> None:
    page = to_html(
        "**curl**\n\n```sh\ncurl -sS 'https://a.example/' \\\n  -H 'X: y'\n```\n\n"
        '**Python**\n\n```python\nimport httpx\nprint("hi")  # note\n```\n',
        theme=Theme("material"),
    ).html
    assert "<span class=\"s1\">'https://a.example/'</span>" in page
    assert '<span class="se">\\</span>' in page
    assert '<span class="kn">import</span>' in page
    assert '<span class="s2">&quot;hi&quot;</span>' in page or '<span class="s2">"hi"</span>' in page
    assert '<span class="c1"># note</span>' in page
    assert highlight_code("x", "ruby") is None
