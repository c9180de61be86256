"""Write app/confusables.py, the confusables table of Unicode's UTS #39, from a copy of
Unicode's ``confusables.txt``.

    python tools/make_confusables.py path/to/confusables.txt

Each data line of the file reads ``SOURCE ; TARGET ; MA # comment``: the character SOURCE
looks like the sequence TARGET (its prototype). The module keeps exactly those pairs (in
hex, packed in one string so that the module stays small and quick to import) and the
version line of the file it came from.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "app" / "confusables.py"

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


def read(path: Path) -> tuple[str, list[str]]:
    version = "unknown version"
    pairs = []
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        if line.startswith("# Version:"):
            version = "version " + line.split(":", 1)[1].strip()
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        source, target, _kind = (field.strip() for field in data.split(";"))
        pairs.append(f"{source}={'.'.join(target.split())}")
    return version, pairs


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    version, pairs = read(Path(argv[1]))
    lines = textwrap.wrap(" ".join(pairs), width=86, break_on_hyphens=False, break_long_words=False)
    body = "".join(f'    "{line} "\n' for line in lines)
    OUT.write_text(HEADER.format(version=version) + body + FOOTER, encoding="utf-8")
    print(f"{OUT}: {len(pairs)} pairs ({version})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
