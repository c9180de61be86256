"""Names people choose (players, rooms, tournaments): what is kept, and when two are one.

``clean_name`` is the name as stored and shown: control (Unicode Cc) and format (Cf:
zero-width spaces and joiners, bidirectional overrides, soft hyphens) characters removed,
trimmed, each run of inner whitespace one space. ``name_key`` is what two names are
compared by (bans, one name per room and per tournament): the cleaned name in NFKC
(fullwidth and other compatibility forms become their plain letters), case-folded, and
mapped to its confusables skeleton (UTS #39: each character replaced by the prototype it
looks like, so the Cyrillic "о" and the digit "0" compare as the Latin "o"). Two names
with one key are the same name here; a kicked "Bob" cannot come back as "B0b".

Case is folded before the skeleton, so that names equal but for case always share a key
(the table maps some capitals and their small letters apart: "I" looks like "l", "i" does
not); the price is a capital that looks like a Latin one only as a capital (the Greek "Β"
folds to "β", whose prototype is "ß") is told apart from it.

A leaf module: standard library and the generated table only.
"""

from __future__ import annotations

import unicodedata

from app.confusables import PROTOTYPES

_DROPPED = frozenset({"Cc", "Cf"})


def clean_text(text: str) -> str:
    """``text`` without control and format characters (a typed line: chat, notes)."""
    return "".join(c for c in text if unicodedata.category(c) not in _DROPPED)


def clean_name(name: str) -> str:
    """The name as stored and shown: no control or format characters, trimmed, inner
    whitespace collapsed to single spaces (may be empty: the caller refuses that)."""
    return " ".join(clean_text(name).split())


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character by its prototype, NFD again."""
    mapped = "".join(PROTOTYPES.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_key(name: str) -> str:
    """What names are compared by: equal keys, the same name."""
    plain = clean_name(unicodedata.normalize("NFKC", clean_text(name))).casefold()
    # Folded again after the skeleton: some prototypes are capitals ("l" looks like "I").
    return skeleton(plain).casefold()
