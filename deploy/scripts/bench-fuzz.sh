#!/bin/bash
# The fuzz benchmark (issue 24): every parser's fuzz harness (kit's testing::fuzz, on the stable
# toolchain: cargo-fuzz needs nightly) for FUZZ_SECONDS each (default 600), one at a time. Prints a
# line per target, `fuzz <target>: <n> cases, <n> crashes, slowest <ms> ms, peak <MB> MB (seed <n>)`,
# and fails when any target crashed (the shrunk inputs are named, under $TMPDIR/reelforge-fuzz).
# usage: deploy/scripts/bench-fuzz.sh    env: FUZZ_SECONDS=600, REELFORGE_FUZZ_SEED to replay a run
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
export REELFORGE_FUZZ_SECONDS=${FUZZ_SECONDS:-600} RUST_BACKTRACE=0
LOG=$(mktemp)
# package, test target (and a test name where the harness lives in a library)
HARNESSES=(
  "reelforge-kit --test it fuzz::"
  "reelforge-task --test it fuzz::"
  "reelforge-font --test it fuzz::"
  "reelforge-material --test it fuzz::"
  "reelforge-gateway --lib sniffing_fuzz"
)
status=0
for h in "${HARNESSES[@]}"; do
  set -- $h
  cargo test -p "$@" --no-run -q 2>&1 | tail -n 5
  cargo test -q -p "$@" -- --test-threads=1 --nocapture >"$LOG.one" 2>&1 || status=1
  # -o: the test runner's progress dots share the line.
  grep -oE 'fuzz [^ ]+: [0-9]+ cases.*|^Error.*' "$LOG.one" | tee -a "$LOG"
done
echo "bench-fuzz summary (${REELFORGE_FUZZ_SECONDS} s a target, dev profile):"
grep '^fuzz ' "$LOG"
rm -f "$LOG" "$LOG.one"
exit $status
