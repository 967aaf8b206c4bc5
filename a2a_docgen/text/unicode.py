"""Step 0 for every card string: printable, normalised text, with invisible characters made visible.

Card text is untrusted: it may hold control characters, lone surrogates, line breaks of every kind, and
characters that do not show or that reorder text (zero-width spaces, bidi overrides, Unicode tag characters).
``clean_text`` makes it printable and shows each invisible character as a marker such as ``⟨U+202E⟩``; the
validator reports the same characters (``invisible_characters``) and compares ids without them
(``strip_invisible``). Nothing here knows about Markdown or HTML: the encoders of ``render/escape.py`` build on it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

__all__ = [
    "clean_text",
    "codepoint_label",
    "invisible_characters",
    "is_invisible",
    "one_line",
    "require_str",
    "strip_invisible",
    "truncate",
]

_LINE_BREAKS = re.compile("\r\n|[\r\x0b\x0c\x85\u2028\u2029]")
# C0 except TAB/LF (CR and VT/FF are line breaks, handled first), DEL, C1 except NEL, surrogates, U+FFFE/FFFF.
_DROPPED = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")

# In ASCII text, everything step 0 changes besides \n (which only ``keep_newlines`` decides about).
_ASCII_NEEDS_CLEANING = re.compile("[\x00-\x09\x0b-\x1f\x7f]")

# Invisible and direction-changing characters. They are shown as a marker, never deleted silently: a reader must
# see that "Safe\u202egnp.exe" is not "Safeexe.png". The set is derived from Unicode properties, not listed by
# hand: every default-ignorable code point and every format character (see ``derive_invisible_ranges``).
# Python's ``unicodedata`` has the general category (Cf) but not the binary properties, so the two below are
# the lists of Unicode's PropList.txt (stable since Unicode 14).
OTHER_DEFAULT_IGNORABLE = (
    (0x034F, 0x034F),  # COMBINING GRAPHEME JOINER
    (0x115F, 0x1160),  # HANGUL CHOSEONG FILLER, HANGUL JUNGSEONG FILLER
    (0x17B4, 0x17B5),  # KHMER VOWEL INHERENT AQ, AA
    (0x2065, 0x2065),  # reserved
    (0x3164, 0x3164),  # HANGUL FILLER
    (0xFFA0, 0xFFA0),  # HALFWIDTH HANGUL FILLER
    (0xFFF0, 0xFFF8),  # reserved
    (0xE0000, 0xE0000),  # reserved
    (0xE0002, 0xE001F),  # reserved
    (0xE0080, 0xE00FF),  # reserved
    (0xE01F0, 0xE0FFF),  # reserved
)
"""PropList.txt ``Other_Default_Ignorable_Code_Point``."""
VARIATION_SELECTORS = ((0x180B, 0x180D), (0x180F, 0x180F), (0xFE00, 0xFE0F), (0xE0100, 0xE01EF))
"""PropList.txt ``Variation_Selector`` (Mongolian free variation selectors, VS1-VS16, VS17-VS256)."""
BLANK_LOOKING = (
    (0x2800, 0x2800),  # BRAILLE PATTERN BLANK: a visible character by every property, drawn as nothing
    (0x13430, 0x1343F),  # Egyptian hieroglyph format controls: Cf, some only from Unicode 15 on
)
"""Not default-ignorable, but invisible in a name all the same (no property says so)."""


def derive_invisible_ranges() -> list[tuple[int, int]]:
    """The invisible set from the Unicode data of this Python: Default_Ignorable_Code_Point plus Cf.

    Unicode derives Default_Ignorable_Code_Point (DerivedCoreProperties.txt) as Other_Default_Ignorable_Code_Point
    + Cf + Variation_Selector - White_Space - FFF9..FFFB - 13430..1343F - Prepended_Concatenation_Mark. The
    subtracted format characters are added back here (every Cf counts: U+110BD or U+FFF9 hide text as well),
    and no White_Space character is Cf or in the two lists, so the union is Other_Default_Ignorable_Code_Point +
    Cf + Variation_Selector (+ ``BLANK_LOOKING``). Takes a fifth of a second: ``_INVISIBLE_RANGES`` is its
    output, regenerated with ``python -c "from a2a_docgen.text.unicode import derive_invisible_ranges as d;
    print(d())"`` when Python's Unicode version grows (a test compares them).
    """
    points = {c for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf"}
    for low, high in (*OTHER_DEFAULT_IGNORABLE, *VARIATION_SELECTORS, *BLANK_LOOKING):
        points.update(range(low, high + 1))
    ranges: list[tuple[int, int]] = []
    for point in sorted(points):
        if ranges and ranges[-1][1] == point - 1:
            ranges[-1] = (ranges[-1][0], point)
        else:
            ranges.append((point, point))
    return ranges


_INVISIBLE_RANGES = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x0600, 0x0605), (0x061C, 0x061C), (0x06DD, 0x06DD), (0x070F, 0x070F),
    (0x0890, 0x0891), (0x08E2, 0x08E2), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F),
    (0x202A, 0x202E), (0x2060, 0x206F), (0x2800, 0x2800), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip
"""``derive_invisible_ranges()`` under Unicode 14.0 (Python 3.11)."""

_INVISIBLE_CLASS = "".join(
    re.escape(chr(low)) if low == high else f"{re.escape(chr(low))}-{re.escape(chr(high))}"
    for low, high in _INVISIBLE_RANGES
)
_INVISIBLE = re.compile(f"[{_INVISIBLE_CLASS}]")
# Kept as they are: a subdivision flag (black flag, tag letters, cancel tag) such as England's.
_FLAG_SEQUENCE = "\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f"
_INVISIBLE_OR_FLAG = re.compile(f"(?P<flag>{_FLAG_SEQUENCE})|[{_INVISIBLE_CLASS}]")
_ZWJ = "\u200d"
_PRESENTATION_SELECTORS = frozenset("\ufe0e\ufe0f")
"""Text and emoji presentation selectors (VS15, VS16): shown as they are right after an emoji or a keycap
base, and stripped for identity everywhere (``Payments ✅️`` and ``Payments ✅`` are one name)."""
_KEYCAP_BASES = frozenset("0123456789#*")
_KEYCAP = "\u20e3"
_EMOJI_MODIFIERS = frozenset("\ufe0f\U0001f3fb\U0001f3fc\U0001f3fd\U0001f3fe\U0001f3ff")

_ELLIPSIS = "\u2026"
_MARK_OPEN, _MARK_CLOSE = "\u27e8", "\u27e9"
_MARKER = re.compile(f"{_MARK_OPEN}U\\+[0-9A-F]{{4,6}}{_MARK_CLOSE}")
_MAX_MARKER = len(f"{_MARK_OPEN}U+E007F{_MARK_CLOSE}") + 1


def _is_emoji(ch: str) -> bool:
    return unicodedata.category(ch) == "So"


def _zwj_in_emoji(s: str, i: int) -> bool:
    """Whether the ZWJ at ``s[i]`` joins two emoji (family, profession, flag sequences)."""
    before = i - 1
    while before >= 0 and s[before] in _EMOJI_MODIFIERS:
        before -= 1
    return before >= 0 and i + 1 < len(s) and _is_emoji(s[before]) and _is_emoji(s[i + 1])


def _selects_emoji_presentation(s: str, i: int) -> bool:
    """Whether the VS15/VS16 at ``s[i]`` follows an emoji (``✅️``) or starts a keycap (``1️⃣``)."""
    if s[i] not in _PRESENTATION_SELECTORS or i == 0:
        return False
    before = s[i - 1]
    return _is_emoji(before) or (before in _KEYCAP_BASES and s[i + 1 : i + 2] == _KEYCAP)


def _invisible_positions(s: str) -> Iterator[int]:
    """Indexes of the characters that ``clean_text`` marks."""
    for m in _INVISIBLE_OR_FLAG.finditer(s):
        i = m.start()
        if m.group("flag") is None and not (
            (s[i] == _ZWJ and _zwj_in_emoji(s, i)) or _selects_emoji_presentation(s, i)
        ):
            yield i


def _marker(ch: str) -> str:
    return f"{_MARK_OPEN}U+{ord(ch):04X}{_MARK_CLOSE}"


def codepoint_label(ch: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``; control characters, which have no name, say so."""
    name = unicodedata.name(ch, "CONTROL CHARACTER" if unicodedata.category(ch) == "Cc" else "")
    return f"U+{ord(ch):04X} {name}" if name else f"U+{ord(ch):04X}"


