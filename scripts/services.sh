#!/usr/bin/env bash
# What the test suite talks to, brought up when missing: Redis on 127.0.0.1:6379,
# PostgreSQL on 127.0.0.1:5432 with the database `test`, Debian's Chromium, Node and npm for
# the JavaScript client's tests, and Caddy for the proxy tests (axe-core, for the
# accessibility check, is kept in tests/web/vendor). Each is started, or installed with
# apt-get/npm where this user may (root); otherwise the missing piece and the command that
# brings it are printed, and the tests that need it say so themselves.
set -uo pipefail
cd "$(dirname "$0")/.."

can_install() { [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; }

apt_updated=""
apt_install() {
    if ! can_install; then
        echo "missing: $* (install it with: sudo apt-get install $*)" >&2
        return 1
    fi
    if [ -z "$apt_updated" ]; then
        apt-get update -qq && apt_updated=1
    fi
    echo "installing $*"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; }
postgres_up() { pg_isready -h 127.0.0.1 -p 5432 >/dev/null 2>&1; }

if ! command -v redis-server >/dev/null 2>&1; then
    apt_install redis-server
fi
if ! redis_up && command -v redis-server >/dev/null 2>&1; then
    echo "starting Redis"
    mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
        --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi

if ! command -v pg_ctlcluster >/dev/null 2>&1 && ! postgres_up; then
    apt_install postgresql
fi
if ! postgres_up && command -v pg_ctlcluster >/dev/null 2>&1; then
    echo "starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start
fi

for _ in $(seq 1 30); do
    redis_up && postgres_up && break
    sleep 1
done

# The PostgreSQL tests connect to the database `test` (trust auth) to make their own.
if postgres_up && ! psql -h 127.0.0.1 -U postgres -d test -c "select 1" >/dev/null 2>&1; then
    echo "creating the PostgreSQL database test"
    createdb -h 127.0.0.1 -U postgres test
fi

# The browser tests drive Debian's Chromium (Playwright cannot download its own here).
if [ ! -x /usr/bin/chromium ]; then
    apt_install chromium
fi

# The JavaScript client's tests (clients/js) run on Node 20+ with npm.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    apt_install nodejs npm
fi

# The proxy tests run Debian's Caddy (the compose file's proxy) in front of real servers.
if ! command -v caddy >/dev/null 2>&1; then
    apt_install caddy
fi
exit 0
