#!/usr/bin/env bash
# Schema fuzzing (issue 24): schemathesis against the OpenAPI document `reelforge all` serves, signed
# in as a fresh user, on every operation: no answer may be a 5xx and no connection may drop. `make
# test` runs a short pass (SCHEMA_FUZZ_EXAMPLES=10, about a minute); `make bench-schema` a long one.
#   bash deploy/scripts/schema-fuzz.sh [PORT]
# BIN: another reelforge binary; SCHEMA_FUZZ_EXAMPLES: examples per operation and phase.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PORT=${1:-18190}
BIN=${BIN:-${CARGO_TARGET_DIR:-$ROOT/target}/debug/reelforge}
EXAMPLES=${SCHEMA_FUZZ_EXAMPLES:-10}
TOOLS=${REELFORGE_SCHEMA_TOOLS:-$HOME/.cache/reelforge/schema-tools}
PACKAGE="schemathesis==4.32.5"

# The tool, from PyPI once (a stamp names the version; later runs install nothing).
if [ ! -x "$TOOLS/venv/bin/st" ] || [ "$(cat "$TOOLS/stamp" 2>/dev/null)" != "$PACKAGE" ]; then
  echo "schema-fuzz: installing $PACKAGE into $TOOLS"
  rm -rf "$TOOLS" && mkdir -p "$TOOLS"
  python3 -m venv "$TOOLS/venv"
  "$TOOLS/venv/bin/pip" install -q --disable-pip-version-check "$PACKAGE"
  echo "$PACKAGE" >"$TOOLS/stamp"
fi

DATA=$(mktemp -d)
export REELFORGE_DATA_DIR=$DATA REELFORGE_HTTP__ADDR=127.0.0.1:$PORT REELFORGE_ADMIN__ADDR=127.0.0.1:$((PORT + 1)) \
  REELFORGE_HTTP__STATIC_DIR=$ROOT/frontend/dist
"$BIN" all >"$DATA/reelforge.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$DATA"' EXIT
BASE=http://127.0.0.1:$PORT
for _ in $(seq 1 60); do
  curl -fs "$BASE/readyz" >/dev/null && break
  kill -0 $PID 2>/dev/null || { cat "$DATA/reelforge.log"; exit 1; }
  sleep 0.5
done

# A fresh user, signed in with the code from the dev outbox.
MAIL="schema-fuzz-$$@example.cn"
curl -fs -X POST -H 'content-type: application/json' -d "{\"mail\":\"$MAIL\"}" "$BASE/diyvrbt/user/sendCode" >/dev/null
CODE=$(grep -a "$MAIL" "$DATA/mail-outbox.log" | tail -1 | grep -o '[0-9]\{6\}$')
read -r TOKEN USER_ID < <(curl -fs -X POST -H 'content-type: application/json' -d "{\"mail\":\"$MAIL\",\"code\":\"$CODE\"}" \
  "$BASE/diyvrbt/user/login" | python3 -c 'import json,sys; d=json.load(sys.stdin)["data"]; print(d["token"], d["userId"])')

echo "schema-fuzz: $EXAMPLES examples per operation against $BASE/diyvrbt/openapi.json"
status=0
cd "$DATA" # schemathesis keeps its example database in the working directory
"$TOOLS/venv/bin/st" run "$BASE/diyvrbt/openapi.json" -H "Authorization: $TOKEN" -H "userId: $USER_ID" \
  --checks not_a_server_error --max-examples "$EXAMPLES" --workers 2 --request-timeout 30 --no-color \
  >"$DATA/schemathesis.log" 2>&1 || status=$?
sed -n '/SUMMARY/,$p' "$DATA/schemathesis.log"
if [ $status -ne 0 ]; then
  echo "schema-fuzz: FAILED; what schemathesis found:"
  sed -n '/FAILURES/,/SUMMARY/p' "$DATA/schemathesis.log" | head -150
fi
# A panic is a failure even when its request was answered.
if grep -a "panicked" "$DATA/reelforge.log"; then
  echo "schema-fuzz: FAILED: reelforge panicked"
  status=1
fi
kill -0 $PID 2>/dev/null || { echo "schema-fuzz: FAILED: reelforge exited"; status=1; }
exit $status
