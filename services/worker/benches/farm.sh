#!/bin/bash
# Benchmark of the render farm (issue 11): N copies of the 720p reference document (ref-15s) saved
# and run through `reelforge all` over the HTTP API, against the same N renders by
# `reelforge render` back to back, in one run. Prints both wall times, `farm/CLI ratio: R`
# (goal <= 1.10) and `first progress ms: N` (first run call to the first task's first
# fetching/rendering event on its SSE stream; goal < 300). A task ending in error (9) or
# cancelled (11) fails the benchmark.
# usage: services/worker/benches/farm.sh
#   env: N=20, MEDIA=dir, OUT=dir, FARM=embedded|distributed (distributed: PostgreSQL, RabbitMQ,
#   Redis and S3 on loopback as `make services-up` starts them; a fresh database and vhost)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
N=${N:-20}
FARM=${FARM:-embedded}
MEDIA=${MEDIA:-${XDG_CACHE_HOME:-$HOME/.cache}/reelforge/bench-media}
OUT=${OUT:-$(mktemp -d)}
REF=$ROOT/services/render/benches/ref-15s.json
DOC=$OUT/ref-15s.json
MAIL=bench@example.com
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
mkdir -p "$OUT"

# Save refuses colours other than #rrggbb (platform §5), and ref-15s gives its caption a
# #rrggbbaa background: both sides render the document with that alpha dropped (#00000080 →
# #000000, the same drawing work), so the farm and the CLI render exactly the same document.
jq 'walk(if type == "string" and test("^#[0-9a-fA-F]{8}$") then .[0:7] else . end)' "$REF" >"$DOC"

source "$ROOT/services/render/benches/media.sh"
bench_media "$MEDIA"

( cd "$ROOT" && cargo build --release -q -p reelforge --bin reelforge )
BIN="$CARGO_TARGET_DIR/release/reelforge"

