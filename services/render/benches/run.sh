#!/bin/bash
# Benchmark of the render engine on ref-15s (shared/bench/README.md), with its baselines
# measured in the same run, taking turns run after run: the limit (x264 veryfast CRF 23 on the
# render's own output decoded to raw I420, read from the page cache: the encoder's own cost on
# exactly these frames, with nothing around it), x264 alone fed like our encoder, and the ffmpeg
# filter_complex; and the floor (the limit with the clips' decode and the AAC encode running
# beside it: the work no render can skip). Prints wall seconds, × realtime, peak RSS and the
# ratios (median of RUNS).
# Three documents: ref-15s at 1280×720 and 720×1280, and footage-portrait (720×1280: the clip
# covering the frame blurred, the same clip contained in the middle, a title animating in), the
# render engine's main path, with its own ffmpeg filter_complex (ffmpeg-footage.sh); and a fifth,
# ref-60s-portrait-1080 (the portrait reference four times over, 60 s at 1080×1920), measured
# against the limit only, whose render also prints its peak RSS in each quarter of the run (a
# render's memory must not grow with its length). Each short document is also rendered warm, as
# the farm's worker renders: the second of two renders in one process (`--repeat 2`), which leaves
# out loading GStreamer's plugins (libav's alone ~70 ms); its ratio is printed beside the cold one.
# usage: services/render/benches/run.sh   (env: RUNS=5, MEDIA=dir, OUT=dir, PROFILE=release|dev,
#   DOCS="footage-portrait ref-15s ref-15s-portrait ref-60s-portrait-1080" to run only some)
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

# PROFILE=dev measures the build `make run` serves and `make test` reuses (the dev profile, its render
# crates optimised in Cargo.toml); the default is the release build the image ships.
if [ "${PROFILE:-release}" = dev ]; then
  ( cd "$ROOT" && cargo build -q -p reelforge-render --bin reelforge-render )
  BIN="$CARGO_TARGET_DIR/debug/reelforge-render"
else
  ( cd "$ROOT" && cargo build --release -q -p reelforge-render --bin reelforge-render )
  BIN="$CARGO_TARGET_DIR/release/reelforge-render"
fi

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

# The floor: the limit with the work no render of the document can skip running beside it, each
# at the drawing's lower priority as in the render: every clip segment the document shows decoded
# once (libavcodec, one thread, as our decoders), and its 15 s of music decoded and encoded to
# AAC 128 kb/s (FFmpeg's fast coder, as ours). Nothing is drawn, composed or converted; the two
# extra processes' start-up (~30 ms each) is counted in. What the render spends above the floor
# is the engine's own work: drawing, and how well it packs around x264.
floor() { # W H RAW SEGMENTS ("START:SECONDS ..." of clip.mp4)
  limit "$1" "$2" "$3" &
  local seg
  for seg in $4; do
    nice -n 10 ffmpeg -v error -threads 1 -ss "${seg%%:*}" -t "${seg##*:}" -i "$MEDIA/clip.mp4" -f null - &
  done
  nice -n 10 ffmpeg -v error -y -t 15 -i "$MEDIA/music.mp3" -c:a aac -aac_coder fast -b:a 128k -ar 48000 -ac 2 "$OUT/floor.m4a" &
  wait
}
export -f floor; export MEDIA

# Runs a command once like `once`, sampling its resident memory every quarter second; appends
# "wall_s max_rss_kb" to file $1 and prints the peak RSS (MB) of each quarter of the run.
rss_quarters() {
  local log=$1; shift
  : > "$OUT/rss.txt"
  /usr/bin/time -f "%e %M" -o "$OUT/time.txt" "$@" >/dev/null 2>"$OUT/err.txt" &
  local timer=$! pid=""
  while kill -0 "$timer" 2>/dev/null; do
    [ -n "$pid" ] || pid=$(pgrep -P "$timer" | head -1 || true)
    if [ -n "$pid" ]; then awk '/^VmRSS/ {print $2}' "/proc/$pid/status" >> "$OUT/rss.txt" 2>/dev/null || true; fi
    sleep 0.25
  done
  wait "$timer" || { cat "$OUT/err.txt"; exit 1; }
  cat "$OUT/time.txt" >> "$log"
  awk '{r[NR] = $1} END {for (q = 0; q < 4; q++) {m = 0; for (i = int(q * NR / 4) + 1; i <= int((q + 1) * NR / 4); i++) if (r[i] > m) m = r[i]; printf "%d ", m / 1024}}' "$OUT/rss.txt"
}

