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
