"""Compile the server's hot path with mypyc (app.compiled says which modules, and how
they are served): ``python tools/compile.py`` builds into ``.compiled/``; with
``--if-stale`` only when the build there does not match the sources. A failed build (no C
compiler, say) changes nothing, says why (``.compiled.log``), and the server runs the set
from source unless an earlier build still matches the sources.

    python tools/compile.py [--if-stale] [--jobs 2]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["UNO_COMPILED"] = "0"  # the compiler reads the sources, never an older build

from app import compiled  # noqa: E402


def build(staging: Path, jobs: int) -> None:
    """Build the set into ``staging``, a new directory beside the old build."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    os.chdir(ROOT)  # mypyc names modules by their paths from here
    paths = [str(compiled.source_of(m).relative_to(ROOT)) for m in compiled.MODULES]
    extensions = mypycify(
        paths,
        opt_level="3",
        group_name=compiled.GROUP,
        multi_file=True,  # one C file per module: compiled in parallel
        target_dir=str(staging / "c"),
    )
    dist = Distribution({"name": "uno-hot-path", "ext_modules": extensions})
    dist.script_name = "compile"
    dist.script_args = [
        "build_ext",
        "--build-lib",
        str(staging),
        "--build-temp",
        str(staging / "o"),
        "--parallel",
        str(jobs),
    ]
    dist.parse_command_line()
    dist.run_commands()


def manifest(staging: Path) -> dict[str, object]:
    def built(name: str) -> str:
        (found,) = staging.glob(f"{name.replace('.', '/')}.*.so")
        return str(found.relative_to(staging))

    return {
        "tag": compiled.build_tag(),
        "lib": built(f"{compiled.GROUP}__mypyc"),
        "modules": {
            m: [built(m), compiled.digest(compiled.source_of(m))] for m in compiled.MODULES
        },
    }


def install(staging: Path) -> None:
    """Put a finished build in place of the one before (the old one moved aside first,
    then removed: a server starting meanwhile finds one build or none, never half of
    one). If another build got there first, this one is dropped: both are of the same
    sources."""
    old = Path(tempfile.mkdtemp(prefix=".compiled.", dir=ROOT)) / "old"
    with contextlib.suppress(FileNotFoundError):
        compiled.BUILD_DIR.rename(old)
    try:
        staging.rename(compiled.BUILD_DIR)
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
    shutil.rmtree(old.parent, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--if-stale", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    files, state = compiled.check()
    if args.if_stale and files:
        return 0
    print(f"Compiling the server's hot path with mypyc ({state})…", file=sys.stderr)
    started = time.monotonic()
    output = io.StringIO()
    # A directory of this build's own: two builds at once never write into each other's.
    staging = Path(tempfile.mkdtemp(prefix=".compiled.", dir=ROOT))
    try:
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            build(staging, args.jobs)
            written = manifest(staging)
    except (Exception, SystemExit) as err:
        shutil.rmtree(staging, ignore_errors=True)
        log = ROOT / ".compiled.log"
        log.write_text(output.getvalue() + f"\n{err!r}\n")
        now = compiled.check()[1]
        print(f"mypyc failed ({type(err).__name__}, see {log}); hot path: {now}", file=sys.stderr)
        return 1
    for scratch in ("c", "o"):
        shutil.rmtree(staging / scratch, ignore_errors=True)
    # The manifest last: a build is served only once it is whole.
    (staging / compiled.MANIFEST).write_text(json.dumps(written, indent=1))
    install(staging)
    print(f"compiled in {time.monotonic() - started:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
