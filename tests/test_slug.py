"""Slugs: file names and anchors from hostile ids, stable and safe on every filesystem."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from a2a_docgen.text.slug import anchor, identity_key, plain_slug, slug, tag_key, tag_slug

SLUG_PATTERN = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,39}[a-z0-9])?-[0-9a-f]{10}")
"""Every slug matches this (fully): a stem of 1-40 characters, a dash and ten hex digits."""

HOSTILE_IDS = (
    "../x",
    "../../etc/passwd",
    "/etc/passwd",
    "/abs/path",
    "C:\\Windows\\system32",
    "a/b",
    "a\\b",
    ".",
    "..",
    ".hidden",
    "index",
    "CON",
    "con.txt",
    "NUL",
    "PRN",
    "AUX",
    "COM1",
    "LPT9",
    "",
    "   ",
    "nul\x00byte",
    "\ud800",
    "\u202eexe.png",
    "\u65e5\u672c\u8a9e",
    "x" * 300,
    "-" * 50,
    'a:b*c?d"e<f>g|h',
    "__config",
)
WINDOWS_DEVICES = {
    "con",
    "prn",
    "aux",
    "nul",
    *(f"com{i}" for i in range(10)),
    *(f"lpt{i}" for i in range(10)),
}


def test_reference_values_are_stable() -> None:
    """Slugs are part of every published URL: a change here breaks links (and must be deliberate)."""
    assert slug("CON") == "con-c8457d2e94"
    assert slug("") == "x-6e340b9cff"
    assert [slug("Foo"), slug("foo"), slug("FOO")] == ["foo-4bca9be127", "foo-1d2039fa79", "foo-f682fc71c3"]
    assert slug("search", namespace="weather-agent-0123456789") == "search-b54f43211f"


@pytest.mark.parametrize("value", HOSTILE_IDS)
def test_hostile_ids_give_plain_file_names(value: str, tmp_path: Path) -> None:
    name = slug(value)
    assert SLUG_PATTERN.fullmatch(name), name
    assert 3 <= len(name) <= 51
    assert name.split(".")[0] not in WINDOWS_DEVICES
    assert not name.startswith(("-", "."))
    path = tmp_path / f"{name}.md"
    with open(path, "x", encoding="utf-8") as handle:
        handle.write("ok\n")
    assert os.path.realpath(path).startswith(os.path.realpath(tmp_path) + os.sep)


def test_long_ids_are_bounded() -> None:
    assert slug("x" * 300) == "x" * 40 + "-" + slug("x" * 300)[-10:]
    assert len(slug("word-" * 100)) <= 51
    assert not slug("a" * 39 + "-b").startswith("a" * 39 + "--")


def test_unicode_twins_share_a_slug() -> None:
    nfc, nfd = "caf\u00e9", "cafe\u0301"
    assert identity_key(nfc) == identity_key(nfd)
    assert slug(nfc) == slug(nfd)
    assert slug("zero\u200bwidth") == slug("zerowidth")
    assert slug("Safe\u202egnp") == slug("Safegnp")
    assert slug("\ufeffsearch") == slug("search")


def test_case_twins_get_different_lower_case_slugs() -> None:
    slugs = {slug(v) for v in ("Foo", "foo", "FOO")}
    assert len(slugs) == 3
    assert all(s == s.lower() for s in slugs)
    assert len({s.casefold() for s in slugs}) == 3  # distinct on case-insensitive filesystems too


def test_plain_slug_keeps_what_it_is_told_to() -> None:
    assert plain_slug("Agent.Example.com:8443", keep=".-") == "agent.example.com-8443"
    assert plain_slug("..a--b..", keep=".-") == "a--b"
    assert plain_slug("..a--b..") == "a-b"
    assert plain_slug("Caf\u00e9 au lait") == "caf-au-lait"


def test_namespace_separates_equal_ids() -> None:
    assert slug("search", "agent-a") != slug("search", "agent-b")
    assert slug("search", "agent-a").startswith("search-")
    assert slug("a", "b\0c") != slug("a\0b", "c")  # the separator is NUL; ids with NUL are rejected earlier


def test_anchor_prefixes_the_slug() -> None:
    assert anchor("search", "ns") == "skill-" + slug("search", "ns")
    assert anchor("__config", prefix="agent") == "agent-" + slug("__config")
    for bad in ("", "Skill", "a b", "-x", "x-", "1x"):
        with pytest.raises(ValueError, match="prefix"):
            anchor("x", prefix=bad)


def test_tags_group_case_and_spacing_variants() -> None:
    assert tag_key("  Search\u200b  Engine ") == "search engine"
    assert tag_slug("Search Engine") == tag_slug("search  engine") == tag_slug("SEARCH\tENGINE")
    assert tag_slug("search") != tag_slug("search engine")
    assert tag_slug("search") != slug("search")
    assert SLUG_PATTERN.fullmatch(tag_slug("<script>"))


TEXT = st.one_of(st.text(), st.text(st.characters(codec="utf-8")), st.sampled_from(HOSTILE_IDS))


@settings(max_examples=300, deadline=None)
@given(TEXT, st.text(max_size=10))
def test_every_slug_has_the_promised_shape(value: str, namespace: str) -> None:
    name = slug(value, namespace)
    assert SLUG_PATTERN.fullmatch(name)
    assert 3 <= len(name) <= 51
    assert name == slug(value, namespace)
    assert slug(identity_key(value), namespace) == name
    assert SLUG_PATTERN.fullmatch(tag_slug(value))


@settings(max_examples=200, deadline=None)
@given(st.lists(TEXT, min_size=2, max_size=20))
def test_different_ids_never_share_a_file_name(values: list[str]) -> None:
    by_key = {identity_key(v): slug(v).casefold() for v in values}
    assert len(set(by_key.values())) == len(by_key)