def invisible_characters(s: str) -> list[tuple[int, str]]:
    """The invisible or bidi characters of ``s`` that ``clean_text`` would mark, as (index, description).

    ``invisible_characters("a\\u202eb") == [(1, "U+202E RIGHT-TO-LEFT OVERRIDE")]``. Joiners inside emoji
    sequences, presentation selectors right after an emoji and subdivision flags are not reported.
    """
    return [(i, codepoint_label(s[i])) for i in _invisible_positions(s)]


def strip_invisible(s: str) -> str:
    """``s`` without any invisible or bidi character (joiners and emoji presentation selectors included);
    used for identity, not display."""
    return _INVISIBLE.sub("", s)


def is_invisible(ch: str) -> bool:
    """Whether the character ``ch`` is one of the invisible or bidi characters (joiners included)."""
    return bool(_INVISIBLE.match(ch))


def _mark_invisible(s: str) -> str:
    positions = list(_invisible_positions(s))
    if not positions:
        return s
    parts: list[str] = []
    start = 0
    for i in positions:
        parts.append(s[start:i])
        parts.append(_marker(s[i]))
        start = i + 1
    parts.append(s[start:])
    return "".join(parts)


def truncate(s: str, max_len: int | None) -> str:
    """Cut ``s`` to at most ``max_len`` characters, ending in an ellipsis, without splitting a marker."""
    if max_len is not None and max_len < 1:
        raise ValueError(f"max_len must be at least 1, not {max_len}")
    if max_len is None or len(s) <= max_len:
        return s
    cut = s[: max_len - 1]
    tail_start = max(0, len(cut) - _MAX_MARKER)
    opening = cut.rfind(_MARK_OPEN, tail_start)
    if opening != -1 and _MARK_CLOSE not in cut[opening:] and _MARKER.match(s, opening):
        cut = cut[:opening]
    return cut.rstrip() + _ELLIPSIS


