#!/bin/bash
# Benchmark of streamed uploads (issue 13): one video of SIZE_MB (default 200) MB uploaded through
# `reelforge all` to /upload/material. Prints `MB/s: X` and `gateway RSS growth MB: N` (peak
# resident memory of the process while uploading, minus its idle baseline; goal < 64: the file
# goes to storage chunk by chunk, never whole in memory). Fails when the upload is not recorded.
# usage: gateway/benches/upload.sh    env: SIZE_MB=200, OUT=dir, BIN=prebuilt reelforge binary
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SIZE_MB=${SIZE_MB:-200}
OUT=${OUT:-$(mktemp -d)}
MAIL=bench-upload@example.com
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
mkdir -p "$OUT"

fail() { echo "bench-upload: $*" >&2; [ -f "$OUT/reelforge.log" ] && tail -n 30 "$OUT/reelforge.log" >&2; exit 1; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

# The file: a real MP4 header (so the kind check passes) padded to SIZE_MB with random bytes;
# probing will fail on it afterwards, which the benchmark does not measure.
FILE=$OUT/big.mp4
ffmpeg -v error -f lavfi -i testsrc=size=320x240:rate=25 -t 1 -c:v libx264 -preset ultrafast -y "$OUT/head.mp4"
cp "$OUT/head.mp4" "$FILE"
head -c $((SIZE_MB * 1024 * 1024 - $(stat -c %s "$OUT/head.mp4"))) /dev/urandom >>"$FILE"

# BIN=path runs an already built binary (e.g. a debug build on a busy machine) instead.
if [ -z "${BIN:-}" ]; then
  ( cd "$ROOT" && cargo build --release -q -p reelforge --bin reelforge )
  BIN="$CARGO_TARGET_DIR/release/reelforge"
fi

DATA=$OUT/data
mkdir -p "$DATA"
PORT=$(free_port)
ADMIN=$(free_port)
API=http://127.0.0.1:$PORT/diyvrbt
REELFORGE_DATA_DIR=$DATA REELFORGE_HTTP__ADDR=127.0.0.1:$PORT REELFORGE_ADMIN__ADDR=127.0.0.1:$ADMIN \
  REELFORGE_UPLOAD__VIDEO_MB=$((SIZE_MB + 1)) "$BIN" all >"$OUT/reelforge.log" 2>&1 &
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

BASE_KB=$(rss_kb "$PID")
PEAK_KB=$BASE_KB
T0=$EPOCHREALTIME
curl -fsS -H "Authorization: $TOKEN" -H "userId: $MAIL" -F userId="$MAIL" -F type=video -F expireDay=1000 \
  -F categoryId=-1 -F styleId=-1 -F materialState=0 -F "uploadFile=@$FILE;type=video/mp4" \
  "$API/upload/material" >"$OUT/answer.json" &
CURL=$!
while kill -0 "$CURL" 2>/dev/null; do
  KB=$(rss_kb "$PID")
  [ "$KB" -gt "$PEAK_KB" ] && PEAK_KB=$KB
  sleep 0.05
done
wait "$CURL" || fail "the upload request failed"
T1=$EPOCHREALTIME
data upload <"$OUT/answer.json" | grep -q 'UPLOADED - ' || fail "not recorded: $(cat "$OUT/answer.json")"
echo "uploaded: $SIZE_MB MB"
echo "MB/s: $(echo "scale=1; $SIZE_MB / ($T1 - $T0)" | bc)"
echo "gateway RSS growth MB: $(( (PEAK_KB - BASE_KB) / 1024 )) (idle $((BASE_KB / 1024)) MB, peak $((PEAK_KB / 1024)) MB)"
