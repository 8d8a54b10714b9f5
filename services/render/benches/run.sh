#!/bin/bash
# Benchmark of the render engine on ref-15s (shared/bench/README.md), with its baselines
# measured in the same run, taking turns run after run: the limit (x264 veryfast CRF 23 on the
# render's own output decoded to raw I420, read from the page cache: the encoder's own cost on
# exactly these frames, with nothing around it), x264 alone fed like our encoder, and the ffmpeg
# filter_complex. Prints wall seconds, × realtime, peak RSS and the ratios (median of RUNS).
# Three documents: ref-15s at 1280×720 and 720×1280, and footage-portrait (720×1280: the clip
# covering the frame blurred, the same clip contained in the middle, a title animating in), the
# render engine's main path, with its own ffmpeg filter_complex (ffmpeg-footage.sh).
# usage: services/render/benches/run.sh   (env: RUNS=5, MEDIA=dir, OUT=dir)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
RUNS=${RUNS:-5}
MEDIA=${MEDIA:-${XDG_CACHE_HOME:-$HOME/.cache}/reelforge/bench-media}
OUT=${OUT:-$(mktemp -d)}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
mkdir -p "$OUT"

source "$HERE/media.sh"
bench_media "$MEDIA"

( cd "$ROOT" && cargo build --release -q -p reelforge-render --bin reelforge-render )
BIN="$CARGO_TARGET_DIR/release/reelforge-render"

# Runs one command once; appends "wall_s max_rss_kb" to file $1.
once() {
  local log=$1; shift
  /usr/bin/time -f "%e %M" -o "$OUT/time.txt" "$@" >/dev/null 2>"$OUT/err.txt" || { cat "$OUT/err.txt"; exit 1; }
  cat "$OUT/time.txt" >> "$log"
}

# Prints "median_wall_s max_rss_mb" of the runs logged in file $1.
summary() {
  awk '{w[NR]=$1; if ($2 > m) m = $2} END {n = asort(w); printf "%s %d\n", w[int((n+1)/2)], m/1024}' "$1"
}

x264_alone() { # W H: 450 raw frames through x264 veryfast CRF 23, fed like our encoder (appsrc-like raw RGBA)
  gst-launch-1.0 -q videotestsrc num-buffers=450 pattern=smpte ! "video/x-raw,format=RGBA,width=$1,height=$2,framerate=30/1" \
    ! queue ! videoconvert ! x264enc speed-preset=veryfast pass=qual quantizer=23 bitrate=2048000 key-int-max=250 ! mp4mux faststart=true ! filesink location="$OUT/x264.mp4"
}
export -f x264_alone; export OUT

limit() { # W H RAW: the raw I420 frames through x264 veryfast CRF 23 (ffmpeg's libx264)
  ffmpeg -hide_banner -loglevel error -y -f rawvideo -pix_fmt yuv420p -video_size "$1x$2" -framerate 30 \
    -i "$3" -c:v libx264 -preset veryfast -crf 23 -an "$OUT/limit.mp4"
}
export -f limit

printf '%-60s %8s %8s %8s\n' "what" "wall s" "× rt" "RSS MB"
row() { printf '%-60s %8s %8.2f %8s\n' "$1" "$2" "$(echo "15 / $2" | bc -l)" "$3"; }
for dims in "720 1280 footage-portrait ffmpeg-footage" "1280 720 ref-15s ffmpeg-baseline" \
  "720 1280 ref-15s-portrait ffmpeg-baseline"; do
  set -- $dims; W=$1; H=$2; DOC=$3; FFMPEG=$4
  rm -f "$OUT"/log-*
  # The limit encodes the render's own frames: one render first (not counted), decoded to raw.
  "$BIN" "$HERE/$DOC.json" --materials "$MEDIA" -o "$OUT/$DOC.mp4" --quiet
  RAW="$OUT/$DOC.yuv"
  ffmpeg -hide_banner -loglevel error -y -i "$OUT/$DOC.mp4" -f rawvideo -pix_fmt yuv420p "$RAW"
  # The three take turns run after run, so a slow spell of the machine hits all of them alike.
  for _ in $(seq "$RUNS"); do
    once "$OUT/log-limit" bash -c "limit $W $H $RAW"
    once "$OUT/log-x264" bash -c "x264_alone $W $H"
    once "$OUT/log-ffmpeg" bash "$HERE/$FFMPEG.sh" "$MEDIA" "$W" "$H" "$OUT/ffmpeg-$DOC.mp4"
    once "$OUT/log-render" "$BIN" "$HERE/$DOC.json" --materials "$MEDIA" -o "$OUT/$DOC.mp4" --quiet
  done
  read -r lw lm < <(summary "$OUT/log-limit")
  read -r xw xm < <(summary "$OUT/log-x264")
  read -r fw fm < <(summary "$OUT/log-ffmpeg")
  read -r rw rm < <(summary "$OUT/log-render")
  row "limit: x264 CRF 23 on the render's I420" "$lw" "$lm"
  row "x264 veryfast alone, 450 raw ${W}x${H} frames" "$xw" "$xm"
  row "ffmpeg filter_complex ${W}x${H} ($FFMPEG)" "$fw" "$fm"
  row "reelforge render $DOC" "$rw" "$rm"
  printf '  ratio to the limit %.2f (target <= 1.15), to encoder alone %.2f, to ffmpeg %.2f (target <= 0.65)\n' \
    "$(echo "$rw / $lw" | bc -l)" "$(echo "$rw / $xw" | bc -l)" "$(echo "$rw / $fw" | bc -l)"
  rm -f "$RAW"
done
echo "outputs in $OUT"
