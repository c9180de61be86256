"""Names people choose (players, rooms, tournaments): what is kept, and when two are one.

``clean_name`` is the name as stored and shown: control (Unicode Cc) and format (Cf:
zero-width spaces and joiners, bidirectional overrides, soft hyphens) characters removed,
trimmed, each run of inner whitespace one space. ``name_key`` is what two names are
compared by (bans, one name per room and per tournament, one account per name): the
cleaned name in NFKC (fullwidth and other compatibility forms become their plain
letters), mapped to its confusables skeleton (UTS #39: each character replaced by the
prototype it looks like, so the Cyrillic "о" and the digit "0" compare as the Latin "O")
and then case-folded. Two names with one key are the same name here; a kicked "Bob"
cannot come back as "B0b".

The skeleton is taken before case is folded: the table maps some capitals and their
small letters apart ("I" looks like "l", "i" does not), and folded first, "WiII" (capital
i's) would read "wiii" and pass for another name than "Will". Then the folded name goes
once more through its capitals and the skeleton, so that case never parts two names:
"ian", "Ian" and "lan" all meet as "IAN", "lAN", "lan". The price is that more names meet
than an eye would join ("ian" and "lan"); for names chosen to be told apart, that is the
safe side.

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


def _folded_skeleton(text: str) -> str:
    return skeleton(text).casefold()


def name_key(name: str) -> str:
    """What names are compared by: equal keys, the same name.

    >>> name_key("WiII") == name_key("Will") and name_key("lan") == name_key("Ian")
    True
    """
    plain = clean_name(unicodedata.normalize("NFKC", clean_text(name)))
    once = _folded_skeleton(plain)
    return _folded_skeleton(_folded_skeleton(once.upper()))