fail() { echo "bench-farm: $*" >&2; [ -f "$OUT/reelforge.log" ] && tail -n 30 "$OUT/reelforge.log" >&2; exit 1; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
now() { echo "$EPOCHREALTIME"; }
ms_between() { echo "($2 - $1) * 1000 / 1" | bc; }

# The farm's backends. Embedded: SQLite, the database queue, the in-process bus and the blob
# directory under the data dir. Distributed: a fresh PostgreSQL database and RabbitMQ vhost (so
# no other process on the broker consumes these jobs), Redis and the S3 test bucket.
DATA=$OUT/data
mkdir -p "$DATA/blobs"
CLEANUP=()
cleanup() { for c in "${CLEANUP[@]}"; do eval "$c" || true; done; }
trap cleanup EXIT
if [ "$FARM" = distributed ]; then
  NAME=reelforge_bench_$$_$(date +%s)
  psql -q -h 127.0.0.1 -U postgres -c "CREATE DATABASE $NAME" >/dev/null
  CLEANUP+=("psql -q -h 127.0.0.1 -U postgres -c 'DROP DATABASE $NAME WITH (FORCE)' >/dev/null")
  rabbitmqctl -q add_vhost "$NAME" >/dev/null
  CLEANUP+=("rabbitmqctl -q delete_vhost $NAME >/dev/null")
  rabbitmqctl -q set_permissions -p "$NAME" guest '.*' '.*' '.*' >/dev/null
  export REELFORGE_DATABASE__URL=postgres://postgres@127.0.0.1:5432/$NAME
  export REELFORGE_QUEUE__URL=amqp://guest:guest@127.0.0.1:5672/$NAME
  export REELFORGE_STORAGE__URL="s3://reelforge-test?endpoint=http://127.0.0.1:8333&region=us-east-1&anonymous"
  export REELFORGE_CACHE__URL=redis://127.0.0.1:6379/0
elif [ "$FARM" != embedded ]; then
  fail "FARM must be embedded or distributed, not $FARM"
fi

PORT=$(free_port)
ADMIN=$(free_port)
API=http://127.0.0.1:$PORT/diyvrbt
REELFORGE_DATA_DIR=$DATA REELFORGE_HTTP__ADDR=127.0.0.1:$PORT REELFORGE_ADMIN__ADDR=127.0.0.1:$ADMIN \
  "$BIN" all >"$OUT/reelforge.log" 2>&1 &
FARM_PID=$!
CLEANUP=("kill $FARM_PID 2>/dev/null; wait $FARM_PID 2>/dev/null" "${CLEANUP[@]}")
for _ in $(seq 1 120); do
  curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null && break
  kill -0 "$FARM_PID" 2>/dev/null || fail "reelforge all exited"
  sleep 0.5
done
curl -fs "http://127.0.0.1:$PORT/readyz" >/dev/null || fail "reelforge all did not become ready"

# Answers the data of a success envelope from stdin, or fails naming the call.
data() { jq -c 'if .code == 2000 then .data else error("not a success envelope: \(.)") end' || fail "$1"; }
post_json() { curl -fsS -X POST -H 'Content-Type: application/json' "${AUTH[@]}" "$API$1" -d "$2"; }

# Sign in through the API: the embedded default mails the code to the dev outbox.
AUTH=()
post_json /user/sendCode "{\"mail\":\"$MAIL\"}" | data sendCode >/dev/null
CODE=$(tail -n 1 "$DATA/mail-outbox.log" | awk '{print $NF}')
TOKEN=$(post_json /user/login "{\"mail\":\"$MAIL\",\"code\":\"$CODE\"}" | data login | jq -r .token)
AUTH=(-H "Authorization: $TOKEN" -H "userId: $MAIL")

# A document names only server-made sources (docs/tasks.md "Material sources"): the media are
# uploaded as the user's materials like the editor does, and the farm's copy of the document names
# them by their material address; the CLI renders the same document with the plain file names.
FARM_DOC=$OUT/ref-15s-farm.json
cp "$DOC" "$FARM_DOC"
for f in $BENCH_MEDIA_FILES; do
  UP=$(curl -fsS "${AUTH[@]}" "$API/upload/material" -F userId="$MAIL" -F type=auto -F expireDay=1000 \
    -F categoryId=-1 -F styleId=-1 -F materialState=0 -F "uploadFile=@$MEDIA/$f" | data "upload $f")
  MID=$(jq -r 'sub("^UPLOADED - "; "")' <<<"$UP")
  jq --arg f "$f" --arg a "/diyvrbt/material/file/$MID/original" \
    'walk(if . == $f then $a else . end)' "$FARM_DOC" >"$FARM_DOC.tmp" && mv "$FARM_DOC.tmp" "$FARM_DOC"
done
save() { curl -fsS "${AUTH[@]}" "$API/videotask/save" --data-urlencode "taskInfo@$FARM_DOC" --data-urlencode "name=$1" | data save; }
run() { post_json /videotask/runtask "{\"taskId\":$1}" | data "runtask $1" >/dev/null; }
state() { curl -fsS "${AUTH[@]}" "$API/videotask/state?taskId=$1" | data "state $1"; }
# Follows a task's SSE stream into file $2, each line prefixed with the time it was read.
follow() {
  curl -sN "${AUTH[@]}" "$API/videotask/events?taskId=$1" |
    while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; done >"$2"
}

# One farm render first (not counted): it must play for about 15 s, like the CLI's.
ID=$(save check)
run "$ID"
for _ in $(seq 1 1500); do
  ST=$(state "$ID")
  S=$(jq -r .status <<<"$ST")
  case $S in 10) break ;; 9|11) fail "check task $ID ended: $ST" ;; esac
  sleep 0.2
