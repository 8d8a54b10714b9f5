#!/usr/bin/env bash
# Starts `reelforge all` on a scratch data directory and runs the browser tests against it
# (E2E_SCRIPT: another script under frontend/, e.g. e2e/bench-editor.mjs; BIN: another reelforge binary,
# passed on as E2E_BIN for the checks that run its admin commands).
set -euo pipefail
PORT=${1:-18080}
ADMIN_PORT=${2:-$((PORT + 1))}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/debug/reelforge}
DATA=$(mktemp -d)
export REELFORGE_DATA_DIR=$DATA REELFORGE_HTTP__ADDR=127.0.0.1:$PORT REELFORGE_ADMIN__ADDR=127.0.0.1:$ADMIN_PORT \
  REELFORGE_HTTP__STATIC_DIR=$ROOT/frontend/dist
# The embedded default mails verification codes to this dev outbox; the sign-in journey reads them.
export E2E_OUTBOX=$DATA/mail-outbox.log
# URL import (docs/toolbox.md): the qs site imports videos only from the journeys' own server on this port.
export E2E_IMPORT_PORT=$((PORT + 7))
export REELFORGE_TENANTS__QS__IMPORT_HOSTS="[\"127.0.0.1:$E2E_IMPORT_PORT\"]"
# Video auditing's example word list (docs/ai.md), which the ai-audit journey's clip shows; a key with
# a `-` is set through env(1), the shell's export cannot name it.
env 'REELFORGE_AI__ABILITIES__VIDEO-AUDITING__WORDS=["样例词", "demo word"]' "$BIN" all >"$DATA/reelforge.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$DATA"' EXIT
for _ in $(seq 1 60); do
  curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null && break
  kill -0 $PID 2>/dev/null || { cat "$DATA/reelforge.log"; exit 1; }
  sleep 0.5
done
curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null || { echo "reelforge all did not become ready"; cat "$DATA/reelforge.log"; exit 1; }
cd "$ROOT/frontend"
# A failed check shows the server's warnings and errors too: CI keeps nothing else of this run.
E2E_BIN="$BIN" BASE_URL="http://127.0.0.1:$PORT" E2E_OUT="${E2E_OUT:-$ROOT/frontend/e2e/out}" node "${E2E_SCRIPT:-e2e/run.mjs}" || {
  rc=$?
  echo "reelforge all's warnings, errors and failures (the last 40):"
  grep -aE "WARN|ERROR|failed" "$DATA/reelforge.log" | tail -40 || true
  exit $rc
}
