"""Deceptive text in card strings: invisible and bidirectional characters, and instructions to a reader model.

Cards are read by people in a browser and, more and more, by language models choosing an agent. Characters
that do not show (zero-width spaces, bidi overrides, Unicode tag characters) can make two ids look equal or
hide text from the person reviewing a card; sentences such as "ignore previous instructions" are aimed at a
model that reads the card. Both are reported as warnings: the text is still documented, escaped.
"""

from __future__ import annotations

import re
import unicodedata

from a2a_docgen.text import unicode

__all__ = ["identity", "invisible_characters", "plain_ascii", "suspicious_phrases"]

# Category Cc is exactly U+0000-U+001F and U+007F-U+009F.
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f]")
_REPORTED_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # tab and line breaks excepted


def invisible_characters(text: str) -> list[tuple[int, str]]:
    """``(index, "U+XXXX NAME")`` of every character that does not show or reorders text.

    The characters the renderer marks (``text.unicode.invisible_characters``: zero-width, bidi controls,
    tag characters; joiners inside emoji and subdivision flags excepted), plus control characters other
    than tab and line breaks, which the renderer drops.
    """
    found = [] if text.isascii() else unicode.invisible_characters(text)  # every invisible one is non-ASCII
    controls = [(m.start(), unicode.codepoint_label(m.group())) for m in _REPORTED_CONTROLS.finditer(text)]
    return sorted(found + controls) if controls else found


def identity(text: str) -> str:
    """What a reader sees: NFC, with every invisible character removed (for comparing ids)."""
    visible = _CONTROLS.sub("", unicode.strip_invisible(text))
    return visible if visible.isascii() else unicodedata.normalize("NFC", visible)


_PHRASES = re.compile(
    r"\b(?:"
    r"(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*"
    r"(?:previous|prior|above|earlier|preceding|other|system)\s+"
    r"(?:instructions?|prompts?|messages?|rules|directions|context)"
    r"|ignore\s+all\s+prior"
    r"|do\s+not\s+(?:tell|inform|reveal\s+to|mention\s+(?:this\s+)?to)\s+the\s+user"
    r"|don'?t\s+(?:tell|inform)\s+the\s+user"
    r"|system\s+prompt\b"
    r"|you\s+are\s+now\b"
    r"|new\s+instructions\s*:"
    r")",
    re.IGNORECASE,
)


def suspicious_phrases(text: str) -> list[str]:
    """Phrases in ``text`` that address a model reading the card rather than a person, in order.

    The text is compared after NFKC folding with invisible characters removed, so full-width letters or
    zero-width spaces inside a phrase do not hide it.
    """
    visible = identity(text)
    folded = visible if visible.isascii() else unicodedata.normalize("NFKC", visible)
    seen: dict[str, None] = {}
    for match in _PHRASES.finditer(folded):
        seen.setdefault(" ".join(match.group().lower().split()), None)
    return list(seen)


_PHRASE_WORDS = ("ignore", "disregard", "forget", "override", "user", "prompt", "now", "instructions")
"""One of these is in the lower-cased text of every match of ``_PHRASES`` (on ASCII text)."""


def plain_ascii(texts: list[str]) -> bool:
    """True when no text of ``texts`` has a character ``invisible_characters`` reports or a phrase
    ``suspicious_phrases`` finds, for ASCII texts: one scan of them all instead of one per text.

    False proves nothing (a phrase may span two texts, or a text is not ASCII): look at each text then. The
    texts are joined by a space, which ends a word and which ``identity`` keeps, so a phrase in one text is
    also a phrase in the join; no ASCII character is invisible, so ``identity`` only removes controls.
    """
    joined = " ".join(texts)
    if not joined.isascii():
        return False
    if not joined.isprintable():
        if _REPORTED_CONTROLS.search(joined):
            return False
        joined = _CONTROLS.sub("", joined)  # tabs and line breaks, as ``identity`` does
    lowered = joined.lower()
    if not any(word in lowered for word in _PHRASE_WORDS):
        return True
    return _PHRASES.search(joined) is None
