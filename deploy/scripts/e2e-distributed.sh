#!/usr/bin/env bash
# The browser journey against the distributed mode (issue 25): every target its own process on
# loopback (the gateway, the eight services and two render workers) on PostgreSQL, Redis, RabbitMQ
# and S3 (`services-up.sh` starts them), each run on its own database, RabbitMQ virtual host, S3
# prefix and Redis database, so runs never see each other's data. `reelforge admin migrate` migrates
# once; every target starts with REELFORGE_SKIP_MIGRATIONS=1. Then frontend/e2e/run.mjs runs the
# sign-in, render, material, editor and template checks, unchanged, against the gateway, and the
# workers' metrics must show that the renders happened in the worker processes.
#
#   bash deploy/scripts/e2e-distributed.sh [GATEWAY_PORT]
#
# E2E_ONLY: the checks (default below); BIN: another reelforge binary; E2E_KEEP=1 keeps the run's
# directory (logs of every target) and database; E2E_REDIS_DB: the Redis database of the runs (13),
# emptied at start.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${BIN:-${CARGO_TARGET_DIR:-$HOME/.cache/reelforge/target}/debug/reelforge}  # the Makefile's target directory
CHECKS=${E2E_ONLY:-home,sign-in-journey-zh,real-render,my-material,editor-journey,template-journey,market-journey,no-page-errors}
PG=${REELFORGE_TEST_POSTGRES:-postgres://postgres@127.0.0.1:5432}
AMQP_BASE=${E2E_AMQP_BASE:-amqp://guest:guest@127.0.0.1:5672}
REDIS_DB=${E2E_REDIS_DB:-13}
S3_BASE=${E2E_S3:-s3://reelforge-test?endpoint=http://127.0.0.1:8333&region=us-east-1&anonymous}
started=$SECONDS
log() { printf 'e2e-distributed [%3ss]: %s\n' "$((SECONDS - started))" "$*"; }

[ -x "$BIN" ] || { echo "e2e-distributed: no binary at $BIN (cargo build -p reelforge)"; exit 2; }
[ -f "$ROOT/frontend/dist/index.html" ] || { echo "e2e-distributed: no frontend/dist (cd frontend && npm run build)"; exit 2; }
bash "$ROOT/deploy/scripts/services-up.sh" >/dev/null

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
RUN_ID=e2e$(date +%s)$$
RUN=$(mktemp -d -t reelforge-e2e-dist.XXXXXX)
DB=rf_$RUN_ID
VHOST=rf_$RUN_ID
PIDS=()
NAMES=()

cleanup() {
  local rc=$?
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rabbitmqctl delete_vhost "$VHOST" >/dev/null 2>&1 || true
  if [ "${E2E_KEEP:-0}" = 1 ]; then
    log "kept $RUN and database $DB"
  else
    psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1 || true
    rm -rf "$RUN"
  fi
  exit $rc
}
trap cleanup EXIT

# The run's own backends: a database, a virtual host, an S3 prefix, an emptied Redis database.
psql "$PG/postgres" -qc "CREATE DATABASE $DB" >/dev/null
rabbitmqctl add_vhost "$VHOST" >/dev/null
rabbitmqctl set_permissions -p "$VHOST" guest '.*' '.*' '.*' >/dev/null
redis-cli -n "$REDIS_DB" flushdb >/dev/null
SECRET=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
export REELFORGE_DATABASE__URL=$PG/$DB \
  REELFORGE_CACHE__URL=redis://127.0.0.1:6379/$REDIS_DB \
  REELFORGE_QUEUE__URL=$AMQP_BASE/$VHOST \
  REELFORGE_STORAGE__URL="$S3_BASE&root=/$RUN_ID" \
  REELFORGE_AUTH__KEYS="[{id=\"e2e\",secret=\"$SECRET\"}]" \
  REELFORGE_SKIP_MIGRATIONS=1 \
  REELFORGE_HTTP__STATIC_DIR=$ROOT/frontend/dist
for svc in AUTH MATERIAL CATEGORY FAVOURITE FONT TASK AI RING; do
  port=$(free_port)
  export "REELFORGE_SERVICES__${svc}__LISTEN=127.0.0.1:$port" "REELFORGE_SERVICES__${svc}__URL=http://127.0.0.1:$port"
done
log "database $DB, vhost $VHOST, S3 prefix /$RUN_ID, Redis db $REDIS_DB; logs in $RUN"

"$BIN" admin migrate >"$RUN/migrate.log" 2>&1 || { cat "$RUN/migrate.log"; exit 1; }
log "migrated ($(grep -c migrated "$RUN/migrate.log") services)"

# start NAME TARGET [VAR=VALUE…]: the target in its own data directory, with its own admin port.
declare -A ADMIN
start() {
  local name=$1 target=$2; shift 2
  local admin; admin=$(free_port)
  mkdir -p "$RUN/$name"
  env REELFORGE_DATA_DIR="$RUN/$name" REELFORGE_ADMIN__ADDR="127.0.0.1:$admin" "$@" \
    "$BIN" "$target" >"$RUN/$name.log" 2>&1 &
  PIDS+=($!)
  NAMES+=("$name")
  ADMIN[$name]=$admin
}
# wait_ready NAME…: each one's admin /readyz answers ready (90 s in all: debug binaries on 2 cores).
wait_ready() {
  local deadline=$((SECONDS + 90)) name i
  for name in "$@"; do
    until curl -fs "http://127.0.0.1:${ADMIN[$name]}/readyz" >/dev/null; do
      for i in "${!NAMES[@]}"; do
        if [ "${NAMES[$i]}" = "$name" ] && ! kill -0 "${PIDS[$i]}" 2>/dev/null; then
          echo "e2e-distributed: $name exited:"; tail -20 "$RUN/$name.log"; exit 1
        fi
      done
      if [ $SECONDS -gt $deadline ]; then echo "e2e-distributed: $name not ready:"; tail -20 "$RUN/$name.log"; exit 1; fi
      sleep 0.3
    done
  done
}

SERVICES=(auth material category favourite font task ai ring)
for svc in "${SERVICES[@]}"; do start "$svc" "$svc"; done
start worker1 worker
start worker2 worker
wait_ready "${SERVICES[@]}" worker1 worker2
PORT=${1:-$(free_port)}
start gateway gateway REELFORGE_HTTP__ADDR="127.0.0.1:$PORT"
wait_ready gateway
deadline=$((SECONDS + 60))
until curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null; do
  [ $SECONDS -lt $deadline ] || { echo "e2e-distributed: the gateway's /readyz (every service) stayed red"; tail -20 "$RUN/gateway.log"; exit 1; }
  sleep 0.3
done
log "11 processes ready (gateway http://127.0.0.1:$PORT, 8 services, 2 workers)"

renders() { # the render count of a worker's /metrics
  curl -fs "http://127.0.0.1:${ADMIN[$1]}/metrics" | awk '$1 == "reelforge_render_seconds_count" { print $2 + 0; f = 1 } END { if (!f) print 0 }'
}

cd "$ROOT/frontend"
# The auth target writes the codes to its data directory's dev outbox (mail.smtp_url is empty);
# E2E_BIN runs `reelforge admin grant` against this run's database (the environment above).
rc=0
E2E_ONLY=$CHECKS E2E_OUTBOX="$RUN/auth/mail-outbox.log" E2E_BIN="$BIN" BASE_URL="http://127.0.0.1:$PORT" \
  E2E_OUT="${E2E_OUT:-$ROOT/frontend/e2e/out/distributed}" node "${E2E_SCRIPT:-e2e/run.mjs}" || rc=$?

r1=$(renders worker1); r2=$(renders worker2)
log "renders: worker1 $r1, worker2 $r2"
for i in "${!NAMES[@]}"; do
  kill -0 "${PIDS[$i]}" 2>/dev/null || { echo "e2e-distributed: ${NAMES[$i]} exited during the journey"; rc=1; }
done
if [ $rc -eq 0 ] && [[ $CHECKS == *render* || $CHECKS == *journey* ]] && [ "$(echo "$r1 + $r2" | bc)" = 0 ]; then
  echo "e2e-distributed: no render was counted by the worker processes"; rc=1
fi
if [ $rc -ne 0 ]; then
  echo "the targets' warnings, errors and failures (the last 15 of each):"
  for name in "${NAMES[@]}"; do
    grep -aE "WARN|ERROR|failed|panicked" "$RUN/$name.log" | tail -15 | sed "s/^/[$name] /" || true
  done
  exit $rc
fi
log "passed"
