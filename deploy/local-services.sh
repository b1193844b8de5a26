#!/usr/bin/env bash
# Starts the local Postgres and Redis the tests use, if they are not already answering.
# Postgres: 127.0.0.1:5432, trust auth, user postgres, database test. Redis: 127.0.0.1:6379, nothing on disk.
set -euo pipefail

wait_for() { # description, command...
  local what=$1; shift
  for _ in $(seq 1 60); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  echo "$what did not come up" >&2
  return 1
}

# A fresh Debian machine under CI (root, CI=true) gets what the tests need from apt-get first:
# Postgres (trust auth on loopback, as the tests expect), Redis, curl, Python's venv, and npm
# (for buf and the TypeScript client). Elsewhere a missing tool is only named.
need=()
command -v pg_ctlcluster >/dev/null || need+=(postgresql)
command -v redis-server >/dev/null || need+=(redis-server)
# redis-cli makes the Redis Cluster of the production e2e test (`--cluster create`).
command -v redis-cli >/dev/null || need+=(redis-tools)
command -v curl >/dev/null || need+=(curl)
python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
command -v npm >/dev/null || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  if [ "${CI:-}" = true ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing ${need[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "missing: ${need[*]} (install them, or run under CI=true as root on Debian)" >&2
  fi
fi
# The TypeScript client's generator (@bufbuild/protoc-gen-es, docs/clients.md) needs Node.js 20 or
# later. Debian 12's own nodejs is 18 (Debian 13's is 20); NodeSource's packages are newer.
if command -v node >/dev/null && [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -lt 20 ]; then
  echo "Node.js $(node --version) is older than 20, which the TypeScript client's build needs (docs/clients.md)" >&2
fi
for hba in /etc/postgresql/*/main/pg_hba.conf; do
  if [ -f "$hba" ] && ! grep -q '^host all all 127.0.0.1/32 trust' "$hba"; then
    if [ "${CI:-}" = true ] && [ -w "$hba" ]; then
      # First match wins in pg_hba.conf: trust on loopback goes before the packaged rules.
      sed -i '1i host all all 127.0.0.1/32 trust' "$hba"
      pg_ctlcluster --skip-systemctl-redirect "$(basename "$(dirname "$(dirname "$hba")")")" main reload 2>/dev/null || true
    fi
  fi
done

if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
  echo "starting Postgres"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start
  wait_for Postgres pg_isready -h 127.0.0.1 -p 5432 -q
fi
if ! psql -h 127.0.0.1 -U postgres -d test -Atc 'select 1' >/dev/null 2>&1; then
  psql -h 127.0.0.1 -U postgres -d postgres -c 'CREATE DATABASE test' >/dev/null
fi

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
  wait_for Redis redis-cli -h 127.0.0.1 -p 6379 ping
fi
echo "Postgres and Redis are up"
