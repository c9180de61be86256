"""Compile the server's hot path with mypyc (app.compiled says which modules, and how
they are served): ``python tools/compile.py`` builds into ``.compiled/``; with
``--if-stale`` only when the build there does not match the sources. A failed build (no C
compiler, say) leaves the server running from source, and says why.

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
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["UNO_COMPILED"] = "0"  # the compiler reads the sources, never an older build

from app import compiled  # noqa: E402


def build(jobs: int) -> Path:
    """Build the set into a new directory beside the old build; its path."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    staging = ROOT / ".compiled.new"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
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
    return staging


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
    try:
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            staging = build(args.jobs)
            written = manifest(staging)
    except (Exception, SystemExit) as err:
        log = ROOT / ".compiled.log"
        log.write_text(output.getvalue() + f"\n{err!r}\n")
        print(f"mypyc failed ({err!r}; {log}): the server runs from source", file=sys.stderr)
        return 1
    for scratch in ("c", "o"):
        shutil.rmtree(staging / scratch, ignore_errors=True)
    # The manifest last: a build is served only once it is whole.
    (staging / compiled.MANIFEST).write_text(json.dumps(written, indent=1))
    shutil.rmtree(compiled.BUILD_DIR, ignore_errors=True)
    staging.rename(compiled.BUILD_DIR)
    print(f"compiled in {time.monotonic() - started:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
