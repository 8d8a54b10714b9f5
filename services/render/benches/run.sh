#!/bin/bash
# Benchmark of the render engine on ref-15s (shared/bench/README.md), with its two baselines
# measured in the same run: x264 alone on the same number of raw frames, and the ffmpeg
# filter_complex, taking turns run after run. Prints wall seconds, × realtime, peak RSS and the
# ratios (median of RUNS).
# usage: services/render/benches/run.sh   (env: RUNS=5, MEDIA=dir, OUT=dir)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
RUNS=${RUNS:-5}
MEDIA=${MEDIA:-${XDG_CACHE_HOME:-$HOME/.cache}/reelforge/bench-media}
OUT=${OUT:-$(mktemp -d)}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
mkdir -p "$MEDIA" "$OUT"

# Media (ffmpeg, synthetic), made once and cached.
if [ ! -f "$MEDIA/music.mp3" ]; then
  ( cd "$MEDIA"
    ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=1280x720:rate=30 -t 10 -c:v libx264 -preset veryfast -pix_fmt yuv420p clip.mp4
    ffmpeg -hide_banner -loglevel error -y -f lavfi -i "mandelbrot=size=1280x720" -frames:v 1 pic1.png
    ffmpeg -hide_banner -loglevel error -y -f lavfi -i "gradients=size=1280x720:seed=7,drawgrid=w=160:h=90:t=4:c=white@0.6" -frames:v 1 pic2.png
    ffmpeg -hide_banner -loglevel error -y -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=20" \
      -f lavfi -i "anoisesrc=color=pink:amplitude=0.1:sample_rate=44100:duration=20" \
      -filter_complex "[0][1]amerge=inputs=2,pan=stereo|c0=c0+c1|c1=0.5*c0+c2" -c:a libmp3lame -b:a 192k music.mp3 )
fi

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

printf '%-44s %8s %8s %8s\n' "what" "wall s" "× rt" "RSS MB"
row() { printf '%-44s %8s %8.2f %8s\n' "$1" "$2" "$(echo "15 / $2" | bc -l)" "$3"; }
for dims in "1280 720 ref-15s" "720 1280 ref-15s-portrait"; do
  set -- $dims; W=$1; H=$2; DOC=$3
  rm -f "$OUT"/log-*
  # The three take turns run after run, so a slow spell of the machine hits all of them alike.
  for _ in $(seq "$RUNS"); do
    once "$OUT/log-x264" bash -c "x264_alone $W $H"
    once "$OUT/log-ffmpeg" bash "$HERE/ffmpeg-baseline.sh" "$MEDIA" "$W" "$H" "$OUT/ffmpeg-$W.mp4"
    once "$OUT/log-render" "$BIN" "$HERE/$DOC.json" --materials "$MEDIA" -o "$OUT/$DOC.mp4" --quiet
  done
  read -r xw xm < <(summary "$OUT/log-x264")
  read -r fw fm < <(summary "$OUT/log-ffmpeg")
  read -r rw rm < <(summary "$OUT/log-render")
  row "x264 veryfast alone, 450 raw ${W}x${H} frames" "$xw" "$xm"
  row "ffmpeg filter_complex ${W}x${H}" "$fw" "$fm"
  row "reelforge render $DOC" "$rw" "$rm"
  printf '  ratio to encoder alone %.2f (target <= 1.25), to ffmpeg %.2f (target <= 0.65)\n' \
    "$(echo "$rw / $xw" | bc -l)" "$(echo "$rw / $fw" | bc -l)"
done
echo "outputs in $OUT"
