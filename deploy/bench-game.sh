#!/usr/bin/env bash
# Measures the live path with game-load against a release bridge-club, as the README's
# performance section reports it: on Postgres and Redis (a fresh database and key prefix of its
# own, removed afterwards) and on the embedded default. The bare tonic baseline is measured in the
# same run by game-load itself.
#   deploy/bench-game.sh [seconds] [tables] [in-flight] [connections]
# Needs Postgres at 127.0.0.1:5432 (user postgres, trust) and Redis at 127.0.0.1:6379
# (deploy/local-services.sh starts both).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
tables=${2:-64}
in_flight=${3:-64}
# HTTP/2 connections each side shares (1: as the gateway reaches the service).
connections=${4:-1}
# BENCH_BIN_DIR: binaries built elsewhere (an earlier commit, to compare); else build them here.
if [ -n "${BENCH_BIN_DIR:-}" ]; then
  bin=$BENCH_BIN_DIR
else
  cargo build --release -p club -p e2e --bin bridge-club --bin game-load >&2
  bin=$PWD/${CARGO_TARGET_DIR:-target}/release
fi
work=$(mktemp -d)
db="bench_$$"
cleanup() {
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
  redis-cli -h 127.0.0.1 --scan --pattern "$db:*" | xargs -r redis-cli -h 127.0.0.1 DEL >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

run() { # name, then environment for the server
  local name=$1; shift
  (cd "$work" && exec env "$@" BRIDGE_CLUB__REQUESTS_PER_MINUTE=0 RUST_LOG=warn \
    "$bin/bridge-club" >"$work/$name.log" 2>&1) &
  server=$!
  # Ready once it accepts connections (migrations run first).
  for _ in $(seq 1 150); do (echo >/dev/tcp/127.0.0.1/50051) 2>/dev/null && break; sleep 0.2; done
  echo "== $name"
  "$bin/game-load" --key-file "$work/bridge-club.key" --tables "$tables" --in-flight "$in_flight" --connections "$connections" --seconds "$seconds" | tee "$work/$name.load"
  # The server's CPU per game action (Linux): user and system time since it started, over the
  # actions of the game window (seating and the bare tonic window cost the server little).
  if [ -r "/proc/$server/stat" ]; then
    awk -v tick="$(getconf CLK_TCK)" -v seconds="$seconds" '
      FNR == NR { cpu = ($14 + $15) * 1000 / tick; next }
      /^game actions \(start/ { rate = $4; sub("/s", "", rate) }
      END { if (rate > 0) printf "server CPU per game action: %.3f ms\n", cpu / (rate * seconds) }
    ' "/proc/$server/stat" "$work/$name.load"
  fi
  kill "$server"; wait "$server" 2>/dev/null || true; server=
  rm -f "$work"/bridge-club.db* "$work/bridge-club.key"
}

psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE $db" >/dev/null
case "${BENCH_ONLY:-}" in embedded) ;; *)
run postgres-redis DATABASE_URL="postgres://postgres@127.0.0.1:5432/$db" REDIS_URL="redis://127.0.0.1:6379" BRIDGE_REDIS_PREFIX="$db"
esac
case "${BENCH_ONLY:-}" in postgres-redis) ;; *) run embedded ;; esac
