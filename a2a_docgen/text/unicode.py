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

# Invisible and direction-changing characters. They are shown as a marker, never deleted silently: a reader must
# see that "Safe\u202egnp.exe" is not "Safeexe.png". Beyond the usual list this covers every invisible format
# character (U+2065, U+206A-206F, U+FFF9-FFFB, U+1D173-1D17A) and the tag characters U+E0000-E007F, which can
# smuggle whole invisible sentences.
# In ASCII text, everything step 0 changes besides \n (which only ``keep_newlines`` decides about).
_ASCII_NEEDS_CLEANING = re.compile("[\x00-\x09\x0b-\x1f\x7f]")

_INVISIBLE_CLASS = (
    "\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb"
    "\U0001d173-\U0001d17a\U000e0000-\U000e007f"
)
_INVISIBLE = re.compile(f"[{_INVISIBLE_CLASS}]")
# Kept as they are: a subdivision flag (black flag, tag letters, cancel tag) such as England's.
_FLAG_SEQUENCE = "\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f"
_INVISIBLE_OR_FLAG = re.compile(f"(?P<flag>{_FLAG_SEQUENCE})|[{_INVISIBLE_CLASS}]")
_ZWJ = "\u200d"
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


def _invisible_positions(s: str) -> Iterator[int]:
    """Indexes of the characters that ``clean_text`` marks."""
    for m in _INVISIBLE_OR_FLAG.finditer(s):
        if m.group("flag") is None and not (s[m.start()] == _ZWJ and _zwj_in_emoji(s, m.start())):
            yield m.start()


def _marker(ch: str) -> str:
    return f"{_MARK_OPEN}U+{ord(ch):04X}{_MARK_CLOSE}"


def codepoint_label(ch: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``; control characters, which have no name, say so."""
    name = unicodedata.name(ch, "CONTROL CHARACTER" if unicodedata.category(ch) == "Cc" else "")
    return f"U+{ord(ch):04X} {name}" if name else f"U+{ord(ch):04X}"


def invisible_characters(s: str) -> list[tuple[int, str]]:
    """The invisible or bidi characters of ``s`` that ``clean_text`` would mark, as (index, description).

    ``invisible_characters("a\\u202eb") == [(1, "U+202E RIGHT-TO-LEFT OVERRIDE")]``. Joiners inside emoji
    sequences and subdivision flags are not reported.
    """
    return [(i, codepoint_label(s[i])) for i in _invisible_positions(s)]


def strip_invisible(s: str) -> str:
    """``s`` without any invisible or bidi character (including joiners); used for identity, not display."""
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
      between emoji and subdivision-flag tag sequences are kept);
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
