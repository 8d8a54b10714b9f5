#!/bin/bash
# `make bench-load` (issue 24): load on `reelforge all` over loopback. LOAD_SECONDS (default 60; 600
# for the memory check) of: reads (material list, my tasks, task state) at LOAD_READ_RPS (500), task
# saves at LOAD_SAVE_RPS (20), picture uploads at LOAD_UPLOAD_RPS (2), and rounds of LOAD_WATCHERS (500)
# SSE watchers on a render. First a LOAD_BASELINE_SECONDS (10) run of /healthz at the read rate: the
# floor of the HTTP stack and the client, which the reads' p99 is printed against. The driver is
# gateway/examples/load.rs (open-loop: latency counts from each request's scheduled time).
# Goals: reads p99 < 50 ms, 0 errors, memory flat. docs/benchmarks.md, "Load". First, enumeration.py
# times code requests for addresses with and without an account (catalogue S10's time bucket).
# The binary is the dev profile's by default: the one `make run` serves (BIN=… for another, e.g. the
# release build the image ships).
# usage: gateway/benches/load.sh    env: BIN=prebuilt reelforge binary, OUT=dir
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${OUT:-$(mktemp -d)}
MAIL=bench-load@example.com
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
mkdir -p "$OUT"
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"

fail() { echo "bench-load: $*" >&2; [ -f "$OUT/reelforge.log" ] && tail -n 30 "$OUT/reelforge.log" >&2; exit 1; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

if [ -z "${BIN:-}" ]; then
  ( cd "$ROOT" && cargo build -q -p reelforge --bin reelforge )
  BIN="$CARGO_TARGET_DIR/debug/reelforge"
fi
( cd "$ROOT" && cargo build -q -p reelforge-gateway --example load )
DRIVER="$CARGO_TARGET_DIR/debug/examples/load"

DATA=$OUT/data
mkdir -p "$DATA"
PORT=$(free_port)
ADMIN=$(free_port)
API=http://127.0.0.1:$PORT/diyvrbt
# The code limits are lifted so that enumeration.py can ask for many codes from one address.
REELFORGE_DATA_DIR=$DATA REELFORGE_HTTP__ADDR=127.0.0.1:$PORT REELFORGE_ADMIN__ADDR=127.0.0.1:$ADMIN \
  REELFORGE_AUTH__RESEND_SECONDS=0 REELFORGE_AUTH__CODES_PER_ADDRESS_PER_DAY=1000 \
  REELFORGE_AUTH__REQUESTS_PER_IP_MAIL_PER_HOUR=1000 REELFORGE_AUTH__CHALLENGE_AFTER_PER_IP_PER_HOUR=1000000 \
  REELFORGE_AUTH__REQUESTS_PER_IP_PER_HOUR=1000000 REELFORGE_AUTH__CODES_PER_TENANT_PER_DAY=1000000 \
  REELFORGE_LOG__FILTER=warn "$BIN" all >"$OUT/reelforge.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null && break
  kill -0 "$PID" 2>/dev/null || fail "reelforge all exited"
  sleep 0.5
done
curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null || fail "reelforge all did not become ready"

data() { jq -c 'if .code == 2000 then .data else error("not a success envelope: \(.)") end' || fail "$1"; }
post_json() { curl -fsS -X POST -H 'Content-Type: application/json' "$API$1" -d "$2"; }
post_json /user/sendCode "{\"mail\":\"$MAIL\"}" | data sendCode >/dev/null
CODE=$(tail -n 1 "$DATA/mail-outbox.log" | awk '{print $NF}')
TOKEN=$(post_json /user/login "{\"mail\":\"$MAIL\",\"code\":\"$CODE\"}" | data login | jq -r .token)

echo "binary: $BIN; driver: $DRIVER"
python3 "$HERE/enumeration.py" "$API" "$DATA" || fail "enumeration"
LOAD_API=$API LOAD_TOKEN=$TOKEN LOAD_USER=$MAIL LOAD_PID=$PID "$DRIVER"
kill -0 "$PID" 2>/dev/null || fail "reelforge all died under load"
if grep -q "panicked" "$OUT/reelforge.log"; then fail "a panic in the log"; fi
