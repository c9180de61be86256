#!/usr/bin/env bash
# Run the browser tests: installs Debian's Chromium when it is missing (Playwright cannot
# download its own browser here), then runs tests/web with any extra pytest arguments.
#   tests/web/run.sh            all browser tests
#   tests/web/run.sh -k phone   one of them
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ ! -x "${UNO_CHROMIUM:-/usr/bin/chromium}" ]; then
    echo "installing Chromium"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
    .venv/bin/python -m pip install --quiet -e ".[dev]"
fi
exec .venv/bin/python -m pytest tests/web "$@"
