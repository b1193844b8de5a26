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

ticks() { # process names: "name pid ticks" for each running process of those names
  local name pid
  for name in "$@"; do
    for pid in $(pgrep -x "$name" || true); do
      # utime and stime, the 14th and 15th fields (the names here hold no spaces).
      awk -v name="$name" -v pid="$pid" '{ print name, pid, $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || true
    done
  done
}

run() { # name, then environment for the server
  local name=$1; shift
  (cd "$work" && exec env "$@" BRIDGE_CLUB__REQUESTS_PER_MINUTE=0 RUST_LOG=warn \
    "$bin/bridge-club" >"$work/$name.log" 2>&1) &
  server=$!
  # Ready once it accepts connections (migrations run first).
  for _ in $(seq 1 150); do (echo >/dev/tcp/127.0.0.1/50051) 2>/dev/null && break; sleep 0.2; done
  echo "== $name"
  ticks postgres redis-server >"$work/$name.before"
  "$bin/game-load" --key-file "$work/bridge-club.key" --tables "$tables" --in-flight "$in_flight" --connections "$connections" --seconds "$seconds" | tee "$work/$name.load"
  ticks postgres redis-server >"$work/$name.after"
  # The server's CPU per game action (Linux): user and system time since it started, over the
  # actions of the game window (seating and the bare tonic window cost the server little).
  if [ -r "/proc/$server/stat" ]; then
    awk -v tick="$(getconf CLK_TCK)" -v seconds="$seconds" '
      FNR == NR { cpu = ($14 + $15) * 1000 / tick; next }
      /^game actions \(start/ { rate = $4; sub("/s", "", rate) }
      END { if (rate > 0) printf "server CPU per game action: %.3f ms\n", cpu / (rate * seconds) }
    ' "/proc/$server/stat" "$work/$name.load"
  fi
  # What the rest of the machine spent on the load (Linux): Postgres (every backend, the WAL
  # writer, ...) and Redis over the whole game-load run (idle in its bare tonic window), and
  # game-load's own figure. On a machine they share with the server, they bound the rate whatever
  # the server costs.
  awk -v tick="$(getconf CLK_TCK)" -v seconds="$seconds" -v cores="$(nproc)" '
    FILENAME ~ /before$/ { before[$1 " " $2] = $3; next }
    FILENAME ~ /after$/ { spent[$1] += ($3 - before[$1 " " $2]) * 1000 / tick; next }
    /^bare tonic/ { bare = $5; sub("/s", "", bare) }
    /^game actions \(start/ { rate = $4; sub("/s", "", rate) }
    /^load generator CPU per game action/ { load = $7 }
    END {
      if (rate <= 0) exit
      actions = rate * seconds
      rest = load
      for (name in spent) { printf "%s CPU per game action: %.3f ms\n", name, spent[name] / actions; rest += spent[name] / actions }
      if (rest > 0) {
        printf "Postgres, Redis and the load generator: %.3f ms an action, so on %d cores at most %.0f actions/s even with a server that cost nothing", rest, cores, cores * 1000 / rest
        if (bare > 0) printf " (20%% of bare tonic: %.0f/s)", bare / 5
        printf "\n"
      }
    }
  ' "$work/$name.before" "$work/$name.after" "$work/$name.load"
  kill "$server"; wait "$server" 2>/dev/null || true; server=
  rm -f "$work"/bridge-club.db* "$work/bridge-club.key"
}

psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE $db" >/dev/null
case "${BENCH_ONLY:-}" in embedded) ;; *)
run postgres-redis DATABASE_URL="postgres://postgres@127.0.0.1:5432/$db" REDIS_URL="redis://127.0.0.1:6379" BRIDGE_REDIS_PREFIX="$db"
esac
case "${BENCH_ONLY:-}" in postgres-redis) ;; *) run embedded ;; esac
