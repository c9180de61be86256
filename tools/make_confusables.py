"""Write app/confusables.py, the confusables table of Unicode's UTS #39, from a copy of
Unicode's ``confusables.txt``.

    python tools/make_confusables.py [path/to/confusables.txt]

The source is pinned: :data:`SOURCE_URL` and the sha256 of its text,
:data:`SOURCE_SHA256`; a file with another hash is refused. A copy (xz-compressed) sits
beside this script and is read when no path is given; tests/app/test_confusables.py
checks that the table is what this script makes of it.

The table is Unicode 13.0.0's. The oldest Python the project supports (3.11) knows
Unicode 14.0.0 (``unicodedata.unidata_version``); moving the table to it means pinning
14.0.0's file here, with its hash, and running this script again.

Each data line of the file reads ``SOURCE ; TARGET ; MA # comment``: the character SOURCE
looks like the sequence TARGET (its prototype). The module keeps exactly those pairs (in
hex, packed in one string so that the module stays small and quick to import) and the
version line of the file it came from.
"""

from __future__ import annotations

import hashlib
import lzma
import sys
import textwrap
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "app" / "confusables.py"
SOURCE_URL = "https://www.unicode.org/Public/security/13.0.0/confusables.txt"
SOURCE_SHA256 = "96f2500ec78fd96f11561d4b40237435dfece70303b1db3c0974138a333aa206"
PINNED_COPY = Path(__file__).resolve().parent / "confusables-13.0.0.txt.xz"

HEADER = '''"""The confusables table of Unicode's UTS #39 (generated: do not edit).

Made by tools/make_confusables.py from Unicode's confusables.txt ({version}). Each pair
``SOURCE=TARGET`` (code points in hex, a target of several joined by ``.``) says that the
character SOURCE looks like the sequence TARGET, its prototype; app.names reads it for the
confusables skeleton of a name.
"""

from __future__ import annotations

# ruff: noqa: E501 (a pair with a long prototype is one unbroken string)

VERSION = "{version}"

_PAIRS = (
'''

FOOTER = """)

PROTOTYPES: dict[str, str] = {
    chr(int(source, 16)): "".join(chr(int(c, 16)) for c in target.split("."))
    for source, target in (pair.split("=") for pair in _PAIRS.split())
}
"""


def source(path: Path) -> bytes:
    """The file's bytes (an ``.xz`` file decompressed), if they are the pinned source.

    :raises ValueError: another file than :data:`SOURCE_URL`'s.
    """
    data = lzma.decompress(path.read_bytes()) if path.suffix == ".xz" else path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != SOURCE_SHA256:
        raise ValueError(f"{path}: sha256 {digest}, not that of {SOURCE_URL}")
    return data


def read(data: bytes) -> tuple[str, list[str]]:
    version = "unknown version"
    pairs = []
    for line in data.decode("utf-8-sig").splitlines():
        if line.startswith("# Version:"):
            version = "version " + line.split(":", 1)[1].strip()
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        source_cp, target, _kind = (field.strip() for field in text.split(";"))
        pairs.append(f"{source_cp}={'.'.join(target.split())}")
    return version, pairs


def render(data: bytes) -> str:
    """The module app/confusables.py made of the source's bytes."""
    version, pairs = read(data)
    lines = textwrap.wrap(" ".join(pairs), width=86, break_on_hyphens=False, break_long_words=False)
    body = "".join(f'    "{line} "\n' for line in lines)
    return HEADER.format(version=version) + body + FOOTER


def main(argv: list[str]) -> int:
    if len(argv) > 2:
        print(__doc__, file=sys.stderr)
        return 2
    data = source(Path(argv[1]) if len(argv) == 2 else PINNED_COPY)
    OUT.write_text(render(data), encoding="utf-8")
    print(f"{OUT}: {len(read(data)[1])} pairs ({read(data)[0]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
