"""Reading card files: encodings, JSON strictness, limits, discovery and order."""

from __future__ import annotations

import codecs
import json
import os
from pathlib import Path
from typing import Any

import pytest

from a2a_docgen.catalog import load_card_bytes, load_catalog
from a2a_docgen.errors import UsageError
from a2a_docgen.limits import DEFAULT_LIMITS
from a2a_docgen.load import discover
from a2a_docgen.load.source import PositionIndex
from a2a_docgen.model import Diagnostic

MINIMAL_TEXT = (Path(__file__).parent / "data" / "cards" / "minimal-v1.json").read_text(encoding="utf-8")
MINIMAL: dict[str, Any] = json.loads(MINIMAL_TEXT)


def load(data: bytes, **limits: int) -> tuple[bool, list[Diagnostic]]:
    card, diagnostics = load_card_bytes(
        data, display="card.json", limits=DEFAULT_LIMITS.with_overrides(**limits)
    )
    return card is not None, diagnostics


def single(diagnostics: list[Diagnostic]) -> Diagnostic:
    assert len(diagnostics) == 1, diagnostics
    return diagnostics[0]


def write(path: Path, text: str = MINIMAL_TEXT, name: str | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if name is not None:
        text = json.dumps({**MINIMAL, "name": name})
    path.write_text(text, encoding="utf-8")
    return path


def test_minimal_card_loads_cleanly() -> None:
    assert load(MINIMAL_TEXT.encode()) == (True, [])


def test_invalid_json_is_located() -> None:
    text = '{\n  "name": "x",\n  "description": "y"\n  "version": "1"\n}\n'
    ok, diagnostics = load(text.encode())
    d = single(diagnostics)
    assert not ok
    assert (d.severity, d.code, d.line, d.column, d.pointer) == ("error", "json-syntax", 4, 3, "")
    assert "Expecting ',' delimiter" in d.message


def test_trailing_comma_is_located() -> None:
    _, diagnostics = load(b'{"name": "x",\n}')
    d = single(diagnostics)
    assert (d.code, d.line, d.column) == ("json-syntax", 2, 1)


@pytest.mark.parametrize("data", [b"", b"   \n\t"])
def test_empty_file(data: bytes) -> None:
    ok, diagnostics = load(data)
    d = single(diagnostics)
    assert (ok, d.code, d.severity, d.line, d.column) == (False, "empty-file", "error", 1, 1)


def test_top_level_array() -> None:
    ok, diagnostics = load(b"[" + MINIMAL_TEXT.encode() + b"]")
    d = single(diagnostics)
    assert (ok, d.code, d.line, d.column) == (False, "not-an-object", 1, 1)
    assert "an array" in d.message


def test_utf8_bom_warns_and_loads() -> None:
    ok, diagnostics = load(codecs.BOM_UTF8 + MINIMAL_TEXT.encode())
    d = single(diagnostics)
    assert ok
    assert (d.code, d.severity, d.line, d.column, d.pointer) == ("utf8-bom", "warning", 1, 1, "")


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32"])
def test_utf16_and_utf32_are_errors(encoding: str) -> None:
    ok, diagnostics = load(MINIMAL_TEXT.encode(encoding))
    d = single(diagnostics)
    assert (ok, d.code, d.severity) == (False, "encoding", "error")
    assert "UTF-8" in d.message


def test_invalid_utf8_is_located() -> None:
    ok, diagnostics = load(b'{\n  "name": "caf\xe9"\n}')
    d = single(diagnostics)
    assert (ok, d.code, d.line, d.column) == (False, "encoding", 2, 15)
    assert "0xe9" in d.message


def test_duplicate_keys_name_the_key_and_point_at_the_second() -> None:
    text = '{\n  "name": "a",\n  "skills": [{"id": "x", "id": "y"}],\n  "name": "b"\n}'
    ok, diagnostics = load(text.encode())
    d = single(diagnostics)
    assert (ok, d.code, d.severity) == (False, "duplicate-key", "error")
    assert '"id"' in d.message
    assert (d.pointer, d.line, d.column) == ("/skills/0/id", 3, 26)


def test_nan_is_rejected() -> None:
    _, diagnostics = load(b'{"name": "x", "version": NaN}')
    d = single(diagnostics)
    assert (d.code, d.pointer, d.line, d.column) == ("json-syntax", "/version", 1, 26)


def test_a_huge_integer_gets_our_message_at_its_place() -> None:
    text = '{"name": "x",\n "params": {"small": ' + "9" * 300 + ', "n": -' + "7" * 5000 + "}}"
    _, diagnostics = load(text.encode())
    d = single(diagnostics)
    assert (d.code, d.pointer, d.line, d.column) == (
        "json-syntax",
        "/params/n",
        2,
        len(' "params": {"small": ') + 300 + len(', "n": ') + 1,
    )
    assert "integer of 5000 digits" in d.message
    assert "overflows a 64-bit float" in d.message
    assert "set_int_max_str_digits" not in d.message


@pytest.mark.parametrize("digits", [309, 5000])
def test_integer_beyond_a_double_is_rejected(digits: int) -> None:
    """The a2a-sdk holds ``params`` numbers as doubles and fails on an integer that overflows one
    (OverflowError from ``parse_agent_card``), so such a card is as unreadable as one with ``1e400``."""
    text = (
        '{"name": "x",\n "capabilities": {"extensions": [{"uri": "u", "params": {"n": 1'
        + "0" * digits
        + "}}]}}"
    )
    _, diagnostics = load(text.encode())
    d = single(diagnostics)
    assert (d.code, d.pointer, d.line) == ("json-syntax", "/capabilities/extensions/0/params/n", 2)
    assert "overflows a 64-bit float" in d.message
    assert len(d.message) < 120  # the literal is shortened, not repeated digit by digit


def test_a_large_integer_a_double_holds_is_kept() -> None:
    _, diagnostics = load(b'{"name": "x", "params": 12345678901234567890123}')
    assert all(d.code != "json-syntax" for d in diagnostics)


@pytest.mark.parametrize("depth", [40, 100_000])
def test_nesting_too_deep(depth: int) -> None:
    text = '{"name": "x", "deep": ' + "[" * depth + "]" * depth + "}"
    ok, diagnostics = load(text.encode())
    d = single(diagnostics)
    assert (ok, d.code, d.severity, d.line) == (False, "too-deep", "error", 1)
    assert "--max-depth" in d.message
    assert d.pointer.startswith("/deep")
    assert d.column == len('{"name": "x", "deep": ') + DEFAULT_LIMITS.max_depth


def test_depth_limit_is_configurable() -> None:
    text = '{"name": "x", "deep": ' + "[" * 40 + "]" * 40 + "}"
    _, diagnostics = load(text.encode(), max_depth=64)
    assert "too-deep" not in {d.code for d in diagnostics}


def test_repeated_reads_report_once() -> None:
    card = {**MINIMAL, "authentication": None}
    del card["supportedInterfaces"]
    card["url"] = "https://agent.example.com"
    _, diagnostics = load(json.dumps(card).encode())
    assert [d.code for d in diagnostics if d.pointer == "/authentication"] == ["null-value"]


def test_file_above_size_limit(tmp_path: Path) -> None:
    write(tmp_path / "big.json", json.dumps(MINIMAL, indent=8))
    write(tmp_path / "small.json", name="Small")
    size = (tmp_path / "big.json").stat().st_size
    catalog = load_catalog([tmp_path], limits=DEFAULT_LIMITS.with_overrides(max_file_bytes=size - 1))
    assert [c.name for c in catalog.cards] == ["Small"]
    d = single(list(catalog.diagnostics))
    assert (d.code, d.file, d.line, d.column) == (
        "file-too-large",
        os.path.join(str(tmp_path), "big.json"),
        1,
        1,
    )
    assert "--max-file-bytes" in d.message
    assert (
        load_catalog([tmp_path], limits=DEFAULT_LIMITS.with_overrides(max_file_bytes=size)).diagnostics == ()
    )


def test_symlink_outside_the_tree_is_skipped(tmp_path: Path) -> None:
    outside = write(tmp_path / "outside" / "secret.json", name="Outside")
    tree = tmp_path / "tree"
    write(tree / "agent.json", name="Inside")
    (tree / "link.json").symlink_to(outside)
    (tree / "linked-dir").symlink_to(outside.parent, target_is_directory=True)
    catalog = load_catalog([tree])
    assert [c.name for c in catalog.cards] == ["Inside"]
    found = sorted((d.file, d.code, d.severity) for d in catalog.diagnostics)
    assert found == [
        (os.path.join(str(tree), "link.json"), "symlink-outside", "error"),
        (os.path.join(str(tree), "linked-dir"), "symlink-outside", "error"),
    ]


def test_symlink_inside_the_tree_is_read_once(tmp_path: Path) -> None:
    write(tmp_path / "real.json")
    (tmp_path / "alias.json").symlink_to(tmp_path / "real.json")
    catalog = load_catalog([tmp_path])
    assert len(catalog.cards) == 1
    assert catalog.diagnostics == ()


def test_well_known_layouts_found_recursively_in_order(tmp_path: Path) -> None:
    write(tmp_path / "b" / ".well-known" / "agent-card.json", name="B")
    write(tmp_path / "a" / "deeper" / ".well-known" / "agent.json", name="A legacy")
    write(tmp_path / "c.json", name="C")
    write(tmp_path / "c.fetch.json", "{}")  # metadata written by fetch, not a card
    write(tmp_path / "node_modules" / "x.json", "{}")
    (tmp_path / "notes.txt").write_text("not a card")
    found = [f.relpath for f in discover([tmp_path])]
    assert found == ["a/deeper/.well-known/agent.json", "b/.well-known/agent-card.json", "c.json"]
    assert found == [f.relpath for f in discover([tmp_path])]
    catalog = load_catalog([tmp_path])
    assert [c.name for c in catalog.cards] == ["A legacy", "B", "C"]
    assert catalog.diagnostics == ()


def test_arguments_keep_their_order_and_files_are_not_repeated(tmp_path: Path) -> None:
    first = write(tmp_path / "z.json", name="Z")
    write(tmp_path / "a.json", name="A")
    found = [f.display for f in discover([first, tmp_path])]
    assert found == [str(first), os.path.join(str(tmp_path), "a.json")]


def test_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no such file"):
        discover([tmp_path / "missing"])


def test_one_bad_file_does_not_stop_the_others(tmp_path: Path) -> None:
    write(tmp_path / "1.json", "{oops")
    write(tmp_path / "2.json", name="Good")
    (tmp_path / "3.json").write_bytes(b"\xff\xfe" + "{}".encode("utf-16-le"))
    catalog = load_catalog([tmp_path])
    assert [c.name for c in catalog.cards] == ["Good"]
    assert [(Path(d.file).name, d.code) for d in catalog.diagnostics] == [
        ("1.json", "json-syntax"),
        ("3.json", "encoding"),
    ]
    assert [Path(p).name for p in catalog.excluded] == ["1.json", "3.json"]


def test_huge_member_name_is_located_in_linear_time() -> None:
    """Values below a huge member name share their ancestor's pointer instead of each building a longer one
    (which took minutes and gigabytes: one 100,000-character pointer string per value)."""
    key = "k" * 100_000
    text = '{"name": "x", "' + key + '": [' + ",".join(["1"] * 20_000) + "]}"
    index = PositionIndex.build(text)
    assert index.node_count == 20_003
    assert sum(map(len, index.values)) < 3 * len(text)
    _, diagnostics = load(text.encode())
    unknown = [d for d in diagnostics if d.code == "unknown-field"]
    assert [(d.line, d.column) for d in unknown] == [(1, 15)]


@pytest.mark.parametrize(
    ("members", "era"),
    [
        ({"supportedInterfaces": []}, "1.0"),
        ({"protocolVersion": "0.3.0", "url": "https://a.example.com"}, "0.3"),
        ({"protocolVersion": "0.2.9", "preferredTransport": "JSONRPC"}, "0.3"),
        ({"protocolVersion": "0.2.5", "url": "https://a.example.com"}, "0.2"),
        ({"url": "https://a.example.com", "authentication": {"schemes": ["Bearer"]}}, "0.2"),
    ],
)
def test_era_follows_the_shape(members: dict[str, Any], era: str) -> None:
    from a2a_docgen.load import detect_era

    assert detect_era({"name": "x", **members}) == era


@pytest.mark.parametrize(
    ("text", "hint", "position"),
    [
        ('{"name": "x",\n}', "remove the trailing comma", (2, 1)),
        ('{"tags": ["a",]}', "remove the trailing comma", (1, 15)),
        ('{\n  // the name\n  "name": "x"\n}', "no comments", (2, 3)),
        ("{'name': 'x'}", "double quotes", (1, 2)),
    ],
)
def test_syntax_errors_say_the_usual_cause(text: str, hint: str, position: tuple[int, int]) -> None:
    d = single(load(text.encode())[1])
    assert d.code == "json-syntax"
    assert hint in d.message
    assert (d.line, d.column) == position


@pytest.mark.parametrize(
    ("body", "kind"), [(b"null", "null"), (b"true", "a boolean"), (b'"card"', "a string")]
)
def test_scalar_documents_are_not_objects(body: bytes, kind: str) -> None:
    card, diagnostics = load_card_bytes(body, display="card.json")
    assert card is None
    assert [(d.code, d.line, d.column) for d in diagnostics] == [("not-an-object", 1, 1)]
    assert f"the top level is {kind}" in diagnostics[0].message
