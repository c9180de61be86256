"""README's second command is the whole set-up: `./dev test` brings up what the suite needs
(scripts/services.sh), and CI runs exactly that command."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ci_runs_the_readme_test_command_and_nothing_of_its_own() -> None:
    commands = [
        line.strip()
        for line in (ROOT / ".ci" / "run").read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert commands[-1] == "exec ./dev test"
    assert not any("redis-server" in c or "apt-get" in c or "pg_ctl" in c for c in commands)
    assert "./dev test" in (ROOT / "README.md").read_text()


def test_dev_test_brings_up_the_services_before_the_suite() -> None:
    dev = (ROOT / "dev").read_text()
    test_branch = dev[dev.index("    test)") :]
    assert test_branch.index("scripts/services.sh") < test_branch.index("pytest")


def test_the_services_script_leaves_running_services_alone() -> None:
    # Redis and PostgreSQL are up for the suite, so the script has nothing to start.
    done = subprocess.run(
        [str(ROOT / "scripts" / "services.sh")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "starting" not in done.stdout


def test_the_first_start_says_what_it_is_doing_and_keeps_pip_quiet(tmp_path: Path) -> None:
    # The script in a directory of its own whose .venv python records what it is asked
    # to run: the first `./dev serve` announces the set-up before pip runs, quietly; the
    # second goes straight to the server.
    (tmp_path / "dev").write_text((ROOT / "dev").read_text())
    (tmp_path / "dev").chmod(0o755)
    (tmp_path / "pyproject.toml").write_text("")
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(
        '#!/bin/sh\necho "python $*" >> "$(dirname "$0")/../calls"\necho "ran $*" >&2\n'
    )
    python.chmod(0o755)

    def serve() -> list[str]:
        done = subprocess.run(
            [str(tmp_path / "dev"), "serve"], capture_output=True, text=True, timeout=30, check=True
        )
        return done.stderr.splitlines()

    first = serve()
    assert first[0] == "Setting up .venv (first start, about a minute)…"
    calls = (tmp_path / ".venv" / "calls").read_text().splitlines()
    pip_calls = [c for c in calls if " pip install " in c]
    assert len(pip_calls) == 2 and all(" -qq " in c for c in pip_calls)
    assert calls[-1] == "python -m app"
    second = serve()
    # The compiled hot path is checked (and built again if its sources changed) first.
    assert second == ["ran tools/compile.py --if-stale", "ran -m app"]