printf '%-60s %8s %8s %8s\n' "what" "wall s" "× rt" "RSS MB"
row() { printf '%-60s %8s %8.2f %8s\n' "$1" "$2" "$(echo "$SECONDS_OF_VIDEO / $2" | bc -l)" "$3"; }
DOCS=${DOCS:-footage-portrait ref-15s ref-15s-portrait ref-60s-portrait-1080}
for dims in "720 1280 footage-portrait ffmpeg-footage 15 0:7.5,2.5:7.5" "1280 720 ref-15s ffmpeg-baseline 15 0:6" \
  "720 1280 ref-15s-portrait ffmpeg-baseline 15 0:6" "1080 1920 ref-60s-portrait-1080 - 60 -"; do
  set -- $dims; W=$1; H=$2; DOC=$3; FFMPEG=$4; SECONDS_OF_VIDEO=$5; SEGMENTS=${6//,/ }
  case " $DOCS " in *" $DOC "*) ;; *) continue ;; esac
  rm -f "$OUT"/log-*
  # The limit encodes the render's own frames: one render first (not counted), decoded to raw.
  "$BIN" "$HERE/$DOC.json" --materials "$MEDIA" -o "$OUT/$DOC.mp4" --quiet
  RAW="$OUT/$DOC.yuv"
  ffmpeg -hide_banner -loglevel error -y -i "$OUT/$DOC.mp4" -f rawvideo -pix_fmt yuv420p "$RAW"
  # The three take turns run after run, so a slow spell of the machine hits all of them alike.
  if [ "$FFMPEG" = - ]; then
    # The long document: the limit and the render only, with the render's memory over time.
    for _ in $(seq "$RUNS"); do
      once "$OUT/log-limit" bash -c "limit $W $H $RAW"
      quarters=$(rss_quarters "$OUT/log-render" "$BIN" "$HERE/$DOC.json" --materials "$MEDIA" -o "$OUT/$DOC.mp4" --quiet)
      echo "  $DOC: peak RSS MB in each quarter of the render: $quarters"
    done
    read -r lw lm < <(summary "$OUT/log-limit")
    read -r rw rm < <(summary "$OUT/log-render")
    row "limit: x264 CRF 23 on the render's I420" "$lw" "$lm"
    row "reelforge render $DOC (${W}x${H}, ${SECONDS_OF_VIDEO} s)" "$rw" "$rm"
    printf '  ratio to the limit %.2f, %.2f× realtime (target >= 4)\n' \
      "$(echo "$rw / $lw" | bc -l)" "$(echo "$SECONDS_OF_VIDEO / $rw" | bc -l)"
    rm -f "$RAW"
    continue
  fi
  for _ in $(seq "$RUNS"); do
    once "$OUT/log-limit" bash -c "limit $W $H $RAW"
    once "$OUT/log-floor" bash -c "floor $W $H $RAW '$SEGMENTS'"
    once "$OUT/log-x264" bash -c "x264_alone $W $H"
    once "$OUT/log-ffmpeg" bash "$HERE/$FFMPEG.sh" "$MEDIA" "$W" "$H" "$OUT/ffmpeg-$DOC.mp4"
    once "$OUT/log-render" "$BIN" "$HERE/$DOC.json" --materials "$MEDIA" -o "$OUT/$DOC.mp4" --quiet
    # The worker's path: a second render in the same process, GStreamer's plugins already loaded.
    "$BIN" "$HERE/$DOC.json" --materials "$MEDIA" -o "$OUT/$DOC.mp4" --quiet --repeat 2 2> "$OUT/warm.txt"
    awk '/^render 2:/ {print $3, 0}' "$OUT/warm.txt" >> "$OUT/log-warm"
  done
  read -r lw lm < <(summary "$OUT/log-limit")
  read -r flw _ < <(summary "$OUT/log-floor")
  read -r xw xm < <(summary "$OUT/log-x264")
  read -r fw fm < <(summary "$OUT/log-ffmpeg")
  read -r rw rm < <(summary "$OUT/log-render")
  read -r ww _ < <(summary "$OUT/log-warm")
  row "limit: x264 CRF 23 on the render's I420" "$lw" "$lm"
  row "floor: the limit, the clips' decode and the AAC beside it" "$flw" "-"
  row "x264 veryfast alone, 450 raw ${W}x${H} frames" "$xw" "$xm"
  row "ffmpeg filter_complex ${W}x${H} ($FFMPEG)" "$fw" "$fm"
  row "reelforge render $DOC" "$rw" "$rm"
  row "reelforge render $DOC, warm (as the worker)" "$ww" "-"
  printf '  ratio to the limit %.2f (target <= 1.15), to encoder alone %.2f, to ffmpeg %.2f (target <= 0.65)\n' \
    "$(echo "$rw / $lw" | bc -l)" "$(echo "$rw / $xw" | bc -l)" "$(echo "$rw / $fw" | bc -l)"
  printf '  warm ratio to the limit %.2f; the floor is %.2f× the limit, the render %.2f× the floor (warm %.2f×)\n' \
    "$(echo "$ww / $lw" | bc -l)" "$(echo "$flw / $lw" | bc -l)" "$(echo "$rw / $flw" | bc -l)" "$(echo "$ww / $flw" | bc -l)"
  rm -f "$RAW"
done
echo "outputs in $OUT"