done
[ "$S" = 10 ] || fail "check task $ID did not finish in 300 s: $ST"
curl -fsS "${AUTH[@]}" "$API/videotask/download?taskId=$ID" -o "$OUT/farm-check.mp4"
FARM_S=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$OUT/farm-check.mp4")
echo "farm check render: $FARM_S s"
[ "$(echo "$FARM_S > 14.5 && $FARM_S < 15.5" | bc)" = 1 ] || fail "the farm's render lasts $FARM_S s, not about 15 s"

# The N copies, saved first, then run back to back; each one's event stream is opened right
# after its run call, as the browser does (a stream opened on a task never run ends at once: Watch
# treats "new" as at rest), and followed until it ends with the task.
IDS=()
for i in $(seq 1 "$N"); do IDS+=("$(save "copy $i")"); done
mkdir -p "$OUT/events"
FOLLOWERS=()
T0=$(now)
for id in "${IDS[@]}"; do
  run "$id"
  follow "$id" "$OUT/events/$id" &
  FOLLOWERS+=($!)
done
CLEANUP=("pkill -P $(IFS=,; echo "${FOLLOWERS[*]}") 2>/dev/null" "${CLEANUP[@]}")
# Each stream ends with its task (after its done, error or cancelled event), so the followers are
# waited for rather than polled: a polling loop here would take CPU from the renders it measures.
# The watchdog holds none of the bench's output open, and its sleep ends with it (killing the subshell
# alone left the sleep running for the whole deadline, holding the output of whoever captured it).
( sleep $((120 * N + 120)); kill "${FOLLOWERS[@]}" 2>/dev/null ) >/dev/null 2>&1 </dev/null &
WATCHDOG=$!
wait "${FOLLOWERS[@]}" 2>/dev/null || true
pkill -P "$WATCHDOG" sleep 2>/dev/null || true
kill "$WATCHDOG" 2>/dev/null || true
for id in "${IDS[@]}"; do
  f=$OUT/events/$id
  grep -qE '^[0-9.]+ event: (error|cancelled)$' "$f" && fail "task $id failed: $(state "$id")"
  grep -qE '^[0-9.]+ event: done$' "$f" || fail "task $id has no done event by the deadline: $(state "$id")"
done
# The wall time ends at the last done event read; every task must read status 10 too.
T1=$(cat "$OUT"/events/* | awk '$2 == "event:" && $3 == "done" {print $1}' | sort -n | tail -n 1)
for id in "${IDS[@]}"; do
  S=$(state "$id" | jq -r .status)
  [ "$S" = 10 ] || fail "task $id reads status $S after its done event"
done
FIRST=$(awk -v t0="$T0" '$1 >= t0 && $2 == "data:" && /"stage":"(fetching|rendering)"/ {print $1; exit}' "$OUT/events/${IDS[0]}")
[ -n "$FIRST" ] || fail "no fetching or rendering event for task ${IDS[0]}"
FARM_WALL=$(echo "$T1 - $T0" | bc)

# The same N renders by the CLI back to back; one first (not counted), to check it and warm up alike.
"$BIN" render "$DOC" --materials "$MEDIA" -o "$OUT/cli.mp4" --quiet
echo "CLI check render: $(ffprobe -v error -show_entries format=duration -of csv=p=0 "$OUT/cli.mp4") s"
C0=$(now)
for _ in $(seq 1 "$N"); do "$BIN" render "$DOC" --materials "$MEDIA" -o "$OUT/cli.mp4" --quiet; done
CLI_WALL=$(echo "$(now) - $C0" | bc)

printf 'farm (%s) wall s: %.2f (%d renders)\n' "$FARM" "$FARM_WALL" "$N"
printf 'CLI wall s: %.2f (%d renders back to back)\n' "$CLI_WALL" "$N"
printf 'farm/CLI ratio: %.2f\n' "$(echo "$FARM_WALL / $CLI_WALL" | bc -l)"
echo "first progress ms: $(ms_between "$T0" "$FIRST")"
echo "outputs in $OUT"
