#!/usr/bin/env bash
# `make bench-setup`: how long a newcomer waits. A fresh clone of this checkout's HEAD into an empty
# folder with an empty cargo target directory: `make run` until /readyz answers, printed as
# `cold start s: N` (goal <= 720), then `make test`'s build step alone, printed as
# `test build after run s: N` (goal <= 180). Debian packages and the cargo registry already on the
# machine stay (a fresh machine adds their download and install; `make run` prints each step).
# Not in CI: it rebuilds everything (tens of minutes on two cores).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d)
PORT=${PORT:-18181}
trap '[ -n "${PID:-}" ] && kill "$PID" 2>/dev/null; rm -rf "$WORK"' EXIT
git clone -q "$ROOT" "$WORK/reelforge"
cd "$WORK/reelforge"
export CARGO_TARGET_DIR=$WORK/target
start=$(date +%s)
REELFORGE_HTTP__ADDR=127.0.0.1:$PORT make run >"$WORK/run.log" 2>&1 &
PID=$!
until curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null; do
  kill -0 "$PID" 2>/dev/null || { tail -30 "$WORK/run.log"; echo "make run stopped before /readyz answered"; exit 1; }
  sleep 2
done
echo "cold start s: $(( $(date +%s) - start ))"
kill "$PID"; wait "$PID" 2>/dev/null || true; PID=
start=$(date +%s)
cargo build --workspace --all-targets -q
echo "test build after run s: $(( $(date +%s) - start ))"
