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
