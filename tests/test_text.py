"""The bottom layer's text helpers: step 0 cleaning, invisible characters, safe URLs and JSON text."""

from __future__ import annotations

import json
import unicodedata
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from a2a_docgen.limits import DEFAULT_LIMITS
from a2a_docgen.model import JSONValue
from a2a_docgen.text.jsonio import pretty_json
from a2a_docgen.text.unicode import clean_text, invisible_characters, strip_invisible
from a2a_docgen.text.urls import safe_url
from tests.support.payloads import HOSTILE, JSON_VALUES

SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_clean_text_cuts_with_an_ellipsis_and_never_splits_a_marker() -> None:
    assert clean_text("abcdef", max_len=4) == "abc\u2026"
    assert clean_text("abc", max_len=3) == "abc"
    assert clean_text("ab   cdef", max_len=4) == "ab\u2026"
    assert clean_text("ab\u202ecdef", max_len=6) == "ab\u2026"
    assert clean_text("ab\u202ecdef", max_len=12) == "ab\u27e8U+202E\u27e9c\u2026"
    with pytest.raises(ValueError, match="max_len"):
        clean_text("abc", max_len=0)


def test_invisible_characters_reports_what_clean_text_marks() -> None:
    text = "a\u202eb\u00adc \U0001f469\u200d\U0001f4bb d\u200de \U000e0041"
    assert invisible_characters(text) == [
        (1, "U+202E RIGHT-TO-LEFT OVERRIDE"),
        (3, "U+00AD SOFT HYPHEN"),
        (11, "U+200D ZERO WIDTH JOINER"),
        (14, "U+E0041 TAG LATIN CAPITAL LETTER A"),
    ]
    assert invisible_characters("\u2065") == [(0, "U+2065")]
    assert invisible_characters("plain") == []
    assert strip_invisible(text) == "abc \U0001f469\U0001f4bb de "


def test_clean_text_refuses_what_is_not_text() -> None:
    with pytest.raises(TypeError):
        clean_text(b"bytes")  # type: ignore[arg-type]


def test_safe_url_refuses_non_strings_and_long_urls() -> None:
    for value in (
        None,
        1,
        1.5,
        True,
        ["https://example.com/"],
        {"url": "https://example.com/"},
        b"https://x.y/",
    ):
        assert safe_url(value) is None
    longest = "https://example.com/" + "a" * (DEFAULT_LIMITS.max_url_chars - 20)
    assert safe_url(longest) == longest
    assert safe_url(longest + "a") is None


URLISH = st.builds(
    "{}{}{}".format,
    st.sampled_from(
        ["https://", "http://", "HTTPS://", "javascript:", "mailto:", "data:", "//", "", "ftp://"]
    ),
    st.lists(st.sampled_from([*"abcXYZ09.-_:@[]%\u00fc\u00df\u3002\uff0e", "xn--", "::1"]), max_size=14).map(
        "".join
    ),
    HOSTILE,
)


@PROPERTY
@given(st.one_of(URLISH, HOSTILE))
def test_safe_url_results_revalidate_and_hold_nothing_dangerous(url: str) -> None:
    for allow_mailto in (False, True):
        safe = safe_url(url, allow_mailto=allow_mailto)
        if safe is None:
            continue
        assert safe_url(safe, allow_mailto=allow_mailto) == safe
        assert safe.isascii()
        assert not set(safe) & set(" \t\r\n\"'<>`{}[]()|\\^*")
        parts = urlsplit(safe)
        assert parts.scheme in SAFE_SCHEMES
        if parts.scheme == "mailto":
            assert allow_mailto
            assert "?" not in safe
        else:
            assert parts.hostname
            assert "@" not in parts.netloc


@PROPERTY
@given(JSON_VALUES, st.integers(min_value=0, max_value=4))
def test_pretty_json_is_json_dumps_byte_for_byte(value: JSONValue, indent: int) -> None:
    assert pretty_json(value, indent) == json.dumps(value, indent=indent, ensure_ascii=False, allow_nan=False)


def test_pretty_json_leaves_what_is_not_plain_json_to_json_dumps() -> None:
    value = {"t": ("a", (), [(1.5, None)]), "e": {}, "n": [True, False, -0.0, 10**30]}
    assert pretty_json(value, 2) == json.dumps(value, indent=2, ensure_ascii=False)  # tuples are arrays
    assert (
        pretty_json({1: {"k": 2}}, 1) == '{\n "1": {\n  "k": 2\n }\n}'
    )  # json.dumps turns the key into text
    with pytest.raises(ValueError, match="Out of range float"):
        pretty_json([1, {"x": float("inf")}], 2)
    with pytest.raises(TypeError, match="not JSON serializable"):
        pretty_json({"x": {1, 2}}, 2)


@PROPERTY
@given(HOSTILE)
def test_clean_text_output_is_printable_nfc_and_stable(s: str) -> None:
    out = clean_text(s)
    assert out == unicodedata.normalize("NFC", out)
    assert clean_text(out) == out
    assert not invisible_characters(out)
    assert all(unicodedata.category(ch) not in ("Cc", "Cs") for ch in out)
    kept = clean_text(s, keep_newlines=True)
    assert all(ch == "\n" or unicodedata.category(ch) not in ("Cc", "Cs", "Zl", "Zp") for ch in kept)
