"""Edges of the input an attacker controls: special files among the cards, invisible characters, CI output."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from a2a_docgen.catalog import load_catalog
from a2a_docgen.cli import main
from a2a_docgen.model import Catalog, Diagnostic
from a2a_docgen.report_formats import format_text
from a2a_docgen.text import unicode
from a2a_docgen.text.slug import identity_key
from a2a_docgen.text.unicode import clean_text, invisible_characters, strip_invisible

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "cards" / "unit-converter.json"


def card(name: str, **members: object) -> dict[str, object]:
    value = json.loads(EXAMPLE.read_text())
    value["name"] = name
    value.update(members)
    return dict(value)


def write(directory: Path, name: str, value: object) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------- special files


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("as_argument", [False, True], ids=["in-a-directory", "named-directly"])
def test_a_fifo_named_json_is_skipped_with_a_diagnostic_never_opened(
    tmp_path: Path, as_argument: bool
) -> None:
    cards = tmp_path / "cards"
    write(cards, "good.json", card("Good"))
    os.mkfifo(cards / "pipe.json")
    paths = [str(cards / "pipe.json"), str(cards / "good.json")] if as_argument else [str(cards)]
    done = subprocess.run(
        [sys.executable, "-m", "a2a_docgen", "check", *paths],
        capture_output=True,
        text=True,
        timeout=60,  # opening the FIFO for reading would block forever
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        check=False,
    )
    assert "pipe.json:1:1: error unreadable" in done.stdout, done
    assert "FIFO" in done.stdout
    assert "2 files" in done.stderr


# -------------------------------------------------------------------------------------------- CI output


def test_text_output_never_starts_a_line_with_a_workflow_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, "::stop-commands::x.json", {"name": "x"})
    monkeypatch.chdir(tmp_path)
    catalog = load_catalog(["::stop-commands::x.json"])
    text = format_text(catalog.diagnostics)
    assert text
    assert not any(line.startswith("::") for line in text.splitlines())
    assert text.startswith("./::stop-commands::x.json:")


def test_check_in_a_directory_of_hostile_file_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, "::error::pwned.json", {"name": "x"})
    monkeypatch.chdir(tmp_path)
    main(["check", "::error::pwned.json"])
    captured = capsys.readouterr()
    assert not any(line.startswith("::") for line in (captured.out + captured.err).splitlines())


# --------------------------------------------------------------------------------- invisible characters

NEWLY_INVISIBLE = [
    "\ufe00", "\ufe0f", "\U000e0100", "\U000e01ef", "\u034f", "\u115f", "\u1160", "\u3164", "\uffa0",
    "\u17b4", "\u17b5", "\u180b", "\u180f", "\u2800", "\U00013430", "\U0001343f", "\U000110bd",
]  # fmt: skip


@pytest.mark.parametrize("ch", NEWLY_INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_invisible_characters_are_marked_reported_and_ignored_for_identity(ch: str) -> None:
    text = f"pay{ch}ments"
    assert clean_text(text) == f"pay⟨U+{ord(ch):04X}⟩ments"
    assert [i for i, _ in invisible_characters(text)] == [3]
    assert strip_invisible(text) == "payments"
    assert identity_key(text) == identity_key("payments")


def test_the_invisible_set_is_derived_from_unicode_properties() -> None:
    derived = unicode.derive_invisible_ranges()
    table = list(unicode._INVISIBLE_RANGES)
    if unicodedata.unidata_version == "14.0.0":
        assert derived == table
    else:  # a newer Unicode may add format characters: regenerate the table (see derive_invisible_ranges)
        covered = {c for low, high in table for c in range(low, high + 1)}
        missing = [f"U+{c:04X}" for low, high in derived for c in range(low, high + 1) if c not in covered]
        assert not missing, (
            f"regenerate _INVISIBLE_RANGES for Unicode {unicodedata.unidata_version}: {missing}"
        )
    for ch in map(chr, range(0x110000)):
        if unicodedata.category(ch) == "Cf":
            assert unicode.is_invisible(ch), f"U+{ord(ch):04X}"


def test_emoji_presentation_selectors_display_as_emoji_but_do_not_count_for_identity() -> None:
    assert clean_text("Payments ✅️") == "Payments ✅️"
    assert clean_text("Call 1️⃣") == "Call 1️⃣"
    assert invisible_characters("Payments ✅️") == []
    assert identity_key("Payments ✅️") == identity_key("Payments ✅")
    assert clean_text("Payments\ufe0f") == "Payments⟨U+FE0F⟩"


def codes(diagnostics: tuple[Diagnostic, ...], code: str) -> list[Diagnostic]:
    return [d for d in diagnostics if d.code == code]


def test_skill_ids_differing_by_a_variation_selector_are_duplicates(tmp_path: Path) -> None:
    skill = json.loads(EXAMPLE.read_text())["skills"][0]
    skills = [dict(skill, id="convert"), dict(skill, id="convert\ufe0f", name="Other")]
    write(tmp_path, "a.json", card("Converter", skills=skills))
    catalog = load_catalog([str(tmp_path)])
    assert len(codes(catalog.diagnostics, "duplicate-skill-id")) == 1


def test_agent_names_differing_by_a_variation_selector_are_one_name(tmp_path: Path) -> None:
    write(tmp_path, "a.json", card("Payments"))
    write(tmp_path, "b.json", card("Payments\ufe0f"))
    catalog = load_catalog([str(tmp_path)])
    assert len(codes(catalog.diagnostics, "duplicate-agent-name")) == 1


@pytest.mark.parametrize("name", ["\u200b", "\u3164\u3164", "\ufe0f", "\u2800 \u115f"])
def test_a_name_made_only_of_invisible_characters_is_an_error(tmp_path: Path, name: str) -> None:
    write(tmp_path, "a.json", card(name))
    catalog = load_catalog([str(tmp_path)])
    assert catalog.cards == ()
    (error,) = codes(catalog.diagnostics, "not-a-card")
    assert error.severity == "error"
    assert "invisible" in error.message


def test_the_plugin_log_uses_the_escaping_formatter(caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("mkdocs")
    from a2a_docgen.site.plugin import A2ADocgenPlugin

    d = Diagnostic(
        file="::x.json",
        line=1,
        column=1,
        pointer="/name",
        severity="warning",
        code="c",
        message="a\u009bb\u202ec",
    )
    plugin = A2ADocgenPlugin()
    plugin.load_config({"cards": "cards"})
    with caplog.at_level(logging.INFO):
        plugin._report(Catalog(cards=(), diagnostics=(d,), excluded=()))
    [line, by_code] = [record.getMessage() for record in caplog.records]
    assert by_code.endswith("by code: 1 c")
    assert "\u009b" not in line
    assert "\u202e" not in line
    assert not line.startswith("::")


def test_the_plugin_quiet_option_logs_only_the_errors(caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("mkdocs")
    from a2a_docgen.site.plugin import A2ADocgenPlugin

    found = [
        Diagnostic(file="a.json", line=1, column=1, pointer="", severity=severity, code=code, message="m")
        for severity, code in (
            ("warning", "unknown-field"),
            ("error", "required-missing"),
            ("warning", "unknown-field"),
        )
    ]
    plugin = A2ADocgenPlugin()
    plugin.load_config({"cards": "cards", "quiet": True})
    with caplog.at_level(logging.INFO):
        plugin._report(Catalog(cards=(), diagnostics=tuple(found), excluded=()))
    logged = [record.getMessage().removeprefix("a2a_docgen: ") for record in caplog.records]
    assert logged == ["a.json:1:1: error required-missing m", "by code: 2 unknown-field, 1 required-missing"]
