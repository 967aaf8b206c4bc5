"""A published snippet parses to the program we meant, whatever the card says.

The Python snippet is read by Python as a file: its first two lines may declare the source encoding (PEP 263),
so card text there could make Python decode the rest as UTF-7, where plain ASCII such as ``+ACI-`` is a quote.
The shell commands are read by a POSIX shell. Each is checked as its reader reads it: Python compiles its UTF-8
bytes, ``shlex`` splits the commands.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.page_corpora import pages_of
from tests.support.snippet_runner import labelled_snippets

# In UTF-7 ``+ACI-`` is a quote and ``+AAo-`` a newline: each payload touches ``pwned`` when it runs.
_TOUCH = "__import__(+ACI-pathlib+ACI-).Path(+ACI-pwned+ACI-).touch()"
_SCHEME = "x coding:utf-7"
_IN_A_STRING = f"+ACI-, {_TOUCH}, +ACI-"
_IN_A_COMMENT = f"+AAo-{_TOUCH}+AAo-#"


def _published_python(directory: Path, schemes: list[str], example: str) -> str:
    """The Python form of the JSON-RPC request of a card whose API key schemes are named ``schemes`` (with a
    key name that is not a token, so the program names each in a comment), as its agent page publishes it."""
    unusable = {"apiKeySecurityScheme": {"location": "header", "name": "X Key"}}
    card: dict[str, Any] = {
        "name": "Ferry Desk",
        "description": "d",
        "version": "1",
        "supportedInterfaces": [
            {"url": "http://127.0.0.1:9/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ],
        "capabilities": {},
        "securitySchemes": dict.fromkeys(schemes, unusable),
        "securityRequirements": [{"schemes": {scheme: {"list": []} for scheme in schemes}}],
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [{"id": "s", "name": "S", "description": "d", "tags": ["t"], "examples": [example]}],
    }
    cards = directory / "cards"
    cards.mkdir()
    (cards / "ferry.json").write_text(json.dumps(card), encoding="utf-8")
    pages = pages_of([cards])
    (page,) = [text for path, text in pages.items() if path.startswith("agents/") and "ferry" in path]
    (python,) = [s.code for s in labelled_snippets(page) if s.label == "JSON-RPC v1.0 · Python"]
    return python


@pytest.mark.parametrize(
    ("schemes", "example"),
    [
        pytest.param([_SCHEME], _IN_A_STRING, id="the example closes its string"),
        pytest.param([_SCHEME, _IN_A_COMMENT], "hello", id="a scheme name ends its comment"),
    ],
)
def test_card_text_cannot_declare_the_snippets_encoding(
    tmp_path: Path, schemes: list[str], example: str
) -> None:
    """The attack as a reader meets it: the published program saved as a file and run with Python."""
    if example != "hello":
        pytest.importorskip("a2a.client")  # the payload in the string runs in main(), after the SDK's imports
    python = _published_python(tmp_path, schemes, example)
    (tmp_path / "snippet.py").write_bytes(python.encode("utf-8"))
    subprocess.run(
        [sys.executable, "snippet.py"], cwd=tmp_path, capture_output=True, timeout=120, check=False
    )
    assert not (tmp_path / "pwned").exists()
    # What the card said is data: the example is the message's text, the scheme name stays in a comment.
    tree = ast.parse(python.encode("utf-8"))
    assert example in {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)}
    assert [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "__import__"] == []