def clean_text(s: str, *, keep_newlines: bool = False, max_len: int | None = None) -> str:
    """Step 0 for every card string: printable, NFC, with invisible characters made visible.

    - line breaks (CRLF, CR, NEL, U+2028, U+2029, VT, FF) become ``\\n``, or a space unless ``keep_newlines``;
    - C0/C1 controls, DEL, lone surrogates and U+FFFE/U+FFFF are dropped; TAB becomes a space;
    - NFC normalisation;
    - invisible and bidi characters are replaced by a visible marker such as ``⟨U+202E⟩`` (zero-width joiners
      between emoji, presentation selectors right after an emoji and subdivision-flag tag sequences are kept);
    - at most ``max_len`` characters, the last one an ellipsis when text was cut.
    """
    if isinstance(s, str) and s.isascii() and not _ASCII_NEEDS_CLEANING.search(s):
        # Printable ASCII and \n only: no line break to unify, nothing to drop, NFC is the identity and no
        # character is invisible.
        return truncate(str(s) if keep_newlines else s.replace("\n", " "), max_len)
    text = _LINE_BREAKS.sub("\n", require_str(s))
    text = _DROPPED.sub("", text).replace("\t", " ")
    text = unicodedata.normalize("NFC", text)
    if not keep_newlines:
        text = text.replace("\n", " ")
    return truncate(_mark_invisible(text), max_len)


def one_line(s: str | None, max_len: int | None) -> str:
    """clean_text, all whitespace runs collapsed to one space, then cut."""
    if s is None:
        return ""
    return truncate(" ".join(clean_text(require_str(s)).split()), max_len)


def require_str(s: object) -> str:
    if not isinstance(s, str):
        raise TypeError(f"expected text, got {type(s).__name__}")
    return s
